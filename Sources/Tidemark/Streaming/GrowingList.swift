/// A list with value semantics that grows at its end without copying while
/// other copies of it are held: the stream's settled block ids and node
/// starts, which every update's layout shows at the length they had then.
///
/// Copies share fixed-size chunks. Appending to a copy whose length is its
/// last chunk's written length writes the next slot in place: no copy reads
/// a slot past its own length, so none sees a change. Appending to any other
/// copy (one that was shortened, or one another copy has grown past) first
/// gives it a chunk of its own for that slot, with the slots before it
/// copied — one chunk, not the list: settled blocks emitted again (a
/// definition that resolves a settled reference) cut the list back and
/// grow it again while an update may show the longer one, and a copy of
/// the whole list per such cut made a stream quadratic.
///
/// Threads: only the stream's engine appends; an update read on another
/// thread reads only slots below its length, which no append writes. Two
/// copies that may both append (a copied stream's engines) must not share
/// chunks: `StreamEngine.copy` gives the copy chunks of its own.
struct GrowingList<Element: BitwiseCopyable & Sendable>: RandomAccessCollection, ExpressibleByArrayLiteral,
    @unchecked Sendable {
    static var chunkShift: Int { 9 }
    static var chunkSize: Int { 1 << chunkShift }

    final class Chunk {
        let base: UnsafeMutablePointer<Element>
        /// How many slots some copy has written (only appends change it).
        var written = 0

        init() { base = .allocate(capacity: GrowingList.chunkSize) }

        deinit { base.deallocate() }
    }

    private var chunks: [Chunk] = []
    private(set) var count = 0

    init() {}

    init(_ elements: [Element]) {
        for x in elements { append(x) }
    }

    init(arrayLiteral elements: Element...) { self.init(elements) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "GrowingList index out of range")
        return chunks.withUnsafeBufferPointer { $0[i >> GrowingList.chunkShift].base[i & (GrowingList.chunkSize - 1)] }
    }

    /// (Read on every append: without the generic collection's detour.)
    var last: Element? {
        guard count > 0 else { return nil }
        let i = count - 1
        return chunks.withUnsafeBufferPointer { $0[i >> GrowingList.chunkShift].base[i & (GrowingList.chunkSize - 1)] }
    }

    mutating func append(_ x: Element) {
        let c = count >> GrowingList.chunkShift
        let o = count & (GrowingList.chunkSize - 1)
        if c < chunks.count {
            let chunk = chunks[c]
            if chunk.written == o {
                // No copy has written this slot: ours to write.
                (chunk.base + o).initialize(to: x)
                chunk.written = o + 1
                count += 1
                return
            }
            // Another copy wrote it: a chunk of our own, with our slots
            // before it (the chunks after it are another copy's).
            let mine = Chunk()
            mine.base.initialize(from: chunk.base, count: o)
            (mine.base + o).initialize(to: x)
            mine.written = o + 1
            if chunks.count > c + 1 { chunks.truncate(to: c + 1) }
            chunks[c] = mine
            count += 1
            return
        }
        let chunk = Chunk()
        chunk.base.initialize(to: x)
        chunk.written = 1
        chunks.append(chunk)
        count += 1
    }

    /// Drops the elements from `range.lowerBound` on (the next append gives
    /// the list a chunk of its own there: a copy held elsewhere may still
    /// show them).
    mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        precondition(range.lowerBound >= 0 && range.lowerBound <= count, "GrowingList range out of bounds")
        count = range.lowerBound
    }
}
