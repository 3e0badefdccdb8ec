/// Link reference definitions (spec 4.7) are found at the start of
/// paragraphs when the paragraph closes (or when a setext underline or a
/// table would turn it into something else).
extension BlockParser {
    /// Joins a leaf's content lines with `\n` into `out`, and records where
    /// each line starts in it.
    func leafContent(_ b: Int32, into out: inout [UInt8], lineOffsets: inout [Int]) {
        out.truncate(to: 0)
        lineOffsets.truncate(to: 0)
        let first = Int(blocks[Int(b)].firstLine)
        let count = Int(blocks[Int(b)].lineCount)
        for k in 0..<count {
            let l = lines[first + k]
            if k > 0 { out.append(0x0A) }
            lineOffsets.append(out.count)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: s[Int(l.start)..<Int(l.end)]))
        }
    }

    /// Removes the reference definitions at the start of paragraph `b`,
    /// recording them. Returns whether any content is left.
    func resolveDefinitions(_ b: Int32) -> Bool {
        let count = Int(blocks[Int(b)].lineCount)
        guard count > 0 else { return false }
        guard s[Int(lines[Int(blocks[Int(b)].firstLine)].start)] == UInt8(ascii: "[") else { return true }
        let consumed = definitionLines(b, record: true)
        guard consumed > 0 else { return true }
        blocks[Int(b)].firstLine += Int32(consumed)
        blocks[Int(b)].lineCount -= Int32(consumed)
        if blocks[Int(b)].lineCount == 0 { return false }
        blocks[Int(b)].start = lines[Int(blocks[Int(b)].firstLine)].start
        return true
    }

    /// Called before a line whose first byte is `[` joins open paragraph
    /// `b`. When the paragraph's lines so far are all reference
    /// definitions, they are final: the line cannot continue the last
    /// one's title (a title opens with a quote or a parenthesis), and
    /// closing the paragraph would read the same definitions from the same
    /// bytes. Taking them out now, rather than when it closes, gives the
    /// same document, and keeps a run of n definitions linear for the
    /// stream, whose every snapshot closes the paragraph: it would read
    /// them all again at each append. (The paragraph keeps its `startLine`,
    /// as it would without this, and gets the joining line as its first.)
    /// Returns whether it took them (the paragraph has no line left).
    func takeFinalDefinitions(_ b: Int32) -> Bool {
        let blk = blocks[Int(b)]
        guard !blk.definitionsGivenUp, blk.lineCount > 0 else { return false }
        // Checked first without recording: lines that are not all
        // definitions may be one whose title the joining line continues.
        guard definitionLines(b, record: false) == Int(blk.lineCount) else {
            // (Checked once: the lines that stopped it stay in the paragraph.)
            blocks[Int(b)].definitionsGivenUp = true
            return false
        }
        _ = definitionLines(b, record: true)
        blocks[Int(b)].firstLine = Int32(lines.count)
        blocks[Int(b)].lineCount = 0
        return true
    }

    /// How many of paragraph `b`'s lines, from its first, the reference
    /// definitions at its start take; with `record`, records them.
    func definitionLines(_ b: Int32, record: Bool) -> Int {
        let count = Int(blocks[Int(b)].lineCount)
        let first = Int(blocks[Int(b)].firstLine)
        guard count > 0, s[Int(lines[first].start)] == UInt8(ascii: "[") else { return 0 }
        var content: [UInt8] = []
        var lineOffsets: [Int] = []
        leafContent(b, into: &content, lineOffsets: &lineOffsets)
        var consumed = 0
        content.withUnsafeBufferPointer { c in
            var pos = 0
            while pos < c.count && c[pos] == UInt8(ascii: "[") {
                guard let next = parseDefinition(c, pos, record: record) else { break }
                pos = next
            }
            // Definitions always end at a line end: count whole lines.
            if pos >= c.count {
                consumed = count
            } else {
                while consumed < lineOffsets.count && lineOffsets[consumed] < pos { consumed += 1 }
            }
        }
        return consumed
    }

    /// Parses one definition at `pos`; records it (with `record`) and
    /// returns the index of the next line, or nil when there is no
    /// definition there.
    func parseDefinition(_ c: Bytes, _ pos: Int, record: Bool = true) -> Int? {
        definitionParses &+= 1
        let end = c.count
        guard let label = LinkScan.label(c, pos, end), label.next < end, c[label.next] == UInt8(ascii: ":") else { return nil }
        var i = LinkScan.skipSpacesAndOneNewline(c, label.next + 1, end)
        guard let dest = LinkScan.destination(c, i, end) else { return nil }
        i = dest.next
        // A title needs whitespace before it (example 209).
        let afterDest = i
        var j = LinkScan.skipSpacesAndOneNewline(c, i, end)
        var titleRange: (Int, Int)? = nil
        var lineEndAt: Int? = nil
        if j > afterDest, let t = LinkScan.title(c, j, end) {
            var k = t.next
            while k < end && isSpaceOrTab(c[k]) { k += 1 }
            if k >= end || c[k] == 0x0A {
                titleRange = (t.start, t.end)
                lineEndAt = k
            }
        }
        if lineEndAt == nil {
            // No valid title: the destination must end its line.
            j = afterDest
            while j < end && isSpaceOrTab(c[j]) { j += 1 }
            guard j >= end || c[j] == 0x0A else { return nil }
            lineEndAt = j
        }
        if options.contains(.footnotes) && label.end > label.start && c[label.start] == UInt8(ascii: "^") {
            // `[^x]: …` is a footnote definition, handled as a block.
            return nil
        }
        let e = lineEndAt!
        guard record else { return e < end ? e + 1 : end }
        let key = LinkScan.normalizeLabel(c, label.start, label.end)
        let overlay = persistentFloor > 0 || labelsToOverlay
        if !key.isEmpty && labels.definitions[key] == nil && !(overlay && labels.overlayDefinitions[key] != nil) {
            var d: [UInt8] = []
            CharacterReferences.appendUnescaped(c, dest.start, dest.end, into: &d)
            var t: [UInt8] = []
            if let (ts, te) = titleRange { CharacterReferences.appendUnescaped(c, ts, te, into: &t) }
            labels.addDefinition(key, LinkDefinition(destination: d, title: t), overlay: overlay)
        }
        return e < end ? e + 1 : end
    }
}
