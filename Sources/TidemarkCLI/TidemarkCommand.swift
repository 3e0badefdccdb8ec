import ArgumentParser

/// `tidemark`: Markdown on the terminal, as HTML, or as a JSON syntax tree.
@main
struct TidemarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tidemark",
        abstract: "Render Markdown (CommonMark 0.31.2 + GFM) on the terminal, as HTML, or as its syntax tree.",
        // `tidemark FILE` and `tidemark --stream` mean `render`.
        subcommands: [RenderCommand.self, HTMLCommand.self, ASTCommand.self, DemoCommand.self,
                      LanguagesCommand.self],
        defaultSubcommand: RenderCommand.self)
}
