import Tidemark

/// Draws a run tree as lines of terminal text: a pure function of the
/// blocks and the `TerminalOptions`, so a live view can lay the trailing
/// block out again on every update or after a resize.
///
/// Every line is at most `options.width` columns wide (by display width,
/// CJK and emoji included), ends with every style and hyperlink closed,
/// and contains no control character from the document (`TerminalText`).
/// Lines carry no newline; top-level blocks are separated by one empty
/// line (`joined(_:)`).
///
/// The look, per block:
/// - headings bold; level 1 and 2 underlined with `━` and `─`, levels
///   3–6 behind a muted `###`;
/// - emphasis italic, strong bold, strikethrough struck, inline code on a
///   background, links underlined (OSC 8 hyperlinks, or the URL in
///   parentheses), images as their alt text and URL;
/// - code blocks between rules, the language in the top one, highlighted
///   tokens colored, long lines cut and continued after `↪`;
/// - lists with their markers and hanging indents, task items `☐`/`☑`;
/// - quotes behind a `│` bar, alerts behind a bar in their color under
///   their title;
/// - tables in box-drawing borders (`TableLayout`); math centered.
public struct TerminalWriter: Sendable {
    public var options: TerminalOptions

    public init(options: TerminalOptions = TerminalOptions()) {
        self.options = options
    }

    /// The lines of one block.
    public func lines(of block: RenderedBlock) -> [String] {
        layout(block, width: width).map { ANSI.encode($0, options) }
    }

    /// The lines of a document: its blocks' lines, an empty line between
    /// two blocks.
    public func lines(of document: RenderedDocument) -> [String] {
        Self.joined(document.blocks.map { lines(of: $0) })
    }

    /// The whole document as text, every line ended by a newline.
    public func render(_ document: RenderedDocument) -> String {
        var out = ""
        for line in lines(of: document) {
            out += line
            out += "\n"
        }
        return out
    }

    /// Blocks' lines in order, an empty line between two blocks (blocks
    /// without lines take no room). The one rule for spacing top-level
    /// blocks, shared by one-shot and live output so both draw the same.
    public static func joined(_ blocks: [[String]]) -> [String] {
        var out: [String] = []
        for lines in blocks where !lines.isEmpty {
            if !out.isEmpty { out.append("") }
            out.append(contentsOf: lines)
        }
        return out
    }

    private var width: Int { max(options.width, TerminalOptions.minimumWidth) }

    // MARK: - Colors

    private func color(_ c: ThemeColor) -> RGBA { c.resolved(for: options.appearance) }
    private var theme: Theme { options.theme }
    private var muted: CellStyle { CellStyle(foreground: color(theme.listMarker)) }
    private var border: CellStyle { CellStyle(foreground: color(theme.table.border)) }
    private var accent: CellStyle { CellStyle(foreground: color(theme.link.foreground)) }

    /// The terminal look of a run: the theme's resolved style, with the
    /// theme's text colors left to the terminal (its own foreground is
    /// what the reader chose, on whatever background they have).
    private func cellStyle(_ run: Run, codeBlock: Bool = false) -> CellStyle {
        let s = run.style
        var c = CellStyle()
        let fg = color(s.foreground)
        if fg != color(theme.text.foreground) && fg != color(theme.heading.foreground) { c.foreground = fg }
        // Code-block lines are set apart by the block; only inline code
        // gets a background.
        if !codeBlock, let bg = s.background { c.background = color(bg) }
        c.bold = s.weight >= .semibold
        c.italic = s.italic
        c.strikethrough = s.strikethrough
        if run.traits.contains(.link), let link = run.link {
            c.underline = true
            // A relative destination means nothing to a terminal: it is
            // shown as text instead.
            if TerminalText.hasScheme(link.destination) { c.link = TerminalText.hyperlinkTarget(link.destination) }
        }
        c.underline = c.underline || s.underline
        return c
    }

    // MARK: - Runs

    /// Runs as styled spans, with what the terminal cannot show inline
    /// spelled out: a link's URL when it is not a hyperlink, an image's URL.
    func spans(_ runs: [Run]) -> [StyledSpan] {
        var out: [StyledSpan] = []
        var i = 0
        while i < runs.count {
            let run = runs[i]
            var style = cellStyle(run)
            if let image = run.image {
                style.italic = true
                out.append(StyledSpan(text: run.text, style: style))
                out.append(StyledSpan(text: " (\(image.source))", style: muted))
            } else {
                out.append(StyledSpan(text: run.text, style: style))
            }
            // A link ends where the next run has another link (or none).
            if let link = run.link, run.traits.contains(.link), i + 1 == runs.count || runs[i + 1].link != link {
                let hyperlinked = options.usesHyperlinks && style.link != nil
                var start = i
                while start > 0 && runs[start - 1].link == link { start -= 1 }
                let text = runs[start...i].map(\.text).joined()
                let destination = link.destination
                let showsItself = text == destination || "mailto:" + text == destination
                if !hyperlinked && !showsItself {
                    out.append(StyledSpan(text: " (\(destination))", style: muted))
                }
            }
            i += 1
        }
        return out
    }

    // MARK: - Blocks

    /// Containers whose content would be narrower than this lose their
    /// indentation instead (deep nesting on a narrow terminal).
    static let minimumContentWidth = 8

    func layout(_ block: RenderedBlock, width: Int) -> [StyledLine] {
        switch block.content {
        case .paragraph(let runs):
            return TextWrapper.wrap(spans(runs), width: width)
        case .heading(let level, let runs):
            return heading(level: level, runs: runs, width: width)
        case .list(let info, let items):
            return list(info, items: items, width: width)
        case .item(let info, let blocks):
            // Only reached for an item outside a list.
            return item(marker: StyledLine(info.marker, muted), blocks: blocks, tight: true, width: width)
        case .quote(let blocks):
            let bar = StyledLine("│ ", border)
            return prefixed(stack(blocks, tight: false, width: barredWidth(width)), first: bar, rest: bar, width: width)
        case .alert(let info, let blocks):
            let accent = CellStyle(foreground: color(theme.alert[info.kind]))
            let title = CellStyle(foreground: color(theme.alert[info.kind]), bold: true)
            let inner = barredWidth(width)
            let content = TextWrapper.wrap([StyledSpan(text: info.title, style: title)], width: inner)
                + stack(blocks, tight: false, width: inner)
            let bar = StyledLine("│ ", accent)
            return prefixed(content, first: bar, rest: bar, width: width)
        case .code(let info):
            return code(info, width: width)
        case .table(let info):
            let layout = TableLayout(border: border, headerStyle: CellStyle(bold: true))
            return layout.lines(header: info.header.map(spans), rows: info.rows.map { $0.map(spans) },
                                alignments: info.alignments, width: width)
        case .math(let info):
            return math(info, width: width)
        case .rule:
            return [StyledLine(String(repeating: "─", count: width), border)]
        case .image(let image):
            let run = Run(text: image.alt.isEmpty ? "image" : image.alt, traits: .image, image: image,
                          style: theme.style(traits: .image, in: .body))
            return TextWrapper.wrap(spans([run]), width: width)
        case .footnote(let mark, let blocks):
            return item(marker: StyledLine("[\(mark.number)]", accent), blocks: blocks, tight: false, width: width)
        case .html(let lines):
            let style = muted
            return lines.flatMap { runs in
                TextWrapper.cut(runs.map { StyledSpan(text: $0.text, style: style) }, width: width)
            }
        }
    }

    /// Child blocks one after another; an empty line between two unless
    /// `tight` (the blocks of a tight list item).
    private func stack(_ blocks: [RenderedBlock], tight: Bool, width: Int) -> [StyledLine] {
        var out: [StyledLine] = []
        for block in blocks {
            let lines = layout(block, width: max(width, Self.minimumContentWidth))
            if lines.isEmpty { continue }
            if !out.isEmpty && !tight { out.append(StyledLine()) }
            out += lines
        }
        return out
    }

    /// `first` before the first line, `rest` before the others, unless
    /// that would leave less than `minimumContentWidth` (then the lines
    /// stand as they are: they were laid out at the minimum width).
    /// The width inside a quote's or alert's bar: the bar is dropped (see
    /// `prefixed`) once it would leave less than `minimumContentWidth`, and
    /// then the content keeps the full width — 64 nested quotes on a
    /// 40-column terminal must still show their text.
    private func barredWidth(_ width: Int) -> Int {
        width - 2 >= Self.minimumContentWidth ? width - 2 : width
    }

    private func prefixed(_ lines: [StyledLine], first: StyledLine, rest: StyledLine, width: Int) -> [StyledLine] {
        guard width - max(first.width, rest.width) >= Self.minimumContentWidth else {
            return lines.isEmpty ? [first.trimmingTrailingSpaces()] : lines
        }
        if lines.isEmpty { return [first.trimmingTrailingSpaces()] }
        return lines.enumerated().map { i, line in
            var out = i == 0 ? first : rest
            if line.isEmpty { return out.trimmingTrailingSpaces() }
            out.append(line)
            return out
        }
    }

    private func heading(level: Int, runs: [Run], width: Int) -> [StyledLine] {
        var spans = spans(runs)
        for k in spans.indices { spans[k].style.bold = true }
        if level <= 2 {
            var lines = TextWrapper.wrap(spans, width: width)
            let underline = min(width, lines.map(\.width).max() ?? 0)
            let style = level == 1 ? accent : border
            lines.append(StyledLine(String(repeating: level == 1 ? "━" : "─", count: max(1, underline)), style))
            return lines
        }
        let marker = StyledLine(String(repeating: "#", count: min(level, 6)), muted)
        return item(marker: marker, blocks: [], tight: true, width: width, leading: spans)
    }

    private func list(_ info: ListInfo, items: [RenderedBlock], width: Int) -> [StyledLine] {
        var markers: [StyledLine] = []
        for block in items {
            guard case .item(let item, _) = block.content else {
                markers.append(StyledLine())
                continue
            }
            var marker = StyledLine()
            switch (item.checkbox, item.ordinal) {
            case (.none, _):
                marker.append(item.marker, muted)
            case (.checked, nil):
                marker.append("☑", CellStyle(foreground: color(theme.alert.tip)))
            case (.unchecked, nil):
                marker.append("☐", muted)
            case (.checked, _?):
                marker.append(item.marker + " ", muted)
                marker.append("☑", CellStyle(foreground: color(theme.alert.tip)))
            case (.unchecked, _?):
                marker.append(item.marker + " ☐", muted)
            }
            markers.append(marker)
        }
        // Ordered markers are right-aligned: ` 9.` above `10.`.
        let markerWidth = markers.map(\.width).max() ?? 1
        var out: [StyledLine] = []
        for (block, marker) in zip(items, markers) {
            if !out.isEmpty && !info.isTight { out.append(StyledLine()) }
            var aligned = StyledLine()
            if info.type == .ordered { aligned.pad(markerWidth - marker.width) }
            aligned.append(marker)
            aligned.pad(markerWidth - aligned.width)
            out += item(marker: aligned, blocks: block.children, tight: info.isTight, width: width)
        }
        return out
    }

    /// A marker and the blocks beside it, later lines indented under the
    /// first's text. `leading` spans (a heading's text) come first.
    private func item(marker: StyledLine, blocks: [RenderedBlock], tight: Bool, width: Int,
                      leading: [StyledSpan] = []) -> [StyledLine] {
        var first = marker
        first.pad(1)
        let indent = first.width
        var rest = StyledLine()
        rest.pad(indent)
        // No room for a hanging indent: the marker goes on a line of its
        // own, the content below it at the full width.
        let narrow = width - indent < Self.minimumContentWidth
        let contentWidth = narrow ? width : width - indent
        var content = leading.isEmpty ? [] : TextWrapper.wrap(leading, width: contentWidth)
        let children = stack(blocks, tight: tight, width: contentWidth)
        if !content.isEmpty && !children.isEmpty && !tight { content.append(StyledLine()) }
        content += children
        // (A marker wider than the width itself — `123456789.` inside an
        // item on 10 columns — is cut like a long word.)
        if narrow { return (marker.width > width ? TextWrapper.cut(marker.spans, width: width) : [marker]) + content }
        return prefixed(content, first: first, rest: rest, width: width)
    }

    private func code(_ info: CodeInfo, width: Int) -> [StyledLine] {
        var top = StyledLine()
        if let language = info.language, !language.isEmpty {
            top.append("── ", border)
            var label = StyledLine(language, muted)
            if label.width > width - 4 {
                label = TextWrapper.cut(label.spans, width: width - 4)[0]
            }
            top.append(label)
            top.append(" ", border)
        }
        top.append(String(repeating: "─", count: max(0, width - top.width)), border)

        let indent = 2
        let continuation = StyledLine("↪ ", muted)
        var out = [top]
        for runs in info.lines {
            let spans = runs.map { StyledSpan(text: $0.text, style: cellStyle($0, codeBlock: true)) }
            let pieces = TextWrapper.cut(spans, width: width - indent)
            for (k, piece) in pieces.enumerated() {
                var line = StyledLine()
                if k == 0 { line.pad(indent) } else { line.append(continuation) }
                line.append(piece)
                out.append(piece.isEmpty ? StyledLine() : line)
            }
        }
        out.append(StyledLine(String(repeating: "─", count: width), border))
        return out
    }

    private func math(_ info: MathInfo, width: Int) -> [StyledLine] {
        let lines = TextWrapper.wrap(spans(info.runs), width: width)
        return lines.map { line in
            var centered = StyledLine()
            centered.pad((width - line.width) / 2)
            centered.append(line)
            return line.isEmpty ? line : centered
        }
    }
}
