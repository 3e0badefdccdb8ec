import ArgumentParser
import Foundation
import Tidemark
import TidemarkHighlight
import TidemarkRender

/// `tidemark render [FILE]`: the styled run tree. For now `--format json`
/// (the terminal writer, `ansi` and `plain`, comes with the terminal issue).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render Markdown to the styled run tree (JSON for now).")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json
    }

    @OptionGroup var parse: ParseFlags

    @Option(help: "Output format.")
    var format: Format = .json

    @Flag(help: "Include each run's resolved style (font, colors) in the JSON.")
    var styles = false

    @Flag(help: "Print the JSON on one line.")
    var compact = false

    @Argument(help: ArgumentHelp("The Markdown file; '-' or none reads standard input.", valueName: "file"))
    var file: String?

    func run() throws {
        let bytes = try readInput(file)
        let document = Document(parsing: bytes, options: parse.options)
        let rendered = RenderedDocument(document, highlighter: TreeSitterHighlighter.shared)
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if styles { encoder.userInfo[RunTreeJSON.includeStyles] = true }
        var data = try encoder.encode(rendered)
        data.append(0x0A)
        data.withUnsafeBytes { raw in
            StandardOutput.writeAll(raw.bindMemory(to: UInt8.self))
        }
    }
}
