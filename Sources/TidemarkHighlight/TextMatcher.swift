/// A compiled `#match?` regex.
enum TextMatcher: Sendable {
    /// Our own matcher: immutable, lock-free, linear time.
    case mini(MiniRegex)
    /// Swift's `Regex`, for syntax outside `MiniRegex`'s subset. Serialized
    /// behind a lock because `Regex<AnyRegexOutput>` is not `Sendable`.
    case swift(SwiftRegexBox)
    /// A pattern neither engine accepts: the predicate never matches, so the
    /// pattern's more specific highlight is simply not applied.
    case never

    init(pattern: String) {
        if let mini = MiniRegex(pattern) {
            self = .mini(mini)
        } else if let regex = try? Regex(pattern) {
            self = .swift(SwiftRegexBox(regex))
        } else {
            self = .never
        }
    }

    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .mini(let regex):
            return regex.matches(utf8: text)
        case .swift(let box):
            return box.matches(String(decoding: text, as: UTF8.self))
        case .never:
            return false
        }
    }
}

final class SwiftRegexBox: Sendable {
    private let regex: Locked<Regex<AnyRegexOutput>>

    init(_ regex: Regex<AnyRegexOutput>) {
        self.regex = Locked(regex)
    }

    func matches(_ text: String) -> Bool {
        regex.withLock { text.contains($0) }
    }
}

/// Compiled regexes shared by every query: the same few patterns
/// (`^[A-Z]`, builtin-name lists) recur across languages.
final class RegexCache: Sendable {
    private let matchers = Locked<[String: TextMatcher]>([:])

    func matcher(for pattern: String) -> TextMatcher {
        if let cached = matchers.withLock({ $0[pattern] }) { return cached }
        // Compile outside the lock; a rare duplicate compile is harmless.
        let matcher = TextMatcher(pattern: pattern)
        matchers.withLock { $0[pattern] = matcher }
        return matcher
    }
}
