import CTreeSitter
import Tidemark

/// One capture found in a tree, before overlaps are resolved.
struct RawCapture {
    var start: UInt32
    var end: UInt32
    /// Higher paints later, so it wins over a capture of the same range.
    var priority: UInt64
    /// Index into `TokenKind.allCases`, or `SpanPainter.explicitPlain`.
    var paint: UInt8
}

/// A language's compiled highlights query and everything precomputed from it.
///
/// A finished `TSQuery` is read-only (every execution function takes
/// `const TSQuery *`), so one instance is shared by all threads; each call
/// brings its own `TSQueryCursor`. We never call `ts_query_disable_*` after
/// construction, which would break that.
final class HighlightQuery: @unchecked Sendable {
    private let query: OpaquePointer
    private let captureCount: Int
    /// By capture id: what to paint, or nil to drop the capture.
    private let paints: [UInt8?]
    /// By pattern index.
    private let predicates: [[Predicate]]
    /// By `pattern * captureCount + capture`: see `priority(pattern:capture:)`.
    private let specificity: [UInt8]
    /// Patterns blanked out because this grammar version lacks their nodes.
    let droppedPatternCount: Int
    let patternCount: Int

    /// Upper bound on simultaneously in-progress matches; keeps pathological
    /// inputs from making a cursor's state explode (same order as editors use).
    static let matchLimit: UInt32 = 256

    /// Compiles `source` for `language`. When tree-sitter rejects a pattern
    /// because this grammar version lacks a node type or field (queries and
    /// grammars are versioned separately), that one top-level pattern is
    /// blanked out and compilation retried, so a single stale pattern does
    /// not cost the whole language. Returns nil if the query still fails.
    init?(language: OpaquePointer, source: String, regexes: RegexCache) {
        var bytes = Array(source.utf8)
        var dropped = 0
        var compiled: OpaquePointer?
        // Each retry removes one pattern; a query with more broken patterns
        // than this is not worth rescuing.
        for _ in 0..<64 {
            var errorOffset: UInt32 = 0
            var errorType = TSQueryErrorNone
            compiled = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    ts_query_new(language, chars.baseAddress, UInt32(chars.count), &errorOffset, &errorType)
                }
            }
            if compiled != nil { break }
            let recoverable =
                errorType == TSQueryErrorNodeType || errorType == TSQueryErrorField
                || errorType == TSQueryErrorCapture || errorType == TSQueryErrorStructure
            guard recoverable,
                let pattern = QuerySource.topLevelPatterns(in: bytes).first(where: {
                    $0.contains(Int(errorOffset))
                })
            else { return nil }
            for index in pattern where bytes[index] != UInt8(ascii: "\n") {
                bytes[index] = UInt8(ascii: " ")
            }
            dropped += 1
        }
        guard let query = compiled else { return nil }
        self.query = query
        droppedPatternCount = dropped
        patternCount = Int(ts_query_pattern_count(query))
        captureCount = Int(ts_query_capture_count(query))

        var captureNames: [String] = []
        var paints: [UInt8?] = []
        for id in 0..<UInt32(captureCount) {
            var length: UInt32 = 0
            let name = ts_query_capture_name_for_id(query, id, &length).map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
            } ?? ""
            captureNames.append(name)
            switch CaptureNames.meaning(of: name) {
            case .kind(let kind): paints.append(SpanPainter.paint(for: kind))
            case .plain: paints.append(SpanPainter.explicitPlain)
            case .ignored: paints.append(nil)
            }
        }
        self.paints = paints
        predicates = Predicate.compile(for: query, regexes: regexes)

        // Specificity of every (pattern, capture): how many node constraints
        // pin the captured node, plus one per text predicate. See
        // `priority(pattern:capture:)` for why.
        var specificity = [UInt8](repeating: 0, count: patternCount * max(captureCount, 1))
        let captureIDs = Dictionary(captureNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for pattern in 0..<patternCount {
            let start = Int(ts_query_start_byte_for_pattern(query, UInt32(pattern)))
            let end = pattern + 1 < patternCount
                ? Int(ts_query_start_byte_for_pattern(query, UInt32(pattern + 1))) : bytes.count
            guard start <= end, end <= bytes.count else { continue }
            let filters = predicates[pattern].count
            for (name, depth) in QuerySource.captureDepths(in: Array(bytes[start..<end])) {
                guard let id = captureIDs[name] else { continue }
                specificity[pattern * captureCount + id] = UInt8(min(depth + filters, 255))
            }
        }
        self.specificity = specificity
    }

    deinit {
        ts_query_delete(query)
    }

    /// Paint order for captures of the same range: the highest priority is
    /// painted last and wins.
    ///
    /// The chosen queries disagree on precedence. Those written for
    /// tree-sitter ≥ 0.22 and Neovim (Swift, C, Python, JavaScript, …) put
    /// `(identifier) @variable` first and expect later, more specific
    /// patterns to win; older ones (Go, JSON) put the specific patterns first
    /// and expect the first match to win. What both agree on is that the
    /// more specific pattern should win, so specificity (nesting depth of the
    /// captured node plus text predicates) decides first and source order
    /// (later wins) only breaks ties.
    private func priority(pattern: Int, capture: Int, ordinal: Int) -> UInt64 {
        let specific = UInt64(specificity[pattern * captureCount + capture])
        return specific << 40 | UInt64(pattern) << 16 | UInt64(min(ordinal, 0xFFFF))
    }

    /// Runs the query over `root` and returns the captures that survived
    /// their predicates, restricted to `byteRange` when given.
    func captures(
        root: TSNode, source: UnsafeBufferPointer<UInt8>, byteRange: Range<UInt32>? = nil
    ) -> [RawCapture] {
        guard let cursor = ts_query_cursor_new() else { return [] }
        defer { ts_query_cursor_delete(cursor) }
        ts_query_cursor_set_match_limit(cursor, HighlightQuery.matchLimit)
        if let byteRange {
            ts_query_cursor_set_byte_range(cursor, byteRange.lowerBound, byteRange.upperBound)
        }
        ts_query_cursor_exec(cursor, query, root)

        var result: [RawCapture] = []
        var match = TSQueryMatch()
        while ts_query_cursor_next_match(cursor, &match) {
            let pattern = Int(match.pattern_index)
            if pattern < predicates.count, !predicates[pattern].isEmpty,
                !predicates[pattern].allSatisfy({ $0.holds(for: match, in: source) })
            {
                continue
            }
            for ordinal in 0..<Int(match.capture_count) {
                let capture = match.captures[ordinal]
                let id = Int(capture.index)
                guard id < paints.count, let paint = paints[id] else { continue }
                let start = ts_node_start_byte(capture.node)
                let end = ts_node_end_byte(capture.node)
                guard start < end else { continue }
                result.append(
                    RawCapture(
                        start: start, end: end,
                        priority: priority(pattern: pattern, capture: id, ordinal: ordinal),
                        paint: paint))
            }
        }
        return result
    }
}
