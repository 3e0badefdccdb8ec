import Foundation
import Testing
import Tidemark
import TidemarkRender

/// The JSON run tree of documents covering every block and inline kind,
/// compared with the committed files in `Golden/` — the format's contract.
///
/// After an intended change, regenerate with
/// `TIDEMARK_UPDATE_GOLDEN=1 swift test --filter GoldenTests`, then read
/// the diff of `Golden/*.json` line by line before committing it.
@Suite struct GoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// `Golden/<name>.json`.
        var name: String
        /// `Golden/<markdown>.md`.
        var markdown: String
        var options: RenderOptions = .default
        var styles = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "blocks", markdown: "blocks"),
        Case(name: "lists", markdown: "lists"),
        Case(name: "code", markdown: "code"),
        Case(name: "html", markdown: "html"),
        Case(name: "html-dropped", markdown: "html", options: RenderOptions(rawHTML: .drop)),
        Case(name: "tables", markdown: "tables"),
        Case(name: "math", markdown: "math"),
        Case(name: "footnotes", markdown: "footnotes"),
        Case(name: "footnotes-unused", markdown: "footnotes", options: RenderOptions(includeUnusedFootnotes: true)),
        Case(name: "policy", markdown: "policy"),
        Case(name: "policy-none", markdown: "policy",
             options: RenderOptions(linkPolicy: .none, imagePolicy: .none)),
        Case(name: "nesting", markdown: "nesting"),
        Case(name: "nesting-max3", markdown: "nesting", options: RenderOptions(maxDepth: 3)),
        Case(name: "styles", markdown: "styles", styles: true),
    ]

    @Test(arguments: cases)
    func golden(_ c: Case) throws {
        let dir = Support.goldenDirectory
        let markdown = try String(contentsOf: dir.appendingPathComponent(c.markdown + ".md"), encoding: .utf8)
        let rendered = Support.render(markdown, options: c.options, highlighter: KeywordHighlighter())
        let actual = try Support.json(rendered, styles: c.styles)
        let url = dir.appendingPathComponent(c.name + ".json")
        if ProcessInfo.processInfo.environment["TIDEMARK_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try #require(try? String(contentsOf: url, encoding: .utf8),
                                    "missing Golden/\(c.name).json: run with TIDEMARK_UPDATE_GOLDEN=1")
        #expect(actual == expected, Comment(rawValue: Self.diff(expected: expected, actual: actual, name: c.name)))
    }

    /// The first differing lines, enough to see what moved.
    static func diff(expected: String, actual: String, name: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "Golden/\(name).json differs:\n"
        var shown = 0
        for i in 0..<max(e.count, a.count) where shown < 12 {
            let l = i < e.count ? String(e[i]) : "<end>"
            let r = i < a.count ? String(a[i]) : "<end>"
            if l != r {
                out += "line \(i + 1):\n  expected: \(l)\n  actual:   \(r)\n"
                shown += 1
            }
        }
        return out
    }
}
