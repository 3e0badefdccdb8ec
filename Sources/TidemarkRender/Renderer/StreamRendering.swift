import Tidemark

extension RunTreeRenderer {
    /// Renders a streaming update: every top-level block under its stream
    /// id, the blocks the update kept reused without being looked at.
    public mutating func render(_ update: StreamUpdate) -> RenderedDocument {
        var blocks: [(id: UInt64, node: Node)] = []
        blocks.reserveCapacity(update.blockIDs.count)
        for (id, index) in zip(update.blockIDs, update.blockNodeIndices) {
            blocks.append((id: id.rawValue, node: update.document.node(at: index)))
        }
        return render(blocks: blocks, unchanged: Set(update.kept.map(\.rawValue)))
    }
}
