import Foundation
import Testing
import Tidemark
import TidemarkRender

/// The terminal output of a document with every construct, compared with
/// the committed files in `Golden/terminal/`: escape sequences and all.
///
/// After an intended change, regenerate with
/// `TIDEMARK_UPDATE_GOLDEN=1 swift test --filter TerminalGoldenTests`, then
/// look at the new files in a terminal (`cat Golden/terminal/*.ansi`)
/// before committing them.
@Suite struct TerminalGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// `Golden/terminal/<name>`.
        var name: String
        var options: TerminalOptions
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "everything.ansi", options: TerminalOptions(width: 80, styling: .trueColor)),
        Case(name: "everything-light-256.ansi",
             options: TerminalOptions(width: 80, theme: .defaultLight, appearance: .light, styling: .palette256)),
        Case(name: "everything-attributes.ansi",
             options: TerminalOptions(width: 80, styling: .attributes, hyperlinks: false)),
        Case(name: "everything.txt", options: TerminalOptions(width: 80, styling: .plain)),
        Case(name: "everything-20.txt", options: TerminalOptions(width: 20, styling: .plain)),
    ]

    static let directory = Support.goldenDirectory.appendingPathComponent("terminal")

    @Test(arguments: cases)
    func golden(_ c: Case) throws {
        let markdown = try String(contentsOf: Self.directory.appendingPathComponent("everything.md"), encoding: .utf8)
        let rendered = RenderedDocument(Document(parsing: markdown), theme: c.options.theme,
                                        highlighter: KeywordHighlighter())
        let actual = TerminalWriter(options: c.options).render(rendered)
        let url = Self.directory.appendingPathComponent(c.name)
        if ProcessInfo.processInfo.environment["TIDEMARK_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try #require(try? String(contentsOf: url, encoding: .utf8),
                                    "missing Golden/terminal/\(c.name): run with TIDEMARK_UPDATE_GOLDEN=1")
        #expect(actual == expected,
                Comment(rawValue: GoldenTests.diff(expected: expected, actual: actual, name: "terminal/" + c.name)))
    }
}
