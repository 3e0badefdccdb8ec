import Tidemark

/// Renders documents into run trees, reusing the blocks that did not
/// change since the previous render.
///
/// The cache holds the rendered top-level blocks of the last render, keyed
/// by block identity and a hash of the block's content (`ContentHasher`).
/// Theme, options and highlighter are part of the key too: changing any of
/// them empties the cache. Each render keeps only the entries it used, so
/// memory follows the current document.
///
/// Two ways in:
/// - `render(_:)` takes a whole document; a block is identified by its
///   content (identical blocks share one entry).
/// - `render(blocks:unchanged:)` takes top-level blocks with ids that the
///   caller keeps stable, as a streaming update provides them; ids the
///   caller knows to be unchanged skip even the hashing.
///
/// A value type: copy it to fork the cache; it is `Sendable`.
public struct RunTreeRenderer: Sendable {
    public var theme: Theme {
        didSet { if theme != oldValue { invalidate() } }
    }
    public var options: RenderOptions {
        didSet { if options != oldValue { invalidate() } }
    }
    /// Colors code blocks; `nil` shows plain code.
    public var highlighter: (any CodeHighlighter)? {
        // Highlighters are not comparable: any assignment empties the cache.
        didSet { invalidate() }
    }

    /// Counts of top-level blocks built and reused.
    public struct Statistics: Sendable, Hashable {
        public var blocksBuilt = 0
        public var blocksReused = 0
        public init() {}
    }

    /// Since this renderer was made.
    public private(set) var statistics = Statistics()
    /// In the most recent render.
    public private(set) var lastRender = Statistics()

    private struct Entry: Sendable {
        var hash: Int
        /// Where the block started when it was built; its blocks' ranges
        /// are shifted from there to wherever it is now.
        var start: Int
        var blocks: [RenderedBlock]
    }

    private var byContent: [Int: Entry] = [:]
    private var byID: [UInt64: Entry] = [:]

    public init(theme: Theme = .default, options: RenderOptions = .default,
                highlighter: (any CodeHighlighter)? = nil) {
        self.theme = theme
        self.options = options
        self.highlighter = highlighter
    }

    /// Empties the cache.
    public mutating func invalidate() {
        byContent = [:]
        byID = [:]
    }

    /// Renders `document`, reusing unchanged top-level blocks.
    public mutating func render(_ document: Document) -> RenderedDocument {
        lastRender = Statistics()
        let source = document.source
        var kept: [Int: Entry] = [:]
        var blocks: [RenderedBlock] = []
        source.withUnsafeBufferPointer { source in
            for node in document.root.children {
                let hash = ContentHasher.hash(node, source: source)
                let entry: Entry
                if let cached = kept[hash] ?? byContent[hash] {
                    entry = cached
                    lastRender.blocksReused += 1
                } else {
                    entry = build(node, hash: hash)
                }
                kept[hash] = entry
                blocks.append(contentsOf: Self.rebased(entry, to: node.range.lowerBound, id: nil))
            }
        }
        byContent = kept
        record()
        return RenderedDocument(blocks: blocks)
    }

    /// Renders top-level blocks identified by caller-supplied ids (a
    /// streaming update's block ids). An id in `unchanged` that is cached
    /// is reused without looking at its node; any other id is reused when
    /// its content hash matches the cached one, and rebuilt otherwise.
    /// Every rendered top-level block carries its `id`.
    public mutating func render(blocks input: [(id: UInt64, node: Node)],
                                unchanged: Set<UInt64> = []) -> RenderedDocument {
        lastRender = Statistics()
        var kept: [UInt64: Entry] = [:]
        var blocks: [RenderedBlock] = []
        for (id, node) in input {
            let entry: Entry
            if unchanged.contains(id), let cached = byID[id] {
                entry = cached
                lastRender.blocksReused += 1
            } else {
                let hash = ContentHasher.hash(node, source: nil)
                if let cached = byID[id], cached.hash == hash {
                    entry = cached
                    lastRender.blocksReused += 1
                } else {
                    entry = build(node, hash: hash)
                }
            }
            kept[id] = entry
            blocks.append(contentsOf: Self.rebased(entry, to: node.range.lowerBound, id: id))
        }
        byID = kept
        record()
        return RenderedDocument(blocks: blocks)
    }

    private mutating func build(_ node: Node, hash: Int) -> Entry {
        lastRender.blocksBuilt += 1
        let blocks = BlockTreeBuilder.blocks(of: node, theme: theme, options: options, highlighter: highlighter)
        return Entry(hash: hash, start: node.range.lowerBound, blocks: blocks)
    }

    private mutating func record() {
        statistics.blocksBuilt += lastRender.blocksBuilt
        statistics.blocksReused += lastRender.blocksReused
    }

    private static func rebased(_ entry: Entry, to start: Int, id: UInt64?) -> [RenderedBlock] {
        let delta = start - entry.start
        if delta == 0 && id == nil { return entry.blocks }
        return entry.blocks.map { block in
            var block = delta == 0 ? block : shifted(block, by: delta)
            block.id = id
            return block
        }
    }

    /// `block` with every range moved by `delta` (recursion is bounded by
    /// `RenderOptions.maxDepth`).
    private static func shifted(_ block: RenderedBlock, by delta: Int) -> RenderedBlock {
        var block = block
        block.range = (block.range.lowerBound + delta)..<(block.range.upperBound + delta)
        let children = block.children
        if !children.isEmpty { block.setChildren(children.map { shifted($0, by: delta) }) }
        return block
    }
}

extension RenderedDocument {
    /// Renders a document once; no cache, so no hashing either.
    public init(_ document: Document, theme: Theme = .default, options: RenderOptions = .default,
                highlighter: (any CodeHighlighter)? = nil) {
        self.init(blocks: BlockTreeBuilder.blocks(of: document.root, theme: theme, options: options,
                                                  highlighter: highlighter))
    }
}
