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
        guard labels.hasFootnote(key) else {
            // (A label with a `]` in it, `[^[x]]`, is never missed: no
            // footnote's definition can have it, as the block parser reads
            // one up to its first `]`.)
            if !key.contains(UInt8(ascii: "]")) { missedFootnotes?.insert(key) }
            return nil
        }
        let on = opener.node
        // Drop everything after the bracket: it was the label's text.
        nodes[Int(on)].next = -1
        nodes[0].last = on
        while delimiterTop >= 0 && delimiterTop != opener.delimiterBottom { removeDelimiter(delimiterTop) }
        popBracket()
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
        // Parentheses are counted once and updated as `)` are trimmed:
        // recounting per `)` made `www.a.com/)))…` quadratic.
        var open = 0, close = 0
        for k in start..<end {
            if c[k] == UInt8(ascii: "(") { open += 1 } else if c[k] == UInt8(ascii: ")") { close += 1 }
        }
        while end > start {
            let last = c[end - 1]
            switch last {
            case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"),
                 UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                end -= 1
            case UInt8(ascii: ";"):
                var k = end - 2
                while k > start && isASCIIAlphanumeric(c[k]) { k -= 1 }
                let cut = k < end - 2 && k >= start && c[k] == UInt8(ascii: "&") ? k : end - 1
                for x in cut..<end {
                    if c[x] == UInt8(ascii: "(") { open -= 1 } else if c[x] == UInt8(ascii: ")") { close -= 1 }
                }
                end = cut
            case UInt8(ascii: ")"):
                if close > open {
                    end -= 1
                    close -= 1
                } else {
                    return end
                }
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
        // Text after the start may still make a link of it: a domain part
        // after one with `_` (only the last two must have none), a first
        // period after `www`, more than punctuation after the scheme. So no
        // resume point may follow unless after a space or tab, as for a
        // link that may still grow (a word can start inside a URL after a
        // character that is not ASCII, `https://a.b_c日本www.x`).
        guard let d = domainEnd(schemeEnd, allowShort: !isWWW) else {
            autolinkMayGrow = true
            return nil
        }
        var e = d
        while e < n {
            let b = c[e]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: "<") { break }
            e += 1
        }
        e = trimAutolink(pos, e)
        guard e > schemeEnd else {
            autolinkMayGrow = true
            return nil
        }
        // Trailing punctuation left out of the link can join it when more
        // text follows: no resume point after it but after a space.
        if e >= n || !(c[e] == 0x20 || c[e] == 0x09 || c[e] == 0x0A) { autolinkMayGrow = true }
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
    ///
    /// Whether a `$` can close depends only on the bytes around it, so the
    /// closers of a leaf are found once and each opener takes the next one:
    /// `$a $a $a …` stays linear.
    func handleDollar(_ pos: Int) -> Int {
        var run = pos
        while run < n && c[run] == UInt8(ascii: "$") { run += 1 }
        let count = run - pos
        // (A closing `$` may still arrive: a run at the end, or an opener
        // with no closer yet. A closer found is the first, and stays so;
        // a run that cannot open — `$` then a space, `$$$` — never will.)
        var mayClose = run >= n
        if count == 2 {
            if let i = mathScan.next(.double, after: run, in: self) {
                if !isBlank(run, i) {
                    appendMath(pos, run, i, i + 2, display: true, undouble: false)
                    return i + 2
                }
            } else {
                mayClose = true
            }
        } else if count == 1 && run < n && !isMathSpace(c[run]) {
            if let i = mathScan.next(.single, after: run, in: self) {
                appendMath(pos, run, i, i + 1, display: false, undouble: false)
                return i + 1
            }
            mayClose = true
        }
        if mayClose {
            holdOpen(run >= n ? HeldOpen.dollar | HeldOpen.dollars : count == 2 ? HeldOpen.dollars : HeldOpen.dollar, at: pos,
                     price: count == 1 && run < n && isASCIIDigit(c[run]))
        }
        appendText(pos, run)
        return run
    }

    /// A math opener at the backslash at `pos` that may still close.
    func holdOpenMath(_ pos: Int) {
        let next = c[pos + 1]
        if next == UInt8(ascii: "\\") {
            guard pos + 2 < n else { return holdOpen(HeldOpen.doubledParen | HeldOpen.doubledBracket, at: pos) }
            holdOpen(c[pos + 2] == UInt8(ascii: "[") ? HeldOpen.doubledBracket : HeldOpen.doubledParen, at: pos)
        } else {
            holdOpen(next == UInt8(ascii: "[") ? HeldOpen.bracket : HeldOpen.paren, at: pos)
        }
    }

    /// At a backslash before `\\`, `(` or `[` that opened no math: whether
    /// it may still (no closer yet; for `\\`, no byte after it yet).
    func mathMayStillClose(_ pos: Int) -> Bool {
        let next = c[pos + 1]
        if next == UInt8(ascii: "\\") {
            guard pos + 2 < n else { return true }
            let open = c[pos + 2]
            guard open == UInt8(ascii: "(") || open == UInt8(ascii: "[") else { return false }
            return mathScan.next(open == UInt8(ascii: "[") ? .doubledBracket : .doubledParen, after: pos + 3, in: self) == nil
        }
        return mathScan.next(next == UInt8(ascii: "[") ? .bracket : .paren, after: pos + 2, in: self) == nil
    }

    @inline(__always) func isMathSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A }

    /// Whether the `$` at `i` (≥ 1) may close `$…$`: not escaped, not in a
    /// run of two, not after a space, not before a digit (a `$` at the end
    /// may: what follows is not there yet).
    @inline(__always) func closesSingleDollar(_ i: Int) -> Bool {
        let dollar = UInt8(ascii: "$")
        if isEscaped(i) { return false }
        if i + 1 < n && c[i + 1] == dollar { return false }
        if c[i - 1] == dollar && !isEscaped(i - 1) { return false }
        if isMathSpace(c[i - 1]) { return false }
        if i + 1 < n && isASCIIDigit(c[i + 1]) { return false }
        return true
    }

    /// Backslash-delimited math needs a letter or digit inside, so that
    /// runs of escaped punctuation such as `\[\\\]` (CommonMark example
    /// 12) keep their CommonMark meaning.
    func hasAlphanumeric(_ a: Int, _ b: Int) -> Bool {
        mathScan.alphanumericCount(a, b, in: self) > 0
    }

    func isBlank(_ a: Int, _ b: Int) -> Bool {
        for k in a..<b where !isMathSpace(c[k]) { return false }
        return true
    }

    /// Whether the byte at `i` is escaped: preceded by an odd number of
    /// backslashes.
    @inline(__always) func isEscaped(_ i: Int) -> Bool {
        var k = i - 1
        var count = 0
        while k >= 0 && c[k] == UInt8(ascii: "\\") {
            count += 1
            k -= 1
        }
        return count & 1 == 1
    }

    /// `\(…\)` and `\[…\]` at a backslash; also the doubled `\\(…\\)` and
    /// `\\[…\\]` that models emit when they escape their output twice.
    func mathParen(_ pos: Int, display: Bool) -> Int? {
        guard let i = mathScan.next(display ? .bracket : .paren, after: pos + 2, in: self),
              hasAlphanumeric(pos + 2, i) else { return nil }
        appendMath(pos, pos + 2, i, i + 2, display: display, undouble: false)
        return i + 2
    }

    func doubledMathParen(_ pos: Int) -> Int? {
        guard pos + 2 < n else { return nil }
        let open = c[pos + 2]
        guard open == UInt8(ascii: "(") || open == UInt8(ascii: "[") else { return nil }
        let display = open == UInt8(ascii: "[")
        guard let i = mathScan.next(display ? .doubledBracket : .doubledParen, after: pos + 3, in: self),
              hasAlphanumeric(pos + 3, i) else { return nil }
        appendMath(pos, pos + 3, i, i + 3, display: display, undouble: true)
        return i + 3
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

/// The closers of inline math in one leaf, found on first use. Openers come
/// left to right, so a cursor per kind only moves forward.
struct MathScan {
    enum Kind: Int { case single, double, paren, bracket, doubledParen, doubledBracket }
    // Allocated on first use only: most leaves have no math at all.
    var positions: [[Int]?] = []
    var cursors: [Int] = []
    /// Prefix counts of letters and digits (for backslash math).
    var alphanumeric: [Int32]? = nil

    /// Whether anything was found or counted since the last reset.
    var isEmpty: Bool { !used && alphanumeric == nil }
    private var used = false

    /// Forgets what was found, keeping the arrays (a streamed paragraph
    /// resets it on every parse).
    mutating func reset() {
        if used {
            for k in positions.indices { positions[k] = nil }
            for k in cursors.indices { cursors[k] = 0 }
            used = false
        }
        alphanumeric = nil
    }

    mutating func next(_ kind: Kind, after p: Int, in parser: InlineParser) -> Int? {
        used = true
        let k = kind.rawValue
        if positions.isEmpty {
            positions = Array(repeating: nil, count: 6)
            cursors = Array(repeating: 0, count: 6)
        }
        // (Found from the first position asked for: a parse asks in order,
        // and a resumed one only past where it resumed.)
        if positions[k] == nil { positions[k] = MathScan.find(kind, parser, from: p) }
        let list = positions[k]!
        var i = cursors[k]
        while i < list.count && list[i] < p { i += 1 }
        cursors[k] = i
        return i < list.count ? list[i] : nil
    }

    /// The position `alphanumeric` counts from: the first asked for (a
    /// resumed parse counts from where it resumed, not from the leaf's
    /// start, which made every append of a long streamed paragraph with
    /// backslash math cost the paragraph).
    var alphanumericBase = 0

    mutating func alphanumericCount(_ a: Int, _ b: Int, in parser: InlineParser) -> Int {
        if alphanumeric == nil || a < alphanumericBase {
            alphanumericBase = a
            var prefix = [Int32](repeating: 0, count: parser.n - a + 1)
            for i in a..<parser.n {
                let ch = parser.c[i]
                prefix[i - a + 1] = prefix[i - a] + (isASCIIAlphanumeric(ch) || ch >= 0x80 ? 1 : 0)
            }
            alphanumeric = prefix
        }
        return Int(alphanumeric![b - alphanumericBase] - alphanumeric![a - alphanumericBase])
    }

    /// The closers of `kind` at or after `from`.
    static func find(_ kind: Kind, _ p: InlineParser, from: Int) -> [Int] {
        let c = p.c, n = p.n
        var out: [Int] = []
        let dollar = UInt8(ascii: "$"), backslash = UInt8(ascii: "\\")
        switch kind {
        case .single:
            for i in max(1, from)..<max(1, n, from) where c[i] == dollar && p.closesSingleDollar(i) {
                out.append(i)
            }
        case .double:
            var i = from
            while i + 1 < n {
                if c[i] == dollar && c[i + 1] == dollar && !p.isEscaped(i) { out.append(i) }
                i += 1
            }
        case .paren, .bracket:
            let close = kind == .paren ? UInt8(ascii: ")") : UInt8(ascii: "]")
            var i = from
            while i + 1 < n {
                if c[i] == backslash && c[i + 1] == close && !p.isEscaped(i) { out.append(i) }
                i += 1
            }
        case .doubledParen, .doubledBracket:
            let close = kind == .doubledParen ? UInt8(ascii: ")") : UInt8(ascii: "]")
            var i = from
            while i + 2 < n {
                if c[i] == backslash && c[i + 1] == backslash && c[i + 2] == close { out.append(i) }
                i += 1
            }
        }
        return out
    }
}
