import Tidemark

/// Splits code into lines of runs, colored by a highlighter's spans when
/// there are any.
enum CodeLines {
    /// - Parameters:
    ///   - code: the block's literal (each line ends with a newline).
    ///   - spans: highlight spans over `code`'s UTF-8 bytes, or `nil`.
    static func lines(_ code: String, spans: [HighlightSpan]?, traits: RunTraits = [], theme: Theme) -> [[Run]] {
        var bytes = Array(code.utf8)
        // The last line's terminator ends the block, it does not start an
        // empty line.
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.isEmpty { return [] }
        let spans = sanitized(spans ?? [], count: bytes.count, bytes: bytes)
        let context = StyleContext(role: .codeBlock)
        var styles: [TokenKind?: RunStyle] = [:]
        func style(_ token: TokenKind?) -> RunStyle {
            if let s = styles[token] { return s }
            let s = theme.style(traits: traits, token: token, in: context)
            styles[token] = s
            return s
        }

        var lines: [[Run]] = []
        var spanIndex = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var line = RunAccumulator()
            var cursor = lineStart
            // Spans may cross line ends; each line takes its part of them.
            while cursor < lineEnd {
                while spanIndex < spans.count && spans[spanIndex].end <= cursor { spanIndex += 1 }
                if spanIndex < spans.count && spans[spanIndex].start <= cursor {
                    let end = min(spans[spanIndex].end, lineEnd)
                    let token = spans[spanIndex].kind
                    line.append(Run(text: text(bytes, cursor, end), traits: traits, token: token, style: style(token)))
                    cursor = end
                } else {
                    let next = spanIndex < spans.count ? min(spans[spanIndex].start, lineEnd) : lineEnd
                    line.append(Run(text: text(bytes, cursor, next), traits: traits, style: style(nil)))
                    cursor = next
                }
            }
            lines.append(line.runs)
            lineStart = lineEnd + 1
        }
        return lines
    }

    private static func text(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The spans clipped to the code, in order, without overlaps, and with
    /// both ends moved forward onto a scalar boundary, so a highlighter bug
    /// can neither trap here nor split a UTF-8 sequence into U+FFFDs.
    static func sanitized(_ spans: [HighlightSpan], count: Int, bytes: [UInt8]) -> [HighlightSpan] {
        func boundary(_ offset: Int) -> Int {
            var i = max(0, min(offset, count))
            while i < count && bytes[i] & 0xC0 == 0x80 { i += 1 }
            return i
        }
        var out: [HighlightSpan] = []
        out.reserveCapacity(spans.count)
        var floor = 0
        for span in spans {
            let start = max(boundary(span.start), floor)
            let end = boundary(span.end)
            guard start < end else { continue }
            out.append(HighlightSpan(start: start, end: end, kind: span.kind))
            floor = end
        }
        return out
    }
}
