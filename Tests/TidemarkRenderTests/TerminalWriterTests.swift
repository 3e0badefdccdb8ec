import Foundation
import Testing
import Tidemark
@testable import TidemarkRender

/// The terminal writer: widths, wrapping, tables, links, styling levels and
/// the sanitizing of untrusted text.
@Suite struct TerminalWriterTests {
    static func lines(_ markdown: String, width: Int = 80, styling: TerminalOptions.Styling = .trueColor,
                      hyperlinks: Bool = true) -> [String] {
        let options = TerminalOptions(width: width, styling: styling, hyperlinks: hyperlinks)
        let rendered = RenderedDocument(Document(parsing: markdown), theme: options.theme,
                                        highlighter: KeywordHighlighter())
        return TerminalWriter(options: options).lines(of: rendered)
    }

    static func visible(_ markdown: String, width: Int = 80, hyperlinks: Bool = true) -> [String] {
        lines(markdown, width: width, hyperlinks: hyperlinks).map(Visible.text)
    }

    /// Every Markdown document of the golden tests.
    static let documents: [String] = {
        let dir = Support.goldenDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        var docs = names.filter { $0.hasSuffix(".md") }.sorted().map { dir.appendingPathComponent($0) }
        docs.append(dir.appendingPathComponent("terminal/everything.md"))
        return docs.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
    }()

    @Test("no line is wider than the width, at any width, in any styling",
          arguments: [10, 20, 33, 80], [TerminalOptions.Styling.plain, .trueColor])
    func widths(_ width: Int, _ styling: TerminalOptions.Styling) {
        #expect(Self.documents.count >= 10)
        for doc in Self.documents {
            let lines = Self.lines(doc, width: width, styling: styling)
            for line in lines {
                #expect(Visible.width(line) <= width, "\(Visible.text(line))")
            }
            var terminal = TerminalEmulator(columns: width, rows: 200)
            terminal.write(lines.map { $0 + "\n" }.joined())
            #expect(!terminal.autowrapped)
            #expect(terminal.unknown.isEmpty, "\(terminal.unknown)")
        }
    }

    @Test("plain output has no escape sequence and no control character")
    func plain() {
        for doc in Self.documents {
            for line in Self.lines(doc, styling: .plain) {
                #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                        "\(line)")
            }
        }
    }

    @Test("control characters from the document never reach the terminal")
    func hostileText() {
        let evil = "\u{1B}]52;c;aGk=\u{07}\u{1B}[2J\u{9B}31m\u{202E}"
        let markdown = """
            # Head\(evil)ing

            Text \(evil) and `code\(evil)` and [link\(evil)](https://example.com/\u{1B}x).

            ```swift\u{1B}[31m
            let x\(evil) = 1\t// tab
            ```

            | a\(evil) | b |
            |---|---|
            | \(evil) | c |

            """
        for styling in TerminalOptions.Styling.allCases {
            let lines = Self.lines(markdown, styling: styling)
            var terminal = TerminalEmulator(columns: 80, rows: 50)
            terminal.write(lines.map { $0 + "\n" }.joined())
            // Only the writer's own sequences: SGR, OSC 8.
            #expect(terminal.unknown.isEmpty, "\(styling): \(terminal.unknown)")
            let text = terminal.transcript.joined(separator: "\n")
            #expect(text.contains("␛]52;c;aGk=␇␛[2J"))
            #expect(!text.contains("\u{202E}"))
            for line in lines {
                // Every ESC in the output starts one of the writer's own
                // sequences: `ESC[0…m` or `ESC]8;;`.
                var rest = Substring(line)
                while let i = rest.firstIndex(of: "\u{1B}") {
                    let after = rest[rest.index(after: i)...]
                    #expect(after.hasPrefix("[0") || after.hasPrefix("]8;;") || after.hasPrefix("\\"), "\(line)")
                    rest = after
                }
            }
        }
        // The hyperlink target is percent-encoded.
        let link = Self.lines("[x](<https://example.com/ü b>)").joined()
        #expect(link.contains("\u{1B}]8;;https://example.com/%C3%BC%20b\u{1B}\\"))
    }

    @Test("wrapping by display width: CJK breaks anywhere, emoji take two columns, long words are cut")
    func wrapping() {
        func wrap(_ text: String, _ width: Int) -> [String] {
            TextWrapper.wrap([StyledSpan(text: text, style: .plain)], width: width).map { line in
                line.spans.map(\.text).joined()
            }
        }
        #expect(wrap("one two three four", 9) == ["one two", "three", "four"])
        #expect(wrap("二分探索は効率的", 6) == ["二分探", "索は効", "率的"])
        #expect(wrap("ab 二分探索", 6) == ["ab 二", "分探索"])
        #expect(wrap("🎉🎉🎉 party", 5) == ["🎉🎉", "🎉", "party"])
        #expect(wrap("👨‍👩‍👧 family", 8) == ["👨‍👩‍👧", "family"])
        #expect(wrap("supercalifragilistic", 8) == ["supercal", "ifragili", "stic"])
        #expect(wrap("a  b   ", 10) == ["a  b"])
        #expect(wrap("hard\nbreak", 20) == ["hard", "break"])
        #expect(wrap("tab\there", 20) == ["tab here"])
        let mixed = [StyledSpan(text: "한국어 텍스트도 있습니다。 Emoji 👍🏽 ok", style: .plain)]
        for line in TextWrapper.wrap(mixed, width: 7) {
            #expect(line.width <= 7)
        }
    }

    @Test("code is cut, not wrapped, with tabs expanded and a continuation mark")
    func code() {
        let lines = Self.visible("```\n\tlet x = 1234567890 1234567890\n```\n", width: 20)
        #expect(lines == [
            "────────────────────",
            "      let x = 123456",
            "↪ 7890 1234567890",
            "────────────────────",
        ])
        let labelled = Self.visible("```swift\nlet x = 1\n```\n", width: 20)
        #expect(labelled.first == "── swift ───────────")
    }

    @Test("tables: natural widths when they fit, shrunk columns that wrap, records when nothing fits")
    func tables() {
        let markdown = """
            | Name | Price |
            |:-----|------:|
            | Tea | 3.50 |
            | A very long name indeed | 12.00 |

            """
        #expect(Self.visible(markdown, width: 80) == [
            "┌─────────────────────────┬───────┐",
            "│ Name                    │ Price │",
            "├─────────────────────────┼───────┤",
            "│ Tea                     │  3.50 │",
            "│ A very long name indeed │ 12.00 │",
            "└─────────────────────────┴───────┘",
        ])
        // 24 columns leave 17 for the cells: Price keeps its 5, Name gets 12.
        #expect(Self.visible(markdown, width: 24) == [
            "┌──────────────┬───────┐",
            "│ Name         │ Price │",
            "├──────────────┼───────┤",
            "│ Tea          │  3.50 │",
            "├──────────────┼───────┤",
            "│ A very long  │ 12.00 │",
            "│ name indeed  │       │",
            "└──────────────┴───────┘",
        ])
        let wide = "| a | b | c | d |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |\n"
        #expect(Self.visible(wide, width: 12) == [
            "────────────",
            "a: 1",
            "b: 2",
            "c: 3",
            "d: 4",
            "────────────",
        ])
        // Columns narrower than the common cap keep their width; the others
        // share the rest.
        #expect(TableLayout.fit([5, 40, 10], into: 30) == [5, 15, 10])
        #expect(TableLayout.fit([30, 40], into: 20) == [10, 10])
        #expect(TableLayout.fit([2, 3], into: 30) == [2, 3])
    }

    @Test("links: OSC 8 hyperlinks, or the URL after the text; autolinks and relative links")
    func links() {
        let markdown = "See [the docs](https://example.com/docs), <https://swift.org> and [a page](guide.md).\n"
        let linked = Self.lines(markdown).joined()
        #expect(linked.contains("\u{1B}]8;;https://example.com/docs\u{1B}\\"))
        #expect(linked.contains("\u{1B}]8;;https://swift.org\u{1B}\\"))
        // Relative links mean nothing to a terminal: shown, not linked.
        #expect(!linked.contains("]8;;guide.md"))
        #expect(Self.visible(markdown) == ["See the docs, https://swift.org and a page (guide.md)."])
        let shown = Self.lines(markdown, width: 100, hyperlinks: false).map(Visible.text)
        #expect(shown == ["See the docs (https://example.com/docs), https://swift.org and a page (guide.md)."])
        #expect(Self.lines(markdown, width: 100, styling: .plain) == shown)
        #expect(Self.visible("![A cat](https://example.com/cat.png)\n") == ["A cat (https://example.com/cat.png)"])
    }

    @Test("styling levels: plain, attributes without color, 256 colors, 24-bit colors")
    func styling() {
        let markdown = "**bold** *it* `code` [l](https://example.com)\n"
        let plain = Self.lines(markdown, styling: .plain).joined()
        let attributes = Self.lines(markdown, styling: .attributes).joined()
        let palette = Self.lines(markdown, styling: .palette256).joined()
        let trueColor = Self.lines(markdown, styling: .trueColor).joined()
        #expect(plain == "bold it code l (https://example.com)")
        #expect(attributes.contains("\u{1B}[0;1mbold") && attributes.contains("\u{1B}[0;3mit"))
        #expect(!attributes.contains("38;") && !attributes.contains("48;"))
        #expect(attributes.contains("\u{1B}]8;;https://example.com"))
        #expect(palette.contains("48;5;") && !palette.contains("48;2;"))
        #expect(trueColor.contains("48;2;38;44;54mcode"))
        #expect(ANSI.paletteIndex(RGBA(hex: 0x000000)) == 16)
        #expect(ANSI.paletteIndex(RGBA(hex: 0xFFFFFF)) == 231)
        #expect(ANSI.paletteIndex(RGBA(hex: 0x808080)) == 244)
    }

    @Test("block layout: headings, lists, tasks, quotes, alerts, footnotes, math")
    func blocks() {
        let markdown = """
            # Title

            ### Small

            9. nine
            10. ten with text that wraps

            - [x] done
            - [ ] open

            > quoted
            > > nested

            > [!TIP]
            > Try it.

            Ref[^a].

            [^a]: Note.

            $$x^2$$

            """
        #expect(Self.visible(markdown, width: 24) == [
            "Title",
            "━━━━━",
            "",
            "### Small",
            "",
            " 9. nine",
            "10. ten with text that",
            "    wraps",
            "",
            "☑ done",
            "☐ open",
            "",
            "│ quoted",
            "│",
            "│ │ nested",
            "",
            "│ Tip",
            "│ Try it.",
            "",
            "Ref[1].",
            "",
            "[1] Note.",
            "",
            "           x²",
        ])
    }

    @Test("deep nesting on a narrow terminal drops indentation instead of overflowing")
    func deepNesting() {
        let quotes = String(repeating: "> ", count: 40) + "deep text that is long enough to wrap\n\n"
        let lists = (0..<20).map { String(repeating: "  ", count: $0) + "- item \($0)\n" }.joined()
        let markdown = quotes + lists
        for width in [10, 20, 40] {
            for line in Self.lines(markdown, width: width) {
                #expect(Visible.width(line) <= width, "\(Visible.text(line))")
            }
        }
    }
}
