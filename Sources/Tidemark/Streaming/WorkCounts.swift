/// Counts of the work a stream has done, by kind of step: for finding where
/// streaming costs go (`tidemark-bench stream FILE --paths`). Not API — an
/// SPI whose names and meanings follow the engine and may change with it:
///
/// ```swift
/// @_spi(Diagnostics) import Tidemark
/// let before = stream.workCounts
/// stream.append(chunk)
/// if stream.workCounts.paragraphPasses > before.paragraphPasses { … }
/// ```
@_spi(Diagnostics)
public struct StreamWorkCounts: Sendable, Hashable {
    /// Appends that took the exact path: a snapshot of the trailing block
    /// through the block parser, emitted again.
    public var snapshots: Int
    /// Appends whose line the block parser took from a checkpoint (a line
    /// that starts a new block or container).
    public var newBlockPasses: Int
    /// Appends that parsed the trailing paragraph's or heading's inlines
    /// again from their resume point.
    public var paragraphPasses: Int
    /// Appends that split the trailing table row into cells again and
    /// parsed its open cell's inlines.
    public var rowPasses: Int
    /// Nodes and arena bytes appends copied into a spare storage because a
    /// reader held the document before.
    public var heldNodesCopied: Int
    public var heldArenaCopied: Int

    /// Appends that took any pass or snapshot: the others only extended
    /// what was there (plain text, a code line, a line feed, a cell).
    public var passes: Int { snapshots + newBlockPasses + paragraphPasses + rowPasses }
}

extension MarkdownStream {
    /// What this stream's appends did so far (see `StreamWorkCounts`).
    @_spi(Diagnostics)
    public var workCounts: StreamWorkCounts {
        StreamWorkCounts(snapshots: engine.fullSnapshots, newBlockPasses: engine.newBlockPasses,
                         paragraphPasses: engine.paragraphPasses, rowPasses: engine.rowPasses,
                         heldNodesCopied: engine.heldNodesCopied, heldArenaCopied: engine.heldArenaCopied)
    }
}
