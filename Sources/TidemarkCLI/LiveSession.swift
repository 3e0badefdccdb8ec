#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Tidemark
import TidemarkRender

/// Where streamed Markdown comes from: standard input as it arrives, or
/// the demo's timed replay.
protocol ChunkSource {
    /// The next bytes, waiting at most `timeout` milliseconds; `[]` when
    /// none came in time (or a signal arrived), `nil` at the end.
    mutating func next(timeout: Int) -> [UInt8]?
    /// Whether more bytes can be had without waiting.
    mutating func hasReadyInput() -> Bool
}

/// A file descriptor read as data arrives (a pipe from a model's CLI).
struct DescriptorSource: ChunkSource {
    let fd: Int32
    let name: String
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    mutating func next(timeout: Int) -> [UInt8]? {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, Int32(clamping: timeout))
        if ready <= 0 { return [] }  // time out, or EINTR from a signal
        let fd = self.fd
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 { return Array(buffer[0..<n]) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        if n < 0 { printError("tidemark: cannot read \(name): \(String(cString: strerror(errno)))") }
        return nil
    }

    mutating func hasReadyInput() -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }
}

/// Feeds a stream to the terminal: live redraws when standard output is a
/// terminal, settled blocks as they settle otherwise.
struct LiveSession {
    var stream: MarkdownStream
    var view: TerminalStreamView
    /// Whether to draw live (cursor movement) or write settled blocks.
    let live: Bool
    /// The least time between two redraws.
    let interval: Duration
    /// The width asked for with `--width`, if any (the terminal's caps it).
    let requestedWidth: Int?

    init(parse: ParseOptions, options: TerminalOptions, live: Bool, fps: Int, requestedWidth: Int?,
         highlighter: (any CodeHighlighter)?) {
        stream = MarkdownStream(options: parse)
        var options = options
        var rows = 24
        if live, let size = Terminal.size() {
            options.width = min(options.width, size.columns)
            rows = size.rows
        }
        view = TerminalStreamView(options: options, rows: rows, highlighter: highlighter)
        self.live = live
        interval = .milliseconds(max(1, 1000 / fps))
        self.requestedWidth = requestedWidth
    }

    /// Reads `source` to its end and draws. Exits with status 130 when
    /// interrupted, the terminal left clean.
    mutating func run(_ source: inout some ChunkSource) {
        if live {
            Signals.install()
            Terminal.write(TerminalControl.hideCursor)
        }
        let clock = ContinuousClock()
        var lastFrame = clock.now
        var dirty = false
        var sawNewline = false
        while true {
            if live { handleSignals(&lastFrame, clock) }
            let waited = clock.now - lastFrame
            let timeout = dirty ? max(0, milliseconds(interval - waited)) : 250
            guard let bytes = source.next(timeout: timeout) else { break }
            if !bytes.isEmpty {
                let update = stream.append(bytes: bytes)
                view.record(update)
                dirty = true
                if bytes.contains(0x0A) { sawNewline = true }
            }
            guard dirty else { continue }
            if !live {
                // Settled blocks only: no waiting for a frame time.
                write(view.settledText(stream))
                dirty = false
                continue
            }
            let due = clock.now - lastFrame >= interval || (sawNewline && !source.hasReadyInput())
            if due {
                draw()
                lastFrame = clock.now
                dirty = false
                sawNewline = false
            }
        }
        view.record(stream.finish())
        if live {
            handleSignals(&lastFrame, clock)
            draw()
            Terminal.write(TerminalControl.showCursor)
        } else {
            write(view.settledText(stream))
        }
    }

    private mutating func draw() {
        let frame = view.frame(stream)
        if !frame.isEmpty { Terminal.write(TerminalControl.beginFrame + frame + TerminalControl.endFrame) }
    }

    private func write(_ text: String) {
        if !text.isEmpty { Terminal.write(text) }
    }

    private mutating func handleSignals(_ lastFrame: inout ContinuousClock.Instant, _ clock: ContinuousClock) {
        if Signals.interrupted {
            // The frame that was being written is complete (frames go out
            // in one write), so resetting is enough.
            Signals.restore.withUTF8Buffer { StandardOutput.writeAll($0) }
            exit(130)
        }
        if Signals.takeResize(), let size = Terminal.size() {
            let width = min(requestedWidth ?? size.columns, size.columns)
            let frame = view.resize(stream, width: width, rows: size.rows)
            Terminal.write(TerminalControl.beginFrame + frame + TerminalControl.endFrame)
            lastFrame = clock.now
        }
    }

    private func milliseconds(_ d: Duration) -> Int {
        let (seconds, attoseconds) = d.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
