import Testing
import Tidemark
import TidemarkRender

@Suite struct IncrementalTests {
    static let base = """
        # Title

        First paragraph with *emphasis*.

        - a list
        - of items

        ```swift
        let x = 1
        ```

        | a | b |
        |---|---|
        | 1 | 2 |

        Last paragraph.
        """

    /// The address of the array storage a block holds (its runs, lines,
    /// rows or children): equal addresses mean the cached block was handed
    /// out again, not rebuilt.
    static func storage(_ block: RenderedBlock) -> UnsafeRawPointer? {
        func address<T>(_ array: [T]) -> UnsafeRawPointer? {
            array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        switch block.content {
        case .code(let info): return address(info.lines)
        case .table(let info): return address(info.rows)
        default: return block.runs.isEmpty ? address(block.children) : address(block.runs)
        }
    }

    @Test func onlyTheChangedLastBlockIsRebuilt() {
        var renderer = RunTreeRenderer()
        let first = renderer.render(Document(parsing: Self.base))
        #expect(renderer.lastRender.blocksBuilt == 6)
        #expect(renderer.lastRender.blocksReused == 0)

        let second = renderer.render(Document(parsing: Self.base + " More text."))
        #expect(renderer.lastRender.blocksBuilt == 1)
        #expect(renderer.lastRender.blocksReused == 5)
        #expect(second == RenderedDocument(Document(parsing: Self.base + " More text.")))
        // Reused blocks are the very same storage.
        for i in 0..<5 {
            #expect(Self.storage(first.blocks[i]) == Self.storage(second.blocks[i]))
        }
        #expect(Self.storage(first.blocks[0]) != nil)
        #expect(Support.text(second.blocks[5].runs) == "Last paragraph. More text.")
        #expect(renderer.statistics.blocksBuilt == 7)
        #expect(renderer.statistics.blocksReused == 5)
    }

    @Test func unchangedDocumentIsFullyReused() {
        var renderer = RunTreeRenderer()
        _ = renderer.render(Document(parsing: Self.base))
        _ = renderer.render(Document(parsing: Self.base))
        #expect(renderer.lastRender.blocksBuilt == 0)
        #expect(renderer.lastRender.blocksReused == 6)
    }

    @Test func movedBlocksAreReusedWithShiftedRanges() {
        var renderer = RunTreeRenderer()
        _ = renderer.render(Document(parsing: Self.base))
        let shifted = "Intro.\n\n" + Self.base
        let result = renderer.render(Document(parsing: shifted))
        #expect(renderer.lastRender.blocksBuilt == 1)
        #expect(renderer.lastRender.blocksReused == 6)
        #expect(result == RenderedDocument(Document(parsing: shifted)))
    }

    @Test func aLaterReferenceDefinitionRebuildsTheBlockUsingIt() {
        var renderer = RunTreeRenderer()
        let text = "See [docs].\n\nOther."
        let before = renderer.render(Document(parsing: text))
        #expect(before.blocks[0].runs.allSatisfy { $0.link == nil })

        let after = renderer.render(Document(parsing: text + "\n\n[docs]: https://docs.example"))
        // Same bytes, but the reference now resolves: rebuilt, and "Other." reused.
        #expect(renderer.lastRender.blocksBuilt == 1)
        #expect(renderer.lastRender.blocksReused == 1)
        #expect(after.blocks[0].runs.contains { $0.link?.destination == "https://docs.example" })
    }

    @Test func footnoteRenumberingRebuilds() {
        var renderer = RunTreeRenderer()
        let tail = "Later[^b].\n\n[^a]: A.\n[^b]: B."
        _ = renderer.render(Document(parsing: tail))
        let result = renderer.render(Document(parsing: "First[^a].\n\n" + tail))
        #expect(result == RenderedDocument(Document(parsing: "First[^a].\n\n" + tail)))
        let numbers = result.blocks[1].runs.compactMap(\.footnote?.number)
        #expect(numbers == [2])
    }

    @Test func changingTheThemeOrOptionsRebuildsEverything() {
        var renderer = RunTreeRenderer()
        let document = Document(parsing: Self.base)
        _ = renderer.render(document)
        renderer.theme = .highContrast
        let dark = renderer.render(document)
        #expect(renderer.lastRender.blocksBuilt == 6)
        #expect(dark == RenderedDocument(document, theme: .highContrast))

        renderer.theme = .highContrast  // same value: cache kept
        _ = renderer.render(document)
        #expect(renderer.lastRender.blocksBuilt == 0)

        renderer.options.rawHTML = .drop
        _ = renderer.render(document)
        #expect(renderer.lastRender.blocksBuilt == 6)

        renderer.highlighter = KeywordHighlighter()
        let highlighted = renderer.render(document)
        #expect(renderer.lastRender.blocksBuilt == 6)
        guard case .code(let info) = highlighted.blocks[3].content else {
            Issue.record("expected a code block")
            return
        }
        #expect(info.isHighlighted)
    }

    // MARK: Caller-supplied ids (what a stream provides)

    static func blocks(_ document: Document, ids: [UInt64]) -> [(id: UInt64, node: Node)] {
        Array(zip(ids, document.root.children)).map { (id: $0.0, node: $0.1) }
    }

    @Test func idsAreCarriedAndContentIsChecked() {
        var renderer = RunTreeRenderer()
        let one = Document(parsing: "Alpha.\n\nBeta.")
        let first = renderer.render(blocks: Self.blocks(one, ids: [10, 11]))
        #expect(first.blocks.map(\.id) == [10, 11])

        // Same ids, second block's text changed: only it is rebuilt.
        let two = Document(parsing: "Alpha.\n\nBeta, longer.")
        let second = renderer.render(blocks: Self.blocks(two, ids: [10, 11]))
        #expect(renderer.lastRender.blocksBuilt == 1)
        #expect(renderer.lastRender.blocksReused == 1)
        #expect(Support.text(second.blocks[1].runs) == "Beta, longer.")
        #expect(Self.storage(first.blocks[0]) == Self.storage(second.blocks[0]))

        // A new id for the same content is a new block.
        _ = renderer.render(blocks: Self.blocks(two, ids: [10, 12]))
        #expect(renderer.lastRender.blocksBuilt == 1)
    }

    @Test func unchangedIdsSkipHashing() {
        var renderer = RunTreeRenderer()
        let one = Document(parsing: "Alpha.\n\nBeta.")
        _ = renderer.render(blocks: Self.blocks(one, ids: [1, 2]))
        // The caller vouches that id 1 is unchanged, so even a different
        // node under that id is not looked at: the trust is the caller's.
        let other = Document(parsing: "Gamma.\n\nBeta.")
        let result = renderer.render(blocks: Self.blocks(other, ids: [1, 2]), unchanged: [1])
        #expect(renderer.lastRender.blocksBuilt == 0)
        #expect(Support.text(result.blocks[0].runs) == "Alpha.")
    }

    @Test func streamingUpdatesRebuildOnlyTheTail() {
        let text = """
            # Streaming

            A first paragraph that is complete.

            - item one
            - item two

            The tail paragraph grows token by token until the end.
            """
        let bytes = Array(text.utf8)
        var stream = MarkdownStream()
        var renderer = RunTreeRenderer()
        var built = 0
        var last = RenderedDocument(blocks: [])
        var start = 0
        while start < bytes.count {
            let end = min(start + 4, bytes.count)
            last = renderer.render(stream.append(bytes: bytes[start..<end]))
            built += renderer.lastRender.blocksBuilt
            start = end
        }
        last = renderer.render(stream.finish())
        built += renderer.lastRender.blocksBuilt

        var fresh = RenderedDocument(Document(parsing: text))
        for i in fresh.blocks.indices { fresh.blocks[i].id = last.blocks[i].id }
        #expect(last == fresh)
        #expect(last.blocks.allSatisfy { $0.id != nil })
        // Rendering each update from scratch would build every block of
        // every update; the cache builds little more than one per update.
        let updates = (bytes.count + 3) / 4 + 1
        #expect(built < updates + 8)
    }
}

/// Findings of the `render` and `highlight` fuzz targets (Fuzz/README.md).
@Suite struct FuzzFindingsRenderTests {
    /// `render` smoke fuzz (session 4, CI on a clean clone): an ordered
    /// list's marker wider than the width left for it — `123456789.` in a
    /// bullet item on 10 columns — stood on its own line uncut, 12 columns
    /// wide.
    @Test func fuzz_render_terminalMarkerWiderThanTheWidth() {
        for text in ["- 123456789.   - b56789.   oo\n", "- 123456789. x\n", "> > 123456789. x\n", "- - - 123456789) x\n"] {
            let rendered = RenderedDocument(Document(parsing: text))
            for width in 10...14 {
                let lines = TerminalWriter(options: TerminalOptions(width: width, styling: .plain)).lines(of: rendered)
                for line in lines {
                    #expect(DisplayWidth.of(line) <= width, "\(text.debugDescription) at \(width) columns: \(line.debugDescription)")
                }
            }
        }
    }

    /// `render-cache-indent`: two fences with the same bytes in their ranges,
    /// the second indented by one space (outside its range), so its content
    /// differs; the cache used to hand out the first block's run tree.
    @Test func fuzz_render_cacheIgnoresIndentBeforeBlock() {
        for text in ["```\n  bar\n```\n\n ```\n  bar\n```\n", "<div>\n\n  <div>\n"] {
            let doc = Document(parsing: text)
            var renderer = RunTreeRenderer()
            #expect(renderer.render(doc) == RenderedDocument(doc), "\(text.debugDescription)")
        }
    }
}
