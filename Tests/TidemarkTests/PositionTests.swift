import Testing
@testable import Tidemark

/// Source positions: UTF-8 byte ranges, and 1-based line/column (column in
/// bytes) computed on demand.
@Suite struct PositionTests {
    func nodes(_ d: Document, _ kind: NodeKind) -> [Node] {
        (0..<d.nodeCount).map { d.node(at: $0) }.filter { $0.kind == kind }
    }

    @Test func headingAndEmphasisRanges() {
        let d = Document(parsing: "# Hi *there*\n")
        let h = nodes(d, .heading)[0]
        #expect(h.range == 0..<12)
        let em = nodes(d, .emphasis)[0]
        #expect(em.range == 5..<12)
        #expect(em.startLocation == SourceLocation(line: 1, column: 6))
        #expect(em.endLocation == SourceLocation(line: 1, column: 13))
    }

    @Test func multiByteCharactersCountAsBytes() {
        // "é" is 2 bytes and "😀" 4: the emphasis starts after 7 bytes.
        let d = Document(parsing: "é😀 *x*\n")
        let em = nodes(d, .emphasis)[0]
        #expect(em.range == 7..<10)
        #expect(em.startLocation.column == 8)
        let text = nodes(d, .text)[0]
        #expect(text.literal == "é😀 ")
        #expect(text.range == 0..<7)
    }

    @Test func secondLineAndCRLF() {
        let d = Document(parsing: "a\r\n*b*\r\n")
        let em = nodes(d, .emphasis)[0]
        #expect(em.range == 3..<6)
        #expect(em.startLocation == SourceLocation(line: 2, column: 1))
    }

    @Test func tabsInsideContainers() {
        // A tab after `>` is partly consumed by the block quote marker;
        // the code block's content keeps the rest as spaces (example 7).
        let d = Document(parsing: ">\t\tfoo\n")
        let code = nodes(d, .codeBlock)[0]
        #expect(code.literal == "  foo\n")
        let quote = nodes(d, .blockQuote)[0]
        #expect(quote.range.lowerBound == 0)
        #expect(quote.range.upperBound == 6)
    }

    /// A setext underline under a paragraph of only reference definitions
    /// is no underline (example 218-ish): the line is the paragraph's text,
    /// and the paragraph starts at it, not at the definitions it no longer
    /// holds (it kept their start before session 26).
    @Test func underlineAfterOnlyDefinitionsStartsItsParagraph() {
        for (src, start) in [("[a]: /u\n===\n", 8), ("  [a]: /u\n[b]: /v \"t\"\n---\n", 22), ("> [a]: /u\n> ===\n", 12)] {
            let d = Document(parsing: src)
            let p = nodes(d, .paragraph)
            #expect(p.count == 1 && p[0].range.lowerBound == start, "\(src.debugDescription): \(p.map(\.range))")
        }
        // Definitions taken out early, before a line that starts with `[`,
        // leave the same paragraph as taking them out when it closes.
        let d = Document(parsing: "[a]: /u\n[b]: /v\n[c] d\ne\n")
        #expect(nodes(d, .paragraph).map(\.range) == [16..<23])
    }

    @Test func listItemAndParagraphRanges() {
        let src = "- one\n- two\n\n  more\n"
        let d = Document(parsing: src)
        let items = nodes(d, .item)
        #expect(items.count == 2)
        #expect(items[0].range == 0..<5)
        #expect(items[1].range.lowerBound == 6)
        let paragraphs = nodes(d, .paragraph)
        #expect(paragraphs.map { Array(src.utf8)[$0.range].count } == [3, 3, 4])
        #expect(paragraphs[2].startLocation == SourceLocation(line: 4, column: 3))
    }

    @Test func locationOfEveryOffsetIsConsistent() {
        let src = "ab\ncd\n\nxyz"
        let d = Document(parsing: src)
        #expect(d.location(of: 0) == SourceLocation(line: 1, column: 1))
        #expect(d.location(of: 3) == SourceLocation(line: 2, column: 1))
        #expect(d.location(of: 7) == SourceLocation(line: 4, column: 1))
        #expect(d.location(of: 10) == SourceLocation(line: 4, column: 4))
    }

    @Test func sourceposAttributes() {
        let html = Document(parsing: "# a\n\n> b\n").html(HTMLOptions(sourcepos: true))
        #expect(html == "<h1 data-sourcepos=\"1:1-1:3\">a</h1>\n<blockquote data-sourcepos=\"3:1-3:3\">\n<p data-sourcepos=\"3:3-3:3\">b</p>\n</blockquote>\n")
    }

    @Test func normalizedSourceIsWhatRangesReferTo() {
        // BOM dropped, NUL and invalid UTF-8 become U+FFFD (3 bytes each).
        let d = Document(parsing: [0xEF, 0xBB, 0xBF, 0x61, 0x00, 0xFF, 0x62] as [UInt8])
        #expect(d.sourceText == "a\u{FFFD}\u{FFFD}b")
        #expect(d.source.count == 8)
        #expect(nodes(d, .paragraph)[0].range == 0..<8)
    }
}

/// Safe mode: raw HTML omitted, dangerous URLs dropped; `unsafe` keeps both.
@Suite struct SafeModeTests {
    @Test(arguments: [
        "[a](javascript:alert(1))", "[a](JaVaScRiPt:alert(1))", "[a](&#106;avascript:alert(1))",
        "[a](vbscript:x)", "[a](file:///etc/passwd)", "[a](data:text/html,x)",
        "![a](javascript:x)", "<javascript:alert(1)>", "[a]\n\n[a]: javascript:alert(1)",
        "[a](java&#9;script:x)", "[a](<\u{1}javascript:x>)",
    ])
    func dangerousURLsAreDropped(_ md: String) {
        let html = Document(parsing: md).html().lowercased()
        // The text may still show the URL; no href or src may carry it.
        for attribute in ["href=\"", "src=\""] {
            var rest = Substring(html)
            while let r = rest.range(of: attribute) {
                let value = rest[r.upperBound...].prefix { $0 != "\"" }
                #expect(value.isEmpty, "\(md) → \(html)")
                rest = rest[r.upperBound...]
            }
        }
    }

    @Test func imageDataURLsStay() {
        let html = Document(parsing: "![x](data:image/png;base64,AAAA)").html()
        #expect(html.contains("src=\"data:image/png;base64,AAAA\""))
    }

    @Test(arguments: ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "a <iframe src=x> b", "<svg onload=alert(1)>"])
    func rawHTMLIsOmitted(_ md: String) {
        let html = Document(parsing: md).html()
        #expect(html.contains("<!-- raw HTML omitted -->"))
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<iframe") && !html.contains("<svg"))
    }

    @Test func unsafeLetsThemThrough() {
        let d = Document(parsing: "<b>x</b> [a](javascript:y)\n", options: .commonmark)
        let html = d.html(HTMLOptions(unsafe: true))
        #expect(html == "<p><b>x</b> <a href=\"javascript:y\">a</a></p>\n")
    }

    @Test func titlesCannotBreakOutOfTheAttribute() {
        let html = Document(parsing: "[a](/u \"x\\\" onmouseover=\\\"alert(1)\")").html()
        #expect(html == "<p><a href=\"/u\" title=\"x&quot; onmouseover=&quot;alert(1)\">a</a></p>\n")
    }
}
