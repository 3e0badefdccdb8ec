import ArgumentParser

/// `tidemark`: Markdown to HTML, or to a JSON syntax tree.
@main
struct TidemarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tidemark",
        abstract: "Render Markdown (CommonMark 0.31.2 + GFM) as HTML, or print its syntax tree.",
        // `html` is the default until the terminal renderer (`render`) lands.
        subcommands: [HTMLCommand.self, ASTCommand.self, RenderCommand.self, LanguagesCommand.self],
        defaultSubcommand: HTMLCommand.self)
}
