import Testing
import Tidemark

@testable import TidemarkHighlight

@Suite("Highlighting each language")
struct LanguageHighlightTests {
    let highlighter = TreeSitterHighlighter.shared

    @Test("sample tokens get their kinds", arguments: LanguageSample.all)
    func sampleTokens(sample: LanguageSample) throws {
        try GrammarFixtures.requireGrammar(sample.language)
        let spans = try #require(
            highlighter.highlight(sample.code, language: sample.language),
            "\(sample.language): the grammar is installed but highlighting returned nil")
        checkSpanInvariants(spans, length: sample.code.utf8.count)
        for expectation in sample.expectations {
            let range = try #require(
                byteRange(of: expectation.token, occurrence: expectation.occurrence, in: sample.code),
                "\(sample.language): sample lacks `\(expectation.token)` #\(expectation.occurrence)")
            let found = kinds(in: range, spans: spans)
            #expect(
                found.allSatisfy { $0 == expectation.kind },
                "\(sample.language): `\(expectation.token)` should be \(expectation.kind), got \(found.map { $0?.rawValue ?? "plain" })"
            )
        }
    }

    @Test("every installed grammar's query compiles without dropping patterns", arguments: LanguageCatalog.treeSitterLanguages)
    func queryCompilesWhole(language: String) throws {
        try GrammarFixtures.requireGrammar(language)
        let grammar = try #require(highlighter.grammar(named: language), "\(language) failed to load")
        #expect(grammar.query.droppedPatternCount == 0, "\(language) dropped \(grammar.query.droppedPatternCount) patterns")
        #expect(grammar.query.patternCount > 0)
    }

    @Test("nothing but plain spans for whitespace, and empty code gives no spans")
    func emptyAndBlank() throws {
        try GrammarFixtures.requireGrammar("python")
        #expect(highlighter.highlight("", language: "python") == [])
        #expect(highlighter.highlight("   \n\n", language: "python") == [])
    }

    @Test(
        "aliases resolve to their language",
        arguments: [
            ("swift", "swift"), ("c", "c"), ("h", "c"),
            ("cpp", "cpp"), ("c++", "cpp"), ("cc", "cpp"), ("cxx", "cpp"), ("hpp", "cpp"),
            ("csharp", "c_sharp"), ("cs", "c_sharp"), ("c#", "c_sharp"), ("c_sharp", "c_sharp"),
            ("python", "python"), ("py", "python"), ("python3", "python"),
            ("javascript", "javascript"), ("js", "javascript"), ("jsx", "javascript"), ("mjs", "javascript"),
            ("node", "javascript"), ("typescript", "typescript"), ("ts", "typescript"), ("tsx", "tsx"),
            ("go", "go"), ("golang", "go"), ("rust", "rust"), ("rs", "rust"), ("java", "java"),
            ("kotlin", "kotlin"), ("kt", "kotlin"), ("kts", "kotlin"), ("ruby", "ruby"), ("rb", "ruby"),
            ("bash", "bash"), ("sh", "bash"), ("shell", "bash"), ("zsh", "bash"), ("sql", "sql"),
            ("yaml", "yaml"), ("yml", "yaml"), ("json", "json"), ("jsonc", "json"),
            ("html", "html"), ("htm", "html"), ("xhtml", "html"), ("css", "css"),
            ("diff", "diff"), ("patch", "diff"),
            ("Swift", "swift"), ("PY", "python"), ("C++", "cpp"), (" js ", "javascript"),
        ])
    func aliases(alias: String, canonical: String) throws {
        #expect(TreeSitterHighlighter.canonicalLanguage(alias) == canonical)
        if canonical != "diff" { try GrammarFixtures.requireGrammar(canonical) }
        let code = "x"
        #expect(highlighter.highlight(code, language: alias) == highlighter.highlight(code, language: canonical))
        #expect(highlighter.highlight(code, language: alias) != nil)
    }

    @Test("unknown languages give nil", arguments: ["", "console", "brainfuck", "text", "plaintext", "swift5", "c--"])
    func unknownLanguage(language: String) {
        #expect(TreeSitterHighlighter.canonicalLanguage(language) == nil)
        #expect(highlighter.highlight("let x = 1", language: language) == nil)
    }

    @Test("installedLanguages lists every installed grammar plus diff")
    func installedLanguages() throws {
        for language in LanguageCatalog.treeSitterLanguages { try GrammarFixtures.requireGrammar(language) }
        #expect(highlighter.installedLanguages() == LanguageCatalog.treeSitterLanguages + ["diff"])
    }

    @Test("offsets are UTF-8 bytes, also after non-ASCII text")
    func utf8Offsets() throws {
        try GrammarFixtures.requireGrammar("python")
        let code = "s = \"héllo 🌊\"  # ñ\nx = 42\n"
        let spans = try #require(highlighter.highlight(code, language: "python"))
        checkSpanInvariants(spans, length: code.utf8.count)
        let number = try #require(byteRange(of: "42", in: code))
        #expect(kinds(in: number, spans: spans).allSatisfy { $0 == .number })
        let string = try #require(byteRange(of: "\"héllo 🌊\"", in: code))
        #expect(kinds(in: string, spans: spans).allSatisfy { $0 == .string })
        let comment = try #require(byteRange(of: "# ñ", in: code))
        #expect(kinds(in: comment, spans: spans).allSatisfy { $0 == .comment })
    }

    @Test("broken code still highlights without trapping", arguments: LanguageCatalog.treeSitterLanguages)
    func brokenCode(language: String) throws {
        try GrammarFixtures.requireGrammar(language)
        let inputs = ["{{{{ ((( \"unterminated", "}}}]]]\0\0\u{1}", String(repeating: "(", count: 2000), "🌊\u{FFFD}\r\n\t"]
        for code in inputs {
            let spans = try #require(highlighter.highlight(code, language: language))
            checkSpanInvariants(spans, length: code.utf8.count)
        }
    }
}
