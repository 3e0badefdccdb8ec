import Foundation
import Tidemark
import TidemarkRender

/// Shared helpers of the render tests.
enum Support {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("Golden")
    static let fixturesDirectory = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func render(_ markdown: String, options: RenderOptions = .default, theme: Theme = .default,
                       highlighter: (any CodeHighlighter)? = nil) -> RenderedDocument {
        RenderedDocument(Document(parsing: markdown), theme: theme, options: options, highlighter: highlighter)
    }

    /// Deterministic JSON: sorted keys, so golden files diff cleanly.
    static func json(_ document: RenderedDocument, styles: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if styles { encoder.userInfo[RunTreeJSON.includeStyles] = true }
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// Runs `body` on a thread with an 8 MB stack — what the main thread of
    /// an app gets — so a recursion that would overflow it crashes the test.
    static func onEightMegabyteStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: body())
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Every block of a document, depth first (containers before their
    /// children).
    static func allBlocks(_ document: RenderedDocument) -> [RenderedBlock] {
        var out: [RenderedBlock] = []
        var stack = Array(document.blocks.reversed())
        while let block = stack.popLast() {
            out.append(block)
            stack.append(contentsOf: block.children.reversed())
        }
        return out
    }

    /// Every run of a block and its descendants, cells and code lines too.
    static func allRuns(_ block: RenderedBlock) -> [Run] {
        switch block.content {
        case .code(let info): return info.lines.flatMap { $0 }
        case .html(let lines): return lines.flatMap { $0 }
        case .table(let info): return info.header.flatMap { $0 } + info.rows.flatMap { $0.flatMap { $0 } }
        default: return block.runs + block.children.flatMap(allRuns)
        }
    }

    /// The text of a block's runs, concatenated.
    static func text(_ runs: [Run]) -> String { runs.map(\.text).joined() }
}

/// A small, deterministic highlighter for tests: keywords from a fixed
/// list, decimal numbers, double-quoted strings and `//` comments.
struct KeywordHighlighter: CodeHighlighter {
    static let keywords: Set<String> = ["let", "var", "func", "return", "if", "else", "print"]
    /// Languages it "knows"; others get `nil`, like a missing grammar.
    static let languages: Set<String> = ["swift", "toy"]

    func highlight(_ code: String, language: String) -> [HighlightSpan]? {
        guard Self.languages.contains(language) else { return nil }
        let bytes = Array(code.utf8)
        var spans: [HighlightSpan] = []
        var i = 0
        func isWord(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || (b >= 0x30 && b <= 0x39)
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "/") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/") {
                var j = i
                while j < bytes.count && bytes[j] != 0x0A { j += 1 }
                spans.append(HighlightSpan(start: i, end: j, kind: .comment))
                i = j
            } else if b == UInt8(ascii: "\"") {
                var j = i + 1
                while j < bytes.count && bytes[j] != UInt8(ascii: "\"") && bytes[j] != 0x0A { j += 1 }
                j = min(j + 1, bytes.count)
                spans.append(HighlightSpan(start: i, end: j, kind: .string))
                i = j
            } else if b >= 0x30 && b <= 0x39 {
                var j = i
                while j < bytes.count && bytes[j] >= 0x30 && bytes[j] <= 0x39 { j += 1 }
                spans.append(HighlightSpan(start: i, end: j, kind: .number))
                i = j
            } else if isWord(b) {
                var j = i
                while j < bytes.count && isWord(bytes[j]) { j += 1 }
                if Self.keywords.contains(String(decoding: bytes[i..<j], as: UTF8.self)) {
                    spans.append(HighlightSpan(start: i, end: j, kind: .keyword))
                }
                i = j
            } else {
                i += 1
            }
        }
        return spans
    }
}

/// Returns whatever spans it was given, to test how bad spans are handled.
struct FixedSpansHighlighter: CodeHighlighter {
    let spans: [HighlightSpan]
    func highlight(_ code: String, language: String) -> [HighlightSpan]? { spans }
}
