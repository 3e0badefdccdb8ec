#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `tidemark` in a real terminal: the built binary runs inside tmux, and
/// the tests look at the screen as a person does (`capture-pane`), with
/// its colors and attributes (`-e`). The contract: a document streamed in
/// small pieces leaves exactly the screen that printing it in one go
/// leaves.
///
/// tmux is installed by `scripts/bootstrap.sh`; without it these tests
/// fail (they are the only check of what users see).
@Suite("tidemark in a terminal", .serialized, .timeLimit(.minutes(3)))
struct TerminalCLITests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TidemarkRenderTests/Golden/terminal")

    /// The golden document of the terminal writer, with one change: its
    /// emoji ZWJ sequence (👨‍👩‍👧) becomes the single family emoji. tmux 3.3
    /// joins a ZWJ sequence into one cell or not depending on where its reads
    /// from the terminal happen to split the bytes, so identical output can
    /// leave different screens. (The writer's own tests cover ZWJ widths.)
    static var everything: String {
        get throws {
            try String(contentsOf: goldenDirectory.appendingPathComponent("everything.md"), encoding: .utf8)
                .replacingOccurrences(of: "👨‍👩‍👧", with: "👪")
        }
    }

    /// CJK, Hangul and emoji (no ZWJ sequence: see `everything`).
    static let wide = """
        # 二分探索の説明

        二分探索は、ソートされた配列の中から目的の値を効率よく探すアルゴリズムです。😀 表情 👪 家族 🇯🇵 旗。

        - 中国語：二分查找是一种在有序数组中查找某一特定元素的搜索算法。
        - 한국어: 이진 검색 알고리즘은 정렬된 배열에서 값을 찾습니다.

        | 言語 | 説明 |
        |---|---|
        | 日本語 | ひらがなとカタカナと漢字 |
        | emoji | 🎉🎉🎉 party time |

        """

    /// A trailing code block much taller than the screen.
    static let longCode = "# Long\n\nIntro paragraph.\n\n```swift\n"
        + (1...70).map { "let value\($0) = \($0) * 2 // line \($0) of a block taller than the screen" }
            .joined(separator: "\n")
        + "\n```\n\nAfter the code.\n"

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var columns: Int
        var rows: Int
        var testDescription: String { "\(name) \(columns)x\(rows)" }
    }

    static func document(_ name: String) throws -> String {
        switch name {
        case "everything": try everything
        case "wide": wide
        default: longCode
        }
    }

    @Test("cat FILE | slow feeder | tidemark --stream leaves the screen of tidemark render FILE", arguments: [
        Case(name: "everything", columns: 80, rows: 50),
        Case(name: "everything", columns: 20, rows: 50),
        Case(name: "wide", columns: 33, rows: 30),
        Case(name: "long code", columns: 80, rows: 20),
    ])
    func streamEqualsRender(_ c: Case) throws {
        let tmux = try Tmux()
        let file = try TemporaryFile(try Self.document(c.name))
        let tidemark = try Tmux.tidemark()
        // Seven characters at a time, a short pause after each: the model's
        // pace, much compressed.
        let loop = "while IFS= read -r -N 7 c || [ -n \"$c\" ]; do printf %s \"$c\"; sleep 0.002; done"
        let feeder = "bash -c '\(loop)' < \(sq(file.path))"
        let oneShot = try tmux.screen(of: "\(tidemark) render \(sq(file.path))", columns: c.columns, rows: c.rows,
                                      escapes: true)
        let streamed = try tmux.screen(of: "\(feeder) | \(tidemark) --stream", columns: c.columns, rows: c.rows,
                                       escapes: true)
        #expect(!oneShot.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(streamed == oneShot, Comment(rawValue: Tmux.diff(oneShot, streamed)))
        for line in Tmux.plainLines(streamed) {
            #expect(line.count <= c.columns)
        }
    }

    @Test("tidemark demo --rate 0 leaves the screen of tidemark render of the demo's Markdown")
    func demo() throws {
        let tmux = try Tmux()
        let source = try CLI.run(["demo", "--source"])
        #expect(source.status == 0)
        #expect(source.stdoutText.contains("```swift"))
        let file = try TemporaryFile(source.stdout)
        let tidemark = try Tmux.tidemark()
        let oneShot = try tmux.screen(of: "\(tidemark) render \(sq(file.path))", columns: 80, rows: 50, escapes: true)
        let replayed = try tmux.screen(of: "\(tidemark) demo --rate 0", columns: 80, rows: 50, escapes: true)
        #expect(replayed == oneShot, Comment(rawValue: Tmux.diff(oneShot, replayed)))
        // A timed replay of another file, token by token.
        let everything = try TemporaryFile(try Self.everything)
        let timed = try tmux.screen(of: "\(tidemark) demo --rate 2000 \(sq(everything.path))", columns: 60, rows: 40,
                                    escapes: true)
        let printed = try tmux.screen(of: "\(tidemark) \(sq(everything.path))", columns: 60, rows: 40, escapes: true)
        #expect(timed == printed, Comment(rawValue: Tmux.diff(printed, timed)))
    }

    @Test("a resize while streaming: the screen ends as a render at the new width")
    func resize() throws {
        let tmux = try Tmux()
        let tidemark = try Tmux.tidemark()
        let file = try TemporaryFile(try Self.everything)
        let session = try tmux.start("\(tidemark) demo --rate 300 \(sq(file.path))", columns: 80, rows: 30)
        try tmux.waitForOutput(session)
        _ = try tmux.run(["resize-window", "-t", session.name, "-x", "50", "-y", "30"])
        let resized = try tmux.finish(session, escapes: true)
        let fresh = try tmux.screen(of: "\(tidemark) render \(sq(file.path))", columns: 50, rows: 30, escapes: true)
        #expect(resized == fresh, Comment(rawValue: Tmux.diff(fresh, resized)))
    }

    @Test("Ctrl-C: status 130, the cursor shown again, attributes reset")
    func interrupt() throws {
        let tmux = try Tmux()
        let tidemark = try Tmux.tidemark()
        // The shell ignores SIGINT so that it survives to report the status.
        let session = try tmux.start("trap '' INT; \(tidemark) demo --rate 15; echo status=$?", columns: 80, rows: 30)
        try tmux.waitForOutput(session)
        #expect(try tmux.run(["display-message", "-p", "-t", session.name, "#{cursor_flag}"]) == "0\n")
        _ = try tmux.run(["send-keys", "-t", session.name, "C-c"])
        let screen = try tmux.finish(session, escapes: true, keep: true)
        #expect(try tmux.run(["display-message", "-p", "-t", session.name, "#{cursor_flag}"]) == "1\n")
        _ = try tmux.run(["kill-session", "-t", session.name])
        let status = try #require(screen.split(separator: "\n").first { $0.contains("status=") })
        // No attribute or color left on: the shell's line is plain (after
        // the terminal's echo of the key, `^C`).
        let plain = Tmux.stripResets(String(status))
        #expect(plain == "status=130" || plain == "^Cstatus=130", "\(status.debugDescription)")
    }

    @Test("NO_COLOR and --no-color: attributes but no colors; --format plain: neither")
    func noColor() throws {
        let tmux = try Tmux()
        let tidemark = try Tmux.tidemark()
        let file = try TemporaryFile("# Title\n\n**bold** and `code` and [a link](https://example.com)\n")
        let colored = try tmux.screen(of: "\(tidemark) \(sq(file.path))", columns: 60, rows: 10, escapes: true)
        #expect(colored.contains("38;") || colored.contains("48;"))
        for command in ["NO_COLOR=1 \(tidemark) \(sq(file.path))", "\(tidemark) --no-color \(sq(file.path))",
                        "\(tidemark) --color never \(sq(file.path))"] {
            let screen = try tmux.screen(of: command, columns: 60, rows: 10, escapes: true)
            #expect(!screen.contains("38;") && !screen.contains("48;"), "\(command)")
            #expect(screen.contains("\u{1B}[1m"), "\(command)")
        }
        let plain = try tmux.screen(of: "\(tidemark) --format plain \(sq(file.path))", columns: 60, rows: 10,
                                    escapes: true)
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.contains("a link (https://example.com)"))
    }

    // MARK: - Without a terminal

    @Test("not a terminal: plain text, each block once; --stream writes the same as render")
    func pipe() throws {
        // Without the footnote references: a block that settled before the
        // definition it refers to arrived cannot be written again.
        let text = try Self.everything.replacingOccurrences(of: "A footnote reference[^note] and another[^2].\n\n",
                                                             with: "")
        let rendered = try CLI.run(["render"], stdin: Data(text.utf8))
        let streamed = try CLI.run(["--stream"], stdin: Data(text.utf8))
        let implicit = try CLI.run([], stdin: Data(text.utf8))
        #expect(rendered.status == 0 && streamed.status == 0 && implicit.status == 0)
        #expect(!rendered.stdout.contains(0x1B))
        #expect(streamed.stdoutText == rendered.stdoutText)
        #expect(implicit.stdoutText == rendered.stdoutText)
        #expect(rendered.stdoutText.contains("┌"))
        let lines = rendered.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 80 })
        let colored = try CLI.run(["--color", "always", "--width", "40"], stdin: Data(text.utf8))
        #expect(colored.stdout.contains(0x1B))
        let narrow = try CLI.run(["--width", "20"], stdin: Data(text.utf8))
        #expect(narrow.stdoutText.split(separator: "\n").allSatisfy { $0.count <= 20 })
    }

    @Test("control characters in the input never reach the terminal")
    func hostileInput() throws {
        let evil = "Title\u{1B}]0;pwned\u{07} and \u{1B}[2J\u{1B}[31mred \u{9B}6n\n\n```sh\u{1B}[H\nx\u{1B}[3J\n```\n"
        for arguments in [["--color", "always"], ["--color", "always", "--stream"], ["--format", "plain"]] {
            let result = try CLI.run(arguments, stdin: Data(evil.utf8))
            #expect(result.status == 0)
            let out = result.stdoutText
            #expect(out.contains("␛]0;pwned␇"))
            var rest = Substring(out)
            while let i = rest.firstIndex(of: "\u{1B}") {
                let after = rest[rest.index(after: i)...]
                #expect(after.hasPrefix("[0") || after.hasPrefix("]8;;") || after.hasPrefix("\\"), "\(arguments)")
                rest = after
            }
            #expect(!out.unicodeScalars.contains { $0.value == 0x07 || (0x80...0x9F).contains($0.value) })
        }
    }

    @Test("flags are checked: --width too small, --stream with json, --fps out of range")
    func badFlags() throws {
        for arguments in [["--width", "3"], ["--stream", "--format", "json"], ["--fps", "0"], ["demo", "--rate", "-1"]] {
            let result = try CLI.run(arguments, stdin: Data())
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
    }
}

// MARK: - tmux

/// Quotes a string for `sh`.
func sq(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

/// A private tmux server (its own socket and configuration), killed when
/// the value goes away.
final class Tmux {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "tmux is not installed: run scripts/bootstrap.sh (it installs tmux)" }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    struct Session {
        var name: String
        var channel: String
    }

    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The built `tidemark`, quoted for the shell.
    static func tidemark() throws -> String {
        guard let url = CLI.executable else { throw CLI.NotBuilt() }
        return sq(url.path)
    }

    let socket = "tidemark-test-\(UUID().uuidString)"
    let config: TemporaryFile
    private var counter = 0

    init() throws {
        guard Self.executable != nil else { throw Missing() }
        // No status line (the pane is the whole window), a plain shell, a
        // terminal type that has colors, and a server that stays up between
        // sessions (one exiting while the next session starts is a race).
        config = try TemporaryFile("""
            set -g status off
            set -g exit-empty off
            set -g default-shell /bin/sh
            set -g default-terminal tmux-256color
            set -g history-limit 10000

            """)
    }

    deinit {
        _ = try? run(["kill-server"])
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        guard let tmux = Self.executable else { throw Missing() }
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment["TMUX"] = nil
        // What the pane's programs see: a UTF-8 terminal with 24-bit color.
        environment["COLORTERM"] = "truecolor"
        environment["NO_COLOR"] = nil
        environment["COLORFGBG"] = nil
        let out = try TemporaryFile("")
        let status = try Self.spawn(tmux, ["-L", socket, "-f", config.path] + arguments,
                                    environment: environment, output: out.path)
        guard status == 0 || arguments.first == "kill-server" else {
            throw Failed(description: "tmux \(arguments.joined(separator: " ")) failed with status \(status)")
        }
        return String(decoding: try Data(contentsOf: out.url), as: UTF8.self)
    }

    /// Runs a program to its end, its output into a file.
    ///
    /// Not `Process`: `new-session` starts the tmux server, which must not
    /// inherit the test runner's signal mask (the runner blocks SIGTERM and
    /// SIGCHLD on its threads, and a server with those blocked neither
    /// notices its panes end nor can be stopped). The server closes the
    /// descriptors it inherits itself.
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String],
                      output: String) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_TRUNC, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failed(description: "cannot run \(path): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failed(description: "waitpid failed: \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS; a signal counts as a failure.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Starts `command` in a new session of the given size; the session
    /// stays open after the command so its screen can be captured.
    func start(_ command: String, columns: Int, rows: Int) throws -> Session {
        counter += 1
        let session = Session(name: "s\(counter)", channel: "\(socket)-done-\(counter)")
        let script = "\(command); tmux wait-for -S \(session.channel); sleep 86400"
        try run(["new-session", "-d", "-s", session.name, "-x", "\(columns)", "-y", "\(rows)", script])
        return session
    }

    /// Waits until the command has written something.
    func waitForOutput(_ session: Session) throws {
        while try run(["capture-pane", "-p", "-t", session.name]).trimmingCharacters(in: .whitespacesAndNewlines)
            .isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits for the command to end and returns the screen.
    func finish(_ session: Session, escapes: Bool, keep: Bool = false) throws -> String {
        try run(["wait-for", session.channel])
        let screen = try run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", session.name])
        if !keep { try run(["kill-session", "-t", session.name]) }
        return screen
    }

    /// The screen `command` leaves in a fresh terminal of the given size.
    func screen(of command: String, columns: Int, rows: Int, escapes: Bool) throws -> String {
        try finish(try start(command, columns: columns, rows: rows), escapes: escapes)
    }

    /// The screen's lines without escape sequences.
    static func plainLines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var out = ""
            var escape = false
            for c in line {
                if c == "\u{1B}" { escape = true; continue }
                if escape {
                    if let a = c.asciiValue, a >= 0x40 && a <= 0x7E && c != "[" { escape = false }
                    continue
                }
                out.append(c)
            }
            return out
        }
    }

    /// A line without the sequences that only switch attributes off.
    static func stripResets(_ line: String) -> String {
        var line = line
        for reset in ["\u{1B}[0m", "\u{1B}[39m", "\u{1B}[49m", "\u{1B}[m"] {
            line = line.replacingOccurrences(of: reset, with: "")
        }
        return line
    }

    /// The first differing rows, for a failure message.
    static func diff(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "screens differ:\n"
        var shown = 0
        for i in 0..<max(e.count, a.count) where shown < 8 {
            let l = i < e.count ? String(e[i]) : "<none>"
            let r = i < a.count ? String(a[i]) : "<none>"
            if l != r {
                out += "row \(i + 1):\n  one-shot: \(l.debugDescription)\n  streamed: \(r.debugDescription)\n"
                shown += 1
            }
        }
        return out
    }
}
