/// Scanners for the parts of links and link reference definitions (spec
/// 6.3, 4.7): labels, destinations and titles. They work on a leaf block's
/// content, where lines are joined by `\n`.
enum LinkScan {
    /// Spec 6.3: "A link label can have at most 999 characters inside the
    /// square brackets" — which also keeps label scanning linear.
    static let maxLabelLength = 999

    /// Destinations may nest parentheses; like cmark we stop at 32 levels so
    /// that `((((…` cannot make a destination scan expensive.
    static let maxParenNesting = 32

    /// A link label starting with `[` at `pos`: the range inside the
    /// brackets, and the index after `]`.
    static func label(_ c: Bytes, _ pos: Int, _ end: Int) -> (start: Int, end: Int, next: Int)? {
        guard pos < end, c[pos] == UInt8(ascii: "[") else { return nil }
        var i = pos + 1
        var nonBlank = false
        while i < end {
            let b = c[i]
            if i - pos - 1 > maxLabelLength { return nil }
            if b == UInt8(ascii: "]") {
                return nonBlank ? (pos + 1, i, i + 1) : nil
            }
            if b == UInt8(ascii: "[") { return nil }
            if b == UInt8(ascii: "\\") && i + 1 < end && isASCIIPunctuation(c[i + 1]) {
                nonBlank = true
                i += 2
                continue
            }
            if b != 0x20 && b != 0x09 && b != 0x0A { nonBlank = true }
            i += 1
        }
        return nil
    }

    /// A link destination at `pos` (spec 6.3): the raw range (still escaped)
    /// and the index after it. `<>` gives an empty range.
    static func destination(_ c: Bytes, _ pos: Int, _ end: Int) -> (start: Int, end: Int, next: Int)? {
        guard pos < end else { return nil }
        if c[pos] == UInt8(ascii: "<") {
            var i = pos + 1
            while i < end {
                let b = c[i]
                if b == UInt8(ascii: ">") { return (pos + 1, i, i + 1) }
                if b == 0x0A || b == 0x0D || b == UInt8(ascii: "<") { return nil }
                if b == UInt8(ascii: "\\") && i + 1 < end && isASCIIPunctuation(c[i + 1]) { i += 2 } else { i += 1 }
            }
            return nil
        }
        var depth = 0
        var i = pos
        while i < end {
            let b = c[i]
            if b == UInt8(ascii: "\\") && i + 1 < end && isASCIIPunctuation(c[i + 1]) {
                i += 2
                continue
            }
            if b == UInt8(ascii: "(") {
                depth += 1
                if depth > maxParenNesting { return nil }
            } else if b == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            } else if b <= 0x20 || b == 0x7F {
                break
            }
            i += 1
        }
        guard depth == 0, i > pos else { return nil }
        return (pos, i, i)
    }

    /// A link title at `pos` (spec 6.3): the range inside the delimiters and
    /// the index after the closing one.
    static func title(_ c: Bytes, _ pos: Int, _ end: Int) -> (start: Int, end: Int, next: Int)? {
        guard pos < end else { return nil }
        let open = c[pos]
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""): close = open
        case UInt8(ascii: "'"): close = open
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return nil
        }
        var i = pos + 1
        while i < end {
            let b = c[i]
            if b == close { return (pos + 1, i, i + 1) }
            if open == UInt8(ascii: "(") && b == UInt8(ascii: "(") { return nil }
            if b == UInt8(ascii: "\\") && i + 1 < end && isASCIIPunctuation(c[i + 1]) { i += 2 } else { i += 1 }
        }
        return nil
    }

    /// Skips spaces and tabs, and at most one line ending.
    static func skipSpacesAndOneNewline(_ c: Bytes, _ pos: Int, _ end: Int) -> Int {
        var i = pos
        while i < end && isSpaceOrTab(c[i]) { i += 1 }
        if i < end && c[i] == 0x0A {
            i += 1
            while i < end && isSpaceOrTab(c[i]) { i += 1 }
        }
        return i
    }

    /// The matching key of a label (spec 4.7): Unicode case fold, trimmed,
    /// inner whitespace runs collapsed to one space. Escapes are kept.
    static func normalizeLabel(_ c: Bytes, _ start: Int, _ end: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        var pendingSpace = false
        while i < end {
            let b = c[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                pendingSpace = !out.isEmpty
                i += 1
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            if b < 0x80 {
                out.append(b &- 0x41 < 26 ? b | 0x20 : b)
                i += 1
            } else {
                let (scalar, len) = UTF8Decode.scalar(c, i, end)
                CaseFolding.appendFolded(scalar, to: &out)
                i += len
            }
        }
        return out
    }
}

enum UTF8Decode {
    /// The scalar starting at `i` (input is valid UTF-8) and its length.
    @inline(__always)
    static func scalar(_ c: Bytes, _ i: Int, _ end: Int) -> (UInt32, Int) {
        let b0 = UInt32(c[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0, i + 1 < end { return (((b0 & 0x1F) << 6) | (UInt32(c[i + 1]) & 0x3F), 2) }
        if b0 < 0xF0, i + 2 < end {
            return (((b0 & 0x0F) << 12) | ((UInt32(c[i + 1]) & 0x3F) << 6) | (UInt32(c[i + 2]) & 0x3F), 3)
        }
        if i + 3 < end {
            return (((b0 & 0x07) << 18) | ((UInt32(c[i + 1]) & 0x3F) << 12) | ((UInt32(c[i + 2]) & 0x3F) << 6) | (UInt32(c[i + 3]) & 0x3F), 4)
        }
        return (0xFFFD, 1)
    }

    /// The scalar ending just before `i`.
    @inline(__always)
    static func scalarBefore(_ c: Bytes, _ i: Int, _ start: Int) -> UInt32 {
        var k = i - 1
        if c[k] < 0x80 { return UInt32(c[k]) }
        while k > start && c[k] & 0xC0 == 0x80 && i - k < 4 { k -= 1 }
        return scalar(c, k, i).0
    }
}
