/// How a run tree is drawn on a terminal: the width, the palette, and how
/// much of the terminal's styling is used.
public struct TerminalOptions: Sendable, Hashable {
    /// How much escape-sequence styling the output carries.
    public enum Styling: String, Sendable, Hashable, CaseIterable {
        /// Text only, no escape sequence at all: files, pipes, `--format plain`.
        case plain
        /// Bold, italic, underline, strikethrough and dim, but no color
        /// (`NO_COLOR`, `--no-color`).
        case attributes
        /// Attributes and colors from the xterm 256-color palette.
        case palette256
        /// Attributes and 24-bit colors (`COLORTERM=truecolor`).
        case trueColor

        var hasAttributes: Bool { self != .plain }
        var hasColor: Bool { self == .palette256 || self == .trueColor }
    }

    /// The narrowest layout the writer makes: below it a list marker, a
    /// table border or a code indent would not fit beside one character.
    public static let minimumWidth = 10

    /// Columns available; no line is wider (clamped to `minimumWidth`).
    public var width: Int
    /// Colors come from `theme`'s `appearance` palette.
    public var theme: Theme
    public var appearance: Appearance
    public var styling: Styling
    /// Links as OSC 8 hyperlinks (the terminal makes the text clickable).
    /// Without them, or in plain output, a link's URL is shown after its
    /// text instead.
    public var hyperlinks: Bool

    public init(width: Int = 80, theme: Theme = .defaultDark, appearance: Appearance = .dark,
                styling: Styling = .trueColor, hyperlinks: Bool = true) {
        self.width = width
        self.theme = theme
        self.appearance = appearance
        self.styling = styling
        self.hyperlinks = hyperlinks
    }

    /// Whether links are written as OSC 8 hyperlinks.
    var usesHyperlinks: Bool { hyperlinks && styling.hasAttributes }
}
