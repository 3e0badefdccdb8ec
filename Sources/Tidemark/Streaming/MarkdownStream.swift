/// Incremental parsing of Markdown that arrives in chunks.
///
/// ```swift
/// var stream = MarkdownStream()
/// for await chunk in tokens {
///     let update = stream.append(chunk)
///     redraw(update.changedBlocks)
/// }
/// let final = stream.finish()
/// ```
///
/// After every append, `document` equals `Document(parsing:)` of all the
/// bytes appended so far — same nodes, same source ranges. (A chunk may end
/// inside a UTF-8 sequence: like the batch parser, the document then shows
/// U+FFFD for the incomplete bytes until the rest arrives.)
///
/// How it stays cheap: the block phase keeps its open-container state
/// between appends and only ever consumes complete lines; top-level blocks
/// that have closed are emitted once and kept ("settled"). Each append parses
/// again only the trailing open top-level block, together with the partial
/// last line. A value type: copying a stream copies its state.
public struct MarkdownStream: Sendable {
    private(set) var engine: StreamEngine

    public init(options: ParseOptions = .default) {
        engine = StreamEngine(options: options)
    }

    private mutating func uniqueEngine() -> StreamEngine {
        if !isKnownUniquelyReferenced(&engine) { engine = engine.copy() }
        return engine
    }

    /// Appends text; returns what changed.
    @discardableResult
    public mutating func append(_ text: String) -> StreamUpdate {
        var text = text
        return text.withUTF8 { uniqueEngine().append($0) }
    }

    /// Appends UTF-8 bytes (a chunk may split a sequence or a CR LF pair).
    @discardableResult
    public mutating func append<Bytes: Sequence>(bytes: Bytes) -> StreamUpdate where Bytes.Element == UInt8 {
        let e = uniqueEngine()
        if let r = bytes.withContiguousStorageIfAvailable({ e.append($0) }) { return r }
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { e.append($0) }
    }

    // The common chunk types without the generic detour.
    /// Appends UTF-8 bytes (a chunk may split a sequence or a CR LF pair).
    @discardableResult
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) -> StreamUpdate {
        uniqueEngine().append(bytes)
    }

    /// Appends UTF-8 bytes (a chunk may split a sequence or a CR LF pair).
    @discardableResult
    public mutating func append(bytes: [UInt8]) -> StreamUpdate {
        let e = uniqueEngine()
        return bytes.withUnsafeBufferPointer { e.append($0) }
    }

    /// Appends UTF-8 bytes (a chunk may split a sequence or a CR LF pair).
    @discardableResult
    public mutating func append(bytes: ArraySlice<UInt8>) -> StreamUpdate {
        let e = uniqueEngine()
        return bytes.withUnsafeBufferPointer { e.append($0) }
    }

    /// Ends the input: incomplete UTF-8 at the end becomes U+FFFD and every
    /// block is settled. Appending after `finish()` does nothing.
    @discardableResult
    public mutating func finish() -> StreamUpdate {
        uniqueEngine().finish()
    }

    /// The document so far.
    public var document: Document { engine.lastUpdate.document }

    /// The last update.
    public var lastUpdate: StreamUpdate { engine.lastUpdate }

    /// The options the stream parses with.
    public var options: ParseOptions { engine.options }
}

final class StreamEngine: @unchecked Sendable {
    let options: ParseOptions
    /// The persistent block parser over the complete lines of `stable`.
    @exclusivity(unchecked) private(set) var parser: BlockParser
    /// Raw bytes held back: an incomplete UTF-8 sequence at the end, or the
    /// beginning of a possible byte order mark at the very start.
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var finished = false

    /// The storage published last; its arrays are reused when unique.
    @exclusivity(unchecked) private var storage: DocumentStorage
    /// Bytes of `storage.source` that are settled input (the rest is the
    /// normalized pending tail of the last snapshot).
    @exclusivity(unchecked) private var stableCount = 0

    // Settled top-level blocks.
    @exclusivity(unchecked) private var settledBlocks: [Int32] = []          // parser block indices
    // (Growing lists: the layout every update holds shows them at their
    // length then, and the next blocks settle without copying them.)
    @exclusivity(unchecked) private var settledNodeStarts: GrowingList<Int> = []        // node index of each
    @exclusivity(unchecked) private var settledIDs: GrowingList<BlockID> = []
    @exclusivity(unchecked) private var settledHashes: [Int] = []
    @exclusivity(unchecked) private var settledMisses: [Set<[UInt8]>] = []
    /// The settled blocks whose misses are not empty, in order: what a new
    /// definition is checked against (a block stops missing a label once
    /// it is emitted again with it; the rest miss nothing).
    @exclusivity(unchecked) private var missingBlocks: [Int] = []
    @exclusivity(unchecked) private var settledNodeCount = 1
    @exclusivity(unchecked) private var settledArenaCount = 0
    @exclusivity(unchecked) private var definitionsSeen = 0
    @exclusivity(unchecked) private var footnotesSeen = 0
    /// The settled prefix was last emitted with definitions from the
    /// unsettled tail; rebuild it from here on the next append.
    @exclusivity(unchecked) private var provisionalFrom: Int? = nil

    // The previous snapshot's tail top-level blocks: where each starts, its
    // id, its fingerprint as that snapshot took it, and whether an update
    // since showed it changed (`stale`, set by every fast path).
    // A stale block is reported changed by the next snapshot whatever its
    // fingerprint: content can come back to what the snapshot took (a
    // heading shown, then taken back) after an update showed other.
    @exclusivity(unchecked) private var tailBlocks: [TailBlock] = []
    /// What the last snapshot emitted for its tail (see `emitTail`), and
    /// whether the next snapshot may reuse it.
    @exclusivity(unchecked) private var tailLog: [TailEntry] = []
    @exclusivity(unchecked) private var tailLogValid = false
    // Arrays a snapshot fills and the next one reuses (no allocation).
    @exclusivity(unchecked) private var tailLogScratch: [TailEntry] = []
    @exclusivity(unchecked) private var tailTopsScratch: [Int] = []
    @exclusivity(unchecked) private var tailIDsScratch: [BlockID] = []
    @exclusivity(unchecked) private var tailStartsScratch: [Int] = []
    @exclusivity(unchecked) private var tailBlocksScratch: [TailBlock] = []
    typealias TailBlock = (start: Int, id: BlockID, hash: Int, stale: Bool)
    @exclusivity(unchecked) private var changedScratch: [BlockID] = []
    @exclusivity(unchecked) private var insertedScratch: [BlockID] = []
    /// Whether the last layout's settled part showed provisional re-emissions.
    @exclusivity(unchecked) private var lastLayoutProvisional = false
    /// Entries of `storage.lineStarts` that are the parser's (settled).
    @exclusivity(unchecked) private var syncedLineStarts = 0
    @exclusivity(unchecked) private var nextID: UInt64 = 1
    /// What the last update showed for settled blocks it re-emitted with a
    /// tail-only definition (id → hash), to report them when they revert.
    @exclusivity(unchecked) private var provisionalShown: [BlockID: Int] = [:]
    // The last update, without its document (holding the document here
    // would keep the storage from being reused).
    @exclusivity(unchecked) private var lastLayout = StreamLayout.empty
    @exclusivity(unchecked) private var lastDiff = StreamDiff.empty
    /// What the last update's diff is: 0 `lastDiff`; 1 only `lastSingleID`
    /// changed; 2 nothing changed.
    @exclusivity(unchecked) private var lastDiffMode: UInt8 = 0
    @exclusivity(unchecked) private var lastSingleID = BlockID(rawValue: 0)
    @exclusivity(unchecked) private var lastFinal = false
    var lastTailIDs: [BlockID] { lastLayout.tailIDs }

    var lastUpdate: StreamUpdate {
        @inline(__always) get {
            let st = storage
            // (The storage carries the layout and diff it is shown with; it
            // is ours alone whenever they change, see `reclaim`.)
            if st.streamLayout !== lastLayout { st.streamLayout = lastLayout }
            if lastDiffMode == 0 && st.streamDiff !== lastDiff { st.streamDiff = lastDiff }
            let layout = lastLayout
            return StreamUpdate(storage: st, options: options, diffMode: lastDiffMode, single: lastSingleID,
                                settledCount: lastFinal ? layout.settledIDs.count + layout.tailIDs.count : layout.settledIDs.count,
                                isFinal: lastFinal)
        }
    }

    init(options: ParseOptions) {
        self.options = options
        parser = BlockParser(options: options)
        let root = RawNode(kind: .document, start: 0, end: 0)
        storage = DocumentStorage(source: [], nodes: [root], arena: [], lineStarts: [0])
    }

    func copy() -> StreamEngine {
        let e = StreamEngine(options: options)
        e.parser = parser.copy()
        e.pending = pending
        e.started = started
        e.finished = finished
        e.storage = DocumentStorage(source: storage.source, nodes: storage.nodes, arena: storage.arena, lineStarts: storage.lineStarts)
        e.stableCount = stableCount
        e.settledBlocks = settledBlocks
        // (Buffers of its own: two engines may append on two threads.)
        e.settledNodeStarts = GrowingList(Array(settledNodeStarts))
        e.settledIDs = GrowingList(Array(settledIDs))
        e.settledHashes = settledHashes
        e.settledMisses = settledMisses
        e.missingBlocks = missingBlocks
        e.settledNodeCount = settledNodeCount
        e.settledArenaCount = settledArenaCount
        e.definitionsSeen = definitionsSeen
        e.footnotesSeen = footnotesSeen
        e.provisionalFrom = provisionalFrom
        e.tailBlocks = tailBlocks
        e.tailLog = tailLog
        e.trailingParagraphNode = trailingParagraphNode
        e.trailingTableNode = trailingTableNode
        e.trailingPreviousRow = trailingPreviousRow
        e.trailingRow = trailingRow
        e.trailingRowClosed = trailingRowClosed
        e.trailingRowOpenStart = trailingRowOpenStart
        e.trailingAlignments = trailingAlignments
        e.trailingParagraphLines = trailingParagraphLines
        e.trailingParagraphUndecided = trailingParagraphUndecided
        e.trailingParagraphContext = trailingParagraphContext
        e.undecidedMathLine = undecidedMathLine
        e.afterParagraphLineFeed = afterParagraphLineFeed
        e.newLine = newLine
        e.blankPartialLine = blankPartialLine
        e.afterCodeLineFeed = afterCodeLineFeed
        e.closingFenceShownEnd = closingFenceShownEnd
        e.afterTableRowLineFeed = afterTableRowLineFeed
        e.placeholderShown = placeholderShown
        e.setextShown = setextShown
        e.shownDigits = shownDigits
        e.setextSaved = setextSaved
        e.setextFlags = setextFlags
        e.wordCheckedEnd = wordCheckedEnd
        e.singleLineBlockFeedEnd = singleLineBlockFeedEnd
        e.wordScanEnd = wordScanEnd
        e.wordScanStart = wordScanStart
        e.wordScanFollows = wordScanFollows
        e.hotText = hotText
        e.hotLeaf = hotLeaf
        e.hotInCell = hotInCell
        e.hotPadding = hotPadding
        e.hotLineStart = hotLineStart
        e.hotTrimmed = hotTrimmed
        e.tailLogValid = tailLogValid
        e.syncedLineStarts = syncedLineStarts
        e.nextID = nextID
        e.provisionalShown = provisionalShown
        e.publishedPending = publishedPending
        e.footnoteFold = footnoteFold
        e.footnoteIndexEnd = footnoteIndexEnd
        e.footnoteKeyIDs = footnoteKeyIDs
        e.numberedTail = numberedTail
        e.lastLayout = lastLayout
        e.lastLayoutProvisional = lastLayoutProvisional
        e.lastDiff = lastDiff
        e.lastDiffMode = lastDiffMode
        e.lastSingleID = lastSingleID
        e.appendEpoch = appendEpoch
        e.diffEpoch = diffEpoch
        e.lastFinal = lastFinal
        e.lastLabels = lastLabels
        e.lastDefinitionsVersion = lastDefinitionsVersion
        return e
    }

    // MARK: Appending

    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> StreamUpdate {
        appendEpoch &+= 1
        // The hottest path first: plain ASCII right after plain bytes.
        if hotText >= 0 && wordCheckedEnd == storage.source.count && !placeholderShown && appendPlainASCIIAgain(bytes) {
            return lastUpdate
        }
        if finished { return lastUpdate }
        if shownDigits.active, let update = settleDigitLine(bytes) { return update }
        if setextShown {
            // The last chunk was a setext underline shown under the trailing
            // paragraph: take it back and append it again with this chunk.
            var combined = take(&combineScratch)
            combined.truncate(to: 0)
            combined.append(contentsOf: pending)
            combined.append(contentsOf: bytes)
            defer { combineScratch = combined }
            retractSetextUnderline()
            pending.truncate(to: 0)
            return combined.withUnsafeBufferPointer { append($0) }
        }
        if started && placeholderShown && !pending.isEmpty {
            // The last chunk ended inside a UTF-8 sequence and the plain
            // path showed U+FFFD for it: take the placeholder back and
            // append the held bytes with this chunk.
            // (In a scratch buffer: CJK text in small chunks comes this way
            // nearly every time — most of it through `swapPlaceholder`.)
            if let update = swapPlaceholder(bytes) { return update }
            var combined = take(&combineScratch)
            combined.truncate(to: 0)
            combined.append(contentsOf: pending)
            combined.append(contentsOf: bytes)
            defer { combineScratch = combined }
            if removePlaceholder(before: bytes) {
                pending.truncate(to: 0)
                if let update = combined.withUnsafeBufferPointer({ continuePlainText($0) }) { return update }
                return combined.withUnsafeBufferPointer { append($0) }
            }
        }
        // (After a carriage return the parser keeps the line it ends
        // partial, a line feed may follow; the fast paths, which find lines
        // by their line feeds, leave the next chunk to the exact way.)
        if started && pending.isEmpty && storage.source.last != 0x0D {
            if !StreamEngine.holds(0x0A, bytes) {
                // (Text the plain path extends, ending inside a UTF-8
                // sequence: CJK text in small chunks, a third of the time.)
                if hotText >= 0 && (bytes.last ?? 0) >= 0x80, let update = continuePlainText(bytes) { return update }
                if appendFast(bytes, endsChunk: true) { return lastUpdate }
                // A chunk that ends inside a UTF-8 sequence (CJK text in small
                // chunks, nearly every time): its complete bytes and the U+FFFD
                // the batch parser shows for the rest, through the plain path.
                let hold = Normalizer.incompleteSuffixLength(bytes)
                if hold > 0, let update = appendWithPlaceholder(bytes, hold: hold) { return update }
            } else if !StreamEngine.holds(0x0D, bytes) {
                // A chunk with line feeds, line by line: the bytes before each
                // line feed through the fast paths, then the line feed (one
                // that ends the trailing paragraph's or code block's line);
                // whatever the fast paths cannot take goes the
                // exact way from there (a fast path that took the first part
                // left its block marked changed for the next snapshot's diff).
                var rest = bytes
                while let k = rest.firstIndex(of: 0x0A) {
                    if k > rest.startIndex && !appendFast(UnsafeBufferPointer(rebasing: rest[..<k])) {
                        return appendExactly(rest)
                    }
                    guard appendLineFeedToParagraph() || appendLineFeedAfterSingleLineBlock() || appendBlankLineAfterSingleLineBlock()
                            || appendCodeLineFeed()
                            || (storage.nodes[storage.nodes.count - 1].kind == .codeBlock && appendIndentedCodeLineFeed())
                            || appendFenceOpenerLineFeed()
                            || appendClosingFenceLineFeed()
                            || appendMathLineFeed() || appendMathOpenerLineFeed() || appendBlankCodeLine()
                            || appendTableRowLineFeed() || appendBlankLineAfterTable() || appendBlankLineFeed()
                            || appendBlankLineFeedAfterBlank() else {
                        return appendExactly(UnsafeBufferPointer(rebasing: rest[k...]))
                    }
                    rest = UnsafeBufferPointer(rebasing: rest[(k + 1)...])
                }
                // The first bytes of the next line may take the blank-line,
                // new-paragraph-line or new-code-line fast path (with a
                // placeholder for a UTF-8 sequence they end inside).
                if rest.isEmpty || appendFast(rest, endsChunk: true) { return lastUpdate }
                let hold = Normalizer.incompleteSuffixLength(rest)
                if hold > 0, let update = appendWithPlaceholder(rest, hold: hold) { return update }
                return appendExactly(rest)
            }
        }
        return appendExactly(bytes)
    }

    /// Whether `bytes` holds `b` (inlined: `append` checks each chunk).
    @inline(__always)
    private static func holds(_ b: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for x in bytes where x == b { return true }
        return false
    }

    /// Plain bytes (`combined`: after `removePlaceholder` took back the
    /// U+FFFD that ended the text, the held bytes and the chunk) that
    /// continue the text the plain path extends: what they complete, and a
    /// placeholder for a sequence they end inside — what `appendFast` or
    /// `appendWithPlaceholder` would do through the plain path, without
    /// trying the other paths first (CJK text in small chunks comes here
    /// nearly every time). Nil, having changed nothing, when they are not
    /// all plain text.
    @inline(never)
    private func continuePlainText(_ combined: UnsafeBufferPointer<UInt8>) -> StreamUpdate? {
        let sourceCount = storage.source.count
        guard hotText >= 0, wordCheckedEnd == sourceCount, pending.isEmpty, !placeholderShown, !shownDigits.active,
              !setextShown, !finished, combined.count <= 64 else { return nil }
        // (No line feed, carriage return, NUL, tab, or byte that opens,
        // closes or escapes anything: each is plain text after text.)
        var mayLink = false
        for b in combined {
            guard PlainText.isPlainByte(b) else { return nil }
            if b == UInt8(ascii: "w") || b == UInt8(ascii: "/") { mayLink = true }
        }
        guard let cut = StreamEngine.completePart(combined),
              appendShowingHeld(combined, cut: cut, at: sourceCount, mayLink: mayLink) else { return nil }
        return lastUpdate
    }

    /// Where the complete bytes of `bytes` end: valid UTF-8 but for a
    /// sequence at the end that more bytes could complete. Nil when that
    /// leaves nothing, or they are not valid.
    @inline(__always)
    private static func completePart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let cut = bytes.count - Normalizer.incompleteSuffixLength(bytes)
        guard cut > 0, Normalizer.isClean(UnsafeBufferPointer(rebasing: bytes[..<cut])) else { return nil }
        return cut
    }

    /// The plain path's append of plain `bytes` to its text at
    /// `sourceCount`: their first `cut` bytes (see `completePart`), and one
    /// U+FFFD for the rest, held in `pending` — what the batch parser shows.
    /// False, having changed nothing, when the URL check turns them away.
    @inline(__always)
    private func appendShowingHeld(_ bytes: UnsafeBufferPointer<UInt8>, cut: Int, at sourceCount: Int, mayLink: Bool) -> Bool {
        let hold = bytes.count - cut
        assert(hold == 0 || Normalizer.normalize(Array(bytes[cut...]), dropBOM: false) == StreamEngine.replacement)
        let appended = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: cut + 3) { shown -> Bool in
            for k in 0..<cut { shown[k] = bytes[k] }
            if hold > 0 {
                shown[cut] = 0xEF
                shown[cut + 1] = 0xBF
                shown[cut + 2] = 0xBD
            }
            return appendPlainTextAgain(UnsafeBufferPointer(rebasing: shown[..<(hold > 0 ? cut + 3 : cut)]), sourceCount,
                                        mayLink: mayLink)
        }
        guard appended else { return false }
        if hold > 0 { showHeld(UnsafeBufferPointer(rebasing: bytes[cut...])) }
        plainContinuations &+= 1
        return true
    }

    /// After a path appended U+FFFD for `held`, the start of a sequence the
    /// chunk ended inside: the placeholder is shown, not input (not stable),
    /// and the held bytes wait for the next chunk.
    @inline(__always)
    private func showHeld(_ held: UnsafeBufferPointer<UInt8>) {
        stableCount = storage.source.count - 3
        pending.truncate(to: 0)
        // (At most three bytes: one by one, cheaper than the generic append.)
        for b in held { pending.append(b) }
        placeholderShown = true
        publishedPending = true
    }

    /// Whether `storage.source` ends with the U+FFFD standing for the held
    /// bytes of `pending`, appended by the plain or paragraph path
    /// (`appendWithPlaceholder`).
    @exclusivity(unchecked) private var placeholderShown = false
    /// (Scratch buffers of `append` and `appendWithPlaceholder`.)
    @exclusivity(unchecked) private var combineScratch: [UInt8] = []
    @exclusivity(unchecked) private var shownScratch: [UInt8] = []
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    private func appendWithPlaceholder(_ bytes: UnsafeBufferPointer<UInt8>, hold: Int) -> StreamUpdate? {
        let cut = bytes.count - hold
        // (The held bytes that `incompleteSuffixLength` finds are the start
        // of one valid sequence: the batch parser shows one U+FFFD.)
        assert(Normalizer.normalize(Array(bytes[cut...]), dropBOM: false) == StreamEngine.replacement)
        for k in 0..<cut where bytes[k] == 0x0A || bytes[k] == 0x0D { return nil }
        var shown = take(&shownScratch)
        defer { shownScratch = shown }
        shown.truncate(to: 0)
        shown.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<cut]))
        shown.append(contentsOf: StreamEngine.replacement)
        let ok = shown.withUnsafeBufferPointer {
            appendPlainText($0) || appendToParagraphLine($0) || appendToTableRow($0) || appendNewParagraphLine($0)
                || (parser.tip == 0 && appendNewTopParagraph($0)) || appendNewBlockLine($0)
        }
        guard ok else { return nil }
        showHeld(UnsafeBufferPointer(rebasing: bytes[cut...]))
        return lastUpdate
    }

    /// Takes back the U+FFFD the plain or paragraph path appended for held
    /// bytes at the end of the trailing paragraph or table cell. The text
    /// node it ends is cut back to the content without it (trailing spaces
    /// and tabs are not content), or goes when nothing of it is left and
    /// the node before it ends there. Otherwise the exact path replaces it,
    /// as it replaces any pending bytes.
    private func removePlaceholder(before next: UnsafeBufferPointer<UInt8>) -> Bool {
        removePlaceholderInPlace(before: next) || removePlaceholderInRow()
    }

    /// `removePlaceholder` in the trailing table's last row, when the
    /// placeholder is in its last cell (a cell of it alone goes with it):
    /// the row's cells from the open one are split and emitted again.
    private func removePlaceholderInRow() -> Bool {
        let count = storage.source.count
        guard count >= 4, stableCount == count - 3, let row = trailingTableRow(endingAt: count),
              endsWithReplacement(count),
              Int(trailingRowOpenStart) <= count - 3 else { return false }
        // (The cells emitted again would show a footnote reference in them
        // unnumbered: a row with one takes the exact path, as in
        // `appendToTableRow`.)
        guard lastLabels.footnoteCount == 0 || rowHoldsNoFootnote(row) else { return false }
        foldWordScan()
        reclaim()
        storage.source.truncate(to: count - 3)
        if wordScanEnd > count - 3 { wordScanEnd = -1 }
        emitRowTail(row: row, oldEnd: count, pipeless: false)
        _ = trailingBlockChanged()
        hotText = -1
        publishedPending = false
        return true
    }

    /// `removePlaceholder` and `continuePlainText` at once, for the common
    /// case: the placeholder ends the text the plain path extends (which
    /// holds more than it), and the held bytes and `bytes` after them are
    /// plain text with no `w` or `/` (no extended autolink to look for).
    /// The placeholder's bytes are replaced by what they complete, and a
    /// new placeholder for a sequence the chunk ends inside; the text and
    /// its ancestors end where they now do (no pass over them to cut them
    /// back first). Nil, having changed nothing, in any other case.
    @inline(never)
    private func swapPlaceholder(_ bytes: UnsafeBufferPointer<UInt8>) -> StreamUpdate? {
        let count = storage.source.count
        guard hotText == storage.nodes.count - 1, wordCheckedEnd == count, hotTrimmed == count, hotPadding == 0,
              !shownDigits.active, !setextShown, !bytes.isEmpty, pending.count + bytes.count <= 64,
              let t = placeholderText(before: bytes), t.node == hotText, t.leaf == hotLeaf, t.inCell == hotInCell,
              t.trimmed > t.textStart else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pending.count + bytes.count) { buf -> StreamUpdate? in
            var n = 0
            for b in pending {
                buf[n] = b
                n &+= 1
            }
            for b in bytes {
                guard PlainText.isPlainByte(b), b != UInt8(ascii: "w"), b != UInt8(ascii: "/") else { return nil }
                buf[n] = b
                n &+= 1
            }
            let combined = UnsafeBufferPointer(rebasing: buf[..<n])
            guard let cut = StreamEngine.completePart(combined) else { return nil }
            // The placeholder taken back, as `removePlaceholderInPlace` does
            // when the text goes on, and what replaces it written over its
            // bytes — what `appendShowingHeld` would append after the cut,
            // in one write of the source and one of the text and its
            // ancestors.
            reclaim(nodesFrom: t.node, endsOf: t.leaf)
            cutPlaceholder(count: count, node: t.node, trimmed: t.trimmed, alone: false, keepingSource: true)
            let start = count - 3
            let hold = n - cut
            assert(hold == 0 || Normalizer.normalize(Array(combined[cut...]), dropBOM: false) == StreamEngine.replacement)
            let newCount = start + cut + (hold > 0 ? 3 : 0)
            // The text ends before the new bytes' trailing spaces and tabs
            // (a U+FFFD after them is content). The completed character is
            // not one, so the text grows.
            var newTrimmed = newCount
            if hold == 0 {
                while newTrimmed > start && isSpaceOrTab(combined[newTrimmed - start - 1]) { newTrimmed -= 1 }
            }
            assert(newTrimmed > t.trimmed)
            let (text, leaf, inCell) = (t.node, t.leaf, t.inCell)
            withStorage { st in
                @inline(__always) func shown(_ k: Int) -> UInt8 { k < cut ? combined[k] : StreamEngine.replacement[k - cut] }
                let total = newCount - start
                st.source.withUnsafeMutableBufferPointer { s in
                    for k in 0..<min(3, total) { s[start + k] = shown(k) }
                }
                if total < 3 {
                    st.source.truncate(to: newCount)
                } else {
                    for k in 3..<total { st.source.append(shown(k)) }
                }
                st.nodes.withUnsafeMutableBufferPointer { nodes in
                    nodes[text].end = UInt32(newTrimmed)
                    nodes[text].a.length = UInt32(newTrimmed - nodes[text].a.start)
                    StreamEngine.setEnds(nodes, leaf: leaf, inCell: inCell, contentEnd: newTrimmed, end: newCount)
                }
            }
            stableCount = newCount
            if inCell {
                trailingRow.end = Int32(newCount)
            } else {
                trailingParagraphLines[trailingParagraphLines.count - 1].end = Int32(newCount)
            }
            hotTrimmed = newTrimmed
            wordCheckedEnd = newCount
            placeholderShown = false
            publishedPending = false
            pending.truncate(to: 0)
            if hold > 0 { showHeld(UnsafeBufferPointer(rebasing: combined[cut...])) }
            plainContinuations &+= 1
            return lastUpdate
        }
    }

    /// The text node the placeholder at the source's end ends, when it is
    /// the store's last node, the last text of the trailing paragraph or of
    /// the trailing row's cell (`leaf`): where its text starts and where it
    /// ends without the placeholder and the spaces and tabs before it.
    @inline(__always)
    private func placeholderText(before next: UnsafeBufferPointer<UInt8>) -> (node: Int, leaf: Int, inCell: Bool, textStart: Int, trimmed: Int)? {
        let count = storage.source.count
        guard count >= 4, stableCount == count - 3, endsWithReplacement(count) else { return nil }
        let c = storage.nodes.count - 1
        guard c > 0 else { return nil }
        let text = storage.nodes[c]
        guard text.kind == .text, !text.a.isArena, Int(text.end) == count, text.a.end == count, text.a.length >= 3,
              text.firstChild < 0 else { return nil }
        let leaf: Int
        var inCell = false
        if trailingParagraphNode > 0, let line = trailingParagraphLines.last, Int(line.end) == count {
            leaf = trailingParagraphNode
        } else if trailingTableNode > 0, Int(trailingRow.end) == count {
            leaf = Int(text.parent)
            inCell = true
        } else {
            return nil
        }
        guard Int(text.parent) == leaf else { return nil }
        let textStart = Int(text.a.start)
        var trimmed = count - 3
        while trimmed > textStart && isSpaceOrTab(storage.source[trimmed - 1]) { trimmed -= 1 }
        // A delimiter run right before it was parsed with U+FFFD after it (a
        // symbol: punctuation to flanking). Literal text whole (in the
        // placeholder's text), the run stays literal when a character other
        // than whitespace replaces it: a letter only lets it open, with no
        // closer after it, and keeps it from closing; punctuation reads as
        // U+FFFD did. Unicode whitespace may make it a closer the rule of
        // three had kept literal (`**a*…*` then U+3000): the exact way. A
        // run that matched, whole or in part (`*a**`: `<em>a</em>*`, all
        // literal with a letter after it), ends before the placeholder's
        // text, which then holds it alone: the plain paths leave the run to
        // a paragraph pass, which parses it again (should the rest of a run
        // share the placeholder's text, the exact way takes it).
        let before = storage.source[count - 4]
        if before == UInt8(ascii: "*") || before == UInt8(ascii: "_") || before == UInt8(ascii: "~") {
            var run = count - 4
            while run > 0 && storage.source[run - 1] == before { run -= 1 }
            guard !heldCompletesWhitespace(next), trimmed == textStart || textStart <= run else { return nil }
        }
        return (c, leaf, inCell, textStart, trimmed)
    }

    /// Whether the character the held bytes (`pending`) start is Unicode
    /// whitespace once `next` completes it (false while it stays
    /// incomplete, or is not valid: U+FFFD again).
    private func heldCompletesWhitespace(_ next: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let lead = pending.first, lead >= 0xC0 else { return false }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard pending.count + next.count >= length else { return false }
        var scalar = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for k in 1..<length {
            let b = k < pending.count ? pending[k] : next[k - pending.count]
            guard b & 0xC0 == 0x80 else { return false }
            scalar = scalar << 6 | UInt32(b & 0x3F)
        }
        return UnicodeProperties.isWhitespace(scalar)
    }

    /// Drops the placeholder's bytes (the source was `count` long), and
    /// what knew of them: the word scan's end, the emission marks past what
    /// is left of text node `node` (ending at `trimmed`, or gone when
    /// `alone`), the leaf's inline content.
    /// (`keepingSource`: the caller writes over the placeholder's bytes.)
    private func cutPlaceholder(count: Int, node c: Int, trimmed: Int, alone: Bool, keepingSource: Bool = false) {
        if !keepingSource { storage.source.truncate(to: count - 3) }
        forgetOpenCell()
        // (The word checked up to the placeholder was checked without it.)
        if wordScanEnd == count { wordScanEnd = count - 3 }
        // An emission mark past what is left (after the node that went, or
        // with its end recorded past the new one) can no longer be restored.
        func stale(_ m: EmitMark) -> Bool { alone ? m.at > c : m.top == Int32(c) && Int(m.topEnd) > trimmed }
        if stale(leafEmitMark) { leafEmitMark = EmitMark() }
        if stale(leafCleanMark) { leafCleanMark = EmitMark() }
        if leafInlineNode >= 0, leafInlineSourceEnd == count, let inline = leafInline, inline.content.count >= 3 {
            inline.content.truncate(to: inline.content.count - 3)
            leafInlineSourceEnd = count - 3
        }
    }

    /// Whether the source's first `count` bytes end with U+FFFD.
    @inline(__always)
    private func endsWithReplacement(_ count: Int) -> Bool {
        storage.source.withUnsafeBufferPointer { s in
            count >= 3 && count <= s.count && s[count - 3] == 0xEF && s[count - 2] == 0xBF && s[count - 1] == 0xBD
        }
    }

    private func removePlaceholderInPlace(before next: UnsafeBufferPointer<UInt8>) -> Bool {
        placeholderShown = false
        guard let (c, leaf, inCell, textStart, cut) = placeholderText(before: next) else { return false }
        var trimmed = cut
        let count = storage.source.count
        let newCount = count - 3
        var alone = trimmed == textStart
        if alone && !next.isEmpty && c == storage.nodes.count - 1
            && (leafEmitMark.top == Int32(c) || leafCleanMark.top == Int32(c)) {
            // Spaces an emission mark ends in (`**b** ` then a split
            // character): the node keeps them until the bytes that follow
            // in this append (the character) go on with it, and the mark
            // stays (without the node it went too, and the next pass
            // emitted the paragraph again from its start).
            trimmed = newCount
            alone = false
        }
        var before = Int32(c - 1)
        if alone {
            // The node before it (if any) must end where it started, and
            // not in a space or tab (it would lose them as content too).
            // With none, the text starts the leaf's content, and the spaces
            // before it are not content (a list item's marker and the space
            // after it, a quote's `> `): the leaf is left empty until the
            // bytes that replace the placeholder are appended again.
            while before > Int32(leaf) && storage.nodes[Int(before)].parent != Int32(leaf) { before = storage.nodes[Int(before)].parent }
            guard before <= Int32(leaf) || Int(storage.nodes[Int(before)].end) == textStart,
                  textStart == 0 || before <= Int32(leaf) || !isSpaceOrTab(storage.source[textStart - 1]) else { return false }
        }
        let continues = !alone && wordCheckedEnd == count && hotText == c && hotLeaf == leaf && hotInCell == inCell
            && hotTrimmed == count
        if !continues { foldWordScan() }
        reclaim()
        cutPlaceholder(count: count, node: c, trimmed: trimmed, alone: alone)
        if alone {
            storage.nodes.removeLast()
            if before > Int32(leaf) {
                storage.nodes[Int(before)].next = -1
                storage.nodes[leaf].lastChild = before
            } else {
                storage.nodes[leaf].firstChild = -1
                storage.nodes[leaf].lastChild = -1
            }
        } else {
            storage.nodes[c].end = UInt32(trimmed)
            storage.nodes[c].a.length = UInt32(trimmed - textStart)
        }
        setLeafEnds(leaf: leaf, inCell: inCell, contentEnd: trimmed, end: newCount)
        if continues {
            // The plain path appended the placeholder to the hot text: the
            // word without it was checked too (U+FFFD holds no `@`, `www`
            // or `//`), and the bytes that replace it continue the text.
            wordCheckedEnd = newCount
            hotTrimmed = trimmed
        } else {
            wordCheckedEnd = -1
        }
        publishedPending = false
        return true
    }

    /// (`endsChunk`: nothing of the chunk follows the bytes — no line feed
    /// ends their line yet.)
    @inline(__always)
    private func appendFast(_ bytes: UnsafeBufferPointer<UInt8>, endsChunk: Bool = false) -> Bool {
        // (Two paths are tried only when they may apply, most appends
        // skipping their calls: the URL path takes ASCII after a paragraph's
        // or a table cell's text, the empty-cell path bytes in a table row,
        // the info path bytes after an empty fenced code block.)
        appendPlainText(bytes) || ((trailingParagraphNode > 0 || trailingTableNode > 0) && (bytes.first ?? 0x80) < 0x80
                                   && appendToAutolink(bytes)) || (trailingTableNode > 0 && appendToEmptyCell(bytes))
                        || appendToCodeLine(bytes) || appendToParagraphLine(bytes)
                        || appendToTableRow(bytes) || appendBlankLineStart(bytes) || appendNewParagraphLine(bytes) || appendNewCodeLine(bytes)
                        || (afterCodeLineFeed && appendNewIndentedCodeLine(bytes))
                        || appendToMathLine(bytes) || appendNewTableRow(bytes) || appendToFenceOpener(bytes)
                        || (storage.nodes[storage.nodes.count - 1].kind == .codeBlock && appendToFenceInfo(bytes))
                        || appendToClosingFence(bytes)
                        || appendFirstContent(bytes) || (endsChunk && appendSetextUnderline(bytes)) || (parser.tip == 0 && appendNewTopParagraph(bytes))
                        || appendNewBlockLine(bytes)
    }

    /// A setext underline typed under the trailing paragraph: after the
    /// line feed of its last line, a line of spaces (as many as its list
    /// items need, and at most three more) and a run of `-` or `=`, then
    /// spaces or tabs — a model's nested list item (`  -`, then ` Next`)
    /// is one until its first content arrives. The paragraph is shown as
    /// the heading the batch parser makes of it (its inlines unchanged;
    /// it, its containers and the root end with the source), and the bytes
    /// are held as pending, not given to the parser: the next append takes
    /// the heading back (`retractSetextUnderline`) and appends them again
    /// with its own bytes, which decide the line. Only at the end of a
    /// chunk (a line feed in the same chunk goes the exact way).
    private func appendSetextUnderline(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard afterParagraphLineFeed, let b0 = bytes.first, b0 == 0x20 || b0 == UInt8(ascii: "-") || b0 == UInt8(ascii: "="),
              !setextShown, started, pending.isEmpty, !publishedPending, !placeholderShown,
              lastLabels.footnoteCount == 0, provisionalFrom == nil, !lastTailIDs.isEmpty, !bytes.isEmpty, bytes.count <= 64
        else { return false }
        let leaf = trailingParagraphNode
        let sourceCount = storage.source.count
        guard stableCount == sourceCount, leaf > 0, leaf >= settledNodeCount, leaf < storage.nodes.count,
              storage.nodes[leaf].kind == .paragraph, let lastLine = trailingParagraphLines.last,
              Int(lastLine.end) < sourceCount, storage.source[Int(lastLine.end)] == 0x0A else { return false }
        // The line: spaces, one run of `-` or `=`, then spaces and tabs.
        var spaces = 0
        var run = 0
        var char: UInt8 = 0
        var after = false
        @inline(__always) func scan(_ b: UInt8) -> Bool {
            if b == 0x20 || b == 0x09 {
                if run > 0 {
                    after = true
                } else {
                    guard b == 0x20 else { return false }
                    spaces += 1
                }
                return true
            }
            guard b == UInt8(ascii: "-") || b == UInt8(ascii: "="), !after, run == 0 || b == char else { return false }
            char = b
            run += 1
            return true
        }
        for i in (Int(lastLine.end) + 1)..<sourceCount where !scan(storage.source[i]) { return false }
        for b in bytes where !scan(b) { return false }
        guard run > 0 else { return false }
        // The paragraph: the parser's open tip, in lists and items only,
        // whose content columns the line's spaces reach.
        let p = parser
        let blk = p.blocks[Int(p.tip)]
        guard blk.kind == .paragraph, blk.isOpen, Int(blk.start) == Int(storage.nodes[leaf].start),
              let need = itemIndentation(blk.parent, storage.nodes[leaf].parent), spaces >= need, spaces - need <= 3
        else { return false }
        // Not a paragraph that may be definitions (the heading would be
        // what is left of it), nor one with a pipe (a table's header row).
        let source = storage.source
        let definitionFirst = source.withUnsafeBufferPointer { s in
            trailingParagraphLines.first.map { StreamEngine.mayStartDefinition(s, $0) } ?? true
        }
        guard !definitionFirst else { return false }
        if options.contains(.table) {
            for l in trailingParagraphLines where source[Int(l.start)..<Int(l.end)].contains(UInt8(ascii: "|")) { return false }
        }
        // (It writes the paragraph and its ancestors: a long list or quote
        // held around the underline is not copied.)
        reclaim(nodesFrom: storage.nodes.count, endsOf: leaf)
        setextSaved.truncate(to: 0)
        var a = Int32(leaf)
        while a >= 0 {
            setextSaved.append((Int(a), storage.nodes[Int(a)]))
            a = storage.nodes[Int(a)].parent
        }
        setextFlags = lineFeedFlags
        pending.append(contentsOf: bytes)
        let newCount = sourceCount + bytes.count
        withStorage { st in
            st.source.append(contentsOf: bytes)
            st.nodes[leaf].kind = .heading
            st.nodes[leaf].small = char == UInt8(ascii: "=") ? 1 : 2
            st.nodes[leaf].flags = 1
        }
        endWithAncestors(leaf, at: newCount)
        _ = trailingBlockChanged()
        setextShown = true
        publishedPending = true
        return true
    }

    /// Takes back what `appendSetextUnderline` showed: the paragraph, the
    /// ends and the state after its line feed; the underline's bytes stay
    /// in `pending`. (The trailing block stays marked stale: the path that
    /// showed the heading marked it, and no snapshot came between.)
    private func retractSetextUnderline() {
        // (The nodes it puts back: the paragraph and its ancestors.)
        reclaim(nodesFrom: storage.nodes.count, endsOf: setextSaved.first?.0 ?? 0)
        withStorage { st in
            if st.source.count > stableCount { st.source.truncate(to: stableCount) }
            for (i, node) in setextSaved { st.nodes[i] = node }
        }
        lineFeedFlags = setextFlags
        setextShown = false
        publishedPending = false
    }

    /// The flags a line feed's fast path leaves for the next bytes, saved
    /// and restored together by the paths that show something and take it
    /// back (`appendSetextUnderline`, `settleDigitLine`).
    private var lineFeedFlags: (Bool, Bool, Int, Bool, Bool) {
        get { (afterParagraphLineFeed, afterCodeLineFeed, closingFenceShownEnd, afterTableRowLineFeed, blankPartialLine) }
        set { (afterParagraphLineFeed, afterCodeLineFeed, closingFenceShownEnd, afterTableRowLineFeed, blankPartialLine) = newValue }
    }

    /// Whether the partial line, empty after a line feed, is one that a
    /// blank line leaves showing nothing new but the root's end (see
    /// `blankPartialLine`).
    private func blankLineChangesOnlyTheRoot() -> Bool {
        storage.source.withUnsafeBufferPointer { isBlankPartialLine(parser, $0, from: $0.count) }
    }

    /// Whether a setext underline is shown (`appendSetextUnderline`), the
    /// nodes it changed (the paragraph's, its ancestors' and the root's,
    /// as they were) and the flags of the line feed before it.
    @exclusivity(unchecked) private var setextShown = false
    @exclusivity(unchecked) private var setextSaved: [(Int, RawNode)] = []
    @exclusivity(unchecked) private var setextFlags = (false, false, -1, false, false)

    /// The first bytes of a line — after a line feed, with nothing on the
    /// line but spaces and tabs so far — that start new blocks: a list item
    /// (in the trailing paragraph's list, a list of its own inside its item,
    /// or further out), a heading, a paragraph, a quote, a fence, … — most
    /// lines of a model's answer. The block parser takes the partial line
    /// from a checkpoint, as for a snapshot, and closes every block as the
    /// end of the input would; when what it did has the shape this path
    /// knows — one new block (with its subtree) under a block that was open,
    /// every block between them closed as the last update showed it, the
    /// open ones unchanged but for their ends — the store gets only the new
    /// block's nodes and the new ends, and the parser is rolled back; a
    /// full snapshot is not needed. The next bytes of the same line do the
    /// same again from the same baseline while the line is not decided (a
    /// marker that came alone, `#` before its space). Anything else goes the
    /// exact way.
    private func appendNewBlockLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard started, pending.isEmpty, !publishedPending, !placeholderShown, provisionalFrom == nil,
              !bytes.isEmpty, bytes.count <= 256 else { return false }
        let sourceCount = storage.source.count
        let continuing = newLine.active && newLine.end == sourceCount
        // (Whether the line before was a paragraph's: not blank.)
        let afterParagraph = continuing ? newLine.afterParagraph : afterParagraphLineFeed && trailingParagraphNode > 0
        var lineStart = sourceCount
        if continuing {
            lineStart = newLine.lineStart
        } else {
            // Only spaces and tabs after the last line feed so far.
            while lineStart > 0 && storage.source[lineStart - 1] != 0x0A {
                guard isSpaceOrTab(storage.source[lineStart - 1]) else { return false }
                lineStart -= 1
            }
            guard lineStart > 0 else { return false }
        }
        var content = false
        for b in bytes {
            if b == 0x0A || b == 0x0D || b == 0 { return false }
            if !isSpaceOrTab(b) { content = true }
        }
        guard content || continuing else { return false }
        if bytes.contains(where: { $0 >= 0x80 }) && !Normalizer.isClean(bytes) { return false }
        let p = parser
        // Top-level blocks the line feed closed settle first, as in a
        // snapshot (kept as the last update showed them, when they are).
        let firstOpen = settledBlocks.last.map { p.blocks[Int($0)].next } ?? p.blocks[0].firstChild
        let settles = firstOpen >= 0 && !p.blocks[Int(firstOpen)].isOpen
        // (Without blocks to settle, the spares learn what the pass wrote
        // after it, `applyNewBlockLine`: a new item of a long list held
        // costs a copy of the item before it, not of the list.)
        if settles { reclaim() } else { reclaim(nodesFrom: storage.nodes.count, endsOf: 0, rewrites: true) }
        var settled = false
        if settles {
            guard !continuing, !keepJustSettled else { return false }
            storage.streamLayout = nil
            storage.streamDiff = nil
            storage.source.withUnsafeBufferPointer { settle($0) }
            settled = true
            // (If this path gives up, the snapshot that follows reports them.)
            keepJustSettled = true
            tailLogValid = false
        } else if !continuing {
            justSettled.truncate(to: 0)
        }

        // The parser takes the partial line from a checkpoint.
        storage.source.append(contentsOf: bytes)
        let newCount = storage.source.count
        newBlockPasses &+= 1
        let cp = p.checkpoint()
        var applied = false
        storage.source.withUnsafeBufferPointer { source in
            p.s = source
            p.consumeLines(final: true)
            applied = applyNewBlockLine(p, cp, source, lineStart: lineStart, end: newCount, continuing: continuing,
                                        afterParagraph: afterParagraph, settled: settled)
            p.rollback(to: cp)
            p.s = Bytes(start: nil, count: 0)
        }
        guard applied else {
            storage.source.removeLast(bytes.count)
            return false
        }
        stableCount = newCount
        return true
    }

    /// The first bytes of a top-level paragraph when no block is open (the
    /// parser's tip is the root: the blocks before closed, by a blank line,
    /// a heading's or a fence's end, …): a line of at most three spaces,
    /// then content that decides it a paragraph line whatever follows
    /// (`lineDecided`: no block can start there; no `[`, so no
    /// definition), is a new paragraph under the root, and nothing can
    /// continue into it. The blocks that closed settle as in a snapshot;
    /// the paragraph's nodes are made as `appendFirstContent` makes an
    /// item's, without the block parser (which takes the line at its line
    /// feed), and the diff reports the new block.
    private func appendNewTopParagraph(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // (The parser's tip stays the root until the line feed: the line's
        // later bytes come here too, and leave at the first check.)
        let sourceCount = storage.source.count
        guard sourceCount > 0, storage.source[sourceCount - 1] == 0x0A || storage.source[sourceCount - 1] == 0x20,
              !publishedPending, !placeholderShown, started, pending.isEmpty,
              provisionalFrom == nil, !bytes.isEmpty, bytes.count <= 256,
              !(newLine.active && newLine.end == sourceCount) else { return false }
        let p = parser
        // Spaces only after the last line feed so far, then in the new
        // bytes: three at most (four indent code; a tab goes the exact way).
        var lineStart = sourceCount
        while lineStart > 0 && storage.source[lineStart - 1] == 0x20 { lineStart -= 1 }
        guard lineStart > 0, storage.source[lineStart - 1] == 0x0A else { return false }
        var j = 0
        while j < bytes.count && bytes[j] == 0x20 { j += 1 }
        guard j < bytes.count, sourceCount - lineStart + j <= 3 else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        guard StreamEngine.lineDecided(bytes, j, bytes.count), Normalizer.isClean(bytes) else { return false }
        // Top-level blocks that closed settle first (as `appendNewBlockLine` does).
        let firstOpen = settledBlocks.last.map { p.blocks[Int($0)].next } ?? p.blocks[0].firstChild
        if firstOpen >= 0 {
            guard !keepJustSettled else { return false }
            reclaim()
            storage.streamLayout = nil
            storage.streamDiff = nil
            storage.source.withUnsafeBufferPointer { settle($0) }
            tailLogValid = false
        } else {
            reclaim()
            justSettled.truncate(to: 0)
        }
        let contentStart = sourceCount + j
        storage.source.append(contentsOf: bytes)
        let newCount = storage.source.count
        stableCount = newCount
        let first = storage.nodes.count
        let para = BlockParser.appendNode(RawNode(kind: .paragraph, start: contentStart, end: newCount), parent: 0,
                                          into: &storage.nodes)
        newLine.active = false
        trailingTableNode = 0
        trailingParagraphNode = Int(para)
        trailingParagraphUndecided = false
        undecidedMathLine = -1
        trailingParagraphLines.truncate(to: 0)
        trailingParagraphLines.append(Line(start: contentStart, end: newCount))
        leafInlineNode = -1
        _ = emitTrailingParagraph(para, previousSourceCount: sourceCount, newLine: false, newBlock: true)
        forgetLineState()
        publishNewLayout(first: first, newTop: true)
        return true
    }

    /// What a new block leaves of the fast paths' state of the line before:
    /// nothing.
    private func forgetLineState() {
        foldWordScan()
        wordCheckedEnd = -1
        afterParagraphLineFeed = false
        afterCodeLineFeed = false
        closingFenceShownEnd = -1
        afterTableRowLineFeed = false
        blankPartialLine = false
        keepJustSettled = false
    }

    /// The diff and the layout after blocks settled, or a top-level block
    /// was added at node `first` (`newTop`), the store in place.
    private func publishNewLayout(first: Int, newTop: Bool) {
        var tops = take(&tailTopsScratch)
        tops.truncate(to: 0)
        for t in lastLayout.tailStarts where t >= settledNodeCount { tops.append(t) }
        if newTop { tops.append(first) }
        storage.streamLayout = nil
        storage.streamDiff = nil
        // (Blocks an earlier append settled were reported with the update
        // that settled them.)
        if justSettledEpoch != appendEpoch && !justSettled.isEmpty { justSettled.truncate(to: 0) }
        // (Blocks that settled were emitted again, the new ones may hold a
        // reference: footnotes are numbered as in a snapshot.)
        var renumbered: [Int] = []
        if options.contains(.footnotes) && lastLabels.footnoteCount > 0 {
            renumbered = renumberFootnotes(provisional: nil, tailTops: tops)
        }
        publishDiff(provisional: nil, renumbered: renumbered, tailTops: tops, dirtyFrom: first, previousHadPending: false,
                    definitionsMoved: false)
        tops.truncate(to: 0)
        tailTopsScratch = tops
        lastFinal = false
    }

    /// The first content of the line after the marker of a list item or
    /// ATX heading that the new-block path opened empty on it (`- `, `1.`,
    /// `##`): when it decides the line (`lineDecided`: it cannot start a
    /// block of its own whatever follows) after one to four spaces, the
    /// item gets a paragraph of it — as the block parser would make it — and
    /// the trailing-paragraph paths take the line from there. A heading
    /// takes any content after a space that holds no `#` (a closing
    /// sequence), and more `#` of its opening sequence before it. Else the
    /// new-block path runs again.
    private func appendFirstContent(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard newLine.active else { return false }
        let sourceCount = storage.source.count
        guard newLine.end == sourceCount, stableCount == sourceCount, !bytes.isEmpty, bytes.count <= 256,
              pending.isEmpty, !publishedPending, !placeholderShown, lastLabels.footnoteCount == 0, !lastTailIDs.isEmpty
        else { return false }
        let last = storage.nodes.count - 1
        guard last > 0, last >= settledNodeCount else { return false }
        let leaf = storage.nodes[last]
        guard leaf.kind == .item || leaf.kind == .heading, leaf.firstChild < 0, Int(leaf.end) == sourceCount,
              Int(leaf.start) >= newLine.lineStart, Int(leaf.start) < sourceCount else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 || b == 0x09 { return false }
        guard Normalizer.isClean(bytes) else { return false }
        // Past the marker: `-`, `+`, `*`, or digits and `.` or `)`; for a
        // heading, up to three spaces and its `#`, with those the new
        // bytes add when no space followed them yet.
        var k = Int(leaf.start)
        var j = 0
        var level = 0
        if leaf.kind == .item {
            let m = storage.source[k]
            if m == UInt8(ascii: "-") || m == UInt8(ascii: "+") || m == UInt8(ascii: "*") {
                k += 1
            } else {
                while k < sourceCount && isASCIIDigit(storage.source[k]) { k += 1 }
                guard k > Int(leaf.start), k < sourceCount,
                      storage.source[k] == UInt8(ascii: ".") || storage.source[k] == UInt8(ascii: ")") else { return false }
                k += 1
            }
        } else {
            while k < sourceCount && storage.source[k] == 0x20 { k += 1 }
            let hashes = k
            while k < sourceCount && storage.source[k] == UInt8(ascii: "#") { k += 1 }
            level = k - hashes
            if k == sourceCount {
                while j < bytes.count && bytes[j] == UInt8(ascii: "#") { j += 1 }
                level += j
            }
            guard level >= 1, level <= 6 else { return false }
        }
        // Spaces only after the marker so far, then in the new bytes, then
        // the content.
        var spaces = 0
        for i in k..<sourceCount {
            guard storage.source[i] == 0x20 else { return false }
            spaces += 1
        }
        let afterMarker = j
        while j < bytes.count && bytes[j] == 0x20 { j += 1 }
        spaces += j - afterMarker
        // A bullet alone right after an item's marker is an empty item of a
        // list of its own (`1. *`); content right after it (`*bold`) makes
        // it the first content of the item it is in instead.
        var host = -1
        if spaces == 0 && leaf.kind == .item && k == sourceCount && k == Int(leaf.start) + 1 && !bytes.isEmpty
            && !isSpaceOrTab(bytes[0]) {
            host = nestedMarkerHost(last)
            guard host > 0 else { return false }
            decidedScratch.truncate(to: 0)
            decidedScratch.append(storage.source[k - 1])
            decidedScratch.append(contentsOf: bytes)
            guard decidedScratch.withUnsafeBufferPointer({ StreamEngine.lineDecided($0, 0, $0.count) }) else { return false }
        } else {
            guard j < bytes.count, spaces >= 1 else { return false }
            if leaf.kind == .item {
                guard spaces <= 4, StreamEngine.lineDecided(bytes, j, bytes.count) else { return false }
            } else {
                for i in j..<bytes.count where bytes[i] == UInt8(ascii: "#") { return false }
            }
        }
        // (It writes the item or heading and the nodes after it — with a
        // bullet's host, the host and the bullet's list and item — their
        // ancestors' ends and the unsettled arena: an item of a long list
        // held costs a copy of a few nodes, not of the list.)
        if host > 0 {
            reclaim(nodesFrom: last - 1, endsOf: host, rewrites: true)
        } else {
            reclaim(nodesFrom: last, endsOf: last, rewrites: true)
        }
        let contentStart = host > 0 ? k - 1 : sourceCount + j
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        let newCount = storage.source.count
        var p = Int32(last)
        if host > 0 {
            // (The bullet's list and item end the store.)
            storage.nodes.removeLast(2)
            storage.nodes[host].firstChild = -1
            storage.nodes[host].lastChild = -1
            p = BlockParser.appendNode(RawNode(kind: .paragraph, start: contentStart, end: newCount), parent: Int32(host),
                                       into: &storage.nodes)
        } else if leaf.kind == .item {
            p = BlockParser.appendNode(RawNode(kind: .paragraph, start: contentStart, end: newCount), parent: Int32(last),
                                       into: &storage.nodes)
        } else {
            storage.nodes[last].small = UInt16(level)
        }
        newLine.active = false
        trailingTableNode = 0
        trailingParagraphNode = Int(p)
        trailingParagraphUndecided = false
        trailingParagraphLines.truncate(to: 0)
        trailingParagraphLines.append(Line(start: contentStart, end: newCount))
        leafInlineNode = -1
        return emitTrailingParagraph(p, previousSourceCount: sourceCount, newLine: false)
    }

    /// For the empty bullet item `item` that ends the store: the item whose
    /// only content it is — the item's list its only child, the bullet's
    /// item the list's only child, all on the line being written — or -1.
    private func nestedMarkerHost(_ item: Int) -> Int {
        let list = item - 1, host = item - 2
        guard host > 0, host >= settledNodeCount, storage.nodes[item].parent == Int32(list),
              storage.nodes[list].kind == .list, storage.nodes[list].parent == Int32(host),
              storage.nodes[list].firstChild == Int32(item), storage.nodes[list].lastChild == Int32(item),
              storage.nodes[list].start == storage.nodes[item].start,
              storage.nodes[host].kind == .item, storage.nodes[host].firstChild == Int32(list),
              storage.nodes[host].lastChild == Int32(list), Int(storage.nodes[host].start) >= newLine.lineStart
        else { return -1 }
        let marker = storage.source[Int(storage.nodes[item].start)]
        guard marker == UInt8(ascii: "*") || marker == UInt8(ascii: "-") || marker == UInt8(ascii: "+") else { return -1 }
        return host
    }

    /// The nodes of new open lists and items down to paragraph `para`
    /// (one line) under `parent`, as closing them at the end of the input
    /// would make them: they end with the source; a new list is tight.
    private func emitNewItemChain(_ p: BlockParser, from firstNew: Int32, to para: Int32, under parent: Int32, _ source: Bytes,
                                  end: Int, into nodes: inout [RawNode]) {
        var parentNode = parent
        for b in firstNew...para {
            let blk = p.blocks[Int(b)]
            var raw = RawNode(kind: blk.kind, start: Int(blk.start), end: end)
            switch blk.kind {
            case .list:
                raw.flags = 1
                raw.small = blk.ordered ? (0x100 | UInt16(blk.marker)) : UInt16(blk.marker)
                raw.number = blk.listStart
            case .item:
                raw.small = UInt16(blk.task.rawValue)
            default:
                break
            }
            parentNode = BlockParser.appendNode(raw, parent: parentNode, into: &nodes)
        }
        // The paragraph's inlines: plain text is one text node (trailing
        // spaces trimmed); anything else goes through the inline parser.
        let contentStart = Int(p.blocks[Int(para)].start)
        var trimmed = end
        while trimmed > contentStart && isSpaceOrTab(source[trimmed - 1]) { trimmed -= 1 }
        if PlainText.isInertRun(source, contentStart, trimmed) {
            if trimmed > contentStart {
                var text = RawNode(kind: .text, start: contentStart, end: trimmed)
                text.a = ByteRef.source(contentStart, trimmed)
                _ = BlockParser.appendNode(text, parent: parentNode, into: &nodes)
            }
        } else {
            let inline = inlineParser(p)
            swap(&inline.arena, &storage.arena)
            p.loadLeafContent(para, inline: inline, trimTrailing: true)
            inline.parse()
            p.emitInlines(inline, parent: parentNode, into: &nodes)
            swap(&inline.arena, &storage.arena)
        }
    }

    /// What `appendNewBlockLine` applied to the line being written: where
    /// it starts, the node count before its nodes, the container it
    /// attached them to and that container's last child then, and the
    /// source length after it (valid while nothing else appended).
    private struct NewLine {
        var active = false
        var lineStart = 0
        var baseline = 0
        var attach: Int32 = -1
        var attachLastChild: Int32 = -1
        var end = -1
        var afterParagraph = false
    }
    @exclusivity(unchecked) private var newLine = NewLine()

    /// After a snapshot (before its rollback), what `appendNewBlockLine`
    /// would have recorded had it applied the partial line: one new block
    /// under a block open at the checkpoint, with the rest of the line's
    /// blocks below it, and its node where the chain of last children
    /// reaches its kind and start — its subtree ends the node store. So a
    /// line whose first bytes took a snapshot (`2.` after a paragraph, a
    /// fence that made a list loose) goes on without one. (`afterParagraph`
    /// false: the pass closes the blocks as the end of the input does.)
    private func newLineAfterSnapshot(_ p: BlockParser, _ cp: BlockCheckpoint, _ nodes: [RawNode], tops: [Int],
                                      sourceCount: Int) -> NewLine? {
        let firstNew = Int32(cp.blockCount)
        let blockCount = p.blocks.count
        guard blockCount > cp.blockCount, blockCount - cp.blockCount <= 16, cp.position < sourceCount,
              Int(p.blocks[Int(firstNew)].start) >= cp.position else { return nil }
        let attach = p.blocks[Int(firstNew)].parent
        guard attach >= 0, attach < firstNew, p.checkpointChain.contains(attach) else { return nil }
        for b in (firstNew + 1)..<Int32(blockCount) where p.blocks[Int(b)].parent < firstNew { return nil }
        let kind = p.blocks[Int(firstNew)].kind
        let start = Int(p.blocks[Int(firstNew)].start)
        var parent: Int32 = 0
        var node = nodes[0].lastChild
        while node > 0 && !(nodes[Int(node)].kind == kind && Int(nodes[Int(node)].start) == start) {
            parent = node
            node = nodes[Int(node)].lastChild
        }
        guard node > 0, nodes[Int(parent)].kind == p.blocks[Int(attach)].kind,
              parent == 0 ? attach == 0 : Int(nodes[Int(parent)].start) == Int(p.blocks[Int(attach)].start) else { return nil }
        var before: Int32 = -1
        if parent == 0 {
            // (The top-level block before it: the tail's or the last settled one.)
            guard tops.last == Int(node) else { return nil }
            before = Int32(tops.count >= 2 ? tops[tops.count - 2] : (settledNodeStarts.last ?? -1))
            guard before < 0 || nodes[Int(before)].next == node else { return nil }
        } else if node - 1 != parent {
            // The sibling before it: the child of `parent` whose subtree
            // ends right before it (the store is in document order), found
            // from the node before it up — not by walking the children
            // (a new item of a long list: that walk made it quadratic).
            var c = node - 1
            while c > parent && nodes[Int(c)].parent != parent { c = nodes[Int(c)].parent }
            guard c > parent, nodes[Int(c)].parent == parent, nodes[Int(c)].next == node else { return nil }
            before = c
        }
        return NewLine(active: true, lineStart: cp.position, baseline: Int(node), attach: parent, attachLastChild: before,
                       end: sourceCount, afterParagraph: false)
    }

    /// `appendNewBlockLine`'s check of what the parser did, and the new
    /// nodes. The parser has taken the partial line; it is rolled back after.
    private func applyNewBlockLine(_ p: BlockParser, _ cp: BlockCheckpoint, _ source: Bytes, lineStart: Int, end: Int,
                                   continuing: Bool, afterParagraph: Bool, settled: Bool) -> Bool {
        let firstNew = Int32(cp.blockCount)
        let blockCount = p.blocks.count
        let settledBefore = settledNodeCount
        guard blockCount > cp.blockCount, blockCount - cp.blockCount <= 16,
              p.labels.definitionCount == cp.definitionCount, p.labels.footnoteCount == cp.footnoteKeyCount,
              p.tip >= firstNew else { return false }
        // One new block under an open one; the rest of the new ones below it.
        let attach = p.blocks[Int(firstNew)].parent
        guard attach >= 0, attach < firstNew, p.blocks[Int(attach)].isOpen,
              p.blocks[Int(attach)].lastChild == firstNew else { return false }
        for b in (firstNew + 1)..<Int32(blockCount) where p.blocks[Int(b)].parent < firstNew { return false }
        // The blocks open at the checkpoint: closed below `attach`, open
        // above. Their nodes: the store's chain of last children.
        let chain = p.checkpointChain
        guard let attachDepth = chain.firstIndex(of: attach) else { return false }
        for k in chain.indices {
            guard p.blocks[Int(chain[k])].isOpen == (k <= attachDepth) else { return false }
        }
        // The common shape: lists and items, each the only child of the one
        // before, down to a one-line paragraph that cannot be a definition,
        // after a paragraph's line (not blank: so no list turns loose): the
        // blocks the line closed are final already, and the new ones are
        // emitted here without closing them (the open blocks end with the
        // source).
        let tip = Int32(blockCount - 1)
        var direct = afterParagraph && p.tip == tip && p.blocks[Int(tip)].kind == .paragraph
            && p.blocks[Int(tip)].lineCount == 1
        if direct {
            let line = p.lines[Int(p.blocks[Int(tip)].firstLine)]
            direct = line.pad == 0 && Int(line.end) == end && Int(line.start) < end && !StreamEngine.mayStartDefinition(source, line)
            var b = firstNew
            while direct && b < tip {
                let blk = p.blocks[Int(b)]
                direct = (blk.kind == .list || blk.kind == .item) && blk.firstChild == b + 1 && blk.lastChild == b + 1
                b += 1
            }
        }
        // The fast paths that follow are prepared from the open blocks.
        recordTrailingParagraph(p, partialLineStart: lineStart, sourceCount: end)
        recordTrailingRow(p, partialLineStart: lineStart, sourceCount: end)
        if !direct {
            p.finishDocument()
            // (Closing a paragraph can take definitions out of it, or all of it.)
            guard p.labels.definitionCount == cp.definitionCount, p.labels.footnoteCount == cp.footnoteKeyCount,
                  p.blocks[Int(attach)].lastChild == firstNew else { return false }
        }
        var nodes = take(&storage.nodes)
        defer { swap(&nodes, &storage.nodes) }
        let baseline = continuing ? newLine.baseline : nodes.count
        guard baseline <= nodes.count else { return false }
        // Each block of the chain where the last update showed it, as it is
        // final now (closed below `attach`; above, only the end moves).
        var node: Int32 = 0
        var attachNode: Int32 = 0
        var turned: [Int32] = []
        for k in chain.indices {
            let b = chain[k]
            if k > 0 {
                // (Past the last pass's attach point: the child it had.)
                node = continuing && node == newLine.attach ? newLine.attachLastChild : nodes[Int(node)].lastChild
                guard node > 0, Int(node) < baseline else { return false }
            }
            let blk = p.blocks[Int(b)]
            let n = nodes[Int(node)]
            guard n.kind == blk.kind, Int(n.start) == Int(blk.start), k <= attachDepth || Int(n.end) == Int(blk.end)
            else { return false }
            switch blk.kind {
            case .list:
                if k <= attachDepth {
                    // An open list the line turns loose (a fence or a
                    // paragraph after a blank line in an item): only its
                    // flag shows it. (The direct path's lists cannot turn.)
                    if !direct && n.flags & 1 != (blk.tight ? 1 : 0) { turned.append(node) }
                } else {
                    guard n.flags & 1 == (blk.tight ? 1 : 0) else { return false }
                }
            case .heading: guard n.small == UInt16(blk.level), n.flags & 1 == (blk.setext ? 1 : 0) else { return false }
            case .document, .item, .blockQuote, .alert, .footnoteDefinition, .paragraph: break
            default: return false
            }
            if k == attachDepth { attachNode = node }
        }
        // The new nodes follow the last update's (at the baseline): the
        // last of those is in the subtree of the chain's last block.
        // A new top-level block of this line that the last pass added too
        // (`###` then ` Title`, `1` then `. item`): the same block of the
        // layout, at the same node and start, changed.
        let sameTop = continuing && attachNode == 0 && newLine.attach == 0 && !settled && baseline < nodes.count
            && lastLayout.tailStarts.last == baseline && tailBlocks.last?.start == Int(nodes[baseline].start)
            && Int(p.blocks[Int(firstNew)].start) == Int(nodes[baseline].start)
        if continuing {
            // (Else a new top-level block changed the layout: a snapshot
            // redoes it. The nodes below the baseline are as the last pass
            // left them but for these links.)
            guard sameTop || (newLine.attach != 0 && attachNode != 0 && !settled) else { return false }
            let a = Int(newLine.attach), c = newLine.attachLastChild
            guard a < baseline, c < Int32(baseline) else { return false }
            nodes.truncate(to: baseline)
            nodes[a].lastChild = c
            if c >= 0 { nodes[Int(c)].next = -1 } else { nodes[a].firstChild = -1 }
        }
        // (Every check passed: the lists the line turned loose show it.)
        for t in turned { nodes[Int(t)].flags ^= 1 }
        // What this pass writes below the new nodes: the attach point, its
        // ancestors (ends, the turned lists' flags), its last child's link
        // (the last pass's, when continuing), and the root.
        var lowestWrite = nodes.count
        let previousLast = nodes[Int(attachNode)].lastChild
        if previousLast >= 0 { lowestWrite = min(lowestWrite, Int(previousLast)) }
        if continuing {
            lowestWrite = min(lowestWrite, newLine.attachLastChild >= 0 ? Int(newLine.attachLastChild) : baseline)
            if newLine.attach > 0 && newLine.attach != attachNode { lowestWrite = min(lowestWrite, Int(newLine.attach)) }
        }
        newLine = NewLine(active: true, lineStart: lineStart, baseline: baseline, attach: attachNode,
                          attachLastChild: nodes[Int(attachNode)].lastChild, end: end, afterParagraph: afterParagraph)
        let first = nodes.count
        if direct {
            emitNewItemChain(p, from: firstNew, to: tip, under: attachNode, source, end: end, into: &nodes)
        } else {
            let inline = inlineParser(p)
            swap(&inline.arena, &storage.arena)
            p.emitBlocks(from: firstNew, parent: attachNode, siblings: false, into: &nodes, inline: inline)
            swap(&inline.arena, &storage.arena)
        }
        // The open blocks end with the source.
        var a = attachNode
        while a >= 0 {
            nodes[Int(a)].end = UInt32(end)
            a = nodes[Int(a)].parent
        }
        nodes[0].end = UInt32(end)
        findTrailingLeaf(nodes)
        leafInlineNode = -1
        forgetLineState()
        if (attachNode == 0 && !sameTop) || settled || (options.contains(.footnotes) && lastLabels.footnoteCount > 0) {
            // A new top-level block, or blocks settled: the diff and the
            // layout are new too. (With footnotes, the new block may hold a
            // reference that moves a number anywhere: renumbered, and the
            // blocks whose numbers moved reported.)
            swap(&nodes, &storage.nodes)
            publishNewLayout(first: first, newTop: attachNode == 0 && !sameTop)
            if !spares.isEmpty {
                if attachNode == 0 && !sameTop && !settled && turned.isEmpty && !continuing
                    && !(options.contains(.footnotes) && lastLabels.footnoteCount > 0) {
                    // A new top-level block after the tail, nothing settled:
                    // its nodes, the root, and the block before it (its
                    // link) — not that block's subtree (a long list).
                    lowerSpareFloors(leafEdit: (first, Int(max(previousLast, 0)), true, -1))
                } else {
                    lowerSpareNodeFloor(settledBefore)
                    lowerSpareFloors()
                }
            }
            swap(&nodes, &storage.nodes)
        } else {
            _ = trailingBlockChanged()
            if !spares.isEmpty {
                // (The last pass's attach point, when it differs, is
                // copied with the nodes from `lowestWrite` on.)
                swap(&nodes, &storage.nodes)
                lowerSpareFloors(leafEdit: (lowestWrite, Int(attachNode), true, -1))
                swap(&nodes, &storage.nodes)
            }
        }
        return true
    }

    /// Set by `appendLineFeedToParagraph` (and kept by `appendBlankLineStart`):
    /// the source ends with the line feed of the open trailing paragraph's
    /// last line, then only spaces and tabs. Any other change clears it.
    @exclusivity(unchecked) private var afterParagraphLineFeed = false

    /// Spaces and tabs starting the line after the trailing paragraph's: as
    /// the last line, a blank line ends the paragraph just as the end of the
    /// input does, and nodes other than the root end where they did.
    private func appendBlankLineStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard afterParagraphLineFeed || blankPartialLine, !bytes.isEmpty, bytes.count <= 4096 else { return false }
        for b in bytes where !isSpaceOrTab(b) { return false }
        // (A long list held around an item's indentation is not copied.)
        appendMovingOnlyTheRootEnd(bytes)
        let (paragraph, blank) = (afterParagraphLineFeed, blankPartialLine)
        if lastTailIDs.isEmpty {
            // Every block is settled: nothing but the root changed (and
            // what an earlier part of the same chunk changed).
            foldWordScan()
            wordCheckedEnd = -1
            if diffEpoch != appendEpoch { lastDiffMode = 2 }
            lastFinal = false
        } else {
            _ = trailingBlockChanged()
        }
        afterParagraphLineFeed = paragraph
        blankPartialLine = blank
        return true
    }

    /// Appends bytes that show nothing new but the root's end (spaces and
    /// tabs, a quote's markers, on a line with no content yet), claiming
    /// for held updates the root alone: no other node, no arena, no line
    /// start is written.
    private func appendMovingOnlyTheRootEnd(_ bytes: UnsafeBufferPointer<UInt8>) {
        reclaim(nodesFrom: storage.nodes.count, endsOf: 0)
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        storage.nodes[0].end = UInt32(storage.source.count)
    }

    /// Set by a snapshot whose partial line is empty or blank, after a line
    /// feed, with no open code, HTML or math block and no open container
    /// without children (see `publish`): spaces
    /// and tabs appended to that line change nothing but the root's end (a
    /// blank last line closes what the end of the input closes). Any other
    /// change clears it.
    @exclusivity(unchecked) private var blankPartialLine = false

    /// The line feed that ends the trailing paragraph's last line, when that
    /// line's structure was decided (so the block parser takes it as the
    /// paragraph line the last snapshot showed, and no block closes): the
    /// parser consumes the line, and the document only grows by the line
    /// feed — every node ends where it did, but the root.
    private func appendLineFeedToParagraph() -> Bool {
        let leaf = trailingParagraphNode
        let sourceCount = storage.source.count
        guard leaf > 0, leaf >= settledNodeCount, leaf < storage.nodes.count, storage.nodes[leaf].kind == .paragraph,
              Int(storage.nodes[leaf].end) == sourceCount, let line = trailingParagraphLines.last,
              Int(line.end) == sourceCount, !publishedPending,
              leafLineDecided(UnsafeBufferPointer(start: nil, count: 0)) else { return false }
        consumeLineFeed()
        afterParagraphLineFeed = true
        return true
    }

    /// The line feed of a blank line after the trailing paragraph's (or
    /// heading's) line: the parser consumes it, closing the paragraph (and
    /// what a blank line closes around it) — which the document showed as
    /// it is: blank lines after a block are not part of it or of its
    /// containers, and nothing else moves but the root's end. The next line
    /// can then take `appendNewBlockLine`.
    private func appendBlankLineFeed() -> Bool {
        let leaf = trailingParagraphNode
        let sourceCount = storage.source.count
        guard afterParagraphLineFeed, leaf > 0, leaf >= settledNodeCount, leaf < storage.nodes.count, !publishedPending,
              !placeholderShown, let line = trailingParagraphLines.last, Int(line.end) < sourceCount,
              storage.source[Int(line.end)] == 0x0A else { return false }
        // (Only spaces and tabs after the paragraph's line feed.)
        for i in (Int(line.end) + 1)..<sourceCount where !isSpaceOrTab(storage.source[i]) { return false }
        consumeLineFeed()
        trailingParagraphNode = 0
        trailingParagraphLines.truncate(to: 0)
        leafInlineNode = -1
        // (Spaces and tabs on the next line then change only the root's
        // end, as after a snapshot's blank partial line: an indented fence
        // in a list item starts so after a blank line.)
        blankPartialLine = blankLineChangesOnlyTheRoot()
        return true
    }

    /// The line feed that ends a line that is an ATX heading or a thematic
    /// break (the document's last block starts on the partial line): a
    /// block of one line, which the end of the line closes as the end of
    /// the input did. The parser consumes the line; only the root's end
    /// moves. (A heading made by a setext underline, or a fence, has more
    /// lines: the exact path.)
    private func appendLineFeedAfterSingleLineBlock() -> Bool {
        let sourceCount = storage.source.count
        guard stableCount == sourceCount, !publishedPending, !placeholderShown, !lastTailIDs.isEmpty,
              sourceCount > 0, storage.source[sourceCount - 1] != 0x0A else { return false }
        // The document's last block: down the last children to a leaf block.
        var b = 0
        while true {
            let kind = storage.nodes[b].kind
            guard kind == .document || kind == .blockQuote || kind == .alert || kind == .list || kind == .item,
                  storage.nodes[b].lastChild > 0 else { break }
            b = Int(storage.nodes[b].lastChild)
        }
        let leaf = storage.nodes[b]
        guard b >= settledNodeCount, (leaf.kind == .heading && leaf.flags & 1 == 0) || leaf.kind == .thematicBreak
        else { return false }
        // (It starts on the partial line: no line feed from it on.)
        var i = sourceCount - 1
        while i >= Int(leaf.start) {
            if storage.source[i] == 0x0A { return false }
            i -= 1
        }
        // Nothing of the line is left for the plain and paragraph paths.
        consumeLineFeed()
        trailingParagraphNode = 0
        trailingParagraphLines.truncate(to: 0)
        leafInlineNode = -1
        singleLineBlockFeedEnd = leaf.parent == 0 ? storage.source.count : -1
        return true
    }

    /// After `appendLineFeedAfterSingleLineBlock` for a top-level block
    /// (the source's length then; -1: not): a line feed right after it is a
    /// blank line, which changes nothing but the root's end.
    @exclusivity(unchecked) private var singleLineBlockFeedEnd = -1

    private func appendBlankLineAfterSingleLineBlock() -> Bool {
        let sourceCount = storage.source.count
        guard singleLineBlockFeedEnd == sourceCount, stableCount == sourceCount, storage.source.last == 0x0A,
              !publishedPending, !placeholderShown, !lastTailIDs.isEmpty else { return false }
        consumeLineFeed()
        singleLineBlockFeedEnd = storage.source.count
        return true
    }

    /// A line feed that ends a line whose block the last snapshot showed
    /// as it will stay: the parser consumes the line; only the root's end
    /// moves in the document.
    private func consumeLineFeed() {
        // (It appends to the source and the line starts past the synced
        // ones, and writes the root's end: no other node, nothing of the
        // arena — a long code block held costs no copy of its literal.)
        reclaim(nodesFrom: storage.nodes.count, endsOf: 0, rewrites: true, arenaFrom: storage.arena.count)
        let p = parser
        withStorage { st in
            st.source.append(0x0A)
            stableCount = st.source.count
            st.source.withUnsafeBufferPointer { source in
                p.s = source
                p.consumeLines(final: false)
                p.s = Bytes(start: nil, count: 0)
            }
            if st.lineStarts.count > syncedLineStarts { st.lineStarts.truncate(to: syncedLineStarts) }
            // (Mostly one new line start: element by element, no slice.)
            while st.lineStarts.count < p.lineStarts.count {
                st.lineStarts.append(p.lineStarts[st.lineStarts.count])
            }
            syncedLineStarts = p.lineStarts.count
            st.nodes[0].end = UInt32(st.source.count)
        }
        _ = trailingBlockChanged()
    }

    private func appendExactly(_ bytes: UnsafeBufferPointer<UInt8>) -> StreamUpdate {
        // (The pending bytes of a setext underline shown are input: the
        // snapshot takes them with these.)
        if setextShown { retractSetextUnderline() }
        if started && pending.isEmpty && Normalizer.incompleteSuffixLength(bytes) == 0 && Normalizer.isClean(bytes) {
            // The common case: whole, clean bytes after the start — no copy
            // but into the source.
            reclaimForSnapshot()
            cutSourceToStable()
            storage.source.append(contentsOf: bytes)
            stableCount = storage.source.count
            consumeCompleteLines()
            return publish(finalInput: false, claimingWrites: true)
        }
        var input = pending
        input.append(contentsOf: bytes)
        pending.removeAll()
        var complete = input.count
        if !started {
            // A byte order mark is dropped only at the very start.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if input.count < 3 && bom.starts(with: input) {
                pending = input
                return publish(finalInput: false)
            }
            started = true
            if input.starts(with: bom) { input.removeFirst(3); complete -= 3 }
        }
        let hold = input.withUnsafeBufferPointer { Normalizer.incompleteSuffixLength($0) }
        complete -= hold
        if hold > 0 { pending = Array(input[complete...]) }
        let normalized = Normalizer.normalize(Array(input[0..<complete]), dropBOM: false)
        reclaimForSnapshot()
        cutSourceToStable()
        storage.source.append(contentsOf: normalized)
        stableCount = storage.source.count
        consumeCompleteLines()
        return publish(finalInput: false, claimingWrites: true)
    }

    /// The persistent parser takes the complete lines of the source.
    private func consumeCompleteLines() {
        let p = parser
        storage.source.withUnsafeBufferPointer { buffer in
            p.s = buffer
            p.consumeLines(final: false)
            p.s = Bytes(start: nil, count: 0)
        }
    }

    func finish() -> StreamUpdate {
        if finished { return lastUpdate }
        appendEpoch &+= 1
        if !started { started = true }
        // (A setext underline shown: the bytes it was made of stay pending,
        // and the snapshot takes them as the input's last line.)
        if setextShown { retractSetextUnderline() }
        let update = publish(finalInput: true)
        finished = true
        return update
    }

    /// The fast path (issue: "appending plain text to the trailing paragraph
    /// takes a fast path"): when the block structure of the trailing leaf's
    /// last line is decided (see `lineDecided`) — a paragraph, an ATX
    /// heading, or the last cell of a table's last row — plain bytes only
    /// lengthen the leaf's last text node (or, after a closed construct such
    /// as `**strong**` or a code span, add one) and move the ends of its
    /// ancestors. Anything else — or any doubt — takes the exact path.
    /// Plain bytes are `PlainText`'s: punctuation such as `'` `"` `:` only
    /// matters for the flanking of a delimiter run next to it, and a text
    /// that ends in a run never takes this path. Non-ASCII text (checked to
    /// be whole, valid UTF-8) is plain too: a letter, Unicode punctuation or
    /// space next to a delimiter run matters only as the first byte after
    /// the text, which is checked like ASCII.
    private func appendPlainText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // (It takes only a paragraph's, a heading's or a cell's text, or the
        // text it extended last: a code block's lines skip the look at
        // their bytes.)
        guard !bytes.isEmpty, bytes.count <= 256,
              trailingParagraphNode > 0 || trailingTableNode > 0 || (hotText >= 0 && wordCheckedEnd == storage.source.count)
        else { return false }
        var ascii = true
        var pipe = false
        for (k, b) in bytes.enumerated() {
            if b >= 0x80 { ascii = false }
            if PlainText.isPlainByte(b) { continue }
            // A pipe is text in a paragraph or heading (not in a cell).
            if b == UInt8(ascii: "|") {
                pipe = true
                continue
            }
            // A run of `*`, `_` or `~` after a space or tab (` **Bold`)
            // can only open: a closer must not follow whitespace. No closer
            // comes after it in this leaf yet, so it is literal text, as
            // plain bytes after it leave it (see the run check below). A
            // later closer takes the exact way, which parses it again.
            // (The run follows text on the line, where it is no list marker
            // or thematic break: this path never takes a line's first bytes,
            // the leaf's last text must end where the line's content does.)
            if b == UInt8(ascii: "*") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~") {
                if k > 0 && bytes[k - 1] == b { continue }
                var before: UInt8 = 0x0A
                if k > 0 {
                    before = bytes[k - 1]
                } else {
                    var i = storage.source.count
                    while i > 0 && storage.source[i - 1] == b { i -= 1 }
                    if i > 0 { before = storage.source[i - 1] }
                }
                if isSpaceOrTab(before) { continue }
            }
            // An `_` between letters or digits (`tensor_package`) neither
            // opens nor closes emphasis.
            guard b == UInt8(ascii: "_"), k + 1 < bytes.count, StreamEngine.isASCIIAlphanumeric(bytes[k + 1]),
                  StreamEngine.isASCIIAlphanumeric(k > 0 ? bytes[k - 1] : storage.source.last ?? 0x20) else { return false }
        }
        // (After the bytes: most appends that fail here fail there.)
        guard !lastTailIDs.isEmpty else { return false }
        if !ascii && !Normalizer.isClean(bytes) { return false }
        if pipe && trailingParagraphNode <= 0 { return false }
        let sourceCount = storage.source.count
        if wordCheckedEnd == sourceCount && hotText >= 0 {
            return pipe && hotInCell ? false : appendPlainTextAgain(bytes, sourceCount)
        }
        // The leaf (a paragraph, a heading or a table cell) and where the
        // content of its last line starts.
        let leaf: Int
        let lineContentStart: Int
        var inCell = false
        // Cells a row shorter than the header row is filled up with: empty,
        // at the row's end, the last nodes of the store (the cell the bytes
        // extend comes before them).
        var padding = 0
        if trailingParagraphNode > 0 {
            leaf = trailingParagraphNode
            guard leaf >= settledNodeCount, leaf < storage.nodes.count, Int(storage.nodes[leaf].end) == sourceCount,
                  let line = trailingParagraphLines.last, Int(line.end) == sourceCount, leafLineDecided(bytes) else { return false }
            lineContentStart = Int(line.start)
        } else if trailingTableNode > 0 {
            let t = trailingTableNode
            guard t >= settledNodeCount, t < storage.nodes.count, Int(storage.nodes[t].end) == sourceCount,
                  Int(trailingRow.end) == sourceCount else { return false }
            let row = storage.nodes[t].lastChild
            guard row > Int32(t), Int(storage.nodes[Int(row)].end) == sourceCount else { return false }
            var cell = storage.nodes[Int(row)].lastChild
            guard cell > row else { return false }
            padding = fillingCells(row: Int(row), at: sourceCount)
            let i = storage.nodes.count - 1 - padding
            if padding > 0 {
                // (The cell before them, with the text the bytes extend.)
                guard i > Int(row), storage.nodes[i].kind == .text else { return false }
                cell = storage.nodes[i].parent
                guard cell > row, storage.nodes[Int(cell)].kind == .tableCell, storage.nodes[Int(cell)].parent == row
                else { return false }
            }
            leaf = Int(cell)
            // The cell must be the one the new bytes extend: it starts
            // after the row's last pipe (an escaped pipe inside it, or a cell
            // past the table's columns, takes the exact path).
            // (No pipe before where the open cell's last pass left it, back
            // to its start: only the bytes since are looked at.)
            let pipeFree = openCellPipeFreeEnd(row: Int(row), end: sourceCount)
            var k = sourceCount
            while k > max(pipeFree, Int(trailingRow.start)) && storage.source[k - 1] != UInt8(ascii: "|") { k -= 1 }
            // (A row's first cell: from its first byte, after the leading
            // pipe and spaces.)
            if pipeFree >= 0 && k == pipeFree { k = trailingRowClosed > 0 ? trailingRowOpenStart : openCellStart }
            guard Int(storage.nodes[leaf].start) >= k else { return false }
            lineContentStart = k
            inCell = true
        } else {
            return false
        }
        var trimmed = sourceCount
        while trimmed > lineContentStart && isSpaceOrTab(storage.source[trimmed - 1]) { trimmed -= 1 }
        let c = Int(storage.nodes[leaf].lastChild)
        // (No local copy of the node array: it would force a copy on write.)
        let lastNode = storage.nodes.count - 1 - padding
        guard c > leaf, c == lastNode || storage.nodes[c].firstChild >= 0,
              Int(storage.nodes[c].end) == trimmed else { return false }
        if inCell && Int(storage.nodes[leaf].end) != trimmed { return false }
        let last = storage.nodes[c]
        // The text grows in place when it is plain source text; after any
        // other node a new text node follows it (not before padding cells).
        let extend = last.kind == .text && !last.a.isArena && last.a.end == trimmed && c == lastNode
        if padding > 0 && !extend { return false }
        if !extend && c != storage.nodes.count - 1 {
            // The last child has children: its subtree must end the array.
            var d = c
            while storage.nodes[d].lastChild >= 0 { d = Int(storage.nodes[d].lastChild) }
            guard d == storage.nodes.count - 1 else { return false }
        }
        // Where the word the new bytes extend starts (-1: not looked for).
        var wordStart = -1
        // A delimiter run, escape or math delimiter at the end reads the
        // next byte (a leading space or tab reads the same as the end of
        // the content did). A run shown as literal text stays literal with
        // plain bytes after it: they can only let it open (there is no
        // closer after it) or keep it from closing. A backslash escapes the
        // punctuation after it. A backtick run matches by its length only.
        let lastByte = storage.source[sourceCount - 1]
        if !isSpaceOrTab(bytes[0]) && (lastByte == UInt8(ascii: "*") || lastByte == UInt8(ascii: "_") || lastByte == UInt8(ascii: "~")
            || lastByte == UInt8(ascii: "\\") || lastByte == UInt8(ascii: "$")) {
            if lastByte == UInt8(ascii: "\\") && bytes[0] < 0x80 && !StreamEngine.isASCIIAlphanumeric(bytes[0]) { return false }
            var run = sourceCount - 1
            while run > lineContentStart && storage.source[run - 1] == lastByte { run -= 1 }
            guard extend, last.a.start <= run else { return false }
        }
        if options.contains(.autolink) {
            // The word being extended must not be (the start of) a URL. When
            // the last append was this path's, the word before the new bytes
            // was checked then: only its last two bytes (a `www` or `//`
            // across the boundary) are read again.
            var k = sourceCount
            if wordCheckedEnd == sourceCount {
                k = max(lineContentStart, sourceCount - 2)
            } else {
                while k > lineContentStart && !isSpaceOrTab(storage.source[k - 1]) {
                    if k == wordScanEnd && k <= stableCount {
                        // An earlier append checked the word up to here
                        // (bytes before `stableCount` never change): only
                        // a `www` or `//` across this point is read again.
                        wordStart = max(lineContentStart, wordScanStart)
                        assert(StreamEngine.wordIsUnlinked(storage.source, wordStart, k))
                        k = max(wordStart, k - 2)
                        break
                    }
                    k -= 1
                    if sourceCount - k > 256 { return false }
                }
                if wordStart < 0 { wordStart = k }
            }
            // The word with the new bytes, read in place.
            let oldCount = sourceCount - k
            let wordCount = oldCount + bytes.count
            @inline(__always) func at(_ i: Int) -> UInt8 { i < oldCount ? storage.source[k + i] : bytes[i - oldCount] }
            var i = 0
            while i < wordCount {
                let b = at(i)
                if b == UInt8(ascii: "@") { return false }
                if i + 2 < wordCount && b == UInt8(ascii: "w") && at(i + 1) == UInt8(ascii: "w") && at(i + 2) == UInt8(ascii: "w") { return false }
                if i + 1 < wordCount && b == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "/") { return false }
                i += 1
            }
        }
        // (It writes the last child and what follows it, and the ends and
        // last child of the leaf and its ancestors.)
        reclaim(nodesFrom: c, endsOf: leaf)
        let (newCount, newTrimmed) = plainAppendEnds(bytes, at: sourceCount, trimmed: trimmed, inCell: inCell)
        withStorage { st in
            st.source.append(contentsOf: bytes)
            if extend {
                st.nodes[c].end = UInt32(newTrimmed)
                st.nodes[c].a.length = UInt32(newTrimmed - last.a.start)
            } else if newTrimmed > trimmed {
                var text = RawNode(kind: .text, start: trimmed, end: newTrimmed)
                text.a = ByteRef.source(trimmed, newTrimmed)
                _ = BlockParser.appendNode(text, parent: Int32(leaf), into: &st.nodes)
            }
            st.nodes.withUnsafeMutableBufferPointer { nodes in
                StreamEngine.setEnds(nodes, leaf: leaf, inCell: inCell, contentEnd: newTrimmed, end: newCount)
                StreamEngine.movePadding(nodes, padding, to: newCount)
            }
        }
        _ = trailingBlockChanged()
        wordCheckedEnd = newCount
        if wordStart >= 0 {
            // The word with the new bytes holds no `@`, `www` or `//`.
            wordScanStart = wordStart
            wordScanEnd = sourceCount
        }
        extendWordScan(sourceCount, newCount)
        // Plain appends after this one (`appendPlainTextAgain`) extend it
        // too, found when `wordCheckedEnd` is dropped (`foldWordScan`).
        wordScanFollows = wordScanEnd == newCount
        // The next plain bytes extend the same text node (see
        // `appendPlainTextAgain`), unless there is none yet.
        hotText = extend ? c : (newTrimmed > trimmed ? storage.nodes.count - 1 : -1)
        // (A line still undecided is checked again at each append.)
        if trailingParagraphUndecided && !inCell { hotText = -1 }
        hotLeaf = leaf
        hotInCell = inCell
        hotPadding = padding
        hotLineStart = lineContentStart
        hotTrimmed = newTrimmed
        return true
    }

    /// How many of the last nodes of the store are empty cells of `row` at
    /// `end` (the source's end): those that fill up a row shorter than the
    /// header row, after the cell being typed.
    private func fillingCells(row: Int, at end: Int) -> Int {
        var i = storage.nodes.count - 1
        while i > row && storage.nodes[i].kind == .tableCell && storage.nodes[i].parent == Int32(row)
                && storage.nodes[i].firstChild < 0 && Int(storage.nodes[i].start) == end && Int(storage.nodes[i].end) == end {
            i -= 1
        }
        return storage.nodes.count - 1 - i
    }

    /// After the store's nodes moved: the last `padding` nodes, the empty
    /// cells that fill up `row`, follow cell `cell` (its subtree just
    /// before them) as its siblings, in order, the last the row's.
    private static func linkPadding(_ nodes: UnsafeMutableBufferPointer<RawNode>, _ padding: Int, after cell: Int, row: Int) {
        let first = nodes.count - padding
        nodes[cell].next = padding > 0 ? Int32(first) : -1
        for j in first..<nodes.count { nodes[j].next = j + 1 < nodes.count ? Int32(j + 1) : -1 }
        nodes[row].lastChild = Int32(padding > 0 ? nodes.count - 1 : cell)
    }

    /// The last `padding` nodes — empty cells that fill up a short row —
    /// start and end at `end`, the row's new end.
    @inline(__always)
    private static func movePadding(_ nodes: UnsafeMutableBufferPointer<RawNode>, _ padding: Int, to end: Int) {
        var i = nodes.count - padding
        while i < nodes.count {
            nodes[i].start = UInt32(end)
            nodes[i].end = UInt32(end)
            i += 1
        }
    }

    /// What the last `appendPlainText` extended, valid while
    /// `wordCheckedEnd` is the source's length (nothing else changed since):
    /// the text node (-1: none), the leaf and whether it is a table cell
    /// (and how many empty cells fill up its row after it), where its
    /// line's content starts, and the end of the text.
    @exclusivity(unchecked) private var hotText = -1
    @exclusivity(unchecked) private var hotLeaf = 0
    @exclusivity(unchecked) private var hotInCell = false
    @exclusivity(unchecked) private var hotPadding = 0
    @exclusivity(unchecked) private var hotLineStart = 0
    @exclusivity(unchecked) private var hotTrimmed = 0

    /// Bytes that lengthen a URL being typed: an extended autolink with a
    /// scheme (`https://…`; a `www.` link keeps its destination in the
    /// arena) that ends the trailing paragraph's or heading's last line, or
    /// the trailing table row's open cell (the empty cells that fill up the
    /// row after it aside), and letters, digits and `-` `/` `.` `_` `?` `=`
    /// `&` `%` `#` `+` after it, not ending in `.`, `_` or `?`. The link
    /// then ends at the new end as in a batch parse: it runs to a space or
    /// `<`; only trailing punctuation (`.`, `?`, `_`, `)`, `;` after an
    /// entity name, …) is trimmed, and the last byte is none of it; and its
    /// domain stays valid — an `_` comes only after the domain ended (at a
    /// byte that is no host character), and a `.` adds a part or ends the
    /// domain. No construct around it changes: none of these bytes is a
    /// delimiter where a link reads it, a pipe or a bracket, and a link is
    /// never inside a bracket still open (`extendedAutolink`). So the link,
    /// its text and their ancestors grow. A `www.` link, an e-mail address
    /// (found when text is emitted) and a link whose end was trimmed take
    /// the exact way.
    private func appendToAutolink(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // (The bytes first: most appends that come this way fail there.)
        guard !bytes.isEmpty, bytes.count <= 256 else { return false }
        let lastByte = bytes[bytes.count - 1]
        guard lastByte != UInt8(ascii: "."), lastByte != UInt8(ascii: "_"), lastByte != UInt8(ascii: "?") else { return false }
        var underscore = false
        for b in bytes where !(StreamEngine.isASCIIAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "/")
                                 || b == UInt8(ascii: ".")) {
            if b == UInt8(ascii: "_") {
                underscore = true
            } else if !(b == UInt8(ascii: "?") || b == UInt8(ascii: "=") || b == UInt8(ascii: "&") || b == UInt8(ascii: "%")
                        || b == UInt8(ascii: "#") || b == UInt8(ascii: "+")) {
                return false
            }
        }
        // (With footnotes: bytes that cannot close or open a reference —
        // the link grows in place and no number moves.)
        guard options.contains(.autolink), !lastTailIDs.isEmpty,
              lastLabels.footnoteCount == 0
                || !bytes.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "^") })
        else { return false }
        let sourceCount = storage.source.count
        let count = storage.nodes.count
        // The leaf: the trailing paragraph or heading, or the open cell of
        // the trailing table's last row.
        var leaf = trailingParagraphNode
        var padding = 0
        if leaf > 0 {
            guard leaf >= settledNodeCount, leaf < count - 2 else { return false }
            let para = storage.nodes[leaf]
            guard para.kind == .paragraph || para.kind == .heading, Int(para.end) == sourceCount,
                  let line = trailingParagraphLines.last, Int(line.end) == sourceCount else { return false }
        } else {
            guard let row = trailingTableRow(endingAt: sourceCount) else { return false }
            padding = fillingCells(row: row, at: sourceCount)
            // (The cell's last node: the link's text, or the text after it.)
            let i = count - 1 - padding
            guard i - 2 > row else { return false }
            leaf = Int(storage.nodes[i].parent)
            if leaf > row && storage.nodes[leaf].kind == .link { leaf = Int(storage.nodes[leaf].parent) }
            guard leaf > row, storage.nodes[leaf].kind == .tableCell, storage.nodes[leaf].parent == Int32(row),
                  Int(storage.nodes[leaf].end) == sourceCount else { return false }
        }
        // Trimmed punctuation after the link (`.`, `?`, `,`, `:`, `!`), its
        // own text node, the leaf's last: with the bytes after it, it is
        // the link's again.
        let lastIndex = count - 1 - padding
        var trail = 0
        if storage.nodes[lastIndex].parent == Int32(leaf) {
            let t = storage.nodes[lastIndex]
            guard t.kind == .text, !t.a.isArena, t.a.end == sourceCount, Int(t.end) == sourceCount, t.a.start == t.start,
                  Int(t.start) < sourceCount else { return false }
            for k in Int(t.start)..<sourceCount {
                let b = storage.source[k]
                guard b == UInt8(ascii: ".") || b == UInt8(ascii: "?") || b == UInt8(ascii: ",") || b == UInt8(ascii: ":")
                        || b == UInt8(ascii: "!") else { return false }
            }
            trail = sourceCount - Int(t.start)
        }
        let linkEnd = sourceCount - trail
        let at = lastIndex - 1 - (trail > 0 ? 1 : 0)
        guard at > leaf, Int(storage.nodes[leaf].lastChild) == (trail > 0 ? lastIndex : at) else { return false }
        let link = storage.nodes[at], text = storage.nodes[at + 1]
        guard link.kind == .link, link.flags == 5, link.parent == Int32(leaf), !link.a.isArena, link.a.end == linkEnd,
              Int(link.end) == linkEnd, link.firstChild == Int32(at + 1), link.lastChild == Int32(at + 1),
              text.kind == .text, !text.a.isArena, text.a.end == linkEnd, Int(text.end) == linkEnd,
              trail == 0 || link.next == Int32(lastIndex),
              trailingParagraphNode <= 0 || leafLineDecided(bytes) else { return false }
        if underscore {
            // Only where the domain ended: before the bytes, or in them
            // before the first `_`.
            var k = Int(link.a.start)
            while k < sourceCount && storage.source[k] != UInt8(ascii: ":") { k += 1 }
            k += 3
            var ended = false
            while k < sourceCount && !ended {
                let b = storage.source[k]
                ended = !(StreamEngine.isASCIIAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
                          || b == UInt8(ascii: "_") || b >= 0x80)
                k += 1
            }
            for b in bytes where !ended {
                if b == UInt8(ascii: "_") { return false }
                ended = !(StreamEngine.isASCIIAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "."))
            }
        }
        // (It writes the link and what follows it, and the ends, last
        // child and `next` link of its ancestors.)
        reclaim(nodesFrom: at, endsOf: at)
        let newCount = sourceCount + bytes.count
        stableCount = newCount
        if trailingParagraphNode <= 0 {
            trailingRow.end = Int32(newCount)
        } else {
            trailingParagraphLines[trailingParagraphLines.count - 1].end = Int32(newCount)
        }
        let grown = UInt32(trail + bytes.count)
        withStorage { st in
            st.source.append(contentsOf: bytes)
            if trail > 0 {
                // The punctuation's node goes; the empty cells after it move
                // one place back.
                st.nodes.remove(at: lastIndex)
                st.nodes.withUnsafeMutableBufferPointer { nodes in
                    nodes[at].next = -1
                    nodes[leaf].lastChild = Int32(at)
                    if padding > 0 { StreamEngine.linkPadding(nodes, padding, after: leaf, row: Int(nodes[leaf].parent)) }
                }
            }
            st.nodes.withUnsafeMutableBufferPointer { nodes in
                nodes[at].a.length += grown
                nodes[at + 1].a.length += grown
                nodes[at + 1].end = UInt32(newCount)
                StreamEngine.setEnds(nodes, leaf: at, inCell: false, contentEnd: newCount, end: newCount)
                StreamEngine.movePadding(nodes, padding, to: newCount)
            }
        }
        return trailingBlockChanged()
    }

    /// Bytes that start a cell of the trailing table row: in the open cell
    /// while it is empty (after the row's last pipe, nothing but spaces and
    /// tabs so far; not the row's first cell), or after a pipe that closes
    /// the open cell (after its content and spaces or tabs, not escaped). A
    /// closed cell keeps its range, so its nodes; the cell the bytes start
    /// is the first of the empty ones that fill up the row, the last nodes
    /// of the store, at its end (past the table's columns there is none,
    /// and nothing to show). Spaces and tabs move them to the new end. Plain
    /// content that makes one text node of itself (an inert run, as the
    /// batch emission checks it) becomes the cell's range and a text node
    /// of it, and the empty cells after it move to the new end; the next
    /// plain bytes take `appendPlainTextAgain`.
    private func appendToEmptyCell(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 256, !lastTailIDs.isEmpty else { return false }
        // A pipe, after spaces and tabs only; then the content, but its
        // leading and trailing spaces and tabs.
        var pipe = -1
        while pipe + 1 < bytes.count && isSpaceOrTab(bytes[pipe + 1]) { pipe += 1 }
        if pipe + 1 < bytes.count && bytes[pipe + 1] == UInt8(ascii: "|") { pipe += 1 } else { pipe = -1 }
        var first = pipe + 1
        while first < bytes.count && isSpaceOrTab(bytes[first]) { first += 1 }
        var last = bytes.count
        while last > first && isSpaceOrTab(bytes[last - 1]) { last -= 1 }
        var ascii = true
        for k in first..<last {
            let b = bytes[k]
            if b >= 0x80 { ascii = false }
            if b == UInt8(ascii: "|") || !PlainText.isPlainByte(b) { return false }
        }
        guard PlainText.isInertRun(bytes, first, last), ascii || Normalizer.isClean(bytes) else { return false }
        let sourceCount = storage.source.count
        guard let row = trailingTableRow(endingAt: sourceCount),
              lastLabels.footnoteCount == 0 || rowHoldsNoFootnote(row, bytes) else { return false }
        let rowStart = Int(trailingRow.start)
        // Where the source's trailing spaces and tabs start.
        var k = sourceCount
        while k > rowStart && isSpaceOrTab(storage.source[k - 1]) { k -= 1 }
        @inline(__always) func escaped(_ at: Int) -> Bool {
            var slashes = 0
            while at - 1 - slashes >= rowStart && storage.source[at - 1 - slashes] == UInt8(ascii: "\\") { slashes += 1 }
            return slashes & 1 == 1
        }
        // The empty cells that fill up the row, and the cell before them.
        let count = storage.nodes.count
        let padding = fillingCells(row: row, at: sourceCount)
        let q = count - padding
        var before: Int32 = -1
        var c = storage.nodes[row].firstChild
        while c >= 0 && Int(c) != q {
            before = c
            c = storage.nodes[Int(c)].next
        }
        guard padding > 0 ? Int(c) == q : c < 0, before >= 0 else { return false }
        let openStart: Int
        if pipe < 0 {
            // The open cell is empty: a pipe, then spaces and tabs; the cell
            // before the empty ones ends before it (so the pipe is not one
            // escaped in its content). (Not the row's first cell: after a
            // leading pipe and spaces it is an empty cell where the spaces
            // start, not one that fills up.)
            guard padding > 0, k > rowStart, storage.source[k - 1] == UInt8(ascii: "|"),
                  Int(storage.nodes[Int(before)].end) < k else { return false }
            openStart = k
        } else {
            // The pipe closes the open cell: the cell before the empty ones,
            // with its content up to the source's trailing spaces (so after
            // the row's last pipe), when the pipe is not escaped.
            let cell = storage.nodes[Int(before)]
            guard Int(cell.end) == k, Int(cell.start) < k, pipe > 0 || !escaped(sourceCount) else { return false }
            openStart = sourceCount + pipe + 1
        }
        foldWordScan()
        // (It writes the cell and what follows it, and the ends and last
        // child of the row and its ancestors.)
        reclaim(nodesFrom: q, endsOf: row)
        let newCount = sourceCount + bytes.count
        stableCount = newCount
        trailingRow.end = Int32(newCount)
        if pipe >= 0 {
            if trailingRowClosed >= 0 { trailingRowClosed += 1 }
            trailingRowOpenStart = openStart
        }
        let content = first < last && padding > 0
        let (s0, s1) = (sourceCount + first, sourceCount + last)
        withStorage { st in
            st.source.append(contentsOf: bytes)
            if content {
                // The text node goes after the cell, the empty cells after
                // it one place on.
                st.nodes.append(st.nodes[count - 1])
                st.nodes.withUnsafeMutableBufferPointer { nodes in
                    var j = count - 1
                    while j > q {
                        nodes[j + 1] = nodes[j]
                        j -= 1
                    }
                    nodes[q].start = UInt32(s0)
                    nodes[q].end = UInt32(s1)
                    nodes[q].firstChild = Int32(q + 1)
                    nodes[q].lastChild = Int32(q + 1)
                    var text = RawNode(kind: .text, start: s0, end: s1)
                    text.a = ByteRef.source(s0, s1)
                    text.parent = Int32(q)
                    nodes[q + 1] = text
                    StreamEngine.linkPadding(nodes, padding - 1, after: q, row: row)
                    StreamEngine.movePadding(nodes, padding - 1, to: newCount)
                    StreamEngine.setEnds(nodes, leaf: row, inCell: false, contentEnd: newCount, end: newCount)
                }
            } else {
                st.nodes.withUnsafeMutableBufferPointer { nodes in
                    StreamEngine.movePadding(nodes, padding, to: newCount)
                    StreamEngine.setEnds(nodes, leaf: row, inCell: false, contentEnd: newCount, end: newCount)
                }
            }
        }
        _ = trailingBlockChanged()
        if content {
            // The next plain bytes extend the text (no `@`, `www` or `//`
            // in it: an inert run).
            wordCheckedEnd = newCount
            hotText = q + 1
            hotLeaf = q
            hotInCell = true
            hotPadding = padding - 1
            hotLineStart = openStart
            hotTrimmed = s1
        } else {
            wordCheckedEnd = -1
        }
        return true
    }

    /// Plain bytes right after plain bytes (the common case, a model's
    /// answer word by word): every check of `appendPlainText` that the last
    /// append passed holds still — the leaf's line is decided, the text node
    /// ends the node store and the content, the last byte is plain — but
    /// the URL check across the boundary. Only the text and its ancestors
    /// grow.
    private func appendPlainTextAgain(_ bytes: UnsafeBufferPointer<UInt8>, _ sourceCount: Int, mayLink: Bool = true) -> Bool {
        if mayLink && options.contains(.autolink) {
            // A `www` or `//` across the boundary (the word before was
            // checked already; `@` is not plain).
            var (p2, p1): (UInt8, UInt8) = (0, 0)
            if sourceCount - 1 >= hotLineStart { p1 = storage.source[sourceCount - 1] }
            if sourceCount - 2 >= hotLineStart { p2 = storage.source[sourceCount - 2] }
            for b in bytes {
                if b == UInt8(ascii: "w") && p1 == b && p2 == b { return false }
                if b == UInt8(ascii: "/") && p1 == b { return false }
                (p2, p1) = (p1, b)
            }
        }
        reclaim(nodesFrom: hotText, endsOf: hotLeaf)
        let (text, leaf, inCell) = (hotText, hotLeaf, hotInCell)
        let (newCount, newTrimmed) = plainAppendEnds(bytes, at: sourceCount, trimmed: hotTrimmed, inCell: inCell)
        let grows = newTrimmed > hotTrimmed
        withStorage { st in
            StreamEngine.appendSmall(&st.source, bytes)
            // (One pass over the node store: the text, then the leaf's ends.)
            st.nodes.withUnsafeMutableBufferPointer { nodes in
                if grows {
                    nodes[text].end = UInt32(newTrimmed)
                    nodes[text].a.length = UInt32(newTrimmed - nodes[text].a.start)
                }
                StreamEngine.setEnds(nodes, leaf: leaf, inCell: inCell, contentEnd: newTrimmed, end: newCount)
                if inCell { StreamEngine.movePadding(nodes, hotPadding, to: newCount) }
            }
        }
        hotTrimmed = newTrimmed
        wordCheckedEnd = newCount
        return true
    }

    /// Plain `bytes` appended at `sourceCount` to the trailing leaf's last
    /// line (`inCell`: the row's): the source's new length, which that line
    /// now ends at, and where the text ends — before the bytes' trailing
    /// spaces and tabs (where it did, `trimmed`, when they are all such).
    @inline(__always)
    private func plainAppendEnds(_ bytes: UnsafeBufferPointer<UInt8>, at sourceCount: Int, trimmed: Int,
                                 inCell: Bool) -> (count: Int, trimmed: Int) {
        let newCount = sourceCount + bytes.count
        stableCount = newCount
        var newTrimmed = newCount
        while newTrimmed > sourceCount && isSpaceOrTab(bytes[newTrimmed - sourceCount - 1]) { newTrimmed -= 1 }
        if newTrimmed == sourceCount { newTrimmed = trimmed }
        if inCell {
            trailingRow.end = Int32(newCount)
        } else {
            trailingParagraphLines[trailingParagraphLines.count - 1].end = Int32(newCount)
        }
        return (newCount, newTrimmed)
    }

    /// Appends `bytes` to `a`: a few bytes one by one when they fit (the
    /// generic `append(contentsOf:)` costs more than copying them).
    @inline(__always)
    static func appendSmall(_ a: inout [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count <= 8 && a.capacity - a.count >= bytes.count {
            for b in bytes { a.append(b) }
        } else {
            a.append(contentsOf: bytes)
        }
    }

    /// Runs `body` with the storage, which `self` keeps alive throughout:
    /// without the retain and release a mutation through `storage` costs
    /// (`body` must not replace `storage`).
    @inline(__always)
    private func withStorage<R>(_ body: (DocumentStorage) -> R) -> R {
        Unmanaged.passUnretained(storage)._withUnsafeGuaranteedRef(body)
    }

    /// Drops the source's bytes past `stableCount` (a pending tail shown by
    /// the last snapshot, a placeholder), and what the word check knew of
    /// them.
    private func cutSourceToStable() {
        foldWordScan()
        undecidedMathLine = -1
        if storage.source.count > stableCount { storage.source.truncate(to: stableCount) }
        if wordScanEnd > stableCount { wordScanEnd = -1 }
    }

    /// Before `wordCheckedEnd` is dropped or the source cut: the plain
    /// appends since the last word check (`wordScanFollows`) extended the
    /// checked word to `wordCheckedEnd`.
    @inline(__always)
    private func foldWordScan() {
        guard wordScanFollows else { return }
        wordScanFollows = false
        if wordScanEnd >= 0 && wordCheckedEnd > wordScanEnd && wordCheckedEnd <= storage.source.count {
            extendWordScan(wordScanEnd, wordCheckedEnd)
        }
    }

    /// The plain path appended checked bytes at `old`: a word checked up to
    /// there goes on to `new` (from after the last space or tab among them).
    @inline(__always)
    private func extendWordScan(_ old: Int, _ new: Int) {
        guard wordScanEnd == old else { return }
        var w = new
        while w > old && !isSpaceOrTab(storage.source[w - 1]) { w -= 1 }
        if w > old { wordScanStart = w }
        wordScanEnd = new
    }

    @inline(__always)
    private static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
    }

    /// `appendPlainTextAgain` for printable ASCII, checked here without
    /// the dispatch of `append` (most appends of a model's answer).
    @inline(__always)
    private func appendPlainASCIIAgain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty && bytes.count <= 64 else { return false }
        // (Only a `w` or `/` can make a `www` or `//` an extended autolink
        // may start with: most chunks have neither, and skip that check.)
        var mayLink = false
        for b in bytes {
            guard b < 0x80 && PlainText.isPlainByte(b) else { return false }
            if b == UInt8(ascii: "w") || b == UInt8(ascii: "/") { mayLink = true }
        }
        return appendPlainTextAgain(bytes, wordCheckedEnd, mayLink: mayLink)
    }

    /// After the trailing leaf's last line changed length: a table cell ends
    /// at `contentEnd` (its content, trailing spaces trimmed), the leaf's
    /// line and its other ancestors at `end` (the source's end).
    private func setLeafEnds(leaf: Int, inCell: Bool, contentEnd: Int, end: Int) {
        if inCell {
            trailingRow.end = Int32(end)
        } else {
            trailingParagraphLines[trailingParagraphLines.count - 1].end = Int32(end)
        }
        storage.nodes.withUnsafeMutableBufferPointer { nodes in
            StreamEngine.setEnds(nodes, leaf: leaf, inCell: inCell, contentEnd: contentEnd, end: end)
        }
    }

    /// The ends of leaf `leaf` (a table cell: `contentEnd`) and of its
    /// ancestors (`end`).
    @inline(__always)
    private static func setEnds(_ nodes: UnsafeMutableBufferPointer<RawNode>, leaf: Int, inCell: Bool, contentEnd: Int, end: Int) {
        var p = Int32(leaf)
        if inCell {
            nodes[leaf].end = UInt32(contentEnd)
            p = nodes[leaf].parent
        }
        while p >= 0 {
            nodes[Int(p)].end = UInt32(end)
            p = nodes[Int(p)].parent
        }
    }

    /// The source length after the last plain-text append, whose word then
    /// held no `@`, `www` or `//` (-1 after any other change).
    @exclusivity(unchecked) private var wordCheckedEnd = -1
    /// What the plain path's word check last found, kept across other
    /// appends: the word that ended at `wordScanEnd` (-1: none) started at
    /// `wordScanStart` and held no `@`, `www` or `//`. Text without spaces
    /// (Chinese, Japanese) has lines of one word; without this, every plain
    /// append after a construct read the whole line again, and gave up
    /// past 256 bytes. Valid while `wordScanEnd <= stableCount` (those
    /// bytes never change; sources cut below it drop it).
    @exclusivity(unchecked) private var wordScanEnd = -1
    @exclusivity(unchecked) private var wordScanStart = 0
    @exclusivity(unchecked) private var wordScanFollows = false

    /// Debug check of `wordScanEnd`'s claim.
    static func wordIsUnlinked(_ source: [UInt8], _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            let b = source[i]
            if isSpaceOrTab(b) || b == UInt8(ascii: "@") { return false }
            if i + 2 < end && b == UInt8(ascii: "w") && source[i + 1] == b && source[i + 2] == b { return false }
            if i + 1 < end && b == UInt8(ascii: "/") && source[i + 1] == b { return false }
            i += 1
        }
        return true
    }

    /// The second fast path: bytes without a line ending appended to the
    /// last line of a trailing code block, when that line already holds a
    /// character that keeps it from ever being a closing fence or from
    /// leaving its containers. Only the literal's last line grows.
    private func appendToCodeLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // (The last node first: most appends that come this way are not
        // after a code or HTML block.)
        let last = storage.nodes.count - 1
        guard last >= settledNodeCount, last > 0 else { return false }
        let code = storage.nodes[last]
        guard code.kind == .codeBlock || code.kind == .htmlBlock, !bytes.isEmpty, bytes.count <= 4096, !lastTailIDs.isEmpty
        else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        let sourceCount = storage.source.count
        // (In an HTML block, a line that is not blank belongs to the block
        // whatever it holds: an end marker ends the block after it.)
        guard code.kind == .codeBlock || code.kind == .htmlBlock, code.a.isArena, code.a.end == storage.arena.count,
              code.a.length > 0,
              Int(code.end) == sourceCount, let lineStart = storage.lineStarts.last,
              Int(lineStart) < sourceCount else { return false }
        // The first line of an indented code block (which the new-block path
        // opened on this line, in containers of earlier lines) is decided
        // too once it holds content: its indentation made it code, and no
        // byte after it changes that. (Not in a list item this line opens:
        // `-     -      -` becomes a thematic break.)
        let firstLine = Int(code.start) >= Int(lineStart)
        guard !firstLine || (code.kind == .codeBlock && code.flags & 1 == 0
                             && (code.parent == 0 || Int(storage.nodes[Int(code.parent)].start) < Int(lineStart)))
        else { return false }
        // Valid UTF-8 only (a split sequence goes the exact way).
        guard Normalizer.isClean(bytes) else { return false }
        // The line so far must hold a byte other than space, tab, `` ` `` and `~`.
        var decided = false
        var spaces = true
        for k in Int(lineStart)..<sourceCount {
            let b = storage.source[k]
            if b != 0x20 { spaces = false }
            if b != 0x20 && b != 0x09 && b != UInt8(ascii: "`") && b != UInt8(ascii: "~") && b != UInt8(ascii: ">") {
                decided = true
                break
            }
        }
        var drop = 0
        if firstLine && !decided { return false }
        if !decided {
            // Fence characters only (after the indentation), and no closing
            // fence with them; or a line of spaces so far (a code line,
            // blank) and bytes that decide the line or are spaces too: with
            // them it is no fence either. Spaces up to the items' and the
            // fence's indentation are not content.
            guard let (node, tip, need) = trailingFencedCode(quotes: true), node == last else { return false }
            if need < 0 {
                // In block quotes: a line of markers and spaces so far (shown
                // as an empty line of the code), then bytes that complete
                // them and decide the line with content.
                var line = take(&decidedScratch)
                defer { decidedScratch = line }
                line.truncate(to: 0)
                line.append(contentsOf: storage.source[Int(lineStart)..<sourceCount])
                line.append(contentsOf: bytes)
                let soFar = sourceCount - Int(lineStart)
                guard let strip = line.withUnsafeBufferPointer({ quotedCodeLinePrefix(tip, $0) }), strip >= soFar,
                      strip == line.count || StreamEngine.decidesCodeLine(line[strip...]) else { return false }
                drop = strip - soFar
            } else {
            let stays = tabIndentedCodeLine(tip, need: need, first: storage.source[Int(lineStart)])
                || fenceCharsStayContent(tip, need: need, storage.source[Int(lineStart)..<sourceCount], bytes)
            guard stays || (spaces && parser.blocks[Int(tip)].kind == .codeBlock) else { return false }
            var allSpaces = true
            for b in bytes where b != 0x20 { allSpaces = false; break }
            guard stays || allSpaces || StreamEngine.decidesCodeLine(bytes) else { return false }
            // In list items, a line that is not blank needs the items'
            // indentation to stay in them.
            let spacesSoFar = sourceCount - Int(lineStart)
            if need > 0 && !allSpaces && spaces {
                var lead = 0
                while lead < bytes.count && bytes[lead] == 0x20 { lead += 1 }
                guard spacesSoFar + lead >= need else { return false }
            }
            let missing = spaces ? need + Int(parser.blocks[Int(tip)].fenceOffset) - spacesSoFar : 0
            while drop < missing && drop < bytes.count && isSpaceOrTab(bytes[drop]) {
                if bytes[drop] == 0x09 { return false }
                drop += 1
            }
            }
        }
        // (It writes the literal's last byte, the line feed it moves, and
        // after it; the block's node and its ancestors' ends.)
        reclaim(nodesFrom: last, endsOf: last, arenaFrom: storage.arena.count - 1)
        withStorage { st in
            StreamEngine.appendSmall(&st.source, bytes)
            st.arena.removeLast()
            StreamEngine.appendSmall(&st.arena, UnsafeBufferPointer(rebasing: bytes[drop...]))
            st.arena.append(0x0A)
            st.nodes[last].a.length += UInt32(bytes.count - drop)
        }
        stableCount = storage.source.count
        endWithAncestors(last, at: storage.source.count)
        return trailingBlockChanged()
    }

    /// The trailing block when it is an open fenced code block or HTML
    /// block at the top level, or a fenced code block in list items (and
    /// lists) only, shown with its literal (lines, each with its line
    /// feed) at the end of the arena — or, with `empty`, with no literal
    /// yet (no line after the opener): its node, the parser's block, and
    /// the columns of item indentation a line needs to stay in the items
    /// (0 at the top level).
    /// With `quotes`, also a fenced code block in block quotes (with list
    /// items or not): its `need` is then -1, and `quotedCodeLinePrefix`
    /// reads a new line's markers.
    private func trailingFencedCode(empty: Bool = false, quotes: Bool = false) -> (node: Int, block: Int32, need: Int)? {
        let last = storage.nodes.count - 1
        guard last >= settledNodeCount, last > 0, !lastTailIDs.isEmpty else { return nil }
        let code = storage.nodes[last]
        guard code.kind == .codeBlock || code.kind == .htmlBlock else { return nil }
        if code.a.length == 0 {
            // (No line yet: the literal will start at the arena's end.)
            guard empty, code.kind == .codeBlock, Int(code.start) < Int(storage.lineStarts.last ?? 0) else { return nil }
        } else {
            guard code.a.isArena, code.a.end == storage.arena.count else { return nil }
        }
        let tip = parser.tip
        let blk = parser.blocks[Int(tip)]
        guard blk.kind == code.kind, blk.fenced || blk.kind == .htmlBlock, blk.isOpen,
              Int(blk.start) == Int(code.start) else { return nil }
        if blk.parent == 0 && code.parent == 0 { return (last, tip, 0) }
        // In list items: each item's content column, added up.
        guard blk.kind == .codeBlock else { return nil }
        if let need = itemIndentation(blk.parent, code.parent) { return (last, tip, need) }
        guard quotes, quoteChain(blk.parent, code.parent) else { return nil }
        return (last, tip, -1)
    }

    /// Whether the blocks from `block` (and its node `node`) up to the root
    /// are block quotes (alerts), list items and lists, with at least one
    /// quote, and the nodes follow the blocks; each quote's and item's
    /// block is then in `containerChain`, innermost first.
    private func quoteChain(_ block: Int32, _ node: Int32) -> Bool {
        containerChain.truncate(to: 0)
        var quotes = 0
        var b = block
        var n = node
        while b > 0 {
            let blk = parser.blocks[Int(b)]
            guard n > 0, storage.nodes[Int(n)].kind == blk.kind else { return false }
            switch blk.kind {
            case .blockQuote, .alert:
                quotes += 1
                containerChain.append(b)
            case .item:
                containerChain.append(b)
            case .list:
                break
            default:
                return false
            }
            b = blk.parent
            n = storage.nodes[Int(n)].parent
        }
        return b == 0 && n == 0 && quotes > 0
    }
    @exclusivity(unchecked) private var containerChain: [Int32] = []

    /// For the trailing fenced code block `tip` in the containers
    /// `quoteChain` found: how many bytes at the start of a new line,
    /// `bytes`, are those containers' markers and indentation (a quote's
    /// `>` after up to three spaces and the space after it, an item's
    /// content column in spaces) and then the fence's indentation, as the
    /// block parser reads them — the rest is the line's content (all of
    /// `bytes`: none yet, an empty line of the code so far); nil when one
    /// is missing or a tab is among them (columns: the exact way).
    private func quotedCodeLinePrefix(_ tip: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        for k in containerChain.indices.reversed() {
            let blk = parser.blocks[Int(containerChain[k])]
            if blk.kind == .item {
                let need = Int(blk.markerOffset + blk.padding)
                for _ in 0..<need {
                    if i == bytes.count {
                        // A blank line so far: it stays in the items (they
                        // hold the code), not in a quote inside them.
                        for inner in containerChain[..<k] where parser.blocks[Int(inner)].kind != .item { return nil }
                        return i
                    }
                    guard bytes[i] == 0x20 else { return nil }
                    i += 1
                }
            } else {
                var spaces = 0
                while spaces < 4 && i + spaces < bytes.count && bytes[i + spaces] == 0x20 { spaces += 1 }
                guard spaces <= 3, i + spaces < bytes.count, bytes[i + spaces] == UInt8(ascii: ">") else { return nil }
                i += spaces + 1
                if i < bytes.count {
                    guard bytes[i] != 0x09 else { return nil }
                    if bytes[i] == 0x20 { i += 1 }
                }
            }
        }
        var fence = Int(parser.blocks[Int(tip)].fenceOffset)
        while fence > 0 && i < bytes.count && bytes[i] == 0x20 {
            i += 1
            fence -= 1
        }
        guard i == bytes.count || bytes[i] != 0x09 else { return nil }
        return i
    }

    /// The columns of item indentation a line needs to stay in the lists
    /// and items from block `b` (and its node `n`) up to the root — each
    /// item's content column, added up; nil when another container is
    /// among them or the nodes do not follow the blocks.
    private func itemIndentation(_ block: Int32, _ node: Int32) -> Int? {
        var need = 0
        var b = block
        var n = node
        while b > 0 {
            let blk = parser.blocks[Int(b)]
            guard n > 0, blk.kind == .item || blk.kind == .list, storage.nodes[Int(n)].kind == blk.kind else { return nil }
            if blk.kind == .item { need += Int(blk.markerOffset + blk.padding) }
            b = blk.parent
            n = storage.nodes[Int(n)].parent
        }
        return b == 0 && n == 0 ? need : nil
    }

    /// Node `node` and every block around it end at `end`.
    @inline(__always)
    private func endWithAncestors(_ node: Int, at end: Int) {
        withStorage { st in
            st.nodes.withUnsafeMutableBufferPointer { nodes in
                var p = Int32(node)
                while p >= 0 {
                    nodes[Int(p)].end = UInt32(end)
                    p = nodes[Int(p)].parent
                }
            }
        }
    }

    /// Makes the empty literal of the trailing code block `last` start at
    /// the arena's end, where its first line goes.
    @inline(__always)
    private func openLiteral(_ last: Int) {
        if storage.nodes[last].a.length == 0 { storage.nodes[last].a = ByteRef.arena(storage.arena.count, storage.arena.count) }
    }

    /// Whether a complete line of the trailing HTML block (`tip`) leaves
    /// the block open: a block of kinds 1–5 ends at a line holding its end
    /// marker, and every marker holds `>`.
    private func htmlLineKeepsBlockOpen(_ tip: Int32, _ line: some Collection<UInt8>) -> Bool {
        let blk = parser.blocks[Int(tip)]
        guard blk.kind == .htmlBlock, blk.htmlKind >= 1 && blk.htmlKind <= 5 else { return true }
        return !line.contains(UInt8(ascii: ">"))
    }

    /// More fence characters on the line that opened the trailing top-level
    /// fenced code block, before any info string: the fence only grows (a
    /// closing fence then needs more), and the block, empty, only ends
    /// later.
    private func appendToFenceOpener(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 4096, !lastTailIDs.isEmpty, !publishedPending, !placeholderShown, pending.isEmpty
        else { return false }
        let last = storage.nodes.count - 1
        let sourceCount = storage.source.count
        guard last >= settledNodeCount, last > 0, let lineStart = storage.lineStarts.last, Int(lineStart) < sourceCount
        else { return false }
        let code = storage.nodes[last]
        guard code.kind == .codeBlock, code.flags & 1 == 1, code.parent == 0, code.a.length == 0, code.b.length == 0,
              Int(code.end) == sourceCount, Int(code.start) >= Int(lineStart), Int(code.start) - Int(lineStart) <= 3
        else { return false }
        let x = storage.source[Int(code.start)]
        guard x == UInt8(ascii: "`") || x == UInt8(ascii: "~"), sourceCount - Int(code.start) >= 3 else { return false }
        for k in Int(lineStart)..<Int(code.start) where storage.source[k] != 0x20 { return false }
        for k in Int(code.start)..<sourceCount where storage.source[k] != x { return false }
        for b in bytes where b != x { return false }
        reclaim()
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        let newCount = UInt32(storage.source.count)
        storage.nodes[last].end = newCount
        storage.nodes[0].end = newCount
        return trailingBlockChanged()
    }

    /// The trailing fenced code block when it is still empty and its opener
    /// is on the current line (the source's last, all of it stable): its
    /// node index and node.
    @inline(__always)
    private func emptyFenceOnCurrentLine() -> (last: Int, code: RawNode)? {
        let last = storage.nodes.count - 1
        let sourceCount = storage.source.count
        guard last >= settledNodeCount, last > 0, stableCount == sourceCount, let lineStart = storage.lineStarts.last,
              Int(lineStart) < sourceCount else { return nil }
        let code = storage.nodes[last]
        guard code.kind == .codeBlock, code.flags & 1 == 1, code.a.length == 0, Int(code.end) == sourceCount,
              Int(code.start) >= Int(lineStart) else { return nil }
        return (last, code)
    }

    /// The info string that makes a fenced block a math block (any case).
    private static let mathInfo = Array("math".utf8)

    /// An info string typed after the fence that opened the trailing fenced
    /// code block (at the top level, in list items or quotes), still empty:
    /// letters, digits and `-_+.#/` (``` ```rust ```, `objective-c`, `c++`).
    /// The info runs to the end of the line with its trailing spaces
    /// trimmed; these bytes hold no space, no backtick (which would end a
    /// backtick fence), escape or entity, and follow no backslash, so the
    /// info is the bytes after the fence and its spaces, copied to the arena
    /// as the batch emission copies it (info first, then the literal, empty
    /// here). The block and its ancestors end at the source's end; the line
    /// feed then takes `appendFenceOpenerLineFeed`. (Not when the info
    /// becomes `math`: that makes the block a math block.)
    ///
    /// While the info is empty, the bytes may start with spaces or tabs
    /// (the CommonMark spec's own examples open with a fence, a space and
    /// `example`), and before those with more of the fence's characters
    /// when the line so far ends with the fence (a long fence whose last
    /// characters come in the chunk that starts its info); bytes of only
    /// those leave the info empty and move the ends.
    private func appendToFenceInfo(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // (The bytes first: most appends that come this way fail there.)
        guard !bytes.isEmpty, bytes.count <= 256 else { return false }
        // Fence characters, then spaces or tabs, before the info's bytes.
        var fenceMore = 0
        let first = bytes[0]
        if first == UInt8(ascii: "`") || first == UInt8(ascii: "~") {
            while fenceMore < bytes.count && bytes[fenceMore] == first { fenceMore += 1 }
        }
        var infoFrom = fenceMore
        while infoFrom < bytes.count && (bytes[infoFrom] == 0x20 || bytes[infoFrom] == 0x09) { infoFrom += 1 }
        for b in bytes[infoFrom...] where !(StreamEngine.isASCIIAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
                                              || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") || b == UInt8(ascii: "#")
                                              || b == UInt8(ascii: "/")) {
            return false
        }
        guard !lastTailIDs.isEmpty, !publishedPending, !placeholderShown, pending.isEmpty,
              let (last, code) = emptyFenceOnCurrentLine() else { return false }
        let sourceCount = storage.source.count
        let arenaEnd = storage.arena.count
        if code.b.length > 0 {
            // (Its info so far ends the line and the arena; a backslash at
            // its end would escape the first byte.)
            let end = storage.source[sourceCount - 1]
            guard infoFrom == 0, code.b.isArena, code.b.end == arenaEnd, end != 0x20, end != 0x09, end != UInt8(ascii: "\\")
            else { return false }
        } else {
            // The line from the block's start: the fence, then spaces or
            // tabs only (none when the bytes add to the fence).
            let x = storage.source[Int(code.start)]
            guard x == UInt8(ascii: "`") || x == UInt8(ascii: "~") else { return false }
            var k = Int(code.start)
            while k < sourceCount && storage.source[k] == x { k += 1 }
            guard k - Int(code.start) >= 3, fenceMore == 0 || (first == x && k == sourceCount) else { return false }
            while k < sourceCount && (storage.source[k] == 0x20 || storage.source[k] == 0x09) { k += 1 }
            guard k == sourceCount else { return false }
        }
        let info = UnsafeBufferPointer(rebasing: bytes[infoFrom...])
        if options.contains(.math) && Int(code.b.length) + info.count == 4 {
            // (An info of `math`, in any case, makes a math block.)
            var same = true
            for k in 0..<4 {
                let b = k < Int(code.b.length) ? storage.arena[code.b.start + k] : info[k - Int(code.b.length)]
                if b | 0x20 != StreamEngine.mathInfo[k] { same = false }
            }
            if same { return false }
        }
        reclaim()
        let newCount = sourceCount + bytes.count
        stableCount = newCount
        withStorage { st in
            st.source.append(contentsOf: bytes)
            // (Fence characters and spaces only: the info stays empty.)
            guard !info.isEmpty else { return }
            st.arena.append(contentsOf: info)
            if code.b.length > 0 {
                st.nodes[last].b.length += UInt32(info.count)
            } else {
                st.nodes[last].b = ByteRef.arena(arenaEnd, arenaEnd + info.count)
            }
            st.nodes[last].a = ByteRef.arena(arenaEnd + info.count, arenaEnd + info.count)
        }
        endWithAncestors(last, at: newCount)
        return trailingBlockChanged()
    }

    /// Whether a line of the fenced code block `tip` that is `head` then
    /// `tail` (from the line's start) is one of its content lines although
    /// `decidesCodeLine` does not decide it: spaces, at least the `need`
    /// of the items around the block, then fence characters only — the
    /// other kind than the fence's, or the fence's but fewer than its
    /// opener had (a closing fence needs at least as many), or indented
    /// more than 3 columns in the items. Each append checks the line again
    /// with its new bytes.
    private func fenceCharsStayContent(_ tip: Int32, need: Int, _ head: some Collection<UInt8>, _ tail: UnsafeBufferPointer<UInt8>) -> Bool {
        let blk = parser.blocks[Int(tip)]
        guard blk.kind == .codeBlock, blk.fenced else { return false }
        var line = FenceLine()
        guard line.scan(head), line.scan(tail), line.run > 0, !line.trailing, line.lead >= need else { return false }
        return line.char != blk.fenceChar || line.run < Int(blk.fenceLength) || line.lead - need > 3
    }

    /// A line read as one that may be made of fence characters: `lead`
    /// spaces, then a `run` of one fence character `char`, then spaces and
    /// tabs (`trailing`). `scan` is false at any other byte.
    struct FenceLine {
        var lead = 0
        var run = 0
        var char: UInt8 = 0
        var trailing = false

        @inline(__always)
        mutating func scan(_ bytes: some Sequence<UInt8>) -> Bool {
            for b in bytes {
                if run == 0 && b == 0x20 {
                    lead += 1
                } else if run == 0 && (b == UInt8(ascii: "`") || b == UInt8(ascii: "~")) {
                    char = b
                    run = 1
                } else if run > 0 && !trailing && b == char {
                    run += 1
                } else if run > 0 && (b == 0x20 || b == 0x09) {
                    trailing = true
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// Whether the bytes hold one that no closing fence holds (a line with
    /// one is a line of the code, whatever follows).
    private static func decidesCodeLine(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.contains { $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: "`") && $0 != UInt8(ascii: "~") && $0 != UInt8(ascii: ">") }
    }

    /// Whether a line of the top-level fenced code block `tip` (opened at
    /// the margin) that starts with `first` is one of its lines whatever
    /// follows: a tab there indents it four columns, and a closing fence is
    /// indented three at most. (Its first column is content.)
    @inline(__always)
    private func tabIndentedCodeLine(_ tip: Int32, need: Int, first: UInt8) -> Bool {
        first == 0x09 && need == 0 && parser.blocks[Int(tip)].kind == .codeBlock && parser.blocks[Int(tip)].fenced
            && parser.blocks[Int(tip)].fenceOffset == 0
    }

    /// Set by `appendCodeLineFeed` (and the opener's line feed): the source
    /// ends with the line feed of a line of the trailing fenced code block
    /// (see `trailingFencedCode`). Any other change clears it.
    @exclusivity(unchecked) private var afterCodeLineFeed = false

    /// The line feed that ends a line of the trailing fenced code block
    /// (see `trailingFencedCode`), when that line is decided (not a closing
    /// fence): the parser consumes the line; the literal already ends with
    /// its line feed, so only the root's end moves.
    private func appendCodeLineFeed() -> Bool {
        guard !publishedPending, !placeholderShown, let (last, tip, need) = trailingFencedCode(quotes: true) else { return false }
        let sourceCount = storage.source.count
        let code = storage.nodes[last]
        // (In quotes, `need` < 0: a line with a byte that is not a space,
        // a tab, a fence character or `>` — not in the markers, then — is
        // shown as a line of the code and stays one.)
        guard Int(code.end) == sourceCount, let lineStart = storage.lineStarts.last, Int(lineStart) < sourceCount,
              Int(code.start) < Int(lineStart),
              StreamEngine.decidesCodeLine(storage.source[Int(lineStart)..<sourceCount])
                || (need >= 0 && (tabIndentedCodeLine(tip, need: need, first: storage.source[Int(lineStart)])
                    || fenceCharsStayContent(tip, need: need, storage.source[Int(lineStart)..<sourceCount],
                                             UnsafeBufferPointer(start: nil, count: 0)))),
              htmlLineKeepsBlockOpen(tip, storage.source[Int(lineStart)..<sourceCount])
        else { return false }
        consumeLineFeed()
        afterCodeLineFeed = true
        return true
    }

    /// The line feed that ends the line opening the trailing fenced code
    /// block (at the top level or in list items), as the last update showed
    /// it: the block stays open and empty, and ends where it did (a line
    /// ending decides nothing of an opener); only the root's end moves. The
    /// next line can then take `appendNewCodeLine`.
    private func appendFenceOpenerLineFeed() -> Bool {
        guard storage.nodes[storage.nodes.count - 1].kind == .codeBlock, !publishedPending, !placeholderShown, !lastTailIDs.isEmpty,
              let (_, code) = emptyFenceOnCurrentLine() else { return false }
        consumeLineFeed()
        assert(parser.blocks[Int(parser.tip)].kind == .codeBlock && parser.blocks[Int(parser.tip)].isOpen
               && parser.blocks[Int(parser.tip)].start == Int32(code.start), "a fence opener's line feed left no open fenced code block")
        afterCodeLineFeed = true
        return true
    }

    /// Set by `appendToClosingFence`: the source's length when the current
    /// line of the trailing fenced code block was shown as its closing
    /// fence (-1: not). Any other change clears it.
    @exclusivity(unchecked) private var closingFenceShownEnd = -1

    /// Bytes without a line ending that make the current line of the
    /// trailing fenced code block (at the top level or in list items) its
    /// closing fence: the line leaves the literal if it was shown as a line
    /// of it (spaces, fewer fence characters than the opener's), and the
    /// block and its items end at the source's end. More spaces or fence
    /// characters on a line shown as the closing fence only move the ends.
    private func appendToClosingFence(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // (Most bytes that come this way start a line of another block.)
        guard let b0 = bytes.first, b0 == 0x20 || b0 == UInt8(ascii: "`") || b0 == UInt8(ascii: "~"),
              storage.nodes[storage.nodes.count - 1].kind == .codeBlock else { return false }
        guard bytes.count <= 4096, !publishedPending, !placeholderShown,
              let (last, tip, need) = trailingFencedCode(empty: true) else { return false }
        let blk = parser.blocks[Int(tip)]
        let sourceCount = storage.source.count
        guard blk.kind == .codeBlock, blk.fenced, stableCount == sourceCount, let ls = storage.lineStarts.last else { return false }
        let lineStart = Int(ls)
        let code = storage.nodes[last]
        guard Int(code.start) < lineStart, lineStart <= sourceCount else { return false }
        // The line so far, then with the bytes.
        var line = FenceLine()
        guard line.scan(storage.source[lineStart..<sourceCount]) else { return false }
        let old = line
        guard line.scan(bytes), line.run >= Int(blk.fenceLength), line.char == blk.fenceChar,
              line.lead >= need, line.lead - need <= 3 else { return false }
        // How the last update showed the line so far: not yet (empty), as
        // the closing fence, or as a line of the literal.
        var drop = 0
        if sourceCount == lineStart {
            guard Int(code.end) == lineStart - 1 else { return false }
        } else if closingFenceShownEnd == sourceCount {
            guard Int(code.end) == sourceCount else { return false }
        } else {
            guard Int(code.end) == sourceCount, !old.trailing, old.run < Int(blk.fenceLength),
                  code.a.isArena, code.a.end == storage.arena.count else { return false }
            let strip = min(old.lead, need + Int(blk.fenceOffset))
            drop = sourceCount - lineStart - strip + 1
            guard Int(code.a.length) >= drop, storage.arena[storage.arena.count - 1] == 0x0A,
                  storage.arena[(storage.arena.count - drop)..<(storage.arena.count - 1)]
                    .elementsEqual(storage.source[(lineStart + strip)..<sourceCount]) else { return false }
        }
        reclaim()
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        if drop > 0 {
            storage.arena.removeLast(drop)
            storage.nodes[last].a.length -= UInt32(drop)
            if storage.nodes[last].a.length == 0 { storage.nodes[last].a = .empty }
        }
        endWithAncestors(last, at: storage.source.count)
        _ = trailingBlockChanged()
        closingFenceShownEnd = storage.source.count
        return true
    }

    /// The line feed after a line that `appendToClosingFence` showed as the
    /// trailing fenced code block's closing fence: the parser consumes the
    /// line and closes the block, which ends where it did; only the root's
    /// end moves.
    private func appendClosingFenceLineFeed() -> Bool {
        let sourceCount = storage.source.count
        guard closingFenceShownEnd == sourceCount, stableCount == sourceCount, !publishedPending, !placeholderShown,
              !lastTailIDs.isEmpty else { return false }
        let last = storage.nodes.count - 1
        let top = storage.nodes[last].parent == 0
        consumeLineFeed()
        assert(parser.blocks[Int(parser.tip)].kind != .codeBlock || !parser.blocks[Int(parser.tip)].isOpen,
               "a closing fence's line feed left the code block open")
        singleLineBlockFeedEnd = top ? storage.source.count : -1
        // (In a list item: a blank line after it changes only the root's
        // end too, `appendBlankLineFeedAfterBlank`.)
        blankPartialLine = blankLineChangesOnlyTheRoot()
        return true
    }

    /// The line feed of a blank line when the partial line is empty or
    /// blank and a blank last line closes only what the end of the input
    /// closes (`blankPartialLine`): the parser consumes it, and nothing but
    /// the root's end moves (blank lines are in no block's range; whether
    /// a list turns loose is decided by the block after them).
    private func appendBlankLineFeedAfterBlank() -> Bool {
        let sourceCount = storage.source.count
        guard blankPartialLine, stableCount == sourceCount, !publishedPending, !placeholderShown, !lastTailIDs.isEmpty
        else { return false }
        var lineStart = sourceCount
        while lineStart > 0 && storage.source[lineStart - 1] != 0x0A {
            guard isSpaceOrTab(storage.source[lineStart - 1]) else { return false }
            lineStart -= 1
        }
        guard lineStart > 0 else { return false }
        consumeLineFeed()
        blankPartialLine = blankLineChangesOnlyTheRoot()
        return true
    }

    /// A line feed that makes an empty line of the trailing fenced code
    /// block (the source ends with a line feed of it): the literal gets an
    /// empty line, and the block (with the items around it) ends at the
    /// start of that line.
    private func appendBlankCodeLine() -> Bool {
        guard afterCodeLineFeed, !publishedPending, !placeholderShown, let (last, tip, _) = trailingFencedCode(empty: true),
              parser.blocks[Int(tip)].kind == .codeBlock, storage.source.last == 0x0A else { return false }
        reclaim(nodesFrom: last, endsOf: last)
        openLiteral(last)
        storage.arena.append(0x0A)
        storage.nodes[last].a.length += 1
        endWithAncestors(last, at: storage.source.count)
        consumeLineFeed()
        afterCodeLineFeed = true
        return true
    }

    /// The first bytes of the next line of that code block, when they decide
    /// it (see `decidesCodeLine`): the line joins the literal, less the
    /// fence's indentation.
    private func appendNewCodeLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard afterCodeLineFeed, !bytes.isEmpty, bytes.count <= 4096,
              let (last, tip, need) = trailingFencedCode(empty: true, quotes: true),
              storage.source.last == 0x0A else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        if need < 0 {
            // In block quotes: the markers, then content that decides the
            // line, or none yet (an empty line of the code so far).
            guard let strip = quotedCodeLinePrefix(tip, bytes), Normalizer.isClean(bytes),
                  strip == bytes.count || StreamEngine.decidesCodeLine(UnsafeBufferPointer(rebasing: bytes[strip...]))
            else { return false }
            return appendCodeLine(bytes, strip: strip, last: last)
        }
        // (A line of spaces so far is a blank code line; not in an HTML
        // block, which a blank line may end.)
        var allSpaces = true
        for b in bytes where b != 0x20 { allSpaces = false; break }
        guard Normalizer.isClean(bytes), StreamEngine.decidesCodeLine(bytes)
                || (allSpaces && parser.blocks[Int(tip)].kind == .codeBlock)
                || tabIndentedCodeLine(tip, need: need, first: bytes[0])
                || fenceCharsStayContent(tip, need: need, EmptyCollection(), bytes) else { return false }
        // Up to the items' and the fence's indentation in spaces is not
        // content (a tab there is consumed by columns: the exact path). A
        // line that is not blank needs the items' to stay in them. An HTML
        // block's lines are taken whole.
        let offset = parser.blocks[Int(tip)].kind == .htmlBlock ? 0 : need + Int(parser.blocks[Int(tip)].fenceOffset)
        var strip = 0
        while strip < offset && strip < bytes.count && isSpaceOrTab(bytes[strip]) {
            if bytes[strip] == 0x09 { return false }
            strip += 1
        }
        guard strip >= need || strip == bytes.count else { return false }
        return appendCodeLine(bytes, strip: strip, last: last)
    }

    /// Appends the first bytes of a line of the trailing code block `last`:
    /// from `strip` on, content of its literal.
    private func appendCodeLine(_ bytes: UnsafeBufferPointer<UInt8>, strip: Int, last: Int) -> Bool {
        reclaim(nodesFrom: last, endsOf: last)
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        openLiteral(last)
        storage.arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[strip...]))
        storage.arena.append(0x0A)
        storage.nodes[last].a.length += UInt32(bytes.count - strip + 1)
        endWithAncestors(last, at: storage.source.count)
        return trailingBlockChanged()
    }

    /// The trailing block when it is an open indented code block at the
    /// top level, shown with its literal (lines, each with its line feed)
    /// at the end of the arena: its node.
    private func trailingIndentedCode() -> Int? {
        let last = storage.nodes.count - 1
        guard last >= settledNodeCount, last > 0, !lastTailIDs.isEmpty else { return nil }
        let code = storage.nodes[last]
        guard code.kind == .codeBlock, code.parent == 0, code.a.length > 0, code.a.isArena,
              code.a.end == storage.arena.count else { return nil }
        let blk = parser.blocks[Int(parser.tip)]
        guard blk.kind == .codeBlock, !blk.fenced, blk.isOpen, blk.parent == 0, Int(blk.start) == Int(code.start)
        else { return nil }
        return last
    }

    /// The line feed that ends a line of the trailing indented code block
    /// (see `trailingIndentedCode`) that it shows with content (a line of
    /// spaces and tabs so far is not in it: trailing blank lines are not
    /// code): the parser consumes the line; the literal already ends with
    /// its line feed and the block where the line's last byte is, so only
    /// the root's end moves. The next line can then take
    /// `appendNewIndentedCodeLine`.
    private func appendIndentedCodeLineFeed() -> Bool {
        guard !publishedPending, !placeholderShown, let last = trailingIndentedCode() else { return false }
        let sourceCount = storage.source.count
        let code = storage.nodes[last]
        guard Int(code.end) == sourceCount, let lineStart = storage.lineStarts.last, Int(lineStart) < sourceCount,
              Int(code.start) < Int(lineStart) else { return false }
        consumeLineFeed()
        afterCodeLineFeed = true
        return true
    }

    /// Bytes of the next line of the trailing indented code block right
    /// after a line of it with content (the block ends just before the
    /// line feed that starts this line: no blank line between, which the
    /// literal would keep). Spaces and tabs so far make a blank line, which
    /// the block does not show: only the root's end moves, and the next
    /// bytes come here again. Once the line holds a byte that is not a
    /// space or tab, it joins the literal when it starts with a tab or four
    /// spaces (less those four columns), and the block ends with it; any
    /// other indentation goes the exact way.
    private func appendNewIndentedCodeLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard afterCodeLineFeed, !bytes.isEmpty, bytes.count <= 4096, !publishedPending, !placeholderShown, pending.isEmpty,
              let last = trailingIndentedCode() else { return false }
        let sourceCount = storage.source.count
        var lineStart = sourceCount
        while lineStart > 0 && sourceCount - lineStart < 4096 && isSpaceOrTab(storage.source[lineStart - 1]) { lineStart -= 1 }
        guard lineStart > 0, storage.source[lineStart - 1] == 0x0A, Int(storage.nodes[last].end) == lineStart - 1
        else { return false }
        var content = false
        for b in bytes {
            if b == 0x0A || b == 0x0D || b == 0 { return false }
            if !isSpaceOrTab(b) { content = true }
        }
        guard Normalizer.isClean(bytes) else { return false }
        // The line's first bytes, so far and in `bytes`.
        let soFar = sourceCount - lineStart
        func lineByte(_ k: Int) -> UInt8? {
            k < soFar ? storage.source[lineStart + k] : k - soFar < bytes.count ? bytes[k - soFar] : nil
        }
        var strip = 0
        if content {
            if lineByte(0) == 0x09 {
                strip = 1
            } else if lineByte(0) == 0x20 && lineByte(1) == 0x20 && lineByte(2) == 0x20 && lineByte(3) == 0x20 {
                strip = 4
            } else {
                return false
            }
        }
        guard content else {
            // A blank line so far: only the root's end moves.
            appendMovingOnlyTheRootEnd(bytes)
            _ = trailingBlockChanged()
            afterCodeLineFeed = true
            return true
        }
        reclaim(nodesFrom: last, endsOf: last)
        if strip < soFar { storage.arena.append(contentsOf: storage.source[(lineStart + strip)..<sourceCount]) }
        storage.arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[max(0, strip - soFar)...]))
        storage.arena.append(0x0A)
        storage.nodes[last].a.length += UInt32(soFar + bytes.count - strip + 1)
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        endWithAncestors(last, at: storage.source.count)
        return trailingBlockChanged()
    }

    /// The trailing block when it is an open top-level display-math block
    /// opened by `$$` or `\[` on a line of its own, shown with a non-empty
    /// TeX literal at the end of the arena: its node, its style (0: `$$`,
    /// 1: `\[`) and the start of the current line (a line after the
    /// opener's).
    private func trailingMathBlock() -> (node: Int, style: Int, lineStart: Int)? {
        let last = storage.nodes.count - 1
        guard last >= settledNodeCount, last > 0, storage.nodes[last].kind == .mathBlock, !lastTailIDs.isEmpty, !publishedPending,
              !placeholderShown else { return nil }
        let math = storage.nodes[last]
        // (An empty TeX — no content line yet — starts at the arena's end
        // with the first one.)
        guard math.kind == .mathBlock, math.parent == 0, math.a.length == 0 || (math.a.isArena && math.a.end == storage.arena.count),
              let lineStart = storage.lineStarts.last, Int(math.start) < Int(lineStart) else { return nil }
        let tip = parser.tip
        let blk = parser.blocks[Int(tip)]
        guard blk.kind == .mathBlock, blk.fenced, blk.isOpen, blk.parent == 0, blk.htmlKind != 2, blk.fenceLength >= 0,
              blk.fenceChar <= 1, Int(blk.start) == Int(math.start), Int(blk.start) < Int(lineStart) else { return nil }
        return (last, Int(blk.fenceChar), Int(lineStart))
    }

    /// Whether the line `head` + `tail` (trailing spaces and tabs ignored)
    /// ends with the closer of a math block of `style` (0: `$$`, 1: `\]`
    /// not after another backslash), as `BlockParser.mathCloser` decides.
    private static func closesMath(style: Int, _ head: ArraySlice<UInt8>, _ tail: UnsafeBufferPointer<UInt8>) -> Bool {
        // The last bytes of the line before its trailing spaces, up to
        // three: `c1` last, `c3` first (0: none, the line is shorter).
        var (c1, c2, c3): (UInt8, UInt8, UInt8) = (0, 0, 0)
        var n = 0
        var k = tail.count
        while k > 0 && isSpaceOrTab(tail[k - 1]) { k -= 1 }
        var h = head.endIndex
        if k == 0 { while h > head.startIndex && isSpaceOrTab(head[h - 1]) { h -= 1 } }
        while n < 3 {
            let b: UInt8
            if k > 0 { k -= 1; b = tail[k] } else if h > head.startIndex { h -= 1; b = head[h] } else { break }
            if n == 0 { c1 = b } else if n == 1 { c2 = b } else { c3 = b }
            n += 1
        }
        guard n >= 2 else { return false }
        if style == 0 { return c2 == UInt8(ascii: "$") && c1 == UInt8(ascii: "$") }
        guard c2 == UInt8(ascii: "\\") && c1 == UInt8(ascii: "]") else { return false }
        return !(n == 3 && c3 == UInt8(ascii: "\\"))
    }

    /// Bytes without a line ending added to a line of the trailing math
    /// block (see `trailingMathBlock`) that do not make it the closing line:
    /// the TeX grows by what the literal had trimmed after its last
    /// character and by the bytes (spaces alone change nothing but ends).
    private func appendToMathLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 4096, let (last, style, lineStart) = trailingMathBlock() else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        let sourceCount = storage.source.count
        guard Int(storage.nodes[last].end) <= sourceCount, Normalizer.isClean(bytes) else { return false }
        do {
            // (The slice must be gone before the source grows: it would
            // keep the array from being unique, and the append would copy it.)
            let line = storage.source[lineStart..<sourceCount]
            let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            guard !StreamEngine.closesMath(style: style, line, none), !StreamEngine.closesMath(style: style, line, bytes)
            else { return false }
        }
        // A literal of a top-level block is its source lines joined by line
        // feeds, trimmed: it ends where the source's trailing spaces, tabs
        // and line feeds begin.
        // (The literal also ends before the bytes' own trailing spaces.)
        var t = sourceCount
        var used = bytes.count
        while used > 0 && isSpaceOrTab(bytes[used - 1]) { used -= 1 }
        let blank = used == 0
        // An empty TeX starts with the first byte that is not a space or
        // tab, on this line (what came before it on the line is blank).
        let empty = storage.nodes[last].a.length == 0
        var lead = 0
        if empty && !blank {
            for k in lineStart..<sourceCount where !isSpaceOrTab(storage.source[k]) { return false }
            while lead < used && isSpaceOrTab(bytes[lead]) { lead += 1 }
        } else if !blank {
            while t > Int(storage.nodes[last].start) {
                let b = storage.source[t - 1]
                if b == 0x0D { return false }
                guard b == 0x20 || b == 0x09 || b == 0x0A else { break }
                t -= 1
            }
            guard t > Int(storage.nodes[last].start) else { return false }
        }
        // (The block is the root's child: its node, the root's end, and
        // bytes appended to the arena.)
        reclaim(nodesFrom: last, endsOf: last)
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        if empty && !blank {
            let at = storage.arena.count
            storage.arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lead..<used]))
            storage.nodes[last].a = ByteRef.arena(at, storage.arena.count)
        } else if !blank {
            storage.arena.append(contentsOf: storage.source[t..<sourceCount])
            storage.arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<used]))
            storage.nodes[last].a.length += UInt32(sourceCount - t + used)
        }
        let newCount = UInt32(storage.source.count)
        storage.nodes[last].end = newCount
        storage.nodes[0].end = newCount
        return trailingBlockChanged()
    }

    /// The line feed that ends the line of a display math opener alone
    /// (`$$`, `\[`), as the last update showed it: the block stays open
    /// and empty, and ends where it did; only the root's end moves. The
    /// next line then takes `appendToMathLine`.
    private func appendMathOpenerLineFeed() -> Bool {
        let last = storage.nodes.count - 1
        guard last >= settledNodeCount, last > 0, storage.nodes[last].kind == .mathBlock, !publishedPending, !placeholderShown,
              !lastTailIDs.isEmpty else { return false }
        let sourceCount = storage.source.count
        guard stableCount == sourceCount, let lineStart = storage.lineStarts.last, Int(lineStart) < sourceCount else { return false }
        let math = storage.nodes[last]
        guard math.parent == 0, math.a.length == 0, Int(math.end) == sourceCount, Int(math.start) >= Int(lineStart) else { return false }
        // (`$$` or `\[` alone, then spaces or tabs: the opener of a block.)
        var k = Int(math.start)
        let c0 = storage.source[k]
        if c0 == UInt8(ascii: "$") {
            guard k + 1 < sourceCount, storage.source[k + 1] == UInt8(ascii: "$") else { return false }
            k += 2
        } else {
            guard c0 == UInt8(ascii: "\\"), k + 1 < sourceCount else { return false }
            k += 1
            if storage.source[k] == UInt8(ascii: "\\") { k += 1 }
            guard k < sourceCount, storage.source[k] == UInt8(ascii: "[") else { return false }
            k += 1
        }
        for i in k..<sourceCount where !isSpaceOrTab(storage.source[i]) { return false }
        consumeLineFeed()
        let tip = parser.blocks[Int(parser.tip)]
        assert(tip.kind == .mathBlock && tip.isOpen && tip.start == Int32(math.start), "a math opener's line feed left no open math block")
        return true
    }

    /// The line feed that ends a line of the trailing math block that is not
    /// its closing line: the parser consumes the line; the TeX (trimmed)
    /// stays as it is, and only the root's end moves.
    private func appendMathLineFeed() -> Bool {
        guard let (last, style, lineStart) = trailingMathBlock() else { return false }
        let sourceCount = storage.source.count
        guard Int(storage.nodes[last].end) == sourceCount,
              !StreamEngine.closesMath(style: style, storage.source[lineStart..<sourceCount],
                                       UnsafeBufferPointer(start: nil, count: 0)) else { return false }
        consumeLineFeed()
        return true
    }

    /// How many appends took the exact path (a full snapshot of the
    /// trailing block) rather than a fast path: for tests that check a
    /// shape of input stays on the fast paths.
    @exclusivity(unchecked) private(set) var fullSnapshots = 0
    /// How many appends the block parser took from a checkpoint for a new
    /// line (`appendNewBlockLine`), for the same kind of test.
    @exclusivity(unchecked) private(set) var newBlockPasses = 0
    /// How many appends of plain text that a UTF-8 sequence split went on
    /// straight with the text the plain path extends (`continuePlainText`),
    /// for the same kind of test.
    @exclusivity(unchecked) private(set) var plainContinuations = 0
    /// Settled blocks emitted again by provisional snapshots (for tests).
    @exclusivity(unchecked) private(set) var provisionalEmissions = 0
    /// How many appends parsed the trailing paragraph's (or heading's)
    /// inlines again (`emitTrailingParagraph`), for the same kind of test.
    @exclusivity(unchecked) private(set) var paragraphPasses = 0
    /// How many nodes appends copied into a spare storage while readers
    /// held the documents before (`reclaimHeld`), for the same kind of test.
    @exclusivity(unchecked) private(set) var heldNodesCopied = 0
    /// Arena bytes (code and math literals, …) those copies took.
    @exclusivity(unchecked) private(set) var heldArenaCopied = 0
    /// Nodes footnote renumbering looked at (for the tests: the footnote
    /// index keeps it from growing with the document at every snapshot).
    @exclusivity(unchecked) private(set) var footnoteNodesScanned = 0
    /// How many appends split and emitted the trailing table row's cells
    /// again (`emitRowTail`), for the same kind of test.
    @exclusivity(unchecked) private(set) var rowPasses = 0
    /// Bytes of the trailing row that those passes split into cells again.
    @exclusivity(unchecked) private(set) var rowBytesSplit = 0
    /// Bytes of headers and of rows being typed under them that
    /// `pipeLineStaysParagraph` split (for the same kind of test).
    @exclusivity(unchecked) private(set) var pipeRowBytesSplit = 0

    /// Set by `appendTableRowLineFeed`: the source ends with the line feed of
    /// the trailing top-level table's last body row. Any other change clears it.
    @exclusivity(unchecked) private var afterTableRowLineFeed = false

    /// The line feed that ends the last body row of the trailing top-level
    /// table (a row the last update showed, ending where the source ends):
    /// the parser consumes the line; the row stays as it is, and only the
    /// root's end moves.
    private func appendTableRowLineFeed() -> Bool {
        guard trailingTableNode > 0, !publishedPending, !placeholderShown, !lastTailIDs.isEmpty else { return false }
        let sourceCount = storage.source.count
        guard let row = trailingTableRow(endingAt: sourceCount), storage.nodes[trailingTableNode].parent == 0,
              Int(trailingRow.start) < sourceCount, Int(storage.nodes[row].end) == sourceCount else { return false }
        consumeLineFeed()
        afterTableRowLineFeed = true
        return true
    }

    /// The line feed of a blank line after that row: it closes the table,
    /// which ends where it did; only the root's end moves (and blank lines
    /// after it take `appendBlankLineAfterSingleLineBlock`).
    private func appendBlankLineAfterTable() -> Bool {
        let t = trailingTableNode
        let sourceCount = storage.source.count
        guard afterTableRowLineFeed, t > 0, t < storage.nodes.count, t >= settledNodeCount, storage.nodes[t].parent == 0,
              storage.source.last == 0x0A, stableCount == sourceCount, !publishedPending, !placeholderShown,
              !lastTailIDs.isEmpty, Int(storage.nodes[t].end) == sourceCount - 1 else { return false }
        consumeLineFeed()
        trailingTableNode = 0
        singleLineBlockFeedEnd = storage.source.count
        return true
    }

    /// The first bytes of the next line after that row, when they start with
    /// `|` (in a table's body, a line that starts with a pipe is a row): a
    /// new row with its cells, as many as the table has columns.
    private func appendNewTableRow(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard afterTableRowLineFeed, !bytes.isEmpty, bytes.count <= 4096, bytes[0] == UInt8(ascii: "|"), trailingTableNode > 0,
              lastLabels.footnoteCount == 0 || noFootnoteReference(from: storage.source.count, bytes) else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        let t = trailingTableNode
        let sourceCount = storage.source.count
        guard t < storage.nodes.count, t >= settledNodeCount, storage.nodes[t].kind == .table, storage.nodes[t].parent == 0,
              storage.source.last == 0x0A, Normalizer.isClean(bytes) else { return false }
        let previousRow = storage.nodes[t].lastChild
        guard previousRow > Int32(t) else { return false }
        // (It adds nodes, and writes the `next` link of the last row and
        // the ends and last child of the table and its ancestors.)
        reclaim(nodesFrom: storage.nodes.count, endsOf: Int(storage.nodes[t].lastChild))
        let lineStart = sourceCount
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        let newCount = storage.source.count
        emittingCells { nodes, inline, source in
            let row = BlockParser.appendNode(RawNode(kind: .tableRow, start: lineStart, end: newCount), parent: Int32(t),
                                             into: &nodes)
            var cells = take(&rowCellsScratch)
            defer { rowCellsScratch = cells }
            let endsAtPipe = BlockParser.splitRow(source, lineStart, newCount, into: &cells)
            parser.emitTableCells(cells, from: 0, rowEnd: newCount, aligns: trailingAlignments, row: row,
                                  into: &nodes, inline: inline)
            trailingRowClosed = endsAtPipe ? cells.count : max(0, cells.count - 1)
            trailingRowOpenStart = trailingRowClosed > 0 ? StreamEngine.afterLastPipe(source, lineStart, newCount) : lineStart
            nodes[t].end = UInt32(newCount)
            nodes[0].end = UInt32(newCount)
        }
        trailingPreviousRow = previousRow
        trailingRow = Line(start: lineStart, end: newCount)
        return trailingBlockChanged()
    }

    /// What the label table held when the last full snapshot was taken
    /// (between snapshots the table itself shows what it saw).
    @exclusivity(unchecked) private(set) var lastLabels = LabelTable.Mark()
    /// The table's `version` then (-1: none yet).
    @exclusivity(unchecked) private var lastDefinitionsVersion = -1

    /// The third fast path: a chunk without a line ending added to the
    /// trailing paragraph when that paragraph started on the current line
    /// with a letter — so no block can start on the line, whatever follows.
    /// Only the paragraph's inlines are parsed again, not its whole
    /// top-level block (a long list or a quote).
    private func appendToParagraphLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard trailingParagraphNode > 0, !bytes.isEmpty, bytes.count <= 4096, !lastTailIDs.isEmpty else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        let p = Int32(trailingParagraphNode)
        let sourceCount = storage.source.count
        guard Int(p) < storage.nodes.count, Int(p) >= settledNodeCount else { return false }
        let para = storage.nodes[Int(p)]
        if para.kind == .heading {
            for b in bytes where b == UInt8(ascii: "#") { return false }
        }
        guard para.kind == .paragraph || para.kind == .heading, Int(para.end) == sourceCount,
              trailingParagraphLines.last.map({ Int($0.end) == sourceCount }) == true else { return false }
        guard Normalizer.isClean(bytes), leafLineDecided(bytes) else { return false }
        // (A paragraph with a `[^` may hold a reference, or gain one: the
        // footnotes are numbered after the pass, as in a snapshot.)
        let numbered = options.contains(.footnotes) && lastLabels.footnoteCount > 0 && !paragraphHoldsNoFootnote(bytes)
        // (While settled blocks are shown emitted again with a definition
        // from the tail, `provisionalFrom`, the nodes are not where the
        // settled layout says: a snapshot numbers them. Until session 29
        // this pass numbered them against the settled layout, and reported
        // the wrong block changed when a reference typed here numbered a
        // settled definition: a fuzz finding.)
        if numbered && provisionalFrom != nil { return false }
        // (A pass that numbers footnotes may write any block.)
        if numbered { reclaim() } else { reclaim(nodesFrom: storage.nodes.count, endsOf: Int(p), rewrites: true) }
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        let newCount = storage.source.count
        trailingParagraphLines[trailingParagraphLines.count - 1].end = Int32(newCount)
        let shown = emitTrailingParagraph(p, previousSourceCount: sourceCount, newLine: false)
        if numbered { renumberAfterPass(paragraph: Int(p), start: Int(trailingParagraphLines[0].start)) }
        return shown
    }

    /// After a pass over the trailing paragraph that may have made or
    /// moved a footnote reference: the footnotes numbered as a snapshot
    /// numbers them, and the blocks whose numbers moved (a definition's
    /// count of references, a label's number) reported with the paragraph.
    private func renumberAfterPass(paragraph: Int, start: Int) {
        var tops = take(&tailTopsScratch)
        tops.truncate(to: 0)
        for t in lastLayout.tailStarts where t >= settledNodeCount { tops.append(t) }
        let holders = renumberFootnotes(provisional: nil, tailTops: tops,
                                        pass: (paragraph: paragraph, start: start, floor: leafEmitFloor))
        tops.truncate(to: 0)
        tailTopsScratch = tops
        guard !holders.isEmpty else { return }
        let settledCount = settledIDs.count
        let tail = lastTailIDs
        for k in holders where k - settledCount < tail.count {
            let id = k < settledCount ? settledIDs[k] : tail[k - settledCount]
            if !(lastDiffMode == 1 && lastSingleID == id) { mergeIntoDiff(id) }
        }
        // (A later part of the same chunk adds to this diff.)
        diffEpoch = appendEpoch
    }

    /// What `noFootnoteReference` scanned last (see there).
    @exclusivity(unchecked) private var footnoteScanStart = -1
    @exclusivity(unchecked) private var footnoteScanEnd = 0
    @exclusivity(unchecked) private var footnoteScanHit = false
    /// Source bytes `noFootnoteReference` looked at (for the tests).
    @exclusivity(unchecked) private(set) var footnoteBytesScanned = 0

    /// Whether the trailing paragraph's source and `bytes` after it hold no
    /// `[^`: the paragraph then holds no footnote reference and misses no
    /// footnote label, so parsing it again moves no footnote number (the
    /// paragraph paths run in a document with footnotes only then).
    private func paragraphHoldsNoFootnote(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = trailingParagraphLines.first else { return false }
        return noFootnoteReference(from: Int(first.start), bytes)
    }

    /// Whether the trailing table's row `row` and `bytes` after it hold no
    /// `[^` (the row paths emit its open cell again: a reference in it
    /// would show unnumbered without the footnotes numbered after).
    private func rowHoldsNoFootnote(_ row: Int, _ bytes: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)) -> Bool {
        noFootnoteReference(from: Int(storage.nodes[row].start), bytes)
    }

    /// Whether the source from `start` on and `bytes` after it hold no `[^`
    /// (see `paragraphHoldsNoFootnote`; the table paths check the trailing
    /// row the same way).
    ///
    /// (The source's bytes from `footnoteScanStart` to `footnoteScanEnd`
    /// were scanned last, below `stableCount`, where bytes never change:
    /// they hold a `[^` when `footnoteScanHit`, else none. A long paragraph
    /// in a document with footnotes is not scanned again from its start on
    /// every append: until session 29 it was, 945.8 M instructions for a
    /// 38 KB paragraph of inlines.)
    private func noFootnoteReference(from start: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        let stable = stableCount
        let clean = storage.source.withUnsafeBufferPointer { source in
            guard start <= source.count else { return false }
            var from = start
            if footnoteScanStart == start && footnoteScanEnd <= min(source.count, stable) {
                if footnoteScanHit { return false }
                from = footnoteScanEnd
                if from > start { previous = source[from - 1] }
            }
            for k in from..<source.count {
                let b = source[k]
                if b == UInt8(ascii: "^") && previous == UInt8(ascii: "[") {
                    footnoteBytesScanned &+= k + 1 - from
                    if k < stable { (footnoteScanStart, footnoteScanEnd, footnoteScanHit) = (start, k + 1, true) }
                    return false
                }
                previous = b
            }
            footnoteBytesScanned &+= source.count - from
            (footnoteScanStart, footnoteScanEnd, footnoteScanHit) = (start, min(source.count, stable), false)
            return true
        }
        guard clean else { return false }
        for b in bytes {
            if b == UInt8(ascii: "^") && previous == UInt8(ascii: "[") { return false }
            previous = b
        }
        return true
    }

    /// The fifth fast path: the first bytes of a new line of the trailing
    /// paragraph, after the line feed that ended its last line took the
    /// line-feed fast path (`afterParagraphLineFeed`), when they decide the
    /// line (see `lineDecided`): a line that starts with a letter, after
    /// any spaces and tabs — and, in block quotes, after at most as many
    /// `>` markers as the paragraph is deep in quotes — is a continuation
    /// line of the open paragraph, lazy or not, whatever follows: no block
    /// can start there or turn the paragraph into something else. The
    /// paragraph's own parser resumes; nothing else is parsed (a paragraph
    /// of many lines costs each line its own length, not the paragraph's).
    /// Markers and spaces alone are a blank line of the quotes: as the last
    /// line it ends the paragraph as the end of the input does, and only
    /// the root's end moves.
    private func appendNewParagraphLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard afterParagraphLineFeed, trailingParagraphNode > 0, !bytes.isEmpty, bytes.count <= 4096, !lastTailIDs.isEmpty,
              !publishedPending, !placeholderShown, let last = trailingParagraphLines.last,
              lastLabels.footnoteCount == 0 || paragraphHoldsNoFootnote(bytes)
        else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        let p = Int32(trailingParagraphNode)
        let sourceCount = storage.source.count
        let lineStart = Int(last.end) + 1
        guard Int(p) < storage.nodes.count, Int(p) >= settledNodeCount, storage.nodes[Int(p)].kind == .paragraph,
              Int(storage.nodes[Int(p)].end) == Int(last.end), lineStart <= sourceCount,
              storage.source[Int(last.end)] == 0x0A, Normalizer.isClean(bytes) else { return false }
        // How deep the paragraph is in block quotes (-1: in another container).
        var depth = 0
        var a = storage.nodes[Int(p)].parent
        while a > 0 {
            let kind = storage.nodes[Int(a)].kind
            guard kind == .blockQuote || kind == .alert else { depth = -1; break }
            depth += 1
            a = storage.nodes[Int(a)].parent
        }
        // The line so far: what is already in the source (spaces, markers)
        // and the new bytes.
        decidedScratch.truncate(to: 0)
        decidedScratch.append(contentsOf: storage.source[lineStart..<sourceCount])
        decidedScratch.append(contentsOf: bytes)
        let text = decidedScratch
        let n = text.count
        var i = 0
        var markers = 0
        while markers < depth {
            var spaces = 0
            while i + spaces < n && text[i + spaces] == 0x20 && spaces < 4 { spaces += 1 }
            guard spaces <= 3, i + spaces < n, text[i + spaces] == UInt8(ascii: ">") else { break }
            i += spaces + 1
            markers += 1
            if i < n && text[i] == 0x20 { i += 1 }
        }
        // (A tab among the markers is consumed by columns: the exact path.)
        for k in 0..<i where text[k] == 0x09 { return false }
        var ws = i
        while ws < n && isSpaceOrTab(text[ws]) { ws += 1 }
        if ws == n {
            // Markers and spaces only (spaces alone: `appendBlankLineStart`).
            guard markers > 0 else { return false }
            appendMovingOnlyTheRootEnd(bytes)
            _ = trailingBlockChanged()
            afterParagraphLineFeed = true
            return true
        }
        let decided = text.withUnsafeBufferPointer { StreamEngine.lineDecided($0, ws, n) }
        // A table's delimiter row being typed under its header: a line of
        // the paragraph until it is a whole one (`pipeLineStaysParagraph`).
        let pipeLine = !decided && depth == 0 && ws <= 3 && last.pad == 0
            && text.withUnsafeBufferPointer { pipeLineStaysParagraph($0, ws, n, header: last) }
        // Digits alone (`2` of `2. **Step**`) are a line of the paragraph
        // until a delimiter follows them.
        let digitLine = !decided && !pipeLine && text.withUnsafeBufferPointer { StreamEngine.digitsOnly($0, ws, n) }
        // A line that starts with `[` continues the paragraph whatever
        // follows (`[1] Source`, a link): a definition cannot interrupt a
        // paragraph, only a footnote's (`[^`) can.
        let bracketStart = !decided && !pipeLine && !digitLine && text[ws] == UInt8(ascii: "[")
        let bracketLine = bracketStart && text.withUnsafeBufferPointer { bracketLineContinuesParagraph($0, ws, n) }
        // (`[` alone, with footnotes: a line of the paragraph until a `^`
        // after it may start a footnote's definition, `leafLineDecided`.)
        let loneBracket = bracketStart && !bracketLine && ws + 1 == n
        guard decided || pipeLine || digitLine || bracketLine || loneBracket else { return false }
        // (A digit line's paragraph as it is now, to take the line back if
        // a list marker's delimiter follows: a short paragraph only.)
        let saveDigits = digitLine && storage.nodes.count - Int(p) <= 128 && sourceCount - Int(storage.nodes[Int(p)].start) <= 1024
        if saveDigits { saveDigitLine(p, chunkStart: sourceCount, lineStart: lineStart + ws) }
        reclaim(nodesFrom: storage.nodes.count, endsOf: Int(p), rewrites: true)
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        let newCount = storage.source.count
        trailingParagraphLines.append(Line(start: lineStart + ws, end: newCount))
        trailingParagraphUndecided = pipeLine || digitLine || loneBracket
        let shown = emitTrailingParagraph(p, previousSourceCount: sourceCount, newLine: true)
        if saveDigits {
            shownDigits.active = true
            shownDigits.end = storage.source.count
        }
        return shown
    }

    /// A line of digits alone shown as the trailing paragraph's last line
    /// (`2` of `2. **Step**`), and the paragraph as it was before it: its
    /// subtree (which ends the node store), its ancestors' ends, the arena
    /// size, the paragraph's line count and the flags of the line feed
    /// before. Valid while the source ends where the line did (`end`).
    private struct DigitLine {
        var active = false
        var end = 0
        var chunkStart = 0
        var lineStart = 0
        var paragraph = 0
        var nodes: [RawNode] = []
        var ends: [(Int, UInt32)] = []
        var arena = 0
        var lines = 0
        var flags = (false, false, -1, false, false)
    }
    @exclusivity(unchecked) private var shownDigits = DigitLine()

    private func saveDigitLine(_ p: Int32, chunkStart: Int, lineStart: Int) {
        shownDigits.active = false
        shownDigits.chunkStart = chunkStart
        shownDigits.lineStart = lineStart
        shownDigits.paragraph = Int(p)
        shownDigits.nodes.truncate(to: 0)
        shownDigits.nodes.append(contentsOf: storage.nodes[Int(p)...])
        shownDigits.ends.truncate(to: 0)
        var a = storage.nodes[Int(p)].parent
        while a >= 0 {
            shownDigits.ends.append((Int(a), storage.nodes[Int(a)].end))
            a = storage.nodes[Int(a)].parent
        }
        shownDigits.arena = storage.arena.count
        shownDigits.lines = trailingParagraphLines.count
        shownDigits.flags = lineFeedFlags
    }

    /// The next append after a digit line was shown: when its bytes (to
    /// their first line ending) keep the line a paragraph's — they decide
    /// it, or it stays digits and ends — nothing is to do; otherwise (`.`,
    /// `)`, more digits) the line is taken back, the paragraph restored as
    /// it was, and the line's bytes are appended again with these, from
    /// the line feed's state: a list item's marker takes the new-block
    /// path instead of a snapshot. Nil: go on with `bytes`.
    private func settleDigitLine(_ bytes: UnsafeBufferPointer<UInt8>) -> StreamUpdate? {
        shownDigits.active = false
        let count = storage.source.count
        guard shownDigits.end == count, stableCount == count, pending.isEmpty, !placeholderShown, !setextShown,
              trailingParagraphNode == shownDigits.paragraph, let last = trailingParagraphLines.last,
              Int(last.start) == shownDigits.lineStart, Int(last.end) == count,
              trailingParagraphLines.count == shownDigits.lines + 1 else { return nil }
        let cut = bytes.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
        var text = take(&decidedScratch)
        text.truncate(to: 0)
        text.append(contentsOf: storage.source[shownDigits.lineStart..<count])
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<cut]))
        let keep = text.withUnsafeBufferPointer {
            StreamEngine.lineDecided($0, 0, $0.count) || (cut < bytes.count && StreamEngine.digitsOnly($0, 0, $0.count))
        }
        decidedScratch = text
        if keep { return nil }
        // Take the line back.
        let p = shownDigits.paragraph
        var combined = take(&combineScratch)
        combined.truncate(to: 0)
        combined.append(contentsOf: storage.source[shownDigits.chunkStart..<count])
        combined.append(contentsOf: bytes)
        defer { combineScratch = combined }
        // (The spares' floors go below the cut first: the source from the
        // line, the nodes from the paragraph, its ancestors' ends, the
        // arena from where it was — not the whole trailing list.)
        stableCount = shownDigits.chunkStart
        reclaim(nodesFrom: p, endsOf: p, rewrites: true, arenaFrom: shownDigits.arena)
        cutSourceToStable()
        withStorage { st in
            st.nodes.truncate(to: p)
            st.nodes.append(contentsOf: shownDigits.nodes)
            for (a, end) in shownDigits.ends { st.nodes[a].end = end }
            if st.arena.count > shownDigits.arena { st.arena.truncate(to: shownDigits.arena) }
        }
        trailingParagraphLines.removeLast()
        trailingParagraphUndecided = false
        lineFeedFlags = shownDigits.flags
        leafInlineNode = -1
        leafEmitMark = EmitMark()
        leafCleanMark = EmitMark()
        hotText = -1
        wordCheckedEnd = -1
        // (The trailing block stays marked stale from the digits' show; a
        // snapshot since took the block with the line, which differs.)
        return combined.withUnsafeBufferPointer { append($0) }
    }

    /// Parses the trailing paragraph (or ATX heading) `p` again after its
    /// last line grew, or after a line was added (`newLine`), and emits it.
    /// (`newBlock`: the paragraph is new, not parsed again, and the caller
    /// reports it as a new block.)
    private func emitTrailingParagraph(_ p: Int32, previousSourceCount sourceCount: Int, newLine: Bool,
                                       newBlock: Bool = false) -> Bool {
        if !newBlock { paragraphPasses &+= 1 }
        let newCount = storage.source.count
        // (Arrays move in and out by `take` and `swap`: no reference
        // counting.)
        var nodes = take(&storage.nodes)
        // The paragraph's own inline parser: its content only grows at the
        // end while the paragraph stays the trailing leaf, so the parse
        // resumes where nothing before can change (see `parseResuming`).
        let inline = ownInlineParser(&leafInline)
        let synced = leafInlineNode == Int(p) && leafInlineLines == trailingParagraphLines.count - (newLine ? 1 : 0)
            && leafInlineSourceEnd <= (newLine ? Int(trailingParagraphLines[trailingParagraphLines.count - 2].end) : sourceCount)
            && leafInlineArenaEnd == storage.arena.count
        if synced && newLine {
            // (The plain path may have lengthened the previous line since.)
            let previous = trailingParagraphLines[trailingParagraphLines.count - 2]
            let line = trailingParagraphLines[trailingParagraphLines.count - 1]
            if leafInlineSourceEnd < Int(previous.end) {
                inline.content.append(contentsOf: storage.source[leafInlineSourceEnd..<Int(previous.end)])
            }
            inline.content.append(0x0A)
            inline.lineContentStart.append(inline.content.count)
            inline.lineSourceStart.append(Int(line.start))
            inline.content.append(contentsOf: storage.source[Int(line.start)..<newCount])
        } else if synced {
            inline.content.append(contentsOf: storage.source[leafInlineSourceEnd..<newCount])
        } else {
            resetLeafContent(inline)
            storage.source.withUnsafeBufferPointer { source in
                for (k, l) in trailingParagraphLines.enumerated() {
                    if k > 0 { inline.content.append(0x0A) }
                    inline.lineContentStart.append(inline.content.count)
                    inline.lineSourceStart.append(Int(l.start))
                    inline.content.append(contentsOf: UnsafeBufferPointer(rebasing: source[Int(l.start)..<Int(l.end)]))
                }
            }
        }
        var length = inline.content.count
        while length > 0 && isSpaceOrTab(inline.content[length - 1]) { length -= 1 }
        assert(inline.arena.isEmpty)
        swap(&inline.arena, &storage.arena)
        let resumed = inline.parseResuming(length: length)
        var marks = (emit: leafEmitMark, clean: leafCleanMark)
        storage.source.withUnsafeBufferPointer { source in
            parser.s = source
            leafNodesEmitted &+= emitLeafInlines(inline, leaf: p, synced: synced, resumed: resumed, marks: &marks, into: &nodes).visited
            parser.s = Bytes(start: nil, count: 0)
        }
        (leafEmitMark, leafCleanMark) = marks
        swap(&inline.arena, &storage.arena)
        leafInlineNode = Int(p)
        leafInlineLines = trailingParagraphLines.count
        leafInlineSourceEnd = newCount
        leafInlineArenaEnd = storage.arena.count
        var a = p
        while a >= 0 {
            nodes[Int(a)].end = UInt32(newCount)
            a = nodes[Int(a)].parent
        }
        swap(&nodes, &storage.nodes)
        return newBlock || trailingBlockChanged()
    }

    /// Emits leaf `p`'s inlines, which `inline` just parsed (`resumed`:
    /// on from its resume point), into `nodes` (with `parser.s` the
    /// source). When `synced` (the leaf's nodes are the ones the last
    /// emission left, `marks` where it left them), the nodes up to the old
    /// resume point's last node stay (a text node that went on past it
    /// cut back there) and emission goes on after that node — after the
    /// old clean point's, when a closer took an opener from before the
    /// resume point: nodes from that opener on changed. Else every node of
    /// `p`'s goes first. `marks` become this emission's. Returns how many
    /// inline nodes the emission could visit, and whether it went on
    /// after nodes it kept.
    private func emitLeafInlines(_ inline: InlineParser, leaf p: Int32, synced: Bool, resumed: Bool,
                                 marks: inout (emit: EmitMark, clean: EmitMark),
                                 into nodes: inout [RawNode]) -> (visited: Int, continued: Bool) {
        let keep = inline.touchedResumeOpeners ? marks.clean : marks.emit
        var from = inline.nodes[0].first
        var kept = Int(p) + 1
        var continueText = false
        if synced && resumed && keep.node > 0 && keep.at > Int(p) && keep.at <= nodes.count
            && Int(keep.node) < inline.nodes.count {
            keep.restore(parent: p, &nodes)
            from = inline.nodes[Int(keep.node)].next
            kept = keep.at
            continueText = true
        } else {
            nodes.removeSubrange((Int(p) + 1)...)
            nodes[Int(p)].firstChild = -1
            nodes[Int(p)].lastChild = -1
        }
        // The nodes this pass writes besides `p` and its ancestors: from the
        // kept one the emission may continue (the parent's last child then),
        // or from `p`'s first child (the callers claimed the store's end).
        leafEmitFloor = continueText && keep.top >= 0 ? min(kept, Int(keep.top)) : kept
        if !spares.isEmpty { lowerSpareNodeFloor(leafEmitFloor) }
        var mark = EmitMark()
        if inline.resumePosition > 0 && inline.resumeLast > 0 { mark.node = inline.resumeLast }
        var cleanMark = EmitMark()
        if inline.cleanPosition > 0 && inline.cleanLast > 0 { cleanMark.node = inline.cleanLast }
        parser.emitInlines(inline, from: from, parent: p, into: &nodes, mark: &mark, other: &cleanMark, continueText: continueText)
        // A point this emission started after (the resume point stayed,
        // the clean point is before it) is where the last emission left it:
        // the store up to there is the one it recorded.
        if continueText {
            for m in [marks.emit, marks.clean] where m.node > 0 && m.at > Int(p) && m.at <= kept {
                if mark.at < 0 && mark.node == m.node { mark = m }
                if cleanMark.at < 0 && cleanMark.node == m.node { cleanMark = m }
            }
        }
        marks = (mark, cleanMark)
        return (inline.nodes.count - (continueText ? Int(keep.node) : 0), continueText)
    }

    /// The lowest node the last `emitLeafInlines` wrote besides its leaf
    /// and the leaf's ancestors.
    @exclusivity(unchecked) private var leafEmitFloor = 0

    /// Empties a leaf's own inline parser for a parse from the leaf's start.
    @inline(__always)
    private func resetLeafContent(_ inline: InlineParser) {
        inline.labels = parser.labels
        inline.content.truncate(to: 0)
        inline.lineContentStart.truncate(to: 0)
        inline.lineSourceStart.truncate(to: 0)
        inline.resumePosition = 0
    }

    /// A leaf's own inline parser in `slot`, made on first use.
    @inline(__always)
    private func ownInlineParser(_ slot: inout InlineParser?) -> InlineParser {
        if let l = slot { return l }
        let inline = InlineParser(options: options, labels: parser.labels)
        slot = inline
        return inline
    }

    /// The trailing paragraph's own inline parser (`appendToParagraphLine`)
    /// and what its content was synced with: the paragraph's node, its line
    /// count, the source and arena lengths (`leafInlineNode` -1: nothing).
    @exclusivity(unchecked) private(set) var leafInline: InlineParser? = nil
    @exclusivity(unchecked) private var leafInlineNode = -1
    @exclusivity(unchecked) private var leafInlineLines = 0
    @exclusivity(unchecked) private var leafInlineSourceEnd = 0
    @exclusivity(unchecked) private var leafInlineArenaEnd = 0
    /// After which inline node the next emission of that paragraph may
    /// start (the inline parser's resume point's last node), and the store
    /// there (`EmitMark`; `at` -1: nowhere).
    @exclusivity(unchecked) private var leafEmitMark = EmitMark()
    /// How many inline nodes the emissions of the trailing paragraph could
    /// visit: those the parse made after the node emission went on from
    /// (tests check that it grows with the text, not with text × appends).
    @exclusivity(unchecked) private(set) var leafNodesEmitted = 0
    /// The same for the inline parser's clean point (see `InlineParser`).
    @exclusivity(unchecked) private var leafCleanMark = EmitMark()

    /// The trailing table, when the partial last line is a body row of it
    /// whose block structure is decided: the table's node (0: none), the
    /// node of the row before, the row's line and the table's alignments.
    @exclusivity(unchecked) private var trailingTableNode = 0
    @exclusivity(unchecked) private var trailingPreviousRow: Int32 = -1
    @exclusivity(unchecked) private var trailingRow = Line(start: 0, end: 0)
    /// How many cells of the trailing row a pipe closes, as the table-row
    /// fast paths last split it (-1: not known, after a snapshot), and where
    /// the row's text after its last pipe starts.
    @exclusivity(unchecked) private var trailingRowClosed = -1
    @exclusivity(unchecked) private var trailingRowOpenStart = 0

    /// Just after the last unescaped pipe of a row's text.
    static func afterLastPipe(_ s: Bytes, _ start: Int, _ end: Int) -> Int {
        var last = start
        var k = start
        while k < end {
            if s[k] == UInt8(ascii: "\\") && k + 1 < end {
                k += 2
                continue
            }
            if s[k] == UInt8(ascii: "|") { last = k + 1 }
            k += 1
        }
        return last
    }
    @exclusivity(unchecked) private var trailingAlignments: [TableAlignment] = []

    private func recordTrailingRow(_ p: BlockParser, partialLineStart: Int, sourceCount: Int) {
        trailingTableNode = 0
        let tip = p.tip
        let blk = p.blocks[Int(tip)]
        guard blk.kind == .table, blk.lineCount >= 2, partialLineStart < sourceCount else { return }
        let row = p.lines[Int(blk.firstLine) + Int(blk.lineCount) - 1]
        guard Int(row.start) >= partialLineStart, Int(row.end) == sourceCount, row.pad == 0,
              p.s[Int(row.start)] == UInt8(ascii: "|") || StreamEngine.lineDecided(p.s, Int(row.start), sourceCount)
        else { return }
        trailingRow = row
        trailingRowClosed = -1
        trailingAlignments = p.tableAlignments[Int(blk.extra)]
        trailingTableNode = -1  // the node index is known once the tail is emitted
    }

    /// The fourth fast path: a chunk without a line ending added to the
    /// trailing table's last row, when that row's structure is decided:
    /// only that row is emitted again, not the table.
    private func appendToTableRow(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard trailingTableNode > 0, !bytes.isEmpty, bytes.count <= 4096, !lastTailIDs.isEmpty else { return false }
        for b in bytes where b == 0x0A || b == 0x0D || b == 0 { return false }
        guard let row = trailingTableRow(endingAt: storage.source.count), Normalizer.isClean(bytes),
              lastLabels.footnoteCount == 0 || rowHoldsNoFootnote(row, bytes) else { return false }
        // Plain bytes, then a pipe: the plain bytes extend the open cell's
        // text (`appendPlainText`; the row, its node and its state stay as
        // this path needs them), and the pipe and what follows close it and
        // start the next (`appendToEmptyCell`), or go this way.
        var bytes = bytes
        if let p = bytes.firstIndex(of: UInt8(ascii: "|")), p > 0, appendPlainText(UnsafeBufferPointer(rebasing: bytes[..<p])) {
            bytes = UnsafeBufferPointer(rebasing: bytes[p...])
            if appendToEmptyCell(bytes) { return true }
        }
        // (The row pass writes the row and what follows it, and the ends
        // of the table and its ancestors; it only adds to the arena.)
        reclaim(nodesFrom: row, endsOf: row)
        let oldEnd = Int(trailingRow.end)
        storage.source.append(contentsOf: bytes)
        stableCount = storage.source.count
        emitRowTail(row: row, oldEnd: oldEnd, pipeless: !bytes.contains(UInt8(ascii: "|")) && !bytes.contains(UInt8(ascii: "\\")))
        return trailingBlockChanged()
    }

    /// The node of the trailing table's last row, when the table (not
    /// settled) and the row end at `end`, the source's end, and the row
    /// follows the row before it as the last snapshot recorded them.
    @inline(__always)
    private func trailingTableRow(endingAt end: Int) -> Int? {
        let t = trailingTableNode
        guard t > 0, t < storage.nodes.count, t >= settledNodeCount, storage.nodes[t].kind == .table,
              Int(storage.nodes[t].end) == end, Int(trailingRow.end) == end else { return nil }
        let row = Int(storage.nodes[t].lastChild)
        guard row > t, trailingPreviousRow > Int32(t), storage.nodes[Int(trailingPreviousRow)].next == Int32(row) else { return nil }
        return row
    }

    /// After the trailing table's last row `row` changed from `oldEnd` to
    /// the source's end: its cells from the first one whose range may have
    /// moved are split and emitted again, and the row and its ancestors end
    /// there. (`pipeless`: the bytes past `oldEnd` are new, with no pipe or
    /// backslash; false when the row was cut.)
    private func emitRowTail(row: Int, oldEnd: Int, pipeless: Bool) {
        rowPasses &+= 1
        let t = trailingTableNode
        let newCount = storage.source.count
        trailingRow.end = Int32(newCount)
        emittingCells { nodes, inline, source in
            // Cells that end before the new bytes keep their range, and so
            // their nodes (a cell's inlines are its own): only the cells
            // from the first one whose range moved are emitted again.
            let start = Int(trailingRow.start)
            var cells = take(&rowCellsScratch)
            defer { rowCellsScratch = cells }
            var first = 0
            var offset = 0
            let pipeFree = pipeless && trailingRowClosed >= 0 ? openCellPipeFreeEnd(row: row, end: oldEnd) : -1
            if pipeFree >= 0 {
                // The open cell the last pass emitted, longer: no pipe or
                // backslash came since (its start is where it was; no split).
                var e = newCount
                while e > openCellStart && isSpaceOrTab(source[e - 1]) { e -= 1 }
                cells.truncate(to: 0)
                cells.append((openCellStart, e))
                first = min(trailingRowClosed, trailingAlignments.count)
                offset = trailingRowClosed
            } else if trailingRowClosed > 0 {
                // The cells that a pipe of the row before the new bytes
                // closed keep their ranges (whatever the new bytes are, even
                // a pipe after a backslash there): only the open one and
                // the ones after it are split and emitted again.
                let (endsAtPipe, openStart) = BlockParser.splitRowTail(source, trailingRowOpenStart, newCount, into: &cells)
                rowBytesSplit &+= newCount - trailingRowOpenStart
                first = min(trailingRowClosed, trailingAlignments.count)
                offset = trailingRowClosed
                if first == offset && !cells.isEmpty && (endsAtPipe || cells.count >= 2) && newCount > oldEnd {
                    // A pipe closed the open cell: when its range is the one
                    // the row showed (nothing but spaces came before the
                    // pipe), its nodes stay as they are.
                    var cell = nodes[row].firstChild
                    for _ in 0..<first where cell >= 0 { cell = nodes[Int(cell)].next }
                    if cell >= 0 && nodes[Int(cell)].next < 0 && Int(nodes[Int(cell)].start) == cells[0].0
                        && Int(nodes[Int(cell)].end) == cells[0].1 && cells[0].1 > cells[0].0 {
                        first = min(first + 1, trailingAlignments.count)
                    }
                }
                trailingRowClosed += endsAtPipe ? cells.count : cells.count - 1
                trailingRowOpenStart = openStart
            } else {
                let endsAtPipe = BlockParser.splitRow(source, start, newCount, into: &cells)
                rowBytesSplit &+= newCount - start
                if trailingRowClosed < 0 && oldEnd > start && pipeless && source[oldEnd - 1] != UInt8(ascii: "\\") {
                    // Every pipe is before the new bytes: the cells a pipe
                    // ends are the ones the row had.
                    first = min(endsAtPipe ? cells.count : cells.count - 1, trailingAlignments.count)
                }
                trailingRowClosed = endsAtPipe ? cells.count : max(0, cells.count - 1)
                trailingRowOpenStart = trailingRowClosed > 0 ? StreamEngine.afterLastPipe(source, start, newCount) : start
            }
            nodes[row].end = UInt32(newCount)
            // Only the open cell changed, and as more of its text: its
            // inlines are parsed on from where the last pass left them.
            // (The cells a pipe closed keep their nodes; so does the row's
            // first cell while no pipe has come: the row is not split
            // again, see `openCellPipeFreeEnd`.)
            if first == offset && first < trailingAlignments.count && cells.count == 1
                && trailingRowClosed == offset && cells[0].1 > cells[0].0
                && emitOpenCell(row: row, column: first, range: cells[0], rowEnd: newCount, nodes: &nodes, arena: &inline.arena,
                                source: source) {
                return
            }
            forgetOpenCell()
            if first == 0 {
                nodes.truncate(to: (row + 1))
                nodes[row].firstChild = -1
                nodes[row].lastChild = -1
            } else {
                var cell = nodes[row].firstChild
                for _ in 1..<first { cell = nodes[Int(cell)].next }
                let next = nodes[Int(cell)].next
                if next >= 0 { nodes.truncate(to: Int(next)) }
                nodes[Int(cell)].next = -1
                nodes[row].lastChild = cell
            }
            parser.emitTableCells(cells, from: first, rowEnd: newCount, aligns: trailingAlignments, row: Int32(row),
                                  into: &nodes, inline: inline, cellsFrom: offset)
        }
        storage.nodes.withUnsafeMutableBufferPointer { nodes in
            var a = Int32(t)
            while a >= 0 {
                nodes[Int(a)].end = UInt32(newCount)
                a = nodes[Int(a)].parent
            }
        }
    }

    /// The trailing row's open cell, whose inlines `emitOpenCell` parses
    /// with a parser of its own (`cellInline`), resuming where the last
    /// pass left them while the cell only grows: the row's and the cell's
    /// nodes, the cell's first content byte, the source and arena lengths
    /// the parser's content and the emission marks were synced with
    /// (`openCellRow` -1: nothing). Forgotten whenever anything else
    /// emits the row or cuts the source (`forgetOpenCell`).
    @exclusivity(unchecked) private var cellInline: InlineParser? = nil
    @exclusivity(unchecked) private var openCellRow = -1
    @exclusivity(unchecked) private var openCellNode = -1
    @exclusivity(unchecked) private var openCellStart = 0
    @exclusivity(unchecked) private var openCellSourceEnd = 0
    @exclusivity(unchecked) private var openCellArenaEnd = 0
    @exclusivity(unchecked) private var openCellEmitMark = EmitMark()
    @exclusivity(unchecked) private var openCellCleanMark = EmitMark()
    /// Row passes that went on from the open cell's resume point, and the
    /// inline nodes those emissions could visit (for tests).
    @exclusivity(unchecked) private(set) var openCellResumes = 0
    @exclusivity(unchecked) private(set) var openCellNodesEmitted = 0

    @inline(__always)
    private func forgetOpenCell() {
        openCellRow = -1
    }

    /// Where the last pass over the open cell of row `row` left it (its
    /// bytes then, from the row's last pipe on, held no pipe: the pass
    /// checked), when that is still the row's open cell — after a pipe
    /// that closed one (`trailingRowOpenStart` just after it), or the
    /// row's first cell — and the bytes since, up to `end`, hold no pipe
    /// or backslash either; else -1.
    private func openCellPipeFreeEnd(row: Int, end: Int) -> Int {
        guard openCellRow == row, trailingRowClosed >= 0, openCellStart >= trailingRowOpenStart, openCellSourceEnd <= end,
              openCellSourceEnd <= stableCount else { return -1 }
        return storage.source.withUnsafeBufferPointer { s in
            for k in openCellSourceEnd..<end where s[k] == UInt8(ascii: "|") || s[k] == UInt8(ascii: "\\") { return -1 }
            return openCellSourceEnd
        }
    }

    /// Emits the open cell (column `column` of `row`, content `range`,
    /// after every cell a pipe closed) and the empty cells that fill up
    /// the row after it, parsing the cell's inlines with `cellInline`:
    /// from its resume point when the cell is the one the last pass
    /// emitted and only bytes without a pipe came since (the cell's other
    /// bytes are as they were), else from its start. False, having changed
    /// nothing, when the cell holds a pipe (an escaped one: its content is
    /// not its bytes) or its node is not where the row's cells say.
    private func emitOpenCell(row: Int, column: Int, range: (Int, Int), rowEnd: Int, nodes: inout [RawNode],
                              arena: inout [UInt8], source: Bytes) -> Bool {
        // The open cell's node: the row's child after the closed cells.
        var cell = nodes[row].firstChild
        for _ in 0..<column where cell >= 0 { cell = nodes[Int(cell)].next }
        guard cell > Int32(row), nodes[Int(cell)].kind == .tableCell, nodes[Int(cell)].parent == Int32(row) else { return false }
        let c = Int(cell)
        // (The bytes the parser's content has are the source's while they
        // are stable: below `stableCount` bytes never change.)
        let synced = openCellRow == row && openCellNode == c && openCellStart == range.0 && openCellSourceEnd >= range.0
            && openCellSourceEnd <= rowEnd && openCellSourceEnd <= stableCount && openCellArenaEnd == arena.count
            && Int(nodes[c].start) == range.0
        let checkFrom = synced ? openCellSourceEnd : range.0
        for k in checkFrom..<rowEnd where source[k] == UInt8(ascii: "|") { return false }
        let inline = ownInlineParser(&cellInline)
        if synced {
            inline.content.append(contentsOf: UnsafeBufferPointer(rebasing: source[openCellSourceEnd..<rowEnd]))
        } else {
            resetLeafContent(inline)
            inline.lineContentStart.append(0)
            inline.lineSourceStart.append(range.0)
            inline.content.append(contentsOf: UnsafeBufferPointer(rebasing: source[range.0..<rowEnd]))
        }
        assert(inline.arena.isEmpty)
        swap(&inline.arena, &arena)
        defer { swap(&inline.arena, &arena) }
        let resumed = inline.parseResuming(length: range.1 - range.0)
        var marks = (emit: openCellEmitMark, clean: openCellCleanMark)
        let emitted = emitLeafInlines(inline, leaf: cell, synced: synced, resumed: resumed, marks: &marks, into: &nodes)
        (openCellEmitMark, openCellCleanMark) = marks
        openCellNodesEmitted &+= emitted.visited
        if emitted.continued { openCellResumes &+= 1 }
        nodes[c].start = UInt32(range.0)
        nodes[c].end = UInt32(range.1)
        nodes[c].next = -1
        nodes[row].lastChild = cell
        // The empty cells that fill up the row.
        for col in (column + 1)..<max(column + 1, trailingAlignments.count) {
            var filler = RawNode(kind: .tableCell, start: rowEnd, end: rowEnd)
            filler.small = UInt16(trailingAlignments[col].rawValue)
            _ = BlockParser.appendNode(filler, parent: Int32(row), into: &nodes)
        }
        openCellRow = rowEnd <= stableCount ? row : -1
        openCellNode = c
        openCellStart = range.0
        openCellSourceEnd = rowEnd
        openCellArenaEnd = inline.arena.count
        return true
    }

    /// Runs `body` with the document's nodes taken out of the storage, an
    /// inline parser that holds the arena, and the source (the block
    /// parser's too), as table cells are emitted; then puts them back.
    private func emittingCells(_ body: (inout [RawNode], InlineParser, Bytes) -> Void) {
        var nodes = take(&storage.nodes)
        let inline = inlineParser(parser)
        assert(inline.arena.isEmpty)
        swap(&inline.arena, &storage.arena)
        storage.source.withUnsafeBufferPointer { source in
            parser.s = source
            body(&nodes, inline, source)
            parser.s = Bytes(start: nil, count: 0)
        }
        swap(&inline.arena, &storage.arena)
        swap(&nodes, &storage.nodes)
    }

    @exclusivity(unchecked) private var rowCellsScratch: [(Int, Int)] = []

    /// The trailing paragraph, when the partial last line is its last line
    /// and that line's block structure is decided whatever follows on it:
    /// its node index (0: none) and its content lines.
    @exclusivity(unchecked) private var trailingParagraphNode = 0
    /// Whether the trailing paragraph's last line was not decided when the
    /// last snapshot recorded it (see `recordTrailingParagraph`).
    @exclusivity(unchecked) private var trailingParagraphUndecided = false
    /// What the trailing paragraph's last line may follow (`lineDecided`'s
    /// `context`); set with `trailingParagraphUndecided` by
    /// `recordTrailingParagraph`.
    @exclusivity(unchecked) private var trailingParagraphContext = LineContext.anyContainer
    @exclusivity(unchecked) private var decidedScratch: [UInt8] = []

    /// Whether the trailing paragraph's last line, with `bytes` appended, is
    /// decided (`lineDecided`): always when it was decided already;
    /// otherwise checked, and remembered once it is.
    private func leafLineDecided(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard trailingParagraphUndecided else { return true }
        guard let line = trailingParagraphLines.last else { return false }
        if undecidedMathLine == Int(line.start) {
            // (Known to start like display math: only a `$` or `]` can
            // change that; see below.)
            for b in bytes where b == UInt8(ascii: "$") || b == UInt8(ascii: "]") { return false }
            return true
        }
        let (lineStart, lineEnd) = (Int(line.start), Int(line.end))
        if pipeRowMemo.undecidedLine == lineStart && pipeRowMemo.undecidedEnd == lineEnd && lineEnd <= stableCount {
            // A row that may still become a delimiter row under the line
            // before (its bytes so far leave it undecided): only the new
            // bytes are looked at, and the row's from its last counted pipe
            // on — what the rest of this function finds for such a row.
            for b in bytes where !StreamEngine.leavesLineUndecided(b) {
                trailingParagraphUndecided = false
                return true
            }
            pipeRowMemo.undecidedEnd = lineEnd + bytes.count
            guard let header = pipeRowHeader else { return false }
            let from = pipeRowResume(rowStart: lineStart, end: lineEnd)
            decidedScratch.truncate(to: 0)
            decidedScratch.append(contentsOf: storage.source[from..<lineEnd])
            decidedScratch.append(contentsOf: bytes)
            return decidedScratch.withUnsafeBufferPointer {
                pipeLineStaysParagraph($0, 0, $0.count, header: header, rowStart: lineStart, textStart: from)
            }
        }
        decidedScratch.truncate(to: 0)
        decidedScratch.append(contentsOf: storage.source[lineStart..<lineEnd])
        decidedScratch.append(contentsOf: bytes)
        let decided = decidedScratch.withUnsafeBufferPointer {
            StreamEngine.lineDecided($0, 0, $0.count, context: trailingParagraphContext)
        }
        if decided {
            trailingParagraphUndecided = false
            return true
        }
        // (Digits alone start no block.)
        if decidedScratch.withUnsafeBufferPointer({ StreamEngine.digitsOnly($0, 0, $0.count) }) { return true }
        // (Nor `[` on a line after the paragraph's first, but `[^`.)
        if trailingParagraphLines.count >= 2,
           decidedScratch.withUnsafeBufferPointer({ bracketLineContinuesParagraph($0, 0, $0.count) }) {
            trailingParagraphUndecided = false
            return true
        }
        // A line that starts like display math (`$$`, `\[`, `\\[`) is a
        // math block only once its closer ends it (or when the opener is
        // alone on it): a paragraph line so far stays one while no byte that
        // ends a closer (`$`, `]`) arrives.
        // (The opener must be whole already: `\\` then `[` makes one.)
        if let header = pipeRowHeader {
            if decidedScratch[0] == UInt8(ascii: "|") {
                pipeRowMemo.undecidedLine = lineStart
                pipeRowMemo.undecidedEnd = lineEnd + bytes.count
            }
            if decidedScratch.withUnsafeBufferPointer({
                pipeLineStaysParagraph($0, 0, $0.count, header: header, rowStart: lineStart, textStart: lineStart)
            }) {
                return true
            }
        }
        guard lineStart + 1 < lineEnd else { return false }
        let c0 = storage.source[lineStart], c1 = storage.source[lineStart + 1]
        let c2 = lineStart + 2 < lineEnd ? storage.source[lineStart + 2] : 0
        guard (c0 == UInt8(ascii: "$") && c1 == UInt8(ascii: "$"))
                || (c0 == UInt8(ascii: "\\") && c1 == UInt8(ascii: "["))
                || (c0 == UInt8(ascii: "\\") && c1 == UInt8(ascii: "\\") && c2 == UInt8(ascii: "["))
        else { return false }
        for b in bytes where b == UInt8(ascii: "$") || b == UInt8(ascii: "]") { return false }
        undecidedMathLine = lineStart
        return true
    }
    @exclusivity(unchecked) private var trailingParagraphLines: [Line] = []
    /// The start of the trailing paragraph's last line when `leafLineDecided`
    /// found it starts like display math (-1: none): later appends need
    /// not copy it again. Dropped when the paragraph is recorded again or
    /// the source cut.
    @exclusivity(unchecked) private var undecidedMathLine = -1

    /// Whether `line[start..<end]`, a line of the trailing top-level
    /// paragraph after its line `header`, is a line of that paragraph as it
    /// is although `lineDecided` does not decide it: it starts with `|`, and
    /// it is not a delimiter row of as many cells as `header` has (which
    /// would make `header` a table's). Only a pipe adds a cell, and `-`,
    /// `:`, spaces or a pipe may complete the row: each append checks the
    /// line again (`leafLineDecided`, which looks only at the new bytes
    /// while the row may still become a delimiter row, see `pipeRowMemo`),
    /// and the plain path keeps no hot text for it.
    ///
    /// `rowStart` (when the bytes are the source's, or a copy of them): the
    /// source offset of the row's leading pipe; `line[start]` is at
    /// `textStart` in the source, the row's start or where the cells
    /// `pipeRowMemo` counted end (`pipeRowResume`).
    private func pipeLineStaysParagraph(_ line: Bytes, _ start: Int, _ end: Int, header: Line,
                                        rowStart: Int = -1, textStart: Int = -1) -> Bool {
        guard options.contains(.table), start < end, header.pad == 0,
              let first = trailingParagraphLines.first, first.pad == 0 else { return false }
        guard textStart > rowStart || line[start] == UInt8(ascii: "|") else { return false }
        return storage.source.withUnsafeBufferPointer { source in
            // (A paragraph that may start with a definition can lose lines
            // when it closes: not here.)
            guard !StreamEngine.mayStartDefinition(source, first) else { return false }
            let headerCells = pipeRowHeaderCells(source, header)
            pipeRowBytesSplit &+= end - start
            guard rowStart >= 0 else {
                guard let aligns = BlockParser.delimiterRow(line, start, end) else { return true }
                return headerCells != aligns.count
            }
            let text = UnsafeBufferPointer(rebasing: line[start..<end])
            guard let cells = delimiterRowCells(text, at: textStart, rowStart: rowStart) else { return true }
            return headerCells != cells
        }
    }

    /// The line before the trailing paragraph's last, when the paragraph is
    /// a top-level one of two lines or more: the header a delimiter row
    /// typed as its last line would make it a table's.
    private var pipeRowHeader: Line? {
        guard trailingParagraphLines.count >= 2, trailingParagraphNode > 0, trailingParagraphNode < storage.nodes.count,
              storage.nodes[trailingParagraphNode].parent == 0 else { return nil }
        return trailingParagraphLines[trailingParagraphLines.count - 2]
    }

    /// What `pipeLineStaysParagraph` learned of the last header and
    /// delimiter row it looked at, in source offsets (bytes below
    /// `stableCount` never change): the cell count of the header
    /// `headerStart..<headerEnd`; of the row whose leading pipe is at
    /// `rowStart`, the cells its pipes closed up to `closedEnd` (just past
    /// the last such pipe) — `closedCells` delimiter cells, or one that is
    /// none (`closedInvalid`: the row never becomes a delimiter row); and
    /// that the bytes of the line that starts at `undecidedLine` (with a
    /// pipe) are, up to `undecidedEnd`, all ones `lineDecided` leaves
    /// undecided (`leavesLineUndecided`), so that an append need look only
    /// at its own bytes.
    private struct PipeRowMemo {
        var headerStart = -1, headerEnd = -1, headerCells = 0
        var rowStart = -1, closedEnd = -1, closedCells = 0
        var closedInvalid = false
        var undecidedLine = -1, undecidedEnd = -1
    }
    @exclusivity(unchecked) private var pipeRowMemo = PipeRowMemo()

    /// The number of cells of the header row `header` (kept while its bytes
    /// are stable).
    private func pipeRowHeaderCells(_ source: Bytes, _ header: Line) -> Int {
        let (a, b) = (Int(header.start), Int(header.end))
        if pipeRowMemo.headerStart == a && pipeRowMemo.headerEnd == b && b <= stableCount { return pipeRowMemo.headerCells }
        var cells = take(&rowCellsScratch)
        defer { rowCellsScratch = cells }
        BlockParser.splitRow(source, a, b, into: &cells)
        pipeRowBytesSplit &+= b - a
        pipeRowMemo.headerStart = a
        pipeRowMemo.headerEnd = b
        pipeRowMemo.headerCells = cells.count
        return cells.count
    }

    /// Where the row whose leading pipe is at `rowStart` must be given
    /// from to `delimiterRowCells` (in the source): the end of the cells
    /// `pipeRowMemo` counted, when they are the row's and stable (none
    /// when the row has reached `end` only); else the row's start.
    private func pipeRowResume(rowStart: Int, end: Int) -> Int {
        let m = pipeRowMemo
        guard m.rowStart == rowStart, m.closedEnd > rowStart, m.closedEnd <= end, m.closedEnd <= stableCount else { return rowStart }
        return m.closedEnd
    }

    /// The number of cells of a row that starts with a pipe at `rowStart`
    /// in the source when it is a delimiter row (`BlockParser.delimiterRow`),
    /// else nil. `text`: its bytes from `textStart` (`pipeRowResume`) to its
    /// end so far. The cells its pipes close are split once, as they arrive
    /// (a delimiter cell holds no backslash: a row with an escaped pipe is
    /// none, however it is split).
    private func delimiterRowCells(_ text: Bytes, at textStart: Int, rowStart: Int) -> Int? {
        var from = 0
        var closed = 0
        if textStart > rowStart {
            let m = pipeRowMemo
            guard m.rowStart == rowStart, m.closedEnd == textStart else { return nil }
            if m.closedInvalid { return nil }
            closed = m.closedCells
        } else {
            // (After the leading pipe.)
            from = 1
        }
        let end = text.count
        var last = end - 1
        while last >= from && text[last] != UInt8(ascii: "|") { last -= 1 }
        if last >= from {
            // The cells the new pipes close, after the leading pipe or the
            // last pipe counted (an empty cell, `||`, is no delimiter cell).
            var k = from
            while k < last && isSpaceOrTab(text[k]) { k += 1 }
            let cells = text[k] == UInt8(ascii: "|") ? nil : BlockParser.delimiterRow(text, from, last + 1)
            pipeRowMemo.rowStart = rowStart
            pipeRowMemo.closedEnd = textStart + last + 1
            guard let cells else {
                pipeRowMemo.closedInvalid = true
                return nil
            }
            closed += cells.count
            pipeRowMemo.closedCells = closed
            pipeRowMemo.closedInvalid = false
            from = last + 1
        }
        // The text after the last pipe: nothing but spaces (the row ends at
        // that pipe), or one more delimiter cell.
        var k = from
        while k < end && isSpaceOrTab(text[k]) { k += 1 }
        if k < end {
            guard BlockParser.delimiterRow(text, from, end) != nil else { return nil }
            closed += 1
        }
        return closed > 0 ? closed : nil
    }

    /// Called with the partial line processed and before the blocks close.
    private func recordTrailingParagraph(_ p: BlockParser, partialLineStart: Int, sourceCount: Int) {
        trailingParagraphNode = 0
        trailingParagraphUndecided = false
        trailingParagraphContext = .anyContainer
        undecidedMathLine = -1
        trailingParagraphLines.truncate(to: 0)
        let tip = p.tip
        let blk = p.blocks[Int(tip)]
        if blk.kind == .heading && !blk.setext && blk.lineCount == 1 && Int(blk.start) >= partialLineStart {
            // An ATX heading on the partial line: decided once it is one.
            // Without a `#` after its content starts, no closing sequence
            // can trim it, so its content is the rest of the line.
            let line = p.lines[Int(blk.firstLine)]
            // (Content must have begun: `#` alone may still become `#5`.)
            guard line.start < line.end, Int(line.end) <= sourceCount else { return }
            for k in Int(line.start)..<sourceCount where p.s[k] == UInt8(ascii: "#") { return }
            trailingParagraphLines.append(Line(start: Int(line.start), end: sourceCount))
            trailingParagraphNode = -1
            return
        }
        guard blk.kind == .paragraph, blk.lineCount > 0, partialLineStart < sourceCount else { return }
        let first = Int(blk.firstLine)
        let lastLine = p.lines[first + Int(blk.lineCount) - 1]
        guard Int(lastLine.start) >= partialLineStart, Int(lastLine.end) == sourceCount, lastLine.pad == 0,
              !StreamEngine.mayStartDefinition(p.s, p.lines[first]),
              Int(lastLine.start) < sourceCount else { return }
        // A line that is a paragraph line now but may still become something
        // else (`**`, `1`, `$$x`) is recorded too: the fast paths take it
        // once the bytes appended make it decided (`leafLineDecided`).
        // (What the paragraph's parent is says what its first line may
        // follow: in the document `[x] ` and `[!NOTE]` are text.)
        trailingParagraphContext = LineContext(parent: p.blocks[Int(blk.parent)].kind)
        trailingParagraphUndecided = !StreamEngine.lineDecided(p.s, Int(lastLine.start), sourceCount,
                                                               context: trailingParagraphContext)
        // Only a paragraph that starts on the undecided line: with lines
        // before it, the snapshot may have read the line as a setext
        // underline and taken definitions out of the paragraph early (the
        // `stream` fuzz target: ` [ref]: /u\(` then `-` then `o`).
        // (Not a line that starts with `[`: it can be neither an underline
        // nor a delimiter row, and as a line after the first it continues
        // the paragraph once its second byte is not `^`, `leafLineDecided`.)
        if trailingParagraphUndecided && (blk.lineCount != 1 || Int(blk.start) < partialLineStart)
            && !(blk.lineCount > 1 && p.s[Int(lastLine.start)] == UInt8(ascii: "[")) {
            trailingParagraphUndecided = false
            return
        }
        trailingParagraphLines.append(contentsOf: p.lines[first..<(first + Int(blk.lineCount))])
        trailingParagraphNode = -1  // the node index is known once the tail is emitted
    }

    /// Whether a paragraph's first line may begin a link reference
    /// definition (its first byte after spaces and tabs is `[`, and its
    /// bytes so far do not rule one out): then closing the paragraph can
    /// take lines out of it, and the fast paths, which parse its lines as
    /// they are, must not be used. (A paragraph that starts with a link,
    /// `[1]` or `[x] ` cannot: it streams like any other, not by a snapshot
    /// of itself per append.)
    static func mayStartDefinition(_ s: Bytes, _ line: Line) -> Bool {
        var i = Int(line.start)
        while i < Int(line.end) && isSpaceOrTab(s[i]) { i += 1 }
        return i < Int(line.end) && s[i] == UInt8(ascii: "[")
            && !labelRulesOutDefinition(s, i, Int(line.end), strict: false)
    }

    /// For a line whose content starts with `[` at `start`: whether its
    /// bytes up to `end` rule out, whatever is appended to the line, that a
    /// link reference definition or a footnote definition starts there.
    /// As `LinkScan.label` reads a label: it closes and the byte after `]`
    /// is not `:`, or it cannot close (a `[` inside it, more than 999
    /// bytes). A label that reaches `end` (it may close on a later line, an
    /// escape may follow a final backslash) rules out nothing. `strict`
    /// (the line's block structure, `lineDecided`) also rules out the
    /// other blocks a `[` may begin: after `]`, spaces and tabs must be
    /// followed by more (`[!NOTE] ` may still end its line and make its
    /// quote an alert), and a task's box (`[ ]`, `[x]`, `[X]` then a space
    /// or tab) stays undecided (after a list marker it is not text).
    /// A box follows only a list item's marker, an alert's marker only a
    /// `>`: `context` says which may precede the line (`LineContext`), and
    /// `]` then a space or tab rules out the rest of what is not possible.
    static func labelRulesOutDefinition(_ s: Bytes, _ start: Int, _ end: Int, strict: Bool,
                                        context: LineContext = .anyContainer) -> Bool {
        // `[^`: a footnote's definition too, whose label the block parser
        // reads its own way (up to `]`, a space or a tab; `[` and
        // backslashes in it), when footnotes are on.
        if start + 1 < end && s[start + 1] == UInt8(ascii: "^") && !footnoteLabelRulesOutDefinition(s, start, end) {
            return false
        }
        var i = start + 1
        while i < end {
            if i - start - 1 > LinkScan.maxLabelLength { return true }
            let b = s[i]
            if b == UInt8(ascii: "]") {
                guard i + 1 < end else { return false }
                let c = s[i + 1]
                if c == UInt8(ascii: ":") { return false }
                guard strict, isSpaceOrTab(c) else { return true }
                if i == start + 2 && (s[start + 1] == 0x20 || s[start + 1] | 0x20 == UInt8(ascii: "x")) {
                    return context == .quote || context == .document
                }
                guard s[start + 1] == UInt8(ascii: "!"), context == .quote || context == .anyContainer else { return true }
                var k = i + 1
                while k < end && isSpaceOrTab(s[k]) { k += 1 }
                return k < end
            }
            if b == UInt8(ascii: "[") { return true }
            if b == UInt8(ascii: "\\") {
                guard i + 1 < end else { return false }
                if isASCIIPunctuation(s[i + 1]) {
                    i += 2
                    continue
                }
            }
            i += 1
        }
        return false
    }

    /// For a line whose content starts with `[^` at `start`: whether its
    /// bytes rule out a footnote's definition there, as
    /// `footnoteDefinitionStart` reads one (a label of one byte or more up
    /// to `]`, then `:`): a space or tab before `]`, an empty label, a
    /// label too long, or a byte after `]` that is not `:`.
    static func footnoteLabelRulesOutDefinition(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        let labelStart = start + 2
        var i = labelStart
        while i < end {
            let b = s[i]
            if b == UInt8(ascii: "]") {
                guard i > labelStart else { return true }
                return i + 1 < end && s[i + 1] != UInt8(ascii: ":")
            }
            if isSpaceOrTab(b) { return true }
            if i - labelStart > LinkScan.maxLabelLength { return true }
            i += 1
        }
        return false
    }

    /// Whether a line of a paragraph after its first, its content at
    /// `start`, is one whatever is appended to it because it starts with
    /// `[`: a link reference definition cannot interrupt a paragraph, a
    /// footnote's (`[^`, when footnotes are on) can.
    func bracketLineContinuesParagraph(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        guard start < end, s[start] == UInt8(ascii: "[") else { return false }
        return !options.contains(.footnotes) || (start + 1 < end && s[start + 1] != UInt8(ascii: "^"))
    }

    /// Whether `s[start..<end]` is one or more ASCII digits and nothing
    /// else: a line that starts no block (a list item needs its `.` or `)`).
    static func digitsOnly(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        for i in start..<end where !isASCIIDigit(s[i]) { return false }
        return true
    }

    /// Bytes that leave a line undecided for `lineDecided` whatever else
    /// it holds: a line of only these may be a thematic break, a setext
    /// underline or a table's delimiter row.
    @inline(__always)
    static func leavesLineUndecided(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "|"), UInt8(ascii: "-"), UInt8(ascii: ":"), 0x20, 0x09,
             UInt8(ascii: "="), UInt8(ascii: "*"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// Whether the block structure of a paragraph line whose content (after
    /// container markers and indentation) starts at `start` is decided: no
    /// bytes appended to it (without a line ending) can make it a thematic
    /// break, a setext underline, a table delimiter row, a list item, a
    /// heading, a fence, an HTML block, a math block or a definition.
    /// `context`: what the line may begin right after (a list item's marker
    /// may make `[x] ` a task's box, a `>` `[!NOTE]` an alert's marker).
    static func lineDecided(_ s: Bytes, _ start: Int, _ end: Int, context: LineContext = .anyContainer) -> Bool {
        guard start < end else { return false }
        var other = false
        for i in start..<end where !leavesLineUndecided(s[i]) {
            other = true
            break
        }
        guard other else { return false }
        let c = s[start]
        if isASCIILetter(c) || c >= 0x80 { return true }
        let second: UInt8 = start + 1 < end ? s[start + 1] : 0x0A
        switch c {
        case UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "+"):
            return second != 0x0A && second != 0x20 && second != 0x09
        case UInt8(ascii: "#"):
            var i = start
            while i < end && s[i] == UInt8(ascii: "#") { i += 1 }
            return i < end && (i - start > 6 || (s[i] != 0x20 && s[i] != 0x09))
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            var i = start
            while i < end && s[i] == c { i += 1 }
            if i == end { return false }
            if i - start < 3 { return true }
            if c == UInt8(ascii: "~") { return false }
            for j in i..<end where s[j] == c { return true }
            return false
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var i = start
            while i < end && isASCIIDigit(s[i]) { i += 1 }
            if i == end { return false }
            if s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ")") {
                return i + 1 < end && s[i + 1] != 0x20 && s[i + 1] != 0x09
            }
            return true
        case UInt8(ascii: "$"):
            // (`$$` opens a math block, unless what follows rules it out.)
            return second != 0x0A && (second != UInt8(ascii: "$") || BlockParser.mathBlockStartRuledOut(s, start, end))
        case UInt8(ascii: "\\"):
            // `\[` and `\\[` open math blocks.
            var i = start
            while i < end && s[i] == c { i += 1 }
            guard i < end else { return false }
            return s[i] != UInt8(ascii: "[") || (i - start <= 2 && BlockParser.mathBlockStartRuledOut(s, start, end))
        case UInt8(ascii: "["):
            // (A definition, a footnote's, a task's box, an alert's marker.)
            return labelRulesOutDefinition(s, start, end, strict: true, context: context)
        case UInt8(ascii: "<"):
            return BlockScan.htmlBlockStartRuledOut(s, start, end)
        case UInt8(ascii: ">"), 0x20, 0x09:
            return false
        default:
            return true
        }
    }

    /// What a line's content may follow on its line, as far as `[` goes: a
    /// list item's marker (then `[ ] `, `[x] ` may be a task's box), a `>`
    /// (then `[!NOTE]` may be an alert's marker), neither (a paragraph of
    /// the document or of a footnote's definition), or either (unknown).
    enum LineContext: UInt8 {
        case anyContainer, item, quote, document

        init(parent: NodeKind) {
            switch parent {
            case .item: self = .item
            case .blockQuote, .alert: self = .quote
            case .document, .footnoteDefinition: self = .document
            default: self = .anyContainer
            }
        }
    }

    /// What every fast path reports: only the trailing top-level block
    /// changed. It is marked stale, so the next full snapshot reports it as
    /// changed too.
    private func trailingBlockChanged() -> Bool {
        afterParagraphLineFeed = false
        afterCodeLineFeed = false
        closingFenceShownEnd = -1
        afterTableRowLineFeed = false
        blankPartialLine = false
        foldWordScan()
        wordCheckedEnd = -1
        if let k = tailBlocks.indices.last { tailBlocks[k].stale = true }
        let id = lastTailIDs[lastTailIDs.count - 1]
        if diffEpoch == appendEpoch && !(lastDiffMode == 1 && lastSingleID == id) {
            // An earlier part of the same chunk set a diff of its own (a new
            // block): this block's change joins it.
            mergeIntoDiff(id)
        } else {
            lastDiffMode = 1
            lastSingleID = id
        }
        lastFinal = false
        return true
    }

    /// Counts the public appends (and `finish`); `diffEpoch` is the count
    /// when a snapshot or a structural fast path last set the diff.
    @exclusivity(unchecked) private var appendEpoch: UInt64 = 0
    @exclusivity(unchecked) private var diffEpoch: UInt64 = 0

    /// Adds block `id` to the changed blocks of the current diff.
    private func mergeIntoDiff(_ id: BlockID) {
        switch lastDiffMode {
        case 2:
            lastDiffMode = 1
            lastSingleID = id
        case 1:
            lastDiffMode = 0
            lastDiff = StreamDiff(changed: [lastSingleID, id], inserted: [], removed: [])
        default:
            let d = lastDiff
            guard !d.changed.contains(id) && !d.inserted.contains(id) else { return }
            if isKnownUniquelyReferenced(&lastDiff) && lastDiff !== StreamDiff.empty && storage.streamDiff !== d {
                d.changed.append(id)
            } else {
                lastDiff = StreamDiff(changed: d.changed + [id], inserted: d.inserted, removed: d.removed)
            }
        }
    }

    /// A storage published earlier, kept to be written again once no reader
    /// holds it. Its arrays equal the current storage's below the marks
    /// (node 0, the root, is always copied).
    private struct Spare {
        var storage: DocumentStorage
        var nodes: Int
        var source: Int
        var arena: Int
        var lines: Int
        /// Nodes below `nodes` whose contents changed (a `next` link, an
        /// end): the last settled top-level block of each operation since
        /// and the ancestors of the leaves the plain paths wrote; at most
        /// `SpareLinks.capacity`, kept in the struct (no array to count
        /// references to or to check for uniqueness: every held append
        /// writes them).
        var links = SpareLinks()

        init(_ storage: DocumentStorage) {
            self.storage = storage
            nodes = storage.nodes.count
            source = storage.source.count
            arena = storage.arena.count
            lines = storage.lineStarts.count
        }

        /// Its storage is current: nothing in it differs.
        @inline(__always)
        mutating func markCurrent() {
            nodes = storage.nodes.count
            source = storage.source.count
            arena = storage.arena.count
            lines = storage.lineStarts.count
            links.clear()
        }
    }

    /// Up to 32 node indices, stored inline.
    private struct SpareLinks {
        static let capacity = 32
        private var slots: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        private(set) var count = 0
        /// The last link appended (-1 when there is none).
        private var lastLink: Int32 = -1

        @inline(__always)
        subscript(j: Int) -> Int32 {
            withUnsafeBytes(of: slots) { $0.load(fromByteOffset: j &* 4, as: Int32.self) }
        }

        var last: Int32? { count > 0 ? lastLink : nil }

        @inline(__always)
        mutating func clear() {
            count = 0
            lastLink = -1
        }

        func min() -> Int32? {
            guard count > 0 else { return nil }
            var m = self[0]
            for j in 1..<count { m = Swift.min(m, self[j]) }
            return m
        }

        /// Appends `a`; false (and nothing added) when full.
        @inline(__always)
        mutating func append(_ a: Int32) -> Bool {
            guard count < SpareLinks.capacity else { return false }
            let j = count
            withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: a, toByteOffset: j &* 4, as: Int32.self) }
            count = j &+ 1
            lastLink = a
            return true
        }

        /// Appends `a` unless it is there; false when it is not and the
        /// links are full. (In place: no copy of the slots.)
        @inline(__always)
        mutating func insert(_ a: Int32) -> Bool {
            let n = count
            // (1: there; 2: added; 0: full.)
            let r = withUnsafeMutableBytes(of: &slots) { raw -> Int in
                var j = 0
                while j < n {
                    if raw.load(fromByteOffset: j &* 4, as: Int32.self) == a { return 1 }
                    j &+= 1
                }
                guard n < SpareLinks.capacity else { return 0 }
                raw.storeBytes(of: a, toByteOffset: n &* 4, as: Int32.self)
                return 2
            }
            if r == 2 { count = n &+ 1; lastLink = a }
            return r != 0
        }

        var array: [Int32] { (0..<count).map { self[$0] } }

        /// The links, read in place (a read through `self[j]` copies the
        /// slots).
        @inline(__always)
        mutating func withLinks<R>(_ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
            let n = count
            return withUnsafeMutableBytes(of: &slots) { raw in
                body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Int32.self), count: n))
            }
        }
    }

    /// Empty unless readers hold published storages (a UI keeps the update
    /// it shows while the next append runs; the async front end also holds
    /// the one it has not yielded yet): at most `maxSpares`.
    @exclusivity(unchecked) private var spares: [Spare] = []
    private static let maxSpares = 3

    /// Nothing below these is written by the operation about to run: the
    /// settled nodes (but the root and the last settled top-level block's
    /// `next` link, copied on their own), the stable bytes, the settled
    /// arena, the parser's line starts. (`settle` and `publish` lower the
    /// node floor further when they re-emit settled blocks.)
    ///
    /// `leafEdit` (the plain, URL, cell and row paths): the operation
    /// writes only the nodes from `from` on and `leaf` and its ancestors
    /// (their ends, last children, `next` links: each copied whole, see
    /// `Spare.links`), appends bytes and adds to the arena — the
    /// spares keep the rest of the tail, so a held update costs the next
    /// append a copy of a few nodes, not of the trailing block. With
    /// `rewrites` the operation may also write the unsettled arena and the
    /// line starts past the synced ones (a paragraph pass, a line feed, a
    /// new item); some lower the node floor further themselves once they
    /// know where their writes start. `arenaFrom` (when not -1): it writes
    /// the arena from there on only, whatever `rewrites` says (a line feed
    /// writes none of it, a code line its last byte and after).
    private func lowerSpareFloors(leafEdit: (from: Int, leaf: Int, rewrites: Bool, arenaFrom: Int)? = nil) {
        guard !spares.isEmpty else { return }
        var nodeFloor = settledNodeCount
        let provisional = provisionalFrom
        if let r = provisional { nodeFloor = min(nodeFloor, r > 0 ? settledNodeStarts[r - 1] : 1) }
        let link = Int32(truncatingIfNeeded: settledNodeStarts.last ?? 0)
        var (arena, lines) = (settledArenaCount, syncedLineStarts)
        let source = min(stableCount, storage.source.count)
        // The ancestors of the edited leaf below `from` (the root is always
        // copied), read once for every spare: eight at most, else the
        // whole tail as before.
        var chain: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
        var chainCount = 0
        if let e = leafEdit, provisional == nil, e.from >= nodeFloor {
            let n = withStorage { st in
                st.nodes.withUnsafeBufferPointer { nodes in
                    withUnsafeMutableBytes(of: &chain) { raw -> Int in
                        var a = Int32(truncatingIfNeeded: e.leaf)
                        var n = 0
                        while a > 0 {
                            if Int(a) < e.from {
                                guard n < 8 else { return -1 }
                                raw.storeBytes(of: a, toByteOffset: n &* 4, as: Int32.self)
                                n &+= 1
                            }
                            a = nodes[Int(a)].parent
                        }
                        return n
                    }
                }
            }
            if n >= 0 {
                nodeFloor = e.from
                if !e.rewrites {
                    arena = storage.arena.count
                    lines = storage.lineStarts.count
                }
                if e.arenaFrom >= 0 { arena = e.arenaFrom }
                chainCount = n
            }
        }
        // (Through one buffer pointer: every append runs this while a
        // reader holds an update.)
        spares.withUnsafeMutableBufferPointer { sp in
            withUnsafeBytes(of: &chain) { chainBytes in
                for k in sp.indices {
                    sp[k].nodes = min(sp[k].nodes, nodeFloor)
                    sp[k].source = min(sp[k].source, source)
                    sp[k].arena = min(sp[k].arena, arena)
                    sp[k].lines = min(sp[k].lines, lines)
                    var full = false
                    if link > 0 && sp[k].links.last != link { full = !sp[k].links.append(link) }
                    var low = link > 0 ? link : Int32.max
                    // (The chain's nodes the floor leaves out: below it.)
                    let floor = sp[k].nodes
                    var j = 0
                    while j < chainCount {
                        let a = chainBytes.load(fromByteOffset: j &* 4, as: Int32.self)
                        if Int(a) < floor {
                            if !sp[k].links.insert(a) { full = true }
                            low = min(low, a)
                        }
                        j &+= 1
                    }
                    if full {
                        // (A spare held long: its nodes from the lowest link on.)
                        sp[k].nodes = min(sp[k].nodes, Int(min(low, sp[k].links.min() ?? Int32.max)))
                        sp[k].links.clear()
                    }
                }
            }
        }
    }

    private func lowerSpareNodeFloor(_ floor: Int) {
        spares.withUnsafeMutableBufferPointer { sp in
            for k in sp.indices { sp[k].nodes = min(sp[k].nodes, floor) }
        }
    }

    /// The node floor a claim of everything unsettled sets (see
    /// `lowerSpareFloors`).
    private var unsettledNodeFloor: Int {
        var floor = settledNodeCount
        if let r = provisionalFrom { floor = min(floor, r > 0 ? settledNodeStarts[r - 1] : 1) }
        return floor
    }

    /// Claims nodes a snapshot wrote: every node from `from` on, and the
    /// ones below it in `touched` (as links; the root is always copied).
    private func lowerSpareNodes(from: Int, touched: [Int32]) {
        spares.withUnsafeMutableBufferPointer { sp in
            for k in sp.indices {
                sp[k].nodes = min(sp[k].nodes, from)
                let floor = sp[k].nodes
                var full = false
                var low = Int32.max
                for a in touched where a > 0 && Int(a) < floor {
                    if !sp[k].links.insert(a) { full = true }
                    low = min(low, a)
                }
                if full {
                    // (A spare held long: its nodes from the lowest link on.)
                    sp[k].nodes = min(sp[k].nodes, Int(min(low, sp[k].links.min() ?? Int32.max)))
                    sp[k].links.clear()
                }
            }
        }
    }

    /// Before a snapshot's writes (`appendExactly`, `publish`): makes the
    /// storage ours, claiming the source from the stable bytes, the
    /// unsettled arena and line starts, and the last settled block's link —
    /// not the nodes, which the snapshot claims once it knows what it wrote.
    @inline(__always)
    private func reclaimForSnapshot() {
        if spares.isEmpty && isKnownUniquelyReferenced(&storage) { return }
        reclaimHeld(leafEdit: (storage.nodes.count, 0, true, -1))
    }

    /// Makes `storage` uniquely ours again. When a reader still holds the
    /// last document, the engine continues in a spare storage no reader
    /// holds, copying into it only what changed since it was current (the
    /// trailing blocks, new bytes and newly settled nodes); a full copy only
    /// when every spare is held too. So holding updates costs an append
    /// time proportional to the tail, not to the document.
    @inline(__always)
    private func reclaim() {
        // (The common case inline: no reader holds the storage, and there
        // is no spare.)
        if spares.isEmpty && isKnownUniquelyReferenced(&storage) { return }
        reclaimHeld()
    }

    /// `reclaim` before an operation that writes only nodes from `from` on
    /// and the ends of `leaf` and its ancestors (0: the root alone), and
    /// appends bytes (see `lowerSpareFloors`); with `rewrites`, also the
    /// unsettled arena and the line starts past the synced ones (the arena
    /// from `arenaFrom` on only, when that is given). An
    /// operation that learns only later what else it writes (a pass over
    /// the trailing paragraph, a new block's line) claims `from` at the
    /// store's end and lowers the spares' floors after its writes: they are
    /// read at the next switch only. A held update then costs the next
    /// appends a copy of what was written, not of the trailing block (a
    /// long paragraph, list or quote had cost a copy of itself per line).
    @inline(__always)
    private func reclaim(nodesFrom from: Int, endsOf leaf: Int, rewrites: Bool = false, arenaFrom: Int = -1) {
        if spares.isEmpty && isKnownUniquelyReferenced(&storage) { return }
        reclaimHeld(leafEdit: (from, leaf, rewrites, arenaFrom))
    }

    @inline(never)
    private func reclaimHeld(leafEdit: (from: Int, leaf: Int, rewrites: Bool, arenaFrom: Int)? = nil) {
        if isKnownUniquelyReferenced(&storage) {
            if !spares.isEmpty { lowerSpareFloors(leafEdit: leafEdit) }
            return
        }
        // (After the switch: the storage that was current is a spare now.)
        defer { lowerSpareFloors(leafEdit: leafEdit) }
        // (Swaps and unretained references: a held update makes every
        // append come here, and reference counting was most of its cost.)
        let switched = spares.withUnsafeMutableBufferPointer { sp in
            for k in sp.indices where isKnownUniquelyReferenced(&sp[k].storage) {
                bringUp(&sp[k])
                swap(&sp[k].storage, &storage)
                sp[k].markCurrent()
                return true
            }
            return false
        }
        if switched { return }
        let held = Spare(storage)
        storage = DocumentStorage(source: storage.source, nodes: storage.nodes, arena: storage.arena, lineStarts: storage.lineStarts)
        if spares.count < Self.maxSpares {
            spares.append(held)
        } else {
            spares.removeFirst()
            spares.append(held)
        }
    }

    /// Makes the spare's storage equal the current one.
    @inline(__always)
    private func bringUp(_ spare: inout Spare) {
        withStorage { x in
            Unmanaged.passUnretained(spare.storage)._withUnsafeGuaranteedRef { y in
                let floor = max(1, spare.nodes)
                // (The current arrays read through pointers taken first:
                // nothing writes them while the spare's are written, and a
                // read around those writes retained and released each, on
                // every held append.)
                let xs = StreamEngine.base(x.source)
                Self.sync(&y.source, from: xs, keeping: spare.source)
                let xn = StreamEngine.base(x.nodes)
                heldNodesCopied &+= max(0, xn.count - min(floor, y.nodes.count)) + spare.links.count + 1
                let m = min(floor, y.nodes.count, xn.count)
                let common = Self.resize(&y.nodes, from: xn)
                // (One pass: what both had past the floor, the root, and the
                // nodes below the floor that changed.)
                y.nodes.withUnsafeMutableBufferPointer { yn in
                    Self.overwrite(yn, from: xn, m, common)
                    if !yn.isEmpty { yn[0] = xn[0] }
                    let top = min(floor, yn.count)
                    spare.links.withLinks { links in
                        for l in links where Int(l) < top { yn[Int(l)] = xn[Int(l)] }
                    }
                }
                if spare.arena < x.arena.count || y.arena.count != x.arena.count {
                    heldArenaCopied &+= x.arena.count - min(spare.arena, y.arena.count, x.arena.count)
                    Self.sync(&y.arena, from: StreamEngine.base(x.arena), keeping: spare.arena)
                }
                if spare.lines < x.lineStarts.count || y.lineStarts.count != x.lineStarts.count {
                    Self.sync(&y.lineStarts, from: StreamEngine.base(x.lineStarts), keeping: spare.lines)
                }
                #if DEBUG
                if !(y.source == x.source && y.nodes == x.nodes && y.arena == x.arena && y.lineStarts == x.lineStarts) {
                    let firstNode = zip(y.nodes, x.nodes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    let firstSource = zip(y.source, x.source).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    let firstArena = zip(y.arena, x.arena).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    let firstLine = zip(y.lineStarts, x.lineStarts).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    preconditionFailure("a spare storage was not brought up to date: marks \(spare.nodes) \(spare.source) \(spare.arena) \(spare.lines) links \(spare.links.array) counts \(y.nodes.count)/\(x.nodes.count) \(y.source.count)/\(x.source.count) \(y.arena.count)/\(x.arena.count) \(y.lineStarts.count)/\(x.lineStarts.count) first differences \(String(describing: firstNode)) \(String(describing: firstSource)) \(String(describing: firstArena)) \(String(describing: firstLine)) settled \(settledNodeStarts.suffix(3)) source \(String(decoding: x.source, as: UTF8.self).debugDescription)")
                }
                #endif
            }
        }
    }

    /// The elements of `a`, read in place while `a`'s owner keeps it
    /// unchanged (`bringUp`: a storage `withStorage` guarantees, whose
    /// arrays nothing writes until the pointer's last use).
    @inline(__always)
    private static func base<T>(_ a: [T]) -> UnsafeBufferPointer<T> {
        a.withUnsafeBufferPointer { $0 }
    }

    /// Makes `y` equal `x`, which it equals below `mark` already.
    @inline(__always)
    private static func sync<T>(_ y: inout [T], from x: UnsafeBufferPointer<T>, keeping mark: Int) {
        let m = min(mark, y.count, x.count)
        let common = resize(&y, from: x)
        if m < common { y.withUnsafeMutableBufferPointer { overwrite($0, from: x, m, common) } }
    }

    /// Gives `y` the count of `x`: drops its elements past it, or appends
    /// what `x` has past it. The count they had in common.
    @inline(__always)
    private static func resize<T>(_ y: inout [T], from x: UnsafeBufferPointer<T>) -> Int {
        let common = min(y.count, x.count)
        if common < y.count { y.removeLast(y.count - common) }
        if common < x.count {
            if x.count - common <= 8 && y.capacity - y.count >= x.count - common {
                // (A few: one by one, cheaper than the generic append.)
                for i in common..<x.count { y.append(x[i]) }
            } else {
                y.append(contentsOf: UnsafeBufferPointer(rebasing: x[common...]))
            }
        }
        return common
    }

    /// Copies `x[from..<to]` over `y`'s.
    @inline(__always)
    private static func overwrite<T>(_ y: UnsafeMutableBufferPointer<T>, from x: UnsafeBufferPointer<T>, _ from: Int, _ to: Int) {
        guard from < to else { return }
        if to - from <= 4 {
            // (A few: no call to memmove.)
            for i in from..<to { y[i] = x[i] }
        } else {
            (y.baseAddress! + from).update(from: x.baseAddress! + from, count: to - from)
        }
    }

    // MARK: Settling

    /// A cheap fingerprint of a block's subtree: its range, its node count
    /// and its first and last nodes. Every change this stream can see moves
    /// one of them (new bytes move the end; a newly resolved reference adds
    /// nodes), and it costs O(1), not O(block).
    private static func nodeHash(_ nodes: [RawNode], _ from: Int, _ to: Int) -> Int {
        // (A fingerprint compared within this process only: a cheap mix.)
        @inline(__always) func mix(_ h: inout UInt64, _ x: UInt64) {
            h = (h ^ x) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        var h = UInt64(bitPattern: Int64(to - from))
        mix(&h, 0x5851_F42D_4C95_7F2D)
        @inline(__always) func mixNode(_ h: inout UInt64, _ n: RawNode) {
            mix(&h, UInt64(n.kind.rawValue) | UInt64(n.flags) << 16 | UInt64(n.small) << 32)
            mix(&h, UInt64(n.start) | UInt64(n.end) << 32)
            mix(&h, UInt64(UInt32(bitPattern: n.number)) | UInt64(n.a.length) << 32)
        }
        if to > from {
            mixNode(&h, nodes[from])
            mixNode(&h, nodes[to - 1])
        }
        return Int(truncatingIfNeeded: h)
    }

    /// The engine's one inline parser (it is reused from leaf to leaf, as
    /// in a batch parse), looking labels up in the parser's table.
    @exclusivity(unchecked) private var cachedInline: InlineParser? = nil
    private func inlineParser(_ p: BlockParser) -> InlineParser {
        if let c = cachedInline {
            // (The parser's table: the labels as they are now, or between
            // snapshots as the last one saw them.)
            if c.labels !== p.labels { c.labels = p.labels }
            // (Its content is what the last leaf left: every parse loads
            // its leaf's first, `loadLeafContent` or `loadCellContent`.)
            return c
        }
        let inline = InlineParser(options: options, labels: p.labels)
        cachedInline = inline
        return inline
    }

    private func makeInline(_ p: BlockParser) -> InlineParser {
        let inline = inlineParser(p)
        // (An inline parser holds no arena while it is idle: the swap
        // leaves the storage an empty one.)
        assert(inline.arena.isEmpty)
        swap(&inline.arena, &storage.arena)
        return inline
    }

    /// Emits the parser's closed top-level blocks that are not settled yet,
    /// and re-emits settled blocks that a new definition affects.
    /// Settled blocks emitted by this append: (id, hash) — newly settled or
    /// re-emitted because a definition arrived.
    /// `forced`: re-emitted because a definition it missed has arrived.
    @exclusivity(unchecked) private var justSettled: [(id: BlockID, hash: Int, oldHash: Int?, forced: Bool)] = []
    /// The `appendEpoch` of the append whose settle last wrote `justSettled`.
    @exclusivity(unchecked) private var justSettledEpoch: UInt64 = 0
    /// Whether the last snapshot showed pending bytes (an incomplete UTF-8
    /// sequence as U+FFFD): the next one may show other bytes in that place.
    @exclusivity(unchecked) private var publishedPending = false
    /// The footnote numbering of the settled nodes below
    /// `footnoteIndexEnd` (see `FootnoteFold`), by label id
    /// (`footnoteKeyIDs`).
    @exclusivity(unchecked) private var footnoteFold = FootnoteFold()
    @exclusivity(unchecked) private var footnoteIndexEnd = 1
    /// The footnotes after the settled ones at the last renumbering: label
    /// id, kind and what they were given.
    @exclusivity(unchecked) private var numberedTail: [(key: Int32, definition: Bool, number: Int32, number2: Int32, b: ByteRef)] = []
    @exclusivity(unchecked) private var footnoteKeyIDs: [[UInt8]: Int32] = [:]
    @exclusivity(unchecked) private var footnoteTailScratch: [(node: Int32, key: Int32)] = []
    /// What `footnoteTailScratch` holds after a call that followed a pass
    /// over the trailing paragraph (its node and first byte): the
    /// footnotes of the nodes from `prefixEnd` to `end` (`paragraph` -1:
    /// nothing).
    @exclusivity(unchecked) private var footnoteTailMemo = (paragraph: -1, start: -1, prefixEnd: -1, end: 0)

    private func settle(_ source: Bytes) {
        // (`appendNewBlockLine` may have settled blocks before it gave up:
        // they are reported with this snapshot.)
        if keepJustSettled {
            keepJustSettled = false
        } else if !justSettled.isEmpty {
            justSettled.truncate(to: 0)
        }
        justSettledEpoch = appendEpoch
        let p = parser
        // A new definition may resolve a reference in a settled block.
        var rebuildFrom = provisionalFrom
        let wasProvisional = provisionalFrom
        provisionalFrom = nil
        // (Settling parses and emits the settled input alone: without the
        // labels the last snapshot's tail added.)
        p.labels.clearOverlay()
        if p.labels.definitionCount != definitionsSeen || p.labels.footnoteCount != footnotesSeen {
            for k in missingBlocks where settledMisses[k].contains(where: { p.labels.defines($0) }) {
                rebuildFrom = min(rebuildFrom ?? k, k)
                break
            }
            definitionsSeen = p.labels.definitionCount
            footnotesSeen = p.labels.footnoteCount
        }
        // The last snapshot emitted the settled blocks from `r` on again
        // with the tail's definitions: with the settled labels as they were
        // then, the nodes they had come back from where they were kept,
        // instead of being emitted once more (reported as an emission would
        // be: the same content). A definition typed under its references
        // is provisional for every chunk of it.
        if let r = rebuildFrom, r == wasProvisional, justSettled.isEmpty, provisionalBackup.from == r,
           provisionalBackup.blockCount == settledBlocks.count, provisionalBackup.nodeCount == settledNodeCount,
           provisionalBackup.definitionCount == p.labels.definitionCount,
           provisionalBackup.footnoteCount == p.labels.footnoteCount {
            restoreProvisionalBackup(r)
            for k in r..<settledBlocks.count {
                justSettled.append((settledIDs[k], settledHashes[k], settledHashes[k], false))
            }
            rebuildFrom = nil
        }
        // Closed top-level blocks not yet settled (most snapshots: none).
        var b = settledBlocks.last.map { p.blocks[Int($0)].next } ?? p.blocks[0].firstChild
        guard rebuildFrom != nil || (b >= 0 && !p.blocks[Int(b)].isOpen) else { return }
        // The common case: one block closed, the one the last update
        // showed, as it is now final (a paragraph a blank line ended).
        // (When it is not adoptable, the general way does not ask again.)
        var firstRefused = false
        if rebuildFrom == nil && !publishedPending {
            let next = p.blocks[Int(b)].next
            if next < 0 || p.blocks[Int(next)].isOpen {
                if let kept = adoptable(b, at: settledNodeCount, source: source) {
                    settleAdopted(b, kept, source)
                    return
                }
                firstRefused = true
            }
        }
        var candidates = take(&candidatesScratch)
        var adoptedMisses = take(&adoptedMissesScratch)
        defer {
            candidates.truncate(to: 0)
            candidatesScratch = candidates
            adoptedMisses.truncate(to: 0)
            adoptedMissesScratch = adoptedMisses
        }
        while b >= 0 {
            if p.blocks[Int(b)].isOpen { break }
            candidates.append(b)
            b = p.blocks[Int(b)].next
        }
        var blocksToEmit = candidates
        var oldHashes: [Int] = []
        var oldMisses: [Set<[UInt8]>] = []
        // Blocks that settled earlier in this append and are emitted again
        // now: one entry each, with what the last update showed of them.
        var earlier: [(id: BlockID, oldHash: Int?, forced: Bool)] = []
        if let r = rebuildFrom, !justSettled.isEmpty {
            let cut = max(0, r - (settledBlocks.count - justSettled.count))
            for e in justSettled[min(cut, justSettled.count)...] { earlier.append((e.id, e.oldHash, e.forced)) }
            if cut < justSettled.count { justSettled.truncate(to: cut) }
        }
        if let r = rebuildFrom {
            lowerSpareNodeFloor(r > 0 ? settledNodeStarts[r - 1] : 1)
            forgetFootnoteIndex(from: settledNodeStarts[r])
            oldHashes = Array(settledHashes[r...])
            oldMisses = Array(settledMisses[r...])
            blocksToEmit = Array(settledBlocks[r...])
            blocksToEmit.append(contentsOf: candidates)
            settledNodeCount = settledNodeStarts[r]
            // Arena bytes of the re-emitted blocks are simply abandoned.
            settledBlocks.truncate(to: r)
            settledNodeStarts.removeSubrange(r...)
            settledMisses.truncate(to: r)
            while let last = missingBlocks.last, last >= r { missingBlocks.removeLast() }
            settledHashes.truncate(to: r)
        }
        // Blocks settling now that the last update showed as they are final
        // keep its nodes (and arena bytes) instead of being emitted again.
        var adopted = 0
        var keepNodes = settledNodeCount
        var keepArena = settledArenaCount
        if rebuildFrom == nil && !publishedPending && !firstRefused {
            for blk in candidates {
                guard let (end, arenaEnd, misses) = adoptable(blk, at: keepNodes, source: source) else { break }
                keepNodes = end
                keepArena = max(keepArena, arenaEnd)
                adopted += 1
                adoptedMisses.append(misses)
            }
        }
        // The inline parser (which holds the arena while it is out) only
        // when a block is emitted.
        var needInline = adopted < blocksToEmit.count
        #if DEBUG
        // (Debug builds check each adopted block against a fresh emission.)
        needInline = needInline || adopted > 0
        #endif
        let inline: InlineParser? = needInline ? makeInline(p) : nil
        if let inline {
            if inline.arena.count > keepArena { inline.arena.truncate(to: keepArena) }
        } else if storage.arena.count > keepArena {
            storage.arena.truncate(to: keepArena)
        }
        var nodes = take(&storage.nodes)
        if nodes.count > keepNodes { nodes.truncate(to: keepNodes) }
        // Relink the end of the settled (and adopted) prefix.
        var lastTop = settledNodeStarts.last ?? -1
        do {
            var at = settledNodeCount
            for _ in 0..<adopted {
                lastTop = at
                at = nodes[at].next >= 0 ? Int(nodes[at].next) : keepNodes
            }
        }
        nodes[0].lastChild = Int32(lastTop)
        if nodes[0].lastChild < 0 { nodes[0].firstChild = -1 } else { nodes[Int(nodes[0].lastChild)].next = -1 }
        p.s = source
        var adoptAt = settledNodeCount
        for (i, blk) in blocksToEmit.enumerated() {
            let start: Int
            let end: Int
            var misses: Set<[UInt8]> = []
            if i < adopted {
                start = adoptAt
                end = nodes[start].next >= 0 ? Int(nodes[start].next) : keepNodes
                adoptAt = end
                misses = adoptedMisses[i]
                #if DEBUG
                checkAdopted(blk, nodes: nodes, start: start, end: end, misses: misses, inline: inline!)
                #endif
            } else {
                let inline = inline!
                start = nodes.count
                inline.missedLabels = []
                inline.missedFootnotes = []
                p.emitBlocks(from: blk, parent: 0, siblings: false, into: &nodes, inline: inline)
                end = nodes.count
                misses = inline.missedLabels ?? []
                misses.formUnion(inline.missedFootnotes ?? [])
            }
            let (id, h) = recordSettled(blk, nodes: nodes, start: start, end: end, misses: misses)
            var forced = i < oldMisses.count && oldMisses[i].contains { p.labels.defines($0) }
            var oldHash = i < oldHashes.count ? oldHashes[i] : nil
            if !earlier.isEmpty, let e = earlier.first(where: { $0.id == id }) {
                oldHash = e.oldHash
                forced = forced || e.forced
            }
            justSettled.append((id, h, oldHash, forced))
        }
        p.s = Bytes(start: nil, count: 0)
        if let inline {
            inline.missedLabels = nil
            inline.missedFootnotes = nil
            swap(&inline.arena, &storage.arena)
        }
        settledArenaCount = storage.arena.count
        settledNodeCount = nodes.count
        swap(&nodes, &storage.nodes)
    }
    @exclusivity(unchecked) private var candidatesScratch: [Int32] = []

    /// `settle` when block `b` alone closed and the last update showed it
    /// as it is now (`kept`, from `adoptable`): its nodes are kept, and it
    /// is settled as the general way settles an adopted block, without its
    /// lists of candidates, re-emissions and earlier entries.
    private func settleAdopted(_ b: Int32, _ kept: (end: Int, arenaEnd: Int, misses: Set<[UInt8]>), _ source: Bytes) {
        let start = settledNodeCount
        let keepArena = max(settledArenaCount, kept.arenaEnd)
        #if DEBUG
        // (Debug builds check the adopted block against a fresh emission.)
        let p = parser
        let inline = makeInline(p)
        if inline.arena.count > keepArena { inline.arena.truncate(to: keepArena) }
        #else
        if storage.arena.count > keepArena { storage.arena.truncate(to: keepArena) }
        #endif
        var nodes = take(&storage.nodes)
        if nodes.count > kept.end { nodes.truncate(to: kept.end) }
        nodes[0].lastChild = Int32(start)
        nodes[start].next = -1
        #if DEBUG
        p.s = source
        checkAdopted(b, nodes: nodes, start: start, end: kept.end, misses: kept.misses, inline: inline)
        p.s = Bytes(start: nil, count: 0)
        inline.missedLabels = nil
        inline.missedFootnotes = nil
        swap(&inline.arena, &storage.arena)
        #endif
        let (id, h) = recordSettled(b, nodes: nodes, start: start, end: kept.end, misses: kept.misses)
        justSettled.append((id, h, nil, false))
        settledArenaCount = storage.arena.count
        settledNodeCount = nodes.count
        swap(&nodes, &storage.nodes)
    }

    /// Records block `b`, emitted or kept at `nodes[start..<end]` and
    /// missing the labels `misses`, as the next settled block; returns its
    /// id and fingerprint.
    @inline(__always)
    private func recordSettled(_ b: Int32, nodes: [RawNode], start: Int, end: Int,
                               misses: Set<[UInt8]>) -> (id: BlockID, hash: Int) {
        settledBlocks.append(b)
        settledNodeStarts.append(start)
        if !misses.isEmpty { missingBlocks.append(settledMisses.count) }
        settledMisses.append(misses)
        let h = StreamEngine.nodeHash(nodes, start, end)
        settledHashes.append(h)
        if settledIDs.count < settledBlocks.count {
            settledIDs.append(takeID(forStart: Int(parser.blocks[Int(b)].start)))
        }
        return (settledIDs[settledBlocks.count - 1], h)
    }

    /// The settled nodes of blocks `from...` (there were `blockCount`
    /// settled blocks, `nodeCount` settled nodes, and the settled labels
    /// counted these), kept aside when a provisional snapshot emitted those
    /// blocks again with definitions only the tail had.
    private struct ProvisionalBackup {
        var from = -1
        var blockCount = 0
        var nodeCount = 0
        var definitionCount = 0
        var footnoteCount = 0
        var nodes: [RawNode] = []
    }
    @exclusivity(unchecked) private var provisionalBackup = ProvisionalBackup()

    /// Appends `saved[lo..<hi]`, the nodes of a top-level block that
    /// started at node `from`, as the root's last child: its node indices
    /// moved by where it lands.
    private static func appendMoved(_ saved: [RawNode], _ lo: Int, _ hi: Int, from: Int, into nodes: inout [RawNode]) {
        let start = nodes.count
        let delta = Int32(start - from)
        saved.withUnsafeBufferPointer { b in
            for i in lo..<hi {
                var n = b[i]
                if n.firstChild >= 0 { n.firstChild += delta }
                if n.lastChild >= 0 { n.lastChild += delta }
                if i == lo {
                    n.parent = 0
                    n.next = -1
                } else {
                    n.parent += delta
                    if n.next >= 0 { n.next += delta }
                }
                nodes.append(n)
            }
        }
        let last = nodes[0].lastChild
        if last >= 0 { nodes[Int(last)].next = Int32(start) } else { nodes[0].firstChild = Int32(start) }
        nodes[0].lastChild = Int32(start)
    }

    /// Puts back the settled nodes of blocks `r...` (see `settle`); the
    /// provisional ones and the tail after them go.
    private func restoreProvisionalBackup(_ r: Int) {
        let start = settledNodeStarts[r]
        lowerSpareNodeFloor(r > 0 ? settledNodeStarts[r - 1] : 1)
        forgetFootnoteIndex(from: start)
        withStorage { st in
            if st.nodes.count > start { st.nodes.truncate(to: start) }
            st.nodes.append(contentsOf: provisionalBackup.nodes)
            if r > 0 { st.nodes[settledNodeStarts[r - 1]].next = Int32(start) } else { st.nodes[0].firstChild = Int32(start) }
            st.nodes[0].lastChild = Int32(settledNodeStarts[settledNodeStarts.count - 1])
            st.nodes[settledNodeStarts[settledNodeStarts.count - 1]].next = -1
            if st.arena.count > settledArenaCount { st.arena.truncate(to: settledArenaCount) }
        }
        provisionalBackup.from = -1
    }
    @exclusivity(unchecked) private var adoptedMissesScratch: [Set<[UInt8]>] = []
    @exclusivity(unchecked) private var keepJustSettled = false

    /// Whether closed top-level block `b` is the block the last update
    /// showed at node `at`, as it is now final, and if so where its nodes
    /// and its arena bytes end, and which labels it may have looked up in
    /// vain. The last update was exact for the text then, where the block
    /// ended with the input; a line that closes a block without changing it
    /// (a blank line, a new block) leaves its kind and range as they were,
    /// while one that changes it (a setext underline, a table's delimiter
    /// row, a closing fence, lines taken out of a paragraph) changes its
    /// kind or range too — but a table's delimiter row, outside the table's
    /// range when no body row follows: such a table, and any block with a
    /// `|` between its end and the next block, is emitted again. A block
    /// with a `[` is adopted only when the definitions are the ones the last
    /// update used; its misses (see `settledMisses`) are then every label
    /// it could have tried — each innermost bracket pair's text — a
    /// superset of the ones it did try: a later definition of one of them
    /// re-renders it, at worst once more than needed.
    private func adoptable(_ b: Int32, at: Int, source: Bytes) -> (end: Int, arenaEnd: Int, misses: Set<[UInt8]>)? {
        let nodes = storage.nodes
        guard at < nodes.count else { return nil }
        let blk = parser.blocks[Int(b)]
        let n = nodes[at]
        guard !blk.isOpen, n.parent == 0, n.kind == blk.kind, Int(n.start) == Int(blk.start), Int(n.end) == Int(blk.end)
        else { return nil }
        switch blk.kind {
        case .list: guard n.flags & 1 == (blk.tight ? 1 : 0) else { return nil }
        case .heading: guard n.small == UInt16(blk.level), n.flags & 1 == (blk.setext ? 1 : 0) else { return nil }
        case .codeBlock: guard n.flags & 1 == (blk.fenced ? 1 : 0) else { return nil }
        case .table: guard blk.lineCount >= 2 else { return nil }
        default: break
        }
        let blockEnd = min(Int(blk.end), source.count)
        // Up to the next block: a table's delimiter row is not in its range
        // (nor in the range of the list or quote the table is in), and
        // one of a single column needs no pipe (`:-:`), but every one has
        // a `-`. (The stream fuzz target: a list item's paragraph that a
        // later chunk's `     :-:` split into a paragraph and a table was
        // adopted as the two-line paragraph the last update showed.)
        var i = blockEnd
        let e = min(blk.next >= 0 ? Int(parser.blocks[Int(blk.next)].start) : source.count, source.count)
        while i < e {
            if source[i] == UInt8(ascii: "|") || source[i] == UInt8(ascii: "-") { return nil }
            i += 1
        }
        var misses: Set<[UInt8]> = []
        // (Code, HTML and math blocks and breaks have no inlines: their
        // brackets look nothing up.)
        let inert = blk.kind == .codeBlock || blk.kind == .htmlBlock || blk.kind == .mathBlock || blk.kind == .thematicBreak
        let first = inert ? blockEnd : BlockScan.find(UInt8(ascii: "["), source, Int(blk.start), blockEnd)
        if first < blockEnd {
            guard parser.labels.version == lastDefinitionsVersion,
                  let labels = StreamEngine.possibleLabels(source, first, blockEnd) else { return nil }
            misses = labels
        }
        let end = n.next >= 0 ? Int(n.next) : nodes.count
        guard end > at, end <= nodes.count else { return nil }
        var arenaEnd = 0
        for k in at..<end {
            let x = nodes[k]
            if x.a.isArena { arenaEnd = max(arenaEnd, x.a.end) }
            if x.b.isArena { arenaEnd = max(arenaEnd, x.b.end) }
        }
        return (end, arenaEnd, misses)
    }

    /// Every label a block's text from `start` to `end` could look up: the
    /// text of each innermost bracket pair (backslash escapes skipped), as a
    /// link label and, after a `^`, as a footnote label. Nil when a pair
    /// spans a line ending or holds `\|` (there the text the inline parser
    /// reads differs from the source: container markers, table cells).
    static func possibleLabels(_ s: Bytes, _ start: Int, _ end: Int) -> Set<[UInt8]>? {
        var labels: Set<[UInt8]> = []
        var open = -1
        var i = start
        // (Eight bytes at a time past bytes that matter to neither state:
        // outside a pair only `\\` and `[` do.)
        @inline(__always) func has(_ w: UInt64, _ b: UInt8) -> UInt64 {
            let x = w ^ (UInt64(b) &* 0x0101_0101_0101_0101)
            return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
        }
        let base = s.baseAddress
        while i < end {
            if let base {
                while i + 8 <= end {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    var hit = has(w, UInt8(ascii: "\\")) | has(w, UInt8(ascii: "["))
                    if open >= 0 { hit |= has(w, UInt8(ascii: "]")) | has(w, 0x0A) | has(w, 0x0D) }
                    if hit != 0 { break }
                    i += 8
                }
                if i >= end { break }
            }
            let c = s[i]
            if c == UInt8(ascii: "\\") {
                if open >= 0 && i + 1 < end && s[i + 1] == UInt8(ascii: "|") { return nil }
                i += 2
                continue
            }
            if c == UInt8(ascii: "[") {
                open = i
            } else if c == UInt8(ascii: "]") && open >= 0 {
                // (Labels are at most 999 characters: longer ones are never looked up.)
                if i - open - 1 <= 1_000 {
                    labels.insert(LinkScan.normalizeLabel(s, open + 1, i))
                    if i > open + 1 && s[open + 1] == UInt8(ascii: "^") { labels.insert(LinkScan.normalizeLabel(s, open + 2, i)) }
                }
                open = -1
            } else if (c == 0x0A || c == 0x0D) && open >= 0 {
                return nil
            }
            i += 1
        }
        labels.remove([])
        return labels
    }

    #if DEBUG
    /// Debug builds check each adopted block against a fresh emission.
    private func checkAdopted(_ b: Int32, nodes: [RawNode], start: Int, end: Int, misses: Set<[UInt8]>, inline: InlineParser) {
        var fresh = Array(nodes[..<start])
        // The fresh copy's root ends before the block (its previous sibling).
        var previous: Int32 = -1
        var c = nodes[0].firstChild
        while c >= 0 && Int(c) < start { previous = c; c = nodes[Int(c)].next }
        fresh[0].lastChild = previous
        if previous >= 0 { fresh[Int(previous)].next = -1 } else { fresh[0].firstChild = -1 }
        let arenaCount = inline.arena.count
        let (labels, notes) = (inline.missedLabels, inline.missedFootnotes)
        inline.missedLabels = []
        inline.missedFootnotes = []
        parser.emitBlocks(from: b, parent: 0, siblings: false, into: &fresh, inline: inline)
        let freshMisses = (inline.missedLabels ?? []).union(inline.missedFootnotes ?? [])
        precondition(freshMisses.isSubset(of: misses),
                     "an adopted block missed labels its possible labels lack: \(freshMisses.subtracting(misses).map { String(decoding: $0, as: UTF8.self) })")
        func bytes(_ r: ByteRef) -> ArraySlice<UInt8> {
            r.isArena ? inline.arena[r.start..<r.end] : ArraySlice(storage.source[min(r.start, storage.source.count)..<min(r.end, storage.source.count)])
        }
        var same = fresh.count == end
        if same {
            for k in start..<end {
                var x = nodes[k], y = fresh[k]
                if k == start || x.parent == 0 { x.next = -1; y.next = -1 }
                if x.kind == .footnoteDefinition || x.kind == .footnoteReference {
                    // (Numbered afresh after every snapshot: `renumberFootnotes`.)
                    (x.number, x.number2, y.number, y.number2) = (0, 0, 0, 0)
                    if x.kind == .footnoteReference { (x.b, y.b) = (.empty, .empty) }
                }
                if bytes(x.a) != bytes(y.a) || bytes(x.b) != bytes(y.b) { same = false; break }
                (x.a, x.b, y.a, y.b) = (.empty, .empty, .empty, .empty)
                if x != y { same = false; break }
            }
        }
        inline.arena.truncate(to: arenaCount)
        (inline.missedLabels, inline.missedFootnotes) = (labels, notes)
        precondition(same, "an adopted block differs from its fresh emission: block \(b) nodes \(start)..<\(end), fresh \(fresh.count), source \(String(decoding: storage.source, as: UTF8.self).debugDescription) shown \(nodes[start..<end].map { "\($0.kind)\($0.start)-\($0.end)" }) fresh \(fresh[start...].map { "\($0.kind)\($0.start)-\($0.end)" })")
    }
    #endif

    /// The id of a new top-level block starting at `start`: the id the
    /// previous snapshot's tail gave a block starting there, or a new one.
    private func takeID(forStart start: Int) -> BlockID {
        if let k = tailBlocks.firstIndex(where: { $0.start == start }) {
            return tailBlocks[k].id
        }
        defer { nextID += 1 }
        return BlockID(rawValue: nextID)
    }

    // MARK: Publishing a snapshot

    /// `claimingWrites`: the caller claimed only the source, the unsettled
    /// arena and line starts for held updates (`reclaimForSnapshot`), and
    /// the snapshot claims the nodes it writes once it knows them.
    private func publish(finalInput: Bool, claimingWrites: Bool = false) -> StreamUpdate {
        fullSnapshots &+= 1
        newLine.active = false
        placeholderShown = false
        leafInlineNode = -1
        forgetOpenCell()
        afterParagraphLineFeed = false
        afterCodeLineFeed = false
        closingFenceShownEnd = -1
        afterTableRowLineFeed = false
        foldWordScan()
        wordCheckedEnd = -1
        // (What a claim of everything unsettled would take: the nodes from
        // here, when the snapshot cannot tell what it wrote.)
        let entry = claimingWrites
            ? (nodeFloor: unsettledNodeFloor, settledNodes: settledNodeCount, settledBlocks: settledBlocks.count,
               provisional: provisionalFrom != nil)
            : (nodeFloor: 0, settledNodes: 0, settledBlocks: 0, provisional: true)
        if claimingWrites { reclaimForSnapshot() } else { reclaim() }
        // (The storage lets go of the layout and diff it was shown with, so
        // that they can be written again in place when no update holds them;
        // `lastUpdate` gives it the new ones.)
        storage.streamLayout = nil
        storage.streamDiff = nil

        // The snapshot's source: the stable bytes plus the pending tail.
        cutSourceToStable()
        if !pending.isEmpty {
            storage.source.append(contentsOf: Normalizer.normalize(pending, dropBOM: !started || finalInput && stableCount == 0))
        }
        storage.source.withUnsafeBufferPointer { source in
            settle(source)
        }

        // The snapshot sees the input as if it ended here: the persistent
        // parser takes the partial line and closes every open block, the
        // tail is emitted, and the parser is rolled back to the checkpoint.
        let p = parser
        let cp = p.checkpoint()
        #if DEBUG
        let blocksBefore = p.blocks
        #endif

        var nodes = take(&storage.nodes)
        var arena = take(&storage.arena)
        // Node indices of the tail's top-level blocks.
        var tailTops = take(&tailTopsScratch)
        // Settled blocks re-emitted with a definition only the tail has.
        var provisional: Int? = nil
        var dirtyFrom = 0
        var definitionsMoved = false
        var reused = false
        let previousHadPending = publishedPending
        publishedPending = !pending.isEmpty
        storage.source.withUnsafeBufferPointer { source in
            p.s = source
            p.consumeLines(final: true)
            recordTrailingParagraph(p, partialLineStart: cp.position, sourceCount: source.count)
            recordTrailingRow(p, partialLineStart: cp.position, sourceCount: source.count)
            p.finishDocument()

            // Definitions only the tail has can resolve references in settled
            // blocks: re-emit those (provisionally) for this snapshot.
            let definitionsAdded = p.labels.definitionCount != cp.definitionCount || p.labels.footnoteCount != cp.footnoteKeyCount
            if definitionsAdded { provisional = firstSettledBlockResolved(by: p) }
            // A definition that appeared, changed or went away since the last
            // snapshot may change any block's links (equal versions: nothing
            // to compare).
            // (Compared through the overlays: the persistent labels only
            // grow, and a comparison of every label made a stream with n
            // definitions cost n².)
            if p.labels.version != lastDefinitionsVersion {
                definitionsMoved = !p.labels.matches(lastLabels)
                lastLabels = p.labels.mark
                lastDefinitionsVersion = p.labels.version
            }
            let inline = inlineParser(p)
            // (A definition that arrived with complete lines is in the
            // checkpoint already: `definitionsMoved` sees it, and the closed
            // blocks of the tail that missed it must be emitted again. The
            // footnote numbers in kept nodes are renumbered in place.)
            let reuse = tailLogValid && justSettled.isEmpty && provisional == nil && !definitionsAdded
                && !definitionsMoved
            reused = reuse
            var cursor = settledNodeCount
            var arenaCursor = settledArenaCount
            if let r = provisional {
                lowerSpareNodeFloor(r > 0 ? settledNodeStarts[r - 1] : 1)
                forgetFootnoteIndex(from: settledNodeStarts[r])
                // (The settled nodes go aside: the next settle puts them back.)
                provisionalBackup.from = r
                provisionalBackup.blockCount = settledBlocks.count
                provisionalBackup.nodeCount = settledNodeCount
                provisionalBackup.definitionCount = cp.definitionCount
                provisionalBackup.footnoteCount = cp.footnoteKeyCount
                provisionalBackup.nodes.truncate(to: 0)
                provisionalBackup.nodes.append(contentsOf: nodes[settledNodeStarts[r]..<settledNodeCount])
                nodes.truncate(to: settledNodeStarts[r])
                arena.truncate(to: settledArenaCount)
                provisionalFrom = r
            }
            let lastSettledTop = provisional.map { $0 > 0 ? settledNodeStarts[$0 - 1] : -1 } ?? (settledNodeStarts.last ?? -1)
            nodes[0].lastChild = Int32(lastSettledTop)
            if nodes[0].lastChild < 0 { nodes[0].firstChild = -1 } else { nodes[Int(nodes[0].lastChild)].next = -1 }
            swap(&inline.arena, &arena)
            if let r = provisional {
                provisionalStarts.removeAll()
                provisionalHashes.removeAll()
                for k in r..<settledBlocks.count {
                    let start = nodes.count
                    // Only the blocks that missed a label the tail defines
                    // change: the others are their settled nodes again,
                    // moved (a copy, not a parse).
                    if k == r || settledMisses[k].contains(where: { p.labels.defines($0) }) {
                        p.emitBlocks(from: settledBlocks[k], parent: 0, siblings: false, into: &nodes, inline: inline)
                        provisionalEmissions &+= 1
                    } else {
                        let end = k + 1 < settledBlocks.count ? settledNodeStarts[k + 1] : settledNodeCount
                        StreamEngine.appendMoved(provisionalBackup.nodes, settledNodeStarts[k] - settledNodeStarts[r],
                                                 end - settledNodeStarts[r], from: settledNodeStarts[k], into: &nodes)
                    }
                    provisionalStarts.append(start)
                    provisionalHashes.append(StreamEngine.nodeHash(nodes, start, nodes.count))
                }
                cursor = nodes.count
                arenaCursor = inline.arena.count
            }
            let first = settledBlocks.last.map { p.blocks[Int($0)].next } ?? p.blocks[0].firstChild
            var newLog = take(&tailLogScratch)
            p.tailRecording = claimingWrites && reuse && !spares.isEmpty
            dirtyFrom = p.emitTail(from: first, checkpoint: cp, nodes: &nodes, inline: inline,
                                   cursor: cursor, arenaCursor: arenaCursor, log: tailLog, reuse: reuse,
                                   reuseOpenLeaves: reuse && !previousHadPending,
                                   tops: &tailTops, newLog: &newLog)
            swap(&tailLog, &newLog)
            tailLogScratch = newLog
            findTrailingLeaf(nodes)
            tailLogValid = provisional == nil && !definitionsAdded
            swap(&inline.arena, &arena)
            // The partial line's new blocks as a new-block pass leaves them:
            // the line's next bytes can take that path again.
            if !finalInput && pending.isEmpty && provisional == nil && !definitionsAdded,
               let line = newLineAfterSnapshot(p, cp, nodes, tops: tailTops, sourceCount: source.count) {
                newLine = line
                // (The log keeps what the passes leave alone: the nodes
                // before the line's; a pass rewrites those after.)
                tailLog.removeAll { Int($0.node) >= line.baseline }
            }

            // Line starts: the parser's, including the partial line's.
            syncLineStarts(p, settled: cp.lineStartCount)

            p.rollback(to: cp)
            p.s = Bytes(start: nil, count: 0)
            blankPartialLine = !finalInput && pending.isEmpty && isBlankPartialLine(p, source, from: cp.position)
        }
        #if DEBUG
        precondition(p.blocks == blocksBefore, "streaming checkpoint rollback changed the block tree")
        #endif
        nodes[0].end = UInt32(storage.source.count)

        // The arrays go back into the (uniquely held) storage object.
        swap(&nodes, &storage.nodes)
        swap(&arena, &storage.arena)
        // Footnote numbers depend on the whole document: a reference or a
        // definition anywhere can renumber a settled block's references.
        // The blocks whose numbers moved are reported changed.
        var renumbered: [Int] = []
        if options.contains(.footnotes) && lastLabels.footnoteCount > 0 {
            renumbered = renumberFootnotes(provisional: provisional, tailTops: tailTops)
        } else if !numberedTail.isEmpty {
            numberedTail.removeAll()
        }
        publishDiff(provisional: provisional, renumbered: renumbered, tailTops: tailTops, dirtyFrom: dirtyFrom,
                    previousHadPending: previousHadPending, definitionsMoved: definitionsMoved)
        if claimingWrites && !spares.isEmpty {
            // Nothing settled, no definition or footnote moved, and the tail
            // emitted over the last one: the nodes `emitTail` wrote. Else
            // every unsettled node, as a claim before would have taken.
            let precise = reused && !entry.provisional && provisional == nil && provisionalFrom == nil
                && settledNodeCount == entry.settledNodes && settledBlocks.count == entry.settledBlocks
                && justSettled.isEmpty && renumbered.isEmpty && !finalInput
                && !(options.contains(.footnotes) && lastLabels.footnoteCount > 0)
            if precise {
                lowerSpareNodes(from: parser.tailRewriteFrom, touched: parser.tailTouched)
            } else {
                lowerSpareNodeFloor(entry.nodeFloor)
            }
        }
        tailTops.truncate(to: 0)
        tailTopsScratch = tailTops
        lastFinal = finalInput
        // After a line feed in a top-level fenced code block (a blank line,
        // a line that took the exact way), the next line's first bytes may
        // take the new-code-line path, as after `appendCodeLineFeed`.
        afterCodeLineFeed = !finalInput && pending.isEmpty && storage.source.last == 0x0A
            && (trailingFencedCode(empty: true, quotes: true) != nil || trailingIndentedCode() != nil)
        return lastUpdate
    }

    /// Settled blocks re-emitted with a definition from the unsettled tail
    /// (`provisionalFrom`): their node indices and fingerprints.
    @exclusivity(unchecked) private var provisionalStarts: [Int] = []
    @exclusivity(unchecked) private var provisionalHashes: [Int] = []

    /// The first settled block that missed a label the parser defines now.
    private func firstSettledBlockResolved(by p: BlockParser) -> Int? {
        for k in missingBlocks where settledMisses[k].contains(where: { p.labels.defines($0) }) {
            return k
        }
        return nil
    }

    /// The trailing leaf of a snapshot's nodes (last children down through
    /// the blocks; a table is a leaf here, its rows and cells its own) for
    /// the fast paths that `recordTrailingParagraph` and
    /// `recordTrailingRow` prepared.
    private func findTrailingLeaf(_ nodes: [RawNode]) {
        guard trailingParagraphNode == -1 || trailingTableNode == -1 else { return }
        var q: Int32 = 0
        while nodes[Int(q)].kind != .table {
            let c = nodes[Int(q)].lastChild
            guard c >= 0, nodes[Int(c)].kind.isBlock else { break }
            q = c
        }
        let leafKind = nodes[Int(q)].kind
        let leafIsTail = Int(q) >= settledNodeCount
        if trailingParagraphNode == -1 {
            trailingParagraphNode = (leafKind == .paragraph || leafKind == .heading) && leafIsTail ? Int(q) : 0
        }
        if trailingTableNode == -1 {
            trailingTableNode = 0
            if leafKind == .table && leafIsTail {
                // The row before the last one (the header at least): the
                // node before the last row ends its subtree, so it is
                // found by going up from there, not along the rows.
                let last = nodes[Int(q)].lastChild
                var r = last - 1
                while r > q && nodes[Int(r)].parent != q { r = nodes[Int(r)].parent }
                if r > q && nodes[Int(r)].next == last && last > r {
                    trailingTableNode = Int(q)
                    trailingPreviousRow = r
                }
            }
        }
    }

    /// The storage's line starts become the parser's, the partial line's
    /// included; the first `settled` of them are the persistent parser's.
    private func syncLineStarts(_ p: BlockParser, settled: Int) {
        let have = storage.lineStarts.count
        if have > syncedLineStarts || have < p.lineStarts.count {
            if have > syncedLineStarts { storage.lineStarts.truncate(to: syncedLineStarts) }
            let count = storage.lineStarts.count
            if count < p.lineStarts.count { storage.lineStarts.append(contentsOf: p.lineStarts[count...]) }
        }
        syncedLineStarts = settled
    }

    /// A partial line of spaces and tabs (or none) after a line feed, with
    /// no open block that keeps blank lines (code, HTML, math): more spaces
    /// and tabs only move the root's end. (Called after the rollback.)
    private func isBlankPartialLine(_ p: BlockParser, _ source: Bytes, from start: Int) -> Bool {
        guard start > 0 && start <= source.count && source[start - 1] == 0x0A else { return false }
        for i in start..<source.count where !isSpaceOrTab(source[i]) { return false }
        // (An open container without children — `-`, `[^1]:` — takes the
        // blank line into its range.)
        let tip = p.blocks[Int(p.tip)]
        switch tip.kind {
        case .codeBlock, .htmlBlock, .mathBlock: return false
        case .document, .heading, .table: return true
        case .paragraph:
            // (Not one that may be a link reference definition: the blank
            // line closes it, and a container it leaves empty takes the
            // blank line into its range — `- [x]: /u`.)
            return tip.lineCount == 0 || !StreamEngine.mayStartDefinition(source, p.lines[Int(tip.firstLine)])
        default: return tip.lastChild >= 0
        }
    }

    /// Renumbers the footnotes of the storage, in place, as the batch parser
    /// does (`BlockParser.renumberFootnotes`); returns the top-level blocks
    /// (indices in the layout) holding a footnote when a number moved.
    ///
    /// It visits neither the document nor every footnote: the settled
    /// blocks' footnotes are folded in `footnoteFold` (extended as blocks
    /// settle, cut back where settled blocks are emitted again), the rest
    /// are found by a scan of the nodes after them. So a stream with
    /// footnotes costs each snapshot its tail, and the settled footnotes
    /// whose numbers move.
    private func renumberFootnotes(provisional: Int?, tailTops: [Int],
                                   pass: (paragraph: Int, start: Int, floor: Int)? = nil) -> [Int] {
        // (With provisional blocks: the settled nodes before them.)
        let prefixEnd = provisional.map { settledNodeStarts[$0] } ?? settledNodeCount
        forgetFootnoteIndex(from: prefixEnd)
        var tail = take(&footnoteTailScratch)
        // After a pass over the trailing paragraph that the last call also
        // followed: the tail's footnotes below the nodes the pass wrote are
        // the ones that call found (`footnoteTailMemo`), and only the nodes
        // from there are looked at. (Until session 29 every pass looked at
        // every node of the tail: a 30 KB paragraph with a reference, after
        // a definition, cost 337.7 M instructions.)
        var scanFrom = prefixEnd
        if let r = pass, provisional == nil, footnoteTailMemo.paragraph == r.paragraph, footnoteTailMemo.start == r.start,
           footnoteTailMemo.prefixEnd == prefixEnd {
            scanFrom = max(prefixEnd, min(footnoteTailMemo.end, r.floor, storage.nodes.count))
            while let last = tail.last, Int(last.node) >= scanFrom { tail.removeLast() }
        } else {
            tail.truncate(to: 0)
        }
        footnoteTailMemo = (-1, -1, -1, 0)
        var unchanged = false
        defer { footnoteTailScratch = tail }
        var lowestWrite = Int.max
        // The nodes whose numbers this changed (or that were emitted again
        // and got theirs back).
        var written: [Int32] = []
        let scannedBefore = footnoteFold.visited
        withStorage { st in
            st.source.withUnsafeBufferPointer { src in
                st.arena.withUnsafeBufferPointer { arena in
                    st.nodes.withUnsafeMutableBufferPointer { nodes in
                        @inline(__always) func isFootnote(_ i: Int) -> Bool {
                            nodes[i].kind == .footnoteReference || nodes[i].kind == .footnoteDefinition
                        }
                        @inline(__always) func write(_ i: Int, _ n: Int32, _ n2: Int32, _ b: ByteRef?) {
                            if nodes[i].number != n || nodes[i].number2 != n2 || (b != nil && nodes[i].b != b!) {
                                nodes[i].number = n
                                nodes[i].number2 = n2
                                if let b { nodes[i].b = b }
                                lowestWrite = min(lowestWrite, i)
                                written.append(Int32(i))
                            }
                        }
                        func key(_ i: Int) -> Int32 {
                            let a = nodes[i].a
                            let k = a.isArena ? LinkScan.normalizeLabel(arena, a.start, a.end) : LinkScan.normalizeLabel(src, a.start, a.end)
                            if let id = footnoteKeyIDs[k] { return id }
                            let id = Int32(footnoteKeyIDs.count)
                            footnoteKeyIDs[k] = id
                            footnoteFold.reserveKeys(footnoteKeyIDs.count)
                            return id
                        }
                        // The settled footnotes since the last snapshot join
                        // the fold; those after them are the tail.
                        footnoteNodesScanned &+= max(0, prefixEnd - footnoteIndexEnd) + (nodes.count - scanFrom)
                        for i in footnoteIndexEnd..<max(footnoteIndexEnd, prefixEnd) where isFootnote(i) {
                            footnoteFold.append(node: Int32(i), key: key(i), isDefinition: nodes[i].kind == .footnoteDefinition)
                        }
                        footnoteIndexEnd = max(footnoteIndexEnd, prefixEnd)
                        for i in scanFrom..<nodes.count where isFootnote(i) { tail.append((Int32(i), key(i))) }
                        // The same footnotes as the last snapshot (the settled
                        // ones unchanged, the others with the same labels in
                        // the same order): the same numbers. The nodes after
                        // the settled ones, emitted again, get theirs back.
                        if footnoteFold.unchangedSinceRenumbering && tail.count == numberedTail.count
                            && zip(tail, numberedTail).allSatisfy({ $0.key == $1.key && (nodes[Int($0.node)].kind == .footnoteDefinition) == $1.definition }) {
                            for (j, e) in tail.enumerated() {
                                let v = numberedTail[j]
                                write(Int(e.node), v.number, v.number2, v.definition ? nil : v.b)
                            }
                            unchanged = true
                            return
                        }
                        footnoteFold.renumber(nodes, tail: tail, write: write)
                        numberedTail.truncate(to: 0)
                        for (i, k) in tail {
                            let n = nodes[Int(i)]
                            numberedTail.append((k, n.kind == .footnoteDefinition, n.number, n.number2, n.b))
                        }
                    }
                }
            }
        }
        footnoteNodesScanned &+= footnoteFold.visited - scannedBefore
        if let r = pass { footnoteTailMemo = (r.paragraph, r.start, prefixEnd, storage.nodes.count) }
        // (Readers may hold updates: the spares copy what was written.)
        if lowestWrite < Int.max { lowerSpareNodeFloor(lowestWrite) }
        #if DEBUG
        let batch = parser.renumberFootnotes(storage)
        precondition(batch.nodes == storage.nodes, "incremental footnote numbering differs from the batch parser's")
        #endif
        guard !unchanged, !written.isEmpty else { return [] }
        // The top-level blocks holding a footnote whose numbers changed
        // (the starts of the layout's blocks: settled, provisional, then
        // the tail) — not every block with a footnote: a reference typed
        // at the end moves the numbers of its definition at most.
        written.sort()
        let settledCount = provisional ?? settledNodeStarts.count
        let provisionalCount = provisional == nil ? 0 : provisionalStarts.count
        func top(_ k: Int) -> Int {
            if k < settledCount { return settledNodeStarts[k] }
            if k < settledCount + provisionalCount { return provisionalStarts[k - settledCount] }
            return tailTops[k - settledCount - provisionalCount]
        }
        let topCount = settledCount + provisionalCount + tailTops.count
        var holders: [Int] = []
        for i in written {
            // The last block starting at or before the node.
            var lo = 0, hi = topCount
            while lo < hi {
                let mid = (lo + hi) / 2
                if top(mid) <= Int(i) { lo = mid + 1 } else { hi = mid }
            }
            let k = max(0, lo - 1)
            if holders.last != k { holders.append(k) }
        }
        return holders
    }

    /// Settled nodes from `floor` on are emitted again: the footnote index
    /// forgets them.
    private func forgetFootnoteIndex(from floor: Int) {
        guard footnoteIndexEnd > floor else { return }
        footnoteIndexEnd = floor
        footnoteFold.forget(from: floor)
    }

    /// Ids and the diff of a snapshot: only blocks this append touched are
    /// looked at. A block is reported changed when its fingerprint moved,
    /// and also — erring on the side of a redraw — when a definition it
    /// missed arrived or went away, or when it shows bytes that were
    /// pending before.
    private func publishDiff(provisional: Int?, renumbered: [Int], tailTops: [Int], dirtyFrom: Int,
                             previousHadPending: Bool, definitionsMoved: Bool) {
        // An earlier part of the same chunk set a diff of its own (a block
        // it added, one it settled): what it said is kept.
        if diffEpoch == appendEpoch {
            let earlier = currentDiff()
            publishDiffAlone(provisional: provisional, renumbered: renumbered, tailTops: tailTops, dirtyFrom: dirtyFrom,
                             previousHadPending: previousHadPending, definitionsMoved: definitionsMoved)
            var (changed, inserted, removed) = currentDiff()
            for id in earlier.removed where !removed.contains(id) { removed.append(id) }
            for id in earlier.inserted {
                if let r = removed.firstIndex(of: id) {
                    removed.remove(at: r)  // never shown
                    continue
                }
                if !inserted.contains(id) { inserted.append(id) }
                if let c = changed.firstIndex(of: id) { changed.remove(at: c) }
            }
            for id in earlier.changed where !removed.contains(id) && !inserted.contains(id) && !changed.contains(id) {
                changed.append(id)
            }
            lastDiffMode = 0
            lastDiff = StreamDiff(changed: changed, inserted: inserted, removed: removed)
            return
        }
        diffEpoch = appendEpoch
        publishDiffAlone(provisional: provisional, renumbered: renumbered, tailTops: tailTops, dirtyFrom: dirtyFrom,
                         previousHadPending: previousHadPending, definitionsMoved: definitionsMoved)
    }

    /// The diff the engine would report now, as arrays.
    private func currentDiff() -> (changed: [BlockID], inserted: [BlockID], removed: [BlockID]) {
        switch lastDiffMode {
        case 0: return (lastDiff.changed, lastDiff.inserted, lastDiff.removed)
        case 1: return ([lastSingleID], [], [])
        default: return ([], [], [])
        }
    }

    private func publishDiffAlone(provisional: Int?, renumbered: [Int], tailTops: [Int], dirtyFrom: Int,
                                  previousHadPending: Bool, definitionsMoved: Bool) {
        if provisional == nil && renumbered.isEmpty && justSettled.isEmpty && provisionalShown.isEmpty
            && tailTops.count == 1 && tailBlocks.count == 1 && !lastLayoutProvisional,
           publishSameTailBlock(tailTops[0], dirtyFrom: dirtyFrom, previousHadPending: previousHadPending,
                                definitionsMoved: definitionsMoved) {
            return
        }
        if provisional == nil && renumbered.isEmpty && provisionalShown.isEmpty && !lastLayoutProvisional
            && tailTops.count == 1 && tailBlocks.count == 1 && justSettled.count == 1 && justSettled[0].id == tailBlocks[0].id {
            publishNextTailBlock(tailTops[0])
            return
        }
        let settledCount = settledIDs.count
        // (Each scratch array is taken out before it is cleared: a second
        // reference would make clearing it allocate.)
        var tailIDs = take(&tailIDsScratch)
        var tailStarts = take(&tailStartsScratch)
        var newTail = take(&tailBlocksScratch)
        var changed = take(&changedScratch)
        var inserted = take(&insertedScratch)
        if !tailIDs.isEmpty { tailIDs.truncate(to: 0) }
        if !tailStarts.isEmpty { tailStarts.truncate(to: 0) }
        if !newTail.isEmpty { newTail.truncate(to: 0) }
        if !changed.isEmpty { changed.truncate(to: 0) }
        if !inserted.isEmpty { inserted.truncate(to: 0) }
        var removed: [BlockID] = []
        let nodes = storage.nodes
        if !justSettled.isEmpty || provisional != nil || !provisionalShown.isEmpty {
            diffSettled(provisional: provisional, previousHadPending: previousHadPending, definitionsMoved: definitionsMoved,
                        changed: &changed, inserted: &inserted)
        }
        for k in renumbered where k < settledCount && !changed.contains(settledIDs[k]) && !inserted.contains(settledIDs[k]) {
            changed.append(settledIDs[k])
        }
        for k in tailTops.indices {
            let from = tailTops[k]
            let to = k + 1 < tailTops.count ? tailTops[k + 1] : nodes.count
            let start = Int(nodes[from].start)
            let h = StreamEngine.nodeHash(nodes, from, to)
            var old = -1
            for (j, t) in tailBlocks.enumerated() where t.start == start && !justSettledContains(t.id) {
                old = j
                break
            }
            let id: BlockID
            if old >= 0 {
                id = tailBlocks[old].id
                if tailBlocks[old].hash != h || tailBlocks[old].stale || to > dirtyFrom || previousHadPending || definitionsMoved
                    || (!renumbered.isEmpty && renumbered.contains(settledCount + k)) {
                    changed.append(id)
                }
            } else {
                id = BlockID(rawValue: nextID)
                nextID += 1
                inserted.append(id)
            }
            tailIDs.append(id)
            tailStarts.append(from)
            newTail.append((start, id, h, false))
        }
        for t in tailBlocks where !tailIDs.contains(t.id) && !justSettledContains(t.id) { removed.append(t.id) }
        swap(&tailBlocks, &newTail)
        tailBlocksScratch = newTail

        // The diff and the layout objects are shared with the last update
        // when nothing in them changed (the common case: the trailing block
        // changed again), so a snapshot allocates neither.
        // The common diffs need no object; otherwise, when no update shows
        // the last one any more, it is written again in place (the arrays
        // swapped in; the old ones become the scratch).
        if inserted.isEmpty && removed.isEmpty && changed.count <= 1 {
            lastDiffMode = changed.isEmpty ? 2 : 1
            if let id = changed.first { lastSingleID = id }
            changedScratch = changed
            insertedScratch = inserted
        } else if changed != lastDiff.changed || inserted != lastDiff.inserted || removed != lastDiff.removed {
            lastDiffMode = 0
            if isKnownUniquelyReferenced(&lastDiff) && lastDiff !== StreamDiff.empty {
                let d = lastDiff
                swap(&d.changed, &changed)
                swap(&d.inserted, &inserted)
                d.removed = removed
                changedScratch = changed
                insertedScratch = inserted
            } else {
                lastDiff = StreamDiff(changed: changed, inserted: inserted, removed: removed)
            }
        } else {
            lastDiffMode = 0
            changedScratch = changed
            insertedScratch = inserted
        }
        let settledSame = justSettled.isEmpty && provisional == nil && !lastLayoutProvisional
            && lastLayout.settledIDs.count == settledIDs.count
        let tailSame = tailIDs == lastLayout.tailIDs && tailStarts == lastLayout.tailStarts
        if settledSame && tailSame {
            tailIDsScratch = tailIDs
            tailStartsScratch = tailStarts
        } else if isKnownUniquelyReferenced(&lastLayout) && lastLayout !== StreamLayout.empty {
            let l = lastLayout
            if !settledSame {
                if let r = provisional {
                    l.settledIDs = settledIDs
                    l.settledStarts = BlockStarts(settledNodeStarts, from: r, overrides: provisionalStarts)
                } else {
                    l.settledIDs = settledIDs
                    l.settledStarts = BlockStarts(settledNodeStarts)
                }
            }
            swap(&l.tailIDs, &tailIDs)
            swap(&l.tailStarts, &tailStarts)
            tailIDsScratch = tailIDs
            tailStartsScratch = tailStarts
        } else if !settledSame {
            let settledStarts = provisional.map { BlockStarts(settledNodeStarts, from: $0, overrides: provisionalStarts) }
                ?? BlockStarts(settledNodeStarts)
            lastLayout = StreamLayout(settledIDs: settledIDs, settledStarts: settledStarts, tailIDs: tailIDs, tailStarts: tailStarts)
        } else {
            lastLayout = StreamLayout(settledIDs: lastLayout.settledIDs, settledStarts: lastLayout.settledStarts,
                                      tailIDs: tailIDs, tailStarts: tailStarts)
        }
        lastLayoutProvisional = provisional != nil
    }

    /// The most common snapshot: one unsettled top-level block, the one the
    /// last snapshot showed, where it was, with nothing settled since — its
    /// id stays, the layout too; only whether it changed is new.
    private func publishSameTailBlock(_ from: Int, dirtyFrom: Int, previousHadPending: Bool, definitionsMoved: Bool) -> Bool {
        let layout = lastLayout
        let nodes = storage.nodes
        guard layout.tailIDs.count == 1, layout.tailStarts[0] == from, layout.settledIDs.count == settledIDs.count,
              tailBlocks[0].start == Int(nodes[from].start), tailBlocks[0].id == layout.tailIDs[0] else { return false }
        let h = StreamEngine.nodeHash(nodes, from, nodes.count)
        let changed = tailBlocks[0].hash != h || tailBlocks[0].stale || nodes.count > dirtyFrom || previousHadPending
            || definitionsMoved
        tailBlocks[0].hash = h
        tailBlocks[0].stale = false
        lastDiffMode = changed ? 1 : 2
        lastSingleID = tailBlocks[0].id
        return true
    }

    /// The next most common: the one tail block the last snapshot showed
    /// settled, and one new block (`from`, a new paragraph or list, say)
    /// is the tail — what the general way gives then, without its look-ups:
    /// the settled block changed (it was shown in the open tail: redrawn
    /// once as it settles), the new one inserted, nothing removed.
    private func publishNextTailBlock(_ from: Int) {
        let settledID = tailBlocks[0].id
        let nodes = storage.nodes
        let h = StreamEngine.nodeHash(nodes, from, nodes.count)
        let id = BlockID(rawValue: nextID)
        nextID += 1
        tailBlocks[0] = (Int(nodes[from].start), id, h, false)
        lastDiffMode = 0
        if isKnownUniquelyReferenced(&lastDiff) && lastDiff !== StreamDiff.empty {
            let d = lastDiff
            StreamEngine.setOnly(&d.changed, settledID)
            StreamEngine.setOnly(&d.inserted, id)
            if !d.removed.isEmpty { d.removed = [] }
        } else {
            lastDiff = StreamDiff(changed: [settledID], inserted: [id], removed: [])
        }
        if isKnownUniquelyReferenced(&lastLayout) && lastLayout !== StreamLayout.empty {
            let l = lastLayout
            l.settledIDs = settledIDs
            l.settledStarts = BlockStarts(settledNodeStarts)
            StreamEngine.setOnly(&l.tailIDs, id)
            StreamEngine.setOnly(&l.tailStarts, from)
        } else {
            lastLayout = StreamLayout(settledIDs: settledIDs, settledStarts: BlockStarts(settledNodeStarts),
                                      tailIDs: [id], tailStarts: [from])
        }
        lastLayoutProvisional = false
    }

    /// Makes `a` hold `x` alone (its storage kept when it is its own).
    @inline(__always)
    private static func setOnly<T>(_ a: inout [T], _ x: T) {
        if a.count == 1 {
            a[0] = x
        } else {
            a.removeAll(keepingCapacity: true)
            a.append(x)
        }
    }

    private func justSettledContains(_ id: BlockID) -> Bool {
        for e in justSettled where e.id == id { return true }
        return false
    }

    /// The diff of the settled blocks this snapshot settled or re-emitted.
    private func diffSettled(provisional: Int?, previousHadPending: Bool, definitionsMoved: Bool,
                             changed: inout [BlockID], inserted: inout [BlockID]) {
        let settledCount = settledIDs.count
        func justSettledIndex(_ id: BlockID) -> Int? { justSettled.firstIndex { $0.id == id } }
        let firstJustSettled = settledCount - justSettled.count
        var newlyInserted: [BlockID] = []
        for (j, entry) in justSettled.enumerated() {
            let id = entry.id
            let previous = tailBlocks.first { $0.id == id }?.hash
            guard let old = previous ?? provisionalShown[id] ?? entry.oldHash else {
                inserted.append(id)
                newlyInserted.append(id)
                continue
            }
            if let r = provisional, firstJustSettled + j >= r { continue }  // shown provisionally: below
            // A block that settles was emitted last time as part of the open
            // tail (its fingerprint does not see, say, a table's alignments
            // arriving with the delimiter row's last byte): one redraw.
            if old != entry.hash || entry.forced || provisionalShown[id] != nil || previous != nil || definitionsMoved {
                changed.append(id)
            }
        }
        var shownNow: [BlockID: Int] = [:]
        if let r = provisional {
            for k in r..<settledCount {
                let id = settledIDs[k]
                let h = provisionalHashes[k - r]
                shownNow[id] = h
                if newlyInserted.contains(id) { continue }
                var before = provisionalShown[id] ?? settledHashes[k]
                var forced = false
                if let j = justSettledIndex(id) {
                    let e = justSettled[j]
                    let tail = tailBlocks.first { $0.id == id }
                    before = provisionalShown[id] ?? tail?.hash ?? e.oldHash ?? before
                    // (As above: a block the last update showed in the open
                    // tail, or provisionally, is redrawn once as it settles —
                    // its fingerprint does not see a link's destination grow
                    // with a definition still being typed.)
                    forced = e.forced || previousHadPending || tail != nil || provisionalShown[id] != nil || definitionsMoved
                }
                if before != h || forced || !settledMisses[k].isEmpty { changed.append(id) }
            }
        }
        for (id, _) in provisionalShown where shownNow[id] == nil && justSettledIndex(id) == nil {
            // It showed a definition from the tail that it no longer has.
            if settledIDs.contains(id) { changed.append(id) }
        }
        provisionalShown = shownNow
    }
}
