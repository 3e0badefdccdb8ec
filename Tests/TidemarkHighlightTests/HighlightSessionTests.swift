import Testing
import Tidemark

@testable import TidemarkHighlight

@Suite("Incremental highlighting sessions")
struct HighlightSessionTests {
    /// Prefixes of `code` growing by `step` bytes, never splitting a UTF-8 sequence.
    static func prefixes(of code: String, step: Int) -> [String] {
        let bytes = Array(code.utf8)
        var result: [String] = []
        var end = 0
        while end < bytes.count {
            end = min(end + step, bytes.count)
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            result.append(String(decoding: bytes[..<end], as: UTF8.self))
        }
        return result
    }

    @Test("appending a few bytes at a time matches a from-scratch highlight at every step", arguments: LanguageSample.all)
    func appendsMatchScratch(sample: LanguageSample) throws {
        try GrammarFixtures.requireGrammar(sample.language)
        let scratch = TreeSitterHighlighter(cacheCapacity: 0)
        let session = HighlightSession(language: sample.language, highlighter: scratch)
        #expect(session.isAvailable)
        var reused = 0
        var steps = 0
        for text in Self.prefixes(of: sample.code, step: 5) {
            let incremental = session.update(code: text)
            let expected = try #require(scratch.highlight(text, language: sample.language))
            if session.reusedPreviousTree { reused += 1 }
            steps += 1
            #expect(incremental == expected, "\(sample.language): differs after \(text.utf8.count) bytes")
            if incremental != expected { break }
        }
        // The previous tree is edited and reused unless it had syntax errors
        // (then the block is parsed afresh: see HighlightSession).
        #expect(reused <= steps - 1)
    }

    @Test("text before the line being typed never flashes back to plain", arguments: ["swift", "python", "kotlin", "rust"])
    func noFlashToPlain(language: String) throws {
        try GrammarFixtures.requireGrammar(language)
        let sample = try #require(LanguageSample.all.first { $0.language == language })
        let session = HighlightSession(language: language)
        var previous: [HighlightSpan] = []
        var previousText = ""
        for text in Self.prefixes(of: sample.code, step: 3) {
            let spans = session.update(code: text)
            // What appended text may still change is the construct being
            // typed (`round(` turns `round` from a variable into a builtin
            // call), but bytes of earlier lines that were highlighted stay
            // highlighted.
            let lastLineStart = previousText.utf8.lastIndex(of: UInt8(ascii: "\n")).map {
                previousText.utf8.distance(from: previousText.utf8.startIndex, to: $0)
            } ?? 0
            for span in previous where span.end <= lastLineStart {
                let now = kinds(in: span.range, spans: spans)
                #expect(!now.contains(nil), "\(language): `\(span)` lost its highlighting after \(text.utf8.count) bytes")
            }
            previous = spans
            previousText = text
        }
    }

    @Test("edits that are not appends (a rewritten or shortened tail) also match a fresh highlight")
    func rewrites() throws {
        try GrammarFixtures.requireGrammar("swift")
        let scratch = TreeSitterHighlighter(cacheCapacity: 0)
        let session = HighlightSession(language: "swift", highlighter: scratch)
        let versions = [
            "let a = 1\nlet b = \"two\"\n",
            "let a = 1\nlet b = \"two\" // note\n",
            "let a = 1\nvar b = [1, 2]\n",  // changed in the middle
            "let a = 1\n",  // shortened
            "func f() {}\nlet a = 1\n",  // changed at the start: parsed from scratch
            "",
            "struct S { let x: Int }\n",
        ]
        for text in versions {
            let spans = session.update(code: text)
            #expect(spans == scratch.highlight(text, language: "swift"), "differs for \(text.debugDescription)")
        }
        // The same text again returns the same spans.
        #expect(session.update(code: versions.last!) == scratch.highlight(versions.last!, language: "swift"))
    }

    @Test("an unknown language gives a session without spans; diff sessions work")
    func unknownAndDiff() {
        let unknown = HighlightSession(language: "klingon")
        #expect(!unknown.isAvailable)
        #expect(unknown.language == nil)
        #expect(unknown.update(code: "qapla'") == [])
        let diff = HighlightSession(language: "patch")
        #expect(diff.isAvailable)
        #expect(diff.update(code: "+a\n") == [HighlightSpan(start: 0, end: 2, kind: .inserted)])
    }

    @Test("a missing grammar directory gives a session without spans")
    func missingGrammar() {
        let session = HighlightSession(
            language: "swift", highlighter: TreeSitterHighlighter(grammarDirectory: "/nonexistent/grammars"))
        #expect(!session.isAvailable)
        #expect(session.update(code: "let x = 1") == [])
    }
}

/// Findings of the `highlight` fuzz target (Fuzz/README.md): a session's
/// spans must equal a fresh highlight of the same text.
@Suite struct FuzzFindingsHighlightTests {
    /// `session-edit`: JavaScript `A_` then `A` kept `constant` for `A`.
    @Test func fuzz_highlight_sessionEditKeepsStaleTokenKind() throws {
        let highlighter = TreeSitterHighlighter()
        try #require(highlighter.supports(language: "javascript"))
        let session = HighlightSession(language: "javascript", highlighter: highlighter)
        _ = session.update(code: "A_")
        #expect(session.update(code: "A") == highlighter.highlight("A", language: "javascript"))
    }

    /// `session-append`: Ruby, an append after an unterminated string kept
    /// tokens the new parse no longer has.
    @Test func fuzz_highlight_sessionAppendKeepsStaleTokens() throws {
        let highlighter = TreeSitterHighlighter()
        try #require(highlighter.supports(language: "ruby"))
        let session = HighlightSession(language: "ruby", highlighter: highlighter)
        _ = session.update(code: "class S a\"z end\n")
        let code = "class S a\"z end\n#@"
        #expect(session.update(code: code) == highlighter.highlight(code, language: "ruby"))
    }
}

extension FuzzFindingsHighlightTests {
    /// `cache-canonical`: the result cache keyed on `String` equality gave
    /// `e` + U+0301 the spans of `é` (one byte shorter).
    @Test func fuzz_highlight_cacheKeysOnBytesNotCanonicalEquivalence() throws {
        let highlighter = TreeSitterHighlighter()
        try #require(highlighter.supports(language: "swift"))
        _ = highlighter.highlight("let s = \"\u{E9}\" // x\n", language: "swift")
        let decomposed = "let s = \"e\u{301}\" // x\n"
        let fresh = TreeSitterHighlighter(cacheCapacity: 1).highlight(decomposed, language: "swift")
        #expect(highlighter.highlight(decomposed, language: "swift") == fresh)
    }
}

extension FuzzFindingsHighlightTests {
    /// `swift-scanner-alloc`: tree-sitter-swift 0.0.1 allocates its scanner
    /// state with `calloc(0, …)` and writes 4 bytes into it. Under the
    /// fuzzer's allocator that overwrote a neighbouring allocation, so a
    /// session update could differ from `highlight()` of the same text
    /// depending on what ran before (Swift `\u{FFFD}…[link] h*#pe…`). The
    /// installer patches the scanner; an unpatched grammar fails here and is
    /// replaced by running scripts/install-grammars.sh again.
    @Test func fuzz_highlight_swiftScannerStateIsAllocated() throws {
        try GrammarFixtures.requireGrammar("swift")
        let version = try String(contentsOfFile: GrammarFixtures.directory + "/swift/VERSION", encoding: .utf8)
        #expect(version.contains("patched:scanner-state-alloc"), "swift/VERSION: \(version)")

        let highlighter = TreeSitterHighlighter(cacheCapacity: 1)
        let code = String(repeating: "\u{FFFD}", count: 40) + String(repeating: "\0", count: 52)
            + "\u{1F}\u{1F}<a1\u{1F}\u{FFFD}[link] h*#pe\0\u{12}(foo\\kbar=>\"\"\n)\n"
        for _ in 0..<20 {
            let session = HighlightSession(language: "swift", highlighter: highlighter)
            for end in [7, 60, code.utf8.count] {
                let text = String(decoding: Array(code.utf8)[..<end], as: UTF8.self)
                #expect(session.update(code: text) == highlighter.highlight(text, language: "swift"))
            }
        }
    }
}

extension FuzzFindingsHighlightTests {
    /// `session-timeout`: tree-sitter-swift 0.0.1 loops in error recovery
    /// (inserting one missing `!` after another at the end of the text) on
    /// `{ b c(d) {\n co` until the parse time limit. The fuzzer compared the
    /// session's kept spans with a fresh highlight that had timed out too.
    /// A timed-out update keeps the spans before the change and says so, and
    /// appends do not parse again until the text has doubled.
    @Test func fuzz_highlight_sessionTimeoutKeepsSpansAndBacksOff() throws {
        try GrammarFixtures.requireGrammar("swift")
        let highlighter = TreeSitterHighlighter(cacheCapacity: 0, parseTimeoutMicros: 200_000)
        let session = HighlightSession(language: "swift", highlighter: highlighter)
        let good = "let x = 1\n"
        let longer = session.update(code: good + "x += 1")
        #expect(longer.contains { $0.start >= good.utf8.count })
        #expect(!session.lastUpdateTimedOut)

        // Timed out: the spans before the first changed byte stay.
        let stuck = good + "{ b c(d) {\n co"
        #expect(highlighter.highlight(stuck, language: "swift") == nil, "no longer times out: pick another input")
        let before = longer.filter { $0.end <= good.utf8.count }
        #expect(!before.isEmpty)
        #expect(session.update(code: stuck) == before)
        #expect(session.lastUpdateTimedOut)
        #expect(session.parsesAttempted == 2)

        // Appends shorter than twice the stuck text keep the spans unparsed.
        var text = stuck
        for piece in ["unt", "\n}", "\n}\n"] {
            text += piece
            #expect(session.update(code: text) == before)
            #expect(session.lastUpdateTimedOut)
        }
        #expect(session.parsesAttempted == 2)

        // Doubled: parsed again, and exact.
        text += String(repeating: "let y = 2\n", count: 3)
        #expect(text.utf8.count >= 2 * stuck.utf8.count)
        let spans = session.update(code: text)
        #expect(session.parsesAttempted == 3)
        #expect(!session.lastUpdateTimedOut)
        #expect(spans == highlighter.highlight(text, language: "swift"))

        // Any edit that is not an append parses at once.
        _ = session.update(code: stuck)
        #expect(session.lastUpdateTimedOut)
        #expect(session.update(code: good) == highlighter.highlight(good, language: "swift"))
        #expect(session.parsesAttempted == 5)
        #expect(!session.lastUpdateTimedOut)
    }
}

extension FuzzFindingsHighlightTests {
    /// The same loop through `highlight`, as a renderer calls it on every
    /// update of a streaming code block: after a text times out, texts that
    /// extend it to less than twice its length give nil without a parse.
    @Test func highlightSkipsTextsGrowingFromOneThatTimedOut() throws {
        try GrammarFixtures.requireGrammar("swift")
        let highlighter = TreeSitterHighlighter(cacheCapacity: 8, parseTimeoutMicros: 200_000)
        let stuck = "let x = 1\n{ b c(d) {\n co"
        #expect(highlighter.highlight(stuck, language: "swift") == nil)
        #expect(highlighter.parseCount.withLock { $0 } == 1)
        for text in [stuck, stuck + "unt", stuck + "unt\n}\n}\n"] {
            #expect(highlighter.highlight(text, language: "swift") == nil)
        }
        #expect(highlighter.parseCount.withLock { $0 } == 1)

        // Other texts, another language and a doubled text parse.
        let other = "let y = 2\n"
        #expect(highlighter.highlight(other, language: "swift") == TreeSitterHighlighter(cacheCapacity: 0).highlight(other, language: "swift"))
        #expect(highlighter.highlight(stuck, language: "kotlin") != nil || !highlighter.supports(language: "kotlin"))
        let doubled = stuck + "unt\n}\n}\n" + String(repeating: "let y = 2\n", count: 3)
        let spans = highlighter.highlight(doubled, language: "swift")
        #expect(spans != nil)
        #expect(spans == TreeSitterHighlighter(cacheCapacity: 0).highlight(doubled, language: "swift"))
    }
}
