import Foundation
import Testing
import Tidemark
import TidemarkRender

/// Hostile nesting renders and encodes on an ordinary 8 MB stack: the
/// builder is iterative and the run tree is capped at
/// `RenderOptions.maxDepth`, so nothing downstream recurses deeply.
@Suite struct DeepNestingTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        var name: String
        var prefix: String
        /// Nesting levels each repetition of `prefix` opens.
        var levelsPerPrefix = 1
        var levels: Int
        var testDescription: String { "\(levels) levels of \(name)" }
        var markdown: String {
            String(repeating: prefix, count: levels / levelsPerPrefix) + "deep *text*\n"
        }
    }

    static let shapes: [Shape] = [10_000, 100_000].flatMap { levels in
        [Shape(name: "block quotes", prefix: "> ", levels: levels),
         Shape(name: "bullet items", prefix: "- ", levels: levels),
         Shape(name: "ordered items", prefix: "1. ", levels: levels),
         Shape(name: "bullet items in quotes", prefix: "- > ", levelsPerPrefix: 3, levels: levels)]
    }

    struct Outcome: Sendable {
        var depth: Int
        var jsonBytes: Int
        var text: String
        var labels: [String]
        var terminalLines: [String]
    }

    @Test(arguments: shapes)
    func rendersAndEncodes(_ shape: Shape) async throws {
        let markdown = shape.markdown
        let outcome: Outcome? = await Support.onEightMegabyteStack {
            let rendered = RenderedDocument(Document(parsing: markdown))
            guard let data = try? JSONEncoder().encode(rendered) else { return nil }
            // Equality and hashing walk the tree recursively too.
            _ = rendered == rendered
            _ = rendered.hashValue
            var depth = 0
            var level = rendered.blocks
            var text = ""
            var labels: [String] = []
            while !level.isEmpty {
                depth += 1
                labels.append(level[0].accessibilityLabel)
                for block in level where !block.runs.isEmpty { text += Support.text(block.runs) }
                level = level.flatMap(\.children)
            }
            // The terminal writer, on the same stack, at a narrow width.
            let lines = TerminalWriter(options: TerminalOptions(width: 40)).lines(of: rendered)
            return Outcome(depth: depth, jsonBytes: data.count, text: text, labels: labels, terminalLines: lines)
        }
        let o = try #require(outcome)
        // Containers down to the cap (a list needs two free levels, so
        // list shapes may stop one or two short), then the paragraph.
        #expect(o.depth <= RenderOptions.defaultMaxDepth + 1)
        #expect(o.depth >= RenderOptions.defaultMaxDepth - 1)
        #expect(o.text == "deep text")
        #expect(o.jsonBytes > 0)
        #expect(o.labels.last == "paragraph")
        // (Narrow and capped: the words may wrap onto two lines.)
        #expect(o.terminalLines.contains { $0.contains("deep") })
        #expect(o.terminalLines.contains { $0.contains("text") })
    }

    @Test func deepInlineNestingRendersFlat() async {
        // 20,000 nested emphasis and strong spans around one word.
        let n = 20_000
        let markdown = String(repeating: "*", count: n) + "x" + String(repeating: "*", count: n)
        let runs: [Run] = await Support.onEightMegabyteStack {
            RenderedDocument(Document(parsing: markdown)).blocks.first?.runs ?? []
        }
        #expect(Support.text(runs) == "x")
        #expect(runs.first?.traits == [.strong, .emphasis] || runs.first?.traits == .strong)
    }

    @Test func aSmallerCapFlattensSooner() {
        let doc = Support.render("> > > > x", options: RenderOptions(maxDepth: 2))
        #expect(doc.blocks.count == 1)
        #expect(doc.blocks[0].children[0].kind == .quote)
        #expect(doc.blocks[0].children[0].children.map(\.kind) == [.paragraph])
    }

    @Test func aListAtTheCapIsFlattenedWithItsItems() {
        // With room for one level only, a list (which needs two) is not
        // built; its item's paragraph joins the quote.
        let doc = Support.render("> - x", options: RenderOptions(maxDepth: 2))
        #expect(doc.blocks[0].kind == .quote)
        #expect(doc.blocks[0].children.map(\.kind) == [.paragraph])
        let top = Support.render("- x", options: RenderOptions(maxDepth: 1))
        #expect(top.blocks.map(\.kind) == [.paragraph])
    }
}
