import Foundation
import Testing
@testable import Tidemark

/// Deeply nested input must parse, render, walk and compare on a default
/// 8 MiB stack (`Hardening.onDefaultStack`): no recursion over the depth
/// of the tree anywhere. Each test also checks that the result is the
/// expected structure, not merely that nothing crashed.
@Suite("Hardening: deep nesting", .timeLimit(.minutes(3)))
struct DeepNestingTests {
    /// Everything a deep document goes through, on a default-size stack.
    struct Outcome: Sendable {
        var html: String
        var report: Hardening.TreeReport
        var plainText: String
        var equalsItself: Bool
    }

    /// `nil` when the suite's time limit cancelled the test first.
    static func run(_ markdown: String, options: ParseOptions = .default) async -> Outcome? {
        await Hardening.onDefaultStack {
            let doc = Document(parsing: markdown, options: options)
            let again = Document(parsing: markdown, options: options)
            return Outcome(html: doc.html(), report: Hardening.inspect(doc),
                           plainText: doc.root.plainText, equalsItself: doc == again)
        }
    }

    static func expectSound(_ o: Outcome, minDepth: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(o.report.problems == 0, "tree invariants violated", sourceLocation: sourceLocation)
        #expect(o.report.reached == o.report.nodeCount, sourceLocation: sourceLocation)
        #expect(o.report.walkerEntered == o.report.nodeCount, sourceLocation: sourceLocation)
        #expect(o.report.walkerExited == o.report.nodeCount, sourceLocation: sourceLocation)
        #expect(o.report.maxDepth >= minDepth, "depth \(o.report.maxDepth) < \(minDepth)", sourceLocation: sourceLocation)
        #expect(o.equalsItself, sourceLocation: sourceLocation)
    }

    static func rep(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

    // MARK: Blocks

    @Test("100,000 nested block quotes")
    func blockQuotes() async throws {
        let n = 100_000
        let o = try #require(await Self.run(Self.rep(">", n) + "a"), "did not finish within the time limit")
        #expect(o.html == Self.rep("<blockquote>\n", n) + "<p>a</p>\n" + Self.rep("</blockquote>\n", n))
        #expect(o.plainText == "a")
        Self.expectSound(o, minDepth: n + 1)
    }

    @Test("100,000 nested bullet list items on one line")
    func bulletItems() async throws {
        let n = 100_000
        let o = try #require(await Self.run(Self.rep("- ", n) + "a"), "did not finish within the time limit")
        let expected = Self.rep("<ul>\n<li>\n", n - 1) + "<ul>\n<li>a</li>\n</ul>\n" + Self.rep("</li>\n</ul>\n", n - 1)
        #expect(o.html == expected)
        #expect(Hardening.count("<li>", in: o.html) == n)
        Self.expectSound(o, minDepth: 2 * n)
    }

    @Test("100,000 nested ordered list items on one line")
    func orderedItems() async throws {
        let n = 100_000
        let o = try #require(await Self.run(Self.rep("1. ", n) + "a"), "did not finish within the time limit")
        let expected = Self.rep("<ol>\n<li>\n", n - 1) + "<ol>\n<li>a</li>\n</ol>\n" + Self.rep("</li>\n</ol>\n", n - 1)
        #expect(o.html == expected)
        Self.expectSound(o, minDepth: 2 * n)
    }

    /// Each item on its own line, indented under the previous one. The input
    /// grows with the square of the depth, so the depth is smaller.
    @Test("2,000 nested bullet items, one per line, indented")
    func indentedBulletItems() async throws {
        let n = 2_000
        let markdown = (0..<n).map { Self.rep("  ", $0) + "- a\n" }.joined()
        let o = try #require(await Self.run(markdown), "did not finish within the time limit")
        let expected = Self.rep("<ul>\n<li>a\n", n - 1) + "<ul>\n<li>a</li>\n</ul>\n" + Self.rep("</li>\n</ul>\n", n - 1)
        #expect(o.html == expected)
        Self.expectSound(o, minDepth: 2 * n)
    }

    @Test("1,500 nested ordered items, one per line, indented")
    func indentedOrderedItems() async throws {
        let n = 1_500
        let markdown = (0..<n).map { Self.rep("   ", $0) + "1. a\n" }.joined()
        let o = try #require(await Self.run(markdown), "did not finish within the time limit")
        let expected = Self.rep("<ol>\n<li>a\n", n - 1) + "<ol>\n<li>a</li>\n</ol>\n" + Self.rep("</li>\n</ol>\n", n - 1)
        #expect(o.html == expected)
        Self.expectSound(o, minDepth: 2 * n)
    }

    @Test("50,000 alternating block quotes and list items")
    func quotesAndItems() async throws {
        let n = 50_000
        let o = try #require(await Self.run(Self.rep("> - ", n) + "a"), "did not finish within the time limit")
        #expect(Hardening.count("<blockquote>", in: o.html) == n)
        #expect(Hardening.count("</blockquote>", in: o.html) == n)
        #expect(Hardening.count("<li>", in: o.html) == n)
        #expect(o.html.contains("<li>a</li>"))
        Self.expectSound(o, minDepth: 3 * n)
    }

    // MARK: Inlines

    @Test("5,000 `>` lines under 5,000 nested list items in a quote")
    func quotedBlankLinesUnderNestedItems() async throws {
        // Each `>` line matches the quote and every item; the same line again
        // changes nothing and must not walk the items again (was quadratic).
        let n = 5_000
        let many = try #require(await Self.run("> " + Self.rep("- ", n) + "x\n" + Self.rep(">\n", n)), "did not finish within the time limit")
        let one = try #require(await Self.run("> " + Self.rep("- ", n) + "x\n>\n"), "did not finish within the time limit")
        #expect(many.html == one.html)
        #expect(many.html.hasPrefix("<blockquote>\n<ul>\n<li>\n<ul>\n"))
        Self.expectSound(many, minDepth: 2 * n)
    }

    @Test("100,000 [")
    func openBrackets() async throws {
        let n = 100_000
        let o = try #require(await Self.run(Self.rep("[", n) + "a"), "did not finish within the time limit")
        #expect(o.html == "<p>" + Self.rep("[", n) + "a</p>\n")
        Self.expectSound(o, minDepth: 2)
    }

    @Test("25,000 nested brackets [[[a]]]")
    func nestedBrackets() async throws {
        let n = 25_000
        let o = try #require(await Self.run(Self.rep("[", n) + "a" + Self.rep("]", n)), "did not finish within the time limit")
        #expect(o.html == "<p>" + Self.rep("[", n) + "a" + Self.rep("]", n) + "</p>\n")
        Self.expectSound(o, minDepth: 2)
    }

    /// Links cannot contain links: the innermost one wins, the rest is text.
    @Test("25,000 nested links [[[a](/u)](/u)](/u)")
    func nestedLinks() async throws {
        let n = 25_000
        let o = try #require(await Self.run(Self.rep("[", n) + "a" + Self.rep("](/u)", n)), "did not finish within the time limit")
        #expect(o.html == "<p>" + Self.rep("[", n - 1) + "<a href=\"/u\">a</a>" + Self.rep("](/u)", n - 1) + "</p>\n")
        Self.expectSound(o, minDepth: 3)
    }

    /// Images can contain images: 25,000 of them, nested; the alt text is
    /// the plain text of the innermost.
    @Test("25,000 nested images ![![![a](/u)](/u)](/u)")
    func nestedImages() async throws {
        let n = 25_000
        let o = try #require(await Self.run(Self.rep("![", n) + "a" + Self.rep("](/u)", n)), "did not finish within the time limit")
        #expect(o.html == "<p><img src=\"/u\" alt=\"a\" /></p>\n")
        #expect(o.plainText == "a")
        Self.expectSound(o, minDepth: n + 2)
    }

    /// 100,000 markers in `*a **a ` repeated: every marker either becomes
    /// part of an `<em>` (one per side) or `<strong>` (two per side) or
    /// stays as text, so the count is conserved.
    @Test("100,000 emphasis markers *a **a …", arguments: ["*", "_"])
    func emphasisMarkers(_ marker: String) async throws {
        let units = 33_334
        let o = try #require(await Self.run(Self.rep("\(marker)a \(marker)\(marker)a ", units)), "did not finish within the time limit")
        let em = Hardening.count("<em>", in: o.html)
        let strong = Hardening.count("<strong>", in: o.html)
        #expect(em == Hardening.count("</em>", in: o.html))
        #expect(strong == Hardening.count("</strong>", in: o.html))
        let markersLeft = Hardening.count(marker, in: o.html)
        #expect(markersLeft + 2 * em + 4 * strong == 3 * units)
        #expect(Hardening.count("a", in: o.plainText) == 2 * units)
        Self.expectSound(o, minDepth: 2)
    }

    /// `*` × 50,000, `a`, `*` × 50,000: 25,000 nested `<strong>`.
    @Test("25,000 nested strong from 100,000 *")
    func nestedStrong() async throws {
        let n = 50_000
        let o = try #require(await Self.run(Self.rep("*", n) + "a" + Self.rep("*", n)), "did not finish within the time limit")
        #expect(o.html == "<p>" + Self.rep("<strong>", n / 2) + "a" + Self.rep("</strong>", n / 2) + "</p>\n")
        Self.expectSound(o, minDepth: n / 2 + 2)
    }

    @Test("100,000 unmatched emphasis openers and closers")
    func unmatchedMarkers() async throws {
        let n = 50_000
        let o = try #require(await Self.run(Self.rep("*a", n) + " " + Self.rep("_b", n)), "did not finish within the time limit")
        #expect(Hardening.count("a", in: o.plainText) == n)
        #expect(Hardening.count("b", in: o.plainText) == n)
        Self.expectSound(o, minDepth: 2)
    }
}
