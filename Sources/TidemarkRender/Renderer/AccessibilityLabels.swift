import Tidemark

/// The accessibility label of each block kind: the role, and the facts a
/// sighted reader takes from layout (level, position, counts, state).
/// Content a screen reader would read anyway (paragraph text) is not
/// repeated; content it cannot read (math notation, an image) is.
enum AccessibilityLabels {
    static func label(for content: RenderedBlock.Content) -> String {
        switch content {
        case .paragraph:
            return "paragraph"
        case .heading(let level, _):
            return "Heading level \(level)"
        case .list(let info, _):
            let noun = info.type == .ordered ? "numbered list" : "list"
            return "\(noun), \(count(info.itemCount, "item", "items"))"
        case .item(let info, _):
            var label = "item \(info.position) of \(info.count)"
            switch info.checkbox {
            case .checked: label += ", checked"
            case .unchecked: label += ", unchecked"
            case .none: break
            }
            return label
        case .quote:
            return "quote"
        case .alert(let info, _):
            return info.title.lowercased()
        case .code(let info):
            var label = "code block"
            if let language = info.language { label += ", \(language)" }
            return label + ", " + count(info.lines.count, "line", "lines")
        case .table(let info):
            return "table, \(count(info.columnCount, "column", "columns")), \(count(info.rows.count, "row", "rows"))"
        case .math(let info):
            return "math: \(info.unicode ?? info.tex)"
        case .rule:
            return "separator"
        case .image(let info):
            return info.alt.isEmpty ? "image" : "image: \(info.alt)"
        case .footnote(let mark, _):
            // Number 0: a definition nothing refers to (shown only with
            // `RenderOptions.includeUnusedFootnotes`).
            return mark.number == 0 ? "footnote, not referenced" : "footnote \(mark.number)"
        case .html(let lines):
            return "HTML block, " + count(lines.count, "line", "lines")
        }
    }

    private static func count(_ n: Int, _ singular: String, _ plural: String) -> String {
        "\(n) \(n == 1 ? singular : plural)"
    }
}
