import ArgumentParser
import Foundation
import Tidemark

/// `tidemark-spec [FILE...]`: renders every selected example with the
/// options its fixture calls for and compares the HTML byte for byte.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run fixture examples and compare Tidemark's HTML byte for byte.",
        discussion: """
            Exits non-zero when an example fails that is not listed in \
            Fixtures/expected-differences.txt.
            """)

    @Argument(help: ArgumentHelp(
        "Fixture files: paths, or names in the fixtures directory (with or without .json, or a unique prefix such as 'commonmark'). Default: every *.json there.",
        valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("The fixtures directory (default: ./Fixtures, or the nearest one above).", valueName: "dir"))
    var fixtures: String?

    @Option(help: ArgumentHelp("Only sections whose name contains this text (case-insensitive).", valueName: "name"))
    var section: String?

    @Option(name: .customLong("example"), help: ArgumentHelp("Only this example number (repeatable).", valueName: "n"))
    var examples: [Int] = []

    @Flag(help: "Show every failure (default: the first \(RunCommand.failuresShown)), and the diffs of expected differences.")
    var verbose = false

    /// Failures shown in full without `--verbose`: enough to work on, few
    /// enough that the summary stays on screen.
    static let failuresShown = 10

    func run() throws {
        let workspace = try Workspace(fixturesOption: fixtures)
        let fixtureFiles = try resolveFiles(in: workspace)
        let expected = try loadExpectedDifferences(workspace)

        var report = Report()
        for url in fixtureFiles {
            let name = url.lastPathComponent
            let all: [SpecSupport.Example]
            do {
                all = try JSONDecoder().decode([SpecSupport.Example].self, from: Data(contentsOf: url))
            } catch {
                printError("tidemark-spec: cannot read fixtures '\(workspace.display(url))': \(error)")
                throw ExitCode.failure
            }
            let selected = all.filter(isSelected)
            report.beginFile(name, unfiltered: selected.count == all.count)
            for example in selected {
                report.record(render(example, file: name), expected: expected)
            }
            report.noteExamples(all.map(\.example), ofFile: name)
        }

        guard report.total > 0 else {
            printError("tidemark-spec: no example matches the filters")
            throw ExitCode.failure
        }
        print(report.render(verbose: verbose, failuresShown: Self.failuresShown,
                            expected: expected, expectedFile: workspace.display(workspace.expectedDifferencesFile)),
              terminator: "")
        if report.unexpectedFailures > 0 { throw ExitCode.failure }
    }

    private func isSelected(_ example: SpecSupport.Example) -> Bool {
        if !examples.isEmpty, !examples.contains(example.example) { return false }
        if let section, !example.section.lowercased().contains(section.lowercased()) { return false }
        return true
    }

    private func render(_ example: SpecSupport.Example, file: String) -> Report.Result {
        // Provisional-display examples (streaming.json) go through
        // `Provisional.document(forTextSoFar:)`; see `SpecSupport.renderHTML`.
        Report.Result(file: file, example: example, actual: SpecSupport.renderHTML(example, fixtureFile: file))
    }

    /// Positional arguments → fixture files. A path is used as is; otherwise
    /// the name is looked up in the fixtures directory.
    private func resolveFiles(in workspace: Workspace) throws -> [URL] {
        let available = Workspace.files(in: workspace.fixtures, withExtension: "json")
        if files.isEmpty {
            guard !available.isEmpty else {
                throw usageError("no *.json fixtures in '\(workspace.fixtures.path)'")
            }
            return available
        }
        return try files.map { argument in
            if Workspace.isFile(argument) { return URL(fileURLWithPath: argument) }
            let names = available.map(\.lastPathComponent)
            if let exact = names.firstIndex(where: { $0 == argument || $0 == argument + ".json" }) {
                return available[exact]
            }
            let prefixed = names.indices.filter { names[$0].hasPrefix(argument) }
            if prefixed.count == 1 { return available[prefixed[0]] }
            throw usageError(prefixed.isEmpty
                ? "no fixture file '\(argument)' (have: \(names.joined(separator: ", ")))"
                : "'\(argument)' is ambiguous: \(prefixed.map { names[$0] }.joined(separator: ", "))")
        }
    }

    private func loadExpectedDifferences(_ workspace: Workspace) throws -> SpecSupport.ExpectedDifferences {
        let url = workspace.expectedDifferencesFile
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return SpecSupport.ExpectedDifferences()
        }
        do {
            return try SpecSupport.ExpectedDifferences(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            printError("tidemark-spec: \(workspace.display(url)): \(error)")
            throw ExitCode.failure
        }
    }
}
