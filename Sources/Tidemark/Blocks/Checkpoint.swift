/// Checkpoints of the block phase, for streaming.
///
/// A streaming snapshot has to see the document as if the input ended now:
/// the partial last line processed and every open block closed. Instead of
/// parsing the trailing block again in a fresh parser, the stream lets the
/// persistent parser do it, and then rolls it back to the checkpoint taken
/// before. The cost is proportional to the open chain (the blocks that can
/// still change), not to the document or even the trailing block.
///
/// What processing lines and `finishDocument` can change in blocks that
/// already exist: the open blocks (every field), the last child of an open
/// block (its `next` link and its blank-line flag) and the previous sibling
/// of an open block (`next`, when an open paragraph turns out to be only
/// link reference definitions and is unlinked). Everything else only grows
/// at the end (blocks, lines, line starts, table alignments), or goes to
/// the label table's overlay (definitions, footnote labels: the few a
/// snapshot adds stay there until the next checkpoint, see `LabelTable`).
struct BlockCheckpoint {
    var blockCount: Int
    var lineCount: Int
    var lineStartCount: Int
    var tableAlignmentCount: Int
    var definitionCount: Int
    var footnoteKeyCount: Int
    // The blocks that may change (with their state at the checkpoint) and
    // the open chain are kept in the parser's `checkpointSaved` and
    // `checkpointChain`, whose storage is reused: one checkpoint at a time.

    var tip: Int32
    var lineNumber: Int
    var lineStart: Int
    var lineEnd: Int
    var offset: Int
    var column: Int
    var firstNonspace: Int
    var firstNonspaceColumn: Int
    var indent: Int
    var blank: Bool
    var partiallyConsumedTab: Bool
    var previousLineEnd: Int
    var openedFenceThisLine: Bool
    var thematicBreakLine: Int
    var thematicBreakFailsAt: Int
    var thematicBreakChar: UInt8
    var previousLineWasBlank: Bool
    var repeatableLineStart: Int
    var repeatableLineLength: Int
    var position: Int

}

extension BlockParser {
    /// Whether block `b` was closed at checkpoint `c` (and so can never
    /// change again: its emitted nodes are final).
    func isSettled(_ b: Int32, at c: BlockCheckpoint) -> Bool {
        checkpointChain.withUnsafeBufferPointer { BlockParser.isSettled(b, blockCount: c.blockCount, chain: $0) }
    }

    /// `isSettled(_:at:)` over the open chain `chain` of a checkpoint of
    /// `blockCount` blocks.
    @inline(__always)
    static func isSettled(_ b: Int32, blockCount: Int, chain: UnsafeBufferPointer<Int32>) -> Bool {
        guard Int(b) < blockCount else { return false }
        // The open chain's indices increase from the document to the tip.
        var lo = 0, hi = chain.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if chain[mid] < b { lo = mid + 1 } else { hi = mid }
        }
        return !(lo < chain.count && chain[lo] == b)
    }

    func checkpoint() -> BlockCheckpoint {
        persistentFloor = Int32(blocks.count)
        // (What the last snapshot added goes: this one adds its own.)
        labels.clearOverlay()
        // The open chain is walked twice: to count what it saves, then to
        // write it over the arrays' last contents (they are resized only
        // when the counts change; one append or removal each would cost a
        // uniqueness check).
        let (chainCount, savedCount) = blocks.withUnsafeBufferPointer { BlockParser.openChain($0, chain: nil, saved: nil) }
        if checkpointChain.count != chainCount {
            checkpointChain.truncate(to: chainCount)
            while checkpointChain.count < chainCount { checkpointChain.append(0) }
        }
        if checkpointSaved.count != savedCount {
            checkpointSaved.truncate(to: savedCount)
            while checkpointSaved.count < savedCount { checkpointSaved.append((0, blocks[0])) }
        }
        checkpointChain.withUnsafeMutableBufferPointer { chain in
            checkpointSaved.withUnsafeMutableBufferPointer { saved in
                _ = blocks.withUnsafeBufferPointer { BlockParser.openChain($0, chain: chain, saved: saved) }
            }
        }
        return BlockCheckpoint(
            blockCount: blocks.count, lineCount: lines.count, lineStartCount: lineStarts.count,
            tableAlignmentCount: tableAlignments.count, definitionCount: labels.definitionCount, footnoteKeyCount: labels.footnoteCount,
            tip: tip, lineNumber: lineNumber, lineStart: lineStart, lineEnd: lineEnd, offset: offset,
            column: column, firstNonspace: firstNonspace, firstNonspaceColumn: firstNonspaceColumn,
            indent: indent, blank: blank, partiallyConsumedTab: partiallyConsumedTab,
            previousLineEnd: previousLineEnd, openedFenceThisLine: openedFenceThisLine,
            thematicBreakLine: thematicBreakLine, thematicBreakFailsAt: thematicBreakFailsAt,
            thematicBreakChar: thematicBreakChar, previousLineWasBlank: previousLineWasBlank,
            repeatableLineStart: repeatableLineStart, repeatableLineLength: repeatableLineLength,
            position: position)
    }

    /// Walks the open chain from the document down: each open block goes to
    /// `chain`; it, its previous sibling and the closed last child the
    /// chain ends on (what processing lines may change) go to `saved`.
    /// Returns how many of each (without buffers, it only counts).
    @inline(__always)
    static func openChain(_ bl: UnsafeBufferPointer<Block>, chain: UnsafeMutableBufferPointer<Int32>?,
                          saved: UnsafeMutableBufferPointer<(index: Int32, block: Block)>?) -> (chain: Int, saved: Int) {
        var b: Int32 = 0
        var i = 0, j = 0
        @inline(__always) func save(_ x: Int32) {
            saved?[j] = (x, bl[Int(x)])
            j += 1
        }
        while true {
            chain?[i] = b
            i += 1
            save(b)
            let prev = bl[Int(b)].prev
            if prev >= 0 { save(prev) }
            let last = bl[Int(b)].lastChild
            guard last >= 0 else { break }
            if !bl[Int(last)].isOpen {
                save(last)
                break
            }
            b = last
        }
        return (i, j)
    }

    func rollback(to c: BlockCheckpoint) {
        persistentFloor = 0
        if blocks.count > c.blockCount { blocks.truncate(to: c.blockCount) }
        blocks.withUnsafeMutableBufferPointer { bl in
            checkpointSaved.withUnsafeBufferPointer { saved in
                for (i, blk) in saved { bl[Int(i)] = blk }
            }
        }
        if lines.count > c.lineCount { lines.truncate(to: c.lineCount) }
        if lineStarts.count > c.lineStartCount { lineStarts.truncate(to: c.lineStartCount) }
        if tableAlignments.count > c.tableAlignmentCount { tableAlignments.truncate(to: c.tableAlignmentCount) }
        // (The labels the snapshot added stay in the table's overlay until
        // the next snapshot starts: see `LabelTable`.)
        tip = c.tip
        lineNumber = c.lineNumber
        lineStart = c.lineStart
        lineEnd = c.lineEnd
        offset = c.offset
        column = c.column
        firstNonspace = c.firstNonspace
        firstNonspaceColumn = c.firstNonspaceColumn
        indent = c.indent
        blank = c.blank
        partiallyConsumedTab = c.partiallyConsumedTab
        previousLineEnd = c.previousLineEnd
        openedFenceThisLine = c.openedFenceThisLine
        thematicBreakLine = c.thematicBreakLine
        thematicBreakFailsAt = c.thematicBreakFailsAt
        thematicBreakChar = c.thematicBreakChar
        previousLineWasBlank = c.previousLineWasBlank
        repeatableLineStart = c.repeatableLineStart
        repeatableLineLength = c.repeatableLineLength
        position = c.position
    }
}
