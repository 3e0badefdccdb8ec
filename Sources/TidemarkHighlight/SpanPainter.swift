import Tidemark

/// Turns overlapping, nested captures into sorted, non-overlapping spans.
///
/// Captures are painted onto a byte map from the outside in (earlier start
/// first, then longer first), so an inner capture overwrites the part of an
/// outer one it covers: an escape inside a string keeps `escape`, and the
/// string resumes after it. Captures of exactly the same range are painted
/// in priority order, so the winner of `HighlightQuery.priority` is the last
/// one painted. Unpainted bytes and `@none` bytes are gaps (plain text).
///
/// Painting costs the summed length of the captures; real queries nest only
/// a few levels deep, so this stays linear in practice and is far simpler to
/// get right than interval splitting.
enum SpanPainter {
    static let kinds = TokenKind.allCases
    static let unpainted: UInt8 = 0xFF
    static let explicitPlain: UInt8 = 0xFE

    static func paint(for kind: TokenKind) -> UInt8 {
        UInt8(kinds.firstIndex(of: kind)!)
    }

    /// Spans covering `range` of a text of `length` bytes. Bytes outside
    /// `range` are neither painted nor reported.
    static func spans(from captures: [RawCapture], length: Int, range: Range<Int>? = nil) -> [HighlightSpan] {
        let window = range ?? 0..<length
        guard !window.isEmpty else { return [] }
        let ordered = captures.sorted { left, right in
            if left.start != right.start { return left.start < right.start }
            if left.end != right.end { return left.end > right.end }
            return left.priority < right.priority
        }
        var map = [UInt8](repeating: unpainted, count: window.count)
        let base = window.lowerBound
        map.withUnsafeMutableBufferPointer { map in
            for capture in ordered {
                let start = max(Int(capture.start), window.lowerBound)
                let end = min(Int(capture.end), window.upperBound)
                guard start < end else { continue }
                let slice = UnsafeMutableBufferPointer(rebasing: map[(start - base)..<(end - base)])
                slice.update(repeating: capture.paint)
            }
        }
        var result: [HighlightSpan] = []
        var index = 0
        let count = map.count
        while index < count {
            let paint = map[index]
            var runEnd = index + 1
            while runEnd < count && map[runEnd] == paint { runEnd += 1 }
            if paint < explicitPlain {
                result.append(HighlightSpan(start: base + index, end: base + runEnd, kind: kinds[Int(paint)]))
            }
            index = runEnd
        }
        return result
    }
}
