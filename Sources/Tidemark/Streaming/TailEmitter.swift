/// Emitting the unsettled tail of a streamed document, reusing what the
/// previous snapshot emitted for blocks that have closed since.
///
/// The tail is the trailing open top-level block (a long list, a quote)
/// plus whatever the partial last line adds. Most of it is usually closed
/// already: earlier items of the list, earlier paragraphs of the quote.
/// Those blocks' nodes cannot change any more, and the previous snapshot put
/// them at the same place in the node store; so the emitter walks the tail
/// in document order and, for as long as each block lands where it landed
/// last time, keeps a closed block's nodes as they are and rewrites only the
/// open containers' own nodes. At the first difference it drops the rest of
/// the old tail and emits normally. The cost is the open chain plus the
/// trailing leaf, not the tail.
struct TailEntry {
    var block: Int32
    /// Node index of the block, and (for a settled block) the end of its subtree.
    var node: Int32
    var end: Int32
    /// Arena size before and after the subtree.
    var arena: Int32
    var arenaEnd: Int32
    /// Whether the block was closed at the checkpoint (its nodes are final).
    var settled: Bool
    /// An open table: how many of its rows were complete lines, where their
    /// nodes end, the arena there, and the node of the last of them.
    var rows: Int32 = 0
    var rowsEnd: Int32 = 0
    var rowsArena: Int32 = 0
    var lastRow: Int32 = -1
    /// An open container: its leading children that were closed (a long
    /// list's earlier items), which the next emission skips in one step —
    /// how many, the first and last of them (block and node), and where
    /// their nodes and arena bytes end. Their entries are not in the log.
    var runCount: Int32 = 0
    var runFirst: Int32 = -1
    var runLast: Int32 = -1
    var runLastNode: Int32 = -1
    var runEnd: Int32 = 0
    var runArenaEnd: Int32 = 0
}

extension BlockParser {
    /// Emits the top-level blocks from `first` (and their siblings) under the
    /// root. `nodes` may still hold the previous snapshot's tail from
    /// `cursor` on (and the arena its bytes from `arenaCursor` on); `log` says
    /// what that tail was. Sets `tops` to the node index of each top-level
    /// block and `newLog` to the log of this emission (both cleared first;
    /// the caller keeps them between snapshots, so no allocation); returns
    /// the first node that may differ from the previous snapshot's.
    ///
    /// Blocks that were open at the last checkpoint and are closed now (the
    /// list item before the one the partial line starts) keep their nodes
    /// too when `reuseOpenLeaves`: a container is rewritten and its children
    /// walked as an open one's are, then logged as closed (in its parent's
    /// run when it can be); a leaf keeps its nodes when its kind, range and
    /// lines are as they were, so its source bytes are too — unless the last
    /// snapshot showed pending bytes, when `reuseOpenLeaves` is false.
    func emitTail(from first: Int32, checkpoint cp: BlockCheckpoint, nodes: inout [RawNode],
                  inline: InlineParser, cursor startCursor: Int, arenaCursor startArena: Int,
                  log: [TailEntry], reuse: Bool, reuseOpenLeaves: Bool, tops: inout [Int], newLog: inout [TailEntry]) -> Int {
        // (The block tree, the open chain and the old log are only read
        // here: through buffer pointers, without copies of their elements.)
        blocks.withUnsafeBufferPointer { blocks in
            checkpointChain.withUnsafeBufferPointer { chain in
                log.withUnsafeBufferPointer { log in
                    emitTail(from: first, blocks: blocks, chain: chain, checkpoint: cp, nodes: &nodes, inline: inline,
                             cursor: startCursor, arenaCursor: startArena, log: log, reuse: reuse,
                             reuseOpenLeaves: reuseOpenLeaves, tops: &tops, newLog: &newLog)
                }
            }
        }
    }

    private func emitTail(from first: Int32, blocks: UnsafeBufferPointer<Block>, chain: UnsafeBufferPointer<Int32>,
                          checkpoint cp: BlockCheckpoint, nodes: inout [RawNode],
                          inline: InlineParser, cursor startCursor: Int, arenaCursor startArena: Int,
                          log: UnsafeBufferPointer<TailEntry>, reuse: Bool, reuseOpenLeaves: Bool, tops: inout [Int],
                          newLog: inout [TailEntry]) -> Int {
        // Whether block `b` was closed at the checkpoint (see `isSettled`).
        @inline(__always) func isSettled(_ b: Int32) -> Bool {
            BlockParser.isSettled(b, blockCount: cp.blockCount, chain: chain)
        }
        var cursor = startCursor
        var arenaCursor = startArena
        var reusing = reuse
        var k = 0
        newLog.truncate(to: 0)
        tops.truncate(to: 0)
        // The first node that may differ from the previous snapshot's.
        var dirtyFrom = Int.max
        tailRewriteFrom = Int.max
        tailTouched.truncate(to: 0)
        if !reusing {
            dirtyFrom = cursor
            tailRewriteFrom = cursor
            if nodes.count > cursor { nodes.truncate(to: cursor) }
            if inline.arena.count > arenaCursor { inline.arena.truncate(to: arenaCursor) }
        }

        // What is written below `tailRewriteFrom` (`tailRecording`): the
        // containers rewritten, a run's last node unlinked, the parent and
        // previous sibling of a node appended, and (at the end) each
        // container's last child. A kept node linked again where it was,
        // after the sibling it followed, gets the links it had.
        let recording = tailRecording
        // (Only what lies below the rewrite so far: the rest is copied
        // anyway, and the root always.)
        @inline(__always) func touch(_ index: Int32) {
            if recording && index > 0 && Int(index) < tailRewriteFrom { tailTouched.append(index) }
        }
        @inline(__always) func touchLinks(_ parent: Int32) {
            guard recording, parent >= 0 else { return }
            touch(parent)
            touch(nodes[Int(parent)].lastChild)
        }
        @inline(__always) func link(_ index: Int, _ parent: Int32) {
            BlockParser.link(index, parent, in: &nodes)
        }

        var stack = take(&tailStack)
        defer { stack.truncate(to: 0); tailStack = stack }
        // The open containers being emitted whose children so far were all
        // closed: node, and index of the container's entry in `newLog`.
        var runs = take(&tailRuns)
        defer { runs.truncate(to: 0); tailRuns = runs }
        stack.append((first, 0))
        while let (b, parent) = stack.popLast() {
            guard b >= 0 else {
                // -2: below a container's children; they are all done.
                if b == -2 { BlockParser.endRun(parent, runs: &runs) }
                // -3: the same for a container that was open at the last
                // checkpoint and is closed now: logged as closed, with its
                // subtree's end, in its parent's run when it can be.
                if b == -3 {
                    BlockParser.endRun(parent, runs: &runs)
                    var e = newLog.count - 1
                    while e >= 0 && newLog[e].node != parent { e -= 1 }
                    guard e >= 0 else { continue }
                    let (block, arena) = (newLog[e].block, newLog[e].arena)
                    let end = reusing ? cursor : nodes.count
                    let arenaEnd = reusing ? arenaCursor : inline.arena.count
                    let up = nodes[Int(parent)].parent
                    newLog.truncate(to: e)
                    if !BlockParser.extendRun(block, parent: up, node: Int(parent), end: end, arenaEnd: arenaEnd,
                                              runs: &runs, log: &newLog) {
                        BlockParser.endRun(up, runs: &runs)
                        newLog.append(TailEntry(block: block, node: parent, end: Int32(end), arena: arena,
                                                arenaEnd: Int32(arenaEnd), settled: true))
                    }
                }
                continue
            }
            let blk = blocks.baseAddress! + Int(b)
            if blk.pointee.next >= 0 { stack.append((blk.pointee.next, parent)) }
            let settled = isSettled(b)
            let isContainer: Bool
            switch blk.pointee.kind {
            case .document, .list, .item, .blockQuote, .alert, .footnoteDefinition: isContainer = true
            default: isContainer = false
            }
            if reusing {
                let closing = reuseOpenLeaves && isContainer && settled && k < log.count && !log[k].settled && parent != 0
                if k < log.count, log[k].block == b, Int(log[k].node) == cursor, Int(log[k].arena) == arenaCursor,
                   log[k].settled == settled && (settled || isContainer) || closing {
                    if parent == 0 { tops.append(cursor) }
                    if settled && !closing {
                        link(cursor, parent)
                        if !BlockParser.extendRun(b, parent: parent, node: cursor, end: Int(log[k].end), arenaEnd: Int(log[k].arenaEnd),
                                                  runs: &runs, log: &newLog) {
                            BlockParser.endRun(parent, runs: &runs)
                            newLog.append(log[k])
                        }
                        cursor = Int(log[k].end)
                        arenaCursor = Int(log[k].arenaEnd)
                    } else {
                        // An open container: a new node of its own (end,
                        // tight/loose), its children linked again below.
                        var node = blockNode(b, inline: inline)
                        node.firstChild = -1
                        node.lastChild = -1
                        node.parent = parent
                        touch(Int32(cursor))
                        if BlockParser.rewriteContainer(node, at: cursor, in: &nodes) {
                            dirtyFrom = min(dirtyFrom, cursor)
                        }
                        link(cursor, parent)
                        // (A closing container may join its parent's run.)
                        if !closing { BlockParser.endRun(parent, runs: &runs) }
                        let logged = log[k]
                        let container = Int32(cursor)
                        runs.append((container, newLog.count))
                        newLog.append(TailEntry(block: b, node: container, end: -1, arena: Int32(arenaCursor),
                                                arenaEnd: Int32(arenaCursor), settled: false))
                        cursor += 1
                        var firstChild = blk.pointee.firstChild
                        if logged.runCount > 0, logged.runFirst == blk.pointee.firstChild, Int(logged.runEnd) <= nodes.count {
                            // Its leading closed children, where they were:
                            // skipped in one step (their links are as before).
                            touch(logged.runLastNode)
                            nodes.withUnsafeMutableBufferPointer { nodes in
                                nodes[Int(container)].firstChild = container + 1
                                nodes[Int(container)].lastChild = logged.runLastNode
                                nodes[Int(logged.runLastNode)].next = -1
                            }
                            newLog.withUnsafeMutableBufferPointer { newLog in
                                let e = newLog.count - 1
                                newLog[e].runCount = logged.runCount
                                newLog[e].runFirst = logged.runFirst
                                newLog[e].runLast = logged.runLast
                                newLog[e].runLastNode = logged.runLastNode
                                newLog[e].runEnd = logged.runEnd
                                newLog[e].runArenaEnd = logged.runArenaEnd
                            }
                            cursor = Int(logged.runEnd)
                            arenaCursor = Int(logged.runArenaEnd)
                            firstChild = blocks[Int(logged.runLast)].next
                        }
                        stack.append((closing ? -3 : -2, container))
                        if firstChild >= 0 { stack.append((firstChild, container)) }
                    }
                    k += 1
                    continue
                }
                if reuseOpenLeaves, k < log.count, log[k].block == b, Int(log[k].node) == cursor, Int(log[k].arena) == arenaCursor,
                   !log[k].settled, !isContainer, blk.pointee.kind != .table, cursor < nodes.count,
                   let (end, arenaEnd) = sameLeaf(b, at: cursor, nodes: nodes, arenaFrom: arenaCursor) {
                    // A leaf that was open and is as the last update showed
                    // it (the paragraph of the item before the one the
                    // partial line starts): its nodes as they are.
                    if parent == 0 { tops.append(cursor) }
                    link(cursor, parent)
                    if !settled || !BlockParser.extendRun(b, parent: parent, node: cursor, end: end, arenaEnd: arenaEnd,
                                                           runs: &runs, log: &newLog) {
                        BlockParser.endRun(parent, runs: &runs)
                        newLog.append(TailEntry(block: b, node: Int32(cursor), end: Int32(end), arena: Int32(arenaCursor),
                                                arenaEnd: Int32(arenaEnd), settled: settled))
                    }
                    cursor = end
                    arenaCursor = arenaEnd
                    k += 1
                    continue
                }
                reusing = false
                dirtyFrom = min(dirtyFrom, cursor)
                tailRewriteFrom = min(tailRewriteFrom, cursor)
                if blk.pointee.kind == .table, k < log.count, log[k].block == b, Int(log[k].node) == cursor,
                   Int(log[k].arena) == arenaCursor, !settled, log[k].rows > 0 {
                    // An open table: keep the rows of complete lines.
                    let old = log[k]
                    if parent == 0 { tops.append(cursor) }
                    var node = blockNode(b, inline: inline)
                    node.firstChild = Int32(cursor + 1)
                    node.lastChild = old.lastRow
                    nodes[cursor] = node
                    touchLinks(parent)
                    link(cursor, parent)
                    touch(old.lastRow)
                    nodes[Int(old.lastRow)].next = -1
                    nodes.truncate(to: Int(old.rowsEnd))
                    inline.arena.truncate(to: Int(old.rowsArena))
                    newLog.append(emitOpenTable(b, at: cursor, fromRow: Int(old.rows), checkpoint: cp, nodes: &nodes, inline: inline,
                                                arenaStart: arenaCursor))
                    continue
                }
                nodes.truncate(to: cursor)
                inline.arena.truncate(to: arenaCursor)
            }
            let start = nodes.count
            let arenaStart = inline.arena.count
            if parent == 0 { tops.append(start) }
            if blk.pointee.kind == .table && !settled {
                BlockParser.endRun(parent, runs: &runs)
                let node = blockNode(b, inline: inline)
                touchLinks(parent)
                let r = BlockParser.appendNode(node, parent: parent, into: &nodes)
                newLog.append(emitOpenTable(b, at: Int(r), fromRow: 0, checkpoint: cp, nodes: &nodes, inline: inline,
                                            arenaStart: arenaStart))
            } else if isContainer && !settled {
                BlockParser.endRun(parent, runs: &runs)
                let node = blockNode(b, inline: inline)
                touchLinks(parent)
                let r = BlockParser.appendNode(node, parent: parent, into: &nodes)
                runs.append((r, newLog.count))
                newLog.append(TailEntry(block: b, node: Int32(start), end: -1, arena: Int32(arenaStart),
                                        arenaEnd: Int32(inline.arena.count), settled: false))
                stack.append((-2, r))
                if blk.pointee.firstChild >= 0 { stack.append((blk.pointee.firstChild, r)) }
            } else {
                touchLinks(parent)
                emitBlocks(from: b, parent: parent, siblings: false, into: &nodes, inline: inline)
                if !settled || !BlockParser.extendRun(b, parent: parent, node: start, end: nodes.count, arenaEnd: inline.arena.count,
                                                                  runs: &runs, log: &newLog) {
                    BlockParser.endRun(parent, runs: &runs)
                    newLog.append(TailEntry(block: b, node: Int32(start), end: Int32(nodes.count), arena: Int32(arenaStart),
                                            arenaEnd: Int32(inline.arena.count), settled: settled))
                }
            }
        }
        if reusing {
            // Everything matched, but the old tail may have been longer.
            if nodes.count > cursor { nodes.truncate(to: cursor) }
            if inline.arena.count > arenaCursor { inline.arena.truncate(to: arenaCursor) }
        }
        tailRewriteFrom = min(tailRewriteFrom, nodes.count)
        if recording {
            // (Each container's last child and the root's: a kept node left
            // last lost the link to the node after it.)
            touch(nodes[0].lastChild)
            var k = 0
            let n = tailTouched.count
            while k < n {
                let c = Int(tailTouched[k])
                if c < nodes.count { touch(nodes[c].lastChild) }
                k += 1
            }
        }
        return dirtyFrom
    }

    /// Links node `index` as the last child of `parent` (one pass over the
    /// store: a small function, so its writes share one uniqueness check).
    @inline(never)
    static func link(_ index: Int, _ parent: Int32, in nodes: inout [RawNode]) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            nodes[index].parent = parent
            nodes[index].next = -1
            let last = nodes[Int(parent)].lastChild
            if last >= 0 { nodes[Int(last)].next = Int32(index) } else { nodes[Int(parent)].firstChild = Int32(index) }
            nodes[Int(parent)].lastChild = Int32(index)
        }
    }

    /// Rewrites an open container's node at `index` (its children are
    /// linked again after it) and tells whether it differs from what was
    /// there.
    @inline(never)
    static func rewriteContainer(_ node: RawNode, at index: Int, in nodes: inout [RawNode]) -> Bool {
        nodes.withUnsafeMutableBufferPointer { nodes in
            let old = nodes[index]
            let differs = old.kind != node.kind || old.start != node.start || old.end != node.end || old.flags != node.flags
                || old.small != node.small || old.number != node.number || old.a != node.a || old.b != node.b
            nodes[index] = node
            return differs
        }
    }

    /// Whether leaf `b` is what the last update showed at node `at` (which
    /// was exact for the text then): the same kind and range, so the same
    /// lines (a line that changes a leaf — a setext underline, a delimiter
    /// row, a lazy line — changes its kind or range); if so, where its nodes
    /// and its arena bytes end.
    private func sameLeaf(_ b: Int32, at: Int, nodes: [RawNode], arenaFrom: Int) -> (end: Int, arenaEnd: Int)? {
        let blk = blocks[Int(b)]
        let n = nodes[at]
        guard n.kind == blk.kind, Int(n.start) == Int(blk.start), Int(n.end) == Int(blk.end) else { return nil }
        switch blk.kind {
        case .heading: guard n.small == UInt16(blk.level), n.flags & 1 == (blk.setext ? 1 : 0) else { return nil }
        case .codeBlock: guard n.flags & 1 == (blk.fenced ? 1 : 0) else { return nil }
        case .paragraph, .thematicBreak, .htmlBlock, .mathBlock: break
        default: return nil
        }
        var last = at
        while nodes[last].lastChild >= 0 { last = Int(nodes[last].lastChild) }
        var arenaEnd = arenaFrom
        for k in at...last {
            let x = nodes[k]
            if x.a.isArena { arenaEnd = max(arenaEnd, x.a.end) }
            if x.b.isArena { arenaEnd = max(arenaEnd, x.b.end) }
        }
        return (last + 1, arenaEnd)
    }

    /// Records a closed child of `parent` at `node` (subtree to `end`, arena
    /// to `arenaEnd`) in its container's run, when every child before it is
    /// in the run; false when it is not (log it then).
    @inline(__always)
    private static func extendRun(_ b: Int32, parent: Int32, node: Int, end: Int, arenaEnd: Int,
                                  runs: inout [(node: Int32, entry: Int)], log newLog: inout [TailEntry]) -> Bool {
        guard parent > 0, let r = runs.last, r.node == parent else { return false }
        let e = r.entry
        return newLog.withUnsafeMutableBufferPointer { newLog in
            if newLog[e].runCount == 0 {
                guard node == Int(parent) + 1 else { return false }
                newLog[e].runFirst = b
            }
            newLog[e].runCount += 1
            newLog[e].runLast = b
            newLog[e].runLastNode = Int32(node)
            newLog[e].runEnd = Int32(end)
            newLog[e].runArenaEnd = Int32(arenaEnd)
            return true
        }
    }

    /// A child of `parent` that is not in its run ends the run.
    @inline(__always)
    private static func endRun(_ parent: Int32, runs: inout [(node: Int32, entry: Int)]) {
        if let r = runs.last, r.node == parent { runs.removeLast() }
    }

    /// Emits an open table's rows from `fromRow` on (its node is in place)
    /// and returns its log entry, which marks the rows of complete lines.
    private func emitOpenTable(_ b: Int32, at index: Int, fromRow: Int, checkpoint cp: BlockCheckpoint,
                               nodes: inout [RawNode], inline: InlineParser, arenaStart: Int) -> TailEntry {
        let blk = blocks[Int(b)]
        // Rows of complete lines are final once the delimiter row was, that
        // is when the block was a table already at the checkpoint.
        let wasTable = checkpointSaved.contains { $0.index == b && $0.block.kind == .table }
        let complete = wasTable ? max(0, min(Int(blk.lineCount), cp.lineCount - Int(blk.firstLine))) : 0
        var mark = (row: complete, node: 0, arena: 0, lastRow: Int32(-1))
        emitTable(b, node: Int32(index), fromRow: fromRow, into: &nodes, inline: inline, mark: &mark)
        var entry = TailEntry(block: b, node: Int32(index), end: Int32(nodes.count), arena: Int32(arenaStart),
                              arenaEnd: Int32(inline.arena.count), settled: false)
        if complete > 0 && mark.lastRow >= 0 {
            entry.rows = Int32(complete)
            entry.rowsEnd = Int32(mark.node)
            entry.rowsArena = Int32(mark.arena)
            entry.lastRow = mark.lastRow
        }
        return entry
    }
}
