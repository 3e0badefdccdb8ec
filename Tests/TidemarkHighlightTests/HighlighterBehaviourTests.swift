import Foundation
import Testing
import Tidemark

@testable import TidemarkHighlight

@Suite("Highlighter behaviour")
struct HighlighterBehaviourTests {
    @Test("the result cache returns identical results and stays bounded")
    func cacheIsBounded() throws {
        try GrammarFixtures.requireGrammar("python")
        let highlighter = TreeSitterHighlighter(cacheCapacity: 8)
        let code = "def f(x):\n    return x + 1  # one\n"
        let first = try #require(highlighter.highlight(code, language: "python"))
        #expect(highlighter.cache.count == 1)
        // An alias shares the canonical language's entry.
        #expect(highlighter.highlight(code, language: "py") == first)
        #expect(highlighter.cache.count == 1)
        for index in 0..<50 {
            let other = "value_\(index) = \(index)\n"
            let spans = try #require(highlighter.highlight(other, language: "python"))
            #expect(highlighter.highlight(other, language: "python") == spans)
            #expect(highlighter.cache.count <= 8)
        }
        #expect(highlighter.cache.count == 8)
        // The evicted entry is recomputed identically.
        #expect(highlighter.highlight(code, language: "python") == first)
    }

    @Test("the cache evicts the least recently used entry")
    func cacheIsLRU() {
        let cache = ResultCache(capacity: 2)
        let a = ResultCache.Key(language: "x", code: Array("a".utf8))
        let b = ResultCache.Key(language: "x", code: Array("b".utf8))
        let c = ResultCache.Key(language: "x", code: Array("c".utf8))
        let spans = [HighlightSpan(start: 0, end: 1, kind: .keyword)]
        cache.insert(spans, for: a)
        cache.insert([], for: b)
        #expect(cache.value(for: a) == spans)  // a is now more recent than b
        cache.insert([], for: c)
        #expect(cache.value(for: b) == nil)
        #expect(cache.value(for: a) == spans)
        #expect(cache.value(for: c) == [])
        #expect(cache.count == 2)
    }

    @Test("a cache of capacity zero stores nothing")
    func cacheDisabled() throws {
        try GrammarFixtures.requireGrammar("json")
        let highlighter = TreeSitterHighlighter(cacheCapacity: 0)
        #expect(highlighter.highlight("[1, 2]", language: "json") != nil)
        #expect(highlighter.cache.count == 0)
    }

    @Test("many tasks highlighting at once get the single-threaded results")
    func concurrentHighlighting() async throws {
        for sample in LanguageSample.all { try GrammarFixtures.requireGrammar(sample.language) }
        // No cache, so every task really parses and queries.
        let highlighter = TreeSitterHighlighter(cacheCapacity: 0)
        let samples = LanguageSample.all
        var expected: [String: [HighlightSpan]] = [:]
        for sample in samples {
            expected[sample.language] = highlighter.highlight(sample.code, language: sample.language)
        }
        let results = await withTaskGroup(of: (String, [HighlightSpan]?).self) { group in
            for round in 0..<4 {
                for sample in samples.shuffled() {
                    group.addTask {
                        // Vary the alias so lookups go through different paths.
                        let language = round % 2 == 0 ? sample.language : sample.language.uppercased()
                        return (sample.language, highlighter.highlight(sample.code, language: language))
                    }
                }
            }
            var collected: [(String, [HighlightSpan]?)] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == samples.count * 4)
        for (language, spans) in results {
            #expect(spans != nil && spans == expected[language], "\(language) differs under concurrency")
        }
    }

    @Test("first use of a language from many tasks at once loads it once")
    func concurrentFirstUse() async throws {
        try GrammarFixtures.requireGrammar("go")
        let highlighter = TreeSitterHighlighter(cacheCapacity: 0)
        let code = "package main\nfunc main() { println(1) }\n"
        let results = await withTaskGroup(of: [HighlightSpan]?.self) { group in
            for _ in 0..<16 { group.addTask { highlighter.highlight(code, language: "go") } }
            var collected: [[HighlightSpan]?] = []
            for await result in group { collected.append(result) }
            return collected
        }
        let first = try #require(results.first ?? nil)
        #expect(results.allSatisfy { $0 == first })
    }

    @Test("a missing grammar directory gives plain code (nil), and diff still works")
    func missingDirectory() {
        let highlighter = TreeSitterHighlighter(grammarDirectory: "/nonexistent/tidemark-grammars")
        #expect(highlighter.highlight("let x = 1", language: "swift") == nil)
        #expect(highlighter.highlight("let x = 1", language: "swift") == nil)  // the failure is remembered
        #expect(highlighter.installedLanguages() == ["diff"])
        #expect(highlighter.highlight("+a\n-b\n", language: "diff")?.count == 2)
        #expect(!highlighter.supports(language: "swift"))
        #expect(highlighter.supports(language: "patch"))
    }

    @Test("a corrupt parser.so or a missing query gives nil, not a crash")
    func corruptGrammarFiles() throws {
        let directory = try GrammarFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("json")
        try FileManager.default.createDirectory(at: json, withIntermediateDirectories: true)
        try Data("not an ELF file".utf8).write(to: json.appendingPathComponent("parser.so"))
        try Data("(number) @number".utf8).write(to: json.appendingPathComponent("highlights.scm"))
        let css = directory.appendingPathComponent("css")
        try FileManager.default.createDirectory(at: css, withIntermediateDirectories: true)
        try Data().write(to: css.appendingPathComponent("parser.so"))  // and no highlights.scm
        let highlighter = TreeSitterHighlighter(grammarDirectory: directory.path)
        #expect(highlighter.highlight("[1]", language: "json") == nil)
        #expect(highlighter.highlight("a { }", language: "css") == nil)
        #expect(highlighter.installedLanguages() == ["json", "diff"])
    }

    @Test("a query with a stale pattern loses only that pattern; a malformed one gives nil")
    func queryFallback() throws {
        try GrammarFixtures.requireGrammar("json")
        let directory = try GrammarFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func install(query: String, as name: String) throws {
            _ = name
            let json = directory.appendingPathComponent("json")
            try? FileManager.default.removeItem(at: json)
            try FileManager.default.createDirectory(at: json, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: GrammarFixtures.directory + "/json/parser.so", toPath: json.appendingPathComponent("parser.so").path)
            try Data(query.utf8).write(to: json.appendingPathComponent("highlights.scm"))
        }

        try install(
            query: """
                (string) @string
                ; a node type this grammar does not have
                (no_such_node (string) @keyword)
                [(true) (false)] @boolean
                (pair key: (_) @property no_such_field: (number))
                (number) @number
                """, as: "stale")
        let stale = TreeSitterHighlighter(grammarDirectory: directory.path)
        let code = #"{"a": 1, "b": true}"#
        let spans = try #require(stale.highlight(code, language: "json"))
        #expect(kinds(in: try #require(byteRange(of: "1", in: code)), spans: spans) == [.number])
        #expect(kinds(in: try #require(byteRange(of: "true", in: code)), spans: spans).allSatisfy { $0 == .constant })
        #expect(kinds(in: try #require(byteRange(of: "\"b\"", in: code)), spans: spans).allSatisfy { $0 == .string })
        #expect(stale.grammar(named: "json")?.query.droppedPatternCount == 2)

        try install(query: "((string) @string", as: "malformed")
        let malformed = TreeSitterHighlighter(grammarDirectory: directory.path)
        #expect(malformed.highlight(code, language: "json") == nil)
    }

    @Test("preloading loads grammars up front and ignores unknown names")
    func preload() throws {
        try GrammarFixtures.requireGrammar("go")
        let highlighter = TreeSitterHighlighter(cacheCapacity: 0)
        highlighter.preload(["golang", "no-such-language", "diff"])
        let slots = highlighter.grammarSlotNames()
        #expect(slots == ["go"])
        #expect(highlighter.highlight("package main", language: "go") != nil)
    }

    @Test("oversized input is left plain")
    func oversizedInput() throws {
        try GrammarFixtures.requireGrammar("json")
        let highlighter = TreeSitterHighlighter(maxInputBytes: 1000)
        #expect(highlighter.highlight(String(repeating: "1,", count: 400), language: "json") != nil)
        #expect(highlighter.highlight(String(repeating: "1,", count: 600), language: "json") == nil)
    }

    @Test("a parse that exceeds the time limit gives nil")
    func parseTimeout() throws {
        try GrammarFixtures.requireGrammar("cpp")
        // One microsecond is not enough to parse a few hundred KB of C++.
        let highlighter = TreeSitterHighlighter(cacheCapacity: 0, parseTimeoutMicros: 1)
        let code = String(repeating: "int f(int a) { return a * 2 + g(a, \"s\"); }\n", count: 5000)
        #expect(highlighter.highlight(code, language: "cpp") == nil)
    }

    @Test("spans of a large input stay consistent")
    func largeInput() throws {
        try GrammarFixtures.requireGrammar("swift")
        let sample = try #require(LanguageSample.all.first { $0.language == "swift" })
        let code = String(repeating: sample.code, count: 60)
        let spans = try #require(TreeSitterHighlighter.shared.highlight(code, language: "swift"))
        checkSpanInvariants(spans, length: code.utf8.count)
        let single = try #require(TreeSitterHighlighter.shared.highlight(sample.code, language: "swift"))
        #expect(spans.count >= single.count * 59)
    }
}
