import ArgumentParser
import Tidemark

/// `tidemark html [FILE]`: Markdown to HTML.
struct HTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "Convert Markdown to HTML.")

    @OptionGroup var parse: ParseFlags

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
        let document = Document(parsing: bytes, options: parse.options)
        let style: SoftBreakStyle = hardbreaks ? .hardBreak : nobreaks ? .space : .newline
        var html = document.html(HTMLOptions(unsafe: unsafe, sourcepos: sourcepos, softBreak: style))
        html.withUTF8 { StandardOutput.writeAll($0) }
    }
}
