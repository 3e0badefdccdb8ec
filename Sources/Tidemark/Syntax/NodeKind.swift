/// The kind of a node of the syntax tree.
///
/// Blocks first, then inlines. The raw values are stable: they are part of
/// the compact storage, not of any public encoding (JSON uses the names).
public enum NodeKind: UInt8, Sendable, Hashable, Codable, CaseIterable {
    // MARK: Blocks
    case document
    case blockQuote
    case list
    case item
    case codeBlock
    case htmlBlock
    case paragraph
    case heading
    case thematicBreak
    /// GFM table; children are `tableRow`s, the first one the header row.
    case table
    case tableRow
    case tableCell
    /// A footnote definition, `[^label]: …`.
    case footnoteDefinition
    /// A GitHub alert, `> [!NOTE]`.
    case alert
    /// A display-math block (`$$…$$`, `\[…\]` on their own lines, or a
    /// fenced `math` block).
    case mathBlock

    // MARK: Inlines
    case text
    case softBreak
    case lineBreak
    case code
    case html
    case emphasis
    case strong
    case strikethrough
    case link
    case image
    /// A footnote reference, `[^label]`.
    case footnoteReference
    /// Inline or display math inside a paragraph.
    case math

    /// Whether this kind is a block (as opposed to an inline).
    @inlinable public var isBlock: Bool { rawValue <= NodeKind.mathBlock.rawValue }

    /// The lowerCamelCase name used in JSON.
    public var name: String {
        switch self {
        case .document: "document"
        case .blockQuote: "blockQuote"
        case .list: "list"
        case .item: "item"
        case .codeBlock: "codeBlock"
        case .htmlBlock: "htmlBlock"
        case .paragraph: "paragraph"
        case .heading: "heading"
        case .thematicBreak: "thematicBreak"
        case .table: "table"
        case .tableRow: "tableRow"
        case .tableCell: "tableCell"
        case .footnoteDefinition: "footnoteDefinition"
        case .alert: "alert"
        case .mathBlock: "mathBlock"
        case .text: "text"
        case .softBreak: "softBreak"
        case .lineBreak: "lineBreak"
        case .code: "code"
        case .html: "html"
        case .emphasis: "emphasis"
        case .strong: "strong"
        case .strikethrough: "strikethrough"
        case .link: "link"
        case .image: "image"
        case .footnoteReference: "footnoteReference"
        case .math: "math"
        }
    }
}

/// Ordered or bullet list.
public enum ListType: UInt8, Sendable, Hashable, Codable {
    case bullet
    case ordered
}

/// Column alignment of a GFM table.
public enum TableAlignment: UInt8, Sendable, Hashable, Codable {
    case none
    case left
    case center
    case right
}

/// The kind of a GitHub alert.
public enum AlertKind: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case note
    case tip
    case important
    case warning
    case caution

    /// The title GitHub shows: "Note", "Tip", …
    public var title: String {
        switch self {
        case .note: "Note"
        case .tip: "Tip"
        case .important: "Important"
        case .warning: "Warning"
        case .caution: "Caution"
        }
    }
}

/// The state of a task-list checkbox.
public enum TaskState: UInt8, Sendable, Hashable, Codable {
    /// Not a task item.
    case none
    case unchecked
    case checked
}
