import Foundation
import Testing
@testable import Tidemark

/// Bytes a well-behaved editor never writes, and sizes nobody types. Each
/// test states the documented result: invalid UTF-8 and NUL become U+FFFD
/// (one per maximal invalid subpart, as the standard library repairs),
/// a leading BOM is dropped, CR and CR LF end lines exactly as LF does.
@Suite("Hardening: odd input", .timeLimit(.minutes(3)))
struct OddInputTests {
    static let fffd = "\u{FFFD}"

    /// (bytes, the normalized text they stand for)
    static let invalidCases: [(name: String, bytes: [UInt8], text: String)] = [
        ("lone continuation byte", [0x61, 0x80, 0x62], "a\u{FFFD}b"),
        ("two continuation bytes", [0x80, 0xBF], "\u{FFFD}\u{FFFD}"),
        ("overlong slash C0 AF", [0xC0, 0xAF], "\u{FFFD}\u{FFFD}"),
        ("overlong NUL C0 80", [0xC0, 0x80], "\u{FFFD}\u{FFFD}"),
        ("overlong three-byte E0 80 AF", [0xE0, 0x80, 0xAF], "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("overlong four-byte F0 80 80 AF", [0xF0, 0x80, 0x80, 0xAF], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("truncated two-byte at end", [0x61, 0xC3], "a\u{FFFD}"),
        ("truncated three-byte before text", [0xE2, 0x82, 0x61], "\u{FFFD}a"),
        ("truncated four-byte at end", [0xF0, 0x9F, 0x98], "\u{FFFD}"),
        ("high surrogate ED A0 80", [0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("low surrogate ED BF BF", [0xED, 0xBF, 0xBF], "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("surrogate pair in CESU-8", [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], Self.rep("\u{FFFD}", 6)),
        ("beyond U+10FFFF F4 90 80 80", [0xF4, 0x90, 0x80, 0x80], Self.rep("\u{FFFD}", 4)),
        ("F5..FF never valid", [0xF5, 0xF8, 0xFC, 0xFE, 0xFF], Self.rep("\u{FFFD}", 5)),
        ("valid between invalid", [0xFF, 0xC3, 0xA9, 0xFF], "\u{FFFD}é\u{FFFD}"),
    ]

    static func rep(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

    /// Fuzz finding (`parse` target, 2026-11-21, input `EF BB BF EF BB BF < >`):
    /// only the first byte order mark is dropped; a second one is a U+FEFF
    /// character of the text. Parsing that source again as new input drops
    /// it (it is then the first byte); decoding a document does not.
    @Test func fuzz_parse_secondByteOrderMarkStaysInTheSource() throws {
        let doc = Document(parsing: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x3C, 0x3E] as [UInt8])
        #expect(doc.source == [0xEF, 0xBB, 0xBF, 0x3C, 0x3E])
        #expect(doc.html() == "<p>\u{FEFF}&lt;&gt;</p>\n")
        let decoded = try JSONDecoder().decode(Document.self, from: JSONEncoder().encode(doc))
        #expect(decoded == doc)
        #expect(Document(parsing: doc.source).source == [0x3C, 0x3E])
    }

    @Test("invalid UTF-8 becomes U+FFFD", arguments: 0..<invalidCases.count)
    func invalidUTF8(_ index: Int) {
        let c = Self.invalidCases[index]
        let doc = Document(parsing: c.bytes, options: .default)
        #expect(doc.sourceText == c.text, "\(c.name)")
        #expect(doc.source == Array(c.text.utf8), "\(c.name)")
        // The standard library's repair agrees byte for byte.
        #expect(doc.source == Array(String(decoding: c.bytes, as: UTF8.self).utf8), "\(c.name)")
        #expect(doc.html() == "<p>\(c.text)</p>\n", "\(c.name)")
        // The String entry point (already repaired by String) agrees too.
        #expect(Document(parsing: String(decoding: c.bytes, as: UTF8.self)).html() == doc.html(), "\(c.name)")
    }

    @Test("invalid UTF-8 inside constructs stays inside them")
    func invalidUTF8InConstructs() {
        let bytes: [UInt8] = Array("# h".utf8) + [0xFF] + Array("\n\n`c".utf8) + [0xC0] + Array("`\n\n[l](/u".utf8)
            + [0x80] + Array(")\n\n```\n".utf8) + [0xED, 0xA0, 0x80] + Array("\n```\n".utf8)
        let html = Document(parsing: bytes, options: .default).html()
        #expect(html == """
            <h1>h\u{FFFD}</h1>
            <p><code>c\u{FFFD}</code></p>
            <p><a href="/u%EF%BF%BD">l</a></p>
            <pre><code>\u{FFFD}\u{FFFD}\u{FFFD}
            </code></pre>

            """)
    }

    @Test("NUL becomes U+FFFD, in text, code, destinations and entities")
    func nul() {
        #expect(Document(parsing: [0x61, 0x00, 0x62]).html() == "<p>a\u{FFFD}b</p>\n")
        #expect(Document(parsing: "a\u{0}b").html() == "<p>a\u{FFFD}b</p>\n")
        #expect(Document(parsing: "`\u{0}`").html() == "<p><code>\u{FFFD}</code></p>\n")
        #expect(Document(parsing: "    \u{0}\n").html() == "<pre><code>\u{FFFD}\n</code></pre>\n")
        #expect(Document(parsing: "[a](/\u{0})").html() == "<p><a href=\"/%EF%BF%BD\">a</a></p>\n")
        // Spec: a numeric reference to U+0000 decodes to U+FFFD as well.
        #expect(Document(parsing: "&#0;").html() == "<p>\u{FFFD}</p>\n")
        #expect(Document(parsing: Array(repeating: 0, count: 1000)).html() == "<p>" + Self.rep("\u{FFFD}", 1000) + "</p>\n")
    }

    @Test("a leading byte order mark is dropped; one elsewhere is text")
    func byteOrderMark() {
        #expect(Document(parsing: "\u{FEFF}# a").html() == "<h1>a</h1>\n")
        #expect(Document(parsing: [0xEF, 0xBB, 0xBF] + Array("# a".utf8)).html() == "<h1>a</h1>\n")
        #expect(Document(parsing: [0xEF, 0xBB, 0xBF]).html() == "")
        #expect(Document(parsing: "\u{FEFF}").source.isEmpty)
        // Only one is dropped; a second one is content (not a heading start).
        #expect(Document(parsing: "\u{FEFF}\u{FEFF}# a").html() == "<p>\u{FEFF}# a</p>\n")
        #expect(Document(parsing: "a\n\u{FEFF}b").html() == "<p>a\n\u{FEFF}b</p>\n")
    }

    /// A document touching most block and inline rules whose lines end with
    /// `\n`; the same with `\r` or `\r\n` must give the same HTML.
    static let lineEndingDocument = [
        "# ATX", "Setext", "======", "", "para one", "continued  ", "hard break\\", "after",
        "", "> quote", "lazy", "", "- item", "", "  loose", "- item 2", "1. one", "2) two",
        "", "    indented code", "", "    more", "", "```js", "fenced", "", "code", "```",
        "", "<div>", "html block", "</div>", "", "[ref]: /url", "  \"title\"", "", "[ref] and [x](/y 'z')",
        "", "***", "| a | b |", "| - | - |", "| c | d |", "", "- [ ] task", "", "$$", "x^2", "$$", "",
        "<!-- comment", "spans -->", "", "`code", "span`", "",
    ]

    @Test("CR and CR LF line endings give the same HTML as LF", arguments: ["\r", "\r\n"])
    func lineEndings(_ ending: String) {
        let lf = Self.lineEndingDocument.joined(separator: "\n") + "\n"
        let other = Self.lineEndingDocument.joined(separator: ending) + ending
        for options in [ParseOptions.commonmark, .default] {
            let expected = Document(parsing: lf, options: options).html()
            #expect(Document(parsing: other, options: options).html() == expected)
            #expect(Document(parsing: Array(other.utf8), options: options).html() == expected)
        }
    }

    @Test("mixed line endings in one document")
    func mixedLineEndings() {
        let html = Document(parsing: "a\rb\r\nc\n\r\n\rd\n").html()
        #expect(html == "<p>a\nb\nc</p>\n<p>d</p>\n")
    }

    @Test("a 10 MB single line")
    func tenMegabyteLine() async throws {
        let unit = "word *em* `c` [l](/u) & < "
        let count = 10_000_000 / unit.utf8.count
        let line = Self.rep(unit, count)
        let html = try #require(await Hardening.html(line))
        let expectedUnit = "word <em>em</em> <code>c</code> <a href=\"/u\">l</a> &amp; &lt; "
        #expect(html == "<p>" + String(Self.rep(expectedUnit, count).dropLast()) + "</p>\n")
    }

    @Test("a 10 MB line of one character")
    func tenMegabytesOfOneCharacter() async throws {
        let html = try #require(await Hardening.html(Self.rep("x", 10_000_000)))
        #expect(html.utf8.count == 10_000_000 + "<p></p>\n".utf8.count)
        #expect(html.hasPrefix("<p>xxx") && html.hasSuffix("xxx</p>\n"))
    }

    @Test("a million blank lines")
    func millionBlankLines() async throws {
        #expect(await Hardening.html(Self.rep("\n", 1_000_000)) == "")
        #expect(await Hardening.html(Self.rep("\r\n", 1_000_000)) == "")
        #expect(await Hardening.html(Self.rep(" \t \n", 1_000_000)) == "")
        #expect(await Hardening.html("a" + Self.rep("\n", 1_000_000) + "b") == "<p>a</p>\n<p>b</p>\n")
        let doc = try #require(await Hardening.onDefaultStack { Document(parsing: "a" + Self.rep("\n", 1_000_000) + "b") })
        #expect(doc.location(of: doc.source.count - 1) == Tidemark.SourceLocation(line: 1_000_001, column: 1))
    }

    @Test("a million lines of one paragraph")
    func millionLineParagraph() async throws {
        let html = try #require(await Hardening.html(Self.rep("a\n", 1_000_000)))
        #expect(html == "<p>" + String(Self.rep("a\n", 1_000_000).dropLast()) + "</p>\n")
    }

    // Linear time for these sizes (a long line, many blank lines, invalid
    // UTF-8) is shown by Benchmarks/pathological.py, which times 2n against
    // n: speed belongs in benchmarks, not in timed unit tests.
}
