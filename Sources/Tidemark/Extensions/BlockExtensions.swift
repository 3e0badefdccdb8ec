/// Block-level extensions that are small enough to share a file: GitHub
/// alerts, task-list items and footnote definitions.
extension BlockParser {
    // MARK: Alerts

    /// Right after a block quote opened: `[!NOTE]` (any case) alone on the
    /// rest of the line turns it into an alert.
    func maybeAlert(_ quote: Int32) -> Int32 {
        var i = offset
        while i < lineEnd && isSpaceOrTab(s[i]) { i += 1 }
        guard i + 3 < lineEnd, s[i] == UInt8(ascii: "["), s[i + 1] == UInt8(ascii: "!") else { return quote }
        var j = i + 2
        while j < lineEnd && isASCIILetter(s[j]) { j += 1 }
        guard j < lineEnd, s[j] == UInt8(ascii: "]"), BlockScan.isBlankRest(s, j + 1, lineEnd) else { return quote }
        let kind: AlertKind
        if BlockScan.matchesLower(s, i + 2, j, "note") && j - i - 2 == 4 {
            kind = .note
        } else if BlockScan.matchesLower(s, i + 2, j, "tip") && j - i - 2 == 3 {
            kind = .tip
        } else if BlockScan.matchesLower(s, i + 2, j, "important") && j - i - 2 == 9 {
            kind = .important
        } else if BlockScan.matchesLower(s, i + 2, j, "warning") && j - i - 2 == 7 {
            kind = .warning
        } else if BlockScan.matchesLower(s, i + 2, j, "caution") && j - i - 2 == 7 {
            kind = .caution
        } else {
            return quote
        }
        blocks[Int(quote)].kind = .alert
        blocks[Int(quote)].extra = Int32(kind.rawValue)
        offset = lineEnd
        return quote
    }

    // MARK: Task list items

    /// Right after a list item's marker: `[ ]`, `[x]` or `[X]` followed by
    /// a space, a tab or the line end makes it a task item.
    func recognizeTaskMarker(_ item: Int32) {
        var i = offset
        if partiallyConsumedTab { return }
        while i < lineEnd && isSpaceOrTab(s[i]) { i += 1 }
        guard i + 2 < lineEnd, s[i] == UInt8(ascii: "["), s[i + 2] == UInt8(ascii: "]") else { return }
        let m = s[i + 1]
        guard m == 0x20 || m == UInt8(ascii: "x") || m == UInt8(ascii: "X") else { return }
        guard i + 3 == lineEnd || isSpaceOrTab(s[i + 3]) else { return }
        blocks[Int(item)].task = m == 0x20 ? .unchecked : .checked
        offset = i + 3
    }

    // MARK: Footnote definitions

    /// `[^label]:` at `pos`: the label range and where the content starts.
    func footnoteDefinitionStart(_ pos: Int) -> (labelStart: Int, labelEnd: Int, contentStart: Int)? {
        guard pos + 4 < lineEnd + 1, s[pos] == UInt8(ascii: "["), pos + 1 < lineEnd, s[pos + 1] == UInt8(ascii: "^") else { return nil }
        var i = pos + 2
        let labelStart = i
        while i < lineEnd {
            let b = s[i]
            if b == UInt8(ascii: "]") || b == 0x20 || b == 0x09 { break }
            if i - labelStart > LinkScan.maxLabelLength { return nil }
            i += 1
        }
        guard i > labelStart, i + 1 < lineEnd || i + 1 == lineEnd, i < lineEnd, s[i] == UInt8(ascii: "]"),
              i + 1 < lineEnd, s[i + 1] == UInt8(ascii: ":") else { return nil }
        var c = i + 2
        while c < lineEnd && isSpaceOrTab(s[c]) { c += 1 }
        return (labelStart, i, c)
    }

    func startFootnoteDefinition(_ container: Int32, labelStart: Int, labelEnd: Int, contentStart: Int) -> Int32 {
        let start = firstNonspace
        let def = addChild(container, .footnoteDefinition, start: start)
        blocks[Int(def)].infoStart = Int32(labelStart)
        blocks[Int(def)].infoEnd = Int32(labelEnd)
        let key = LinkScan.normalizeLabel(s, labelStart, labelEnd)
        labels.addFootnote(key, overlay: persistentFloor > 0 || labelsToOverlay)
        advanceOffset(contentStart - offset, columns: false)
        return def
    }

    func emitExtensionAttributes(_ b: Int32, _ node: inout RawNode, inline: InlineParser) {
        if blocks[Int(b)].kind == .footnoteDefinition {
            node.a = ByteRef.source(Int(blocks[Int(b)].infoStart), Int(blocks[Int(b)].infoEnd))
        }
    }
}
