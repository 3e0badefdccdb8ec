/// The look of terminal cells: what an SGR sequence and an OSC 8 hyperlink
/// can express. `nil` colors leave the terminal's own colors in place.
struct CellStyle: Sendable, Hashable {
    var foreground: RGBA?
    var background: RGBA?
    var bold = false
    var dim = false
    var italic = false
    var underline = false
    var strikethrough = false
    /// The hyperlink target (already an OSC 8-safe string), or `nil`.
    var link: String?

    static let plain = CellStyle()

    init(foreground: RGBA? = nil, background: RGBA? = nil, bold: Bool = false, dim: Bool = false,
         italic: Bool = false, underline: Bool = false, strikethrough: Bool = false, link: String? = nil) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.strikethrough = strikethrough
        self.link = link
    }
}

/// A stretch of one line with one style. `text` is sanitized and holds no
/// line break.
struct StyledSpan: Sendable, Hashable {
    var text: String
    var style: CellStyle
}

/// One line of terminal output before encoding: styled spans and the
/// columns they take.
struct StyledLine: Sendable, Hashable {
    private(set) var spans: [StyledSpan] = []
    private(set) var width = 0

    init() {}

    init(_ text: String, _ style: CellStyle = .plain) {
        append(text, style)
    }

    var isEmpty: Bool { spans.isEmpty }

    /// Appends text, sanitizing it (the one place every piece of text
    /// passes through on its way out).
    mutating func append(_ text: some StringProtocol, _ style: CellStyle) {
        let safe = TerminalText.sanitized(text)
        append(sanitized: safe, width: DisplayWidth.of(safe), style)
    }

    /// Appends text known to be sanitized, with its width.
    mutating func append(sanitized text: String, width: Int, _ style: CellStyle) {
        guard !text.isEmpty else { return }
        self.width += width
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].text += text
        } else {
            spans.append(StyledSpan(text: text, style: style))
        }
    }

    mutating func append(_ other: StyledLine) {
        for span in other.spans { append(sanitized: span.text, width: 0, span.style) }
        width += other.width
    }

    /// `count` spaces in `style`.
    mutating func pad(_ count: Int, _ style: CellStyle = .plain) {
        if count > 0 { append(sanitized: String(repeating: " ", count: count), width: count, style) }
    }

    /// The line with trailing plain spaces removed (a prefix such as a
    /// quote bar's `│ ` on an otherwise empty line).
    func trimmingTrailingSpaces() -> StyledLine {
        var line = self
        while let last = line.spans.last, last.style.background == nil, last.text.last == " " {
            let kept = String(last.text.reversed().drop { $0 == " " }.reversed())
            line.width -= last.text.count - kept.count
            if kept.isEmpty {
                line.spans.removeLast()
            } else {
                line.spans[line.spans.count - 1].text = kept
            }
        }
        return line
    }
}

// MARK: - Encoding

/// Escape sequences: SGR for attributes and colors, OSC 8 for links.
enum ANSI {
    static let reset = "\u{1B}[0m"
    /// OSC 8 with an empty target closes a hyperlink; ST is `ESC \`.
    static let closeLink = "\u{1B}]8;;\u{1B}\\"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    /// Erase from the cursor to the end of the screen.
    static let eraseBelow = "\u{1B}[J"
    /// Cursor home and erase the whole screen.
    static let clearScreen = "\u{1B}[H\u{1B}[2J"
    /// Synchronized output (DEC mode 2026): terminals that know it show a
    /// frame only once it is complete; others ignore it.
    static let beginFrame = "\u{1B}[?2026h"
    static let endFrame = "\u{1B}[?2026l"

    static func openLink(_ target: String) -> String { "\u{1B}]8;;\(target)\u{1B}\\" }

    /// Carriage return, then up `lines` lines (never `ESC[0A`, which most
    /// terminals read as 1).
    static func cursorUp(_ lines: Int) -> String {
        lines > 0 ? "\r\u{1B}[\(lines)A" : "\r"
    }

    /// The SGR parameters for `style` (without `ESC[` and `m`); empty when
    /// the style shows nothing under `styling`.
    static func parameters(_ style: CellStyle, _ styling: TerminalOptions.Styling) -> String {
        guard styling.hasAttributes else { return "" }
        var p: [String] = []
        if style.bold { p.append("1") }
        if style.dim { p.append("2") }
        if style.italic { p.append("3") }
        if style.underline { p.append("4") }
        if style.strikethrough { p.append("9") }
        if styling.hasColor {
            if let fg = style.foreground { p.append(color(fg, base: 38, styling)) }
            if let bg = style.background { p.append(color(bg, base: 48, styling)) }
        }
        return p.joined(separator: ";")
    }

    private static func color(_ c: RGBA, base: Int, _ styling: TerminalOptions.Styling) -> String {
        styling == .trueColor ? "\(base);2;\(c.red);\(c.green);\(c.blue)" : "\(base);5;\(paletteIndex(c))"
    }

    /// The nearest xterm-256 color: the 6×6×6 cube or the 24-step gray ramp.
    static func paletteIndex(_ c: RGBA) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func cubeStep(_ v: UInt8) -> Int {
            let v = Int(v)
            return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40
        }
        let r = cubeStep(c.red), g = cubeStep(c.green), b = cubeStep(c.blue)
        func distance(_ x: Int, _ y: Int, _ z: Int) -> Int {
            let dr = x - Int(c.red), dg = y - Int(c.green), db = z - Int(c.blue)
            return dr * dr + dg * dg + db * db
        }
        let cube = distance(levels[r], levels[g], levels[b])
        let average = (Int(c.red) + Int(c.green) + Int(c.blue)) / 3
        let grayStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grayLevel = 8 + 10 * grayStep
        let gray = distance(grayLevel, grayLevel, grayLevel)
        return gray < cube ? 232 + grayStep : 16 + 36 * r + 6 * g + b
    }

    /// A line as bytes for the terminal: styles switched only where they
    /// change, and everything closed at the end, so each line stands alone
    /// (a redraw can replace any line without inheriting state).
    static func encode(_ line: StyledLine, _ options: TerminalOptions) -> String {
        let styling = options.styling
        let links = options.usesHyperlinks
        var out = ""
        var active = ""
        var activeLink: String?
        for span in line.spans {
            let link = links ? span.style.link : nil
            if link != activeLink {
                if activeLink != nil { out += closeLink }
                if let link { out += openLink(link) }
                activeLink = link
            }
            let parameters = parameters(span.style, styling)
            if parameters != active {
                out += parameters.isEmpty ? reset : "\u{1B}[0;\(parameters)m"
                active = parameters
            }
            out += span.text
        }
        if !active.isEmpty { out += reset }
        if activeLink != nil { out += closeLink }
        return out
    }
}
