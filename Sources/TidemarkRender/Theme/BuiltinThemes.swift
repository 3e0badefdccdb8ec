import Tidemark

/// The built-in themes.
///
/// `default` and `highContrast` are adaptive: each color has a light and a
/// dark value and the front end picks by the system appearance.
/// `defaultLight` and `defaultDark` pin one palette for both appearances,
/// for surfaces whose background never changes (a light-only page, a dark
/// terminal).
extension Theme {
    /// GitHub-like colors, light palette in light mode and dark palette in
    /// dark mode.
    public static let `default` = Theme.make(name: "default", light: .light, dark: .dark, heavy: false)

    /// The default light palette in both appearances.
    public static let defaultLight = Theme.make(name: "defaultLight", light: .light, dark: .light, heavy: false)

    /// The default dark palette in both appearances.
    public static let defaultDark = Theme.make(name: "defaultDark", light: .dark, dark: .dark, heavy: false)

    /// Text at WCAG AAA contrast (7:1 or more against the background) in
    /// both appearances, heavier headings and always-underlined links.
    public static let highContrast = Theme.make(
        name: "highContrast", light: .highContrastLight, dark: .highContrastDark, heavy: true)

    private static func make(name: String, light: Palette, dark: Palette, heavy: Bool) -> Theme {
        func pair(_ key: KeyPath<Palette, RGBA>) -> ThemeColor {
            ThemeColor(light: light[keyPath: key], dark: dark[keyPath: key])
        }
        var tokens = TokenColors(all: pair(\.text))
        for kind in TokenKind.allCases {
            tokens[kind] = ThemeColor(light: light.token(kind), dark: dark.token(kind))
        }
        return Theme(
            name: name,
            bodySize: 16,
            codeScale: 0.9,
            text: TextStyle(foreground: pair(\.text), background: pair(\.background)),
            heading: HeadingStyle(
                foreground: pair(\.heading), weight: heavy ? .heavy : .semibold,
                scales: [2.0, 1.5, 1.25, 1.0, 0.875, 0.85]),
            strongWeight: .bold,
            link: LinkStyle(foreground: pair(\.link), underline: heavy),
            inlineCode: TextStyle(foreground: pair(\.text), background: pair(\.inlineCodeBackground)),
            codeBlock: TextStyle(foreground: pair(\.text), background: pair(\.codeBackground)),
            math: TextStyle(foreground: pair(\.text)),
            footnoteReference: TextStyle(foreground: pair(\.link)),
            quote: QuoteStyle(bar: pair(\.border), foreground: pair(\.muted)),
            alert: AlertColors(note: pair(\.note), tip: pair(\.tip), important: pair(\.important),
                               warning: pair(\.warning), caution: pair(\.caution)),
            table: TableStyle(border: pair(\.border), headerBackground: pair(\.codeBackground)),
            listMarker: pair(\.muted),
            rule: pair(\.border),
            tokens: tokens)
    }
}

/// One appearance's colors; a theme pairs two of them.
private struct Palette {
    var background: RGBA
    var text: RGBA
    var heading: RGBA
    var muted: RGBA
    var link: RGBA
    var border: RGBA
    var inlineCodeBackground: RGBA
    var codeBackground: RGBA
    var note: RGBA
    var tip: RGBA
    var important: RGBA
    var warning: RGBA
    var caution: RGBA
    var keyword: RGBA
    var string: RGBA
    var number: RGBA
    var comment: RGBA
    var function: RGBA
    var type: RGBA
    var property: RGBA
    var tag: RGBA
    var inserted: RGBA
    var deleted: RGBA

    /// Token kinds share a handful of hues, as most editor themes do: too
    /// many distinct colors read as noise in a short chat snippet.
    func token(_ kind: TokenKind) -> RGBA {
        switch kind {
        case .keyword, .operator: keyword
        case .string, .escape: string
        case .number, .constant, .builtin: number
        case .comment: comment
        case .function: function
        case .type, .namespace: type
        case .variable, .punctuation: text
        case .property, .attribute, .label: property
        case .tag: tag
        case .inserted: inserted
        case .deleted: deleted
        case .meta: muted
        }
    }

    static let light = Palette(
        background: RGBA(hex: 0xFFFFFF), text: RGBA(hex: 0x1F2328), heading: RGBA(hex: 0x1F2328),
        muted: RGBA(hex: 0x59636E), link: RGBA(hex: 0x0969DA), border: RGBA(hex: 0xD1D9E0),
        inlineCodeBackground: RGBA(hex: 0xEFF1F3), codeBackground: RGBA(hex: 0xF6F8FA),
        note: RGBA(hex: 0x0969DA), tip: RGBA(hex: 0x1A7F37), important: RGBA(hex: 0x8250DF),
        warning: RGBA(hex: 0x9A6700), caution: RGBA(hex: 0xD1242F),
        keyword: RGBA(hex: 0xCF222E), string: RGBA(hex: 0x0A3069), number: RGBA(hex: 0x0550AE),
        comment: RGBA(hex: 0x59636E), function: RGBA(hex: 0x6639BA), type: RGBA(hex: 0x953800),
        property: RGBA(hex: 0x0550AE), tag: RGBA(hex: 0x116329),
        inserted: RGBA(hex: 0x116329), deleted: RGBA(hex: 0x82071E))

    static let dark = Palette(
        background: RGBA(hex: 0x0D1117), text: RGBA(hex: 0xE6EDF3), heading: RGBA(hex: 0xF0F6FC),
        muted: RGBA(hex: 0x9198A1), link: RGBA(hex: 0x4493F8), border: RGBA(hex: 0x3D444D),
        inlineCodeBackground: RGBA(hex: 0x262C36), codeBackground: RGBA(hex: 0x151B23),
        note: RGBA(hex: 0x4493F8), tip: RGBA(hex: 0x3FB950), important: RGBA(hex: 0xAB7DF8),
        warning: RGBA(hex: 0xD29922), caution: RGBA(hex: 0xF85149),
        keyword: RGBA(hex: 0xFF7B72), string: RGBA(hex: 0xA5D6FF), number: RGBA(hex: 0x79C0FF),
        comment: RGBA(hex: 0x9198A1), function: RGBA(hex: 0xD2A8FF), type: RGBA(hex: 0xFFA657),
        property: RGBA(hex: 0x79C0FF), tag: RGBA(hex: 0x7EE787),
        inserted: RGBA(hex: 0xAFF5B4), deleted: RGBA(hex: 0xFFDCD7))

    static let highContrastLight = Palette(
        background: RGBA(hex: 0xFFFFFF), text: RGBA(hex: 0x000000), heading: RGBA(hex: 0x000000),
        muted: RGBA(hex: 0x33363B), link: RGBA(hex: 0x0030A8), border: RGBA(hex: 0x20252C),
        inlineCodeBackground: RGBA(hex: 0xE8EBEF), codeBackground: RGBA(hex: 0xF2F4F6),
        note: RGBA(hex: 0x0030A8), tip: RGBA(hex: 0x00501C), important: RGBA(hex: 0x4B1A9C),
        warning: RGBA(hex: 0x5A3A00), caution: RGBA(hex: 0x8A0010),
        keyword: RGBA(hex: 0x8A0010), string: RGBA(hex: 0x002A66), number: RGBA(hex: 0x00356E),
        comment: RGBA(hex: 0x33363B), function: RGBA(hex: 0x4B1A9C), type: RGBA(hex: 0x5A2600),
        property: RGBA(hex: 0x00356E), tag: RGBA(hex: 0x00501C),
        inserted: RGBA(hex: 0x00501C), deleted: RGBA(hex: 0x8A0010))

    static let highContrastDark = Palette(
        background: RGBA(hex: 0x000000), text: RGBA(hex: 0xFFFFFF), heading: RGBA(hex: 0xFFFFFF),
        muted: RGBA(hex: 0xD0D4D9), link: RGBA(hex: 0x8CC4FF), border: RGBA(hex: 0xC0C6CE),
        inlineCodeBackground: RGBA(hex: 0x1E2228), codeBackground: RGBA(hex: 0x0E1116),
        note: RGBA(hex: 0x8CC4FF), tip: RGBA(hex: 0x7FE39A), important: RGBA(hex: 0xD2B8FF),
        warning: RGBA(hex: 0xF2CC60), caution: RGBA(hex: 0xFFA49C),
        keyword: RGBA(hex: 0xFFA49C), string: RGBA(hex: 0xB9E0FF), number: RGBA(hex: 0x9CD1FF),
        comment: RGBA(hex: 0xD0D4D9), function: RGBA(hex: 0xE2CCFF), type: RGBA(hex: 0xFFC58A),
        property: RGBA(hex: 0x9CD1FF), tag: RGBA(hex: 0x9CF0A8),
        inserted: RGBA(hex: 0xB4F5BC), deleted: RGBA(hex: 0xFFC4BE))
}
