#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What the CLI asks of the terminal it writes to.
enum Terminal {
    /// Whether `fd` is a terminal that understands cursor movement (a
    /// `dumb` one does not).
    static func isInteractive(_ fd: Int32 = STDOUT_FILENO) -> Bool {
        guard isatty(fd) == 1 else { return false }
        return environment("TERM") != "dumb"
    }

    /// Columns and rows, from the terminal driver; `nil` when `fd` is no
    /// terminal or reports no size.
    static func size(_ fd: Int32 = STDOUT_FILENO) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Writes all of `text` in one `write(2)` where the system allows: a
    /// frame goes out whole, never half-drawn.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { StandardOutput.writeAll($0) }
    }

    /// Sleeps up to `milliseconds`; a signal ends the sleep early.
    static func sleep(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        _ = poll(nil, 0, Int32(clamping: milliseconds))
    }
}

/// SIGINT, SIGTERM and SIGWINCH for the live view.
///
/// The handlers only set atomic flags that the event loop reads (it wakes
/// up: `poll` returns early on a signal). A second interrupt while the
/// loop is stuck — a terminal paused with Ctrl-S blocks every write —
/// restores the terminal from the handler itself and exits.
enum Signals {
    private static let interrupts = Atomic<Int>(0)
    private static let resized = Atomic<Bool>(false)

    /// Bytes that leave the terminal clean: attributes reset, hyperlink and
    /// synchronized frame closed, cursor shown.
    static let restore: StaticString = "\u{1B}[0m\u{1B}]8;;\u{1B}\\\u{1B}[?2026l\u{1B}[?25h"

    static func install() {
        // Touch the atomics now: a global's lazy initialization is not
        // async-signal-safe, the handler must not be the first to use it.
        _ = interrupts.load(ordering: .relaxed)
        _ = resized.load(ordering: .relaxed)
        let interrupt: @convention(c) (Int32) -> Void = { _ in
            if Signals.interrupts.add(1, ordering: .relaxed).newValue >= 2 {
                _ = Signals.restore.withUTF8Buffer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                _exit(130)
            }
        }
        let resize: @convention(c) (Int32) -> Void = { _ in
            Signals.resized.store(true, ordering: .relaxed)
        }
        signal(SIGINT, interrupt)
        signal(SIGTERM, interrupt)
        signal(SIGWINCH, resize)
    }

    static var interrupted: Bool { interrupts.load(ordering: .relaxed) > 0 }

    /// Whether the terminal was resized since the last call.
    static func takeResize() -> Bool { resized.exchange(false, ordering: .relaxed) }
}
