import Tidemark

/// The JSON form of the run tree (`spec/run-tree.md`).
///
/// `{"blocks": [...]}`; every block has `"kind"`, `"range"` (`[start, end]`
/// UTF-8 offsets), `"accessibilityLabel"`, `"id"` when it has one, and its
/// kind's fields: containers `"blocks"` (a list: `"items"`), text blocks
/// `"runs"`, code and HTML blocks `"lines"`, tables `"header"` and `"rows"`.
/// Every run has `"text"` and `"traits"`, and `"link"`, `"image"`, `"math"`,
/// `"footnote"`, `"token"` when they apply. Styles are left out unless
/// `RunTreeJSON.includeStyles` is set in the encoder's `userInfo`: a
/// consumer of JSON usually has its own styling, and styles triple the size.
///
/// Depth is bounded by `RenderOptions.maxDepth`, so the recursive encoding
/// cannot exhaust the stack.
public enum RunTreeJSON {
    /// Set to `true` in an encoder's `userInfo` to add each run's `"style"`.
    public static let includeStyles = CodingUserInfoKey(rawValue: "tidemark.runTree.includeStyles")!
}

extension RenderedDocument: Encodable {
    private enum CodingKeys: String, CodingKey { case blocks }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(blocks, forKey: .blocks)
    }
}

extension RenderedBlock: Encodable {
    private enum CodingKeys: String, CodingKey {
        case kind, range, accessibilityLabel, id
        case runs, blocks, items, lines
        case level
        case ordered, start, tight, depth, itemCount
        case marker, ordinal, position, count, checkbox
        case alertKind, title
        case language, info, highlighted
        case columns, alignments, header, rows
        case display, tex, unicode
        case alt, source
        case number, label
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode([range.lowerBound, range.upperBound], forKey: .range)
        try c.encode(accessibilityLabel, forKey: .accessibilityLabel)
        try c.encodeIfPresent(id, forKey: .id)
        switch content {
        case .paragraph(let runs):
            try c.encode(runs, forKey: .runs)
        case .heading(let level, let runs):
            try c.encode(level, forKey: .level)
            try c.encode(runs, forKey: .runs)
        case .list(let info, let items):
            try c.encode(info.type == .ordered, forKey: .ordered)
            try c.encodeIfPresent(info.start, forKey: .start)
            try c.encode(info.isTight, forKey: .tight)
            try c.encode(info.depth, forKey: .depth)
            try c.encode(info.itemCount, forKey: .itemCount)
            try c.encode(items, forKey: .items)
        case .item(let info, let blocks):
            try c.encode(info.marker, forKey: .marker)
            try c.encodeIfPresent(info.ordinal, forKey: .ordinal)
            try c.encode(info.position, forKey: .position)
            try c.encode(info.count, forKey: .count)
            try c.encode(Self.name(info.checkbox), forKey: .checkbox)
            try c.encode(blocks, forKey: .blocks)
        case .quote(let blocks):
            try c.encode(blocks, forKey: .blocks)
        case .alert(let info, let blocks):
            try c.encode(Self.name(info.kind), forKey: .alertKind)
            try c.encode(info.title, forKey: .title)
            try c.encode(blocks, forKey: .blocks)
        case .code(let info):
            try c.encodeIfPresent(info.language, forKey: .language)
            try c.encodeIfPresent(info.info, forKey: .info)
            try c.encode(info.isHighlighted, forKey: .highlighted)
            try c.encode(info.lines, forKey: .lines)
        case .table(let info):
            try c.encode(info.columnCount, forKey: .columns)
            try c.encode(info.alignments.map(Self.name), forKey: .alignments)
            try c.encode(info.header, forKey: .header)
            try c.encode(info.rows, forKey: .rows)
        case .math(let info):
            try c.encode(info.isDisplay, forKey: .display)
            try c.encode(info.tex, forKey: .tex)
            try c.encodeIfPresent(info.unicode, forKey: .unicode)
            try c.encode(info.runs, forKey: .runs)
        case .rule:
            break
        case .image(let info):
            try c.encode(info.alt, forKey: .alt)
            try c.encode(info.source, forKey: .source)
            try c.encodeIfPresent(info.title, forKey: .title)
        case .footnote(let mark, let blocks):
            try c.encode(mark.number, forKey: .number)
            try c.encode(mark.label, forKey: .label)
            try c.encode(blocks, forKey: .blocks)
        case .html(let lines):
            try c.encode(lines, forKey: .lines)
        }
    }

    static func name(_ state: TaskState) -> String {
        switch state {
        case .none: "none"
        case .unchecked: "unchecked"
        case .checked: "checked"
        }
    }

    static func name(_ alignment: TableAlignment) -> String {
        switch alignment {
        case .none: "none"
        case .left: "left"
        case .center: "center"
        case .right: "right"
        }
    }

    static func name(_ kind: AlertKind) -> String {
        switch kind {
        case .note: "note"
        case .tip: "tip"
        case .important: "important"
        case .warning: "warning"
        case .caution: "caution"
        }
    }
}

extension Run: Encodable {
    private enum CodingKeys: String, CodingKey {
        case text, traits, link, image, math, footnote, token, style
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encode(traits, forKey: .traits)
        try c.encodeIfPresent(link, forKey: .link)
        try c.encodeIfPresent(image, forKey: .image)
        try c.encodeIfPresent(math, forKey: .math)
        try c.encodeIfPresent(footnote, forKey: .footnote)
        try c.encodeIfPresent(token?.rawValue, forKey: .token)
        if encoder.userInfo[RunTreeJSON.includeStyles] as? Bool == true {
            try c.encode(style, forKey: .style)
        }
    }
}
