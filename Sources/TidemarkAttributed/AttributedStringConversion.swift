import Foundation
import Tidemark
import TidemarkRender

extension AttributedString {
    /// The document as one attributed string: blocks on their own lines,
    /// list markers and checkboxes written out, code lines and table rows
    /// on their own lines (cells separated by tabs), every run carrying
    /// the `TidemarkAttributes`.
    public init(_ document: RenderedDocument) {
        var writer = AttributedWriter()
        for block in document.blocks { writer.write(block, path: []) }
        self = writer.result
    }

    /// One block (and its children) as an attributed string.
    public init(_ block: RenderedBlock) {
        var writer = AttributedWriter()
        writer.write(block, path: [])
        self = writer.result
    }
}

/// Appends blocks to an attributed string. Recursive over containers, which
/// is safe: the run tree is at most `RenderOptions.maxDepth` deep.
struct AttributedWriter {
    var result = AttributedString()
    /// Whether the next block starts on a new line.
    private var lineOpen = false

    mutating func write(_ block: RenderedBlock, path: [RenderedBlock.Kind]) {
        switch block.content {
        case .paragraph(let runs), .heading(_, let runs):
            startBlock()
            append(runs, block.kind, path)
        case .math(let info):
            startBlock()
            append(info.runs, block.kind, path)
        case .list(_, let items):
            for item in items { write(item, path: path + [.list]) }
        case .item(let info, let blocks):
            startBlock()
            var marker = String(repeating: "\t", count: path.filter { $0 == .list }.count - 1) + info.marker + " "
            switch info.checkbox {
            case .checked: marker += "☑ "
            case .unchecked: marker += "☐ "
            case .none: break
            }
            appendText(marker, .item, path)
            // The first child continues the marker's line.
            lineOpen = false
            for child in blocks { write(child, path: path + [.item]) }
        case .quote(let blocks):
            for child in blocks { write(child, path: path + [.quote]) }
        case .alert(let info, let blocks):
            startBlock()
            var title = AttributeContainer()
            title.tidemark.traits = .strong
            appendText(info.title, .alert, path, extra: title)
            for child in blocks { write(child, path: path + [.alert]) }
        case .code(let info):
            writeLines(info.lines, block.kind, path)
        case .html(let lines):
            writeLines(lines, block.kind, path)
        case .table(let info):
            for row in [info.header] + info.rows {
                startBlock()
                for (column, cell) in row.enumerated() {
                    if column > 0 { appendText("\t", .table, path) }
                    append(cell, .table, path)
                }
            }
        case .rule:
            startBlock()
            appendText("⸻", .rule, path)
        case .image(let info):
            startBlock()
            var image = AttributeContainer()
            image.tidemark.image = info
            appendText(info.alt.isEmpty ? "image" : info.alt, .image, path, extra: image)
        case .footnote(let mark, let blocks):
            startBlock()
            var reference = AttributeContainer()
            reference.tidemark.footnote = mark
            appendText("[\(mark.number)] ", .footnote, path, extra: reference)
            lineOpen = false
            for child in blocks { write(child, path: path + [.footnote]) }
        }
    }

    private mutating func writeLines(_ lines: [[Run]], _ kind: RenderedBlock.Kind, _ path: [RenderedBlock.Kind]) {
        startBlock()
        for (i, line) in lines.enumerated() {
            if i > 0 { appendText("\n", kind, path) }
            append(line, kind, path)
        }
    }

    /// A newline before any block but the first on its line.
    private mutating func startBlock() {
        if lineOpen { result.append(AttributedString("\n")) }
        lineOpen = true
    }

    private mutating func append(_ runs: [Run], _ kind: RenderedBlock.Kind, _ path: [RenderedBlock.Kind]) {
        for run in runs {
            var a = AttributeContainer()
            a.tidemark.blockKind = kind
            if !path.isEmpty { a.tidemark.blockPath = path }
            a.tidemark.runStyle = run.style
            if !run.traits.isEmpty { a.tidemark.traits = run.traits }
            if let link = run.link {
                a.tidemark.linkInfo = link
                // Only allowed destinations reach a run; Foundation's link
                // makes them tappable where the platform supports it.
                if let url = URL(string: link.destination) { a.link = url }
            }
            if let token = run.token { a.tidemark.tokenKind = token }
            if let math = run.math { a.tidemark.mathSource = math }
            if let image = run.image { a.tidemark.image = image }
            if let footnote = run.footnote { a.tidemark.footnote = footnote }
            result.append(AttributedString(run.text, attributes: a))
        }
    }

    private mutating func appendText(_ text: String, _ kind: RenderedBlock.Kind, _ path: [RenderedBlock.Kind],
                                     extra: AttributeContainer = AttributeContainer()) {
        var a = extra
        a.tidemark.blockKind = kind
        if !path.isEmpty { a.tidemark.blockPath = path }
        result.append(AttributedString(text, attributes: a))
    }
}
