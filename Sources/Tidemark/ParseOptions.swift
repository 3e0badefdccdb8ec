/// Which extensions of CommonMark the parser recognizes.
///
/// `.commonmark` is plain CommonMark 0.31.2; `.default` switches on every
/// extension, which is what language-model output uses.
public struct ParseOptions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// GFM tables.
    public static let table = ParseOptions(rawValue: 1 << 0)
    /// GFM strikethrough, `~~text~~` and `~text~`.
    public static let strikethrough = ParseOptions(rawValue: 1 << 1)
    /// GFM task list items, `- [ ]` and `- [x]`.
    public static let tasklist = ParseOptions(rawValue: 1 << 2)
    /// GFM extended autolinks: `www.`, `http(s)://` and e-mail addresses.
    public static let autolink = ParseOptions(rawValue: 1 << 3)
    /// GFM tag filter: `<script>`, `<iframe>`, … are escaped in HTML output.
    public static let tagfilter = ParseOptions(rawValue: 1 << 4)
    /// Footnotes, `[^label]` and `[^label]: text`, rendered like cmark-gfm.
    public static let footnotes = ParseOptions(rawValue: 1 << 5)
    /// GitHub alerts, `> [!NOTE]` and friends.
    public static let alerts = ParseOptions(rawValue: 1 << 6)
    /// Math: `$…$`, `$$…$$`, `\(…\)`, `\[…\]` and fenced `math`.
    public static let math = ParseOptions(rawValue: 1 << 7)

    /// Plain CommonMark 0.31.2: no extension.
    public static let commonmark: ParseOptions = []
    /// Every extension.
    public static let `default`: ParseOptions = [
        .table, .strikethrough, .tasklist, .autolink, .tagfilter, .footnotes, .alerts, .math,
    ]

    /// The extension names the CLI accepts, in a fixed order.
    public static let extensionNames: [(name: String, option: ParseOptions)] = [
        ("table", .table), ("strikethrough", .strikethrough), ("tasklist", .tasklist),
        ("autolink", .autolink), ("tagfilter", .tagfilter), ("footnotes", .footnotes),
        ("alerts", .alerts), ("math", .math),
    ]

    /// The option for an extension name (`"table"`, `"math"`, …), or `nil`.
    public static func named(_ name: String) -> ParseOptions? {
        extensionNames.first { $0.name == name }?.option
    }
}
