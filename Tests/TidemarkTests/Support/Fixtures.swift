import Foundation
import Testing

/// The spec fixtures on disk, for the parameterized fixture tests.
///
/// The option rules, the expected-differences format, the extractor and the
/// diff come from `Support/SpecSupport`, a symlink to the runner's
/// `Sources/TidemarkSpecRunner/SpecSupport`: tests cannot import an
/// executable target, and one copy of those rules cannot drift.
enum Fixtures {
    /// The package root, found from this file's place in it
    /// (`Tests/TidemarkTests/Support/Fixtures.swift`).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let directory = packageRoot.appendingPathComponent("Fixtures", isDirectory: true)
    static let specDirectory = packageRoot.appendingPathComponent("spec", isDirectory: true)

    /// The fixture files vendored from the spec projects.
    static let vendored = ["commonmark-0.31.2.json", "gfm-0.29.0.json", "gfm-extensions.json"]

    /// Our own fixture files, extracted from `spec/*.md`.
    static var ownFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !vendored.contains($0) }.sorted()
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Every example of a fixture file.
    static func examples(in file: String) throws -> [SpecSupport.Example] {
        let url = directory.appendingPathComponent(file)
        do {
            return try JSONDecoder().decode([SpecSupport.Example].self, from: Data(contentsOf: url))
        } catch {
            throw LoadError(description: "cannot load \(url.path): \(error)")
        }
    }

    /// Every example of the files, as test arguments.
    static func cases(in files: [String]) throws -> [FixtureCase] {
        try files.flatMap { file in try examples(in: file).map { FixtureCase(file: file, example: $0) } }
    }

    static func cases(in file: String) throws -> [FixtureCase] { try cases(in: [file]) }

    /// `Fixtures/expected-differences.txt`, parsed by the runner's rules
    /// (read once: every fixture test case asks).
    static func expectedDifferences() throws -> SpecSupport.ExpectedDifferences {
        try expectedDifferencesResult.get()
    }

    private static let expectedDifferencesResult = Result<SpecSupport.ExpectedDifferences, any Error> {
        let url = directory.appendingPathComponent("expected-differences.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        return try SpecSupport.ExpectedDifferences(parsing: text)
    }
}

/// One example of one fixture file: the argument of a fixture test, shown
/// in test output by file, number and section.
struct FixtureCase: Sendable, CustomTestStringConvertible {
    var file: String
    var example: SpecSupport.Example
    var testDescription: String { "\(file) #\(example.example) (\(example.section))" }
}
