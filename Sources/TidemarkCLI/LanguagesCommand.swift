import ArgumentParser
import TidemarkHighlight

/// `tidemark languages`: which code-block languages can be highlighted here.
struct LanguagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "languages",
        abstract: "List the languages whose grammars are installed (scripts/install-grammars.sh).")

    func run() throws {
        var out = StandardOutput()
        let languages = TreeSitterHighlighter.shared.installedLanguages()
        for name in languages {
            out.write(utf8: name)
            out.write(UInt8(ascii: "\n"))
        }
        out.flush()
    }
}
