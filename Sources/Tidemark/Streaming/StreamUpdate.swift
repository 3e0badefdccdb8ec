/// The identity of a top-level block in a stream: stable across appends for
/// as long as a top-level block starts at the same place.
public struct BlockID: Hashable, Sendable, Codable, CustomStringConvertible, BitwiseCopyable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}

/// What one `append` (or `finish`) changed.
///
/// The diff is over the document's top-level blocks: a block is *kept* when
/// its subtree is unchanged, *changed* when it is the same block (same id)
/// with new content, *inserted* when it is new, and *removed* when it is gone
/// (for example a paragraph that turned out to be a link reference
/// definition). Blocks before `settledCount` are settled: their structure is
/// final (their inlines can still change once, when a later definition
/// resolves a reference in them — they are then reported as changed).
public struct StreamUpdate: Sendable {
    // One reference: the document's storage, which also holds the stream's
    // layout and diff objects for it (an update is cheap to take and drop).
    let storage: DocumentStorage
    let single: BlockID
    /// Top-level blocks `0..<settledCount` are settled.
    public let settledCount: Int
    // The options (low 32 bits), the diff mode (8 bits) and whether the
    // update is final (1 bit) in one word: an update is four words, which
    // a call returns in registers (a fifth field made every append cost
    // about 50 instructions more).
    let packed: UInt64
    var options: ParseOptions { ParseOptions(rawValue: UInt32(truncatingIfNeeded: packed)) }
    // The diff: 0 the storage's `streamDiff`; 1 only `single` changed (most
    // appends); 2 nothing changed.
    var diffMode: UInt8 { UInt8(truncatingIfNeeded: packed >> 32) }
    /// Whether this is the update of `finish()`.
    public var isFinal: Bool { packed >> 40 & 1 == 1 }

    init(storage: DocumentStorage, options: ParseOptions, diffMode: UInt8, single: BlockID, settledCount: Int, isFinal: Bool) {
        self.storage = storage
        self.single = single
        self.settledCount = settledCount
        packed = UInt64(options.rawValue) | UInt64(diffMode) << 32 | (isFinal ? 1 << 40 : 0)
    }

    /// The whole document so far; equal to `Document(parsing: textSoFar)`.
    public var document: Document { Document(storage: storage, options: options) }
    // Settled and unsettled top-level blocks, kept apart so that an update
    // costs no copy of the (growing) settled list; shared by every update
    // until the layout changes.
    var layout: StreamLayout { storage.streamLayout ?? StreamLayout.empty }
    // The diff, shared by consecutive updates that report the same one;
    // nil for the common diffs that need no object.
    var diff: StreamDiff? { diffMode == 0 ? (storage.streamDiff ?? StreamDiff.empty) : nil }

    var settledIDs: GrowingList<BlockID> { layout.settledIDs }
    var settledStarts: BlockStarts { layout.settledStarts }
    var tailIDs: [BlockID] { layout.tailIDs }
    var tailStarts: [Int] { layout.tailStarts }
    /// Top-level blocks that are the same block with new content.
    public var changed: [BlockID] {
        if let diff { return diff.changed }
        return diffMode == 1 ? [single] : []
    }
    /// New top-level blocks.
    public var inserted: [BlockID] { diff?.inserted ?? [] }
    /// Top-level blocks that are gone.
    public var removed: [BlockID] { diff?.removed ?? [] }

    /// The number of top-level blocks.
    public var blockCount: Int { settledIDs.count + tailIDs.count }

    /// The ids of the top-level blocks, in document order.
    public var blockIDs: [BlockID] { settledIDs + tailIDs }

    /// The document-order node index of each top-level block.
    public var blockNodeIndices: [Int] { Array(settledStarts) + tailStarts }

    /// Top-level blocks whose subtree did not change.
    public var kept: [BlockID] {
        let touched = Set(changed).union(inserted)
        return blockIDs.filter { !touched.contains($0) }
    }

    /// The top-level block with this id, if it is in the document.
    public func node(for id: BlockID) -> Node? {
        nodeIndex(for: id).map { document.node(at: $0) }
    }

    func nodeIndex(for id: BlockID) -> Int? {
        StreamUpdate.nodeIndex(for: id, in: layout)
    }

    static func nodeIndex(for id: BlockID, in l: StreamLayout) -> Int? {
        if let k = l.tailIDs.firstIndex(of: id) { return l.tailStarts[k] }
        if let k = l.settledIDs.lastIndex(of: id) { return l.settledStarts[k] }
        return nil
    }

    /// The top-level blocks that were changed or inserted, in document order
    /// (what a UI redraws; when one block changed, the common case, reading
    /// it allocates nothing).
    public var changedBlocks: ChangedBlocks {
        let document = Document(storage: storage, options: options)
        if diffMode != 0 {
            // (Most appends: one block changed, no array.)
            if diffMode == 1, let l = storage.streamLayout {
                // Nearly always the last block of the tail.
                let n = l.tailIDs.count
                if n > 0 && l.tailIDs[n - 1] == single { return ChangedBlocks(document: document, one: l.tailStarts[n - 1], many: []) }
                if let at = StreamUpdate.nodeIndex(for: single, in: l) { return ChangedBlocks(document: document, one: at, many: []) }
            }
            return ChangedBlocks(document: document, one: -1, many: [])
        }
        let diff = storage.streamDiff ?? StreamDiff.empty
        let changed = diff.changed, inserted = diff.inserted
        let count = changed.count + inserted.count
        if count == 0 { return ChangedBlocks(document: document, one: -1, many: []) }
        if count == 1, let at = nodeIndex(for: changed.first ?? inserted[0]) {
            return ChangedBlocks(document: document, one: at, many: [])
        }
        if count <= 8 {
            // Few ids (one or two tail blocks, say): no hashing.
            var found: [Int] = []
            found.reserveCapacity(count)
            for id in changed { if let at = nodeIndex(for: id) { found.append(at) } }
            for id in inserted { if let at = nodeIndex(for: id) { found.append(at) } }
            if found.count > 1 { found.sort() }
            return ChangedBlocks(document: document, one: -1, many: found)
        }
        var wanted = Set(changed)
        wanted.formUnion(inserted)
        // Tail blocks first; then the settled ones that remain, walking back
        // from the end (re-rendered settled blocks are rare) and stopping
        // as soon as every wanted id is found.
        var found: [Int] = []
        for (k, id) in tailIDs.enumerated() where wanted.contains(id) {
            found.append(tailStarts[k])
            wanted.remove(id)
        }
        var k = settledIDs.count - 1
        while k >= 0 && !wanted.isEmpty {
            let id = settledIDs[k]
            if wanted.contains(id) {
                found.append(settledStarts[k])
                wanted.remove(id)
            }
            k -= 1
        }
        found.sort()
        return ChangedBlocks(document: document, one: -1, many: found)
    }
}

/// The top-level blocks an update changed or inserted, in document order: a
/// collection of the document's nodes.
public struct ChangedBlocks: RandomAccessCollection, Sendable {
    let document: Document
    // The node index when there is exactly one (no array), else -1 and
    // the indices in `many`.
    let one: Int
    let many: [Int]?

    init(document: Document, one: Int, many: [Int]) {
        self.document = document
        self.one = one
        self.many = many.isEmpty ? nil : many
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { one >= 0 ? 1 : (many?.count ?? 0) }
    public var count: Int { endIndex }
    public var isEmpty: Bool { endIndex == 0 }
    public subscript(position: Int) -> Node {
        precondition(position >= 0 && position < endIndex, "changed block index out of range")
        return document.node(at: one >= 0 ? one : many![position])
    }
}

/// The top-level blocks of an update: ids and document-order node indices.
/// (The engine empties the settled arrays of its last layout, when no
/// update holds it any more, before it appends to its own: so they are not
/// copied; and it writes a layout again only while it holds the sole
/// reference. Nothing else mutates a layout.)
final class StreamLayout: @unchecked Sendable {
    @exclusivity(unchecked) var settledIDs: GrowingList<BlockID>
    @exclusivity(unchecked) var settledStarts: BlockStarts
    @exclusivity(unchecked) var tailIDs: [BlockID]
    @exclusivity(unchecked) var tailStarts: [Int]

    init(settledIDs: GrowingList<BlockID>, settledStarts: BlockStarts, tailIDs: [BlockID], tailStarts: [Int]) {
        self.settledIDs = settledIDs
        self.settledStarts = settledStarts
        self.tailIDs = tailIDs
        self.tailStarts = tailStarts
    }

    static let empty = StreamLayout(settledIDs: [], settledStarts: BlockStarts([]), tailIDs: [], tailStarts: [])
}

/// The node index of each settled top-level block of a layout: the
/// stream's list of them, but for the blocks from `overrideFrom` on, which
/// a snapshot emitted again (provisionally, with a definition only the tail
/// has) at `overrides`. The list is shared, not copied: a copy per
/// provisional snapshot cost the document.
struct BlockStarts: RandomAccessCollection, Sendable {
    let list: GrowingList<Int>
    let overrideFrom: Int
    let overrides: [Int]

    init(_ list: GrowingList<Int>) {
        self.list = list
        overrideFrom = list.count
        overrides = []
    }

    /// `list[..<from]` followed by `overrides`.
    init(_ list: GrowingList<Int>, from: Int, overrides: [Int]) {
        precondition(from >= 0 && from <= list.count, "BlockStarts prefix out of range")
        self.list = list
        overrideFrom = from
        self.overrides = overrides
    }

    var startIndex: Int { 0 }
    var endIndex: Int { overrideFrom + overrides.count }

    @inline(__always)
    subscript(k: Int) -> Int {
        k < overrideFrom ? list[k] : overrides[k - overrideFrom]
    }
}

/// What an update changed (see `StreamUpdate`). The engine writes one
/// again only while it holds the sole reference (no update shows it any
/// more); nothing else mutates it.
final class StreamDiff: @unchecked Sendable {
    @exclusivity(unchecked) var changed: [BlockID]
    @exclusivity(unchecked) var inserted: [BlockID]
    @exclusivity(unchecked) var removed: [BlockID]

    init(changed: [BlockID], inserted: [BlockID], removed: [BlockID]) {
        self.changed = changed
        self.inserted = inserted
        self.removed = removed
    }

    static let empty = StreamDiff(changed: [], inserted: [], removed: [])
}
