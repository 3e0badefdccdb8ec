import Tidemark

/// A bounded, thread-safe least-recently-used cache of highlight results.
///
/// Rendering the same document twice (or a streaming preview re-rendering
/// every finished fence on each chunk) asks for the same (language, code)
/// pairs again and again. Entries are bounded both in number and in the
/// bytes of code they retain, so a few huge blocks cannot pin megabytes.
final class ResultCache: Sendable {
    struct Key: Hashable, Sendable {
        var language: String
        /// The bytes, not the String: canonically equivalent texts (é and
        /// e + U+0301) are equal Strings with different UTF-8 offsets.
        var code: [UInt8]
    }

    private struct Entry {
        var spans: [HighlightSpan]
        var lastUse: UInt64
        var cost: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var totalCost = 0
    }

    let capacity: Int
    let maxTotalBytes: Int
    private let state = Locked(State())

    init(capacity: Int, maxTotalBytes: Int = 16 * 1024 * 1024) {
        self.capacity = max(0, capacity)
        self.maxTotalBytes = maxTotalBytes
    }

    var count: Int { state.withLock { $0.entries.count } }

    func value(for key: Key) -> [HighlightSpan]? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.spans
        }
    }

    func insert(_ spans: [HighlightSpan], for key: Key) {
        let cost = key.code.count + spans.count * MemoryLayout<HighlightSpan>.stride
        guard capacity > 0, cost <= maxTotalBytes / 4 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.totalCost -= old.cost }
            state.entries[key] = Entry(spans: spans, lastUse: state.clock, cost: cost)
            state.totalCost += cost
            // Evicting scans all entries, but only on insert and over a few
            // hundred entries: cheaper than maintaining a linked list.
            while state.entries.count > capacity || state.totalCost > maxTotalBytes {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
                state.totalCost -= oldest.value.cost
                state.entries.removeValue(forKey: oldest.key)
            }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }
}
