import Foundation
import Testing
import Tidemark

@testable import TidemarkHighlight

/// The tests run against the grammars `scripts/install-grammars.sh`
/// installs. A missing grammar is a failed test with instructions, never a
/// skipped one.
enum GrammarFixtures {
    static var directory: String { TreeSitterHighlighter.shared.grammarDirectory }

    static func requireGrammar(_ canonical: String) throws {
        let folder = directory + "/" + canonical
        let files = FileManager.default
        try #require(
            files.fileExists(atPath: folder + "/parser.so") && files.fileExists(atPath: folder + "/highlights.scm"),
            """
            tree-sitter grammar '\(canonical)' is not installed in \(directory). \
            Run scripts/install-grammars.sh first (or set TIDEMARK_GRAMMARS_DIR to an installed grammar directory).
            """)
    }

    /// A scratch directory removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tidemark-highlight-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The byte range of the `occurrence`-th (0-based) appearance of `token` in `code`.
func byteRange(of token: String, occurrence: Int = 0, in code: String) -> Range<Int>? {
    let haystack = Array(code.utf8)
    let needle = Array(token.utf8)
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    var seen = 0
    for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
        if seen == occurrence { return start..<(start + needle.count) }
        seen += 1
    }
    return nil
}

/// The kinds covering each byte of `range` (nil for plain bytes).
func kinds(in range: Range<Int>, spans: [HighlightSpan]) -> [TokenKind?] {
    range.map { byte in spans.first(where: { $0.range.contains(byte) })?.kind }
}

/// Spans must be sorted, non-empty, non-overlapping and inside the text.
func checkSpanInvariants(_ spans: [HighlightSpan], length: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    var previousEnd = 0
    for span in spans {
        #expect(span.start < span.end, "empty span \(span)", sourceLocation: sourceLocation)
        #expect(span.start >= previousEnd, "span \(span) overlaps or is out of order", sourceLocation: sourceLocation)
        #expect(span.end <= length, "span \(span) runs past the text (\(length) bytes)", sourceLocation: sourceLocation)
        previousEnd = span.end
    }
}
