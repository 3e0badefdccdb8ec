import Tidemark

/// A hash of everything a top-level block's rendering depends on, so an
/// unchanged block can be reused instead of rebuilt.
///
/// A top-level block's tree is a function of its own source bytes and of
/// two document-wide facts: link reference definitions (which decide link
/// destinations and titles) and footnote numbering. So the hash covers the
/// bytes, the shape of the tree (kinds and ranges relative to the block's
/// start, so a block that moved still matches), those attributes, and the
/// literals and every attribute the renderer reads (which can depend on
/// bytes before the block's range, such as a code fence's indentation).
///
/// Offsets are relative because `RenderedBlock.range`s are rebased on reuse.
struct ContentHasher: MarkdownWalker {
    private var hasher = Hasher()
    private let base: Int

    private init(base: Int) {
        self.base = base
    }

    /// The hash of `node`'s subtree; `source` is the document's source
    /// bytes when available.
    static func hash(_ node: Node, source: UnsafeBufferPointer<UInt8>?) -> Int {
        let range = node.range
        var walker = ContentHasher(base: range.lowerBound)
        if let source {
            let clamped = min(range.lowerBound, source.count)..<min(range.upperBound, source.count)
            walker.hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: source[clamped])))
        }
        node.walk(&walker)
        return walker.hasher.finalize()
    }

    mutating func enter(_ node: Node) -> WalkAction {
        let kind = node.kind
        let range = node.range
        hasher.combine(kind.rawValue)
        hasher.combine(range.lowerBound - base)
        hasher.combine(range.upperBound - base)
        switch kind {
        case .link, .image:
            hasher.combine(node.destination)
            hasher.combine(node.title)
        case .footnoteReference, .footnoteDefinition:
            hasher.combine(node.footnoteNumber)
        default:
            break
        }
        // Always: a block's literals can depend on bytes outside its range
        // (a fence indented by one space strips one space from each line;
        // the fuzzer found two such fences with equal range bytes).
        combineLocalAttributes(node)
        return .visitChildren
    }

    mutating func exit(_ node: Node) {
        // Marks the end of a node's children, so that shapes with the same
        // pre-order sequence of nodes still hash apart.
        hasher.combine(UInt8.max)
    }

    /// What the source bytes would have decided: literals and the
    /// attributes parsed from the block's own text.
    private mutating func combineLocalAttributes(_ node: Node) {
        switch node.kind {
        case .text, .code, .html, .htmlBlock, .math, .mathBlock:
            hasher.combine(node.literal)
            hasher.combine(node.isDisplayMath)
        case .codeBlock:
            hasher.combine(node.literal)
            hasher.combine(node.info)
        case .heading:
            hasher.combine(node.headingLevel)
        case .list:
            hasher.combine(node.listType)
            hasher.combine(node.listStart)
            hasher.combine(node.isTight)
            hasher.combine(node.listMarker)
        case .item:
            hasher.combine(node.taskState)
        case .alert:
            hasher.combine(node.alertKind)
        case .tableRow:
            hasher.combine(node.isHeaderRow)
        case .tableCell:
            hasher.combine(node.cellAlignment)
        case .footnoteReference, .footnoteDefinition:
            hasher.combine(node.footnoteLabel)
        default:
            break
        }
    }
}
