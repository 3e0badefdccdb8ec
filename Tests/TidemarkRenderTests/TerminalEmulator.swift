import TidemarkRender

/// A small VT100-style screen for tests: what a terminal shows after some
/// output. It knows what the terminal writer and the live view emit —
/// printable text (wide characters take two cells), `\n` (as a terminal
/// with ONLCR: to the start of the next line), `\r`, cursor up (`CSI n A`),
/// erase below (`CSI J`), clear screen (`CSI H`, `CSI 2 J`), SGR and
/// private modes (ignored), OSC 8 (ignored) — and records anything else,
/// so a test can insist there is nothing else.
struct TerminalEmulator {
    let columns: Int
    let rows: Int
    /// Cells by row; a wide character's right half is `""`.
    private(set) var grid: [[String]]
    private(set) var row = 0
    private(set) var column = 0
    /// The cursor is past the last column (the next character wraps).
    private var pendingWrap = false
    /// Rows that scrolled off the top, oldest first.
    private(set) var scrollback: [String] = []
    /// A character did not fit on its line and the terminal wrapped it.
    private(set) var autowrapped = false
    /// Escape sequences or control characters the emulator does not know.
    private(set) var unknown: [String] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// What the screen shows, one string per row, trailing spaces removed.
    var screen: [String] {
        grid.map { Self.trimmed($0.joined()) }
    }

    /// Scrolled-off rows followed by the screen, trailing empty rows removed.
    var transcript: [String] {
        var all = scrollback + screen
        while all.last == "" { all.removeLast() }
        return all
    }

    private static func trimmed(_ s: String) -> String {
        var s = s
        while s.last == " " { s.removeLast() }
        return s
    }

    mutating func write(_ text: String) {
        var characters = Array(text)[...]
        while let c = characters.popFirst() {
            switch c {
            case "\n", "\r\n":
                lineFeed()
                column = 0
                pendingWrap = false
            case "\r":
                column = 0
                pendingWrap = false
            case "\u{1B}":
                escape(&characters)
            default:
                if c.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                    unknown.append("control \(c.unicodeScalars.map { String($0.value, radix: 16) })")
                    continue
                }
                put(c)
            }
        }
    }

    private mutating func put(_ c: Character) {
        let w = DisplayWidth.of(String(c))
        guard w > 0 else { return }
        if pendingWrap || column + w > columns {
            // The line is wider than the screen.
            autowrapped = true
            lineFeed()
            column = 0
            pendingWrap = false
        }
        grid[row][column] = String(c)
        if w == 2 && column + 1 < columns { grid[row][column + 1] = "" }
        column += w
        if column >= columns {
            column = columns - 1
            pendingWrap = true
        }
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            scrollback.append(Self.trimmed(grid.removeFirst().joined()))
            grid.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func escape(_ characters: inout ArraySlice<Character>) {
        guard let kind = characters.popFirst() else { return unknown.append("lone ESC") }
        switch kind {
        case "[":
            var parameters = ""
            while let c = characters.popFirst() {
                if let a = c.asciiValue, a >= 0x40 && a <= 0x7E {
                    csi(parameters, final: c)
                    return
                }
                parameters.append(c)
            }
            unknown.append("unterminated CSI")
        case "]":
            // OSC: up to ST (ESC \) or BEL.
            var body = ""
            while let c = characters.popFirst() {
                if c == "\u{07}" { break }
                if c == "\u{1B}" {
                    if characters.first == "\\" { characters.removeFirst() }
                    break
                }
                body.append(c)
            }
            if !body.hasPrefix("8;") { unknown.append("OSC \(body)") }
        default:
            unknown.append("ESC \(kind)")
        }
    }

    private mutating func csi(_ parameters: String, final: Character) {
        switch final {
        case "A":
            let n = max(1, Int(parameters) ?? 1)
            row = max(0, row - n)
            pendingWrap = false
        case "J":
            if parameters == "2" {
                grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
            } else if parameters.isEmpty || parameters == "0" {
                for c in column..<columns { grid[row][c] = " " }
                for r in (row + 1)..<rows { grid[r] = Array(repeating: " ", count: columns) }
            } else {
                unknown.append("CSI \(parameters)J")
            }
        case "H":
            guard parameters.isEmpty else { return unknown.append("CSI \(parameters)H") }
            row = 0
            column = 0
            pendingWrap = false
        case "m":
            break
        case "h", "l":
            if !(parameters == "?25" || parameters == "?2026") { unknown.append("CSI \(parameters)\(final)") }
        default:
            unknown.append("CSI \(parameters)\(final)")
        }
    }
}

/// Lines as a person sees them: escape sequences removed.
enum Visible {
    static func text(_ line: String) -> String {
        var e = TerminalEmulator(columns: 10_000, rows: 1)
        e.write(line)
        return e.screen[0]
    }

    static func width(_ line: String) -> Int { DisplayWidth.of(text(line)) }
}
