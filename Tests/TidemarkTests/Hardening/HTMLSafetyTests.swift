import Foundation
import Testing
@testable import Tidemark

/// Safe mode (the default `HTMLOptions()`) must not let script through:
/// no raw HTML, no script-capable URL however it is disguised, no way out
/// of an attribute. Our own test set; every case also goes through the
/// general check `Hardening.safetyProblems` (tags in the renderer's shape,
/// no `on…` attribute, no dangerous `href`/`src` as a browser decodes it).
@Suite("Hardening: HTML safety")
struct HTMLSafetyTests {
    static func html(_ markdown: String, _ options: ParseOptions = .default, unsafe: Bool = false) -> String {
        Document(parsing: markdown, options: options).html(HTMLOptions(unsafe: unsafe))
    }

    static func expectSafe(_ html: String, _ context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let problems = Hardening.safetyProblems(in: html)
        #expect(problems.isEmpty, "\(context): \(problems)", sourceLocation: sourceLocation)
    }

    // MARK: Dangerous URLs

    /// Disguises of `javascript:alert(1)` (and friends) in a destination.
    static let dangerousDestinations: [String] = [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "JAVASCRIPT:alert(1)",
        "&#106;avascript:alert(1)",
        "&#x6A;avascript:alert(1)",
        "&#X6a;avascript:alert(1)",
        "jav&#x61;script:alert(1)",
        "javascript&colon;alert(1)",
        "javascript&#58;alert(1)",
        "javascript&#x3A;alert(1)",
        "java&#9;script:alert(1)",
        "java&Tab;script:alert(1)",
        "java&#10;script:alert(1)",
        "java&NewLine;script:alert(1)",
        "java&#13;script:alert(1)",
        "&#9;javascript:alert(1)",
        "&#1;javascript:alert(1)",
        "&#32;javascript:alert(1)",
        "&#x1F;javascript:alert(1)",
        "vbscript:msgbox(1)",
        "VBScript:msgbox(1)",
        "file:///etc/passwd",
        "FILE:///etc/passwd",
        "data:text/html,%3Cscript%3Ealert(1)%3C/script%3E",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "DATA:text/html,x",
        "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
        "data:application/javascript,alert(1)",
    ]

    @Test("dangerous destinations are dropped in inline links", arguments: dangerousDestinations)
    func inlineLink(_ destination: String) {
        let out = Self.html("[a](<\(destination)>)")
        #expect(out == "<p><a href=\"\">a</a></p>\n", "\(destination)")
        Self.expectSafe(out, destination)
        let bare = Self.html("[a](\(destination))")
        Self.expectSafe(bare, destination)
    }

    @Test("dangerous destinations are dropped in images", arguments: dangerousDestinations)
    func image(_ destination: String) {
        let out = Self.html("![a](<\(destination)>)")
        #expect(out == "<p><img src=\"\" alt=\"a\" /></p>\n", "\(destination)")
        Self.expectSafe(out, destination)
    }

    @Test("dangerous destinations are dropped in reference definitions", arguments: dangerousDestinations)
    func referenceDefinition(_ destination: String) {
        let out = Self.html("[a] ![b][a]\n\n[a]: <\(destination)> \"t\"\n")
        #expect(out == "<p><a href=\"\" title=\"t\">a</a> <img src=\"\" alt=\"b\" title=\"t\" /></p>\n", "\(destination)")
        Self.expectSafe(out, destination)
    }

    /// Autolinks take no entities and no spaces, so only the plain and
    /// case disguises can be autolinks at all; the rest must stay text.
    @Test("dangerous autolinks", arguments: [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", "vbscript:msgbox(1)", "file:///etc/passwd",
        "data:text/html,x", "DATA:text/html;base64,PHNjcmlwdD4=",
        "&#106;avascript:alert(1)", "javascript&colon;alert(1)",
    ])
    func autolink(_ url: String) {
        for options in [ParseOptions.commonmark, .default] {
            let out = Self.html("<\(url)>", options)
            Self.expectSafe(out, url)
            #expect(Hardening.urls(in: out).allSatisfy { !Hardening.isDangerousURL($0) }, "\(url)")
        }
        #expect(Self.html("<javascript:alert(1)>") == "<p><a href=\"\">javascript:alert(1)</a></p>\n")
    }

    @Test("safe URLs are kept: image data URLs, http, mailto, relative")
    func safeURLs() {
        #expect(Self.html("![p](data:image/png;base64,iVBORw0KGgo=)")
                == "<p><img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"p\" /></p>\n")
        #expect(Self.html("![g](data:image/gif;base64,R0lGOD==)")
                == "<p><img src=\"data:image/gif;base64,R0lGOD==\" alt=\"g\" /></p>\n")
        #expect(Self.html("![j](data:image/jpeg;base64,/9j/4AAQ)")
                == "<p><img src=\"data:image/jpeg;base64,/9j/4AAQ\" alt=\"j\" /></p>\n")
        #expect(Self.html("![w](DATA:image/webp;base64,UklGR)")
                == "<p><img src=\"DATA:image/webp;base64,UklGR\" alt=\"w\" /></p>\n")
        #expect(Self.html("[h](https://example.com/a?b=c&d=e)")
                == "<p><a href=\"https://example.com/a?b=c&amp;d=e\">h</a></p>\n")
        #expect(Self.html("<mailto:a@b.c>") == "<p><a href=\"mailto:a@b.c\">mailto:a@b.c</a></p>\n")
        #expect(Self.html("[r](/javascript:x)") == "<p><a href=\"/javascript:x\">r</a></p>\n")
        #expect(Self.html("[r](javascript/x)") == "<p><a href=\"javascript/x\">r</a></p>\n")
    }

    @Test("unsafe mode lets dangerous URLs through, escaped")
    func unsafeURLs() {
        #expect(Self.html("[a](javascript:alert(1))", unsafe: true)
                == "<p><a href=\"javascript:alert(1)\">a</a></p>\n")
    }

    // MARK: Raw HTML

    static let rawHTML: [String] = [
        "<script>alert(1)</script>",
        "<SCRIPT SRC=//x.example/x.js></SCRIPT>",
        "<img src=x onerror=alert(1)>",
        "<IMG SRC=x ONERROR=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<svg onload=alert(1)>",
        "<svg><script>alert(1)</script></svg>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href='javascript:alert(1)'>x</a>",
        "<style>body{background:url(javascript:alert(1))}</style>",
        "<object data=\"javascript:alert(1)\"></object>",
        "<embed src=\"javascript:alert(1)\">",
        "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
        "<form action=\"javascript:alert(1)\"><button>x</button></form>",
        "<body onload=alert(1)>",
        "<details open ontoggle=alert(1)>",
        "<div style=\"x:expression(alert(1))\">x</div>",
        "<textarea><script>alert(1)</script></textarea>",
        "<!-- <script>alert(1)</script> -->",
        "<?php echo 1; ?>",
        "<![CDATA[<script>alert(1)</script>]]>",
        "<!DOCTYPE html>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
        "<base href=\"javascript:alert(1)//\">",
        "<link rel=import href=x>",
        "</script><script>alert(1)</script>",
    ]

    @Test("raw HTML blocks become a comment in safe mode", arguments: rawHTML)
    func rawHTMLBlock(_ raw: String) {
        for options in [ParseOptions.commonmark, .default] {
            let out = Self.html(raw + "\n", options)
            Self.expectSafe(out, raw)
            #expect(out.contains("<!-- raw HTML omitted -->") || out.hasPrefix("<p>"), "\(raw) → \(out)")
            #expect(!out.lowercased().contains("<script"), "\(raw) → \(out)")
        }
    }

    @Test("inline raw HTML becomes a comment in safe mode", arguments: rawHTML)
    func rawHTMLInline(_ raw: String) {
        for options in [ParseOptions.commonmark, .default] {
            let out = Self.html("text " + raw + " text\n", options)
            Self.expectSafe(out, raw)
            #expect(!out.lowercased().contains("<script"), "\(raw) → \(out)")
            #expect(!out.contains("onerror=alert") && !out.contains("onload=alert"), "\(raw) → \(out)")
        }
    }

    @Test("the documented safe-mode output of raw HTML")
    func rawHTMLExactOutput() {
        #expect(Self.html("<script>alert(1)</script>\n") == "<!-- raw HTML omitted -->\n")
        #expect(Self.html("<div onclick=\"alert(1)\">\nx\n</div>\n") == "<!-- raw HTML omitted -->\n")
        #expect(Self.html("a <img src=x onerror=alert(1)> b")
                == "<p>a <!-- raw HTML omitted --> b</p>\n")
        #expect(Self.html("a <a href=\"javascript:alert(1)\">x</a> b")
                == "<p>a <!-- raw HTML omitted -->x<!-- raw HTML omitted --> b</p>\n")
        #expect(Self.html("a <svg onload=alert(1)> b") == "<p>a <!-- raw HTML omitted --> b</p>\n")
    }

    @Test("unsafe mode passes raw HTML through; the GFM tag filter still escapes <script>")
    func unsafeRawHTML() {
        #expect(Self.html("<script>alert(1)</script>\n", .commonmark, unsafe: true) == "<script>alert(1)</script>\n")
        #expect(Self.html("a <img src=x onerror=alert(1)> b", .commonmark, unsafe: true)
                == "<p>a <img src=x onerror=alert(1)> b</p>\n")
        #expect(Self.html("<script>alert(1)</script>\n", [.tagfilter], unsafe: true)
                == "&lt;script>alert(1)&lt;/script>\n")
        #expect(Self.html("a <iframe src=x> b", [.tagfilter], unsafe: true) == "<p>a &lt;iframe src=x> b</p>\n")
    }

    // MARK: Attribute injection

    static let injections: [(markdown: String, html: String)] = [
        ("[a](/u \"x\\\" onmouseover=\\\"alert(1)\")",
         "<p><a href=\"/u\" title=\"x&quot; onmouseover=&quot;alert(1)\">a</a></p>\n"),
        ("[a](/u 'x\" onmouseover=\"alert(1)')",
         "<p><a href=\"/u\" title=\"x&quot; onmouseover=&quot;alert(1)\">a</a></p>\n"),
        ("[a](/u (x\" onmouseover=\"alert\\(1\\)))",
         "<p><a href=\"/u\" title=\"x&quot; onmouseover=&quot;alert(1)\">a</a></p>\n"),
        ("![a](/u \"x&quot; onerror=&quot;alert(1)\")",
         "<p><img src=\"/u\" alt=\"a\" title=\"x&quot; onerror=&quot;alert(1)\" /></p>\n"),
        ("[a][r]\n\n[r]: /u \"x\\\" onmouseover=\\\"alert(1)\"",
         "<p><a href=\"/u\" title=\"x&quot; onmouseover=&quot;alert(1)\">a</a></p>\n"),
        ("[a](<x\" onmouseover=\"alert(1)>)",
         "<p><a href=\"x%22%20onmouseover=%22alert(1)\">a</a></p>\n"),
        ("![x\" onerror=\"alert(1)](/u)",
         "<p><img src=\"/u\" alt=\"x&quot; onerror=&quot;alert(1)\" /></p>\n"),
        ("<http://a\"onmouseover=\"alert(1)>",
         "<p><a href=\"http://a%22onmouseover=%22alert(1)\">http://a&quot;onmouseover=&quot;alert(1)</a></p>\n"),
        ("[a](/u'onmouseover='alert(1))",
         "<p><a href=\"/u&#x27;onmouseover=&#x27;alert(1)\">a</a></p>\n"),
        ("```x\" onmouseover=\"alert(1)\ncode\n```",
         "<pre><code class=\"language-x&quot;\">code\n</code></pre>\n"),
        ("[a](/u \"</a><script>alert(1)</script>\")",
         "<p><a href=\"/u\" title=\"&lt;/a&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">a</a></p>\n"),
    ]

    @Test("attribute injection stays inside an escaped attribute", arguments: 0..<injections.count)
    func attributeInjection(_ index: Int) {
        let c = Self.injections[index]
        let out = Self.html(c.markdown)
        #expect(out == c.html, "\(c.markdown)")
        Self.expectSafe(out, c.markdown)
    }

    // MARK: All at once

    @Test("every case of this suite in one document, every option set")
    func everythingTogether() {
        var parts: [String] = []
        for d in Self.dangerousDestinations {
            parts.append("[a](<\(d)>) ![b](<\(d)>) [c][\(parts.count)]\n\n[\(parts.count)]: <\(d)>")
        }
        parts += Self.rawHTML
        parts += Self.rawHTML.map { "inline \($0) inline" }
        parts += Self.injections.map(\.markdown)
        let markdown = parts.joined(separator: "\n\n")
        for raw in [0, 0xFF, 0x7F, 0x10, 0x18] {
            let options = ParseOptions(rawValue: UInt32(raw))
            for html in [HTMLOptions(), HTMLOptions(sourcepos: true), HTMLOptions(softBreak: .hardBreak)] {
                let out = Document(parsing: markdown, options: options).html(html)
                Self.expectSafe(out, "options \(raw)")
                #expect(!out.lowercased().contains("<script"))
            }
        }
    }
}
