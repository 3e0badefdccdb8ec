/// GFM tables (GFM spec, "Tables (extension)").
///
/// A table starts when a paragraph's last line is a header row and the next
/// line is a delimiter row with the same number of cells. Rows continue
/// until a blank line or the start of another block. The table block keeps
/// its rows as content lines; cells are split when the tree is emitted.
extension BlockParser {
    /// The cells of a row: content ranges (trimmed), honoring `\|`.
    static func splitRow(_ s: Bytes, _ start: Int, _ end: Int) -> [(Int, Int)] {
        var cells: [(Int, Int)] = []
        splitRow(s, start, end, into: &cells)
        return cells
    }

    /// The same into `cells` (emptied first; no allocation when it has the
    /// capacity); returns whether the last cell ended at a pipe.
    @discardableResult
    static func splitRow(_ s: Bytes, _ start: Int, _ end: Int, into cells: inout [(Int, Int)]) -> Bool {
        cells.truncate(to: 0)
        var i = start
        var e = end
        while i < e && isSpaceOrTab(s[i]) { i += 1 }
        while e > i && isSpaceOrTab(s[e - 1]) { e -= 1 }
        if i < e && s[i] == UInt8(ascii: "|") { i += 1 }
        let (trailingPipe, openStart) = appendCells(s, i, e, into: &cells)
        if !trailingPipe && (openStart < e || cells.isEmpty) { appendCell(s, openStart, e, into: &cells) }
        return trailingPipe
    }

    /// The cells of a row's text from `start`, just after one of its pipes,
    /// to `end` (as `splitRow` would split them there: no leading pipe or
    /// indentation to strip); returns whether the row ends at a pipe and
    /// where the text after the last pipe starts.
    static func splitRowTail(_ s: Bytes, _ start: Int, _ end: Int, into cells: inout [(Int, Int)]) -> (endsAtPipe: Bool, openStart: Int) {
        cells.truncate(to: 0)
        var e = end
        while e > start && isSpaceOrTab(s[e - 1]) { e -= 1 }
        // Nothing but spaces after the pipe: the row ends at it.
        if e == start { return (true, start) }
        let (trailingPipe, openStart) = appendCells(s, start, e, into: &cells)
        if !trailingPipe { appendCell(s, openStart, e, into: &cells) }
        return (trailingPipe, openStart)
    }

    /// Appends the cells that unescaped pipes close in `s[start..<end]`
    /// (trimmed); returns whether the text ends at a pipe and where the text
    /// after the last pipe starts.
    @inline(__always)
    private static func appendCells(_ s: Bytes, _ start: Int, _ end: Int, into cells: inout [(Int, Int)]) -> (Bool, Int) {
        var cellStart = start
        var k = start
        var trailingPipe = false
        while k < end {
            let b = s[k]
            if b == UInt8(ascii: "\\") && k + 1 < end {
                k += 2
                continue
            }
            if b == UInt8(ascii: "|") {
                appendCell(s, cellStart, k, into: &cells)
                cellStart = k + 1
                if k + 1 == end { trailingPipe = true }
            }
            k += 1
        }
        return (trailingPipe, cellStart)
    }

    @inline(__always)
    private static func appendCell(_ s: Bytes, _ start: Int, _ end: Int, into cells: inout [(Int, Int)]) {
        var a = start, z = end
        while a < z && isSpaceOrTab(s[a]) { a += 1 }
        while z > a && isSpaceOrTab(s[z - 1]) { z -= 1 }
        cells.append((a, z))
    }

    /// A delimiter row (`| :-- | --: |`): the alignments, or nil.
    static func delimiterRow(_ s: Bytes, _ start: Int, _ end: Int) -> [TableAlignment]? {
        let cells = splitRow(s, start, end)
        guard !cells.isEmpty else { return nil }
        var result: [TableAlignment] = []
        result.reserveCapacity(cells.count)
        for (a, b) in cells {
            guard b > a else { return nil }
            var i = a, j = b
            let left = s[i] == UInt8(ascii: ":")
            if left { i += 1 }
            let right = j > i && s[j - 1] == UInt8(ascii: ":")
            if right { j -= 1 }
            guard j > i else { return nil }
            for k in i..<j where s[k] != UInt8(ascii: "-") { return nil }
            result.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return result
    }

    /// At a paragraph whose next line may be a delimiter row: starts a table
    /// and returns it, or nil.
    func tryStartTable(_ paragraph: Int32) -> Int32? {
        guard firstNonspace < lineEnd else { return nil }
        let c = s[firstNonspace]
        guard c == UInt8(ascii: "|") || c == UInt8(ascii: ":") || c == UInt8(ascii: "-") else { return nil }
        guard let aligns = BlockParser.delimiterRow(s, firstNonspace, lineEnd) else { return nil }
        let p = blocks[Int(paragraph)]
        guard p.lineCount > 0 else { return nil }
        let headerIndex = Int(p.firstLine + p.lineCount - 1)
        let header = lines[headerIndex]
        let headerCells = BlockParser.splitRow(s, Int(header.start), Int(header.end))
        guard headerCells.count == aligns.count else { return nil }
        // The lines before the header stay a paragraph; reference
        // definitions at its start are resolved as usual when it closes.
        let table: Int32
        if p.lineCount == 1 {
            table = paragraph
            blocks[Int(table)].kind = .table
        } else {
            blocks[Int(paragraph)].lineCount -= 1
            let prevLine = lines[headerIndex - 1]
            blocks[Int(paragraph)].end = prevLine.end
            finalize(paragraph, endSet: true)
            let parent = blocks[Int(paragraph)].parent
            table = addChild(parent, .table, start: Int(header.start))
            blocks[Int(table)].firstLine = Int32(headerIndex)
            blocks[Int(table)].lineCount = 1
            blocks[Int(table)].startLine = Int32(lineNumber - 1)
        }
        blocks[Int(table)].start = header.start
        blocks[Int(table)].extra = Int32(tableAlignments.count)
        tableAlignments.append(aligns)
        openedFenceThisLine = true
        offset = lineEnd
        return table
    }

    func matchTable(_ b: Int32) -> Bool { !blank }

    func addTableRow(_ b: Int32) {
        if openedFenceThisLine { return }
        addLine(b, from: firstNonspace)
    }

    func finalizeTable(_ b: Int32) {
        let blk = blocks[Int(b)]
        if blk.lineCount > 0 { blocks[Int(b)].end = lines[Int(blk.firstLine + blk.lineCount - 1)].end }
    }

    /// Emits a table's rows and cells, parsing each cell's inlines.
    func emitTable(_ b: Int32, node: Int32, into out: inout [RawNode], inline: InlineParser) {
        var mark = (row: 0, node: 0, arena: 0, lastRow: Int32(-1))
        emitTable(b, node: node, fromRow: 0, into: &out, inline: inline, mark: &mark)
    }

    /// Emits the rows from `fromRow` on; when it reaches row `mark.row`,
    /// notes where that row's nodes start (for the streaming tail emitter,
    /// which keeps the rows of complete lines from one snapshot to the next).
    func emitTable(_ b: Int32, node: Int32, fromRow: Int, into out: inout [RawNode], inline: InlineParser,
                   mark: inout (row: Int, node: Int, arena: Int, lastRow: Int32)) {
        let blk = blocks[Int(b)]
        let aligns = tableAlignments[Int(blk.extra)]
        let columns = aligns.count
        out[Int(node)].number = Int32(columns)
        for k in fromRow..<Int(blk.lineCount) {
            if k == mark.row {
                mark.node = out.count
                mark.arena = inline.arena.count
                mark.lastRow = out[Int(node)].lastChild
            }
            emitTableRow(lines[Int(blk.firstLine) + k], header: k == 0, aligns: aligns, table: node, into: &out, inline: inline)
        }
        if mark.row >= Int(blk.lineCount) && mark.row >= fromRow {
            mark.node = out.count
            mark.arena = inline.arena.count
            mark.lastRow = out[Int(node)].lastChild
        }
    }

    /// One row: its node, its cells (as many as the table has columns) and
    /// their inlines, under the table's node.
    func emitTableRow(_ l: Line, header: Bool, aligns: [TableAlignment], table node: Int32,
                      into out: inout [RawNode], inline: InlineParser) {
        var rowNode = RawNode(kind: .tableRow, start: Int(l.start), end: Int(l.end))
        rowNode.flags = header ? 1 : 0
        let r = BlockParser.appendNode(rowNode, parent: node, into: &out)
        let cells = BlockParser.splitRow(s, Int(l.start), Int(l.end))
        emitTableCells(cells, from: 0, rowEnd: Int(l.end), aligns: aligns, row: r, into: &out, inline: inline)
    }

    /// Emits the cells `first...` of a row (`cells` from `splitRow`; columns
    /// past them are empty cells at the row's end) as children of `row`.
    func emitTableCells(_ cells: [(Int, Int)], from first: Int, rowEnd: Int, aligns: [TableAlignment], row r: Int32,
                        into out: inout [RawNode], inline: InlineParser, cellsFrom offset: Int = 0) {
        guard first < aligns.count else { return }
        for col in first..<aligns.count {
            // (`cells` may hold only the cells from column `offset` on.)
            let range = col - offset < cells.count ? cells[col - offset] : (rowEnd, rowEnd)
            var cellNode = RawNode(kind: .tableCell, start: range.0, end: range.1)
            cellNode.small = UInt16(aligns[col].rawValue)
            let ci = BlockParser.appendNode(cellNode, parent: r, into: &out)
            if range.1 > range.0 && !isSpaceOrTab(s[range.0]) && !isSpaceOrTab(s[range.1 - 1])
                && PlainText.isInertRun(s, range.0, range.1) {
                // (Most cells: plain words, one text node; no parse.)
                var text = RawNode(kind: .text, start: range.0, end: range.1)
                text.a = ByteRef.source(range.0, range.1)
                _ = BlockParser.appendNode(text, parent: ci, into: &out)
            } else if range.1 > range.0 {
                loadCellContent(range.0, range.1, inline: inline)
                inline.parse()
                emitInlines(inline, parent: ci, into: &out)
                inline.literalsFromContent = false
            }
        }
    }

    /// A cell's content: `\|` becomes `|` before inline parsing (GFM spec,
    /// example 200), so code spans show the pipe.
    func loadCellContent(_ start: Int, _ end: Int, inline: InlineParser) {
        inline.content.truncate(to: 0)
        inline.lineContentStart.truncate(to: 0)
        inline.lineSourceStart.truncate(to: 0)
        inline.lineContentStart.append(0)
        inline.lineSourceStart.append(start)
        var i = start
        var run = start
        var replaced = false
        // Runs without `\|` are copied in bulk.
        while i < end {
            if s[i] == UInt8(ascii: "\\") && i + 1 < end {
                if s[i + 1] == UInt8(ascii: "|") {
                    inline.content.append(contentsOf: UnsafeBufferPointer(rebasing: s[run..<i]))
                    inline.content.append(UInt8(ascii: "|"))
                    i += 2
                    run = i
                    replaced = true
                    inline.lineContentStart.append(inline.content.count)
                    inline.lineSourceStart.append(i)
                    continue
                }
                i += 2
                continue
            }
            i += 1
        }
        inline.content.append(contentsOf: UnsafeBufferPointer(rebasing: s[run..<min(i, end)]))
        inline.literalsFromContent = replaced
    }
}
