/// Turns the finished block tree into the document's flat node store, in
/// document order, running the inline phase on every leaf on the way.
extension BlockParser {
    func makeStorage(source: [UInt8]) -> DocumentStorage {
        var out: [RawNode] = []
        out.reserveCapacity(blocks.count * 4)
        let inline = InlineParser(options: options, definitions: definitions)
        inline.sourceBytes = source
        inline.footnoteLabels = footnoteKeys
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
        inline.content.removeAll(keepingCapacity: true)
        inline.lineContentStart.removeAll(keepingCapacity: true)
        inline.lineSourceStart.removeAll(keepingCapacity: true)
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
        var mark = (node: Int32(-1), at: -1, previousTop: Int32(-1))
        var other = mark
        emitInlines(p, from: p.nodes[0].first, parent: parent, into: &out, mark: &mark, other: &other)
    }

    /// Emits the top-level inline nodes from `first` on (a node that starts
    /// a run of text siblings, or is not text) under `parent`, after the
    /// children it has. When the emission reaches top-level node
    /// `mark.node`, sets `mark.at` to the store index where that node's
    /// nodes begin and `mark.previousTop` to the store index of the last
    /// child of `parent` emitted before it (-1: none); `other` likewise.
    func emitInlines(_ p: InlineParser, from first: Int32, parent: Int32, into out: inout [RawNode],
                     mark: inout (node: Int32, at: Int, previousTop: Int32),
                     other: inout (node: Int32, at: Int, previousTop: Int32)) {
        // The work stack is the parser's, kept between leaves: no allocation.
        var stack = emitStack
        emitStack = []
        defer { stack.removeAll(keepingCapacity: true); emitStack = stack }
        stack.append((first, parent, false))
        let emails = options.contains(.autolink)
        while let (x0, rp, inLink) = stack.popLast() {
            var x = x0
            guard x >= 0 else { continue }
            if x == mark.node && rp == parent {
                mark.at = out.count
                mark.previousTop = out[Int(parent)].lastChild
            }
            if x == other.node && rp == parent {
                other.at = out.count
                other.previousTop = out[Int(parent)].lastChild
            }
            let node = p.nodes[Int(x)]
            if node.kind == .text {
                // Merge a run of adjacent source-contiguous text nodes.
                var lit = node.a
                var end = node.end
                var y = node.next
                while y >= 0 {
                    let m = p.nodes[Int(y)]
                    guard m.kind == .text else { break }
                    if m.a.length == 0 { y = m.next; continue }
                    guard !lit.isArena && !m.a.isArena && lit.end == m.a.start && end == m.start else { break }
                    lit.length += m.a.length
                    end = m.end
                    x = y
                    y = m.next
                }
                if y >= 0 { stack.append((y, rp, inLink)) }
                if lit.length == 0 { continue }
                let start = p.sourceOffset(Int(node.start))
                let stop = p.sourceOffset(Int(end) - 1) + 1
                if emails && !inLink && !lit.isArena && stop - start == Int(lit.length) {
                    emitTextWithEmails(lit, start: start, parent: rp, into: &out, inline: p)
                } else {
                    var r = RawNode(kind: .text, start: start, end: stop)
                    r.a = lit
                    _ = BlockParser.appendNode(r, parent: rp, into: &out)
                }
                continue
            }
            if node.next >= 0 { stack.append((node.next, rp, inLink)) }
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

extension BlockParser {
    /// Emits a text run, turning e-mail addresses into links (GFM extended
    /// e-mail autolinks: `local@domain.tld`, where the local part is letters,
    /// digits and `.+-_`, and the domain has at least one `.`).
    func emitTextWithEmails(_ lit: ByteRef, start: Int, parent: Int32, into out: inout [RawNode], inline: InlineParser) {
        let a = lit.start, e = lit.end
        var segStart = a
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
            if l > segStart {
                var t = RawNode(kind: .text, start: start + (segStart - a), end: start + (l - a))
                t.a = ByteRef.source(segStart, l)
                _ = BlockParser.appendNode(t, parent: parent, into: &out)
            }
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
        if segStart < e {
            var t = RawNode(kind: .text, start: start + (segStart - a), end: start + (e - a))
            t.a = ByteRef.source(segStart, e)
            _ = BlockParser.appendNode(t, parent: parent, into: &out)
        }
    }
}
