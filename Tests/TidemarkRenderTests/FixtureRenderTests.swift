import Foundation
import Testing
import Tidemark
import TidemarkRender

/// Every example of every spec fixture renders to a run tree that keeps
/// the tree's invariants and encodes to JSON — with every extension on and
/// with plain CommonMark, cached and uncached alike.
@Suite struct FixtureRenderTests {
    struct Example: Sendable, Decodable, CustomTestStringConvertible {
        var markdown: String
        var example: Int
        var section: String
        var file = ""
        var testDescription: String { "\(file) #\(example) (\(section))" }

        private enum CodingKeys: String, CodingKey { case markdown, example, section }
    }

    static let examples: [Example] = {
        let dir = Support.fixturesDirectory
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        var all: [Example] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            guard let data = try? Data(contentsOf: dir.appendingPathComponent(file)),
                  var examples = try? JSONDecoder().decode([Example].self, from: data)
            else { continue }
            for i in examples.indices { examples[i].file = file }
            all += examples
        }
        return all
    }()

    @Test func fixturesWereFound() {
        // Five fixture files, well over a thousand examples.
        #expect(Self.examples.count > 1_000)
    }

    @Test(arguments: examples)
    func rendersAndEncodes(_ example: Example) throws {
        for parseOptions in [ParseOptions.default, .commonmark] {
            let document = Document(parsing: example.markdown, options: parseOptions)
            let rendered = RenderedDocument(document, highlighter: KeywordHighlighter())
            try Self.checkInvariants(rendered, sourceCount: document.source.count)

            // JSON encodes, and is an object with a "blocks" array.
            let data = try JSONEncoder().encode(rendered)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(object?["blocks"] is [Any])

            // The cached paths agree with a fresh render.
            var renderer = RunTreeRenderer(highlighter: KeywordHighlighter())
            #expect(renderer.render(document) == rendered)
            #expect(renderer.render(document) == rendered)
            let ids = document.root.children.enumerated().map { (id: UInt64($0.offset), node: $0.element) }
            var byID = renderer.render(blocks: ids)
            for i in byID.blocks.indices { byID.blocks[i].id = nil }
            #expect(byID == rendered)
        }
    }

    static func checkInvariants(_ document: RenderedDocument, sourceCount: Int) throws {
        for block in Support.allBlocks(document) {
            #expect(block.range.lowerBound >= 0 && block.range.upperBound <= sourceCount)
            #expect(!block.accessibilityLabel.isEmpty)
            for run in Support.allRuns(block) {
                #expect(!run.text.isEmpty, "empty run in \(block.kind)")
                #expect(run.traits.contains(.link) == (run.link != nil))
                #expect(run.traits.contains(.math) == (run.math != nil))
                #expect(run.traits.contains(.image) == (run.image != nil))
                #expect(run.traits.contains(.footnoteReference) == (run.footnote != nil))
            }
            switch block.content {
            case .list(let info, let items):
                #expect(info.itemCount == items.count)
                #expect(items.allSatisfy { $0.kind == .item })
            case .table(let info):
                #expect(info.header.count == info.columnCount)
                #expect(info.rows.allSatisfy { $0.count == info.columnCount })
            case .paragraph(let runs), .heading(_, let runs):
                // Merging leaves no two neighbours that could merge.
                for (a, b) in zip(runs, runs.dropFirst()) {
                    let mergeable = a.traits == b.traits && a.link == b.link && a.style == b.style
                        && a.math == nil && b.math == nil && a.image == nil && b.image == nil
                        && a.footnote == nil && b.footnote == nil
                    #expect(!mergeable, "unmerged runs \(a.text) | \(b.text)")
                }
            default:
                break
            }
        }
    }
}
