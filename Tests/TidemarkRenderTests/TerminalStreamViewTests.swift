import Foundation
import Testing
import Tidemark
import TidemarkRender

/// The live terminal view: streamed in chunks of any size, redrawn after
/// every append, the screen ends exactly as a one-shot print of the whole
/// document leaves it — at any width, and with documents taller than the
/// screen (where the trailing block scrolls away while it grows).
@Suite struct TerminalStreamViewTests {
    struct Size: Sendable, CustomTestStringConvertible {
        var columns: Int
        var rows: Int
        var testDescription: String { "\(columns)x\(rows)" }
    }

    static let sizes = [Size(columns: 80, rows: 50), Size(columns: 20, rows: 12), Size(columns: 33, rows: 6)]

    /// A trailing block far taller than the screen.
    static let longCode = "Intro.\n\n```swift\n"
        + (1...60).map { "let value\($0) = \($0) * 2 // line \($0)" }.joined(separator: "\n") + "\n```\n\nAfter.\n"

    /// A paragraph that becomes a (shorter) table once its delimiter row
    /// arrives, after the output has scrolled.
    static let shrinking = (1...30).map { "Line \($0).\n" }.joined(separator: "\n")
        + "\n| a long header cell | another long header cell | and a third one to wrap |\n|---|---|---|\n| 1 | 2 | 3 |\n"

    static var documents: [(name: String, text: String)] {
        var docs = TerminalWriterTests.documents.enumerated().map { (name: "golden \($0.offset)", text: $0.element) }
        docs.append((name: "long code", text: longCode))
        docs.append((name: "shrinking", text: shrinking))
        return docs
    }

    static func options(_ size: Size) -> TerminalOptions {
        TerminalOptions(width: size.columns, styling: .trueColor)
    }

    /// The screen after printing the whole document at once.
    static func oneShot(_ markdown: String, _ size: Size) -> TerminalEmulator {
        let options = options(size)
        let rendered = RenderedDocument(Document(parsing: markdown), theme: options.theme,
                                        highlighter: KeywordHighlighter())
        var terminal = TerminalEmulator(columns: size.columns, rows: size.rows)
        terminal.write(TerminalWriter(options: options).render(rendered))
        return terminal
    }

    static func chunks(_ bytes: [UInt8], _ size: Int) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min(bytes.count, $0 + size)] }
    }

    @Test("live: the final screen equals a one-shot print", arguments: sizes, [1, 7, 64])
    func live(_ size: Size, _ chunk: Int) {
        for doc in Self.documents {
            let expected = Self.oneShot(doc.text, size)
            var stream = MarkdownStream()
            var view = TerminalStreamView(options: Self.options(size), rows: size.rows,
                                          highlighter: KeywordHighlighter())
            var terminal = TerminalEmulator(columns: size.columns, rows: size.rows)
            for piece in Self.chunks(Array(doc.text.utf8), chunk) {
                view.record(stream.append(bytes: piece))
                terminal.write(view.frame(stream))
            }
            view.record(stream.finish())
            terminal.write(view.frame(stream))
            #expect(terminal.screen == expected.screen, "\(doc.name)")
            #expect(!terminal.autowrapped, "\(doc.name)")
            #expect(terminal.unknown.isEmpty, "\(doc.name): \(terminal.unknown)")
        }
    }

    @Test("live: frames only every few appends (coalesced) end the same")
    func coalesced() {
        let size = Size(columns: 40, rows: 15)
        for doc in Self.documents {
            var stream = MarkdownStream()
            var view = TerminalStreamView(options: Self.options(size), rows: size.rows,
                                          highlighter: KeywordHighlighter())
            var terminal = TerminalEmulator(columns: size.columns, rows: size.rows)
            for (k, piece) in Self.chunks(Array(doc.text.utf8), 3).enumerated() {
                view.record(stream.append(bytes: piece))
                if k % 5 == 0 { terminal.write(view.frame(stream)) }
            }
            view.record(stream.finish())
            terminal.write(view.frame(stream))
            #expect(terminal.screen == Self.oneShot(doc.text, size).screen, "\(doc.name)")
        }
    }

    @Test("live: a resize lays everything out again and shows the end of the document")
    func resize() {
        let doc = Self.documents.first { $0.name == "long code" }!.text
        let before = Size(columns: 60, rows: 20), after = Size(columns: 25, rows: 10)
        var stream = MarkdownStream()
        var view = TerminalStreamView(options: Self.options(before), rows: before.rows,
                                      highlighter: KeywordHighlighter())
        var terminal = TerminalEmulator(columns: after.columns, rows: after.rows)
        let pieces = Self.chunks(Array(doc.utf8), 11)
        for (k, piece) in pieces.enumerated() {
            view.record(stream.append(bytes: piece))
            if k == pieces.count / 2 {
                // The new terminal starts from whatever the old one showed.
                terminal.write(view.resize(stream, width: after.columns, rows: after.rows))
            } else if k > pieces.count / 2 {
                terminal.write(view.frame(stream))
            }
        }
        view.record(stream.finish())
        terminal.write(view.frame(stream))
        #expect(terminal.screen == Self.oneShot(doc, after).screen)
    }

    @Test("settled: each block written once, together the one-shot output")
    func settled() {
        for doc in Self.documents {
            let options = TerminalOptions(width: 50, styling: .plain)
            let rendered = RenderedDocument(Document(parsing: doc.text), theme: options.theme,
                                            highlighter: KeywordHighlighter())
            let expected = TerminalWriter(options: options).render(rendered)
            var stream = MarkdownStream()
            var view = TerminalStreamView(options: options, rows: 24, highlighter: KeywordHighlighter())
            var out = ""
            var writes = 0
            for piece in Self.chunks(Array(doc.text.utf8), 5) {
                stream.append(bytes: piece)
                let text = view.settledText(stream)
                if !text.isEmpty { writes += 1 }
                out += text
            }
            stream.finish()
            out += view.settledText(stream)
            // Settled blocks are final except that a definition arriving
            // later can still change them; these documents have none after
            // their use.
            if !doc.text.contains("]: ") {
                #expect(out == expected, "\(doc.name)")
            }
            #expect(out.count == expected.count || doc.text.contains("]: "), "\(doc.name)")
            #expect(view.settledText(stream) == "")
        }
    }

    @Test("the screen model rewrites from the first changed line, never above the screen")
    func screenModel() {
        var screen = TerminalLiveScreen(rows: 5)
        #expect(screen.update(to: ["a", "b"]) == "a\nb\n")
        #expect(screen.update(to: ["a", "b"]) == "")
        #expect(screen.update(to: ["a", "b", "c"]) == "c\n")
        #expect(screen.update(to: ["a", "B", "c"]) == "\r\u{1B}[2A\u{1B}[JB\nc\n")
        // Seven lines on a five-row screen: the first three scroll away.
        _ = screen.update(to: ["a", "B", "c", "d", "e", "f", "g"])
        #expect(screen.top == 3)
        // A change above the screen cannot be shown; the cursor goes up at
        // most to the screen's first row.
        #expect(screen.update(to: ["X", "B", "c", "d", "e", "f", "g2"]) == "\r\u{1B}[1A\u{1B}[Jg2\n")
        // Shrinking after scrolling writes the last screenful again.
        #expect(screen.update(to: ["a", "b", "c", "d", "e"]) == "\r\u{1B}[4A\u{1B}[Jb\nc\nd\ne\n")
        #expect(screen.top == 1)
    }
}
