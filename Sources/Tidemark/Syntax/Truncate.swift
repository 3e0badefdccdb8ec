extension Array {
    /// Drops the elements from `n` on (none when there are `n` or fewer),
    /// keeping the storage. A few go one by one: `removeSubrange` and
    /// `removeAll(keepingCapacity:)` cost about 80 instructions however few
    /// they drop, and the streaming paths empty small scratch arrays many
    /// times per append.
    @inline(__always)
    mutating func truncate(to n: Int) {
        let k = count - n
        guard k > 0 else { return }
        if k <= 8 {
            for _ in 0..<k { removeLast() }
        } else {
            removeSubrange(n...)
        }
    }
}
