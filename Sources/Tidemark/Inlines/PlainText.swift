/// Plain text: bytes that never start, end or delimit an inline construct
/// by themselves.
///
/// Printable ASCII but for what ends or delimits a construct, and every
/// byte of a non-ASCII character. Bytes that only *open* one (`[`, `(`,
/// `<`, `!`, `&`) are plain: what they open needs a closing byte (`]`,
/// `)`, `>`, `;`), which is not. `\` is not (it makes the next byte
/// literal), nor `#` (a heading's closing sequence), `|` (a table cell's
/// end) or `@` (an e-mail address).
enum PlainText {
    // (Bit b of `low`: byte b; of `high`: byte 64 + b. Low: space ! " % &
    // ' ( + , - . / 0-9 : < = ?  High: A-Z [ ^ a-z { })
    static let low: UInt64 = 0xB7FF_F9E7_0000_0000
    static let high: UInt64 = 0x2FFF_FFFE_4FFF_FFFE

    @inline(__always)
    static func isPlainByte(_ b: UInt8) -> Bool {
        if b >= 0x80 { return true }
        if b < 64 { return low >> UInt64(b) & 1 != 0 }
        return b < 0x7F && high >> UInt64(b & 63) & 1 != 0
    }

    /// Whether `s[start..<end]`, all of a leaf's content (a table cell, a
    /// paragraph's only line: no spaces or tabs at either end), is one text
    /// node of itself: plain bytes, and no `//` or `www` that an extended
    /// autolink could start with.
    static func isInertRun(_ s: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var k = start
        while k < end {
            let b = s[k]
            k += 1
            if b >= 0x80 { continue }
            if b < 64 {
                guard low >> UInt64(b) & 1 != 0 else { return false }
                if b == UInt8(ascii: "/") && k - 2 >= start && s[k - 2] == b { return false }
            } else {
                guard b < 0x7F && high >> UInt64(b & 63) & 1 != 0 else { return false }
                if b | 0x20 == UInt8(ascii: "w") && k - 3 >= start && s[k - 2] | 0x20 == UInt8(ascii: "w")
                    && s[k - 3] | 0x20 == UInt8(ascii: "w") { return false }
            }
        }
        return true
    }
}
