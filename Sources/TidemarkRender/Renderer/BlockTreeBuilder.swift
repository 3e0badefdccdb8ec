import Tidemark

/// Builds the run-tree blocks of one subtree of the syntax tree.
///
/// A walker with an explicit stack of open containers, so input nesting
/// costs heap, not call stack; containers deeper than
/// `RenderOptions.maxDepth` are flattened into the deepest kept one (see
/// `RenderOptions.defaultMaxDepth`).
struct BlockTreeBuilder: MarkdownWalker {
    let theme: Theme
    let options: RenderOptions
    let highlighter: (any CodeHighlighter)?

    /// A container being built; `frames[0]` collects the result.
    private struct Frame {
        enum Kind {
            case root
            case list(ListInfo)
            case item(ItemInfo)
            case quote
            case alert(AlertInfo)
            case footnote(FootnoteMark)
        }
        var kind: Kind
        var range: Range<Int>
        var children: [RenderedBlock] = []
    }

    /// What entering a container did, undone when leaving it.
    private enum Entered {
        case pushed
        case flattened
        case skipped
    }

    private var frames: [Frame] = [Frame(kind: .root, range: 0..<0)]
    private var entered: [Entered] = []
    /// Containers being flattened; while positive, every container is.
    private var flattening = 0
    /// Block quotes around the current node (kept or flattened).
    private var quoteDepth = 0
    /// Kept lists around the current node, for bullet glyphs.
    private var listDepth = 0

    init(theme: Theme, options: RenderOptions, highlighter: (any CodeHighlighter)?) {
        self.theme = theme
        self.options = options
        self.highlighter = highlighter
    }

    /// The blocks of `node` (a top-level block: usually one, none for a
    /// dropped HTML block or an unused footnote definition).
    static func blocks(of node: Node, theme: Theme, options: RenderOptions,
                       highlighter: (any CodeHighlighter)?) -> [RenderedBlock] {
        var builder = BlockTreeBuilder(theme: theme, options: options, highlighter: highlighter)
        node.walk(&builder)
        return builder.frames[0].children
    }

    private var bodyContext: StyleContext { StyleContext(role: .body, quoted: quoteDepth > 0) }

    // MARK: Walking

    mutating func enter(_ node: Node) -> WalkAction {
        switch node.kind {
        case .document:
            return .visitChildren
        case .blockQuote, .alert, .list, .item, .footnoteDefinition:
            return enterContainer(node)
        case .paragraph:
            paragraph(node)
        case .heading:
            let level = node.headingLevel ?? 1
            let runs = InlineRunBuilder.runs(of: node, theme: theme, options: options,
                                             context: StyleContext(role: .heading(level: level), quoted: quoteDepth > 0))
            append(.heading(level: level, runs: runs), node)
        case .codeBlock:
            codeBlock(node)
        case .htmlBlock:
            if options.rawHTML == .show {
                append(.html(lines: CodeLines.lines(node.literal ?? "", spans: nil, traits: .html, theme: theme)), node)
            }
        case .thematicBreak:
            append(.rule, node)
        case .table:
            table(node)
        case .mathBlock:
            math(tex: node.literal ?? "", display: true, node)
        case .tableRow, .tableCell:
            // Only reached through `table`; a stray one has nothing to show.
            break
        case .text, .softBreak, .lineBreak, .code, .html, .emphasis, .strong, .strikethrough, .link, .image,
             .footnoteReference, .math:
            break
        }
        return .skipChildren
    }

    mutating func exit(_ node: Node) {
        switch node.kind {
        case .blockQuote, .alert, .list, .item, .footnoteDefinition:
            exitContainer(node)
        default:
            break
        }
    }

    private mutating func enterContainer(_ node: Node) -> WalkAction {
        if node.kind == .footnoteDefinition && node.footnoteNumber == 0 && !options.includeUnusedFootnotes {
            entered.append(.skipped)
            return .skipChildren
        }
        if node.kind == .blockQuote { quoteDepth += 1 }
        let depth = frames.count - 1
        let levels = node.kind == .list ? 2 : 1
        guard flattening == 0 && depth + levels <= options.maxDepth else {
            flattening += 1
            entered.append(.flattened)
            return .visitChildren
        }
        let kind: Frame.Kind
        switch node.kind {
        case .list:
            listDepth += 1
            var count = 0
            for _ in node.children { count += 1 }
            kind = .list(ListInfo(type: node.listType ?? .bullet, start: node.listStart,
                                  isTight: node.isTight ?? true, depth: listDepth, itemCount: count))
        case .item:
            kind = .item(itemInfo(node))
        case .alert:
            let alertKind = node.alertKind ?? .note
            kind = .alert(AlertInfo(kind: alertKind, title: alertKind.title))
        case .footnoteDefinition:
            kind = .footnote(FootnoteMark(number: node.footnoteNumber ?? 0, label: node.footnoteLabel ?? ""))
        default:
            kind = .quote
        }
        frames.append(Frame(kind: kind, range: node.range))
        entered.append(.pushed)
        return .visitChildren
    }

    private mutating func exitContainer(_ node: Node) {
        guard let what = entered.popLast() else { return }
        if what == .skipped { return }
        if node.kind == .blockQuote { quoteDepth -= 1 }
        if what == .flattened {
            flattening -= 1
            return
        }
        let frame = frames.removeLast()
        let content: RenderedBlock.Content
        switch frame.kind {
        case .root:
            return
        case .list(let info):
            listDepth -= 1
            content = .list(info, items: frame.children)
        case .item(let info):
            content = .item(info, blocks: frame.children)
        case .quote:
            content = .quote(blocks: frame.children)
        case .alert(let info):
            content = .alert(info, blocks: frame.children)
        case .footnote(let mark):
            content = .footnote(mark, blocks: frame.children)
        }
        frames[frames.count - 1].children.append(
            RenderedBlock(content: content, range: frame.range,
                          accessibilityLabel: AccessibilityLabels.label(for: content)))
    }

    /// An item's marker and place; its list is the innermost frame.
    private func itemInfo(_ node: Node) -> ItemInfo {
        guard case .list(let list)? = frames.last?.kind else {
            return ItemInfo(marker: options.bulletMarkers[0], ordinal: nil, position: 1, count: 1,
                            checkbox: node.taskState)
        }
        let position = frames[frames.count - 1].children.count + 1
        if list.type == .ordered {
            // `start` is at most nine digits (spec §5.2), so no overflow.
            let ordinal = (list.start ?? 1) + position - 1
            let delimiter = node.parent?.listMarker.map { String($0) } ?? "."
            return ItemInfo(marker: "\(ordinal)\(delimiter)", ordinal: ordinal, position: position,
                            count: list.itemCount, checkbox: node.taskState)
        }
        let glyphs = options.bulletMarkers
        return ItemInfo(marker: glyphs[(list.depth - 1) % glyphs.count], ordinal: nil, position: position,
                        count: list.itemCount, checkbox: node.taskState)
    }

    // MARK: Leaves

    private mutating func append(_ content: RenderedBlock.Content, _ node: Node) {
        frames[frames.count - 1].children.append(
            RenderedBlock(content: content, range: node.range,
                          accessibilityLabel: AccessibilityLabels.label(for: content)))
    }

    private mutating func paragraph(_ node: Node) {
        // A paragraph that is only an image, or only display math, is shown
        // as that block (how chat answers put a picture or an equation on
        // its own line).
        if let only = node.firstChild, only.nextSibling == nil {
            if only.kind == .image, let source = only.destination, options.imagePolicy.allows(source) {
                append(.image(ImageInfo(alt: only.plainText, source: source, title: nonEmpty(only.title))), node)
                return
            }
            if only.kind == .math && only.isDisplayMath {
                math(tex: only.literal ?? "", display: true, node)
                return
            }
        }
        let runs = InlineRunBuilder.runs(of: node, theme: theme, options: options, context: bodyContext)
        // Only dropped raw HTML leaves a paragraph without runs.
        if !runs.isEmpty { append(.paragraph(runs: runs), node) }
    }

    private mutating func codeBlock(_ node: Node) {
        let code = node.literal ?? ""
        let language = node.language
        var spans: [HighlightSpan]?
        if let language, let highlighter { spans = highlighter.highlight(code, language: language) }
        let lines = CodeLines.lines(code, spans: spans, theme: theme)
        append(.code(CodeInfo(language: language, info: nonEmpty(node.info), lines: lines,
                              isHighlighted: spans != nil)), node)
    }

    private mutating func math(tex: String, display: Bool, _ node: Node) {
        let unicode = UnicodeMath.render(tex)
        let context = StyleContext(role: .displayMath, quoted: quoteDepth > 0)
        let shown = unicode ?? tex
        // An empty `$$ $$` block has nothing to show; runs are never empty.
        let runs = shown.isEmpty ? [] : [Run(text: shown, traits: .math, math: tex,
                                             style: theme.style(traits: .math, in: context))]
        append(.math(MathInfo(tex: tex, unicode: unicode, isDisplay: display, runs: runs)), node)
    }

    private mutating func table(_ node: Node) {
        let alignments = node.tableAlignments ?? []
        let columns = alignments.count
        var header: [[Run]] = []
        var rows: [[[Run]]] = []
        let bodyContext = self.bodyContext
        let headerContext = StyleContext(role: .tableHeader, quoted: quoteDepth > 0)
        for row in node.children where row.kind == .tableRow {
            let context = row.isHeaderRow ? headerContext : bodyContext
            var cells: [[Run]] = []
            for cell in row.children where cell.kind == .tableCell {
                // GFM: cells past the header's count are ignored.
                guard cells.count < columns else { break }
                cells.append(InlineRunBuilder.runs(of: cell, theme: theme, options: options, context: context))
            }
            // …and missing cells are empty.
            while cells.count < columns { cells.append([]) }
            if row.isHeaderRow { header = cells } else { rows.append(cells) }
        }
        if header.isEmpty { header = Array(repeating: [], count: columns) }
        append(.table(TableInfo(alignments: alignments, header: header, rows: rows)), node)
    }
}
