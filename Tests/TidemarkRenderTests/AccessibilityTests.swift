import Testing
import Tidemark
import TidemarkRender

@Suite struct AccessibilityTests {
    /// Markdown, and the labels of its blocks depth first.
    static let cases: [(String, [String])] = [
        ("## Title", ["Heading level 2"]),
        ("###### Six", ["Heading level 6"]),
        ("Plain text.", ["paragraph"]),
        ("- a\n- b\n- c", ["list, 3 items", "item 1 of 3", "paragraph", "item 2 of 3", "paragraph",
                           "item 3 of 3", "paragraph"]),
        ("1. one", ["numbered list, 1 item", "item 1 of 1", "paragraph"]),
        ("- [x] done\n- [ ] todo", ["list, 2 items", "item 1 of 2, checked", "paragraph",
                                    "item 2 of 2, unchecked", "paragraph"]),
        ("> quoted", ["quote", "paragraph"]),
        ("> [!NOTE]\n> hi", ["note", "paragraph"]),
        ("> [!CAUTION]\n> hi", ["caution", "paragraph"]),
        ("```swift\n" + String(repeating: "x\n", count: 12) + "```", ["code block, swift, 12 lines"]),
        ("```\nx\n```", ["code block, 1 line"]),
        ("| a | b | c | d |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |\n| 1 | 2 | 3 | 4 |\n| 1 | 2 | 3 | 4 |",
         ["table, 4 columns, 3 rows"]),
        ("| a |\n|---|", ["table, 1 column, 0 rows"]),
        ("$$\nx^2\n$$", ["math: x²"]),
        ("$$\n\\begin{pmatrix}a\\end{pmatrix}\n$$", ["math: \\begin{pmatrix}a\\end{pmatrix}"]),
        ("![A cat on a mat](cat.png)", ["image: A cat on a mat"]),
        ("![](cat.png)", ["image"]),
        ("---", ["separator"]),
        ("x[^1]\n\n[^1]: note", ["paragraph", "footnote 1", "paragraph"]),
        ("<div>\n</div>", ["HTML block, 2 lines"]),
    ]

    @Test(arguments: cases)
    func labels(_ markdown: String, _ expected: [String]) {
        let labels = Support.allBlocks(Support.render(markdown)).map(\.accessibilityLabel)
        #expect(labels == expected)
    }
}
