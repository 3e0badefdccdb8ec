/// Light or dark: which of a `ThemeColor`'s two values applies.
public enum Appearance: String, Sendable, Hashable, Codable, CaseIterable {
    case light
    case dark
}

/// An sRGB color with 8-bit channels.
///
/// Codable as a `"#RRGGBBAA"` string, so theme files stay readable.
public struct RGBA: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// An opaque color from `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(red: UInt8(truncatingIfNeeded: hex >> 16), green: UInt8(truncatingIfNeeded: hex >> 8),
                  blue: UInt8(truncatingIfNeeded: hex), alpha: 255)
    }

    /// The same color with another alpha.
    public func withAlpha(_ alpha: UInt8) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `#RRGGBBAA`, upper-case.
    public var hexString: String {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = [UInt8(ascii: "#")]
        for channel in [red, green, blue, alpha] {
            out.append(digits[Int(channel >> 4)])
            out.append(digits[Int(channel & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the `#` is optional).
    public init?(hexString: String) {
        var bytes = Array(hexString.utf8)
        if bytes.first == UInt8(ascii: "#") { bytes.removeFirst() }
        guard bytes.count == 6 || bytes.count == 8 else { return nil }
        var channels: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard let hi = Self.hexValue(bytes[i]), let lo = Self.hexValue(bytes[i + 1]) else { return nil }
            channels.append(hi << 4 | lo)
            i += 2
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2],
                  alpha: channels.count == 4 ? channels[3] : 255)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// WCAG 2 relative luminance, for contrast checks.
    public var relativeLuminance: Double {
        func linear(_ c: UInt8) -> Double {
            let v = Double(c) / 255
            if v <= 0.04045 { return v / 12.92 }
            // x^2.4 = x² · (x²)^(1/5): the standard library has no `pow`.
            let x = (v + 0.055) / 1.055
            return x * x * fifthRoot(x * x)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio between two opaque colors (1…21).
    public static func contrastRatio(_ a: RGBA, _ b: RGBA) -> Double {
        let la = a.relativeLuminance, lb = b.relativeLuminance
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}

/// y with y⁵ = x for x in [0, 1], by Newton's method (the standard library
/// has no `pow`, and this module avoids Foundation).
private func fifthRoot(_ x: Double) -> Double {
    if x <= 0 { return 0 }
    var y = 1.0
    for _ in 0..<40 {
        let y4 = y * y * y * y
        let next = y - (y4 * y - x) / (5 * y4)
        if abs(next - y) < 1e-12 { return next }
        y = next
    }
    return y
}

extension RGBA: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let s = try c.decode(String.self)
        guard let color = RGBA(hexString: s) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected #RRGGBB or #RRGGBBAA, got \(s)")
        }
        self = color
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(hexString)
    }
}

extension RGBA: CustomStringConvertible {
    public var description: String { hexString }
}

/// A color with a value for each appearance. A front end picks one with
/// `resolved(for:)` when it draws, so switching between light and dark mode
/// needs no re-render.
public struct ThemeColor: Sendable, Hashable, Codable {
    public var light: RGBA
    public var dark: RGBA

    public init(light: RGBA, dark: RGBA) {
        self.light = light
        self.dark = dark
    }

    /// The same color in both appearances.
    public init(_ both: RGBA) {
        self.init(light: both, dark: both)
    }

    public func resolved(for appearance: Appearance) -> RGBA {
        appearance == .light ? light : dark
    }
}
