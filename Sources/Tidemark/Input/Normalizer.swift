/// Settles the input bytes once, before parsing, so that no later phase has
/// to think about them (the spec's "Characters and lines" section):
///
/// - a leading byte order mark is dropped;
/// - NUL (U+0000) becomes U+FFFD (spec 2.3, "Insecure characters");
/// - invalid UTF-8 becomes U+FFFD, one per maximal invalid subpart, the way
///   the standard library's decoder repairs it.
///
/// Line endings are left alone: the block phase accepts LF, CR and CR LF.
enum Normalizer {
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    static func normalize(_ input: UnsafeBufferPointer<UInt8>, dropBOM: Bool = true) -> [UInt8] {
        var start = 0
        if dropBOM, input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { start = 3 }
        let body = UnsafeBufferPointer(rebasing: input[start...])
        let first = firstToRepair(body, from: 0)
        if first == body.count { return Array(body) }
        return repair(body, from: first)
    }

    /// Whether the 8 bytes at `i` are ASCII without NUL (one word test).
    @inline(__always)
    static func isPlainASCIIWord(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let w = UnsafeRawPointer(s.baseAddress! + i).loadUnaligned(as: UInt64.self)
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        // No byte >= 0x80, and no zero byte (the classic has-zero-byte test).
        return w & high == 0 && (w &- ones) & ~w & high == 0
    }

    /// Whether `input` needs no normalizing: no NUL and only complete,
    /// valid UTF-8 sequences (checked in place, without a copy).
    static func isClean(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = input.count
        while i < n {
            let b = input[i]
            if b == 0 { return false }
            if b < 0x80 { i += 1; continue }
            let len = validSequenceLength(input, i)
            if len == 0 { return false }
            i += len
        }
        return true
    }

    /// `normalize` of an array: the array itself (shared, not copied) when
    /// it needs no change.
    static func normalize(_ input: [UInt8], dropBOM: Bool = true) -> [UInt8] {
        let unchanged = input.withUnsafeBufferPointer { b in
            !(dropBOM && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) && needsNoRepair(b)
        }
        if unchanged { return input }
        return input.withUnsafeBufferPointer { normalize($0, dropBOM: dropBOM) }
    }

    /// Whether `body` has no NUL and only complete, valid UTF-8 sequences
    /// (`isClean`, eight ASCII bytes at a time).
    static func needsNoRepair(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        firstToRepair(body, from: 0) == body.count
    }

    /// Where the first NUL or invalid UTF-8 sequence at or after `i` starts
    /// (`body.count`: none), skipping eight ASCII bytes at a time.
    private static func firstToRepair(_ body: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
        var i = i
        let n = body.count
        while i < n {
            if i + 8 <= n && isPlainASCIIWord(body, i) {
                i += 8
                continue
            }
            let b = body[i]
            if b == 0 { return i }
            if b < 0x80 {
                i += 1
                continue
            }
            let len = validSequenceLength(body, i)
            if len == 0 { return i }
            i += len
        }
        return n
    }

    /// How many bytes at the end of `s` are the start of a UTF-8 sequence
    /// that more bytes could still complete (0–3). A stream holds them back.
    static func incompleteSuffixLength(_ s: UnsafeBufferPointer<UInt8>) -> Int {
        let n = s.count
        var k = n - 1
        var back = 0
        while k >= 0 && back < 3 && s[k] & 0xC0 == 0x80 {
            k -= 1
            back += 1
        }
        guard k >= 0, s[k] >= 0xC2, s[k] <= 0xF4 else { return 0 }
        let present = n - k
        if validSequenceLength(s, k) > 0 { return 0 }
        return maximalSubpartLength(s, k) == present ? present : 0
    }

    /// `body` with each NUL and invalid sequence from `first` on (the first
    /// one, see `firstToRepair`) replaced by U+FFFD; valid stretches are
    /// copied in bulk.
    private static func repair(_ body: UnsafeBufferPointer<UInt8>, from first: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 16)
        var runStart = 0
        var i = first
        let n = body.count
        while i < n {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: body[runStart..<i]))
            out.append(contentsOf: replacement)
            i += body[i] == 0 ? 1 : maximalSubpartLength(body, i)
            runStart = i
            i = firstToRepair(body, from: i)
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: body[runStart..<n]))
        return out
    }

    /// Length of the valid UTF-8 sequence starting at `i`, or 0.
    static func validSequenceLength(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let n = s.count
        let b0 = s[i]
        func cont(_ k: Int) -> Bool { k < n && s[k] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(i + 1) ? 2 : 0
        case 0xE0:
            return i + 2 < n && (0xA0...0xBF).contains(s[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(i + 1) && cont(i + 2) ? 3 : 0
        case 0xED:
            return i + 2 < n && (0x80...0x9F).contains(s[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xF0:
            return i + 3 < n && (0x90...0xBF).contains(s[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF1...0xF3:
            return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF4:
            return i + 3 < n && (0x80...0x8F).contains(s[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        default:
            return 0
        }
    }

    /// How many bytes one U+FFFD replaces: the maximal prefix of a valid
    /// sequence that is present (Unicode's "maximal subpart" practice).
    static func maximalSubpartLength(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let n = s.count
        let b0 = s[i]
        var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
        let need: Int
        switch b0 {
        case 0xC2...0xDF: need = 1
        case 0xE0: need = 2; lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: need = 2
        case 0xED: need = 2; hi = 0x9F
        case 0xF0: need = 3; lo = 0x90
        case 0xF1...0xF3: need = 3
        case 0xF4: need = 3; hi = 0x8F
        default: return 1
        }
        var k = 1
        while k <= need, i + k < n {
            let c = s[i + k]
            let ok = k == 1 ? (lo...hi).contains(c) : (0x80...0xBF).contains(c)
            if !ok { break }
            k += 1
        }
        return k
    }
}
