import Tidemark

/// The look of rendered Markdown: sizes, weights and colors, each color
/// given for light and dark appearance.
///
/// A plain value: derive a theme by copying one and changing what you need,
///
///     var theme = Theme.default
///     theme.link.foreground = ThemeColor(light: RGBA(hex: 0x7A3E9D), dark: RGBA(hex: 0xC39AE0))
///     theme.heading.scales[0] = 2.25
///
/// Block decorations (code background, quote bar, alert accent, rule, table
/// borders) are read by front ends from the theme by block kind; run colors
/// are resolved into each run's `RunStyle`.
public struct Theme: Sendable, Hashable, Codable {
    /// Shown in pickers and stored with exported themes.
    public var name: String
    /// Body text size in points; every other size is a multiple of it.
    public var bodySize: Double
    /// Code (inline and blocks) size relative to the surrounding text.
    public var codeScale: Double

    public var text: TextStyle
    public var heading: HeadingStyle
    /// The weight of `**strong**` text.
    public var strongWeight: FontWeight
    public var link: LinkStyle
    public var inlineCode: TextStyle
    public var codeBlock: TextStyle
    public var math: TextStyle
    public var footnoteReference: TextStyle
    public var quote: QuoteStyle
    public var alert: AlertColors
    public var table: TableStyle
    public var listMarker: ThemeColor
    public var rule: ThemeColor
    public var tokens: TokenColors

    public init(name: String, bodySize: Double, codeScale: Double, text: TextStyle, heading: HeadingStyle,
                strongWeight: FontWeight, link: LinkStyle, inlineCode: TextStyle, codeBlock: TextStyle,
                math: TextStyle, footnoteReference: TextStyle, quote: QuoteStyle, alert: AlertColors,
                table: TableStyle, listMarker: ThemeColor, rule: ThemeColor, tokens: TokenColors) {
        self.name = name
        self.bodySize = bodySize
        self.codeScale = codeScale
        self.text = text
        self.heading = heading
        self.strongWeight = strongWeight
        self.link = link
        self.inlineCode = inlineCode
        self.codeBlock = codeBlock
        self.math = math
        self.footnoteReference = footnoteReference
        self.quote = quote
        self.alert = alert
        self.table = table
        self.listMarker = listMarker
        self.rule = rule
        self.tokens = tokens
    }

    /// A foreground color and an optional background.
    public struct TextStyle: Sendable, Hashable, Codable {
        public var foreground: ThemeColor
        public var background: ThemeColor?
        public init(foreground: ThemeColor, background: ThemeColor? = nil) {
            self.foreground = foreground
            self.background = background
        }
    }

    public struct HeadingStyle: Sendable, Hashable, Codable {
        public var foreground: ThemeColor
        public var weight: FontWeight
        /// Size multipliers for levels 1…6 (`scales[0]` is level 1). A
        /// missing entry counts as 1.
        public var scales: [Double]
        public init(foreground: ThemeColor, weight: FontWeight, scales: [Double]) {
            self.foreground = foreground
            self.weight = weight
            self.scales = scales
        }

        /// The multiplier for a heading level (1…6).
        public func scale(level: Int) -> Double {
            scales.indices.contains(level - 1) ? scales[level - 1] : 1
        }
    }

    public struct LinkStyle: Sendable, Hashable, Codable {
        public var foreground: ThemeColor
        public var underline: Bool
        public init(foreground: ThemeColor, underline: Bool) {
            self.foreground = foreground
            self.underline = underline
        }
    }

    public struct QuoteStyle: Sendable, Hashable, Codable {
        /// The bar drawn beside a block quote.
        public var bar: ThemeColor
        /// Body text inside a block quote.
        public var foreground: ThemeColor
        public init(bar: ThemeColor, foreground: ThemeColor) {
            self.bar = bar
            self.foreground = foreground
        }
    }

    public struct TableStyle: Sendable, Hashable, Codable {
        public var border: ThemeColor
        public var headerBackground: ThemeColor?
        public init(border: ThemeColor, headerBackground: ThemeColor? = nil) {
            self.border = border
            self.headerBackground = headerBackground
        }
    }

    /// The accent (bar, icon, title) of each alert kind.
    public struct AlertColors: Sendable, Hashable, Codable {
        public var note: ThemeColor
        public var tip: ThemeColor
        public var important: ThemeColor
        public var warning: ThemeColor
        public var caution: ThemeColor

        public init(note: ThemeColor, tip: ThemeColor, important: ThemeColor, warning: ThemeColor,
                    caution: ThemeColor) {
            self.note = note
            self.tip = tip
            self.important = important
            self.warning = warning
            self.caution = caution
        }

        public subscript(kind: AlertKind) -> ThemeColor {
            get {
                switch kind {
                case .note: note
                case .tip: tip
                case .important: important
                case .warning: warning
                case .caution: caution
                }
            }
            set {
                switch kind {
                case .note: note = newValue
                case .tip: tip = newValue
                case .important: important = newValue
                case .warning: warning = newValue
                case .caution: caution = newValue
                }
            }
        }
    }

    /// A color for every `TokenKind`: one stored property each, so a theme
    /// cannot lack one and a theme file names them.
    public struct TokenColors: Sendable, Hashable, Codable {
        public var keyword: ThemeColor
        public var string: ThemeColor
        public var number: ThemeColor
        public var comment: ThemeColor
        public var function: ThemeColor
        public var type: ThemeColor
        public var variable: ThemeColor
        public var constant: ThemeColor
        public var property: ThemeColor
        public var `operator`: ThemeColor
        public var punctuation: ThemeColor
        public var tag: ThemeColor
        public var attribute: ThemeColor
        public var builtin: ThemeColor
        public var escape: ThemeColor
        public var label: ThemeColor
        public var namespace: ThemeColor
        public var inserted: ThemeColor
        public var deleted: ThemeColor
        public var meta: ThemeColor

        /// Every token kind gets `color`; then set the ones that differ.
        public init(all color: ThemeColor) {
            keyword = color; string = color; number = color; comment = color; function = color
            type = color; variable = color; constant = color; property = color; `operator` = color
            punctuation = color; tag = color; attribute = color; builtin = color; escape = color
            label = color; namespace = color; inserted = color; deleted = color; meta = color
        }

        public subscript(kind: TokenKind) -> ThemeColor {
            get {
                switch kind {
                case .keyword: keyword
                case .string: string
                case .number: number
                case .comment: comment
                case .function: function
                case .type: type
                case .variable: variable
                case .constant: constant
                case .property: property
                case .operator: `operator`
                case .punctuation: punctuation
                case .tag: tag
                case .attribute: attribute
                case .builtin: builtin
                case .escape: escape
                case .label: label
                case .namespace: namespace
                case .inserted: inserted
                case .deleted: deleted
                case .meta: meta
                }
            }
            set {
                switch kind {
                case .keyword: keyword = newValue
                case .string: string = newValue
                case .number: number = newValue
                case .comment: comment = newValue
                case .function: function = newValue
                case .type: type = newValue
                case .variable: variable = newValue
                case .constant: constant = newValue
                case .property: property = newValue
                case .operator: `operator` = newValue
                case .punctuation: punctuation = newValue
                case .tag: tag = newValue
                case .attribute: attribute = newValue
                case .builtin: builtin = newValue
                case .escape: escape = newValue
                case .label: label = newValue
                case .namespace: namespace = newValue
                case .inserted: inserted = newValue
                case .deleted: deleted = newValue
                case .meta: meta = newValue
                }
            }
        }
    }
}

// MARK: - Resolving a run's style

extension Theme {
    /// The style of a run with `traits` (and, in code blocks, `token`) in
    /// `context`. Context sets the base (body, heading, code block…), then
    /// each trait adjusts it; a token color wins over the code foreground.
    public func style(traits: RunTraits, token: TokenKind? = nil, in context: StyleContext) -> RunStyle {
        var s = RunStyle(font: .body, size: bodySize, foreground: context.quoted ? quote.foreground : text.foreground)
        switch context.role {
        case .body:
            break
        case .heading(let level):
            s.font = .heading
            s.size = bodySize * heading.scale(level: level)
            s.weight = heading.weight
            s.foreground = heading.foreground
        case .tableHeader:
            s.weight = strongWeight
        case .codeBlock:
            s.font = .code
            s.size = bodySize * codeScale
            s.foreground = codeBlock.foreground
            s.background = codeBlock.background
        case .displayMath:
            s.foreground = math.foreground
            s.background = math.background
        }
        if traits.contains(.strong) { s.weight = max(s.weight, strongWeight) }
        if traits.contains(.emphasis) { s.italic = true }
        if traits.contains(.strikethrough) { s.strikethrough = true }
        // Code inside a code block (an HTML block's lines) is already code:
        // scaling again would shrink it twice.
        if !traits.isDisjoint(with: [.code, .html]) && s.font != .code {
            s.font = .code
            s.size *= codeScale
            s.foreground = inlineCode.foreground
            s.background = inlineCode.background
        }
        if traits.contains(.math) {
            s.foreground = math.foreground
            s.background = math.background ?? s.background
        }
        if traits.contains(.footnoteReference) {
            s.foreground = footnoteReference.foreground
            s.background = footnoteReference.background ?? s.background
        }
        // An image shown as its alt text reads as a caption, not as prose.
        if traits.contains(.image) { s.italic = true }
        if traits.contains(.link) {
            s.foreground = link.foreground
            s.underline = link.underline
        }
        if let token { s.foreground = tokens[token] }
        return s
    }
}
