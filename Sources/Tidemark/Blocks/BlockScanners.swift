/// Line-level recognizers for the block phase. Each looks at one line of
/// the source, `bytes[pos..<end]` where `end` is the line's end (its line
/// ending excluded), and never reads past it.
typealias Bytes = UnsafeBufferPointer<UInt8>

@inline(__always) func isSpaceOrTab(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
@inline(__always) func isLineEnding(_ c: UInt8) -> Bool { c == 0x0A || c == 0x0D }
@inline(__always) func isASCIIDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
@inline(__always) func isASCIILetter(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
@inline(__always) func isASCIIAlphanumeric(_ c: UInt8) -> Bool { isASCIIDigit(c) || isASCIILetter(c) }
@inline(__always) func asciiLower(_ c: UInt8) -> UInt8 { c &- 0x41 < 26 ? c | 0x20 : c }

/// ASCII punctuation as the spec defines it (for backslash escapes).
@inline(__always) func isASCIIPunctuation(_ c: UInt8) -> Bool {
    (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E)
}

enum BlockScan {
    /// The first index in `from..<to` holding `byte` (or `to`), eight bytes
    /// at a time: a word has a zero byte where it equals `byte` (the
    /// classic "has zero byte" test on `word ^ pattern`).
    @inline(__always)
    static func find(_ byte: UInt8, _ s: Bytes, _ from: Int, _ to: Int) -> Int {
        var i = from
        if let base = s.baseAddress {
            let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
            while i + 8 <= to {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ pattern
                if (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
        }
        while i < to && s[i] != byte { i += 1 }
        return i
    }

    /// The first index in `from..<to` holding a line ending byte (LF or CR),
    /// or `to`; eight bytes at a time.
    @inline(__always)
    static func findLineEnd(_ s: Bytes, _ from: Int, _ to: Int) -> Int {
        var i = from
        if let base = s.baseAddress {
            while i + 8 <= to {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let lf = w ^ 0x0A0A_0A0A_0A0A_0A0A
                let cr = w ^ 0x0D0D_0D0D_0D0D_0D0D
                let hit = ((lf &- 0x0101_0101_0101_0101) & ~lf) | ((cr &- 0x0101_0101_0101_0101) & ~cr)
                if hit & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
        }
        while i < to && s[i] != 0x0A && s[i] != 0x0D { i += 1 }
        return i
    }

    /// Whether `s[a..<a+count]` and `s[b..<b+count]` hold the same bytes.
    static func equalBytes(_ s: Bytes, _ a: Int, _ b: Int, _ count: Int) -> Bool {
        var k = 0
        while k < count {
            if s[a + k] != s[b + k] { return false }
            k += 1
        }
        return true
    }

    /// Whether only spaces and tabs remain from `pos` to the line end.
    @inline(__always)
    static func isBlankRest(_ s: Bytes, _ pos: Int, _ end: Int) -> Bool {
        var i = pos
        while i < end {
            if !isSpaceOrTab(s[i]) { return false }
            i += 1
        }
        return true
    }

    /// ATX heading (spec 4.2): the level, and the content range with the
    /// optional closing sequence removed.
    static func atxHeading(_ s: Bytes, _ pos: Int, _ end: Int) -> (level: Int, start: Int, end: Int)? {
        var i = pos
        while i < end && s[i] == UInt8(ascii: "#") && i - pos < 7 { i += 1 }
        let level = i - pos
        guard level >= 1 && level <= 6 else { return nil }
        guard i == end || isSpaceOrTab(s[i]) else { return nil }
        while i < end && isSpaceOrTab(s[i]) { i += 1 }
        var e = end
        while e > i && isSpaceOrTab(s[e - 1]) { e -= 1 }
        // Closing sequence: a run of `#` that is the whole content or is
        // preceded by a space or tab (example 76: `\###` is not one).
        var h = e
        while h > i && s[h - 1] == UInt8(ascii: "#") { h -= 1 }
        if h < e {
            if h == i {
                e = i
            } else if isSpaceOrTab(s[h - 1]) {
                e = h
                while e > i && isSpaceOrTab(s[e - 1]) { e -= 1 }
            }
        }
        return (level, i, e)
    }

    /// Opening code fence (spec 4.5): character, length, and the trimmed
    /// info-string range.
    static func openingFence(_ s: Bytes, _ pos: Int, _ end: Int) -> (char: UInt8, length: Int, infoStart: Int, infoEnd: Int)? {
        guard pos < end else { return nil }
        let c = s[pos]
        guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        var i = pos
        while i < end && s[i] == c { i += 1 }
        let length = i - pos
        guard length >= 3 else { return nil }
        while i < end && isSpaceOrTab(s[i]) { i += 1 }
        var e = end
        while e > i && isSpaceOrTab(s[e - 1]) { e -= 1 }
        if c == UInt8(ascii: "`") {
            // A backtick fence's info string may not contain backticks
            // (example 145: otherwise it would be an inline code span).
            var k = i
            while k < e {
                if s[k] == UInt8(ascii: "`") { return nil }
                k += 1
            }
        }
        return (c, length, i, e)
    }

    /// Closing code fence: at least `length` of `char`, then only spaces/tabs.
    static func closingFence(_ s: Bytes, _ pos: Int, _ end: Int, char: UInt8, length: Int) -> Bool {
        var i = pos
        while i < end && s[i] == char { i += 1 }
        guard i - pos >= length else { return false }
        return isBlankRest(s, i, end)
    }

    /// Setext underline (spec 4.3): 1 for `=`, 2 for `-`, else 0.
    static func setextUnderline(_ s: Bytes, _ pos: Int, _ end: Int) -> Int {
        guard pos < end else { return 0 }
        let c = s[pos]
        guard c == UInt8(ascii: "=") || c == UInt8(ascii: "-") else { return 0 }
        var i = pos
        while i < end && s[i] == c { i += 1 }
        guard isBlankRest(s, i, end) else { return 0 }
        return c == UInt8(ascii: "=") ? 1 : 2
    }

    /// Case-insensitive ASCII comparison of `s[pos...]` with a lowercase word.
    @inline(__always)
    static func matchesLower(_ s: Bytes, _ pos: Int, _ end: Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard end - pos >= n else { return false }
        let w = word.utf8Start
        for k in 0..<n where asciiLower(s[pos + k]) != w[k] {
            return false
        }
        return true
    }

    /// The tag names of HTML block kind 1 (spec 4.6).
    static let kind1Names: [StaticString] = ["script", "pre", "style", "textarea"]

    /// Which of the seven kinds of HTML block (spec 4.6) starts at `pos`,
    /// or 0. Kind 7 is only tried when `allowKind7` (it cannot interrupt a
    /// paragraph).
    static func htmlBlockStart(_ s: Bytes, _ pos: Int, _ end: Int, allowKind7: Bool) -> Int {
        guard pos < end, s[pos] == UInt8(ascii: "<") else { return 0 }
        let i = pos + 1
        guard i < end else { return 0 }
        let c = s[i]
        if c == UInt8(ascii: "!") {
            if matchesLower(s, i + 1, end, "--") { return 2 }
            if matchesCDATA(s, i + 1, end) { return 5 }
            if i + 1 < end && isASCIILetter(s[i + 1]) { return 4 }
            return 0
        }
        if c == UInt8(ascii: "?") { return 3 }
        // Kind 1: script, pre, style, textarea, then space, `>` or line end.
        for word in kind1Names where matchesLower(s, i, end, word) {
            let k = i + word.utf8CodeUnitCount
            if k == end || isSpaceOrTab(s[k]) || s[k] == UInt8(ascii: ">") { return 1 }
        }
        // Kind 6: a block-level tag name, opening or closing.
        var j = i
        if j < end && s[j] == UInt8(ascii: "/") { j += 1 }
        var k = j
        while k < end && isASCIIAlphanumeric(s[k]) { k += 1 }
        if k > j && k - j <= 10 && isBlockTagName(s, j, k) {
            if k == end || isSpaceOrTab(s[k]) || s[k] == UInt8(ascii: ">")
                || (s[k] == UInt8(ascii: "/") && k + 1 < end && s[k + 1] == UInt8(ascii: ">")) {
                return 6
            }
        }
        if allowKind7 {
            // Kind 7: one complete open or closing tag (not script, style,
            // pre, textarea), then only whitespace.
            if let tagEnd = RawHTML.openTag(s, pos, end) ?? RawHTML.closingTag(s, pos, end) {
                if isBlankRest(s, tagEnd, end) {
                    // Tag name must not be one of kind 1's.
                    var n0 = pos + 1
                    if s[n0] == UInt8(ascii: "/") { n0 += 1 }
                    for word in kind1Names where matchesLower(s, n0, end, word) {
                        let e = n0 + word.utf8CodeUnitCount
                        if e >= end || !isASCIIAlphanumeric(s[e]) && s[e] != UInt8(ascii: "-") { return 0 }
                    }
                    return 7
                }
            }
        }
        return 0
    }

    /// Whether a line that starts with `<` at `pos`, known up to `end` (more
    /// bytes may follow), can no longer start an HTML block of any kind,
    /// whatever follows (`htmlBlockStart`, kind 7 allowed). For the
    /// stream: such a line is a paragraph's, and takes its fast paths.
    /// False when unsure.
    static func htmlBlockStartRuledOut(_ s: Bytes, _ pos: Int, _ end: Int) -> Bool {
        let i = pos + 1
        guard i < end else { return false }
        let c = s[i]
        // Comments, processing instructions, declarations, CDATA.
        if c == UInt8(ascii: "!") || c == UInt8(ascii: "?") { return false }
        let closing = c == UInt8(ascii: "/")
        let j = closing ? i + 1 : i
        guard j < end else { return false }
        // Every kind left starts with a tag name.
        guard isASCIILetter(s[j]) else { return true }
        // Kinds 1 and 6: a name from the lists, then a space, a tab, `>`,
        // the line's end (or `/>`, kind 6).
        var k6 = j
        while k6 < end && isASCIIAlphanumeric(s[k6]) { k6 += 1 }
        guard k6 < end else { return false }
        let t = s[k6]
        if !closing {
            for word in kind1Names
            where k6 - j == word.utf8CodeUnitCount && matchesLower(s, j, k6, word) {
                if isSpaceOrTab(t) || t == UInt8(ascii: ">") { return false }
            }
        }
        if k6 - j <= 10 && isBlockTagName(s, j, k6) {
            if isSpaceOrTab(t) || t == UInt8(ascii: ">") { return false }
            if t == UInt8(ascii: "/") && (k6 + 1 == end || s[k6 + 1] == UInt8(ascii: ">")) { return false }
        }
        // Kind 7: one complete tag, then only whitespace. A tag found in
        // the bytes so far is the one the whole line has.
        if let tagEnd = closing ? RawHTML.closingTag(s, pos, end) : RawHTML.openTag(s, pos, end) {
            return !isBlankRest(s, tagEnd, end)
        }
        // No tag yet: ruled out when the name ends in a byte no tag has
        // there (`<https:`), else unsure (an attribute being typed).
        guard let nameEnd = RawHTML.tagName(s, j, end), nameEnd < end else { return false }
        let b = s[nameEnd]
        if RawHTML.isWS(b) || b == UInt8(ascii: ">") { return false }
        return closing || b != UInt8(ascii: "/")
    }

    @inline(__always)
    static func matchesCDATA(_ s: Bytes, _ pos: Int, _ end: Int) -> Bool {
        // `[CDATA[` is case-sensitive.
        let w: StaticString = "[CDATA["
        let n = w.utf8CodeUnitCount
        guard end - pos >= n else { return false }
        for k in 0..<n where s[pos + k] != w.utf8Start[k] { return false }
        return true
    }

    /// Whether the line `s[pos..<end]` satisfies the end condition of an
    /// HTML block of kind 1–5.
    static func htmlBlockEnds(_ s: Bytes, _ pos: Int, _ end: Int, kind: Int) -> Bool {
        var i = pos
        switch kind {
        case 1:
            while i < end {
                if s[i] == UInt8(ascii: "<") && i + 1 < end && s[i + 1] == UInt8(ascii: "/") {
                    for word: StaticString in ["script>", "pre>", "style>", "textarea>"] where matchesLower(s, i + 2, end, word) {
                        return true
                    }
                }
                i += 1
            }
            return false
        case 2: return contains(s, pos, end, "-->")
        case 3: return contains(s, pos, end, "?>")
        case 4: return contains(s, pos, end, ">")
        case 5: return contains(s, pos, end, "]]>")
        default: return false
        }
    }

    static func contains(_ s: Bytes, _ pos: Int, _ end: Int, _ needle: StaticString) -> Bool {
        let n = needle.utf8CodeUnitCount
        let w = needle.utf8Start
        var i = pos
        while i + n <= end {
            if s[i] == w[0] {
                var ok = true
                for k in 1..<max(n, 1) where s[i + k] != w[k] {
                    ok = false
                    break
                }
                if ok { return true }
            }
            i += 1
        }
        return false
    }

    /// The block-level tag names of HTML block kind 6 (CommonMark 0.31.2).
    static func isBlockTagName(_ s: Bytes, _ start: Int, _ end: Int) -> Bool {
        var buf: (UInt64, UInt64) = (0, 0)
        // Pack up to 16 lowercase bytes into two words for a cheap lookup.
        let n = end - start
        guard n <= 16 else { return false }
        for k in 0..<n {
            let b = UInt64(asciiLower(s[start + k]))
            if k < 8 { buf.0 |= b << (8 * UInt64(k)) } else { buf.1 |= b << (8 * UInt64(k - 8)) }
        }
        return blockTagKeys.contains(buf.0) && buf.1 == 0 || (buf.1 != 0 && blockTagLongKeys.contains(where: { $0 == buf }))
    }

    private static func pack(_ name: String) -> (UInt64, UInt64) {
        var r: (UInt64, UInt64) = (0, 0)
        for (k, b) in name.utf8.enumerated() {
            if k < 8 { r.0 |= UInt64(b) << (8 * UInt64(k)) } else { r.1 |= UInt64(b) << (8 * UInt64(k - 8)) }
        }
        return r
    }

    static let blockTagNames: [String] = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center",
        "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset",
        "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5",
        "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main", "menu",
        "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]
    static let blockTagKeys: Set<UInt64> = Set(blockTagNames.filter { $0.utf8.count <= 8 }.map { pack($0).0 })
    static let blockTagLongKeys: [(UInt64, UInt64)] = blockTagNames.filter { $0.utf8.count > 8 }.map { pack($0) }
}
