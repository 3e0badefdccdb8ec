import Tidemark

/// A rendered document: its top-level blocks, in source order.
public struct RenderedDocument: Sendable, Hashable {
    public var blocks: [RenderedBlock]

    public init(blocks: [RenderedBlock]) {
        self.blocks = blocks
    }
}

/// One block of the run tree: what it is, its content (runs of styled text,
/// or child blocks for containers), where it came from in the source, and
/// what assistive technology should announce.
public struct RenderedBlock: Sendable, Hashable {
    /// The block kinds. The raw values are the JSON `"kind"` strings.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case paragraph, heading, list, item, quote, alert, code, table, math, rule, image, footnote, html
    }

    /// The kind-specific content.
    public enum Content: Sendable, Hashable {
        case paragraph(runs: [Run])
        case heading(level: Int, runs: [Run])
        /// `items` are `.item` blocks.
        case list(ListInfo, items: [RenderedBlock])
        case item(ItemInfo, blocks: [RenderedBlock])
        case quote(blocks: [RenderedBlock])
        case alert(AlertInfo, blocks: [RenderedBlock])
        case code(CodeInfo)
        case table(TableInfo)
        case math(MathInfo)
        case rule
        /// A paragraph that is only an (allowed) image.
        case image(ImageInfo)
        /// A footnote definition.
        case footnote(FootnoteMark, blocks: [RenderedBlock])
        /// A raw HTML block, shown as its source (`RenderOptions.rawHTML`).
        case html(lines: [[Run]])
    }

    public var content: Content
    /// UTF-8 byte offsets into the document's normalized `source`.
    public var range: Range<Int>
    /// What a screen reader announces for the block: its role and the
    /// facts a sighted reader gets from layout ("item 2 of 3, checked").
    public var accessibilityLabel: String
    /// The caller's identity for a top-level block (see
    /// `RunTreeRenderer.render(blocks:unchanged:)`); `nil` otherwise.
    public var id: UInt64?

    public init(content: Content, range: Range<Int>, accessibilityLabel: String, id: UInt64? = nil) {
        self.content = content
        self.range = range
        self.accessibilityLabel = accessibilityLabel
        self.id = id
    }

    public var kind: Kind {
        switch content {
        case .paragraph: .paragraph
        case .heading: .heading
        case .list: .list
        case .item: .item
        case .quote: .quote
        case .alert: .alert
        case .code: .code
        case .table: .table
        case .math: .math
        case .rule: .rule
        case .image: .image
        case .footnote: .footnote
        case .html: .html
        }
    }

    /// The runs of a paragraph, heading or math block; empty otherwise.
    public var runs: [Run] {
        switch content {
        case .paragraph(let runs), .heading(_, let runs): runs
        case .math(let info): info.runs
        default: []
        }
    }

    /// The child blocks of a container: a list's items, the blocks of an
    /// item, quote, alert or footnote; empty otherwise.
    public var children: [RenderedBlock] {
        switch content {
        case .list(_, let items): items
        case .item(_, let blocks), .alert(_, let blocks), .footnote(_, let blocks): blocks
        case .quote(let blocks): blocks
        default: []
        }
    }

    /// Replaces the child blocks of a container (no effect on leaves).
    mutating func setChildren(_ children: [RenderedBlock]) {
        switch content {
        case .list(let info, _): content = .list(info, items: children)
        case .item(let info, _): content = .item(info, blocks: children)
        case .quote: content = .quote(blocks: children)
        case .alert(let info, _): content = .alert(info, blocks: children)
        case .footnote(let mark, _): content = .footnote(mark, blocks: children)
        default: break
        }
    }
}

/// A list: bullet or ordered, and how it is laid out.
public struct ListInfo: Sendable, Hashable {
    public var type: ListType
    /// The first number of an ordered list; `nil` for bullet lists.
    public var start: Int?
    /// Tight lists have no blank lines between items.
    public var isTight: Bool
    /// 1 for a top-level list, 2 for a list inside it, and so on (only
    /// lists count, not the quotes between them).
    public var depth: Int
    public var itemCount: Int

    public init(type: ListType, start: Int?, isTight: Bool, depth: Int, itemCount: Int) {
        self.type = type
        self.start = start
        self.isTight = isTight
        self.depth = depth
        self.itemCount = itemCount
    }
}

/// A list item: its marker and where it stands in its list.
public struct ItemInfo: Sendable, Hashable {
    /// What to draw before the item: `•`, `◦`, `▪` by depth for bullets
    /// (`RenderOptions.bulletMarkers`), `3.` or `3)` for ordered lists.
    public var marker: String
    /// The number an ordered item shows; `nil` in bullet lists.
    public var ordinal: Int?
    /// 1-based position in the list.
    public var position: Int
    /// The number of items in the list.
    public var count: Int
    public var checkbox: TaskState

    public init(marker: String, ordinal: Int?, position: Int, count: Int, checkbox: TaskState) {
        self.marker = marker
        self.ordinal = ordinal
        self.position = position
        self.count = count
        self.checkbox = checkbox
    }
}

public struct AlertInfo: Sendable, Hashable {
    public var kind: AlertKind
    /// The title shown: "Note", "Tip", "Important", "Warning", "Caution".
    public var title: String

    public init(kind: AlertKind, title: String) {
        self.kind = kind
        self.title = title
    }
}

/// A code block: its language and its lines of token runs.
public struct CodeInfo: Sendable, Hashable {
    /// The first word of the info string.
    public var language: String?
    /// The whole info string of a fenced block.
    public var info: String?
    /// One entry per line, without line terminators; an empty line is `[]`.
    public var lines: [[Run]]
    /// Whether a highlighter produced the token kinds.
    public var isHighlighted: Bool

    public init(language: String?, info: String?, lines: [[Run]], isHighlighted: Bool) {
        self.language = language
        self.info = info
        self.lines = lines
        self.isHighlighted = isHighlighted
    }
}

/// A GFM table. Every row has exactly `alignments.count` cells.
public struct TableInfo: Sendable, Hashable {
    public var alignments: [TableAlignment]
    public var header: [[Run]]
    public var rows: [[[Run]]]

    public init(alignments: [TableAlignment], header: [[Run]], rows: [[[Run]]]) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
    }

    public var columnCount: Int { alignments.count }
}

/// Display math.
public struct MathInfo: Sendable, Hashable {
    public var tex: String
    /// The Unicode rendering (`UnicodeMath`), or `nil` when the TeX has no
    /// faithful plain-text form and the source is shown.
    public var unicode: String?
    public var isDisplay: Bool
    /// One math run showing `unicode ?? tex`.
    public var runs: [Run]

    public init(tex: String, unicode: String?, isDisplay: Bool, runs: [Run]) {
        self.tex = tex
        self.unicode = unicode
        self.isDisplay = isDisplay
        self.runs = runs
    }
}
