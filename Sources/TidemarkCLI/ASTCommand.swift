import ArgumentParser
import Tidemark

/// `tidemark ast --json [FILE]`: the syntax tree as JSON.
struct ASTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ast",
        abstract: "Print the syntax tree of a Markdown document as JSON.",
        discussion: """
            Each node is an object with "type", its source range as UTF-8 byte \
            offsets ("start", "end") and as 1-based line/column ("startLine", \
            "startColumn", "endLine", "endColumn"; the end is just past the last \
            byte), the attributes of its kind, and "children".
            """)

    @OptionGroup var parse: ParseFlags

    @OptionGroup var streaming: StreamFlags

    /// JSON is the only format so far; the flag is accepted so scripts can
    /// say what they expect and keep working when other formats arrive.
    @Flag(help: "Print JSON (the default, and for now the only format).")
    var json = false

    @Flag(help: "Print the JSON on one line instead of indented.")
    var compact = false

    @Argument(help: ArgumentHelp("The Markdown file; '-' or none reads standard input.", valueName: "file"))
    var file: String?

    func run() throws {
        let bytes = try readInput(file)
        if streaming.batchPrefixes {
            let pretty = !compact
            streaming.batchPrefixes(bytes, options: parse.options) { prefix in
                var writer = ASTJSONWriter(pretty: pretty)
                prefix.walk(&writer)
                writer.finish()
                var out = StandardOutput()
                out.write(0)
                out.flush()
            }
            return
        }
        if streaming.chunkSize != nil {
            let pretty = !compact
            let emitEach = streaming.emitEach
            let document = streaming.stream(bytes, options: parse.options) { update in
                guard emitEach else { return }
                var writer = ASTJSONWriter(pretty: pretty)
                update.document.walk(&writer)
                writer.finish()
                var out = StandardOutput()
                out.write(0)
                out.flush()
            }
            if emitEach { return }
            var writer = ASTJSONWriter(pretty: pretty)
            document.walk(&writer)
            writer.finish()
            return
        }
        let document = Document(parsing: bytes, options: parse.options)
        var writer = ASTJSONWriter(pretty: !compact)
        document.walk(&writer)
        writer.finish()
    }
}
