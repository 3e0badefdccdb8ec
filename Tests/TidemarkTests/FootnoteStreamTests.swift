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
    /// at every snapshot (644,143 nodes for this one of 1,441 nodes; with
    /// the footnote index, 16,593).
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
        #expect(scanned <= 30 * nodes, "\(scanned) nodes scanned for \(nodes) nodes")
    }
}
