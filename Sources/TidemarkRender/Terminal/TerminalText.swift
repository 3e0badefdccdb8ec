/// Makes document text safe to write to a terminal.
///
/// The text being drawn is untrusted model output. A terminal interprets
/// control characters: ESC starts sequences that move the cursor, rewrite
/// the window title, set the clipboard (OSC 52) or, on some terminals,
/// answer back into the shell's input. So no C0 or C1 control, DEL or
/// escape from the document ever reaches the output: each is replaced by
/// a visible stand-in. Bidirectional embedding, override and isolate
/// controls are dropped too: they reorder what the reader sees on
/// terminals that implement bidi (the "Trojan Source" trick).
enum TerminalText {
    /// `text` with every control replaced (C0 and DEL by their Control
    /// Pictures, ␛ for ESC; C1 by U+FFFD) and bidi controls removed. Tabs
    /// and line breaks are the caller's business and are replaced too.
    static func sanitized(_ text: some StringProtocol) -> String {
        guard needsSanitizing(text) else { return String(text) }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = replacement(for: scalar) {
                out.append(contentsOf: replacement)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Cheap check first: almost all text is printable ASCII or plain
    /// non-ASCII without controls.
    static func needsSanitizing(_ text: some StringProtocol) -> Bool {
        for byte in text.utf8 {
            // 0xC2 leads U+0080…U+00BF (the C1 block); 0xE2 leads
            // U+2000…U+2FFF (the bidi controls).
            if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 { return true }
        }
        return false
    }

    /// What replaces `scalar` (an empty view drops it), or `nil` to keep it.
    static func replacement(for scalar: Unicode.Scalar) -> String.UnicodeScalarView? {
        let v = scalar.value
        switch v {
        case 0x00..<0x20:
            // U+2400 CONTROL PICTURE FOR NULL … U+241F: ␀ ␉ ␊ ␛ …
            return String(Unicode.Scalar(0x2400 + v)!).unicodeScalars
        case 0x7F:
            return "\u{2421}".unicodeScalars
        case 0x80...0x9F:
            return "\u{FFFD}".unicodeScalars
        case 0x202A...0x202E, 0x2066...0x2069:
            return String.UnicodeScalarView()
        default:
            return nil
        }
    }

    /// A URL as the target of an OSC 8 hyperlink: printable ASCII only,
    /// everything else percent-encoded, so the URL cannot end the escape
    /// sequence early or smuggle another one in. `nil` for URLs longer than
    /// terminals accept (about 2 KB); those are shown as text instead.
    static func hyperlinkTarget(_ url: String) -> String? {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(url.utf8.count)
        for byte in url.utf8 {
            if byte > 0x20 && byte < 0x7F {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        guard !out.isEmpty, out.count <= maxHyperlinkLength else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a URL starts with a scheme (`https:`, `mailto:`): only
    /// absolute URLs make hyperlinks.
    static func hasScheme(_ url: String) -> Bool {
        var sawLetter = false
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                sawLetter = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if !sawLetter { return false }
            case UInt8(ascii: ":"):
                return sawLetter
            default:
                return false
            }
        }
        return false
    }

    /// VTE, the most common terminal engine, ignores longer OSC 8 targets.
    static let maxHyperlinkLength = 2083
}
