/// Breaks styled text into lines no wider than a number of terminal
/// columns, measuring by display width: CJK ideographs and most emoji take
/// two columns, combining marks none (`DisplayWidth`).
///
/// Greedy, like every terminal renderer: words go on the line while they
/// fit. Lines break at spaces, and on either side of a wide character
/// (CJK text has no spaces between words). A word wider than a whole line
/// is cut between grapheme clusters. Spaces at the end of a line are
/// dropped, and so are those at the start of a line that wrapping began.
enum TextWrapper {
    /// One grapheme cluster, sanitized, with its width and style.
    private struct Glyph {
        var text: String
        var width: Int
        var style: Int
    }

    /// A piece of input: text with a style. `"\n"` in the text is a hard
    /// line break.
    static func wrap(_ spans: [StyledSpan], width: Int) -> [StyledLine] {
        var state = State(width: max(1, width))
        for span in spans {
            let style = state.styleIndex(span.style)
            for character in span.text {
                if character == "\n" || character == "\r\n" {
                    state.hardBreak()
                } else if character == " " || character == "\t" {
                    state.space(style)
                } else {
                    let text = TerminalText.sanitized(String(character))
                    let w = DisplayWidth.of(text)
                    state.glyph(Glyph(text: text, width: w, style: style))
                }
            }
        }
        return state.finish()
    }

    /// Cuts styled text into lines of at most `width` columns wherever the
    /// width runs out, keeping every space (code: no word wrapping, and
    /// indentation matters). Tabs go to the next multiple of `tabWidth`.
    static func cut(_ spans: [StyledSpan], width: Int, tabWidth: Int = 4) -> [StyledLine] {
        let width = max(1, width)
        var lines: [StyledLine] = []
        var line = StyledLine()
        var column = 0  // in the source line, for tab stops
        func put(_ text: String, _ w: Int, _ style: CellStyle) {
            if line.width + w > width && !line.isEmpty {
                lines.append(line)
                line = StyledLine()
            }
            line.append(sanitized: text, width: w, style)
        }
        for span in spans {
            for character in span.text {
                if character == "\t" {
                    let n = tabWidth - column % tabWidth
                    for _ in 0..<n { put(" ", 1, span.style) }
                    column += n
                } else {
                    let text = TerminalText.sanitized(String(character))
                    let w = DisplayWidth.of(text)
                    put(text, w, span.style)
                    column += w
                }
            }
        }
        lines.append(line)
        return lines
    }

    private struct State {
        let width: Int
        var styles: [CellStyle] = []
        var lines: [StyledLine] = []
        var line = StyledLine()
        /// Whether the current line began by wrapping (then leading spaces
        /// are dropped) rather than at the start or after a hard break.
        var wrapped = false
        var word: [Glyph] = []
        var wordWidth = 0
        /// Spaces seen since the last word, not yet placed.
        var spaces: [Int] = []

        init(width: Int) { self.width = width }

        mutating func styleIndex(_ style: CellStyle) -> Int {
            if let i = styles.lastIndex(of: style) { return i }
            styles.append(style)
            return styles.count - 1
        }

        mutating func space(_ style: Int) {
            flushWord()
            spaces.append(style)
        }

        mutating func glyph(_ glyph: Glyph) {
            if glyph.width >= 2 {
                // A wide character is a word of its own: a line may break
                // before and after it.
                flushWord()
                word = [glyph]
                wordWidth = glyph.width
                flushWord()
            } else {
                word.append(glyph)
                wordWidth += glyph.width
            }
        }

        mutating func hardBreak() {
            flushWord()
            spaces = []
            newLine(wrapped: false)
        }

        mutating func finish() -> [StyledLine] {
            flushWord()
            lines.append(line)
            return lines
        }

        private mutating func newLine(wrapped: Bool) {
            lines.append(line)
            line = StyledLine()
            self.wrapped = wrapped
        }

        private mutating func flushWord() {
            guard !word.isEmpty else { return }
            let leading = line.isEmpty && wrapped ? 0 : spaces.count
            if line.width + leading + wordWidth <= width {
                placeSpaces(leading)
            } else if !line.isEmpty {
                newLine(wrapped: true)
            }
            spaces = []
            if line.width + wordWidth <= width {
                for g in word { line.append(sanitized: g.text, width: g.width, styles[g.style]) }
            } else {
                // Wider than a line: cut between clusters.
                for g in word {
                    if line.width + g.width > width && !line.isEmpty { newLine(wrapped: true) }
                    line.append(sanitized: g.text, width: g.width, styles[g.style])
                }
            }
            word = []
            wordWidth = 0
        }

        private mutating func placeSpaces(_ count: Int) {
            for style in spaces.suffix(count) { line.append(sanitized: " ", width: 1, styles[style]) }
        }
    }
}
