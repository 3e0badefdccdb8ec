// Fuzz target `stream`: streaming equivalence (contract 2 of the brief).
//
// Input: byte 0 = ParseOptions raw value; byte 1 = how to split (below);
// byte 2 = the split parameter; the rest = the Markdown bytes, appended to a
// `MarkdownStream` chunk by chunk.
//
// Byte 1:
//
// | bits | meaning |
// |---|---|
// | 0–1 | split strategy: 0 fixed chunk size `byte2 % 64 + 1`; 1 chunk sizes read from the next `byte2 % 16 + 1` bytes of the input, cycled (0 = an empty append); 2 split before every occurrence of the byte `byte2` in the text; 3 pseudo-random sizes 1…32 seeded by `byte2` |
// | 2 | append a chunk that is valid UTF-8 as a `String` (`append(_:)`), otherwise as bytes |
// | 3 | fork: copy the stream halfway, feed the rest to both, compare |
// | 4 | no `finish()` (the stream just stops) |
// | 5 | hold on to each update until after the next append (the stream
//       cannot reuse its storage then) and check its document did not change |
//
// Checks after EVERY append and after `finish()`:
// - `update.document == Document(parsing: bytes so far)` and
//   `stream.document == update.document` (contract 2);
// - with bit 5, the document of the previous update is unchanged (a
//   published storage is never written again);
// - the block diff: `blockIDs` are the top-level blocks in order and unique,
//   `blockNodeIndices` point at them, `settledCount <= blockCount`,
//   `changed`/`inserted` are ids of the update and disjoint, `removed` ids
//   are gone, `kept ∪ changed ∪ inserted == blockIDs`, a kept block existed
//   in the previous update with the same subtree, `node(for:)` finds every
//   block, `changedBlocks` are exactly the changed and inserted blocks in
//   document order, settled blocks stay settled with the same ids;
// - `html(of:)` of every changed block is valid, safe HTML;
// - after `finish()`: `isFinal`, every block settled, equal to the batch
//   parse; appending after `finish()` changes nothing.
//
// The work is quadratic in the number of appends (each append is compared
// with a batch parse of everything so far), so chunks are made longer when
// an input would need more than `appendBudget` bytes of batch parsing.

import Tidemark

/// The most bytes of batch parsing one input may cost.
let appendBudget = 400_000

/// Whether two nodes of (possibly) different documents have the same
/// subtree: kinds, ranges and every attribute. Iterative, any depth.
func sameSubtree(_ a: Node, _ b: Node) -> Bool {
    var stack: [(Node, Node)] = [(a, b)]
    while let (x, y) = stack.popLast() {
        guard x.kind == y.kind, x.range == y.range, x.literal == y.literal,
              x.destination == y.destination, x.title == y.title, x.info == y.info,
              x.headingLevel == y.headingLevel, x.isSetextHeading == y.isSetextHeading,
              x.listType == y.listType, x.listStart == y.listStart, x.isTight == y.isTight,
              x.listMarker == y.listMarker, x.taskState == y.taskState, x.isFenced == y.isFenced,
              x.isAutolink == y.isAutolink, x.alertKind == y.alertKind,
              x.cellAlignment == y.cellAlignment, x.isHeaderRow == y.isHeaderRow,
              x.footnoteLabel == y.footnoteLabel, x.footnoteNumber == y.footnoteNumber,
              x.isDisplayMath == y.isDisplayMath
        else { return false }
        var cx = x.firstChild, cy = y.firstChild
        while let u = cx, let v = cy {
            stack.append((u, v))
            cx = u.nextSibling
            cy = v.nextSibling
        }
        if (cx == nil) != (cy == nil) { return false }
    }
    return true
}

/// What is remembered of the previous update. Not the update itself: a
/// live reference to its storage would keep the stream from reusing it
/// (`isKnownUniquelyReferenced`), and that reuse is a path worth fuzzing.
struct Previous {
    var ids: [BlockID]
    var indices: [Int]
    var settledCount: Int
    /// The batch parse, equal to the update's document.
    var batch: Document

    func node(for id: BlockID) -> Node? {
        guard let k = ids.lastIndex(of: id) else { return nil }
        return batch.node(at: indices[k])
    }
}

/// Checks one update against the batch parse of `soFar` and the previous
/// update; returns what the next check needs of this one.
func checkUpdate(_ u: StreamUpdate, stream: MarkdownStream, soFar: [UInt8], options: ParseOptions,
                 previous: Previous?, step: Int) -> Previous {
    let batch = Document(parsing: soFar, options: options)
    let doc = u.document
    require(doc == batch, "step \(step): streamed document != batch parse of the \(soFar.count) bytes so far")
    require(stream.document == doc, "step \(step): stream.document != the update's document")

    // Top-level blocks and their ids.
    let tops = Array(doc.root.children)
    let ids = u.blockIDs
    require(u.blockCount == tops.count && ids.count == tops.count,
            "step \(step): \(ids.count) block ids for \(tops.count) top-level blocks")
    require(u.blockNodeIndices == tops.map(\.index), "step \(step): blockNodeIndices are not the top-level blocks")
    require(Set(ids).count == ids.count, "step \(step): duplicate block ids")
    require(u.settledCount >= 0 && u.settledCount <= ids.count, "step \(step): settledCount \(u.settledCount) of \(ids.count)")
    for (k, id) in ids.enumerated() {
        require(u.node(for: id) == tops[k], "step \(step): node(for: \(id)) is not block \(k)")
    }

    // The diff.
    let idSet = Set(ids)
    let changed = Set(u.changed), inserted = Set(u.inserted)
    require(changed.count == u.changed.count && inserted.count == u.inserted.count, "step \(step): duplicate ids in the diff")
    require(changed.isSubset(of: idSet) && inserted.isSubset(of: idSet), "step \(step): changed/inserted id not in the document")
    require(changed.isDisjoint(with: inserted), "step \(step): an id is both changed and inserted")
    require(Set(u.removed).isDisjoint(with: idSet), "step \(step): a removed id is still in the document")
    let kept = u.kept
    require(Set(kept).union(changed).union(inserted) == idSet && kept.count + changed.count + inserted.count == ids.count,
            "step \(step): kept, changed and inserted do not partition the blocks")
    let changedBlocks = Array(u.changedBlocks)
    let expected = tops.enumerated().filter { changed.contains(ids[$0.offset]) || inserted.contains(ids[$0.offset]) }.map(\.element)
    require(changedBlocks == expected, "step \(step): changedBlocks are not the changed and inserted blocks in order")

    if let p = previous {
        let previousIDs = Set(p.ids)
        for id in kept {
            require(previousIDs.contains(id), "step \(step): kept block \(id) was not in the previous update")
            guard let now = u.node(for: id), let before = p.node(for: id) else { fuzzFailure("kept block \(id) not found") }
            // Known bug `stream-kept` (FuzzFindingsTests): blocks whose
            // content changed are reported kept; relaxed, skip the check.
            if !knownIssues.contains("stream-kept") {
                require(sameSubtree(now, before), "step \(step): block \(id) is reported kept but its subtree changed")
            }
        }
        for id in inserted {
            require(!previousIDs.contains(id), "step \(step): inserted block \(id) was already in the previous update")
        }
        for id in changed {
            require(previousIDs.contains(id), "step \(step): changed block \(id) was not in the previous update")
        }
        // Settled blocks stay, in place, with their ids.
        let previousSettled = Array(p.ids.prefix(p.settledCount))
        require(u.settledCount >= p.settledCount && Array(ids.prefix(previousSettled.count)) == previousSettled,
                "step \(step): settled blocks changed their ids or became unsettled")
    }

    // What a UI redraws.
    for node in changedBlocks {
        let html = Array(doc.html(of: node).utf8)
        checkHTML(html, safe: true, sourceHasTab: doc.source.contains(0x09))
    }
    return Previous(ids: ids, indices: u.blockNodeIndices, settledCount: u.settledCount, batch: batch)
}

/// The chunk lengths for `body` (they sum to `body.count`).
func chunkLengths(mode: UInt8, parameter: UInt8, body: inout ArraySlice<UInt8>) -> [Int] {
    var lengths: [Int] = []
    switch mode & 3 {
    case 0:
        let size = Int(parameter % 64) + 1
        var left = body.count
        while left > 0 { lengths.append(min(size, left)); left -= size }
    case 1:
        let n = min(Int(parameter % 16) + 1, body.count)
        let sizes = body.prefix(n).map { Int($0) }
        body = body.dropFirst(n)
        var left = body.count
        var k = 0
        var emptyRun = 0
        while left > 0 {
            let size = min(sizes[k % sizes.count], left)
            k += 1
            // Every size 0: one empty append per round, then one byte.
            if size == 0 {
                emptyRun += 1
                if emptyRun > sizes.count { lengths.append(1); left -= 1; emptyRun = 0 } else { lengths.append(0) }
                continue
            }
            emptyRun = 0
            lengths.append(size)
            left -= size
        }
    case 2:
        var start = body.startIndex
        for i in body.indices where i > start && body[i] == parameter {
            lengths.append(i - start)
            start = i
        }
        if start < body.endIndex { lengths.append(body.endIndex - start) }
    default:
        var state = UInt32(parameter) &* 2_654_435_761 | 1
        var left = body.count
        while left > 0 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            let size = min(Int(state % 32) + 1, left)
            lengths.append(size)
            left -= size
        }
    }
    return lengths
}

/// Merges neighbouring chunks until the batch parses after every append
/// fit in `appendBudget` bytes.
func withinBudget(_ lengths: [Int], total: Int) -> [Int] {
    guard total > 0 else { return lengths }
    let maxAppends = max(1, appendBudget / total)
    guard lengths.count > maxAppends else { return lengths }
    let minimum = (total + maxAppends - 1) / maxAppends
    var merged: [Int] = []
    var current = 0
    for length in lengths {
        current += length
        if current >= minimum { merged.append(current); current = 0 }
    }
    if current > 0 { merged.append(current) }
    return merged
}

@discardableResult
func feed(_ stream: inout MarkdownStream, _ chunk: ArraySlice<UInt8>, asString: Bool) -> StreamUpdate {
    if asString, let text = String(validating: chunk, as: UTF8.self) {
        return stream.append(text)
    }
    return stream.append(bytes: chunk)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func streamFuzzEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 3 else { return 0 }
    let options = ParseOptions(rawValue: UInt32(data[0]))
    let mode = data[1]
    var body = ArraySlice(UnsafeBufferPointer(start: data + 3, count: size - 3))
    let lengths = withinBudget(chunkLengths(mode: mode, parameter: data[2], body: &body), total: body.count)
    let asString = mode & 4 != 0
    let fork = mode & 8 != 0
    let finishes = mode & 16 == 0

    var stream = MarkdownStream(options: options)
    require(stream.options == options, "stream options")
    var soFar: [UInt8] = []
    soFar.reserveCapacity(body.count)
    let holdsPrevious = mode & 32 != 0
    var previous: Previous? = nil
    var held: StreamUpdate? = nil
    var copy: MarkdownStream? = nil
    var copyAt = 0
    var offset = body.startIndex
    for (step, length) in lengths.enumerated() {
        if fork && copy == nil && step >= lengths.count / 2 {
            copy = stream
            copyAt = soFar.count
        }
        let chunk = body[offset..<(offset + length)]
        offset += length
        soFar.append(contentsOf: chunk)
        let u = feed(&stream, chunk, asString: asString)
        if let h = held, let p = previous {
            require(h.document == p.batch, "step \(step): the previous update's document changed after the next append")
        }
        previous = checkUpdate(u, stream: stream, soFar: soFar, options: options, previous: previous, step: step)
        held = holdsPrevious ? u : nil
    }
    held = nil
    require(offset == body.endIndex, "chunks do not cover the input")

    if finishes {
        let u = stream.finish()
        require(u.isFinal, "finish() did not return the final update")
        _ = checkUpdate(u, stream: stream, soFar: soFar, options: options, previous: previous, step: lengths.count)
        require(u.settledCount == u.blockCount, "after finish() \(u.settledCount) of \(u.blockCount) blocks settled")
        checkTree(u.document)
        let again = stream.append(bytes: [UInt8]("more\n".utf8))
        require(again.document == u.document, "append after finish() changed the document")
    }

    if var other = copy {
        // The copy continues from where it was taken; the original must not
        // have been disturbed by it, nor it by the original.
        let before = stream.document
        let rest = soFar[copyAt...]
        var from = rest.startIndex
        var half = true
        while from < rest.endIndex {
            let n = half ? (rest.endIndex - from + 1) / 2 : rest.endIndex - from
            feed(&other, rest[from..<(from + n)], asString: !asString)
            from += n
            half = false
        }
        let u = other.finish()
        require(u.document == Document(parsing: soFar, options: options), "the forked stream differs from the batch parse")
        require(stream.document == before, "feeding a copy changed the original stream")
    }
    return 0
}
