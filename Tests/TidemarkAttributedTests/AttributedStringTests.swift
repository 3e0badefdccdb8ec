import Foundation
import Testing
import Tidemark
import TidemarkAttributed
import TidemarkRender

@Suite struct AttributedStringTests {
    static func attributed(_ markdown: String, options: RenderOptions = .default) -> AttributedString {
        AttributedString(RenderedDocument(Document(parsing: markdown), options: options))
    }

    static func plain(_ a: AttributedString) -> String { String(a.characters) }

    @Test(arguments: [
        ("# Title\n\nBody text.", "Title\nBody text."),
        ("- a\n- [x] b\n  - c", "• a\n• ☑ b\n\t◦ c"),
        ("3. three\n4. four", "3. three\n4. four"),
        ("> quoted\n>\n> more", "quoted\nmore"),
        ("> [!TIP]\n> Do this.", "Tip\nDo this."),
        ("```\nline 1\nline 2\n```", "line 1\nline 2"),
        ("| a | b |\n|---|---|\n| 1 | 2 |", "a\tb\n1\t2"),
        ("x\n\n---\n\ny", "x\n⸻\ny"),
        ("$$\nx^2\n$$", "x²"),
        ("![alt text](https://x/p.png)", "alt text"),
        ("a[^1]\n\n[^1]: note", "a[1]\n[1] note"),
    ])
    func layout(_ markdown: String, _ expected: String) {
        #expect(Self.plain(Self.attributed(markdown)) == expected)
    }

    @Test func runAttributesCarryTheRunTree() throws {
        let a = Self.attributed("Some **bold** [link](https://example.com \"T\") and $\\alpha$.")
        var sawBold = false, sawLink = false, sawMath = false
        for run in a.runs {
            let text = String(a[run.range].characters)
            #expect(run.tidemark.blockKind == .paragraph)
            #expect(run.tidemark.runStyle != nil)
            switch text {
            case "bold":
                sawBold = true
                #expect(run.tidemark.traits == .strong)
                #expect(run.tidemark.runStyle?.weight == .bold)
            case "link":
                sawLink = true
                #expect(run.tidemark.traits == .link)
                #expect(run.tidemark.linkInfo == LinkInfo(destination: "https://example.com", title: "T"))
                #expect(run.link == URL(string: "https://example.com"))
            case "α":
                sawMath = true
                #expect(run.tidemark.mathSource == "\\alpha")
                #expect(run.tidemark.traits == .math)
            default:
                #expect(run.tidemark.traits == nil)
                #expect(run.link == nil)
            }
        }
        #expect(sawBold && sawLink && sawMath)
    }

    @Test func refusedLinksGetNoFoundationLink() {
        let a = Self.attributed("[x](javascript:alert(1))")
        #expect(a.runs.allSatisfy { $0.link == nil && $0.tidemark.linkInfo == nil })
        #expect(Self.plain(a) == "x")
    }

    @Test func codeTokensAndBlockPaths() {
        let markdown = "> - item\n>\n>   ```swift\n>   let x = 1\n>   ```"
        let rendered = RenderedDocument(Document(parsing: markdown), highlighter: Highlighter())
        let a = AttributedString(rendered)
        let code = a.runs.filter { $0.tidemark.blockKind == .code }
        #expect(!code.isEmpty)
        #expect(code.allSatisfy { $0.tidemark.blockPath == [.quote, .list, .item] })
        #expect(code.contains { $0.tidemark.tokenKind == .keyword && String(a[$0.range].characters) == "let" })
        let item = a.runs.first { $0.tidemark.blockKind == .item }
        #expect(item.map { String(a[$0.range].characters) } == "• ")
    }

    @Test func singleBlockConversion() {
        let rendered = RenderedDocument(Document(parsing: "## Hi *there*"))
        let a = AttributedString(rendered.blocks[0])
        #expect(String(a.characters) == "Hi there")
        #expect(a.runs.allSatisfy { $0.tidemark.runStyle?.font == .heading })
    }

    /// Each custom attribute's value is Codable on its own (Foundation on
    /// Linux has no `AttributedString` coding with a scope to check the
    /// whole string against).
    @Test func attributeValuesAreCodable() throws {
        let a = Self.attributed("**b** [l](https://x) $x$")
        for run in a.runs {
            if let traits = run.tidemark.traits {
                let data = try JSONEncoder().encode(traits)
                #expect(try JSONDecoder().decode(RunTraits.self, from: data) == traits)
            }
            if let style = run.tidemark.runStyle {
                let data = try JSONEncoder().encode(style)
                #expect(try JSONDecoder().decode(RunStyle.self, from: data) == style)
            }
        }
        #expect(TidemarkAttributes.RunTraitsAttribute.name == "tidemark.traits")
    }

    struct Highlighter: CodeHighlighter {
        func highlight(_ code: String, language: String) -> [HighlightSpan]? {
            code.hasPrefix("let") ? [HighlightSpan(start: 0, end: 3, kind: .keyword)] : []
        }
    }
}
