/// Raw HTML (spec 6.6): open and closing tags, comments, processing
/// instructions, declarations and CDATA sections. The tag scanners are
/// shared with HTML block kind 7.
enum RawHTML {
    @inline(__always)
    static func isWS(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Skips a tag name (`pos` at its first byte); returns its end or nil.
    static func tagName(_ s: Bytes, _ pos: Int, _ end: Int) -> Int? {
        guard pos < end, isASCIILetter(s[pos]) else { return nil }
        var i = pos + 1
        while i < end && (isASCIIAlphanumeric(s[i]) || s[i] == UInt8(ascii: "-")) { i += 1 }
        return i
    }

    /// An open tag starting with `<` at `pos`: the index after `>`.
    static func openTag(_ s: Bytes, _ pos: Int, _ end: Int) -> Int? {
        let r = scanOpenTag(s, pos, end)
        return r >= 0 ? r : nil
    }

    /// `openTag`'s scan: the index after `>`; -1 when the bytes end before
    /// they decide (more may still make a tag); -2 when they rule one out.
    static func scanOpenTag(_ s: Bytes, _ pos: Int, _ end: Int) -> Int {
        guard pos < end, s[pos] == UInt8(ascii: "<") else { return -2 }
        guard pos + 1 < end else { return -1 }
        guard var i = tagName(s, pos + 1, end) else { return -2 }
        while true {
            let wsStart = i
            while i < end && isWS(s[i]) { i += 1 }
            guard i < end else { return -1 }
            let b = s[i]
            if b == UInt8(ascii: ">") { return i + 1 }
            if b == UInt8(ascii: "/") {
                guard i + 1 < end else { return -1 }
                return s[i + 1] == UInt8(ascii: ">") ? i + 2 : -2
            }
            // An attribute needs whitespace before it.
            guard i > wsStart else { return -2 }
            guard isASCIILetter(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") else { return -2 }
            i += 1
            while i < end {
                let a = s[i]
                if isASCIIAlphanumeric(a) || a == UInt8(ascii: "_") || a == UInt8(ascii: ".") || a == UInt8(ascii: ":") || a == UInt8(ascii: "-") {
                    i += 1
                } else {
                    break
                }
            }
            // Optional value specification.
            var j = i
            while j < end && isWS(s[j]) { j += 1 }
            if j < end && s[j] == UInt8(ascii: "=") {
                j += 1
                while j < end && isWS(s[j]) { j += 1 }
                guard j < end else { return -1 }
                let q = s[j]
                if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                    var k = j + 1
                    while k < end && s[k] != q { k += 1 }
                    guard k < end else { return -1 }
                    i = k + 1
                } else {
                    var k = j
                    while k < end {
                        let v = s[k]
                        if isWS(v) || v == UInt8(ascii: "\"") || v == UInt8(ascii: "'") || v == UInt8(ascii: "=")
                            || v == UInt8(ascii: "<") || v == UInt8(ascii: ">") || v == UInt8(ascii: "`") { break }
                        k += 1
                    }
                    guard k > j else { return -2 }
                    i = k
                }
            }
        }
    }

    /// For a `<` at `pos` before a letter or `/` that neither `openTag` nor
    /// `closingTag` took: whether bytes after `end` may still make one —
    /// the bytes so far are the start of one. (A streamed paragraph keeps
    /// its resume points before such a `<`, `InlineParser.blocked`.)
    static func tagMayComplete(_ s: Bytes, _ pos: Int, _ end: Int) -> Bool {
        guard pos + 1 < end else { return true }
        guard s[pos + 1] == UInt8(ascii: "/") else { return scanOpenTag(s, pos, end) == -1 }
        guard pos + 2 < end else { return true }
        guard var i = tagName(s, pos + 2, end) else { return false }
        while i < end && isWS(s[i]) { i += 1 }
        return i == end
    }

    /// A closing tag `</name >` at `pos`.
    static func closingTag(_ s: Bytes, _ pos: Int, _ end: Int) -> Int? {
        guard pos + 2 < end, s[pos] == UInt8(ascii: "<"), s[pos + 1] == UInt8(ascii: "/"),
              var i = tagName(s, pos + 2, end) else { return nil }
        while i < end && isWS(s[i]) { i += 1 }
        return i < end && s[i] == UInt8(ascii: ">") ? i + 1 : nil
    }

    /// Remembers where terminators were found, so that many unterminated
    /// `<!--`, `<?`, `<![CDATA[` or `<!X` cannot make scanning quadratic
    /// (cmark's pathological "unclosed <!--" cases).
    struct Memo {
        struct Search {
            var from = Int.max
            var found = -1
        }
        var comment = Search()
        var instruction = Search()
        var cdata = Search()
        var declaration = Search()

        static func find(_ s: Bytes, _ from: Int, _ end: Int, _ needle: StaticString, _ memo: inout Search) -> Int? {
            if from >= memo.from {
                if memo.found < 0 { return nil }
                if memo.found >= from { return memo.found }
            }
            let w = needle.utf8Start
            let k = needle.utf8CodeUnitCount
            var i = from
            var result = -1
            while i + k <= end {
                if s[i] == w[0] {
                    var ok = true
                    var t = 1
                    while t < k {
                        if s[i + t] != w[t] { ok = false; break }
                        t += 1
                    }
                    if ok { result = i; break }
                }
                i += 1
            }
            memo = Search(from: from, found: result)
            return result < 0 ? nil : result
        }

        /// Raw HTML of any kind at `pos` (a `<`): the index after it.
        mutating func scan(_ s: Bytes, _ pos: Int, _ end: Int) -> Int? {
            guard pos + 1 < end else { return nil }
            let b = s[pos + 1]
            if b == UInt8(ascii: "!") {
                if pos + 3 < end && s[pos + 2] == UInt8(ascii: "-") && s[pos + 3] == UInt8(ascii: "-") {
                    // `<!-->` and `<!--->` are complete comments (0.31.2).
                    if pos + 4 < end && s[pos + 4] == UInt8(ascii: ">") { return pos + 5 }
                    if pos + 5 < end && s[pos + 4] == UInt8(ascii: "-") && s[pos + 5] == UInt8(ascii: ">") { return pos + 6 }
                    guard let e = Memo.find(s, pos + 4, end, "-->", &comment) else { return nil }
                    return e + 3
                }
                if BlockScan.matchesCDATA(s, pos + 2, end) {
                    guard let e = Memo.find(s, pos + 9, end, "]]>", &cdata) else { return nil }
                    return e + 3
                }
                if pos + 2 < end && isASCIILetter(s[pos + 2]) {
                    guard let e = Memo.find(s, pos + 3, end, ">", &declaration) else { return nil }
                    return e + 1
                }
                return nil
            }
            if b == UInt8(ascii: "?") {
                guard let e = Memo.find(s, pos + 2, end, "?>", &instruction) else { return nil }
                return e + 2
            }
            if b == UInt8(ascii: "/") { return RawHTML.closingTag(s, pos, end) }
            return RawHTML.openTag(s, pos, end)
        }
    }
}

/// Autolinks `<scheme:…>` and `<user@host>` (spec 6.5).
enum Autolinks {
    /// At a `<`: the index after `>` and whether it is an e-mail autolink.
    static func scan(_ s: Bytes, _ pos: Int, _ end: Int) -> (Int, Bool)? {
        var i = pos + 1
        // URI: scheme of 2–32 characters, `:`, then no space, `<` or `>`.
        if i < end && isASCIILetter(s[i]) {
            var k = i + 1
            while k < end && k - i < 33 && (isASCIIAlphanumeric(s[k]) || s[k] == UInt8(ascii: "+") || s[k] == UInt8(ascii: ".") || s[k] == UInt8(ascii: "-")) {
                k += 1
            }
            let schemeLength = k - i
            if k < end && s[k] == UInt8(ascii: ":") && schemeLength >= 2 && schemeLength <= 32 {
                k += 1
                while k < end {
                    let b = s[k]
                    if b == UInt8(ascii: ">") { return (k + 1, false) }
                    if b <= 0x20 || b == UInt8(ascii: "<") || b == 0x7F { break }
                    k += 1
                }
            }
        }
        // E-mail address.
        i = pos + 1
        let localStart = i
        while i < end && isEmailLocal(s[i]) { i += 1 }
        guard i > localStart, i < end, s[i] == UInt8(ascii: "@") else { return nil }
        i += 1
        while true {
            let labelStart = i
            while i < end && (isASCIIAlphanumeric(s[i]) || s[i] == UInt8(ascii: "-")) && i - labelStart < 63 { i += 1 }
            let len = i - labelStart
            guard len >= 1, isASCIIAlphanumeric(s[labelStart]), isASCIIAlphanumeric(s[i - 1]) else { return nil }
            guard i < end else { return nil }
            if s[i] == UInt8(ascii: ">") { return (i + 1, true) }
            if s[i] == UInt8(ascii: ".") { i += 1; continue }
            return nil
        }
    }

    /// For a `<` at `pos` before a letter that `scan` did not take: whether
    /// bytes after `end` may still make it a URI autolink — a scheme so far
    /// (2–32 characters once its `:` comes), then bytes a URI may hold.
    static func uriMayComplete(_ s: Bytes, _ pos: Int, _ end: Int) -> Bool {
        let i = pos + 1
        guard i < end, isASCIILetter(s[i]) else { return false }
        var k = i + 1
        while k < end && (isASCIIAlphanumeric(s[k]) || s[k] == UInt8(ascii: "+") || s[k] == UInt8(ascii: ".") || s[k] == UInt8(ascii: "-")) {
            k += 1
        }
        guard k - i <= 32 else { return false }
        guard k < end else { return true }
        guard s[k] == UInt8(ascii: ":"), k - i >= 2 else { return false }
        k += 1
        while k < end {
            let b = s[k]
            if b <= 0x20 || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == 0x7F { return false }
            k += 1
        }
        return true
    }

    /// For a `<` at `pos` that `scan` did not take: whether bytes after
    /// `end` may still make it an e-mail autolink (every byte after `<` is
    /// one an address may hold).
    static func emailMayComplete(_ s: Bytes, _ pos: Int, _ end: Int) -> Bool {
        var i = pos + 1
        while i < end && (isEmailLocal(s[i]) || s[i] == UInt8(ascii: "@")) { i += 1 }
        return i == end
    }

    @inline(__always)
    static func isEmailLocal(_ b: UInt8) -> Bool {
        if isASCIIAlphanumeric(b) { return true }
        switch b {
        case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "/"),
             UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
             UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
