/// What a live view has written to a terminal, and the bytes that change
/// it into a new version of the document's lines.
///
/// The view writes every line followed by a newline, so the cursor rests
/// at the start of the empty line below the output. The lines still on
/// the screen — at most `rows - 1`, the cursor's row being the last — can
/// be reached by moving the cursor up; the ones above have scrolled away
/// and are never touched again. An update moves up to the first line that
/// differs from what is on the screen, erases from there down, and writes
/// the new lines: settled blocks above the trailing one stay as written,
/// and a trailing block taller than the screen has its top printed once
/// and only its last screenful redrawn.
///
/// The model is exact, so the final screen equals what printing the final
/// lines in one go leaves — also when the output has scrolled and then
/// shrinks (the screen is then written again from the line a one-shot
/// print would show at its top) — with one exception: a change to lines
/// that have scrolled away cannot be shown (the screen shows the new lines
/// below where the old ones scrolled away; nothing is garbled).
public struct TerminalLiveScreen: Sendable {
    /// The terminal's height in rows.
    public private(set) var rows: Int
    /// Lines written so far (including those scrolled away).
    public private(set) var count = 0
    /// The index of the first line still on the screen.
    public private(set) var top = 0
    /// Lines `top..<count` as written.
    private var visible: [String] = []

    public init(rows: Int) {
        self.rows = max(2, rows)
    }

    /// How many of the written lines the cursor can reach.
    private var reach: Int { rows - 1 }

    /// The bytes that make the screen show `lines` (all of the document's
    /// lines, first to last), or `""` when it already does.
    public mutating func update(to lines: [String]) -> String {
        if top > 0 && lines.count - top < reach {
            // The output has scrolled and now shrinks (a paragraph became a
            // shorter table, say): a terminal cannot scroll back, so the
            // whole screen is written again from the line that a one-shot
            // print would show at its top.
            return rewriteScreen(lines)
        }
        var k = top
        while k < count && k < lines.count && visible[k - top] == lines[k] { k += 1 }
        if k == count && k == lines.count { return "" }
        var out = ""
        let up = count - k
        if up > 0 {
            out += ANSI.cursorUp(up)
            out += ANSI.eraseBelow
        }
        visible.removeLast(count - k)
        if k < lines.count {
            for line in lines[k...] {
                out += line
                out += "\n"
            }
            visible += lines[k...]
        }
        count = max(k, lines.count)
        scrolled()
        return out
    }

    /// Up to the screen's first row (line `top` is there once the output
    /// has scrolled), erase, and write the last screenful of `lines`.
    private mutating func rewriteScreen(_ lines: [String]) -> String {
        let start = max(0, lines.count - reach)
        var out = ANSI.cursorUp(count - top) + ANSI.eraseBelow
        for line in lines[start...] {
            out += line
            out += "\n"
        }
        top = start
        count = lines.count
        visible = Array(lines[start...])
        return out
    }

    /// After a resize (when the terminal may have reflowed what it shows):
    /// clears the screen and writes the last screenful of `lines`.
    public mutating func redraw(_ lines: [String], rows: Int) -> String {
        self.rows = max(2, rows)
        let start = max(0, lines.count - reach)
        var out = ANSI.clearScreen
        for line in lines[start...] {
            out += line
            out += "\n"
        }
        top = start
        count = lines.count
        visible = Array(lines[start...])
        return out
    }

    /// Lines pushed above the screen's top are out of reach.
    private mutating func scrolled() {
        let newTop = max(top, count - reach)
        if newTop > top {
            visible.removeFirst(newTop - top)
            top = newTop
        }
    }
}

/// The escape sequences a live view writes around its frames.
public enum TerminalControl {
    public static let hideCursor = ANSI.hideCursor
    public static let showCursor = ANSI.showCursor
    /// Synchronized output (DEC mode 2026) around a frame: terminals that
    /// know it show the frame only once it is complete, the others ignore it.
    public static let beginFrame = ANSI.beginFrame
    public static let endFrame = ANSI.endFrame
    /// Attributes back to normal.
    public static let reset = ANSI.reset
}
