/// The repair behind provisional display (spec/streaming.md): turns the text
/// of a stream's unsettled trailing blocks into the text to display.
///
/// Two steps, both driven by the real parsers:
///
/// 1. **Hold back** (the text only gets shorter): an ambiguous run of
///    markers at the very end (`*`, `` ` ``, `[`, `$`, `<…`, `&…`, …); a
///    last line that so far is only a block marker (`-`, `1.`, `#`, `>`,
///    `---`, `- [ ]`); a pipe row that may still become a table header; in
///    an open fenced code or math block, a last line that may become its
///    closing fence.
/// 2. **Close** the leaf block still being written: the real inline parser
///    runs on its content, and its leftovers say what is unterminated — a
///    backtick run or math opener that found no closer, a `](` whose
///    destination has not ended, delimiter runs that can open and were not
///    matched. Their closers are appended (or the unfinished destination is
///    dropped), and the result is parsed again to verify that every
///    appended byte was consumed as a closer; if one shows up as text, a
///    smaller repair is tried.
///
/// Every step looks only at the trailing blocks, so the cost is a few
/// parses of the tail, never of the document.
struct ProvisionalRepair {
    let options: ParseOptions
    /// The stream's labels as its last snapshot saw them (scratch parsers
    /// take copies, adding to their overlays).
    let labels: LabelTable

    /// At most this many unmatched emphasis openers get closers (the last
    /// ones, nearest the end). A hostile `*a *a *a …` keeps the rest
    /// literal instead of appending thousands of closers; real text rarely
    /// has more than three open at once.
    static let maxClosedOpeners = 32

    /// How far back a trailing `&…` may start and still be held back as a
    /// possible entity (the longest HTML5 entity name is 32 bytes).
    static let maxEntityPrefix = 34

    func makeBlockParser() -> BlockParser {
        let t = BlockParser(options: options)
        t.labels = labels.copy()
        t.labelsToOverlay = true
        return t
    }

    /// The text to display for `text`, the source of the trailing blocks.
    ///
    /// Usually one parse: the hold-back rules and the leftovers of the
    /// inline parser are read off the same parse of `text`. Only when
    /// something is held back is the shorter text parsed again (at most
    /// twice: once after the marker rules, once after the pipe-row rule),
    /// and every repair candidate is parsed once to verify it.
    func repaired(_ text: [UInt8]) -> [UInt8] {
        if text.isEmpty { return text }
        var held = text
        var markersChecked = false
        var pipeChecked = !options.contains(.table)
        var found: Unterminated? = nil
        for _ in 0..<3 {
            let current = held
            let end = current.withUnsafeBufferPointer { s in
                withParsedLeaf(s) { t, leaf -> Int in
                    var end = s.count
                    if !markersChecked {
                        end = heldBackEnd(t, leaf, s)
                        markersChecked = true
                    }
                    if end == s.count && !pipeChecked {
                        end = pipeRowEnd(t, leaf, s)
                        pipeChecked = true
                    }
                    if end == s.count { found = unterminated(t, leaf, s, source: current) }
                    return end
                }
            }
            if end == current.count { break }
            held = Array(current[0..<end])
        }
        guard let found else { return held }
        for candidate in closingRepairs(found, held) where allInsertionsConsumed(candidate) {
            return candidate.text
        }
        return held
    }

    // MARK: - Parsing the tail

    /// The deepest last block of a parse, and whether it was still open.
    struct Leaf {
        var block: Int32
        var kind: NodeKind
        var open: Bool
    }

    /// Parses `buffer` standalone and hands the parser and its last leaf to
    /// `body` (the buffer stays valid during the call).
    func withParsedLeaf<R>(_ buffer: Bytes, _ body: (BlockParser, Leaf?) -> R) -> R {
        let t = makeBlockParser()
        t.s = buffer
        t.consumeLines(final: true)
        // The open chain before the document is closed: a paragraph is still
        // being written exactly when it is open here.
        var openBlocks: Set<Int32> = []
        var o = t.tip
        while o > 0 {
            openBlocks.insert(o)
            o = t.blocks[Int(o)].parent
        }
        t.finishDocument()
        var b = t.blocks[0].lastChild
        var leaf: Leaf? = nil
        while b >= 0 {
            let blk = t.blocks[Int(b)]
            leaf = Leaf(block: b, kind: blk.kind, open: openBlocks.contains(b))
            b = blk.lastChild
        }
        let result = body(t, leaf)
        t.s = Bytes(start: nil, count: 0)
        return result
    }

    /// The document storage of `text` parsed on its own with the stream's
    /// definitions.
    func storage(_ text: [UInt8]) -> DocumentStorage {
        text.withUnsafeBufferPointer { buffer in
            let t = makeBlockParser()
            t.s = buffer
            t.consumeLines(final: true)
            t.finishDocument()
            let storage = t.makeStorage(source: text)
            t.s = Bytes(start: nil, count: 0)
            return storage
        }
    }

    // MARK: - Step 1: holding back

    /// Rules 2, 3 and 5: the length of the prefix of the parsed text `s`
    /// to display, given its last leaf.
    func heldBackEnd(_ t: BlockParser, _ leaf: Leaf?, _ s: Bytes) -> Int {
        let n = s.count
        let lastLine = ProvisionalRepair.lineStart(s, n)
        if let leaf, leaf.kind == .codeBlock || leaf.kind == .mathBlock {
            let blk = t.blocks[Int(leaf.block)]
            guard blk.fenced || blk.kind == .mathBlock, leaf.open, lastLine < n else { return n }
            // A partial opening line: its info string may still change the
            // block (```` ```mat ```` becomes a math block with the `h`).
            if Int(blk.start) >= lastLine { return lastLine }
            // A later partial line may become the closing line.
            // (`htmlKind` 2 marks a fenced `math` block, closed by a fence.)
            return closingLineEnd(s, lastLine, n, math: blk.kind == .mathBlock && blk.htmlKind != 2)
        }
        if leaf?.kind == .htmlBlock { return n }
        var end = n
        while true {
            let before = end
            end = ProvisionalRepair.trailingMarkersEnd(s, end)
            let line = ProvisionalRepair.lineStart(s, end)
            // (A line of spaces and tabs only shows nothing and is kept: the
            // display must not depend on whether the blocks before it
            // settled, which differs between chunkings.)
            if line < end && !ProvisionalRepair.isBlankRun(s, line, end) && ProvisionalRepair.isMarkerOnlyLine(s, line, end) {
                end = line
            }
            if end == before { return end }
        }
    }

    /// Where to cut the partial last line `s[start..<end]` of an open fenced
    /// code or math block: a code line that is so far only fence
    /// characters may become the closing fence (held back whole); a math
    /// line ending in `$` or `\` may be ending in `$$` or `\]` (those bytes
    /// are held back).
    func closingLineEnd(_ s: Bytes, _ start: Int, _ end: Int, math: Bool) -> Int {
        var i = start
        while i < end && (isSpaceOrTab(s[i]) || s[i] == UInt8(ascii: ">")) { i += 1 }
        if i == end { return start }
        if math {
            var e = end
            while e > i && (s[e - 1] == UInt8(ascii: "$") || s[e - 1] == UInt8(ascii: "\\")) { e -= 1 }
            return e
        }
        let fence = s[i]
        guard fence == UInt8(ascii: "`") || fence == UInt8(ascii: "~") else { return end }
        while i < end && s[i] == fence { i += 1 }
        while i < end && isSpaceOrTab(s[i]) { i += 1 }
        return i == end ? start : end
    }

    /// The start of the line holding offset `end - 1` (or `end`'s line).
    static func lineStart(_ s: Bytes, _ end: Int) -> Int {
        var i = end
        while i > 0 && s[i - 1] != 0x0A && s[i - 1] != 0x0D { i -= 1 }
        return i
    }

    static func isMarker(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"),
             UInt8(ascii: "$"), UInt8(ascii: "["), UInt8(ascii: "\\"):
            return true
        default:
            return false
        }
    }

    /// `end` without an ambiguous tail: a run of markers whose meaning the
    /// next byte decides, a `<` not yet closed (autolink or tag), or an `&`
    /// that may start an entity.
    static func trailingMarkersEnd(_ s: Bytes, _ end: Int) -> Int {
        var e = end
        while e > 0 && isMarker(s[e - 1]) { e -= 1 }
        // `<http://exa`, `<sp`: everything from the `<`.
        var i = e
        while i > 0 {
            let b = s[i - 1]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: ">") { break }
            if b == UInt8(ascii: "<") { return i - 1 }
            i -= 1
        }
        // `&am`, `&#12`: everything from the `&`.
        i = e
        while i > 0 && e - i < maxEntityPrefix {
            let b = s[i - 1]
            if b == UInt8(ascii: "&") { return i - 1 }
            if !isASCIIAlphanumeric(b) && b != UInt8(ascii: "#") { break }
            i -= 1
        }
        return e
    }

    /// Whether `s[start..<end]` is only spaces and tabs.
    static func isBlankRun(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        for i in start..<end where !isSpaceOrTab(s[i]) { return false }
        return true
    }

    /// Whether a partial last line is, so far, only the start of a block
    /// marker whose meaning the next bytes decide: quote markers and spaces,
    /// a bullet, `1.`, `#`, `---`, `===`, a fence's first backticks, a
    /// partial task box (`- [ ]`).
    static func isMarkerOnlyLine(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end && (isSpaceOrTab(s[i]) || s[i] == UInt8(ascii: ">")) { i += 1 }
        if i == end { return true }
        let first = s[i]
        // One repeated marker character, spaces allowed: `-`, `* * *`, `##`, `===`.
        if "-+*=_#`~".utf8.contains(first) {
            var k = i
            while k < end && (s[k] == first || isSpaceOrTab(s[k])) { k += 1 }
            if k == end { return true }
        }
        // A list marker, then optionally the start of a task box.
        var k = i
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            k += 1
        } else if isASCIIDigit(first) {
            while k < end && isASCIIDigit(s[k]) && k - i < 9 { k += 1 }
            if k == end { return true }                       // `12`: `12.` would be a list
            guard s[k] == UInt8(ascii: ".") || s[k] == UInt8(ascii: ")") else { return false }
            k += 1
        } else {
            return false
        }
        if k == end { return true }
        guard isSpaceOrTab(s[k]) else { return false }
        while k < end && isSpaceOrTab(s[k]) { k += 1 }
        if k == end { return true }
        // `[`, `[ `, `[x`, `[ ]`, `[x]`, then spaces.
        guard s[k] == UInt8(ascii: "[") else { return false }
        k += 1
        if k < end && (s[k] == 0x20 || s[k] == UInt8(ascii: "x") || s[k] == UInt8(ascii: "X")) { k += 1 }
        if k < end && s[k] == UInt8(ascii: "]") { k += 1 }
        while k < end && isSpaceOrTab(s[k]) { k += 1 }
        return k == end
    }

    /// Rule 4: holds back a pipe row at the end of an open paragraph of the
    /// parsed text `s`: it may still become a table header when its
    /// delimiter row arrives (GFM: a header is a paragraph's last line
    /// followed by a delimiter row). Returns the length to display.
    func pipeRowEnd(_ t: BlockParser, _ leaf: Leaf?, _ s: Bytes) -> Int {
        let end = s.count
        guard let leaf, leaf.kind == .paragraph, leaf.open else { return end }
        let blk = t.blocks[Int(leaf.block)]
        guard blk.lineCount > 0 else { return end }
        let last = t.lines[Int(blk.firstLine + blk.lineCount - 1)]
        let lastStart = Int(last.start), lastEnd = Int(last.end)
        var rest = lastEnd
        while rest < end && isSpaceOrTab(s[rest]) { rest += 1 }
        if rest == end {
            // The last line is partial: a delimiter row being typed under a
            // pipe row holds both back; a pipe row alone, itself.
            if blk.lineCount >= 2 && ProvisionalRepair.isDelimiterRowPrefix(s, lastStart, lastEnd) {
                let previous = t.lines[Int(blk.firstLine + blk.lineCount - 2)]
                if ProvisionalRepair.hasPipe(s, Int(previous.start), Int(previous.end)) {
                    return ProvisionalRepair.lineStart(s, Int(previous.start))
                }
            }
            if ProvisionalRepair.hasPipe(s, lastStart, lastEnd) { return ProvisionalRepair.lineStart(s, lastStart) }
            return end
        }
        // The text ends after the last line's line ending: the next line
        // may be the delimiter row.
        if ProvisionalRepair.hasPipe(s, lastStart, lastEnd) { return ProvisionalRepair.lineStart(s, lastStart) }
        return end
    }

    static func hasPipe(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            if s[i] == UInt8(ascii: "\\") { i += 2; continue }
            if s[i] == UInt8(ascii: "|") { return true }
            i += 1
        }
        return false
    }

    /// Only `|`, `:`, `-`, spaces and tabs, and not blank.
    static func isDelimiterRowPrefix(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        var any = false
        for i in start..<end {
            let b = s[i]
            if b == UInt8(ascii: "|") || b == UInt8(ascii: ":") || b == UInt8(ascii: "-") {
                any = true
            } else if !isSpaceOrTab(b) {
                return false
            }
        }
        return any
    }
}
