/// Display-math blocks (spec/math.md): `$$`, `\[` or `\\[` at the start of
/// a line, up to a line that ends with `$$`, `\]` or `\\]`; and fenced code
/// whose info string is `math`.
struct MathStart {
    /// 0: `$$ … $$`, 1: `\[ … \]`, 2: `\\[ … \\]`.
    var style: Int
    var contentStart: Int
    /// When the block closes on its first line: where its content ends.
    var closedAt: Int?
}

extension BlockParser {
    static let mathClosers: [[UInt8]] = [Array("$$".utf8), Array("\\]".utf8), Array("\\\\]".utf8)]

    func isMathInfo(_ start: Int, _ end: Int) -> Bool {
        var e = start
        while e < end && !isSpaceOrTab(s[e]) { e += 1 }
        return e - start == 4 && BlockScan.matchesLower(s, start, e, "math")
    }

    /// Where a line's content (from `from`, trailing spaces ignored) ends
    /// with the closer of `style`: the index of the closer, or nil.
    func mathCloser(style: Int, from: Int) -> Int? {
        var e = lineEnd
        while e > from && isSpaceOrTab(s[e - 1]) { e -= 1 }
        let closer = BlockParser.mathClosers[style]
        guard e - from >= closer.count else { return nil }
        for k in 0..<closer.count where s[e - closer.count + k] != closer[k] { return nil }
        let at = e - closer.count
        // `\\]` also ends with `\]`: a single-backslash block must not take
        // an escaped backslash for its closer.
        if style == 1 && at > from && s[at - 1] == UInt8(ascii: "\\") { return nil }
        return at
    }

    func mathBlockStart(_ pos: Int, interruptsParagraph: Bool) -> MathStart? {
        let style: Int
        let openLength: Int
        if s[pos] == UInt8(ascii: "$") {
            guard pos + 1 < lineEnd, s[pos + 1] == UInt8(ascii: "$"),
                  pos + 2 >= lineEnd || s[pos + 2] != UInt8(ascii: "$") else { return nil }
            style = 0
            openLength = 2
        } else if pos + 1 < lineEnd && s[pos + 1] == UInt8(ascii: "[") {
            style = 1
            openLength = 2
        } else if pos + 2 < lineEnd && s[pos + 1] == UInt8(ascii: "\\") && s[pos + 2] == UInt8(ascii: "[") {
            style = 2
            openLength = 3
        } else {
            return nil
        }
        let contentStart = pos + openLength
        // Closed on the same line: only a block if nothing follows.
        if let i = BlockParser.firstMathCloser(s, style: style, from: contentStart, to: lineEnd) {
            let after = i + BlockParser.mathClosers[style].count
            guard BlockScan.isBlankRest(s, after, lineEnd), !BlockScan.isBlankRest(s, contentStart, i) else { return nil }
            return MathStart(style: style, contentStart: contentStart, closedAt: i)
        }
        // A block that spans lines needs its opener alone on the line, so
        // that `\[not a link](/foo)` (CommonMark example 14) stays text.
        guard BlockScan.isBlankRest(s, contentStart, lineEnd) else { return nil }
        return MathStart(style: style, contentStart: contentStart, closedAt: nil)
    }

    /// Whether a line that starts with `$$`, `\[` or `\\[` at `pos`, known
    /// up to `end` (more bytes may follow), can no longer start a math
    /// block whatever follows (`mathBlockStart`): `$$$`, or the opener's
    /// first closer on the line has nothing between them or text after
    /// it. For the stream: such a line is a paragraph's. False when unsure.
    static func mathBlockStartRuledOut(_ s: Bytes, _ pos: Int, _ end: Int) -> Bool {
        let style: Int
        if s[pos] == UInt8(ascii: "$") {
            guard pos + 2 < end, s[pos + 1] == UInt8(ascii: "$") else { return false }
            if s[pos + 2] == UInt8(ascii: "$") { return true }
            style = 0
        } else if pos + 1 < end && s[pos + 1] == UInt8(ascii: "[") {
            style = 1
        } else if pos + 2 < end && s[pos + 1] == UInt8(ascii: "\\") && s[pos + 2] == UInt8(ascii: "[") {
            style = 2
        } else {
            return false
        }
        let contentStart = pos + (style == 2 ? 3 : 2)
        // (The first closer in the bytes so far is the whole line's.)
        guard let i = firstMathCloser(s, style: style, from: contentStart, to: end) else { return false }
        return !BlockScan.isBlankRest(s, i + mathClosers[style].count, end) || BlockScan.isBlankRest(s, contentStart, i)
    }

    /// The first closer of `style` in `s[from..<end]` (for `\]`, not the
    /// end of an escaped `\\]`): its index, or nil.
    static func firstMathCloser(_ s: Bytes, style: Int, from contentStart: Int, to end: Int) -> Int? {
        let closer = mathClosers[style]
        var i = contentStart
        while i + closer.count <= end {
            var hit = true
            for k in 0..<closer.count where s[i + k] != closer[k] {
                hit = false
                break
            }
            if hit && !(style == 1 && s[i - 1] == UInt8(ascii: "\\") && i - 1 >= contentStart) { return i }
            i += 1
        }
        return nil
    }

    func startMathBlock(_ container: Int32, _ m: MathStart) -> Int32 {
        let b = addChild(container, .mathBlock, start: firstNonspace)
        blocks[Int(b)].fenced = true
        blocks[Int(b)].fenceChar = UInt8(m.style)
        blocks[Int(b)].htmlKind = 0
        openedFenceThisLine = true
        if let at = m.closedAt {
            blocks[Int(b)].firstLine = Int32(lines.count)
            blocks[Int(b)].lineCount = 1
            lines.append(Line(start: m.contentStart, end: at))
            blocks[Int(b)].fenceLength = -1
        } else if !BlockScan.isBlankRest(s, m.contentStart, lineEnd) {
            blocks[Int(b)].firstLine = Int32(lines.count)
            blocks[Int(b)].lineCount = 1
            lines.append(Line(start: m.contentStart, end: lineEnd))
        }
        offset = lineEnd
        return b
    }

    /// Step 1 for an open math block: the closing line closes it.
    func matchMathBlockLine(_ b: Int32) -> FenceMatch {
        let blk = blocks[Int(b)]
        if blk.fenceLength < 0 { return .unmatched }
        if let at = mathCloser(style: Int(blk.fenceChar), from: offset) {
            if !BlockScan.isBlankRest(s, offset, at) {
                if blocks[Int(b)].lineCount == 0 { blocks[Int(b)].firstLine = Int32(lines.count) }
                lines.append(Line(start: offset, end: at))
                blocks[Int(b)].lineCount += 1
            }
            return .closed
        }
        return .matched
    }

    func addMathLine(_ b: Int32) {
        if openedFenceThisLine { return }
        if blocks[Int(b)].htmlKind == 2 {
            addLine(b, from: offset)
            return
        }
        if blocks[Int(b)].fenceLength < 0 { return }
        addLine(b, from: offset)
    }

    /// A math block's TeX: its lines joined by `\n`, surrounding blank
    /// lines and spaces removed.
    func mathLiteral(_ b: Int32, inline: InlineParser) -> ByteRef {
        let first = Int(blocks[Int(b)].firstLine)
        let count = Int(blocks[Int(b)].lineCount)
        var bytes: [UInt8] = []
        for k in 0..<count {
            let l = lines[first + k]
            if k > 0 { bytes.append(0x0A) }
            for _ in 0..<Int(l.pad) { bytes.append(0x20) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: s[Int(l.start)..<Int(l.end)]))
        }
        var a = 0, e = bytes.count
        while a < e && (bytes[a] == 0x20 || bytes[a] == 0x09 || bytes[a] == 0x0A) { a += 1 }
        while e > a && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 || bytes[e - 1] == 0x0A) { e -= 1 }
        if a == e { return .empty }
        let st = inline.arena.count
        if blocks[Int(b)].fenceChar == 2 && blocks[Int(b)].htmlKind != 2 {
            // `\\[ … \\]`: the whole block was escaped twice; undo it.
            var k = a
            while k < e {
                inline.arena.append(bytes[k])
                k += bytes[k] == UInt8(ascii: "\\") && k + 1 < e && bytes[k + 1] == UInt8(ascii: "\\") ? 2 : 1
            }
            return ByteRef.arena(st, inline.arena.count)
        }
        inline.arena.append(contentsOf: bytes[a..<e])
        return ByteRef.arena(st, inline.arena.count)
    }
}
