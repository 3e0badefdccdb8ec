/// What the run-tree renderer does with things a document may contain.
public struct RenderOptions: Sendable, Hashable, Codable {
    /// Which link destinations stay links.
    public var linkPolicy: URLPolicy
    /// Which image sources stay images.
    public var imagePolicy: URLPolicy
    /// Raw HTML: shown as its source text, or dropped.
    public var rawHTML: RawHTMLHandling
    /// Whether footnote definitions nothing refers to are rendered (HTML
    /// output drops them, so the default does too).
    public var includeUnusedFootnotes: Bool
    /// The deepest container nesting the run tree keeps (see
    /// `defaultMaxDepth`).
    public var maxDepth: Int
    /// Bullet glyphs by list depth, repeating when lists nest deeper.
    public var bulletMarkers: [String]

    /// Hostile input nests block quotes and list items 100,000 deep; a tree
    /// that deep overflows the stack of any recursive consumer (JSON
    /// encoding, equality, deallocation, a view hierarchy). So a container
    /// that would sit deeper than `maxDepth` is not built: its child
    /// blocks join the deepest container that is, in source order. A list
    /// counts with its items (it needs two levels) so no item is ever left
    /// without its list. Nothing is lost but the nesting; no reader tells
    /// level 64 from level 65 anyway.
    public static let defaultMaxDepth = 64

    public init(linkPolicy: URLPolicy = .default, imagePolicy: URLPolicy = .default,
                rawHTML: RawHTMLHandling = .show, includeUnusedFootnotes: Bool = false,
                maxDepth: Int = RenderOptions.defaultMaxDepth, bulletMarkers: [String] = ["•", "◦", "▪"]) {
        self.linkPolicy = linkPolicy
        self.imagePolicy = imagePolicy
        self.rawHTML = rawHTML
        self.includeUnusedFootnotes = includeUnusedFootnotes
        self.maxDepth = max(1, maxDepth)
        self.bulletMarkers = bulletMarkers.isEmpty ? ["•"] : bulletMarkers
    }

    public static let `default` = RenderOptions()
}

/// What happens to raw HTML (blocks and inline tags).
public enum RawHTMLHandling: String, Sendable, Hashable, Codable {
    /// Shown as source text: `html` blocks and runs with the `html` trait.
    case show
    /// Left out; inline tags vanish and their content stays.
    case drop
}
