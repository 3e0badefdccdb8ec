/// Which font family a run uses; the front end maps roles to real fonts.
public enum FontRole: String, Sendable, Hashable, Codable, CaseIterable {
    case body
    case heading
    case code
}

/// Font weight, lightest first (so `max` picks the heavier one).
public enum FontWeight: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case regular
    case medium
    case semibold
    case bold
    case heavy

    private var rank: Int {
        switch self {
        case .regular: 0
        case .medium: 1
        case .semibold: 2
        case .bold: 3
        case .heavy: 4
        }
    }

    public static func < (lhs: FontWeight, rhs: FontWeight) -> Bool { lhs.rank < rhs.rank }
}

/// The resolved look of a run: everything a front end needs to draw it,
/// computed from the run's semantics and a `Theme`.
public struct RunStyle: Sendable, Hashable, Codable {
    public var font: FontRole
    /// Point size: the theme's body size times the heading scale or code
    /// scale that applies.
    public var size: Double
    public var weight: FontWeight
    public var italic: Bool
    public var foreground: ThemeColor
    /// `nil` draws on the block's background.
    public var background: ThemeColor?
    public var underline: Bool
    public var strikethrough: Bool

    public init(font: FontRole, size: Double, weight: FontWeight = .regular, italic: Bool = false,
                foreground: ThemeColor, background: ThemeColor? = nil,
                underline: Bool = false, strikethrough: Bool = false) {
        self.font = font
        self.size = size
        self.weight = weight
        self.italic = italic
        self.foreground = foreground
        self.background = background
        self.underline = underline
        self.strikethrough = strikethrough
    }
}

/// Where a run sits, which decides its base style before its own traits
/// apply.
public struct StyleContext: Sendable, Hashable {
    public enum Role: Sendable, Hashable {
        /// Paragraphs, list items, table body cells, footnotes.
        case body
        /// A heading of level 1…6.
        case heading(level: Int)
        /// A cell of a table's header row.
        case tableHeader
        /// A line of a code block or of a raw HTML block.
        case codeBlock
        /// A display-math block.
        case displayMath
    }

    public var role: Role
    /// Inside a block quote (not an alert), which dims body text.
    public var quoted: Bool

    public init(role: Role, quoted: Bool = false) {
        self.role = role
        self.quoted = quoted
    }

    public static let body = StyleContext(role: .body)
}
