import Testing
@testable import Tidemark

/// A table cell, or a paragraph or heading of one short line, that is all
/// plain words becomes one text node without an inline parse
/// (`PlainText.isInertRun`). These inputs sit on the edge of that rule:
/// each must render as a full inline parse renders it (the expected HTML is
/// cmark-gfm 0.29's for the same input), batch and streamed byte by byte.
@Suite struct PlainLeafTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let markdown: String
        let html: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "cells: autolinks, openers without closers, entities without a semicolon, non-ASCII, trailing spaces",
             markdown: """
            | a | b |
            |---|---|
            | www.example.com | see http://a.bc/d |
            | x//y | ftp://files.example.org |
            | &copy | a < b & c |
            | [not a link | !bang |
            | café crème | WWW.EXAMPLE.COM |
            | a  | trailing spaces   |

            """, html: """
            <table>
            <thead>
            <tr>
            <th>a</th>
            <th>b</th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td><a href="http://www.example.com">www.example.com</a></td>
            <td>see <a href="http://a.bc/d">http://a.bc/d</a></td>
            </tr>
            <tr>
            <td>x//y</td>
            <td><a href="ftp://files.example.org">ftp://files.example.org</a></td>
            </tr>
            <tr>
            <td>&amp;copy</td>
            <td>a &lt; b &amp; c</td>
            </tr>
            <tr>
            <td>[not a link</td>
            <td>!bang</td>
            </tr>
            <tr>
            <td>café crème</td>
            <td>WWW.EXAMPLE.COM</td>
            </tr>
            <tr>
            <td>a</td>
            <td>trailing spaces</td>
            </tr>
            </tbody>
            </table>

            """),
        Case(name: "headings and paragraphs of one line", markdown: """
            # www.example.com

            ## Step 1: Install the tools

            ### http://a.bc

            plain words with [a bracket

            see www.commonmark.org/help now

            two slashes a//b here

            WWW.UPPER.COM

            """, html: """
            <h1><a href="http://www.example.com">www.example.com</a></h1>
            <h2>Step 1: Install the tools</h2>
            <h3><a href="http://a.bc">http://a.bc</a></h3>
            <p>plain words with [a bracket</p>
            <p>see <a href="http://www.commonmark.org/help">www.commonmark.org/help</a> now</p>
            <p>two slashes a//b here</p>
            <p>WWW.UPPER.COM</p>

            """),
        Case(name: "a reference in a cell and a heading", markdown: """
            # [foo]

            | a |
            |---|
            | [foo] |

            [foo]: /url

            """, html: """
            <h1><a href="/url">foo</a></h1>
            <table>
            <thead>
            <tr>
            <th>a</th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td><a href="/url">foo</a></td>
            </tr>
            </tbody>
            </table>

            """),
    ]

    @Test(arguments: cases)
    func rendersAsAFullParseDoes(_ c: Case) {
        #expect(Document(parsing: c.markdown).html() == c.html)
    }

    @Test(arguments: cases)
    func streamedByteByByteEqualsTheBatchParse(_ c: Case) {
        var stream = MarkdownStream()
        var soFar: [UInt8] = []
        for b in Array(c.markdown.utf8) {
            soFar.append(b)
            let update = stream.append(bytes: [b])
            #expect(update.document == Document(parsing: soFar), "after \(soFar.count) bytes")
        }
        #expect(stream.finish().document.html() == c.html)
    }

    @Test func aPlainCellIsOneTextNodeOverItsContent() {
        let d = Document(parsing: "| h |\n|---|\n| two words |\n")
        let texts = (0..<d.nodeCount).map { d.node(at: $0) }.filter { $0.kind == .text }
        #expect(texts.map(\.literal) == ["h", "two words"])
        #expect(texts.last?.range == 14..<23)
    }
}
