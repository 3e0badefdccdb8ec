#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import Tidemark
import TidemarkHighlight
import TidemarkRender

/// `tidemark [render] [FILE]`: Markdown drawn on the terminal (the default
/// subcommand), as plain text, or as the styled run tree in JSON.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render Markdown on the terminal (the default), as plain text, or as the run tree in JSON.",
        discussion: """
            With --stream, standard input (or FILE) is read as it arrives: on a terminal \
            the document is drawn live (finished blocks once, the trailing block redrawn \
            in place); otherwise each block is written once, when it is complete.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case ansi, plain, json
    }

    @OptionGroup var parse: ParseFlags

    @Option(help: "Output format: ansi (styled when writing to a terminal), plain, or json (the run tree).")
    var format: Format = .ansi

    @Flag(help: "Read the input as it arrives and draw it live (some-model-cli | tidemark --stream).")
    var stream = false

    @OptionGroup var terminal: TerminalFlags

    @Flag(help: "With --format json: include each run's resolved style (font, colors).")
    var styles = false

    @Flag(help: "With --format json: print the JSON on one line.")
    var compact = false

    @Argument(help: ArgumentHelp("The Markdown file; '-' or none reads standard input.", valueName: "file"))
    var file: String?

    func validate() throws {
        if stream && format == .json { throw ValidationError("--stream draws text: use --format ansi or plain") }
    }

    func run() throws {
        if format == .json { return try runJSON() }
        let options = terminal.options(plain: format == .plain)
        if stream {
            let fd: Int32
            let name = file ?? "-"
            if name == "-" {
                fd = STDIN_FILENO
            } else {
                fd = open(name, O_RDONLY | O_CLOEXEC)
                // readInput reports the error the same way as one-shot.
                if fd < 0 { _ = try readInput(name) }
            }
            var source = DescriptorSource(fd: fd, name: name == "-" ? "standard input" : "'\(name)'")
            var session = LiveSession(parse: parse.options, options: options, live: Terminal.isInteractive(),
                                      fps: terminal.fps, requestedWidth: terminal.width,
                                      highlighter: TreeSitterHighlighter.shared)
            session.run(&source)
            return
        }
        let bytes = try readInput(file)
        let document = Document(parsing: bytes, options: parse.options)
        let rendered = RenderedDocument(document, theme: options.theme, highlighter: TreeSitterHighlighter.shared)
        Terminal.write(TerminalWriter(options: options).render(rendered))
    }

    private func runJSON() throws {
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
