/// Turns the finished block tree into the document's flat node store, in
/// document order, running the inline phase on every leaf on the way.
extension BlockParser {
    func makeStorage(source: [UInt8]) -> DocumentStorage {
        var out: [RawNode] = []
        // (Documents hold about one node per 20–35 source bytes: room for
        // one per 20 saves copying the store as it doubles; the pages of
        // room never written are never touched.)
        out.reserveCapacity(max(blocks.count * 4, source.count / 20))
        let inline = InlineParser(options: options, labels: labels)
        source.withUnsafeBufferPointer { buffer in
            s = buffer
            emitBlocks(into: &out, inline: inline)
            s = Bytes(start: nil, count: 0)
        }
        let storage = DocumentStorage(source: source, nodes: out, arena: inline.arena, lineStarts: lineStarts)
        return postprocess(storage)
    }

    @inline(__always)
    static func appendNode(_ node: RawNode, parent: Int32, into out: inout [RawNode]) -> Int32 {
        let index = Int32(out.count)
        var node = node
        node.parent = parent
        out.append(node)
        if parent >= 0 {
            let last = out[Int(parent)].lastChild
            if last >= 0 { out[Int(last)].next = index } else { out[Int(parent)].firstChild = index }
            out[Int(parent)].lastChild = index
        }
        return index
    }

    func emitBlocks(into out: inout [RawNode], inline: InlineParser) {
        emitBlocks(from: 0, parent: -1, siblings: false, into: &out, inline: inline)
    }

    /// Emits block `first` (and, with `siblings`, the blocks after it) with
    /// their subtrees under `parent`.
    func emitBlocks(from first: Int32, parent firstParent: Int32, siblings: Bool,
                    into out: inout [RawNode], inline: InlineParser) {
        // Explicit stack: documents may nest blocks 100,000 deep.
        var stack: [(block: Int32, parent: Int32)] = [(first, firstParent)]
        while let (b, parent) = stack.popLast() {
            guard b >= 0 else { continue }
            let blk = blocks[Int(b)]
            if blk.next >= 0 && (parent != firstParent || siblings) { stack.append((blk.next, parent)) }
            let node = blockNode(b, inline: inline)
            let r = BlockParser.appendNode(node, parent: parent, into: &out)
            switch blk.kind {
            case .paragraph, .heading:
                if let (start, end) = inertLine(b) {
                    // (A line of plain words: one text node, no parse.)
                    var text = RawNode(kind: .text, start: start, end: end)
                    text.a = ByteRef.source(start, end)
                    _ = BlockParser.appendNode(text, parent: r, into: &out)
                    continue
                }
                loadLeafContent(b, inline: inline, trimTrailing: true)
                inline.parse()
                emitInlines(inline, parent: r, into: &out)
            case .table:
                emitTable(b, node: r, into: &out, inline: inline)
            default:
                if blk.firstChild >= 0 { stack.append((blk.firstChild, r)) }
            }
        }
    }

    /// The content of leaf `b` when it is one short line of plain text
    /// (`PlainText.isInertRun`, trailing spaces and tabs trimmed): what its
    /// inline parse would make one text node of. (Short: a heading, a list
    /// item, a label. A long line usually has markup somewhere, and the
    /// scan that finds it late is work the parse does again; at 80 bytes
    /// the saving and that waste balance on chat text.)
    @inline(__always)
    func inertLine(_ b: Int32) -> (Int, Int)? {
        guard blocks[Int(b)].lineCount == 1 else { return nil }
        let l = lines[Int(blocks[Int(b)].firstLine)]
        let start = Int(l.start)
        var end = Int(l.end)
        while end > start && isSpaceOrTab(s[end - 1]) { end -= 1 }
        guard end > start && end - start <= 80 && !isSpaceOrTab(s[start]) && PlainText.isInertRun(s, start, end) else { return nil }
        return (start, end)
    }

    /// A block's own node (without its children), as the store holds it.
    @inline(__always)
    func blockNode(_ b: Int32, inline: InlineParser) -> RawNode {
        let blk = blocks[Int(b)]
        var node = RawNode(kind: blk.kind, start: Int(blk.start), end: Int(blk.end))
        switch blk.kind {
        case .list:
            node.flags = blk.tight ? 1 : 0
            node.small = blk.ordered ? (0x100 | UInt16(blk.marker)) : UInt16(blk.marker)
            node.number = blk.listStart
        case .item:
            node.small = UInt16(blk.task.rawValue)
        case .heading:
            node.small = UInt16(blk.level)
            node.flags = blk.setext ? 1 : 0
        case .mathBlock:
            node.flags = 1
            node.a = mathLiteral(b, inline: inline)
        case .codeBlock:
            node.flags = blk.fenced ? 1 : 0
            // Info first, literal last: a streaming append to the last
            // code line then only has to grow the end of the arena.
            if blk.fenced && blk.infoEnd > blk.infoStart {
                let st = inline.arena.count
                CharacterReferences.appendUnescaped(s, Int(blk.infoStart), Int(blk.infoEnd), into: &inline.arena)
                node.b = ByteRef.arena(st, inline.arena.count)
            }
            node.a = leafLiteral(b, inline: inline, finalNewline: true)
        case .htmlBlock:
            node.a = leafLiteral(b, inline: inline, finalNewline: true)
        case .alert:
            node.small = UInt16(blk.extra)
        default:
            break
        }
        emitExtensionAttributes(b, &node, inline: inline)
        return node
    }

    /// A code or HTML block's literal: its lines, each ending in `\n`.
    func leafLiteral(_ b: Int32, inline: InlineParser, finalNewline: Bool) -> ByteRef {
        let first = Int(blocks[Int(b)].firstLine)
        let count = Int(blocks[Int(b)].lineCount)
        if count == 0 { return .empty }
        let start = inline.arena.count
        for k in 0..<count {
            let l = lines[first + k]
            for _ in 0..<Int(l.pad) { inline.arena.append(0x20) }
            inline.arena.append(contentsOf: UnsafeBufferPointer(rebasing: s[Int(l.start)..<Int(l.end)]))
            inline.arena.append(0x0A)
        }
        return ByteRef.arena(start, inline.arena.count)
    }

    /// Fills the inline parser's content and line map from a leaf's lines.
    func loadLeafContent(_ b: Int32, inline: InlineParser, trimTrailing: Bool) {
        inline.content.truncate(to: 0)
        inline.lineContentStart.truncate(to: 0)
        inline.lineSourceStart.truncate(to: 0)
        let first = Int(blocks[Int(b)].firstLine)
        let count = Int(blocks[Int(b)].lineCount)
        for k in 0..<count {
            let l = lines[first + k]
            if k > 0 { inline.content.append(0x0A) }
            inline.lineContentStart.append(inline.content.count)
            inline.lineSourceStart.append(Int(l.start))
            inline.content.append(contentsOf: UnsafeBufferPointer(rebasing: s[Int(l.start)..<Int(l.end)]))
        }
        if inline.lineContentStart.isEmpty {
            inline.lineContentStart.append(0)
            inline.lineSourceStart.append(Int(blocks[Int(b)].start))
        }
        if trimTrailing {
            while let last = inline.content.last, last == 0x20 || last == 0x09 { inline.content.removeLast() }
        }
    }

    /// Copies the parsed inlines into the store under `parent`, merging
    /// adjacent text and mapping content offsets to source offsets.
    func emitInlines(_ p: InlineParser, parent: Int32, into out: inout [RawNode]) {
        var mark = EmitMark()
        var other = EmitMark()
        emitInlines(p, from: p.nodes[0].first, parent: parent, into: &out, mark: &mark, other: &other)
    }

    /// Emits the top-level inline nodes from `first` on under `parent`,
    /// after the children it has. When the emission has emitted top-level
    /// node `mark.node` (with its subtree), it records in `mark` the store
    /// state there: the node count, the last child of `parent` and that
    /// child's end and literal — a run of text siblings is merged into one
    /// text node, so the one that holds `mark.node` is cut there and goes on
    /// after it. An emission that starts again after `mark.node` (from the
    /// store cut back to that state) with `continueText` gives the nodes a
    /// whole emission gives: its first text joins that text node. `other`
    /// likewise.
    func emitInlines(_ p: InlineParser, from first: Int32, parent: Int32, into out: inout [RawNode],
                     mark: inout EmitMark, other: inout EmitMark, continueText: Bool = false) {
        // The work stack is the parser's, kept between leaves: no allocation.
        var stack = take(&emitStack)
        defer { stack.truncate(to: 0); emitStack = stack }
        stack.append((first, parent, false))
        let emails = options.contains(.autolink)
        // The next top-level text joins the text node before it.
        var joinNext = continueText
        let marked = mark.node > 0 || other.node > 0
        while let (x, rp, inLink) = stack.popLast() {
            guard x >= 0 else {
                // After a marked node's subtree.
                if x == -2 { mark.record(parent: parent, out) } else if x == -3 { other.record(parent: parent, out) }
                continue
            }
            let node = p.nodes[Int(x)]
            let top = rp == parent
            if node.kind == .text {
                // Merge a run of adjacent source-contiguous text nodes (up
                // to a marked node).
                var lit = node.a
                var end = node.end
                var y = node.next
                var cut: Int32 = marked && top && (x == mark.node || x == other.node) ? x : -1
                while cut < 0 && y >= 0 {
                    let m = p.nodes[Int(y)]
                    guard m.kind == .text else { break }
                    if m.a.length == 0 {
                        if marked && top && (y == mark.node || y == other.node) { cut = y }
                        y = m.next
                        continue
                    }
                    guard !lit.isArena && !m.a.isArena && lit.end == m.a.start && end == m.start else { break }
                    lit.length += m.a.length
                    end = m.end
                    if marked && top && (y == mark.node || y == other.node) { cut = y }
                    y = m.next
                }
                if y >= 0 { stack.append((y, rp, inLink)) }
                if lit.length > 0 {
                    let start = p.sourceOffset(Int(node.start))
                    let stop = p.sourceOffset(Int(end) - 1) + 1
                    var joining: Int32 = -1
                    if joinNext && top {
                        joinNext = false
                        let q = out[Int(parent)].lastChild
                        if q >= 0 && out[Int(q)].kind == .text && !out[Int(q)].a.isArena && !lit.isArena
                            && out[Int(q)].a.end == lit.start && Int(out[Int(q)].end) == start {
                            joining = q
                        }
                    }
                    // (A joined run finds addresses only when the text it
                    // joins spans its literal too: a whole emission of the
                    // run decides for all of it, and only its first node, an
                    // escape, can make it not.)
                    let joinedAligned = joining < 0
                        || Int(out[Int(joining)].end) - Int(out[Int(joining)].start) == Int(out[Int(joining)].a.length)
                    if emails && !inLink && !lit.isArena && stop - start == Int(lit.length) && joinedAligned {
                        emitTextWithEmails(lit, start: start, parent: rp, into: &out, inline: p, joining: joining)
                    } else if joining >= 0 {
                        out[Int(joining)].a.length += lit.length
                        out[Int(joining)].end = UInt32(stop)
                    } else {
                        var r = RawNode(kind: .text, start: start, end: stop)
                        r.a = lit
                        _ = BlockParser.appendNode(r, parent: rp, into: &out)
                    }
                }
                if cut >= 0 {
                    if cut == mark.node { mark.record(parent: parent, out) }
                    if cut == other.node { other.record(parent: parent, out) }
                    joinNext = true
                }
                continue
            }
            if top { joinNext = false }
            if node.next >= 0 { stack.append((node.next, rp, inLink)) }
            if marked && top {
                if x == mark.node { stack.append((-2, rp, inLink)) }
                if x == other.node { stack.append((-3, rp, inLink)) }
            }
            var r = RawNode(kind: node.kind, start: p.sourceOffset(Int(node.start)),
                            end: node.end > node.start ? p.sourceOffset(Int(node.end) - 1) + 1 : p.sourceOffset(Int(node.start)))
            r.flags = node.flags
            r.small = node.small
            r.a = node.a
            r.b = node.b
            r.number = node.number
            let ri = BlockParser.appendNode(r, parent: rp, into: &out)
            if node.first >= 0 { stack.append((node.first, ri, inLink || node.kind == .link || node.kind == .image)) }
        }
    }
}

/// Where an inline emission passed a given top-level node (see
/// `BlockParser.emitInlines(_:from:parent:into:mark:other:continueText:)`).
struct EmitMark {
    /// The inline node (> 0; else none).
    var node: Int32 = -1
    /// The store's node count after it (-1: not reached).
    var at = -1
    /// The parent's last child then (-1: none), with its end and literal.
    var top: Int32 = -1
    var topEnd: UInt32 = 0
    var topLiteral: ByteRef = .empty

    mutating func record(parent: Int32, _ out: [RawNode]) {
        at = out.count
        top = out[Int(parent)].lastChild
        if top >= 0 {
            topEnd = out[Int(top)].end
            topLiteral = out[Int(top)].a
        }
    }

    /// Cuts `out` back to the recorded state.
    func restore(parent: Int32, _ out: inout [RawNode]) {
        out.truncate(to: at)
        out[Int(parent)].lastChild = top
        if top >= 0 {
            out[Int(top)].next = -1
            out[Int(top)].end = topEnd
            out[Int(top)].a = topLiteral
        } else {
            out[Int(parent)].firstChild = -1
        }
    }
}

extension BlockParser {
    /// Emits a text run, turning e-mail addresses into links (GFM extended
    /// e-mail autolinks: `local@domain.tld`, where the local part is letters,
    /// digits and `.+-_`, and the domain has at least one `.`).
    /// `joining` (≥ 0): a text node whose source ends where this text
    /// starts; a first text segment joins it instead of being appended.
    func emitTextWithEmails(_ lit: ByteRef, start: Int, parent: Int32, into out: inout [RawNode], inline: InlineParser,
                            joining: Int32 = -1) {
        let a = lit.start, e = lit.end
        var segStart = a
        var joining = joining
        var i = a
        while i < e {
            i = BlockScan.find(UInt8(ascii: "@"), s, i, e)
            guard i < e else { break }
            var l = i
            while l > segStart {
                let b = s[l - 1]
                if isASCIIAlphanumeric(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") {
                    l -= 1
                } else {
                    break
                }
            }
            guard l < i else { i += 1; continue }
            var k = i + 1
            var periods = 0
            while k < e {
                let b = s[k]
                if isASCIIAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") {
                    k += 1
                } else if b == UInt8(ascii: ".") && k + 1 < e && isASCIIAlphanumeric(s[k + 1]) {
                    periods += 1
                    k += 1
                } else {
                    break
                }
            }
            guard periods > 0, k - i >= 2, isASCIILetter(s[k - 1]) || s[k - 1] == UInt8(ascii: ".") else { i += 1; continue }
            if l > segStart && joining >= 0 {
                out[Int(joining)].a.length += UInt32(l - segStart)
                out[Int(joining)].end = UInt32(start + (l - a))
            } else if l > segStart {
                var t = RawNode(kind: .text, start: start + (segStart - a), end: start + (l - a))
                t.a = ByteRef.source(segStart, l)
                _ = BlockParser.appendNode(t, parent: parent, into: &out)
            }
            joining = -1
            var link = RawNode(kind: .link, start: start + (l - a), end: start + (k - a))
            link.flags = 1 | 2 | 4
            let st = inline.arena.count
            inline.arena.append(contentsOf: Array("mailto:".utf8))
            inline.arena.append(contentsOf: UnsafeBufferPointer(rebasing: s[l..<k]))
            link.a = ByteRef.arena(st, inline.arena.count)
            let li = BlockParser.appendNode(link, parent: parent, into: &out)
            var t = RawNode(kind: .text, start: start + (l - a), end: start + (k - a))
            t.a = ByteRef.source(l, k)
            _ = BlockParser.appendNode(t, parent: li, into: &out)
            segStart = k
            i = k
        }
        if segStart < e && joining >= 0 {
            out[Int(joining)].a.length += UInt32(e - segStart)
            out[Int(joining)].end = UInt32(start + (e - a))
        } else if segStart < e {
            var t = RawNode(kind: .text, start: start + (segStart - a), end: start + (e - a))
            t.a = ByteRef.source(segStart, e)
            _ = BlockParser.appendNode(t, parent: parent, into: &out)
        }
    }
}
