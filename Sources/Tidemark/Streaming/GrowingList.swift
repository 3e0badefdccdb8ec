/// A list with value semantics that grows at its end without copying while
/// other copies of it are held: the stream's settled block ids and node
/// starts, which every update's layout shows at the length they had then.
///
/// Copies share one buffer. Appending to a copy whose length is the
/// buffer's written length writes the next slot in place: no copy reads a
/// slot past its own length, so none sees a change. Appending to any other
/// copy (one that was shortened, or one another copy has grown past) first
/// copies its elements into a buffer of its own, as an array's
/// copy-on-write does. An array shared with a held update would instead be
/// copied whole by each append: a cost that grows with the document.
///
/// Threads: only the stream's engine appends; an update read on another
/// thread reads only slots below its length, which no append writes. Two
/// copies that may both append (a copied stream's engines) must not share
/// a buffer: `StreamEngine.copy` gives the copy buffers of its own.
struct GrowingList<Element: BitwiseCopyable & Sendable>: RandomAccessCollection, ExpressibleByArrayLiteral,
    @unchecked Sendable {
    final class Buffer {
        let base: UnsafeMutablePointer<Element>
        let capacity: Int
        /// How many slots some copy has written (only appends change it).
        var written = 0

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }
    }

    private var buffer: Buffer?
    private(set) var count = 0

    init() {}

    init(_ elements: [Element]) {
        guard !elements.isEmpty else { return }
        let b = Buffer(capacity: elements.count)
        elements.withUnsafeBufferPointer { b.base.initialize(from: $0.baseAddress!, count: $0.count) }
        b.written = elements.count
        buffer = b
        count = elements.count
    }

    init(arrayLiteral elements: Element...) { self.init(elements) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "GrowingList index out of range")
        return buffer.unsafelyUnwrapped.base[i]
    }

    mutating func append(_ x: Element) {
        if let b = buffer, b.written == count, count < b.capacity {
            (b.base + count).initialize(to: x)
            b.written = count + 1
            count += 1
            return
        }
        // A buffer of our own, twice as large.
        let b = Buffer(capacity: Swift.max(16, count * 2))
        if count > 0 { b.base.initialize(from: buffer.unsafelyUnwrapped.base, count: count) }
        (b.base + count).initialize(to: x)
        b.written = count + 1
        buffer = b
        count += 1
    }

    /// Drops the elements from `range.lowerBound` on (the next append
    /// copies the rest: a copy held elsewhere may still show them).
    mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        precondition(range.lowerBound >= 0 && range.lowerBound <= count, "GrowingList range out of bounds")
        count = range.lowerBound
    }
}
