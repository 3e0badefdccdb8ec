import ArgumentParser
import Tidemark

/// The flags that choose how a document is parsed, shared by every command
/// that reads Markdown.
struct ParseFlags: ParsableArguments {
    @Flag(help: "Plain CommonMark 0.31.2: every extension off (add some back with --extension).")
    var commonmark = false

    @Option(name: [.customLong("extension"), .customShort("e")],
            help: ArgumentHelp("Switch an extension on (repeatable, or comma-separated).", valueName: "name"))
    var extensions: [String] = []

    @Option(name: .customLong("no-extension"),
            help: ArgumentHelp("Switch an extension off (repeatable, or comma-separated).", valueName: "name"))
    var disabledExtensions: [String] = []

    /// Exit status for an unknown extension name. Not ArgumentParser's 64:
    /// the tool documents 2 for bad arguments it checks itself.
    static let unknownExtensionStatus: Int32 = 2

    func validate() throws {
        for name in Self.names(extensions) + Self.names(disabledExtensions)
        where ParseOptions.named(name) == nil {
            let valid = ParseOptions.extensionNames.map(\.name).joined(separator: ", ")
            printError("tidemark: unknown extension '\(name)' (valid: \(valid))")
            throw ExitCode(Self.unknownExtensionStatus)
        }
    }

    /// The options: every extension (or none with `--commonmark`), plus the
    /// `--extension`s, minus the `--no-extension`s (so removing wins).
    var options: ParseOptions {
        var options: ParseOptions = commonmark ? .commonmark : .default
        for name in Self.names(extensions) { options.formUnion(ParseOptions.named(name) ?? []) }
        for name in Self.names(disabledExtensions) { options.subtract(ParseOptions.named(name) ?? []) }
        return options
    }

    private static func names(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map(String.init) }
    }
}
