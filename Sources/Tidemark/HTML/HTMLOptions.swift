/// How a soft line break is written in HTML.
public enum SoftBreakStyle: String, Sendable, Hashable, Codable {
    /// A newline, as cmark does by default.
    case newline
    /// A space (cmark's `--nobreaks`).
    case space
    /// `<br />` and a newline (cmark's `--hardbreaks`).
    case hardBreak
}

/// Options of the HTML renderer.
public struct HTMLOptions: Sendable, Hashable, Codable {
    /// Let raw HTML and dangerous URLs through. Off by default: raw HTML
    /// becomes `<!-- raw HTML omitted -->` and `javascript:`, `vbscript:`,
    /// `file:` and non-image `data:` destinations become empty.
    public var unsafe: Bool
    /// Add `data-sourcepos="line:col-line:col"` to block elements, like cmark.
    public var sourcepos: Bool
    /// How soft line breaks are written.
    public var softBreak: SoftBreakStyle

    public init(unsafe: Bool = false, sourcepos: Bool = false, softBreak: SoftBreakStyle = .newline) {
        self.unsafe = unsafe
        self.sourcepos = sourcepos
        self.softBreak = softBreak
    }
}
