import Tidemark

/// A Markdown stream drawn on a terminal as it arrives.
///
/// Two ways to show it:
/// - live (`frame(_:)`), for a terminal: the whole document is kept on
///   screen and each frame rewrites only what changed, which is the
///   trailing block (`TerminalLiveScreen`);
/// - settled (`settledText(_:)`), for a file or a pipe: each top-level
///   block is written once, when it settles, and the trailing ones when
///   the stream is finished.
///
/// Both draw exactly the lines `TerminalWriter` draws for the finished
/// document in one go. Rendering is incremental: settled blocks keep their
/// run tree (`RunTreeRenderer`) and their lines, so a frame costs the
/// trailing block, not the document.
public struct TerminalStreamView: Sendable {
    public private(set) var writer: TerminalWriter
    public private(set) var screen: TerminalLiveScreen
    private var renderer: RunTreeRenderer
    /// The lines of each top-level block by id, with the blocks they were
    /// drawn from.
    private var cache: [UInt64: (blocks: [RenderedBlock], lines: [[String]])] = [:]
    /// Settled blocks changed since the last frame (a late link reference
    /// definition re-renders the blocks that used it).
    private var touched: Set<UInt64> = []
    /// Settled mode: top-level blocks written so far, and whether any
    /// written block had lines (the next one then starts with a blank line).
    private var written = 0
    private var wroteLines = false

    /// Ids for the trailing blocks of the display document, apart from the
    /// stream's ids (which count up from zero).
    private static let displayIDBase: UInt64 = 1 << 63

    public init(options: TerminalOptions, rows: Int, renderOptions: RenderOptions = .default,
                highlighter: (any CodeHighlighter)? = nil) {
        writer = TerminalWriter(options: options)
        screen = TerminalLiveScreen(rows: rows)
        renderer = RunTreeRenderer(theme: options.theme, options: renderOptions, highlighter: highlighter)
    }

    /// Notes what an update changed. Call it with every update, also those
    /// no frame is drawn for.
    public mutating func record(_ update: StreamUpdate) {
        for id in update.changed { touched.insert(id.rawValue) }
        for id in update.inserted { touched.insert(id.rawValue) }
    }

    /// The bytes that bring the terminal up to date with the stream.
    public mutating func frame(_ stream: MarkdownStream) -> String {
        screen.update(to: lines(stream))
    }

    /// After the terminal changed size: everything laid out again at
    /// `width`, the screen cleared and its last screenful drawn.
    public mutating func resize(_ stream: MarkdownStream, width: Int, rows: Int) -> String {
        writer.options.width = width
        cache = [:]
        return screen.redraw(lines(stream), rows: rows)
    }

    /// The lines the document shows now: settled blocks as parsed, the
    /// trailing ones as the display document shows them.
    public mutating func lines(_ stream: MarkdownStream) -> [String] {
        let update = stream.lastUpdate
        let settled = update.isFinal ? update.blockCount : update.settledCount
        let ids = update.blockIDs
        let starts = update.blockNodeIndices
        var input: [(id: UInt64, node: Node)] = []
        var unchanged = Set<UInt64>()
        for k in 0..<settled {
            let id = ids[k].rawValue
            input.append((id: id, node: update.document.node(at: starts[k])))
            if !touched.contains(id) { unchanged.insert(id) }
        }
        if !update.isFinal {
            var k = 0
            for node in displayDocument(stream).root.children {
                if k >= settled { input.append((id: Self.displayIDBase | UInt64(k), node: node)) }
                k += 1
            }
        }
        touched = []
        let rendered = renderer.render(blocks: input, unchanged: unchanged)
        var blockLines: [[String]] = []
        var next: [UInt64: (blocks: [RenderedBlock], lines: [[String]])] = [:]
        for group in Self.grouped(rendered.blocks) {
            let entry: (blocks: [RenderedBlock], lines: [[String]])
            if let cached = cache[group.id], cached.blocks == group.blocks {
                entry = cached
            } else {
                entry = (group.blocks, group.blocks.map { writer.lines(of: $0) })
            }
            next[group.id] = entry
            blockLines += entry.lines
        }
        cache = next
        return TerminalWriter.joined(blockLines)
    }

    /// The document shown for the unsettled trailing blocks: the
    /// provisional display (spec/streaming.md) — what unterminated
    /// constructs will most likely become. Settled blocks are exact.
    private func displayDocument(_ stream: MarkdownStream) -> Document {
        stream.provisionalDocument
    }

    /// Settled mode: the lines (each ended by a newline) of the blocks
    /// that settled since the last call — after `finish()`, of all the
    /// remaining blocks. Settled blocks are drawn from the exact parse.
    public mutating func settledText(_ stream: MarkdownStream) -> String {
        let update = stream.lastUpdate
        let settled = update.isFinal ? update.blockCount : update.settledCount
        guard settled > written else { return "" }
        let ids = update.blockIDs
        let starts = update.blockNodeIndices
        var input: [(id: UInt64, node: Node)] = []
        for k in written..<settled {
            input.append((id: ids[k].rawValue, node: update.document.node(at: starts[k])))
        }
        written = settled
        let rendered = renderer.render(blocks: input)
        var out = ""
        for block in rendered.blocks {
            let lines = writer.lines(of: block)
            if lines.isEmpty { continue }
            if wroteLines { out += "\n" }
            wroteLines = true
            for line in lines {
                out += line
                out += "\n"
            }
        }
        return out
    }

    /// Consecutive rendered blocks of the same top-level block.
    private static func grouped(_ blocks: [RenderedBlock]) -> [(id: UInt64, blocks: [RenderedBlock])] {
        var out: [(id: UInt64, blocks: [RenderedBlock])] = []
        for block in blocks {
            let id = block.id ?? 0
            if let last = out.last, last.id == id {
                out[out.count - 1].blocks.append(block)
            } else {
                out.append((id: id, blocks: [block]))
            }
        }
        return out
    }
}
