import Testing
import Tidemark

@testable import TidemarkHighlight

@Suite("Capture names")
struct CaptureNameTests {
    @Test(
        "names map by dotted-prefix fallback",
        arguments: [
            ("keyword", CaptureMeaning.kind(.keyword)),
            ("keyword.conditional.ternary", .kind(.keyword)),
            ("keyword.import", .kind(.keyword)),
            ("include", .kind(.keyword)), ("conditional", .kind(.keyword)), ("repeat", .kind(.keyword)),
            ("media", .kind(.keyword)), ("keyframes", .kind(.keyword)), ("charset", .kind(.keyword)),
            ("supports", .kind(.keyword)),
            ("parameter", .kind(.variable)), ("variable.parameter", .kind(.variable)),
            ("float", .kind(.number)), ("number.float", .kind(.number)),
            ("function.method", .kind(.function)), ("function.method.builtin", .kind(.builtin)),
            ("function.builtin", .kind(.builtin)), ("function.call", .kind(.function)),
            ("string.special.key", .kind(.property)), ("string.escape", .kind(.escape)),
            ("string.special.symbol", .kind(.constant)), ("string.regexp", .kind(.string)),
            ("constructor", .kind(.type)), ("type.builtin", .kind(.type)), ("type.qualifier", .kind(.keyword)),
            ("punctuation.bracket", .kind(.punctuation)), ("delimiter", .kind(.punctuation)),
            ("variable.member", .kind(.property)), ("field", .kind(.property)), ("module", .kind(.namespace)),
            ("tag.error", .kind(.tag)), ("boolean", .kind(.constant)), ("comment.documentation", .kind(.comment)),
            ("none", .plain), ("spell", .ignored), ("embedded", .ignored), ("_name", .ignored),
            ("local.scope", .ignored), ("totally.unknown", .ignored),
        ])
    func meaning(name: String, expected: CaptureMeaning) {
        #expect(CaptureNames.meaning(of: name) == expected)
    }

    @Test("every capture name used by an installed query is understood", arguments: LanguageCatalog.treeSitterLanguages)
    func installedQueriesNames(language: String) throws {
        try GrammarFixtures.requireGrammar(language)
        let source = try String(contentsOfFile: GrammarFixtures.directory + "/\(language)/highlights.scm", encoding: .utf8)
        let known: Set<String> = ["spell", "embedded", "none"]
        var index = source.startIndex
        while let at = source[index...].firstIndex(of: "@") {
            var end = source.index(after: at)
            while end < source.endIndex, source[end].isLetter || source[end] == "." || source[end] == "_" {
                end = source.index(after: end)
            }
            let name = String(source[source.index(after: at)..<end])
            // Skip "@" inside strings such as "@media" or "@" in annotations.
            let before = source[source.startIndex..<at].last
            if !name.isEmpty, before != "\"", !name.hasPrefix("_"), !known.contains(name) {
                #expect(CaptureNames.meaning(of: name) != .ignored, "\(language): @\(name) maps to nothing")
            }
            index = end
        }
    }
}

@Suite("Query source scanning")
struct QuerySourceTests {
    @Test("top-level patterns include their trailing captures")
    func topLevelPatterns() {
        let source = """
            ; a comment with (parens) and "quotes"
            (identifier) @variable
            [ "if" "else" ] @keyword
            ((identifier) @constant
              (#match? @constant "^[A-Z]"))
            "func" @keyword.function
            (call function: (identifier) @f)+ @call
            """
        let bytes = Array(source.utf8)
        let texts = QuerySource.topLevelPatterns(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        #expect(
            texts == [
                "(identifier) @variable",
                "[ \"if\" \"else\" ] @keyword",
                "((identifier) @constant\n  (#match? @constant \"^[A-Z]\"))",
                "\"func\" @keyword.function",
                "(call function: (identifier) @f)+ @call",
            ])
    }

    @Test("capture depth counts enclosing node constraints")
    func captureDepths() {
        func depths(_ text: String) -> [String: Int] { QuerySource.captureDepths(in: Array(text.utf8)) }
        #expect(depths("(identifier) @variable") == ["variable": 1])
        #expect(depths("(call function: (identifier) @function)") == ["function": 2])
        #expect(depths("((identifier) @constant (#match? @constant \"^[A-Z]\"))") == ["constant": 1])
        #expect(depths("(a (b (c) @x)) @y") == ["x": 3, "y": 1])
        #expect(depths("(if_statement \"if\" @keyword [\"(\" \")\"] @punctuation)") == ["keyword": 2, "punctuation": 2])
        #expect(depths("(string \"@\" @at) ; @comment") == ["at": 2])
    }
}

@Suite("Span painting")
struct SpanPainterTests {
    func capture(_ range: Range<UInt32>, _ kind: TokenKind, priority: UInt64 = 0) -> RawCapture {
        RawCapture(start: range.lowerBound, end: range.upperBound, priority: priority, paint: SpanPainter.paint(for: kind))
    }

    @Test("inner captures win over outer ones, which resume after them")
    func innermostWins() {
        let spans = SpanPainter.spans(
            from: [capture(4..<6, .escape), capture(0..<10, .string), capture(12..<14, .number)], length: 16)
        #expect(
            spans == [
                HighlightSpan(start: 0, end: 4, kind: .string),
                HighlightSpan(start: 4, end: 6, kind: .escape),
                HighlightSpan(start: 6, end: 10, kind: .string),
                HighlightSpan(start: 12, end: 14, kind: .number),
            ])
    }

    @Test("for the same range, the higher priority wins regardless of order")
    func priorityBreaksTies() {
        let low = capture(0..<3, .variable, priority: 1)
        let high = capture(0..<3, .function, priority: 9)
        #expect(SpanPainter.spans(from: [low, high], length: 3) == [HighlightSpan(start: 0, end: 3, kind: .function)])
        #expect(SpanPainter.spans(from: [high, low], length: 3) == [HighlightSpan(start: 0, end: 3, kind: .function)])
    }

    @Test("explicit plain punches a hole; a window limits the output")
    func plainAndWindow() {
        let plain = RawCapture(start: 2, end: 5, priority: 0, paint: SpanPainter.explicitPlain)
        let spans = SpanPainter.spans(from: [capture(0..<8, .string), plain, capture(3..<4, .variable)], length: 8)
        #expect(
            spans == [
                HighlightSpan(start: 0, end: 2, kind: .string),
                HighlightSpan(start: 3, end: 4, kind: .variable),
                HighlightSpan(start: 5, end: 8, kind: .string),
            ])
        let window = SpanPainter.spans(from: [capture(0..<8, .string)], length: 8, range: 6..<8)
        #expect(window == [HighlightSpan(start: 6, end: 8, kind: .string)])
    }
}
