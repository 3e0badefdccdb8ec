import Testing
@testable import Tidemark

/// Provisional display (spec/streaming.md): the examples themselves run as
/// fixtures (FixtureTests, `tidemark-spec streaming`); these are the
/// properties around them.
@Suite struct ProvisionalTests {
    static let allCases: [FixtureCase] = (try? Fixtures.cases(in: Fixtures.vendored + Fixtures.ownFiles)) ?? []
    static let streamingCases: [FixtureCase] = (try? Fixtures.cases(in: "streaming.json")) ?? []

    static let html = HTMLOptions(unsafe: true)

    /// Answers shaped like a model's: every construct the policy covers.
    static let answers: [String] = [
        """
        # Title

        Some **bold** text and `code`, plus a [link](https://example.com/a_b) and ~~old~~ new.

        - one
        - two with *emphasis*
          - nested `x`

        1. first
        2. second with $x^2$

        > quote with \\(a+b\\) math
        > and a second line

        | a | b |
        |---|:-:|
        | 1 | **2** |

        ```swift
        let x = 1
        ```

        $$
        E = mc^2
        $$

        ---

        Done.

        """,
        """
        Heading
        =======

        Text with a footnote[^1] and ![alt](img.png "title").

        - [ ] open task
        - [x] done task

        Intro line
        | col | other |
        | --- | ----- |
        | `a|b` | c |

        Sub
        ---

        Last *line*
        """,
        "Plain paragraph that goes on\nover lines with _under_ and __strong__ and <https://x.y/z> &amp; more.\n\n> - quoted list\n>   continued\n",
    ]

    // MARK: Convergence

    /// After `finish()`, provisional is exact; before it, every snapshot
    /// of every prefix produces a document (no crash) that equals the exact
    /// one whenever nothing is unsettled.
    @Test("convergence after finish, every prefix of every fixture", arguments: allCases)
    func convergesAfterFinish(_ c: FixtureCase) {
        let bytes = Array(c.example.markdown.utf8)
        var stream = MarkdownStream()
        for (k, b) in bytes.enumerated() {
            let update = stream.append(bytes: [b])
            let provisional = stream.provisionalDocument
            if update.tailStarts.isEmpty {
                #expect(provisional == update.document, "\(c.testDescription) after \(k + 1) bytes")
            }
            // Byte by byte or in one chunk: the same display.
            #expect(provisional == Provisional.document(forTextSoFar: bytes[0...k]),
                    "\(c.testDescription) after \(k + 1) bytes")
        }
        stream.finish()
        #expect(stream.provisionalDocument == stream.document, "\(c.testDescription)")
        #expect(stream.provisionalTail == nil)
    }

    /// Followed by a blank line, every text has nothing left to repair.
    @Test("a text followed by a blank line is shown exactly", arguments: allCases)
    func blankLineConverges(_ c: FixtureCase) {
        let text = c.example.markdown + "\n\n"
        let exact = Document(parsing: text)
        #expect(Provisional.document(forTextSoFar: text) == exact, "\(c.testDescription)")
    }

    /// Closed constructs are shown exactly.
    @Test(arguments: [
        "**bold**", "*em* and **strong**", "`code`", "[a](/b)", "![i](/p.png)", "$x^2$", "~~s~~",
        "| a | b |\n| - | - |\n| 1 | 2 |", "```\ncode\n```", "Title\n===\n", "a `b` *c* [d](e)\n",
    ])
    func closedConstructsAreExact(_ text: String) {
        #expect(Provisional.document(forTextSoFar: text) == Document(parsing: text))
    }

    // MARK: Stream and function agree

    @Test("the stream's provisional document equals the function's, in any chunking", arguments: streamingCases)
    func streamAgreesWithFunction(_ c: FixtureCase) {
        let bytes = Array(c.example.markdown.utf8)
        let expected = Provisional.document(forTextSoFar: c.example.markdown)
        for size in [1, 2, 3, 7] {
            var stream = MarkdownStream()
            var at = 0
            while at < bytes.count {
                stream.append(bytes: bytes[at..<min(bytes.count, at + size)])
                at += size
            }
            #expect(stream.provisionalDocument == expected, "\(c.testDescription) in chunks of \(size)")
        }
    }

    @Test func settledBlocksAreKeptAndTailIsRepaired() {
        var stream = MarkdownStream()
        stream.append("Done.\n\nNext **bol")
        #expect(stream.lastUpdate.settledCount == 1)
        #expect(stream.provisionalDocument.html(Self.html) == "<p>Done.</p>\n<p>Next <strong>bol</strong></p>\n")
        let tail = stream.provisionalTail
        #expect(tail?.settledCount == 1)
        #expect(tail?.sourceOffset == 7)
        #expect(tail?.blocks.count == 1)
        #expect(tail?.document.html(Self.html) == "<p>Next <strong>bol</strong></p>\n")
        // Positions in the spliced document are those of the text so far.
        let paragraph = stream.provisionalDocument.root.lastChild
        #expect(paragraph?.startLocation == SourceLocation(line: 3, column: 1))
        // The exact document is untouched.
        #expect(stream.document.html(Self.html) == "<p>Done.</p>\n<p>Next **bol</p>\n")
        stream.append("d**")
        #expect(stream.provisionalDocument == stream.document)
    }

    @Test func definitionsSeenSoFarResolveInTheTail() {
        let text = "[ref]: https://example.com\n\nSee [ref] and **mo"
        #expect(Provisional.document(forTextSoFar: text).html(Self.html)
                == "<p>See <a href=\"https://example.com\">ref</a> and <strong>mo</strong></p>\n")
    }

    @Test func footnotesInTheTailAreNumbered() {
        let text = "[^n]: Note.\n\nSee[^n] **x"
        let html = Provisional.document(forTextSoFar: text).html(Self.html)
        #expect(html.contains("<strong>x</strong>"))
        #expect(html.contains("fnref-n"))
    }

    // MARK: Display stability

    /// The answers, and the texts of spec/streaming.md's examples.
    static let stabilityTexts: [String] = answers + streamingCases.map(\.example.markdown)

    /// Along the prefixes of a text, a top-level block shown at some offset
    /// keeps its kind, except paragraph → heading (setext, which the spec
    /// forces).
    @Test("shown blocks keep their kind", arguments: stabilityTexts.indices)
    func monotonicKind(_ k: Int) {
        let bytes = Array(Self.stabilityTexts[k].utf8)
        var stream = MarkdownStream()
        var previous: [UInt32: NodeKind] = [:]
        for (i, b) in bytes.enumerated() {
            stream.append(bytes: [b])
            let doc = stream.provisionalDocument
            var now: [UInt32: NodeKind] = [:]
            for block in doc.root.children { now[UInt32(block.range.lowerBound)] = block.kind }
            for (start, kind) in now {
                guard let before = previous[start], before != kind else { continue }
                let allowed = before == .paragraph && kind == .heading
                    && doc.root.children.first(where: { $0.range.lowerBound == Int(start) })?.isSetextHeading == true
                #expect(allowed, """
                    text \(k), after \(i + 1) bytes: the block at \(start) was shown as \(before), now \(kind)
                    text so far: \(String(decoding: bytes[0...i], as: UTF8.self).debugDescription)
                    """)
            }
            previous = now
        }
    }

    /// What is shown is the text so far minus held-back markers: the
    /// letters and digits shown are a prefix of those of the exact parse,
    /// and the ones not shown (yet) all come from the last two lines.
    @Test("no text is lost", arguments: stabilityTexts.indices)
    func noTextLost(_ k: Int) {
        let bytes = Array(Self.stabilityTexts[k].utf8)
        var stream = MarkdownStream()
        for (i, b) in bytes.enumerated() {
            stream.append(bytes: [b])
            let shown = Self.alphanumerics(stream.provisionalDocument.root.plainText)
            let exact = Self.alphanumerics(stream.document.root.plainText)
            let text = String(decoding: bytes[0...i], as: UTF8.self)
            let lastLines = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(2).joined(separator: "\n")
            #expect(exact.starts(with: shown) && exact.count - shown.count <= Self.alphanumerics(lastLines).count, """
                text \(k), after \(i + 1) bytes: shown \(String(shown)) / exact \(String(exact))
                text so far: \(text.debugDescription)
                """)
        }
    }

    static func alphanumerics(_ s: String) -> [Character] {
        s.filter { $0.isLetter || $0.isNumber }.map { $0 }
    }

    // MARK: Hostile input

    /// Inputs shaped to make the repair do the most work: it must stay a
    /// few parses of the tail (no crash, bounded closers).
    @Test(arguments: [
        String(repeating: "*a ", count: 5_000),
        String(repeating: "[a](", count: 2_000),
        String(repeating: "`", count: 3_000) + "x",
        String(repeating: "> ", count: 2_000) + "**x",
        "| a |" + String(repeating: " b |", count: 2_000),
        String(repeating: "$x ", count: 3_000),
        String(repeating: "- ", count: 3_000) + "[x](",
    ])
    func hostile(_ text: String) {
        let doc = Provisional.document(forTextSoFar: text)
        #expect(doc.nodeCount >= 1)
        // Appended closers are bounded by `maxClosedOpeners` (plus one
        // atomic closer).
        #expect(doc.source.count <= text.utf8.count + ProvisionalRepair.maxClosedOpeners * 2 + 4)
    }
}
