import ArgumentParser
import Foundation

/// `tidemark-spec extract [SPEC.md...]`: writes `Fixtures/<name>.json` for
/// each of our specs; with `--check`, only verifies they are up to date.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Extract the examples of spec/*.md into Fixtures/<name>.json.",
        discussion: """
            Examples are written as in the CommonMark spec: a line of 32 backticks \
            followed by ' example' and an optional extension word opens one, a line \
            holding '.' separates the Markdown from the HTML, a line of 32 backticks \
            closes it; '→' stands for a tab.
            """)

    @Argument(help: ArgumentHelp("Spec files (default: every spec/*.md except README.md).", valueName: "spec.md"))
    var specs: [String] = []

    @Option(help: ArgumentHelp("The fixtures directory (default: ./Fixtures, or the nearest one above).", valueName: "dir"))
    var fixtures: String?

    @Flag(help: "Write nothing; exit non-zero if a fixture is missing or out of date with its spec.")
    var check = false

    /// Fixture files that come from the spec projects, not from `spec/`.
    static func isVendored(_ name: String) -> Bool {
        name.hasPrefix("commonmark-") || name.hasPrefix("gfm-")
    }

    func run() throws {
        let workspace = try Workspace(fixturesOption: fixtures)
        let explicit = !specs.isEmpty
        let specFiles = explicit
            ? specs.map { URL(fileURLWithPath: $0) }
            : Workspace.files(in: workspace.specDirectory, withExtension: "md")
                .filter { $0.lastPathComponent != "README.md" }

        var problems = 0
        var expectedFixtures: Set<String> = []
        for spec in specFiles {
            let name = spec.deletingPathExtension().lastPathComponent + ".json"
            let target = workspace.fixtures.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: spec.path) else {
                printError("tidemark-spec: cannot read '\(spec.path)'")
                problems += 1
                continue
            }
            let examples: [SpecSupport.Example]
            do {
                examples = try SpecSupport.extractExamples(
                    fromSpec: String(decoding: data, as: UTF8.self),
                    textSoFar: SpecSupport.isProvisional(fixtureFile: name))
            } catch {
                printError("\(workspace.display(spec)):\(error.line): \(error.message)")
                problems += 1
                continue
            }
            if examples.isEmpty, !explicit {
                // A spec still being written: nothing to run yet.
                print("\(workspace.display(spec)): no examples, skipped")
                continue
            }
            expectedFixtures.insert(name)
            let json = Array(SpecSupport.fixtureJSON(examples).utf8)
            let current = FileManager.default.contents(atPath: target.path).map { [UInt8]($0) }
            let summary = "\(workspace.display(target)) (\(examples.count) examples from \(workspace.display(spec)))"
            if current == json {
                print("up to date: \(summary)")
            } else if check {
                printError("\(current == nil ? "missing" : "out of date"): \(summary); run 'tidemark-spec extract'")
                problems += 1
            } else {
                do {
                    try Data(json).write(to: target, options: .atomic)
                    print("wrote \(summary)")
                } catch {
                    printError("tidemark-spec: cannot write '\(target.path)': \(error.localizedDescription)")
                    problems += 1
                }
            }
        }

        // A fixture of ours whose spec is gone would keep being run.
        if check, !explicit {
            for url in Workspace.files(in: workspace.fixtures, withExtension: "json") {
                let name = url.lastPathComponent
                if !Self.isVendored(name), !expectedFixtures.contains(name) {
                    printError("stale: \(workspace.display(url)) has no spec/\(url.deletingPathExtension().lastPathComponent).md")
                    problems += 1
                }
            }
        }
        if problems > 0 { throw ExitCode.failure }
    }
}
