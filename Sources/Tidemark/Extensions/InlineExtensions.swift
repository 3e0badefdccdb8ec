/// Inline-level extensions: footnote references, GFM extended autolinks and
/// math (see `spec/math.md` for the math rules).
extension InlineParser {
    // MARK: Footnote references

    /// At the `]` of `[^label]` whose label has a definition: replaces the
    /// bracket and its text with a footnote reference.
    func footnoteReference(_ opener: Bracket, closeAt pos: Int) -> Int? {
        let s0 = opener.position
        guard pos - s0 >= 2, c[s0] == UInt8(ascii: "^") else { return nil }
        for k in (s0 + 1)..<pos where c[k] == 0x20 || c[k] == 0x09 || c[k] == 0x0A { return nil }
        let key = LinkScan.normalizeLabel(c, s0 + 1, pos)
        guard footnoteLabels.contains(key) else {
            missedFootnotes?.insert(key)
            return nil
        }
        let on = opener.node
        // Drop everything after the bracket: it was the label's text.
        nodes[Int(on)].next = -1
        nodes[0].last = on
        while delimiterTop >= 0 && delimiterTop != opener.delimiterBottom { removeDelimiter(delimiterTop) }
        brackets.removeLast()
        var start = Int(nodes[Int(on)].start)
        if opener.image {
            // `![^1]`: the `!` stays text (cmark-gfm does the same).
            nodes[Int(on)].end -= 1
            nodes[Int(on)].a.length -= 1
            start += 1
        } else {
            unlinkNode(on, parent: 0)
        }
        var ref = InlineNode(kind: .footnoteReference, start: start, end: pos + 1)
        ref.a = sourceRef(s0 + 1, pos)
        append(ref)
        return pos + 1
    }

    // MARK: Extended autolinks (GFM spec 6.9)

    /// Quick test at `w`, `h` or `f`: could `www.`, `http://`, `https://` or
    /// `ftp://` start here, at a valid boundary?
    @inline(__always)
    func autolinkMayStart(_ pos: Int) -> Bool {
        let ch = c[pos]
        if pos > 0 {
            let p = c[pos - 1]
            if ch == UInt8(ascii: "w") {
                guard p == 0x20 || p == 0x09 || p == 0x0A || p == UInt8(ascii: "*") || p == UInt8(ascii: "_")
                    || p == UInt8(ascii: "~") || p == UInt8(ascii: "(") else { return false }
            } else if isASCIIAlphanumeric(p) {
                return false
            }
        }
        switch ch {
        case UInt8(ascii: "w"): return matches(pos, "www.")
        case UInt8(ascii: "h"): return matches(pos, "http://") || matches(pos, "https://")
        case UInt8(ascii: "f"): return matches(pos, "ftp://")
        default: return false
        }
    }

    @inline(__always)
    func matches(_ pos: Int, _ word: StaticString) -> Bool {
        let k = word.utf8CodeUnitCount
        guard pos + k <= n else { return false }
        let w = word.utf8Start
        for i in 0..<k where c[pos + i] != w[i] { return false }
        return true
    }

    /// A character allowed in a domain: ASCII letters and digits, `-`, `_`,
    /// and any non-ASCII character that is not whitespace.
    @inline(__always)
    func isHostChar(_ b: UInt8) -> Bool {
        isASCIIAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b >= 0x80
    }

    /// The end of a valid domain starting at `pos` (segments separated by
    /// `.`, no `_` in the last two segments; at least one `.` unless
    /// `allowShort`), or nil.
    func domainEnd(_ pos: Int, allowShort: Bool) -> Int? {
        var i = pos
        var periods = 0
        var underscoreLast = 0, underscorePrev = 0
        guard i < n, isHostChar(c[i]) else { return nil }
        while i < n {
            let b = c[i]
            if b == UInt8(ascii: ".") {
                guard i + 1 < n, isHostChar(c[i + 1]) else { break }
                underscorePrev = underscoreLast
                underscoreLast = 0
                periods += 1
            } else if b == UInt8(ascii: "_") {
                underscoreLast += 1
            } else if !isHostChar(b) || (b >= 0x80 && UnicodeProperties.isWhitespace(UTF8Decode.scalar(c, i, n).0)) {
                break
            }
            i += 1
        }
        if underscoreLast > 0 || underscorePrev > 0 { return nil }
        if !allowShort && periods == 0 { return nil }
        return i
    }

    /// Trailing punctuation is not part of an extended autolink; a `)` is
    /// only when unbalanced; a final `&name;` is not (GFM spec 6.9).
    func trimAutolink(_ start: Int, _ endIn: Int) -> Int {
        var end = endIn
        while end > start {
            let last = c[end - 1]
            switch last {
            case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"),
                 UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                end -= 1
            case UInt8(ascii: ";"):
                var k = end - 2
                while k > start && isASCIIAlphanumeric(c[k]) { k -= 1 }
                if k < end - 2 && k >= start && c[k] == UInt8(ascii: "&") { end = k } else { end -= 1 }
            case UInt8(ascii: ")"):
                var open = 0, close = 0
                for k in start..<end {
                    if c[k] == UInt8(ascii: "(") { open += 1 } else if c[k] == UInt8(ascii: ")") { close += 1 }
                }
                if close > open { end -= 1 } else { return end }
            default:
                return end
            }
        }
        return end
    }

    func extendedAutolink(_ pos: Int) -> Int? {
        // Not inside a possible link text (cmark-gfm does the same): the
        // link's own syntax would be swallowed (`[http://a](http://a)`).
        guard brackets.isEmpty else { return nil }
        let isWWW = c[pos] == UInt8(ascii: "w")
        let schemeEnd: Int
        if isWWW {
            schemeEnd = pos
        } else {
            var k = pos
            while k < n && c[k] != UInt8(ascii: ":") { k += 1 }
            schemeEnd = k + 3
        }
        guard let d = domainEnd(schemeEnd, allowShort: !isWWW) else { return nil }
        var e = d
        while e < n {
            let b = c[e]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: "<") { break }
            e += 1
        }
        e = trimAutolink(pos, e)
        guard e > schemeEnd else { return nil }
        var link = InlineNode(kind: .link, start: pos, end: e)
        link.flags = 1 | 4
        if isWWW {
            let s = arena.count
            arena.append(contentsOf: Array("http://".utf8))
            arena.append(contentsOf: content[pos..<e])
            link.a = ByteRef.arena(s, arena.count)
        } else {
            link.a = sourceRef(pos, e)
        }
        let l = append(link)
        var t = InlineNode(kind: .text, start: pos, end: e)
        t.a = sourceRef(pos, e)
        let ti = Int32(nodes.count)
        nodes.append(t)
        nodes[Int(l)].first = ti
        nodes[Int(l)].last = ti
        return e
    }

    // MARK: Math

    /// `$…$` and `$$…$$` (spec/math.md).
    func handleDollar(_ pos: Int) -> Int {
        var run = pos
        while run < n && c[run] == UInt8(ascii: "$") { run += 1 }
        let count = run - pos
        if count == 2 {
            // Display math: up to the next `$$`, not empty.
            var i = run
            while i + 1 < n {
                if c[i] == UInt8(ascii: "\\") { i += 2; continue }
                if c[i] == UInt8(ascii: "$") && c[i + 1] == UInt8(ascii: "$") {
                    if !isBlank(run, i) {
                        appendMath(pos, run, i, i + 2, display: true, undouble: false)
                        return i + 2
                    }
                    break
                }
                i += 1
            }
        } else if count == 1 && run < n && !isMathSpace(c[run]) {
            // Inline math: the opening `$` is followed by a non-space; the
            // closing one is a single `$` after a non-space and not before a
            // digit (so `$5 and $10` stays text).
            var i = run
            while i < n {
                let b = c[i]
                if b == UInt8(ascii: "\\") { i += 2; continue }
                if b == UInt8(ascii: "$") {
                    // Runs of `$$` are skipped whole, so only the next byte matters.
                    let single = i + 1 >= n || c[i + 1] != UInt8(ascii: "$")
                    if single && !isMathSpace(c[i - 1]) && !(i + 1 < n && isASCIIDigit(c[i + 1])) {
                        appendMath(pos, run, i, i + 1, display: false, undouble: false)
                        return i + 1
                    }
                    if !single {
                        while i < n && c[i] == UInt8(ascii: "$") { i += 1 }
                        continue
                    }
                }
                i += 1
            }
        }
        appendText(pos, run)
        return run
    }

    @inline(__always) func isMathSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A }

    /// Backslash-delimited math needs a letter or digit inside, so that
    /// runs of escaped punctuation such as `\[\\\]` (CommonMark example
    /// 12) keep their CommonMark meaning.
    func hasAlphanumeric(_ a: Int, _ b: Int) -> Bool {
        for k in a..<b where isASCIIAlphanumeric(c[k]) || c[k] >= 0x80 { return true }
        return false
    }

    func isBlank(_ a: Int, _ b: Int) -> Bool {
        for k in a..<b where !isMathSpace(c[k]) { return false }
        return true
    }

    /// `\(…\)` and `\[…\]` at a backslash; also the doubled `\\(…\\)` and
    /// `\\[…\\]` that models emit when they escape their output twice.
    func mathParen(_ pos: Int, display: Bool) -> Int? {
        let close = display ? UInt8(ascii: "]") : UInt8(ascii: ")")
        var i = pos + 2
        while i + 1 < n {
            if c[i] == UInt8(ascii: "\\") {
                if c[i + 1] == close {
                    guard hasAlphanumeric(pos + 2, i) else { return nil }
                    appendMath(pos, pos + 2, i, i + 2, display: display, undouble: false)
                    return i + 2
                }
                i += 2
                continue
            }
            i += 1
        }
        return nil
    }

    /// `\\(` or `\\[` at `pos`: math closed by `\\)` or `\\]`, whose content
    /// has its doubled backslashes undone.
    func doubledMathParen(_ pos: Int) -> Int? {
        guard pos + 2 < n else { return nil }
        let open = c[pos + 2]
        guard open == UInt8(ascii: "(") || open == UInt8(ascii: "[") else { return nil }
        let close = open == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "]")
        var i = pos + 3
        while i + 2 < n {
            if c[i] == UInt8(ascii: "\\") && c[i + 1] == UInt8(ascii: "\\") && c[i + 2] == close {
                guard hasAlphanumeric(pos + 3, i) else { return nil }
                appendMath(pos, pos + 3, i, i + 3, display: open == UInt8(ascii: "["), undouble: true)
                return i + 3
            }
            i += 1
        }
        return nil
    }

    func appendMath(_ start: Int, _ contentStart: Int, _ contentEnd: Int, _ end: Int, display: Bool, undouble: Bool) {
        var node = InlineNode(kind: .math, start: start, end: end)
        node.flags = display ? 1 : 0
        if undouble {
            let s = arena.count
            var i = contentStart
            while i < contentEnd {
                if c[i] == UInt8(ascii: "\\") && i + 1 < contentEnd && c[i + 1] == UInt8(ascii: "\\") {
                    arena.append(c[i])
                    i += 2
                } else {
                    arena.append(c[i])
                    i += 1
                }
            }
            node.a = ByteRef.arena(s, arena.count)
        } else if spansLines(contentStart, contentEnd) {
            node.a = storeArena(Array(content[contentStart..<contentEnd]))
        } else {
            node.a = sourceRef(contentStart, contentEnd)
        }
        append(node)
    }
}
