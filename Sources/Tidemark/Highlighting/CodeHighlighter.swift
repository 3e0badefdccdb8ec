/// The seam between the renderer and a syntax highlighter.
///
/// The parser core knows nothing about languages; a highlighter (for example
/// `TidemarkHighlight`'s tree-sitter one) turns the literal text of a fenced
/// code block into spans of a small, fixed set of token kinds that themes
/// color. Everything here is plain data so that any module can implement it.

/// A token kind a theme knows how to color. Deliberately small: tree-sitter
/// capture names (`keyword.conditional.ternary`, `string.special.key`, …) are
/// mapped onto it by dotted-prefix fallback.
public enum TokenKind: String, Sendable, Hashable, Codable, CaseIterable {
    case keyword
    case string
    case number
    case comment
    case function
    case type
    case variable
    case constant
    case property
    case `operator`
    case punctuation
    case tag
    case attribute
    case builtin
    case escape
    case label
    case namespace
    /// Diff/patch: an added line.
    case inserted
    /// Diff/patch: a removed line.
    case deleted
    /// Diff/patch headers (`@@ … @@`, `--- a/…`), and other meta information.
    case meta
}

/// A highlighted stretch of a code block: UTF-8 byte offsets into the code
/// text that was highlighted, and its token kind. Spans are sorted, never
/// overlap, and may leave gaps (gaps are plain text).
public struct HighlightSpan: Sendable, Hashable, Codable {
    public var start: Int
    public var end: Int
    public var kind: TokenKind

    public init(start: Int, end: Int, kind: TokenKind) {
        self.start = start
        self.end = end
        self.kind = kind
    }

    public var range: Range<Int> { start..<end }
}

/// Something that can highlight code. Implementations must be thread-safe.
public protocol CodeHighlighter: Sendable {
    /// Spans for `code` in `language` (an info-string word such as `swift`,
    /// `py`, `c++`), or `nil` when the language is unknown or unavailable —
    /// the caller then shows plain code. Never throws, never traps.
    func highlight(_ code: String, language: String) -> [HighlightSpan]?
}
