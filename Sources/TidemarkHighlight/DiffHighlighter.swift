import Tidemark

/// Unified-diff highlighting by looking at each line's first characters.
///
/// No grammar for diffs exists for Debian's tree-sitter runtime, and none is
/// needed: a diff's meaning is entirely line-prefixed. Each span covers a
/// line without its line terminator.
enum DiffHighlighter {
    static func highlight(_ code: String) -> [HighlightSpan] {
        var spans: [HighlightSpan] = []
        let bytes = Array(code.utf8)
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") && bytes[lineEnd] != UInt8(ascii: "\r") {
                lineEnd += 1
            }
            if lineEnd > lineStart, let kind = kind(of: bytes[lineStart..<lineEnd]) {
                spans.append(HighlightSpan(start: lineStart, end: lineEnd, kind: kind))
            }
            // Step over "\n", "\r" or "\r\n".
            var next = lineEnd
            if next < bytes.count && bytes[next] == UInt8(ascii: "\r") { next += 1 }
            if next < bytes.count && bytes[next] == UInt8(ascii: "\n") { next += 1 }
            lineStart = max(next, lineEnd + 1)
        }
        return spans
    }

    private static func kind(of line: ArraySlice<UInt8>) -> TokenKind? {
        // Headers first: "--- a/file" and "+++ b/file" would otherwise read
        // as a deletion and an insertion.
        if line.starts(with: "@@".utf8) || line.starts(with: "--- ".utf8) || line.starts(with: "+++ ".utf8)
            || line.starts(with: "diff ".utf8) || line.starts(with: "index ".utf8)
        {
            return .meta
        }
        switch line.first {
        case UInt8(ascii: "+"): return .inserted
        case UInt8(ascii: "-"): return .deleted
        default: return nil
        }
    }
}
