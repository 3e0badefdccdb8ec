/// Which link and image destinations become live links and shown images.
///
/// Model output is untrusted: a `javascript:` or `data:` link is one tap
/// from running code. A destination the policy refuses renders as plain
/// text (links) or as its alt text (images).
///
/// The scheme is read the way a browser's URL parser reads it: leading C0
/// controls and spaces are skipped, ASCII tabs and newlines anywhere in it
/// are ignored (`java\tscript:` *is* `javascript:` to a browser), and it is
/// compared case-insensitively. A destination without a valid scheme
/// (`/path`, `page.html`, `#anchor`, `//host/x`) is relative.
public struct URLPolicy: Sendable, Hashable, Codable {
    /// Allowed schemes, lower-case, without the colon.
    public var allowedSchemes: Set<String>
    /// Whether destinations without a scheme are allowed.
    public var allowsRelative: Bool

    public init(allowedSchemes: Set<String>, allowsRelative: Bool) {
        self.allowedSchemes = Set(allowedSchemes.map { $0.lowercased() })
        self.allowsRelative = allowsRelative
    }

    /// `http`, `https`, `mailto` and relative destinations.
    public static let `default` = URLPolicy(allowedSchemes: ["http", "https", "mailto"], allowsRelative: true)

    /// Nothing is allowed: every link is text, every image its alt text.
    public static let none = URLPolicy(allowedSchemes: [], allowsRelative: false)

    public func allows(_ destination: String) -> Bool {
        if let scheme = URLPolicy.scheme(of: destination) {
            return allowedSchemes.contains(scheme)
        }
        return allowsRelative
    }

    /// The lower-cased scheme a browser would see in `destination`, or
    /// `nil` for a relative destination.
    public static func scheme(of destination: String) -> String? {
        var scheme: [UInt8] = []
        var started = false
        for byte in destination.utf8 {
            // WHATWG URL parsing strips leading C0 controls and spaces.
            if !started && byte <= 0x20 { continue }
            started = true
            // …and removes every ASCII tab and newline.
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            switch byte {
            case UInt8(ascii: ":"):
                return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                scheme.append(byte | 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                scheme.append(byte)
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                // A scheme starts with a letter.
                if scheme.isEmpty { return nil }
                scheme.append(byte)
            default:
                // `/`, `?`, `#` or anything else before a colon: relative.
                return nil
            }
        }
        return nil
    }
}
