import Testing

@testable import TidemarkHighlight

@Suite("MiniRegex")
struct MiniRegexTests {
    static let cases: [(pattern: String, text: String, matches: Bool)] = [
        ("^[A-Z]", "Foo", true), ("^[A-Z]", "foo", false), ("^[A-Z]", "", false),
        ("^[A-Z][A-Z\\d_]*$", "MAX_LEN2", true), ("^[A-Z][A-Z\\d_]*$", "Max", false),
        ("^_*[A-Z][A-Z\\d_]+$", "__FOO", true), ("^_*[A-Z][A-Z\\d_]+$", "_F", false),
        ("^(abs|all|any)$", "all", true), ("^(abs|all|any)$", "alls", false), ("^(abs|all|any)$", "xall", false),
        ("^--", "--accent", true), ("^--", "-accent", false),
        ("^[a-z][^.]*$", "div", true), ("^[a-z][^.]*$", "Foo.Bar", false), ("^[a-z][^.]*$", "foo.bar", false),
        ("^/[*][*][^*].*[*]/$", "/** doc */", true), ("^/[*][*][^*].*[*]/$", "/*** x */", false),
        ("^///[^/]", "/// doc", true), ("^///[^/]", "//// x", false), ("^///$", "///", true),
        ("[*]", "a*b", true), ("b+c", "aabbbcd", true), ("b+c", "aac", false),
        ("^a{2,3}$", "aa", true), ("^a{2,3}$", "aaaa", false), ("^a{2}b?$", "aab", true), ("x{2,}", "axxx", true),
        ("^[-+]?%d+$", "-42", true), ("^[-+]?%d+$", "4a", false), ("^%a%w*$", "x1", true), ("100%%", "100%", true),
        ("^(?:get|set)[A-Z]", "getValue", true), ("^(?:get|set)[A-Z]", "gets", false),
        ("é.$", "café!", true), ("^.$", "🌊", true), ("^.$", "\n", false), ("\\w+", "ñ", true), ("^\\s*$", "  \t", true),
        ("^$", "", true), ("", "anything", true), ("a|^b", "cb", false), ("a|^b", "bc", true),
        ("[\\]x]", "]", true), ("[a\\-z]", "-", true), ("^[^a-c]", "d", true), ("^[^a-c]", "b", false),
        ("\\.", "a.b", true), ("\\.", "ab", false), ("(a*)*b", String(repeating: "a", count: 5000), false),
    ]

    @Test("matches like a regex engine would", arguments: cases)
    func matching(pattern: String, text: String, matches: Bool) throws {
        let regex = try #require(MiniRegex(pattern), "MiniRegex rejected \(pattern)")
        #expect(regex.matches(text) == matches, "\(pattern) on \(text.debugDescription)")
    }

    @Test("agrees with Swift's Regex on patterns both support", arguments: cases.filter { !$0.pattern.contains("%") && $0.pattern != "(a*)*b" })
    func agreesWithSwiftRegex(pattern: String, text: String, matches: Bool) throws {
        let swift = try Regex(pattern)
        #expect(text.contains(swift) == matches, "Swift Regex disagrees on \(pattern) / \(text.debugDescription)")
    }

    @Test("syntax outside the subset is rejected, so callers fall back", arguments: ["\\bword\\b", "(?<=a)b", "\\1", "[[:alpha:]]", "(unclosed", "a{3,1}", "*a", "\\p{L}"])
    func unsupported(pattern: String) {
        #expect(MiniRegex(pattern) == nil)
    }

    @Test("the matcher falls back to Swift's Regex for syntax MiniRegex rejects")
    func fallback() {
        let matcher = TextMatcher(pattern: "\\bfoo\\b")
        guard case .swift = matcher else {
            Issue.record("expected the Swift Regex fallback")
            return
        }
        let yes = Array("a foo b".utf8)
        let no = Array("afoob".utf8)
        #expect(yes.withUnsafeBufferPointer { matcher.matches($0) })
        #expect(!no.withUnsafeBufferPointer { matcher.matches($0) })
        if case .never = TextMatcher(pattern: "(unclosed") {} else { Issue.record("expected .never") }
    }
}
