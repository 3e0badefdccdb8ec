import Testing
import Tidemark
import TidemarkRender

@Suite struct RunTests {
    static func runs(_ markdown: String, options: RenderOptions = .default) -> [Run] {
        Support.render(markdown, options: options).blocks.first?.runs ?? []
    }

    @Test func adjacentRunsWithTheSameMeaningMerge() {
        // Text, entity and escape nodes with one look become one run.
        let r = Self.runs("a &amp; b \\* c")
        #expect(r.count == 1)
        #expect(r[0].text == "a & b * c")
    }

    @Test func breaks() {
        #expect(Support.text(Self.runs("one\ntwo")) == "one two")
        #expect(Support.text(Self.runs("one  \ntwo")) == "one\ntwo")
        #expect(Support.text(Self.runs("one\\\ntwo")) == "one\ntwo")
        #expect(Self.runs("*a\nb*").count == 1)  // a soft break inside emphasis keeps it
    }

    @Test func nestedTraitsCombine() {
        let r = Self.runs("**bold *both* ~~all~~**")
        #expect(r.map(\.text) == ["bold ", "both", " ", "all"])
        #expect(r.map(\.traits) == [.strong, [.strong, .emphasis], .strong, [.strong, .strikethrough]])
        #expect(r[1].style.italic && r[1].style.weight == .bold)
    }

    @Test func linkRunsCarryDestinationAndTitle() {
        let r = Self.runs(#"[a *b*](https://x.example "T") c"#)
        #expect(r.map(\.text) == ["a ", "b", " c"])
        #expect(r[0].link == LinkInfo(destination: "https://x.example", title: "T"))
        #expect(r[1].link == r[0].link && r[1].traits == [.link, .emphasis])
        #expect(r[2].link == nil)
        // Two adjacent links to different places stay apart.
        #expect(Self.runs("[a](https://1)[b](https://2)").count == 2)
    }

    @Test func inlineMathShowsUnicodeAndKeepsTheSource() {
        let r = Self.runs(#"$\alpha^2$ and $\unknowncommand$"#)
        #expect(r[0].text == "α²" && r[0].math == #"\alpha^2"# && r[0].traits == .math)
        #expect(r[2].text == #"\unknowncommand"# && r[2].math == #"\unknowncommand"#)
        // Two math spans side by side are never merged.
        #expect(Self.runs("$a$$b$").filter { $0.traits.contains(.math) }.count >= 1)
        #expect(Self.runs("$a$ $a$").count == 3)
    }

    @Test func footnoteReferences() {
        let r = Self.runs("x[^n]\n\n[^n]: note")
        #expect(r.map(\.text) == ["x", "[1]"])
        #expect(r[1].footnote == FootnoteMark(number: 1, label: "n"))
        #expect(r[1].traits == .footnoteReference)
    }

    @Test func inlineImagesAreTheirAltText() {
        let r = Self.runs("a ![the *alt*](p.png \"T\") b")
        #expect(r[1].text == "the alt")
        #expect(r[1].image == ImageInfo(alt: "the alt", source: "p.png", title: "T"))
        #expect(Self.runs("a ![](p.png) b")[1].text == "image")
    }

    @Test func rawHTMLIsShownOrDropped() {
        #expect(Self.runs("a <b>b</b> c").map(\.text) == ["a ", "<b>", "b", "</b>", " c"])
        #expect(Self.runs("a <b>b</b> c")[1].traits == .html)
        #expect(Self.runs("a <b>b</b> c", options: RenderOptions(rawHTML: .drop)).map(\.text) == ["a b c"])
        #expect(Support.render("<div>\n</div>", options: RenderOptions(rawHTML: .drop)).blocks.isEmpty)
        #expect(Support.render("<b>", options: RenderOptions(rawHTML: .drop)).blocks.isEmpty)
    }

    @Test func bulletMarkersCycleAndCanBeChanged() {
        let doc = Support.render("- a\n  - b", options: RenderOptions(bulletMarkers: ["-", "*"]))
        let markers = Support.allBlocks(doc).compactMap { block -> String? in
            if case .item(let info, _) = block.content { return info.marker }
            return nil
        }
        #expect(markers == ["-", "*"])
    }

    @Test func tableCellsAreAlignedAndPadded() throws {
        let doc = Support.render("| a | b |\n|:-:|--:|\n| 1 |")
        guard case .table(let info) = doc.blocks[0].content else {
            Issue.record("expected a table")
            return
        }
        #expect(info.alignments == [.center, .right])
        #expect(info.header.map(Support.text) == ["a", "b"])
        #expect(info.rows.map { $0.map(Support.text) } == [["1", ""]])
        #expect(info.header[0][0].style.weight == Theme.default.strongWeight)
    }

    @Test func displayMathAloneInAParagraphIsAMathBlock() {
        let doc = Support.render("$$x^2$$")
        guard case .math(let info) = doc.blocks[0].content else {
            Issue.record("expected math, got \(doc.blocks[0].kind)")
            return
        }
        #expect(info.isDisplay && info.tex == "x^2" && info.unicode == "x²")
    }
}

@Suite struct CodeLineTests {
    static func lines(_ code: String, spans: [HighlightSpan]) -> [[Run]] {
        let doc = Support.render("```toy\n" + code + "```", highlighter: FixedSpansHighlighter(spans: spans))
        guard case .code(let info) = doc.blocks[0].content else { return [] }
        return info.lines
    }

    @Test func spansAreSplitAtLineEnds() {
        // One comment span covering "b\nc" of "ab\ncd\n".
        let l = Self.lines("ab\ncd\n", spans: [HighlightSpan(start: 1, end: 4, kind: .comment)])
        #expect(l.map { $0.map(\.text) } == [["a", "b"], ["c", "d"]])
        #expect(l.map { $0.map(\.token) } == [[nil, .comment], [.comment, nil]])
    }

    @Test func badSpansAreClampedNotTrusted() {
        // Out of range, reversed, overlapping, and inside a UTF-8 sequence.
        let spans = [
            HighlightSpan(start: 2, end: 1, kind: .keyword),
            HighlightSpan(start: 0, end: 2, kind: .string),   // ends inside "é"
            HighlightSpan(start: 1, end: 4, kind: .number),   // overlaps the previous
            HighlightSpan(start: 90, end: 100, kind: .comment),
        ]
        let l = Self.lines("aéb\n", spans: spans)
        #expect(l.count == 1)
        #expect(Support.text(l[0]) == "aéb")
        #expect(!Support.text(l[0]).contains("\u{FFFD}"))
    }

    @Test func emptyLinesAndTrailingBlankLine() {
        let doc = Support.render("```\na\n\nb\n\n```")
        guard case .code(let info) = doc.blocks[0].content else { return }
        #expect(info.lines.map(Support.text) == ["a", "", "b", ""])
        #expect(info.lines[1].isEmpty)
        guard case .code(let empty) = Support.render("```\n```").blocks[0].content else { return }
        #expect(empty.lines.isEmpty)
    }

    @Test func unknownLanguageOrNoHighlighterIsPlain() {
        let doc = Support.render("```swift\nlet x\n```")
        guard case .code(let info) = doc.blocks[0].content else { return }
        #expect(!info.isHighlighted)
        #expect(info.lines[0].count == 1 && info.lines[0][0].token == nil)
        #expect(info.lines[0][0].style.font == .code)
    }
}
