import Foundation

/// A tiny least-recently-used cache used to demonstrate highlighting.
public final class ExpiringCache<Key: Hashable, Value>: @unchecked Sendable {
    private struct Entry {
        var value: Value
        var expires: Date
    }

    private var storage: [Key: Entry] = [:]
    private let lock = NSLock()
    public let lifetime: TimeInterval

    public init(lifetime: TimeInterval = 60) {
        self.lifetime = lifetime
    }

    // Returns the cached value when it has not expired yet.
    public func value(for key: Key, now: Date = Date()) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = storage[key], entry.expires > now else {
            storage[key] = nil
            return nil
        }
        return entry.value
    }

    public func insert(_ value: Value, for key: Key) {
        lock.lock()
        storage[key] = Entry(value: value, expires: Date().addingTimeInterval(lifetime))
        lock.unlock()
    }

    public var count: Int {
        lock.lock(); defer { lock.unlock() }
        return storage.values.filter { $0.expires > Date() }.count
    }
}

enum Shape: CustomStringConvertible {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)

    var description: String {
        switch self {
        case .circle(let r): return "circle r=\(r) area=\(Double.pi * r * r)"
        case .rectangle(let w, let h) where w == h: return "square \(w)"
        case .rectangle(let w, let h): return "rect \(w)x\(h), 0x1F=\(0x1F)"
        }
    }
}
