import Testing
@testable import Tidemark

/// Footnote numbers depend on the whole document (the order of first
/// references), so a stream renumbers at every snapshot. It must stay
/// exact and cost each snapshot its footnotes and its tail, not the
/// document.
@Suite struct FootnoteStreamTests {
    /// A model's answer with citations: each paragraph cites a source, and
    /// the definitions follow every few paragraphs. Streamed in small
    /// chunks, the document is exact after every append, and renumbering
    /// looks at a few nodes per append — not at every node of the document
    /// at every snapshot (644,143 nodes for this one of 1,441 nodes), nor at
    /// every footnote (55,402 with the settled footnotes indexed but all
    /// renumbered per snapshot; 10,621 with the fold of `FootnoteFold`).
    @Test func citationsStreamExactlyAndInLinearTime() {
        var text = ""
        var pending: [Int] = []
        for k in 1...120 {
            text += "Paragraph \(k) says something *worth* citing.[^\(k)] And it goes on.\n\n"
            pending.append(k)
            if pending.count == 4 {
                text += pending.map { "[^\($0)]: Source \($0), https://example.com/\($0)\n" }.joined() + "\n"
                pending = []
            }
        }
        var stream = MarkdownStream()
        var soFar: [UInt8] = []
        for (n, chunk) in Array(text.utf8).chunked(7).enumerated() {
            let update = stream.append(bytes: Array(chunk))
            soFar += chunk
            if n % 50 == 0 { #expect(update.document == Document(parsing: soFar)) }
        }
        let final = stream.finish()
        #expect(final.document == Document(parsing: text))
        let nodes = final.document.nodeCount
        let scanned = stream.engine.footnoteNodesScanned
        #expect(scanned <= 15 * nodes, "\(scanned) nodes scanned for \(nodes) nodes")
    }

    /// A long paragraph after a definition, with no reference or with
    /// some: each pass looks at the paragraph's new bytes for a `[^`, and
    /// numbers the footnotes looking at the nodes it wrote — not at the
    /// whole paragraph (until session 29 it did, on every pass: 945.8 M
    /// instructions for 38 KB of inlines without a reference, 337.7 M with
    /// one at its start).
    @Test func longParagraphsAfterADefinitionStreamInLinearTime() {
        for (k, body) in ["word *em* and `c` ", "see[^1] word *em* and `c` ", "text *a* [^1] more `b` "].enumerated() {
            let text = "[^1]: note\n\n" + (k == 1 ? body + String(repeating: "word *em* and `c` ", count: 300)
                                                 : String(repeating: body, count: 300)) + "\n"
            let bytes = Array(text.utf8)
            var stream = MarkdownStream()
            for c in stride(from: 0, to: bytes.count, by: 4) { stream.append(bytes: bytes[c..<min(c + 4, bytes.count)]) }
            let e = stream.engine
            #expect(e.footnoteBytesScanned < 3 * bytes.count, "\(k): \(e.footnoteBytesScanned) bytes scanned for [^")
            let nodes = stream.document.nodeCount
            #expect(e.footnoteNodesScanned < (k == 2 ? 40 : 10) * nodes, "\(k): \(e.footnoteNodesScanned) nodes scanned of \(nodes)")
            #expect(stream.document == Document(parsing: bytes))
        }
    }

    /// Appends `typed` to `stream` in chunks of `size`, each update checked
    /// against the batch parse of `text` (what was appended before) and
    /// the chunks so far.
    static func type(_ typed: String, into stream: inout MarkdownStream, after text: inout String, chunk size: Int,
                     sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for chunk in typed.utf8.chunked(size) {
            let update = stream.append(bytes: Array(chunk))
            text += String(decoding: chunk, as: UTF8.self)
            #expect(update.document == Document(parsing: text), sourceLocation: sourceLocation)
        }
    }

    /// In a document with footnotes, a paragraph with no `[^` in it is
    /// parsed again on its own (its passes move no footnote number); one
    /// where a reference is typed is numbered after its pass.
    @Test func paragraphsWithoutReferencesTakeTheParagraphPath() {
        var stream = MarkdownStream()
        let intro = "Cited.[^1]\n\n[^1]: A source.\n\nThen"
        stream.append(intro)
        let before = stream.engine.paragraphPasses
        let typed = " a paragraph with *emphasis*, `code`, more *words* typed in pieces\nand a line with [a link](https://example.com)."
        for chunk in typed.utf8.chunked(4) { stream.append(bytes: Array(chunk)) }
        let passes = stream.engine.paragraphPasses - before
        #expect(passes >= 10, "\(passes) paragraph passes")
        #expect(stream.document == Document(parsing: intro + typed))
        var text = intro + typed
        FootnoteStreamTests.type(" Again.[^1] And [^2] not.", into: &stream, after: &text, chunk: 3)
    }

    /// In a document with footnotes, new list items and new paragraphs
    /// take the new-block path (numbered as in a snapshot afterwards: a
    /// new block may hold a reference, and blocks settle on the way); a
    /// definition typed still takes the exact way.
    @Test func newBlocksInDocumentsWithFootnotesTakeTheNewBlockPath() {
        var stream = MarkdownStream()
        let intro = "Cited.[^1]\n\n[^1]: A source.\n\n"
        stream.append(intro)
        let before = stream.engine.newBlockPasses
        var text = intro
        let typed = (1...8).map { "- item \($0) with *words*\(($0 % 3 == 0) ? " and a note[^1]" : "")\n" }.joined()
            + "\nA paragraph.[^2]\n\n[^2]: Another.\n\n- last item[^2]\n"
        FootnoteStreamTests.type(typed, into: &stream, after: &text, chunk: 4)
        let passes = stream.engine.newBlockPasses - before
        #expect(passes >= 8, "\(passes) new-block passes")
    }

    /// Text typed after a reference in the same paragraph takes the
    /// paragraph path too; the footnotes are numbered after each pass (a
    /// new reference moves its definition's count, reported with the
    /// paragraph).
    @Test func textAfterAReferenceTakesTheParagraphPath() {
        var stream = MarkdownStream()
        let intro = "[^1]: A source.\n\n[^2]: Another.\n\nCited here.[^1]"
        stream.append(intro)
        let before = stream.engine.paragraphPasses
        var text = intro
        let typed = " And the sentence goes on with *more* words, then cites again.[^2] And [^1] once more, `done`."
        FootnoteStreamTests.type(typed, into: &stream, after: &text, chunk: 4)
        let passes = stream.engine.paragraphPasses - before
        #expect(passes >= 4, "\(passes) paragraph passes")
    }

    /// A URL typed in a document with footnotes grows its link in place
    /// (bytes that cannot open or close a reference), as without them:
    /// neither a full snapshot nor a paragraph pass per chunk.
    @Test func urlsInDocumentsWithFootnotesGrowInPlace() {
        var stream = MarkdownStream()
        let intro = "Cited.[^1]\n\n[^1]: Source, "
        stream.append(intro)
        let before = stream.engine.fullSnapshots + stream.engine.paragraphPasses
        var text = intro
        FootnoteStreamTests.type("https://github.com/metric/metric-rs/tree/main/src/lib.rs and more", into: &stream,
                                 after: &text, chunk: 4)
        let passes = stream.engine.fullSnapshots + stream.engine.paragraphPasses - before
        #expect(passes <= 4, "\(passes) full snapshots and paragraph passes")
    }

    /// In a document with footnotes, rows with no `[^` take the table
    /// paths (a cell, a row, a new row); a row where a reference is typed
    /// takes the exact way, and is numbered.
    @Test func tableRowsWithoutReferencesTakeTheRowPaths() {
        var stream = MarkdownStream()
        let intro = "Cited.[^1]\n\n[^1]: A source.\n\n| Name | Notes |\n|---|---|\n"
        stream.append(intro)
        let before = stream.engine.rowPasses
        var text = intro
        let typed = (1...12).map { "| row \($0) | some *notes* and `code` |\n" }.joined() + "| cited | see[^1] here |\n"
        FootnoteStreamTests.type(typed, into: &stream, after: &text, chunk: 4)
        let passes = stream.engine.rowPasses - before
        #expect(passes >= 20, "\(passes) row passes")
    }
}
