/// Phase 1 of parsing (spec appendix "A parsing strategy"): the block
/// structure, one line at a time.
///
/// For each line: (1) `matchOpenBlocks` — which open containers the line
/// continues; (2) `openNewBlocks` — which new blocks start; (3)
/// `addLineToContainer` — where the rest of the line goes. The state
/// survives between lines and between calls to `consumeLines`, which is
/// what lets the streaming parser feed it chunk by chunk.
final class BlockParser {
    /// The source being parsed; valid only during a `consumeLines` call.
    @exclusivity(unchecked) var s: Bytes = Bytes(start: nil, count: 0)
    let options: ParseOptions

    @exclusivity(unchecked) var blocks: [Block] = []
    @exclusivity(unchecked) var lines: [Line] = []
    /// `emitTail`'s work stack (streaming), kept between snapshots.
    @exclusivity(unchecked) var tailStack: [(block: Int32, parent: Int32)] = []
    @exclusivity(unchecked) var tailRuns: [(node: Int32, entry: Int)] = []
    /// What the last `emitTail` wrote (streaming, for the spare storages a
    /// held update leaves): every node from `tailRewriteFrom` on, and below
    /// it only the nodes in `tailTouched` (the open containers it rewrote,
    /// the parents and previous siblings it linked nodes to, the last node
    /// of a run of kept children it unlinked).
    @exclusivity(unchecked) var tailRewriteFrom = 0
    @exclusivity(unchecked) var tailTouched: [Int32] = []
    /// Whether `emitTail` records `tailTouched` (only a held update needs it).
    @exclusivity(unchecked) var tailRecording = false
    /// While a streaming snapshot runs: the number of blocks at its
    /// checkpoint (those are the persistent parser's); 0 otherwise.
    @exclusivity(unchecked) var persistentFloor: Int32 = 0
    /// For lists of the persistent parser, by block index: the last item
    /// through which the list is known to be tight, or -1 (see `isTight`).
    @exclusivity(unchecked) var tightThrough: [Int32] = []
    /// `emitInlines`' work stack, kept to avoid an allocation per leaf.
    @exclusivity(unchecked) var emitStack: [(Int32, Int32, Bool)] = []
    /// The state `checkpoint()` saves for `rollback(to:)` (streaming; reused).
    @exclusivity(unchecked) var checkpointChain: [Int32] = []
    @exclusivity(unchecked) var checkpointSaved: [(index: Int32, block: Block)] = []
    /// The deepest open block.
    @exclusivity(unchecked) var tip: Int32 = 0
    /// Link reference definitions and footnote labels (the first one of a
    /// label wins).
    @exclusivity(unchecked) var labels = LabelTable()
    /// Labels go to the table's overlay (see `LabelTable`): while a
    /// streaming snapshot runs, or in a scratch parser that must not change
    /// the table it was given.
    @exclusivity(unchecked) var labelsToOverlay = false
    /// How many times a definition was parsed (for the streaming tests:
    /// a run of definitions must not be read again at every append).
    @exclusivity(unchecked) var definitionParses = 0
    /// Byte offset of the start of each line.
    @exclusivity(unchecked) var lineStarts: [UInt32] = [0]

    // The current line.
    @exclusivity(unchecked) var lineNumber = -1
    @exclusivity(unchecked) var lineStart = 0
    @exclusivity(unchecked) var lineEnd = 0
    @exclusivity(unchecked) var offset = 0
    @exclusivity(unchecked) var column = 0
    @exclusivity(unchecked) var firstNonspace = 0
    @exclusivity(unchecked) var firstNonspaceColumn = 0
    @exclusivity(unchecked) var indent = 0
    @exclusivity(unchecked) var blank = false
    @exclusivity(unchecked) var partiallyConsumedTab = false
    /// End (line ending excluded) of the previous line, where blocks closed
    /// by the current line end.
    @exclusivity(unchecked) var previousLineEnd = 0
    /// Set when the current line opened a fenced block (its first line is
    /// the fence, not content).
    @exclusivity(unchecked) var openedFenceThisLine = false

    @exclusivity(unchecked) var thematicBreakLine = -1
    @exclusivity(unchecked) var thematicBreakFailsAt = 0
    @exclusivity(unchecked) var thematicBreakChar: UInt8 = 0
    /// Whether the previous line was blank (for skipping runs of them).
    @exclusivity(unchecked) var previousLineWasBlank = false
    /// The previous line when it changed nothing but blank-line flags: only
    /// containers matched, the rest was blank, no block opened or closed.
    /// The same bytes again change nothing either (`>` lines under 10,000
    /// nested list items would otherwise cost 10,000 steps each).
    @exclusivity(unchecked) var repeatableLineStart = -1
    @exclusivity(unchecked) var repeatableLineLength = 0
    /// Where the next unprocessed line starts.
    @exclusivity(unchecked) var position = 0

    /// Column alignments of each table, by `Block.extra`.
    @exclusivity(unchecked) var tableAlignments: [[TableAlignment]] = []

    init(options: ParseOptions) {
        self.options = options
        var doc = Block(kind: .document, start: 0, startLine: 0)
        doc.isOpen = true
        blocks.reserveCapacity(64)
        blocks.append(doc)
    }

    static func parseDocument(_ source: [UInt8], options: ParseOptions) -> DocumentStorage {
        let parser = BlockParser(options: options)
        // (About one block per 100 source bytes: see `makeStorage`.)
        parser.blocks.reserveCapacity(source.count / 64)
        source.withUnsafeBufferPointer { buffer in
            parser.s = buffer
            parser.consumeLines(final: true)
            parser.finishDocument()
        }
        return parser.makeStorage(source: source)
    }

    // MARK: Lines

    /// Processes every complete line from `position`; with `final`, also a
    /// last line without a line ending. A CR at the very end of a non-final
    /// buffer is left for later: the next byte may be its LF.
    func consumeLines(final: Bool) {
        let n = s.count
        var i = position
        while i < n {
            var e = i
            e = BlockScan.findLineEnd(s, e, n)
            if e == n && !final { break }
            var next = e
            if e < n {
                if s[e] == 0x0D {
                    if e + 1 < n {
                        next = s[e + 1] == 0x0A ? e + 2 : e + 1
                    } else if final {
                        next = e + 1
                    } else {
                        break
                    }
                } else {
                    next = e + 1
                }
            }
            processLine(start: i, end: e)
            i = next
            position = next
            if next <= n && e < n { lineStarts.append(UInt32(truncatingIfNeeded: next)) }
        }
    }

    // MARK: Column bookkeeping (tabs, spec 2.2)

    @inline(__always) func peek(_ i: Int) -> UInt8 { i < lineEnd ? s[i] : 0x0A }

    func findFirstNonspace() {
        // The first non-space byte of the rest of the line is found once and
        // reused while `offset` stays before it: rescanning for every open
        // container would make deeply nested lists quadratic.
        if firstNonspace > offset {
            indent = firstNonspaceColumn - column
            blank = firstNonspace >= lineEnd
            return
        }
        var charsToTab = 4 - (column % 4)
        var i = offset
        var col = column
        while i < lineEnd {
            let c = s[i]
            if c == 0x20 {
                i += 1
                col += 1
                charsToTab -= 1
                if charsToTab == 0 { charsToTab = 4 }
            } else if c == 0x09 {
                i += 1
                col += charsToTab
                charsToTab = 4
            } else {
                break
            }
        }
        firstNonspace = i
        firstNonspaceColumn = col
        indent = col - column
        blank = i >= lineEnd
    }

    /// Advances by `count` bytes, or by `count` columns when `columns` is
    /// set — in which case a tab may be only partly consumed.
    func advanceOffset(_ count: Int, columns: Bool) {
        var count = count
        while count > 0 && offset < lineEnd {
            if s[offset] == 0x09 {
                let charsToTab = 4 - (column % 4)
                if columns {
                    partiallyConsumedTab = charsToTab > count
                    let advance = min(count, charsToTab)
                    column += advance
                    offset += partiallyConsumedTab ? 0 : 1
                    count -= advance
                } else {
                    partiallyConsumedTab = false
                    column += charsToTab
                    offset += 1
                    count -= 1
                }
            } else {
                partiallyConsumedTab = false
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    // MARK: The tree

    @inline(__always) func kind(_ b: Int32) -> NodeKind { blocks[Int(b)].kind }

    static func canContain(_ parent: NodeKind, _ child: NodeKind) -> Bool {
        switch parent {
        case .document, .blockQuote, .item, .footnoteDefinition, .alert:
            return child != .item
        case .list:
            return child == .item
        default:
            return false
        }
    }

    /// Adds a block as the last child of `parent`, first closing blocks that
    /// cannot contain it.
    @discardableResult
    func addChild(_ parentIn: Int32, _ kind: NodeKind, start: Int) -> Int32 {
        var parent = parentIn
        while !BlockParser.canContain(blocks[Int(parent)].kind, kind) {
            parent = finalize(parent)
        }
        let index = Int32(blocks.count)
        var b = Block(kind: kind, start: start, startLine: lineNumber)
        b.parent = parent
        let last = blocks[Int(parent)].lastChild
        b.prev = last
        if last >= 0 { blocks[Int(last)].next = index } else { blocks[Int(parent)].firstChild = index }
        blocks[Int(parent)].lastChild = index
        blocks.append(b)
        return index
    }

    func unlink(_ b: Int32) {
        let blk = blocks[Int(b)]
        if blk.prev >= 0 { blocks[Int(blk.prev)].next = blk.next } else if blk.parent >= 0 { blocks[Int(blk.parent)].firstChild = blk.next }
        if blk.next >= 0 { blocks[Int(blk.next)].prev = blk.prev } else if blk.parent >= 0 { blocks[Int(blk.parent)].lastChild = blk.prev }
        // `parent` is kept: the block may still be the tip, and closing it
        // must lead to its parent.
        blocks[Int(b)].next = -1
        blocks[Int(b)].prev = -1
    }

    func addLine(_ b: Int32, from start: Int) {
        var pad = 0
        var st = start
        // Only a line added from the current offset starts inside the
        // half-consumed tab; one added from the first non-space is past it.
        if partiallyConsumedTab && start == offset {
            // The rest of a half-consumed tab counts as spaces (example 7).
            st += 1
            pad = 4 - (column % 4)
        }
        if blocks[Int(b)].lineCount == 0 { blocks[Int(b)].firstLine = Int32(lines.count) }
        lines.append(Line(start: st, end: lineEnd, pad: pad))
        blocks[Int(b)].lineCount += 1
    }

    // MARK: One line

    func processLine(start: Int, end: Int) {
        lineNumber += 1
        lineStart = start
        lineEnd = end
        offset = start
        column = 0
        blank = false
        partiallyConsumedTab = false
        openedFenceThisLine = false
        firstNonspace = -1

        // A blank line after a blank line changes nothing when the tip is a
        // container: the same blocks match, nothing is added and the
        // tight/loose flags are already set. Skipping it keeps runs of empty
        // lines inside 10,000 nested list items linear.
        let lineBlank = BlockScan.isBlankRest(s, start, end)
        if previousLineWasBlank && lineBlank {
            switch blocks[Int(tip)].kind {
            case .document, .list, .item, .footnoteDefinition:
                previousLineEnd = lineEnd
                return
            default:
                break
            }
        }
        previousLineWasBlank = lineBlank
        if repeatableLineStart >= 0 && end - start == repeatableLineLength
            && BlockScan.equalBytes(s, start, repeatableLineStart, repeatableLineLength) {
            previousLineEnd = lineEnd
            return
        }
        repeatableLineStart = -1
        let tipBefore = tip
        let blockCountBefore = blocks.count
        let lineCountBefore = lines.count

        // 1. Which open blocks does this line continue?
        var container: Int32 = 0
        var allMatched = true
        var lineDone = false
        while true {
            let last = blocks[Int(container)].lastChild
            guard last >= 0 && blocks[Int(last)].isOpen else { break }
            container = last
            findFirstNonspace()
            let matched: Bool
            switch blocks[Int(container)].kind {
            case .blockQuote:
                matched = matchBlockQuote()
            case .item:
                matched = matchItem(container)
            case .footnoteDefinition:
                matched = matchFootnoteDefinition(container)
            case .alert:
                matched = matchBlockQuote()
            case .codeBlock, .mathBlock:
                let r = matchFencedOrIndented(container)
                if r == .closed {
                    lineDone = true
                    matched = true
                } else {
                    matched = r == .matched
                }
            case .heading, .thematicBreak:
                matched = false
            case .htmlBlock:
                matched = !(blank && blocks[Int(container)].htmlKind >= 6)
            case .paragraph:
                matched = !blank
            case .table:
                matched = matchTable(container)
            default:
                matched = true
            }
            if lineDone {
                // A closing fence: the line belongs to the block, which is now closed.
                blocks[Int(container)].end = Int32(truncatingIfNeeded: lineEnd)
                tip = finalize(container, endSet: true)
                previousLineEnd = lineEnd
                return
            }
            if !matched {
                container = blocks[Int(container)].parent
                allMatched = false
                break
            }
        }
        let lastMatched = container

        // 2. New block starts.
        container = openNewBlocks(container, allMatched: allMatched)

        // 3. The rest of the line.
        addLineToContainer(container, lastMatched: lastMatched)
        previousLineEnd = lineEnd
        if blank && tip == tipBefore && blocks.count == blockCountBefore && lines.count == lineCountBefore {
            switch blocks[Int(tip)].kind {
            case .document, .list, .item, .blockQuote, .alert, .footnoteDefinition:
                repeatableLineStart = start
                repeatableLineLength = end - start
            default:
                break
            }
        }
    }

    /// A thematic break at `pos` (spec 4.1: three or more of one of `*`,
    /// `-`, `_`, with any spaces or tabs between, and nothing else),
    /// remembering where the line stopped being one: `- - - - … x` would otherwise be rescanned at every nested list
    /// item it opens.
    func isThematicBreak(_ pos: Int) -> Bool {
        let ch = s[pos]
        if thematicBreakLine == lineNumber && thematicBreakChar == ch && pos <= thematicBreakFailsAt { return false }
        var count = 0
        var i = pos
        while i < lineEnd {
            let b = s[i]
            if b == ch { count += 1 } else if !isSpaceOrTab(b) { break }
            i += 1
        }
        if i == lineEnd && count >= 3 { return true }
        thematicBreakLine = lineNumber
        thematicBreakChar = ch
        thematicBreakFailsAt = i
        return false
    }

    func matchBlockQuote() -> Bool {
        guard indent <= 3 && peek(firstNonspace) == UInt8(ascii: ">") else { return false }
        advanceOffset(indent + 1, columns: true)
        if isSpaceOrTab(peek(offset)) { advanceOffset(1, columns: true) }
        return true
    }

    func matchItem(_ b: Int32) -> Bool {
        let blk = blocks[Int(b)]
        let need = Int(blk.markerOffset + blk.padding)
        if indent >= need {
            advanceOffset(need, columns: true)
            return true
        }
        if blank && blk.firstChild >= 0 {
            advanceOffset(firstNonspace - offset, columns: false)
            return true
        }
        return false
    }

    func matchFootnoteDefinition(_ b: Int32) -> Bool {
        if indent >= 4 {
            advanceOffset(4, columns: true)
            return true
        }
        if blank {
            advanceOffset(firstNonspace - offset, columns: false)
            return true
        }
        return false
    }

    enum FenceMatch { case matched, unmatched, closed }

    func matchFencedOrIndented(_ b: Int32) -> FenceMatch {
        let blk = blocks[Int(b)]
        if blk.fenced {
            if blk.kind == .mathBlock && blk.htmlKind != 2 {
                return matchMathBlockLine(b)
            }
            if indent <= 3 && peek(firstNonspace) == blk.fenceChar
                && BlockScan.closingFence(s, firstNonspace, lineEnd, char: blk.fenceChar, length: Int(blk.fenceLength)) {
                return .closed
            }
            var i = Int(blk.fenceOffset)
            while i > 0 && isSpaceOrTab(peek(offset)) {
                advanceOffset(1, columns: true)
                i -= 1
            }
            return .matched
        }
        if indent >= 4 {
            advanceOffset(4, columns: true)
            return .matched
        }
        if blank {
            advanceOffset(firstNonspace - offset, columns: false)
            return .matched
        }
        return .unmatched
    }

    func openNewBlocks(_ start: Int32, allMatched: Bool) -> Int32 {
        var container = start
        var maybeLazy = blocks[Int(tip)].kind == .paragraph
        loop: while true {
            let ck = blocks[Int(container)].kind
            if ck == .codeBlock || ck == .htmlBlock || ck == .mathBlock { break }
            findFirstNonspace()
            let indented = indent >= 4
            let c = peek(firstNonspace)
            if !indented && c == UInt8(ascii: ">") {
                let quoteStart = firstNonspace
                advanceOffset(firstNonspace + 1 - offset, columns: false)
                if isSpaceOrTab(peek(offset)) { advanceOffset(1, columns: true) }
                container = addChild(container, .blockQuote, start: quoteStart)
                if options.contains(.alerts) { container = maybeAlert(container) }
            } else if !indented && c == UInt8(ascii: "#"), let h = BlockScan.atxHeading(s, firstNonspace, lineEnd) {
                container = addChild(container, .heading, start: firstNonspace)
                blocks[Int(container)].level = UInt8(h.level)
                blocks[Int(container)].firstLine = Int32(lines.count)
                blocks[Int(container)].lineCount = 1
                lines.append(Line(start: h.start, end: h.end))
                offset = lineEnd
                column = 0
            } else if !indented && (c == UInt8(ascii: "`") || c == UInt8(ascii: "~")),
                      let f = BlockScan.openingFence(s, firstNonspace, lineEnd) {
                let isMath = options.contains(.math) && isMathInfo(f.infoStart, f.infoEnd)
                container = addChild(container, isMath ? .mathBlock : .codeBlock, start: firstNonspace)
                blocks[Int(container)].fenced = true
                blocks[Int(container)].fenceChar = f.char
                blocks[Int(container)].fenceLength = Int32(f.length)
                blocks[Int(container)].fenceOffset = Int32(indent)
                blocks[Int(container)].infoStart = Int32(f.infoStart)
                blocks[Int(container)].infoEnd = Int32(f.infoEnd)
                blocks[Int(container)].htmlKind = isMath ? 2 : 0
                openedFenceThisLine = true
                offset = lineEnd
            } else if !indented && c == UInt8(ascii: "<"),
                      case let k = BlockScan.htmlBlockStart(s, firstNonspace, lineEnd, allowKind7: ck != .paragraph), k > 0 {
                container = addChild(container, .htmlBlock, start: firstNonspace)
                blocks[Int(container)].htmlKind = UInt8(k)
                // The tag is part of the content: offset stays where it is.
            } else if !indented && ck == .paragraph && (c == UInt8(ascii: "=") || c == UInt8(ascii: "-")),
                      case let level = BlockScan.setextUnderline(s, firstNonspace, lineEnd), level > 0 {
                // A paragraph made only of reference definitions cannot be a
                // heading (example 217-ish): resolve them first.
                if resolveDefinitions(container) {
                    blocks[Int(container)].kind = .heading
                    blocks[Int(container)].level = UInt8(level)
                    blocks[Int(container)].setext = true
                    offset = lineEnd
                    blocks[Int(container)].end = Int32(truncatingIfNeeded: lineEnd)
                } else {
                    // No line is left: the underline is the paragraph's
                    // text, its first line (added from here).
                    blocks[Int(container)].start = Int32(truncatingIfNeeded: firstNonspace)
                }
            } else if !indented && !(ck == .paragraph && !allMatched)
                        && (c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_"))
                        && isThematicBreak(firstNonspace) {
                container = addChild(container, .thematicBreak, start: firstNonspace)
                offset = lineEnd
            } else if options.contains(.footnotes) && !indented && c == UInt8(ascii: "["),
                      let fn = footnoteDefinitionStart(firstNonspace) {
                container = startFootnoteDefinition(container, labelStart: fn.labelStart, labelEnd: fn.labelEnd, contentStart: fn.contentStart)
            } else if !indented && options.contains(.math) && (c == UInt8(ascii: "$") || c == UInt8(ascii: "\\")),
                      let m = mathBlockStart(firstNonspace, interruptsParagraph: ck == .paragraph) {
                container = startMathBlock(container, m)
            } else if !indented, let (ordered, marker, number, width) = listMarker(firstNonspace, interruptsParagraph: ck == .paragraph) {
                container = startListItem(container, ordered: ordered, marker: marker, number: number, width: width)
            } else if indented && !maybeLazy && !blank {
                advanceOffset(4, columns: true)
                container = addChild(container, .codeBlock, start: offset)
            } else if !indented && ck == .paragraph && options.contains(.table), let table = tryStartTable(container) {
                container = table
            } else {
                break loop
            }
            let nk = blocks[Int(container)].kind
            if nk == .paragraph || nk == .heading || nk == .codeBlock || nk == .table || nk == .mathBlock { break }
            maybeLazy = false
        }
        return container
    }

    func addLineToContainer(_ containerIn: Int32, lastMatched: Int32) {
        var container = containerIn
        findFirstNonspace()
        if blank, blocks[Int(container)].lastChild >= 0 {
            blocks[Int(blocks[Int(container)].lastChild)].lastLineBlank = true
        }
        let ck = blocks[Int(container)].kind
        let lastLineBlank = blank && ck != .blockQuote && ck != .alert && ck != .heading && ck != .thematicBreak
            && !((ck == .codeBlock || ck == .mathBlock) && blocks[Int(container)].fenced)
            && !(ck == .item && blocks[Int(container)].firstChild < 0 && Int(blocks[Int(container)].startLine) == lineNumber)
        blocks[Int(container)].lastLineBlank = lastLineBlank
        var t = container
        while blocks[Int(t)].parent >= 0 {
            t = blocks[Int(t)].parent
            blocks[Int(t)].lastLineBlank = false
        }

        if tip != lastMatched && container == lastMatched && !blank && blocks[Int(tip)].kind == .paragraph {
            // Lazy continuation line (spec 5.1, "laziness").
            addParagraphLine(tip)
            return
        }
        // Close the blocks this line did not continue.
        while tip != lastMatched && tip > 0 {
            tip = finalize(tip)
        }
        switch ck {
        case .codeBlock:
            if !openedFenceThisLine { addLine(container, from: offset) }
        case .mathBlock:
            addMathLine(container)
        case .htmlBlock:
            addLine(container, from: offset)
            let kindH = Int(blocks[Int(container)].htmlKind)
            if kindH >= 1 && kindH <= 5 && BlockScan.htmlBlockEnds(s, offset, lineEnd, kind: kindH) {
                blocks[Int(container)].end = Int32(truncatingIfNeeded: lineEnd)
                container = finalize(container, endSet: true)
            }
        case .heading, .thematicBreak:
            break
        case .table:
            if !blank { addTableRow(container) }
        default:
            if blank {
                break
            } else if ck == .paragraph {
                addParagraphLine(container)
            } else {
                container = addChild(container, .paragraph, start: firstNonspace)
                addLine(container, from: firstNonspace)
            }
        }
        tip = container
    }

    /// Adds the rest of the line to open paragraph `b`, taking out first
    /// the definitions a line that starts with `[` makes final.
    @inline(__always)
    func addParagraphLine(_ b: Int32) {
        if peek(firstNonspace) == UInt8(ascii: "[") && takeFinalDefinitions(b) {
            addLine(b, from: firstNonspace)
            blocks[Int(b)].start = lines[Int(blocks[Int(b)].firstLine)].start
        } else {
            addLine(b, from: firstNonspace)
        }
    }

    // MARK: List items (spec 5.2)

    /// A list marker at `pos`: whether ordered, the bullet or delimiter, the
    /// start number, and the marker's width in bytes.
    func listMarker(_ pos: Int, interruptsParagraph: Bool) -> (Bool, UInt8, Int32, Int)? {
        let c = peek(pos)
        if c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") {
            let n = peek(pos + 1)
            guard isSpaceOrTab(n) || pos + 1 >= lineEnd else { return nil }
            if interruptsParagraph && BlockScan.isBlankRest(s, pos + 1, lineEnd) { return nil }
            return (false, c, 0, 1)
        }
        if isASCIIDigit(c) {
            var i = pos
            var value: Int32 = 0
            // At most nine digits (spec 5.2: "1–9 arabic digits"), so the
            // start number fits in 32 bits and browsers agree on it.
            while i < lineEnd && isASCIIDigit(s[i]) && i - pos < 9 {
                value = value * 10 + Int32(s[i] - 0x30)
                i += 1
            }
            guard i < lineEnd else { return nil }
            let d = s[i]
            guard (d == UInt8(ascii: ".") || d == UInt8(ascii: ")")) && i - pos >= 1 else { return nil }
            let n = peek(i + 1)
            guard isSpaceOrTab(n) || i + 1 >= lineEnd else { return nil }
            if interruptsParagraph && (value != 1 || BlockScan.isBlankRest(s, i + 1, lineEnd)) { return nil }
            return (true, d, value, i + 1 - pos)
        }
        return nil
    }

    func startListItem(_ containerIn: Int32, ordered: Bool, marker: UInt8, number: Int32, width: Int) -> Int32 {
        var container = containerIn
        let itemStart = firstNonspace
        let markerOffset = indent
        advanceOffset(firstNonspace + width - offset, columns: false)
        let saveOffset = offset, saveColumn = column, saveTab = partiallyConsumedTab
        while column - saveColumn <= 5 && isSpaceOrTab(peek(offset)) {
            advanceOffset(1, columns: true)
        }
        let spaces = column - saveColumn
        var padding: Int
        if spaces >= 5 || spaces < 1 || offset >= lineEnd {
            // Blank after the marker, or indented code inside: one space of padding.
            padding = width + 1
            offset = saveOffset
            column = saveColumn
            partiallyConsumedTab = saveTab
            if spaces > 0 { advanceOffset(1, columns: true) }
        } else {
            padding = width + spaces
        }
        let ck = blocks[Int(container)].kind
        let p = blocks[Int(container)]
        if ck != .list || p.ordered != ordered || p.marker != marker {
            container = addChild(container, .list, start: itemStart)
            blocks[Int(container)].ordered = ordered
            blocks[Int(container)].marker = marker
            blocks[Int(container)].listStart = number
        }
        container = addChild(container, .item, start: itemStart)
        blocks[Int(container)].ordered = ordered
        blocks[Int(container)].marker = marker
        blocks[Int(container)].markerOffset = Int32(markerOffset)
        blocks[Int(container)].padding = Int32(padding)
        if options.contains(.tasklist) { recognizeTaskMarker(container) }
        return container
    }

    // MARK: Closing blocks

    /// Closes a block: settles its end and its content (reference
    /// definitions, tight lists, code block trimming). Returns its parent.
    @discardableResult
    func finalize(_ b: Int32, endSet: Bool = false) -> Int32 {
        let parent = blocks[Int(b)].parent
        guard blocks[Int(b)].isOpen else { return parent }
        // A container closed while its last child is still open (a list
        // ended by `---`) closes that child first, so its end is known.
        if blocks[Int(b)].lastChild >= 0 && blocks[Int(blocks[Int(b)].lastChild)].isOpen {
            var chain: [Int32] = []
            var c = blocks[Int(b)].lastChild
            while c >= 0 && blocks[Int(c)].isOpen {
                chain.append(c)
                c = blocks[Int(c)].lastChild
            }
            for open in chain.reversed() { finalize(open, endSet: false) }
        }
        blocks[Int(b)].isOpen = false
        if !endSet && !(blocks[Int(b)].kind == .heading && blocks[Int(b)].setext) {
            if blocks[Int(b)].startLine == Int32(lineNumber) && blocks[Int(b)].kind != .document {
                blocks[Int(b)].end = Int32(truncatingIfNeeded: lineEnd)
            } else {
                blocks[Int(b)].end = Int32(truncatingIfNeeded: max(previousLineEnd, Int(blocks[Int(b)].start)))
            }
        }
        switch blocks[Int(b)].kind {
        case .paragraph:
            if !resolveDefinitions(b) {
                unlink(b)
            }
        case .codeBlock:
            if !blocks[Int(b)].fenced {
                // Trailing blank lines are not part of an indented code block.
                var count = Int(blocks[Int(b)].lineCount)
                let first = Int(blocks[Int(b)].firstLine)
                while count > 0 {
                    let l = lines[first + count - 1]
                    if BlockScan.isBlankRest(s, Int(l.start), Int(l.end)) { count -= 1 } else { break }
                }
                blocks[Int(b)].lineCount = Int32(count)
                if count > 0 { blocks[Int(b)].end = lines[first + count - 1].end }
            }
        case .list:
            blocks[Int(b)].tight = isTight(b)
            if blocks[Int(b)].lastChild >= 0 {
                blocks[Int(b)].end = blocks[Int(blocks[Int(b)].lastChild)].end
            }
        case .item, .blockQuote, .alert, .footnoteDefinition:
            // A container ends where its last child ends: blank lines after
            // the content are not part of it.
            if blocks[Int(b)].lastChild >= 0 {
                blocks[Int(b)].end = blocks[Int(blocks[Int(b)].lastChild)].end
            }
        case .table:
            finalizeTable(b)
        default:
            break
        }
        return parent
    }

    func endsWithBlankLine(_ b: Int32) -> Bool {
        var cur = b
        while cur >= 0 {
            if blocks[Int(cur)].lastLineBlank { return true }
            switch blocks[Int(cur)].kind {
            case .list, .item: cur = blocks[Int(cur)].lastChild
            default: return false
            }
        }
        return false
    }

    /// Spec 5.3: a list is loose if any of its items are separated by blank
    /// lines, or if any item directly contains two blocks with a blank line
    /// between them.
    func isTight(_ list: Int32) -> Bool {
        var item = blocks[Int(list)].firstChild
        // In a streaming snapshot, the items known to pass from earlier
        // snapshots are not looked at again (a long open list would cost
        // every snapshot its length).
        let floor = persistentFloor
        if floor > 0 && list < floor && Int(list) < tightThrough.count {
            let known = tightThrough[Int(list)]
            if known >= 0 { item = blocks[Int(known)].next }
        }
        while item >= 0 {
            let it = blocks[Int(item)]
            if it.lastLineBlank && it.next >= 0 { return false }
            var sub = it.firstChild
            while sub >= 0 {
                // The cheap test first: walking down nested lists for every
                // item would make 10,000 nested lists quadratic.
                if (it.next >= 0 || blocks[Int(sub)].next >= 0) && endsWithBlankLine(sub) { return false }
                sub = blocks[Int(sub)].next
            }
            // Final for an item two before one of the persistent parser's
            // (the checkpoint saves, so the snapshot may change, only the
            // item just before an open one).
            if floor > 0 && list < floor && it.next >= 0 {
                let after = blocks[Int(it.next)].next
                if after >= 0 && after < floor {
                    if Int(list) >= tightThrough.count {
                        tightThrough.append(contentsOf: repeatElement(-1, count: Int(list) + 1 - tightThrough.count))
                    }
                    tightThrough[Int(list)] = item
                }
            }
            item = it.next
        }
        return true
    }

    /// Closes every open block at the end of the input.
    func finishDocument() {
        previousLineEnd = lineEnd
        lineNumber += 1
        var b = tip
        while b >= 0 {
            b = finalize(b)
        }
        tip = 0
        blocks[0].end = Int32(truncatingIfNeeded: s.count)
    }
}

extension BlockParser {
    /// A deep copy of the parser's state (the streaming parser is a value).
    func copy() -> BlockParser {
        let c = BlockParser(options: options)
        c.blocks = blocks
        c.lines = lines
        c.tip = tip
        c.labels = labels.copy()
        c.labelsToOverlay = labelsToOverlay
        c.lineStarts = lineStarts
        c.lineNumber = lineNumber
        c.lineStart = lineStart
        c.lineEnd = lineEnd
        c.offset = offset
        c.column = column
        c.firstNonspace = firstNonspace
        c.firstNonspaceColumn = firstNonspaceColumn
        c.indent = indent
        c.blank = blank
        c.partiallyConsumedTab = partiallyConsumedTab
        c.previousLineEnd = previousLineEnd
        c.openedFenceThisLine = openedFenceThisLine
        c.position = position
        c.previousLineWasBlank = previousLineWasBlank
        c.repeatableLineStart = repeatableLineStart
        c.repeatableLineLength = repeatableLineLength
        c.tableAlignments = tableAlignments
        return c
    }
}
