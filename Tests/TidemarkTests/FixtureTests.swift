import Foundation
import Testing
@testable import Tidemark

/// Every example of every fixture file, run with the options the runner
/// uses (`SpecSupport.parseOptions`) and compared byte for byte. An example
/// listed in `Fixtures/expected-differences.txt` must still differ, so a
/// change in either direction is noticed.
@Suite("Spec fixtures")
struct FixtureTests {
    @Test("CommonMark 0.31.2", arguments: try Fixtures.cases(in: "commonmark-0.31.2.json"))
    func commonMark(_ fixture: FixtureCase) throws {
        try check(fixture)
    }

    @Test("GFM 0.29", arguments: try Fixtures.cases(in: "gfm-0.29.0.json"))
    func gfm(_ fixture: FixtureCase) throws {
        try check(fixture)
    }

    @Test("GFM extensions", arguments: try Fixtures.cases(in: "gfm-extensions.json"))
    func gfmExtensions(_ fixture: FixtureCase) throws {
        try check(fixture)
    }

    /// Our own specs (`spec/*.md` → `Fixtures/*.json`).
    @Test("Tidemark specs", arguments: try Fixtures.cases(in: Fixtures.ownFiles))
    func tidemarkSpecs(_ fixture: FixtureCase) throws {
        try check(fixture)
    }

    private func check(_ fixture: FixtureCase) throws {
        let e = fixture.example
        // `renderHTML` sends provisional-display examples (streaming.json)
        // through `Provisional.document(forTextSoFar:)`, the rest through
        // the batch parser, exactly as `tidemark-spec` does.
        let actual = try #require(
            SpecSupport.renderHTML(e, fixtureFile: fixture.file),
            "\(fixture.file) example \(e.example): unknown extension word '\(e.extension ?? "")'")
        let reason = try Fixtures.expectedDifferences().reason(file: fixture.file, example: e.example)
        if let reason {
            #expect(!SpecSupport.passes(expected: e.html, actual: actual, extension: e.extension), """
                \(fixture.file) example \(e.example) is an expected difference (\(reason)) but now \
                matches the fixture: remove it from Fixtures/expected-differences.txt
                """)
        } else {
            #expect(SpecSupport.passes(expected: e.html, actual: actual, extension: e.extension),
                    Comment(rawValue: Self.failureReport(fixture, actual: actual)))
        }
    }

    /// Where the example is, its input (tabs as `→`, as the specs show
    /// them) and the diff from the expected to the actual HTML.
    static func failureReport(_ fixture: FixtureCase, actual: String) -> String {
        let e = fixture.example
        let markdown = e.markdown.split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "→")
        return """
            \(fixture.file) example \(e.example), section "\(e.section)" (spec lines \(e.startLine)-\(e.endLine))
            markdown:
            \(indented(markdown))
            diff:
            \(indented(SpecSupport.unifiedDiff(expected: e.html, actual: actual)))
            """
    }

    private static func indented(_ text: String) -> String {
        if text.isEmpty { return "    (empty)" }
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { "    " + String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
    }
}

/// The machinery behind the fixture tests and `tidemark-spec`.
@Suite("Spec support")
struct SpecSupportTests {
    @Test("the vendored fixtures have the documented number of examples")
    func exampleCounts() throws {
        #expect(try Fixtures.examples(in: "commonmark-0.31.2.json").count == 652)
        #expect(try Fixtures.examples(in: "gfm-0.29.0.json").count == 673)
        #expect(try Fixtures.examples(in: "gfm-extensions.json").count == 28)
    }

    @Test("options per fixture file and extension word")
    func optionRules() {
        let rules = SpecSupport.parseOptions
        #expect(rules("commonmark-0.31.2.json", nil) == .commonmark)
        #expect(rules("gfm-0.29.0.json", nil) == .commonmark)
        #expect(rules("gfm-0.29.0.json", "table") == .table)
        #expect(rules("gfm-0.29.0.json", "strikethrough") == .strikethrough)
        #expect(rules("gfm-0.29.0.json", "autolink") == .autolink)
        #expect(rules("gfm-0.29.0.json", "tagfilter") == .tagfilter)
        #expect(rules("gfm-0.29.0.json", "disabled") == .tasklist)
        #expect(rules("gfm-0.29.0.json", "math") == nil)
        #expect(rules("gfm-extensions.json", nil) == [.table, .strikethrough, .autolink, .tagfilter, .footnotes, .tasklist])
        #expect(rules("math.json", nil) == .default)
        #expect(rules("math.json", "commonmark") == .commonmark)
        #expect(rules("alerts.json", "math") == .math)
        #expect(rules("alerts.json", "mathh") == nil)
        // Paths work like bare names.
        #expect(rules("/x/Fixtures/gfm-0.29.0.json", "table") == .table)
    }

    @Test("every extension word of every fixture is known to the rules")
    func extensionWordsKnown() throws {
        for file in Fixtures.vendored + Fixtures.ownFiles {
            for e in try Fixtures.examples(in: file) {
                #expect(SpecSupport.parseOptions(fixtureFile: file, extension: e.extension) != nil,
                        "\(file) example \(e.example): unknown extension word '\(e.extension ?? "")'")
            }
        }
    }

    @Test("expected-differences.txt parses and names existing examples")
    func expectedDifferencesFile() throws {
        let expected = try Fixtures.expectedDifferences()
        #expect(expected.reason(file: "gfm-0.29.0.json", example: 645) != nil)
        #expect(expected.reason(file: "gfm-0.29.0.json", example: 646) != nil)
        #expect(expected.reason(file: "gfm-extensions.json", example: 23) != nil)
        for key in expected.keys {
            let examples = try Fixtures.examples(in: key.file)
            #expect(examples.contains { $0.example == key.example }, "\(key.file) has no example \(key.example)")
            #expect(expected.reason(file: key.file, example: key.example)?.isEmpty == false,
                    "\(key.file) \(key.example) needs a reason")
        }
    }

    @Test("expected-differences format: comments, blank lines, malformed lines")
    func expectedDifferencesParsing() throws {
        let parsed = try SpecSupport.ExpectedDifferences(parsing: """
            # comment
              # indented comment

            a.json 3 some reason, with words
            b.json 10
            """)
        #expect(parsed.keys.map(\.file) == ["a.json", "b.json"])
        #expect(parsed.reason(file: "a.json", example: 3) == "some reason, with words")
        #expect(parsed.reason(file: "b.json", example: 10) == "")
        #expect(parsed.reason(file: "a.json", example: 4) == nil)
        #expect(throws: SpecSupport.ExpectedDifferences.ParseError.self) {
            try SpecSupport.ExpectedDifferences(parsing: "a.json three reasons\n")
        }
    }

    /// The writer must produce exactly the vendored bytes, so extracted
    /// files look like them and `extract --check` can compare bytes.
    @Test("fixture JSON writer reproduces the vendored files byte for byte", arguments: Fixtures.vendored)
    func writerRoundTrip(_ file: String) throws {
        let url = Fixtures.directory.appendingPathComponent(file)
        let original = try String(contentsOf: url, encoding: .utf8)
        let rewritten = SpecSupport.fixtureJSON(try Fixtures.examples(in: file))
        #expect(rewritten == original, Comment(rawValue: SpecSupport.unifiedDiff(expected: original, actual: rewritten)))
    }

    @Test("<IGNORE> passes any output; otherwise bytes must match")
    func ignoreMarker() {
        #expect(SpecSupport.passes(expected: "<IGNORE>\n", actual: "<p>anything</p>\n"))
        #expect(SpecSupport.passes(expected: "<IGNORE>\n", actual: ""))
        #expect(SpecSupport.passes(expected: "<p>a</p>\n", actual: "<p>a</p>\n"))
        #expect(!SpecSupport.passes(expected: "<p>a</p>\n", actual: "<p>a</p>"))
        #expect(!SpecSupport.passes(expected: "<p><IGNORE></p>\n", actual: ""))
    }

    @Test("JSON string escapes follow Python's json.dumps(ensure_ascii=False)")
    func jsonEscapes() {
        #expect(SpecSupport.jsonString("a\"b\\c") == #""a\"b\\c""#)
        #expect(SpecSupport.jsonString("\u{8}\u{C}\n\r\t") == #""\b\f\n\r\t""#)
        #expect(SpecSupport.jsonString("\u{0}\u{1F}\u{7F}") == "\"\\u0000\\u001f\u{7F}\"")
        #expect(SpecSupport.jsonString("é→😀") == "\"é→😀\"")
    }

    @Test("extraction: fences, separator, tabs, sections, extension words, line numbers")
    func extraction() throws {
        let fence = String(repeating: "`", count: 32)
        let spec = """
            ---
            title: Test
            ---

            # Inline math

            Text before.

            \(fence) example
            $x$→y
            .
            <p><span class="math">x</span>\ty</p>
            \(fence)

            ## Currency

            ```sh
            # not a heading: inside a code block
            ```

            \(fence) example commonmark
            $5 and $10
            .
            <p>$5 and $10</p>
            \(fence)

            \(fence) example math
            .
            \(fence)

            """
        let examples = try SpecSupport.extractExamples(fromSpec: spec)
        #expect(examples == [
            SpecSupport.Example(markdown: "$x$\ty\n", html: "<p><span class=\"math\">x</span>\ty</p>\n",
                                example: 1, startLine: 9, endLine: 13, section: "Inline math", extension: nil),
            SpecSupport.Example(markdown: "$5 and $10\n", html: "<p>$5 and $10</p>\n",
                                example: 2, startLine: 21, endLine: 25, section: "Currency", extension: "commonmark"),
            SpecSupport.Example(markdown: "", html: "",
                                example: 3, startLine: 27, endLine: 29, section: "Currency", extension: "math"),
        ])
        let json = SpecSupport.fixtureJSON(examples)
        #expect(json.hasPrefix("[\n  {\n    \"markdown\": \"$x$\\ty\\n\",\n    \"html\": "))
        #expect(json.contains("    \"section\": \"Currency\",\n    \"extension\": \"commonmark\"\n  },\n"))
        #expect(json.hasSuffix("\"extension\": \"math\"\n  }\n]\n"))
        // A round trip through a JSON decoder gives the examples back.
        let decoded = try JSONDecoder().decode([SpecSupport.Example].self, from: Data(json.utf8))
        #expect(decoded == examples)
    }

    @Test("extraction: CR LF line endings give the same examples")
    func extractionCRLF() throws {
        let fence = String(repeating: "`", count: 32)
        let spec = "# S\n\(fence) example\na\n.\n<p>a</p>\n\(fence)\n"
        let lf = try SpecSupport.extractExamples(fromSpec: spec)
        let crlf = try SpecSupport.extractExamples(fromSpec: spec.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(lf.count == 1)
        #expect(crlf == lf)
    }

    @Test("extraction of text so far: the last line ending is not part of the Markdown")
    func extractionTextSoFar() throws {
        let fence = String(repeating: "`", count: 32)
        let spec = "\(fence) example\n**bol\n.\n<p><strong>bol</strong></p>\n\(fence)\n"
            + "\(fence) example\na\n\n.\n<p>a</p>\n\(fence)\n"
        let examples = try SpecSupport.extractExamples(fromSpec: spec, textSoFar: true)
        #expect(examples.map(\.markdown) == ["**bol", "a\n"])
        #expect(try SpecSupport.extractExamples(fromSpec: spec).map(\.markdown) == ["**bol\n", "a\n\n"])
        #expect(SpecSupport.isProvisional(fixtureFile: "/x/Fixtures/streaming.json"))
        #expect(!SpecSupport.isProvisional(fixtureFile: "math.json"))
    }

    @Test("extraction errors name the line")
    func extractionErrors() {
        let fence = String(repeating: "`", count: 32)
        #expect(throws: SpecSupport.ExtractError.self) {
            try SpecSupport.extractExamples(fromSpec: "\(fence) example\na\n")
        }
        do {
            _ = try SpecSupport.extractExamples(fromSpec: "x\n\(fence) example\na\n\(fence)\n")
            Issue.record("an example without '.' must be rejected")
        } catch {
            #expect(error.line == 4)
        }
    }

    @Test("fixtures extracted from spec/*.md are up to date")
    func extractedFixturesUpToDate() throws {
        let specs = ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.specDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".md") && $0 != "README.md" }
        var expectedFiles: Set<String> = []
        for spec in specs {
            let text = try String(contentsOf: Fixtures.specDirectory.appendingPathComponent(spec), encoding: .utf8)
            let name = String(spec.dropLast(3)) + ".json"
            let examples = try SpecSupport.extractExamples(
                fromSpec: text, textSoFar: SpecSupport.isProvisional(fixtureFile: name))
            if examples.isEmpty { continue }
            expectedFiles.insert(name)
            let url = Fixtures.directory.appendingPathComponent(name)
            let current = try? String(contentsOf: url, encoding: .utf8)
            #expect(current == SpecSupport.fixtureJSON(examples),
                    "Fixtures/\(name) is out of date with spec/\(spec): run 'swift run tidemark-spec extract'")
        }
        #expect(Set(Fixtures.ownFiles).subtracting(expectedFiles).isEmpty,
                "fixtures without a spec: \(Set(Fixtures.ownFiles).subtracting(expectedFiles).sorted())")
    }

    @Test("unified diff: hunks, context, missing final newline")
    func unifiedDiff() {
        #expect(SpecSupport.unifiedDiff(expected: "a\n", actual: "a\n") == "")
        #expect(SpecSupport.unifiedDiff(expected: "<hr />\n", actual: "") == """
            --- expected
            +++ actual
            @@ -1 +0,0 @@
            -<hr />

            """)
        #expect(SpecSupport.unifiedDiff(expected: "a\nb\nc\n", actual: "a\nB\nc\n") == """
            --- expected
            +++ actual
            @@ -1,3 +1,3 @@
             a
            -b
            +B
             c

            """)
        #expect(SpecSupport.unifiedDiff(expected: "a\n", actual: "a") == """
            --- expected
            +++ actual
            @@ -1 +1 @@
            -a
            +a
            \\ No newline at end of file

            """)
        // Far-apart changes get separate hunks with three lines of context
        // (what `diff -u` prints for the same two files).
        let old = (1...20).map { "\($0)\n" }.joined()
        let new = (1...20).map { $0 == 2 ? "two\n" : $0 == 18 ? "eighteen\n" : "\($0)\n" }.joined()
        #expect(SpecSupport.unifiedDiff(expected: old, actual: new) == """
            --- expected
            +++ actual
            @@ -1,5 +1,5 @@
             1
            -2
            +two
             3
             4
             5
            @@ -15,6 +15,6 @@
             15
             16
             17
            -18
            +eighteen
             19
             20

            """)
    }
}
