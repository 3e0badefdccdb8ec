import ArgumentParser
import Tidemark
import TidemarkHighlight
import TidemarkRender

/// `tidemark demo`: replays an assistant's answer as a token stream, the
/// way a model's CLI delivers it, through the live terminal view.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Replay a model's answer token by token, drawn live (what `some-model-cli | tidemark --stream` shows).")

    @Option(help: ArgumentHelp("Tokens per second; 0 replays as fast as possible.", valueName: "n"))
    var rate = 60

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case ansi, plain
    }

    @Option(help: "Output format: ansi (styled on a terminal) or plain.")
    var format: Format = .ansi

    @OptionGroup var terminal: TerminalFlags

    @Flag(help: "Print the Markdown of the answer instead of replaying it.")
    var source = false

    @Argument(help: ArgumentHelp("Replay this Markdown file instead of the built-in answer.", valueName: "file"))
    var file: String?

    func validate() throws {
        if rate < 0 { throw ValidationError("--rate must be 0 or more") }
    }

    func run() throws {
        let text = try file.map { try readInput($0) } ?? Array(DemoText.answer.utf8)
        if source {
            text.withUnsafeBufferPointer { StandardOutput.writeAll($0) }
            return
        }
        var replay = ReplaySource(tokens: Tokens.split(text), rate: rate)
        var session = LiveSession(parse: .default, options: terminal.options(plain: format == .plain),
                                  live: Terminal.isInteractive(), fps: terminal.fps,
                                  requestedWidth: terminal.width, highlighter: TreeSitterHighlighter.shared)
        session.run(&replay)
    }
}

/// Tokens on a schedule: token `i` is due `i / rate` seconds after the
/// first read.
struct ReplaySource: ChunkSource {
    let tokens: [[UInt8]]
    let rate: Int
    private var index = 0
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant?

    init(tokens: [[UInt8]], rate: Int) {
        self.tokens = tokens
        self.rate = rate
    }

    private func due(_ i: Int, from start: ContinuousClock.Instant) -> ContinuousClock.Instant {
        start + .microseconds(i * 1_000_000 / max(1, rate))
    }

    mutating func next(timeout: Int) -> [UInt8]? {
        guard index < tokens.count else { return nil }
        if rate == 0 {
            index += 1
            return tokens[index - 1]
        }
        let start = self.start ?? clock.now
        self.start = start
        let wait = due(index, from: start) - clock.now
        if wait > .milliseconds(timeout) {
            Terminal.sleep(milliseconds: timeout)
            return []
        }
        if wait > .zero {
            Terminal.sleep(milliseconds: Int(wait.components.attoseconds / 1_000_000_000_000_000) + 1)
        }
        var out: [UInt8] = []
        let now = clock.now
        while index < tokens.count && due(index, from: start) <= now {
            out += tokens[index]
            index += 1
        }
        return out
    }

    mutating func hasReadyInput() -> Bool {
        guard index < tokens.count else { return false }
        guard rate > 0, let start else { return true }
        return due(index, from: start) <= clock.now
    }
}

/// Cuts text into pieces the size of a language model's tokens: a word
/// with the space before it (long words in pieces of up to six
/// characters), a run of up to three equal punctuation characters, a
/// line break.
enum Tokens {
    static let maxWordPiece = 6

    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        let text = String(decoding: bytes, as: UTF8.self)
        var tokens: [String] = []
        var current = ""
        var kind = 0  // 0 nothing yet, 1 word, 2 punctuation
        var pieceLength = 0
        func flush() {
            if !current.isEmpty { tokens.append(current) }
            current = ""
            kind = 0
            pieceLength = 0
        }
        for character in text {
            if character == "\n" || character == "\r\n" {
                flush()
                tokens.append(String(character))
            } else if character == " " || character == "\t" {
                // Spaces lead the next token.
                if kind != 0 { flush() }
                current.append(character)
            } else if character.isLetter || character.isNumber {
                if kind == 2 || (kind == 1 && pieceLength >= maxWordPiece) { flush() }
                current.append(character)
                kind = 1
                pieceLength += 1
            } else {
                if kind == 1 || (kind == 2 && (current.last != character || pieceLength >= 3)) { flush() }
                current.append(character)
                kind = 2
                pieceLength += 1
            }
        }
        flush()
        return tokens.map { Array($0.utf8) }
    }
}
