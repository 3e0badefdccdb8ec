import Foundation
import Testing
import Tidemark

/// The `tidemark` executable, run as a user runs it. Its output is compared
/// with the library's for the same options, so these tests check the wiring
/// (flags, input, output, exit status), not the parser.
@Suite("tidemark CLI")
struct CLITests {
    static let sample = """
        # Title

        Some *emphasis*, ~~strike~~ and <b>raw</b> HTML,
        a soft break and a [link](https://example.com "T").

        | a | b |
        |---|---|
        | 1 | 2 |

        - [x] done

        """

    @Test("html of a file equals the library's HTML; render (not html) is the default subcommand")
    func htmlOfFile() throws {
        let file = try TemporaryFile(Self.sample)
        let expected = Document(parsing: Self.sample).html()
        let explicit = try CLI.run(["html", file.path])
        #expect(explicit.status == 0)
        #expect(explicit.stderr == "")
        #expect(explicit.stdoutText == expected)
        let implicit = try CLI.run([file.path])
        #expect(implicit.status == 0)
        #expect(implicit.stdoutText == (try CLI.run(["render", file.path])).stdoutText)
        #expect(implicit.stdoutText != expected)
    }

    @Test("standard input: no file argument, or '-'")
    func standardInput() throws {
        let expected = Document(parsing: Self.sample).html()
        for arguments in [["html"], ["html", "-"]] {
            let result = try CLI.run(arguments, stdin: Data(Self.sample.utf8))
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdoutText == expected, "\(arguments)")
        }
    }

    @Test("input reaches the parser as bytes, invalid UTF-8 included")
    func rawBytes() throws {
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9, 0x20, 0xFF, 0xC3] + Array(" *x*\n".utf8)
        let result = try CLI.run(["html"], stdin: Data(bytes))
        #expect(result.status == 0)
        #expect(result.stdoutText == Document(parsing: bytes).html())
    }

    @Test("rendering flags map to HTMLOptions", arguments: [
        (["--unsafe"], HTMLOptions(unsafe: true)),
        (["--sourcepos"], HTMLOptions(sourcepos: true)),
        (["--hardbreaks"], HTMLOptions(softBreak: .hardBreak)),
        (["--nobreaks"], HTMLOptions(softBreak: .space)),
        (["--unsafe", "--sourcepos", "--nobreaks"], HTMLOptions(unsafe: true, sourcepos: true, softBreak: .space)),
    ])
    func renderFlags(_ flags: [String], _ options: HTMLOptions) throws {
        let result = try CLI.run(["html"] + flags, stdin: Data(Self.sample.utf8))
        #expect(result.status == 0)
        #expect(result.stdoutText == Document(parsing: Self.sample).html(options))
    }

    /// A chunk of 3 splits the `é` and the `€` of this text, and the CR LF.
    static let streamed: [UInt8] = Array("# Caf".utf8) + [0xC3, 0xA9] + Array(" *x*\r\n\n> a [b]\n\n[b]: /u\n| € | b |\n|---|---|\n".utf8)

    /// The outputs of `--emit-each` or `--batch-prefixes`, each ended by NUL.
    static func outputs(_ data: Data) -> [Data] {
        var parts = data.split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
        #expect(parts.last == Data())
        parts.removeLast()
        return parts
    }

    @Test("--emit-each prints the document after every append and finish(); --batch-prefixes the same by batch parses",
          arguments: [1, 3, 8, 1000])
    func streamHooks(_ n: Int) throws {
        let file = try TemporaryFile(Data(Self.streamed))
        var lengths = Array(stride(from: n, to: Self.streamed.count, by: n)) + [Self.streamed.count]
        lengths.append(Self.streamed.count)
        for (command, flags) in [("html", ["--sourcepos"]), ("ast", ["--json", "--compact"])] {
            let each = try CLI.run([command] + flags + ["--stream-chunks", "\(n)", "--emit-each", file.path])
            let oracle = try CLI.run([command] + flags + ["--stream-chunks", "\(n)", "--batch-prefixes", file.path])
            #expect(each.status == 0 && oracle.status == 0)
            let emitted = Self.outputs(each.stdout), expected = Self.outputs(oracle.stdout)
            #expect(emitted.count == lengths.count, "\(command)")
            #expect(expected.count == lengths.count, "\(command)")
            #expect(emitted == expected, "\(command)")
            // The oracle is the batch output of each prefix.
            for (k, length) in lengths.enumerated() where k < expected.count {
                let batch = try CLI.run([command] + flags, stdin: Data(Self.streamed[0..<length]))
                #expect(expected[k] == batch.stdout, "\(command), prefix of \(length) bytes")
            }
        }
        // Without --emit-each: the final document, as the batch parse prints it.
        let final = try CLI.run(["html", "--stream-chunks", "\(n)", file.path])
        #expect(final.status == 0)
        #expect(final.stdoutText == Document(parsing: Self.streamed).html())
    }

    @Test("the streaming flags' misuse: one line, no output", arguments: [
        ["--emit-each"], ["--batch-prefixes"], ["--stream-chunks", "0"],
        ["--stream-chunks", "2", "--emit-each", "--batch-prefixes"],
    ])
    func streamFlagErrors(_ flags: [String]) throws {
        for command in ["html", "ast"] {
            let result = try CLI.run([command] + flags, stdin: Data("a\n".utf8))
            #expect(result.status != 0, "\(command) \(flags)")
            #expect(result.stdout.isEmpty, "\(command) \(flags)")
            #expect(result.stderr.contains("--"), "\(command) \(flags)")
        }
    }

    @Test("--hardbreaks and --nobreaks exclude each other")
    func conflictingBreaks() throws {
        let result = try CLI.run(["html", "--hardbreaks", "--nobreaks"], stdin: Data())
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
    }

    @Test("extension selection: --commonmark, --extension, --no-extension", arguments: [
        ([String](), ParseOptions.default),
        (["--commonmark"], ParseOptions.commonmark),
        (["--commonmark", "--extension", "strikethrough"], [.strikethrough]),
        (["--commonmark", "-e", "table,tasklist"], [.table, .tasklist]),
        (["--no-extension", "table", "--no-extension", "tagfilter"], ParseOptions.default.subtracting([.table, .tagfilter])),
        (["--extension", "math", "--no-extension", "math"], ParseOptions.default.subtracting(.math)),
    ] as [([String], ParseOptions)])
    func extensionSelection(_ flags: [String], _ options: ParseOptions) throws {
        let result = try CLI.run(["html"] + flags, stdin: Data(Self.sample.utf8))
        #expect(result.status == 0)
        #expect(result.stdoutText == Document(parsing: Self.sample, options: options).html())
    }

    @Test("--commonmark output differs from the default on GFM syntax")
    func commonmarkVersusDefault() throws {
        let file = try TemporaryFile("~~gone~~ and https://example.com\n")
        let plain = try CLI.run(["html", "--commonmark", file.path])
        let gfm = try CLI.run(["html", file.path])
        #expect(plain.status == 0 && gfm.status == 0)
        #expect(plain.stdoutText == "<p>~~gone~~ and https://example.com</p>\n")
        #expect(gfm.stdoutText.contains("<del>gone</del>"))
        #expect(gfm.stdoutText.contains("<a href=\"https://example.com\">"))
    }

    @Test("an unknown extension name: one line listing the valid names, status 2")
    func unknownExtension() throws {
        for flag in ["--extension", "--no-extension"] {
            let result = try CLI.run(["html", flag, "tables"], stdin: Data())
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("'tables'"))
            for (name, _) in ParseOptions.extensionNames {
                #expect(result.stderr.contains(name))
            }
        }
    }

    @Test("a missing file: one line on standard error, status 1")
    func missingFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tidemark-no-such-\(UUID()).md").path
        for command in ["html", "ast"] {
            let result = try CLI.run([command, path])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines == ["tidemark: cannot read '\(path)': No such file or directory"])
        }
    }

    @Test("a directory instead of a file: one line, status 1")
    func directoryInput() throws {
        let path = FileManager.default.temporaryDirectory.path
        let result = try CLI.run(["html", path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("tidemark: cannot read '\(path)': "))
    }

    @Test("ast --json: a nested tree with positions, mirroring the library's tree")
    func astShape() throws {
        let file = try TemporaryFile(Self.sample)
        let result = try CLI.run(["ast", "--json", file.path])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let root = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(root["type"] as? String == "document")
        #expect(root["start"] as? Int == 0)
        #expect(root["end"] as? Int == Self.sample.utf8.count)
        #expect(root["startLine"] as? Int == 1)
        #expect(root["startColumn"] as? Int == 1)

        // Every node has the position keys; the nodes in document order
        // are the library's, with the same ranges and attributes.
        let document = Document(parsing: Self.sample)
        var nodes: [[String: Any]] = []
        var stack = [root]
        while let node = stack.popLast() {
            nodes.append(node)
            let children = try #require(node["children"] as? [[String: Any]], "children of \(node["type"] ?? "?")")
            stack.append(contentsOf: children.reversed())
        }
        #expect(nodes.count == document.nodeCount)
        for (index, json) in nodes.enumerated() where index < document.nodeCount {
            let node = document.node(at: index)
            for key in ["type", "start", "end", "startLine", "startColumn", "endLine", "endColumn", "children"] {
                #expect(json[key] != nil, "node \(index) has no \(key)")
            }
            #expect(json["type"] as? String == node.kind.name)
            #expect(json["start"] as? Int == node.range.lowerBound)
            #expect(json["end"] as? Int == node.range.upperBound)
            #expect(json["endLine"] as? Int == node.endLocation.line)
            #expect(json["endColumn"] as? Int == node.endLocation.column)
            #expect(json["level"] as? Int == node.headingLevel)
            #expect(json["literal"] as? String == node.literal)
            #expect(json["tight"] as? Bool == node.isTight)
            #expect(json["destination"] as? String == node.destination)
        }
        // Once the parser is in, the sample has these kinds and attributes.
        let types = Set(nodes.compactMap { $0["type"] as? String })
        #expect(types.isSuperset(of: ["heading", "paragraph", "emphasis", "strikethrough", "link", "table", "list", "item"]))
        #expect(nodes.contains { $0["type"] as? String == "item" && $0["task"] as? String == "checked" })
        #expect(nodes.contains { $0["type"] as? String == "link" && $0["title"] as? String == "T" })
    }

    @Test("ast without --json prints JSON too; --compact prints the same tree on one line")
    func astCompact() throws {
        let input = Data(Self.sample.utf8)
        let pretty = try CLI.run(["ast", "--json"], stdin: input)
        let implicit = try CLI.run(["ast"], stdin: input)
        let compact = try CLI.run(["ast", "--compact"], stdin: input)
        #expect(pretty.status == 0 && implicit.status == 0 && compact.status == 0)
        #expect(implicit.stdout == pretty.stdout)
        #expect(compact.stdoutText.split(separator: "\n").count == 1)
        #expect(compact.stdoutText.hasSuffix("}\n"))
        let a = try JSONSerialization.jsonObject(with: pretty.stdout) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: compact.stdout) as? NSDictionary
        #expect(a != nil && a == b)
        // Pretty output is indented by two spaces per level.
        #expect(pretty.stdoutText.hasPrefix("{\n  \"type\": \"document\",\n  \"start\": 0,\n"))
    }

    @Test("ast escapes strings: quotes, backslashes, control characters", arguments: [false, true])
    func astEscapes(_ compact: Bool) throws {
        let source = "`a\"b\\c\u{1}d`\n\n    code\tand\r\n"
        let result = try CLI.run(["ast"] + (compact ? ["--compact"] : []), stdin: Data(source.utf8))
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: result.stdout)
        var literals: [String] = []
        var stack = [object]
        while let node = stack.popLast() as? [String: Any] {
            if let literal = node["literal"] as? String { literals.append(literal) }
            stack.append(contentsOf: (node["children"] as? [Any]) ?? [])
        }
        var expected: [String] = []
        struct Literals: MarkdownWalker {
            var found: [String] = []
            mutating func enter(_ node: Node) -> WalkAction {
                if let literal = node.literal { found.append(literal) }
                return .visitChildren
            }
        }
        var walker = Literals()
        Document(parsing: source).walk(&walker)
        expected = walker.found
        #expect(literals.sorted() == expected.sorted())
    }

    /// 10,000 nested block quotes: the tree is as deep, and the JSON writer
    /// must neither recurse nor print quadratically much indentation.
    @Test("ast of 10,000 nested block quotes", .timeLimit(.minutes(2)))
    func deepNesting() throws {
        let source = String(repeating: ">", count: 10_000) + " deep\n"
        let result = try CLI.run(["ast", "--json"], stdin: Data(source.utf8))
        #expect(result.status == 0)
        #expect(result.stderr == "")
        // JSONSerialization limits nesting depth, so check the structure with
        // a small iterative scanner instead.
        let shape = try #require(JSONShape(result.stdout), "output is not well-formed JSON")
        let document = Document(parsing: source)
        struct Depth: MarkdownWalker {
            var current = 0, deepest = 0
            mutating func enter(_ node: Node) -> WalkAction {
                current += 1
                deepest = max(deepest, current)
                return .visitChildren
            }
            mutating func exit(_ node: Node) { current -= 1 }
        }
        var depth = Depth()
        document.walk(&depth)
        // Each tree level is an object plus its "children" array.
        #expect(shape.maxDepth == 2 * depth.deepest)
        #expect(shape.objects == document.nodeCount)
        // Indentation is capped, so the output stays linear in the depth:
        // fully indented, the average node would take some 200 KB here.
        #expect(result.stdout.count < 2_000 * document.nodeCount)
    }
}

// MARK: - Running the executable

/// The `tidemark` executable built next to the tests.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// The build products directory holds the test bundle (Linux: the test
    /// executable itself) and the package's executables.
    static let executable: URL? = {
        if let path = ProcessInfo.processInfo.environment["TIDEMARK_CLI"] { return URL(fileURLWithPath: path) }
        var directories: [URL] = Bundle.allBundles
            .filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        if let main = Bundle.main.executableURL { directories.append(main.deletingLastPathComponent()) }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        return directories.map { $0.appendingPathComponent("tidemark") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String {
            "the tidemark executable is not in the build products directory; run 'swift build' (or set TIDEMARK_CLI)"
        }
    }

    /// Runs `tidemark` with arguments and standard input (none: /dev/null).
    /// Output goes to temporary files, so large outputs cannot deadlock a pipe.
    static func run(_ arguments: [String], stdin: Data? = nil) throws -> Result {
        guard let executable else { throw NotBuilt() }
        let out = try TemporaryFile(""), err = try TemporaryFile("")
        let input = try stdin.map { try TemporaryFile($0) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0.url) } ?? FileHandle.nullDevice
        let outHandle = try FileHandle(forWritingTo: out.url)
        let errHandle = try FileHandle(forWritingTo: err.url)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(status: process.terminationStatus,
                      stdout: try Data(contentsOf: out.url),
                      stderr: String(decoding: try Data(contentsOf: err.url), as: UTF8.self))
    }
}

/// A file in the temporary directory, removed when the value goes away.
final class TemporaryFile {
    let url: URL
    var path: String { url.path }

    init(_ contents: Data) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tidemark-test-\(UUID()).md")
        try contents.write(to: url)
    }

    convenience init(_ text: String) throws { try self.init(Data(text.utf8)) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Checks that bytes are one well-formed JSON value and measures it, without
/// recursion (the tree under test is 10,000 levels deep).
struct JSONShape {
    private(set) var maxDepth = 0
    private(set) var objects = 0

    init?(_ data: Data) {
        enum Container { case object, array }
        var stack: [Container] = []
        var expectingValue = true  // a value may start here
        var sawRoot = false
        let bytes = [UInt8](data)
        var i = 0
        func skipSpace(_ i: inout Int) {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                i += 1
            }
        }
        while true {
            skipSpace(&i)
            guard i < bytes.count else { break }
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard expectingValue, !(sawRoot && stack.isEmpty) else { return nil }
                stack.append(c == UInt8(ascii: "{") ? .object : .array)
                if c == UInt8(ascii: "{") { objects += 1 }
                maxDepth = max(maxDepth, stack.count)
                i += 1
                expectingValue = true
                // An object must start with a key or close.
                if c == UInt8(ascii: "{") {
                    skipSpace(&i)
                    if i < bytes.count, bytes[i] == UInt8(ascii: "}") { continue }
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
                    guard Self.skipString(bytes, &i) else { return nil }
                    skipSpace(&i)
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                    i += 1
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let top = stack.popLast(), (top == .object) == (c == UInt8(ascii: "}")) else { return nil }
                i += 1
                expectingValue = false
                if stack.isEmpty { sawRoot = true }
            case UInt8(ascii: ","):
                guard !expectingValue, let top = stack.last else { return nil }
                i += 1
                expectingValue = true
                if top == .object {
                    skipSpace(&i)
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), Self.skipString(bytes, &i) else { return nil }
                    skipSpace(&i)
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                    i += 1
                }
            case UInt8(ascii: "\""):
                guard expectingValue, !stack.isEmpty, Self.skipString(bytes, &i) else { return nil }
                expectingValue = false
            default:
                // Numbers and literals.
                guard expectingValue, !stack.isEmpty else { return nil }
                let start = i
                while i < bytes.count, !Self.endsToken(bytes[i]) { i += 1 }
                let token = String(decoding: bytes[start..<i], as: UTF8.self)
                guard ["true", "false", "null"].contains(token) || Double(token) != nil else { return nil }
                expectingValue = false
            }
        }
        guard stack.isEmpty, sawRoot else { return nil }
    }

    private static func endsToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09: true
        default: false
        }
    }

    private static func skipString(_ bytes: [UInt8], _ i: inout Int) -> Bool {
        i += 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): i += 1; return true
            case 0..<0x20: return false
            default: i += 1
            }
        }
        return false
    }
}
