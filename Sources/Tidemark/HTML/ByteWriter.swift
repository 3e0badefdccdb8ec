/// The HTML renderer's output: bytes copied through a pointer into an array
/// sized ahead, with its own count. (`Array.append(contentsOf:)` costs about
/// 100 instructions a call however few bytes it appends, and the renderer
/// writes a tag, an escaped run or a number at a time: on `mixed-1mb.md`
/// that was a quarter of the rendering.)
struct ByteWriter {
    /// `buffer[..<count]` is the output; the rest is room, zeros.
    private var buffer: [UInt8]
    private(set) var count = 0

    init(capacity: Int) {
        buffer = [UInt8](repeating: 0, count: max(capacity, 64))
    }

    var last: UInt8? { count > 0 ? buffer[count - 1] : nil }

    @inline(__always)
    mutating func append(_ b: UInt8) {
        if count == buffer.count { grow(1) }
        buffer[count] = b
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let from = bytes.baseAddress else { return }
        if buffer.count - count < n { grow(n) }
        let at = count
        buffer.withUnsafeMutableBufferPointer { to in
            // (`to` holds at least `at + n` bytes: grown above. A few bytes,
            // most writes, are copied one by one: a `memcpy` call costs more.)
            let d = to.baseAddress! + at
            if n <= 16 {
                for k in 0..<n { d[k] = from[k] }
            } else {
                d.update(from: from, count: n)
            }
        }
        count += n
    }

    @inline(__always)
    mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// Room for `n` more bytes: the buffer at least doubles.
    private mutating func grow(_ n: Int) {
        buffer.append(contentsOf: repeatElement(0, count: max(buffer.count, n)))
    }

    /// The output (the writer is spent).
    mutating func finish() -> [UInt8] {
        buffer.truncate(to: count)
        return buffer
    }
}
