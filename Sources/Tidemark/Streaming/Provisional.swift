/// Provisional display (spec/streaming.md): what a user interface shows for
/// the end of a stream while constructs there are still unterminated.
///
/// The syntax tree of a stream is always exact (`MarkdownStream.document`
/// equals the batch parse of the text so far). While a model is typing,
/// though, the exact parse of `**bol` is the literal text `**bol`, which
/// would then flash into bold when `**` arrives. The provisional document is
/// for display only: it shows what the finished text will most likely be.
///
/// ```swift
/// stream.append(chunk)
/// show(stream.provisionalDocument)          // never feed this back as data
/// ```
///
/// How: settled top-level blocks are the stream's own, untouched. Only the
/// source of the unsettled trailing blocks is *repaired* — an ambiguous
/// trailing marker is held back, closers of unterminated inlines are
/// appended, an unfinished link destination is dropped, a pipe row that may
/// become a table header is held back — and that text is parsed again by
/// the real parser for display. The repair decisions come from the real
/// block and inline parsers (the open leaf block, the unmatched delimiter
/// runs and brackets), not from a second grammar. The result's `source` is
/// the repaired text.
///
/// Convergence: when the text is complete — after `finish()`, or when the
/// trailing block is followed by a blank line — nothing is repaired and the
/// provisional document is the exact document.
public enum Provisional {
    /// The provisional document for a text that is still arriving: the same
    /// as streaming `text` and reading `provisionalDocument`.
    public static func document(forTextSoFar text: String, options: ParseOptions = .default) -> Document {
        var stream = MarkdownStream(options: options)
        stream.append(text)
        return stream.provisionalDocument
    }

    /// The provisional document for UTF-8 bytes that are still arriving.
    public static func document<Bytes: Sequence>(forTextSoFar bytes: Bytes, options: ParseOptions = .default) -> Document
    where Bytes.Element == UInt8 {
        var stream = MarkdownStream(options: options)
        stream.append(bytes: bytes)
        return stream.provisionalDocument
    }
}

extension MarkdownStream {
    /// The document to *display* now: the settled blocks exactly as in
    /// `document`, the unsettled trailing blocks as their text will most
    /// likely finish (see `Provisional` and spec/streaming.md). Equal to
    /// `document` after `finish()` and whenever nothing at the end is
    /// unterminated.
    ///
    /// Cost: the repair parses the trailing blocks' text a few times (three
    /// to five parses of the tail, never of the document). When something
    /// was repaired, assembling the result also copies the settled part of
    /// the source and node arrays (a memory copy, no parsing); use
    /// `provisionalTail` to avoid even that.
    public var provisionalDocument: Document {
        let update = engine.lastUpdate
        guard let region = ProvisionalRegion(update) else { return update.document }
        let repair = ProvisionalRepair(options: options, labels: engine.parser.labels)
        let storage = update.document.storage
        let tail = Array(storage.source[region.sourceStart...])
        let repaired = repair.repaired(tail)
        if repaired == tail { return update.document }
        return region.splice(repaired, into: update.document, repair: repair)
    }

    /// Only the unsettled trailing blocks, repaired for display, as a
    /// document of their own (its `source` is the repaired text of the
    /// trailing blocks alone; node ranges are relative to it). Costs time
    /// proportional to the trailing blocks only. `nil` when every block is
    /// settled.
    public var provisionalTail: ProvisionalTail? {
        let update = engine.lastUpdate
        guard let region = ProvisionalRegion(update) else { return nil }
        let repair = ProvisionalRepair(options: options, labels: engine.parser.labels)
        let tail = Array(update.document.storage.source[region.sourceStart...])
        let repaired = repair.repaired(tail)
        return ProvisionalTail(document: Document(storage: repair.storage(repaired), options: options),
                               sourceOffset: region.sourceStart, settledCount: update.settledCount)
    }
}

/// The unsettled end of a stream, repaired for display.
public struct ProvisionalTail: Sendable {
    /// The repaired trailing text, parsed with the stream's link reference
    /// definitions. Node ranges are offsets into this document's `source`.
    public let document: Document
    /// Where the trailing text starts in the stream's document source.
    public let sourceOffset: Int
    /// The number of settled top-level blocks that precede the tail.
    public let settledCount: Int

    /// The tail's top-level blocks, in order.
    public var blocks: [Node] { Array(document.root.children) }
}

/// Where the unsettled part of a snapshot starts.
struct ProvisionalRegion {
    /// Byte offset of the start of the line on which the first unsettled
    /// top-level block starts.
    let sourceStart: Int
    /// That line's 0-based number.
    let line: Int
    /// Node index of the first unsettled top-level block.
    let firstNode: Int
    /// Node index of the last settled top-level block, or -1.
    let lastSettledNode: Int

    /// Nil when nothing is unsettled (after `finish()`, or when the text so
    /// far ends after the last settled block).
    init?(_ update: StreamUpdate) {
        guard !update.isFinal, let first = update.tailStarts.first else { return nil }
        let storage = update.document.storage
        let start = Int(storage.nodes[first].start)
        let location = storage.location(of: start)
        line = location.line - 1
        sourceStart = Int(storage.lineStarts[line])
        firstNode = first
        lastSettledNode = update.settledStarts.last ?? -1
    }

    /// The exact document with its unsettled blocks replaced by the parse of
    /// `tail` (the repaired text of the region).
    func splice(_ tail: [UInt8], into exact: Document, repair: ProvisionalRepair) -> Document {
        let old = exact.storage
        var source = Array(old.source[0..<sourceStart])
        source.append(contentsOf: tail)
        var nodes = Array(old.nodes[0..<firstNode])
        nodes[0].lastChild = Int32(lastSettledNode)
        if lastSettledNode < 0 { nodes[0].firstChild = -1 } else { nodes[lastSettledNode].next = -1 }

        // The tail parsed where it stands, as the stream parses its tail.
        let t = repair.makeBlockParser()
        t.position = sourceStart
        t.lineNumber = line - 1
        t.lineStarts = []
        let inline = InlineParser(options: repair.options, labels: t.labels)
        source.withUnsafeBufferPointer { buffer in
            t.s = buffer
            t.consumeLines(final: true)
            t.finishDocument()
            inline.arena = old.arena
            var b = t.blocks[0].firstChild
            while b >= 0 {
                t.emitBlocks(from: b, parent: 0, siblings: false, into: &nodes, inline: inline)
                b = t.blocks[Int(b)].next
            }
            t.s = Bytes(start: nil, count: 0)
        }
        nodes[0].end = UInt32(source.count)
        var lineStarts = Array(old.lineStarts.prefix(line + 1))
        for ls in t.lineStarts where ls > lineStarts[lineStarts.count - 1] { lineStarts.append(ls) }
        var storage = DocumentStorage(source: source, nodes: nodes, arena: inline.arena, lineStarts: lineStarts)
        if repair.options.contains(.footnotes) && t.labels.hasFootnotes {
            storage = t.renumberFootnotes(storage)
        }
        return Document(storage: storage, options: exact.options)
    }
}
