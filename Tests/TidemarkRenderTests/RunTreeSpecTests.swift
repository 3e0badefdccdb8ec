import Foundation
import Testing
import Tidemark
import TidemarkRender

/// Runs the examples of `spec/run-tree.md`: their fences say `run-tree`, so
/// `tidemark-spec` (which compares HTML) skips them and this test checks
/// them, comparing JSON as values.
@Suite struct RunTreeSpecTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var number: Int
        var line: Int
        var markdown: String
        var json: String
        var testDescription: String { "example \(number) (line \(line))" }
    }

    static let specURL = Support.testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("spec/run-tree.md")

    static let examples: [Example] = {
        guard let text = try? String(contentsOf: specURL, encoding: .utf8) else { return [] }
        let fence = String(repeating: "`", count: 32)
        var examples: [Example] = []
        var markdown: [Substring]?
        var json: [Substring]?
        var start = 0
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if markdown == nil && json == nil {
                if line == fence + " run-tree" {
                    markdown = []
                    start = i + 1
                }
            } else if json == nil {
                if line == "." { json = [] } else { markdown?.append(line) }
            } else if line == fence {
                let md = (markdown ?? []).map { $0 + "\n" }.joined().replacingOccurrences(of: "→", with: "\t")
                examples.append(Example(number: examples.count + 1, line: start, markdown: md,
                                        json: (json ?? []).joined(separator: "\n")))
                markdown = nil
                json = nil
            } else {
                json?.append(line)
            }
        }
        return examples
    }()

    @Test func specHasExamples() {
        #expect(Self.examples.count >= 10)
    }

    @Test(arguments: examples)
    func example(_ e: Example) throws {
        let rendered = RenderedDocument(Document(parsing: e.markdown))
        let actual = try Self.canonical(JSONEncoder().encode(rendered))
        let expected = try Self.canonical(Data(e.json.utf8))
        #expect(actual == expected, "spec/run-tree.md line \(e.line):\n\(e.markdown)")
    }

    /// JSON re-serialized with sorted keys, so layout does not matter.
    static func canonical(_ data: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: data)
        let out = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: out, as: UTF8.self)
    }
}
