import ArgumentParser
import Tidemark

/// `tidemark html [FILE]`: Markdown to HTML.
struct HTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "Convert Markdown to HTML.")

    @OptionGroup var parse: ParseFlags

    @OptionGroup var streaming: StreamFlags

    @Flag(help: "Let raw HTML and dangerous URLs (javascript:, …) through. Off by default: model output is untrusted.")
    var unsafe = false

    @Flag(help: "Add data-sourcepos attributes (line:column-line:column) to block elements.")
    var sourcepos = false

    @Flag(help: "Render soft line breaks as <br />.")
    var hardbreaks = false

    @Flag(help: "Render soft line breaks as spaces.")
    var nobreaks = false

    @Argument(help: ArgumentHelp("The Markdown file; '-' or none reads standard input.", valueName: "file"))
    var file: String?

    func validate() throws {
        if hardbreaks && nobreaks {
            throw ValidationError("--hardbreaks and --nobreaks exclude each other")
        }
    }

    func run() throws {
        let bytes = try readInput(file)
        let style: SoftBreakStyle = hardbreaks ? .hardBreak : nobreaks ? .space : .newline
        let options = HTMLOptions(unsafe: unsafe, sourcepos: sourcepos, softBreak: style)
        let document: Document
        if streaming.batchPrefixes {
            var out = StandardOutput()
            streaming.batchPrefixes(bytes, options: parse.options) { prefix in
                out.write(utf8: prefix.html(options))
                out.write(0)
            }
            out.flush()
            return
        } else if streaming.chunkSize != nil {
            var out = StandardOutput()
            document = streaming.stream(bytes, options: parse.options) { update in
                if streaming.emitEach {
                    out.write(utf8: update.document.html(options))
                    out.write(0)
                } else {
                    // What a UI does: render only the blocks that changed.
                    for block in update.changedBlocks { _ = update.document.html(of: block, options) }
                }
            }
            if streaming.emitEach {
                out.flush()
                return
            }
        } else {
            document = Document(parsing: bytes, options: parse.options)
        }
        var html = document.html(options)
        html.withUTF8 { StandardOutput.writeAll($0) }
    }
}
