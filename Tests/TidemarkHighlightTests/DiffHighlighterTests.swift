import Testing
import Tidemark

@testable import TidemarkHighlight

@Suite("Diff highlighting")
struct DiffHighlighterTests {
    let diff = """
        diff --git a/hello.txt b/hello.txt
        index 3b18e51..a9c5ad5 100644
        --- a/hello.txt
        +++ b/hello.txt
        @@ -1,3 +1,3 @@ greeting
         context line
        -old line
        +new line
        \\ No newline at end of file
        """

    @Test("lines are classified by their first characters")
    func classification() throws {
        let spans = try #require(TreeSitterHighlighter.shared.highlight(diff, language: "diff"))
        checkSpanInvariants(spans, length: diff.utf8.count)
        func kind(ofLine text: String) throws -> TokenKind? {
            let range = try #require(byteRange(of: text, in: diff))
            let found = kinds(in: range, spans: spans)
            #expect(Set(found.map { $0?.rawValue ?? "plain" }).count == 1, "line `\(text)` is split: \(found)")
            return found.first ?? nil
        }
        #expect(try kind(ofLine: "diff --git a/hello.txt b/hello.txt") == .meta)
        #expect(try kind(ofLine: "index 3b18e51..a9c5ad5 100644") == .meta)
        #expect(try kind(ofLine: "--- a/hello.txt") == .meta)
        #expect(try kind(ofLine: "+++ b/hello.txt") == .meta)
        #expect(try kind(ofLine: "@@ -1,3 +1,3 @@ greeting") == .meta)
        #expect(try kind(ofLine: " context line") == nil)
        #expect(try kind(ofLine: "-old line") == .deleted)
        #expect(try kind(ofLine: "+new line") == .inserted)
        #expect(spans.count == 7)
    }

    @Test("spans exclude line terminators, with LF and CRLF alike")
    func lineTerminators() throws {
        let spans = try #require(TreeSitterHighlighter.shared.highlight("+a\r\n-bc\n\n+\n", language: "patch"))
        #expect(
            spans == [
                HighlightSpan(start: 0, end: 2, kind: .inserted),
                HighlightSpan(start: 4, end: 7, kind: .deleted),
                HighlightSpan(start: 9, end: 10, kind: .inserted),
            ])
    }

    @Test("empty input gives no spans")
    func empty() {
        #expect(TreeSitterHighlighter.shared.highlight("", language: "diff") == [])
    }
}
