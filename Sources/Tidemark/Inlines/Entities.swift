/// Entity and numeric character references (spec 2.5) and backslash
/// escapes (spec 2.4), decoded into UTF-8.
enum CharacterReferences {
    /// Appends the UTF-8 encoding of `scalar` (invalid values become U+FFFD).
    @inline(__always)
    static func appendUTF8(_ value: UInt32, to out: inout [UInt8]) {
        var v = value
        if v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) { v = 0xFFFD }
        if v < 0x80 {
            out.append(UInt8(v))
        } else if v < 0x800 {
            out.append(UInt8(0xC0 | (v >> 6)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        } else if v < 0x10000 {
            out.append(UInt8(0xE0 | (v >> 12)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (v >> 18)))
            out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    /// Decodes a reference starting with `&` at `pos`: appends its UTF-8 to
    /// `out` and returns the index just past the `;`, or returns nil (and
    /// appends nothing) when there is no valid reference.
    static func decode(_ c: Bytes, _ pos: Int, _ end: Int, into out: inout [UInt8]) -> Int? {
        var i = pos + 1
        guard i < end else { return nil }
        if c[i] == UInt8(ascii: "#") {
            i += 1
            guard i < end else { return nil }
            var value: UInt32 = 0
            let digitsStart: Int
            if c[i] == UInt8(ascii: "x") || c[i] == UInt8(ascii: "X") {
                i += 1
                digitsStart = i
                // 1–6 hexadecimal digits (spec 2.5).
                while i < end && i - digitsStart < 6 {
                    let d = c[i]
                    let v: UInt32
                    if isASCIIDigit(d) { v = UInt32(d - 0x30) } else if (d | 0x20) >= 0x61 && (d | 0x20) <= 0x66 { v = UInt32((d | 0x20) - 0x61 + 10) } else { break }
                    value = value * 16 + v
                    i += 1
                }
            } else {
                digitsStart = i
                // 1–7 decimal digits.
                while i < end && i - digitsStart < 7 && isASCIIDigit(c[i]) {
                    value = value * 10 + UInt32(c[i] - 0x30)
                    i += 1
                }
            }
            guard i > digitsStart, i < end, c[i] == UInt8(ascii: ";") else { return nil }
            appendUTF8(value, to: &out)
            return i + 1
        }
        let nameStart = i
        while i < end && i - nameStart <= EntityTable.maxNameLength && isASCIIAlphanumeric(c[i]) { i += 1 }
        guard i > nameStart, i < end, c[i] == UInt8(ascii: ";") else { return nil }
        guard let (a, b) = EntityTable.lookup(Bytes(rebasing: c[nameStart..<i])) else { return nil }
        appendUTF8(a, to: &out)
        if let b { appendUTF8(b, to: &out) }
        return i + 1
    }

    /// Appends `c[start..<end]` with backslash escapes and character
    /// references resolved (link destinations, titles, info strings).
    static func appendUnescaped(_ c: Bytes, _ start: Int, _ end: Int, into out: inout [UInt8]) {
        var i = start
        while i < end {
            let b = c[i]
            if b == UInt8(ascii: "\\") && i + 1 < end && isASCIIPunctuation(c[i + 1]) {
                out.append(c[i + 1])
                i += 2
            } else if b == UInt8(ascii: "&"), let next = decode(c, i, end, into: &out) {
                i = next
            } else {
                out.append(b)
                i += 1
            }
        }
    }

    /// Whether unescaping `c[start..<end]` would change it.
    static func needsUnescaping(_ c: Bytes, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            let b = c[i]
            if b == UInt8(ascii: "\\") || b == UInt8(ascii: "&") { return true }
            i += 1
        }
        return false
    }
}
