import Testing
import Tidemark
import TidemarkRender

@Suite struct URLPolicyTests {
    static let allowed: [String] = [
        "http://example.com", "https://example.com/a?b#c", "HTTPS://EXAMPLE.COM", "HtTp://x",
        "mailto:someone@example.com", "MAILTO:x@y",
        "/absolute/path", "relative/path", "../up", "#anchor", "?query", "//host/protocol-relative", "",
        "page.html", "a/b:c", "1http://digits-first-is-no-scheme", "+x:y",
        " https://leading-space.example", "\t\nhttps://leading-controls.example",
    ]

    static let refused: [String] = [
        "javascript:alert(1)", "JavaScript:alert(1)", "JAVASCRIPT:alert(1)",
        " javascript:alert(1)", "\u{1}\u{2}javascript:alert(1)", "\u{0}javascript:x",
        "java\tscript:alert(1)", "java\nscript:alert(1)", "jav\r\nascript:alert(1)",
        "vbscript:msgbox", "data:text/html;base64,PHNjcmlwdD4=", "file:///etc/passwd",
        "ftp://example.com", "blob:https://x/y", "about:blank", "x-custom+scheme.v1:thing",
    ]

    @Test(arguments: allowed)
    func allowedByDefault(_ destination: String) {
        #expect(URLPolicy.default.allows(destination))
    }

    @Test(arguments: refused)
    func refusedByDefault(_ destination: String) {
        #expect(!URLPolicy.default.allows(destination))
    }

    @Test(arguments: [
        ("javascript:x", "javascript"), ("  HTTP://x", "http"), ("ja\tva:x", "java"),
        ("a+b-c.d:x", "a+b-c.d"), ("/x:y", nil), ("1a:x", nil), (":x", nil), ("abc", nil),
    ] as [(String, String?)])
    func schemeIsReadLikeABrowser(_ destination: String, _ scheme: String?) {
        #expect(URLPolicy.scheme(of: destination) == scheme)
    }

    @Test func customPolicy() {
        let policy = URLPolicy(allowedSchemes: ["HTTPS", "tel"], allowsRelative: false)
        #expect(policy.allows("https://x"))
        #expect(policy.allows("TEL:+123"))
        #expect(!policy.allows("http://x"))
        #expect(!policy.allows("/relative"))
        #expect(!URLPolicy.none.allows("https://x"))
    }

    @Test func refusedLinkIsPlainTextKeepingItsOtherTraits() {
        let doc = Support.render("[**bold** link](javascript:alert(1)) after")
        let runs = doc.blocks[0].runs
        #expect(runs.map(\.text) == ["bold", " link after"])
        #expect(runs[0].traits == .strong)
        #expect(runs.allSatisfy { $0.link == nil && !$0.traits.contains(.link) })
    }

    @Test func refusedImageIsItsAltText() {
        let doc = Support.render("![alt *text*](javascript:alert(1))")
        #expect(doc.blocks[0].kind == .paragraph)
        #expect(doc.blocks[0].runs.map(\.text) == ["alt text"])
        #expect(doc.blocks[0].runs[0].traits.isEmpty)

        let inline = Support.render("see ![pic](data:image/png;base64,AA) here")
        #expect(Support.text(inline.blocks[0].runs) == "see pic here")
        #expect(inline.blocks[0].runs.allSatisfy { $0.image == nil })
    }

    @Test func linkAndImagePoliciesAreSeparate() {
        let options = RenderOptions(linkPolicy: .default, imagePolicy: .none)
        let doc = Support.render("[a](https://x) ![b](https://y)", options: options)
        let runs = doc.blocks[0].runs
        #expect(runs[0].link == LinkInfo(destination: "https://x"))
        #expect(runs.allSatisfy { $0.image == nil })
    }

    @Test func autolinksFollowThePolicyToo() {
        let doc = Support.render("<https://ok.example> and <javascript:alert(1)>")
        let links = doc.blocks[0].runs.compactMap(\.link)
        #expect(links == [LinkInfo(destination: "https://ok.example")])
    }
}
