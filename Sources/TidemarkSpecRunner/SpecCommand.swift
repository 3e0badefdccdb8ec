import ArgumentParser

/// `tidemark-spec`: the conformance runner over `Fixtures/*.json`, and the
/// extractor that turns our own `spec/*.md` into fixtures.
@main
struct SpecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tidemark-spec",
        abstract: "Run Tidemark against the spec fixtures, or extract fixtures from spec/*.md.",
        subcommands: [RunCommand.self, ExtractCommand.self],
        defaultSubcommand: RunCommand.self)
}
