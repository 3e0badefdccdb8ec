/// Step 2 of provisional display (spec/streaming.md): closing what the leaf
/// block being written leaves unterminated, as the real inline parser sees
/// it.
extension ProvisionalRepair {
    /// A repaired text, with the ranges of the bytes the repair inserted.
    struct Candidate {
        var text: [UInt8]
        var insertions: [Range<Int>]
    }

    /// One edit of the held-back text: replace `range` by `bytes`.
    struct Edit {
        var range: Range<Int>
        var bytes: [UInt8]
    }

    /// What is unterminated at the end of the open leaf, in held-text offsets.
    struct Unterminated {
        /// Bytes to delete: the `[` of a link whose destination is being
        /// typed, and everything from its `](`.
        var deletions: [Range<Int>] = []
        /// Where closers go: the end of the leaf's content, or the `](`.
        var insertAt = 0
        /// The closer of the first unterminated code span or math, if any.
        var atomicCloser: [UInt8] = []
        /// Closers of unmatched emphasis and strikethrough openers, innermost first.
        var emphasisClosers: [UInt8] = []
    }

    /// The repairs to try, most complete first; each is verified by a parse.
    func closingRepairs(_ u: Unterminated, _ held: [UInt8]) -> [Candidate] {
        var out: [Candidate] = []
        func add(_ closers: [UInt8], deletions: [Range<Int>]) {
            if closers.isEmpty && deletions.isEmpty { return }
            var edits = deletions.map { Edit(range: $0, bytes: []) }
            edits.append(Edit(range: u.insertAt..<u.insertAt, bytes: closers))
            out.append(apply(edits, to: held))
        }
        add(u.atomicCloser + u.emphasisClosers, deletions: u.deletions)
        if !u.emphasisClosers.isEmpty { add(u.atomicCloser, deletions: u.deletions) }
        return out
    }

    /// Applies non-overlapping edits; records where inserted bytes land.
    func apply(_ edits: [Edit], to text: [UInt8]) -> Candidate {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16)
        var insertions: [Range<Int>] = []
        var at = 0
        for edit in edits.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
            let lower = max(at, edit.range.lowerBound)
            out.append(contentsOf: text[at..<lower])
            if !edit.bytes.isEmpty {
                insertions.append(out.count..<(out.count + edit.bytes.count))
                out.append(contentsOf: edit.bytes)
            }
            at = max(lower, edit.range.upperBound)
        }
        out.append(contentsOf: text[at...])
        return Candidate(text: out, insertions: insertions)
    }

    /// Whether every inserted byte was taken as a closer: no text node of
    /// the candidate's parse covers one.
    func allInsertionsConsumed(_ candidate: Candidate) -> Bool {
        if candidate.insertions.isEmpty { return true }
        let nodes = storage(candidate.text).nodes
        for node in nodes where node.kind == .text {
            let r = Int(node.start)..<Int(node.end)
            for ins in candidate.insertions where r.overlaps(ins) { return false }
        }
        return true
    }

    // MARK: - Reading the inline parser's leftovers

    /// What the open leaf at the end of the parsed text `s` leaves
    /// unterminated, or nil when no leaf is being written (or nothing is
    /// unterminated). `source` is the text as an array.
    func unterminated(_ t: BlockParser, _ leaf: Leaf?, _ s: Bytes, source: [UInt8]) -> Unterminated? {
        guard let leaf, let ip = openLeafInlines(t, leaf, s, source: source) else { return nil }
        return leftovers(ip)
    }

    /// Runs the inline parser on the content of the leaf being written:
    /// an open paragraph, an ATX heading or the last cell of a table's last
    /// row whose line has not ended.
    func openLeafInlines(_ t: BlockParser, _ leaf: Leaf, _ s: Bytes, source: [UInt8]) -> InlineParser? {
        let blk = t.blocks[Int(leaf.block)]
        guard blk.lineCount > 0 else { return nil }
        let last = t.lines[Int(blk.firstLine + blk.lineCount - 1)]
        let lineEnded = hasLineEnding(s, Int(last.end), s.count)
        let ip = InlineParser(options: options, labels: t.labels)
        switch leaf.kind {
        case .paragraph:
            guard leaf.open else { return nil }
            t.loadLeafContent(leaf.block, inline: ip, trimTrailing: true)
        case .heading:
            guard !blk.setext, !lineEnded else { return nil }
            t.loadLeafContent(leaf.block, inline: ip, trimTrailing: true)
        case .table:
            guard blk.lineCount > 1, !lineEnded else { return nil }
            var e = Int(last.end)
            while e > Int(last.start) && isSpaceOrTab(s[e - 1]) { e -= 1 }
            // A row ending in `|` has no cell being written.
            if e > Int(last.start) && s[e - 1] == UInt8(ascii: "|")
                && !(e - 2 >= Int(last.start) && s[e - 2] == UInt8(ascii: "\\")) { return nil }
            guard let cell = BlockParser.splitRow(s, Int(last.start), Int(last.end)).last, cell.1 > cell.0 else { return nil }
            ip.content = Array(UnsafeBufferPointer(rebasing: s[cell.0..<cell.1]))
            ip.lineContentStart = [0]
            ip.lineSourceStart = [cell.0]
        default:
            return nil
        }
        guard !ip.content.isEmpty else { return nil }
        ip.parse()
        return ip
    }

    func hasLineEnding(_ s: Bytes, _ from: Int, _ to: Int) -> Bool {
        var i = from
        while i < to {
            if s[i] == 0x0A || s[i] == 0x0D { return true }
            i += 1
        }
        return false
    }

    /// Walks the leaf's top-level inlines in order. Delimiter runs that
    /// can open, are unmatched and stand at the top level (not sealed inside
    /// a finished emphasis or link) get closers; the first backtick run or
    /// math opener without a closer, or a `](` whose destination is still
    /// being typed, ends the walk: everything after it belongs to it.
    func leftovers(_ ip: InlineParser) -> Unterminated? {
        let c = ip.content
        let n = c.count
        // Unmatched openers. A run that could also close (`a*b`) is left
        // alone: inside a word it is more often literal than emphasis.
        var openerCount: [Int32: Int32] = [:]
        for d in ip.delimiters where d.canOpen && !d.canClose && d.count > 0 {
            openerCount[d.node] = d.count
        }
        var openers: [(char: UInt8, count: Int)] = []
        var brackets: [(start: Int, length: Int)] = []
        var u = Unterminated()
        var cut: Int? = nil
        var x = ip.nodes[0].first
        walk: while x >= 0 {
            let node = ip.nodes[Int(x)]
            defer { x = node.next }
            guard node.kind == .text else { continue }
            let a = Int(node.start), e = Int(node.end)
            guard a < e else { continue }
            if let count = openerCount[x] {
                openers.append((c[a], Int(count)))
                continue
            }
            switch c[a] {
            case UInt8(ascii: "`"):
                u.atomicCloser = Array(c[a..<e])
                break walk
            case UInt8(ascii: "$") where options.contains(.math) && e < n:
                let next = c[e]
                // `$5` is a price, not math (spec/math.md's currency rule).
                if e - a == 1 && (next == 0x20 || next == 0x09 || next == 0x0A || isASCIIDigit(next)) { continue }
                if e - a > 2 { continue }
                u.atomicCloser = Array(c[a..<e])
                break walk
            case UInt8(ascii: "\\") where options.contains(.math) && e - a == 2:
                if c[a + 1] == UInt8(ascii: "(") {
                    u.atomicCloser = Array("\\)".utf8)
                    break walk
                }
                if c[a + 1] == UInt8(ascii: "[") {
                    u.atomicCloser = Array("\\]".utf8)
                    break walk
                }
            case UInt8(ascii: "["):
                brackets.append((a, 1))
            case UInt8(ascii: "!") where e - a == 2 && c[a + 1] == UInt8(ascii: "["):
                brackets.append((a, 2))
            case UInt8(ascii: "]") where e - a == 1:
                if let open = brackets.last, e < n, c[e] == UInt8(ascii: "("),
                   ProvisionalRepair.isLinkTailPrefix(c, e + 1, n) {
                    u.deletions.append(ip.sourceOffset(open.start)..<(ip.sourceOffset(open.start) + open.length))
                    cut = a
                    break walk
                }
                if !brackets.isEmpty { brackets.removeLast() }
            default:
                break
            }
        }
        let contentEnd = n > 0 ? ip.sourceOffset(n - 1) + 1 : ip.lineSourceStart[0]
        if let cut {
            let at = ip.sourceOffset(cut)
            u.deletions.append(at..<contentEnd)
            u.insertAt = at
        } else {
            u.insertAt = contentEnd
        }
        for (char, count) in openers.suffix(ProvisionalRepair.maxClosedOpeners).reversed() {
            u.emphasisClosers.append(contentsOf: repeatElement(char, count: count))
        }
        if u.atomicCloser.isEmpty && u.emphasisClosers.isEmpty && u.deletions.isEmpty { return nil }
        return u
    }

    /// Whether `c[start..<end]`, what follows `](`, can still become an
    /// inline link's destination and title: it is a proper prefix of
    /// `destination title)` (spec 6.3) that has not yet failed.
    static func isLinkTailPrefix(_ c: [UInt8], _ start: Int, _ end: Int) -> Bool {
        var i = start
        func skipSpace() { while i < end && (c[i] == 0x20 || c[i] == 0x09 || c[i] == 0x0A) { i += 1 } }
        skipSpace()
        if i == end { return true }
        if c[i] == UInt8(ascii: ")") { return false }
        // Destination.
        if c[i] == UInt8(ascii: "<") {
            i += 1
            while i < end && c[i] != UInt8(ascii: ">") {
                if c[i] == 0x0A || c[i] == UInt8(ascii: "<") { return false }
                if c[i] == UInt8(ascii: "\\") { i += 1 }
                i += 1
            }
            if i >= end { return true }
            i += 1
        } else {
            var depth = 0
            while i < end {
                let b = c[i]
                if b == 0x20 || b == 0x09 || b == 0x0A { break }
                if b < 0x20 || b == 0x7F { return false }
                if b == UInt8(ascii: "\\") { i += 2; continue }
                if b == UInt8(ascii: "(") { depth += 1 }
                if b == UInt8(ascii: ")") {
                    if depth == 0 { return false }
                    depth -= 1
                }
                i += 1
            }
            if i >= end { return true }
        }
        skipSpace()
        if i == end { return true }
        // Title.
        let open = c[i]
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""): close = open
        case UInt8(ascii: "'"): close = open
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return false
        }
        i += 1
        while i < end && c[i] != close {
            if c[i] == UInt8(ascii: "\\") { i += 1 }
            i += 1
        }
        if i >= end { return true }
        i += 1
        skipSpace()
        return i == end
    }
}
