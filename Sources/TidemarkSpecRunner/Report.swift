/// Tallies example results and writes the runner's report: a pass table per
/// section, the failures, the expected differences, and the summary line.
struct Report {
    struct Result {
        var file: String
        var example: SpecSupport.Example
        /// The rendered HTML, or `nil` when the example's extension word is
        /// unknown (so it could not be run).
        var actual: String?
        var passed: Bool {
            actual.map { SpecSupport.passes(expected: example.html, actual: $0, extension: example.extension) } ?? false
        }
    }

    private struct SectionTally {
        var name: String
        var passed = 0
        var total = 0
    }

    private struct FileTally {
        var name: String
        var sections: [SectionTally] = []
        /// Every example of the file ran (no filter), so expected-difference
        /// entries that match none of its examples are stale.
        var unfiltered: Bool
        var exampleNumbers: Set<Int> = []
        var passed: Int { sections.reduce(0) { $0 + $1.passed } }
        var total: Int { sections.reduce(0) { $0 + $1.total } }
    }

    private var files: [FileTally] = []
    private var failures: [Result] = []
    private var stillDiffering: [(Result, String)] = []
    private var nowPassing: [(Result, String)] = []
    private(set) var passed = 0
    private(set) var total = 0
    var unexpectedFailures: Int { failures.count }

    mutating func beginFile(_ name: String, unfiltered: Bool) {
        files.append(FileTally(name: name, unfiltered: unfiltered))
    }

    mutating func noteExamples(_ numbers: [Int], ofFile name: String) {
        files[files.count - 1].exampleNumbers.formUnion(numbers)
    }

    mutating func record(_ result: Result, expected: SpecSupport.ExpectedDifferences) {
        total += 1
        if result.passed { passed += 1 }
        let section = result.example.section
        if files[files.count - 1].sections.last?.name != section {
            // Sections come in spec order; a name seen again later (rare)
            // gets its own row, which keeps the table in spec order too.
            files[files.count - 1].sections.append(SectionTally(name: section))
        }
        let last = files[files.count - 1].sections.count - 1
        files[files.count - 1].sections[last].total += 1
        if result.passed { files[files.count - 1].sections[last].passed += 1 }

        switch (result.passed, expected.reason(file: result.file, example: result.example.example)) {
        case (true, nil): break
        case (true, let reason?): nowPassing.append((result, reason))
        case (false, nil): failures.append(result)
        case (false, let reason?): stillDiffering.append((result, reason))
        }
    }

    func render(verbose: Bool, failuresShown: Int, expected: SpecSupport.ExpectedDifferences,
                expectedFile: String) -> String {
        var out = ""

        // The table. Long section names are cut so the counts stay aligned.
        let maxName = 60
        let width = min(maxName, files.flatMap { $0.sections.map { $0.name.count + 2 } }
            .reduce(files.map(\.name.count).max() ?? 0, max))
        let countWidth = files.map { "\($0.total)".count * 2 + 1 }.max() ?? 3
        for (index, file) in files.enumerated() {
            if index > 0 { out += "\n" }
            out += row(file.name, file.passed, file.total, width: width, countWidth: countWidth)
            for section in file.sections {
                var name = section.name.isEmpty ? "(no section)" : section.name
                if name.count > width - 2 { name = String(name.prefix(width - 3)) + "…" }
                out += row("  " + name, section.passed, section.total, width: width, countWidth: countWidth)
            }
        }

        // Failures, first the unexpected ones.
        let shown = verbose ? failures : Array(failures.prefix(failuresShown))
        for failure in shown {
            out += "\n" + describe(failure, heading: "FAIL")
        }
        if shown.count < failures.count {
            out += "\n… \(failures.count - shown.count) more failures not shown (--verbose shows all)\n"
        }

        if !stillDiffering.isEmpty || !nowPassing.isEmpty {
            out += "\nExpected differences (\(expectedFile)):\n"
            for (result, reason) in stillDiffering {
                out += "  \(result.file) \(result.example.example): \(reason)\n"
            }
            if verbose {
                for (result, reason) in stillDiffering {
                    out += "\n" + describe(result, heading: "EXPECTED DIFFERENCE (\(reason))")
                }
            }
        }
        for (result, _) in nowPassing {
            out += "note: \(result.file) \(result.example.example) is listed in \(expectedFile) but passes now; "
                + "remove the entry\n"
        }
        for file in files where file.unfiltered {
            for key in expected.keys where key.file == file.name && !file.exampleNumbers.contains(key.example) {
                out += "warning: \(expectedFile) lists \(key.file) \(key.example), which has no such example\n"
            }
        }

        out += "\n\(stillDiffering.count) expected difference\(stillDiffering.count == 1 ? "" : "s")\n"
        out += "\(passed) passed, \(failures.count) failed\n"
        return out
    }

    private func row(_ label: String, _ passed: Int, _ total: Int, width: Int, countWidth: Int) -> String {
        let counts = "\(passed)/\(total)"
        let padding = max(1, width - label.count + 2 + countWidth - counts.count)
        return label + String(repeating: " ", count: padding) + counts + (passed < total ? "  ✗" : "") + "\n"
    }

    /// One failure in full: where it is, the input, both outputs, the diff.
    private func describe(_ result: Result, heading: String) -> String {
        let e = result.example
        var out = "\(heading) \(result.file) example \(e.example), section \"\(e.section)\""
            + " (spec lines \(e.startLine)-\(e.endLine))\n"
        out += "markdown:\n" + indented(e.markdown.replacingTabs())
        out += "expected:\n" + indented(e.html)
        guard let actual = result.actual else {
            out += "error: unknown extension word '\(e.extension ?? "")' for \(result.file)\n"
            return out
        }
        out += "actual:\n" + indented(actual)
        out += "diff:\n" + indented(SpecSupport.unifiedDiff(expected: e.html, actual: actual))
        return out
    }

    /// Every line indented by four spaces; an empty text is shown as such,
    /// and a missing final newline is made visible.
    private func indented(_ text: String) -> String {
        if text.isEmpty { return "    (empty)\n" }
        var out = ""
        // Split on bytes: as a Character, CR LF would not match "\n".
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        let endsWithNewline = lines.last?.isEmpty == true
        if endsWithNewline { lines.removeLast() }
        for line in lines { out += "    " + String(decoding: line, as: UTF8.self) + "\n" }
        if !endsWithNewline { out += "    (no newline at end)\n" }
        return out
    }
}

extension String {
    /// The spec's convention: a tab is shown as `→`.
    fileprivate func replacingTabs() -> String {
        split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "→")
    }
}
