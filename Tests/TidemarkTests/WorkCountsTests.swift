import Testing
@_spi(Diagnostics) import Tidemark

/// The work counts `tidemark-bench stream FILE --paths` reads (an SPI): each
/// kind of step an append takes moves its own count, and only that one.
@Suite struct WorkCountsTests {
    @Test func eachKindOfStepMovesItsCount() {
        var stream = MarkdownStream()
        stream.append("Intro text\n\nSome words")
        var before = stream.workCounts
        // Plain text after plain text: no pass at all.
        stream.append(" and more")
        #expect(stream.workCounts == before)
        // A closer in the trailing paragraph: an inline pass.
        stream.append(" *a")
        before = stream.workCounts
        stream.append("b*")
        #expect(stream.workCounts.paragraphPasses == before.paragraphPasses + 1)
        #expect(stream.workCounts.passes == before.passes + 1)
        // A list item's marker after a blank line: a new block's line.
        stream.append("\n\n")
        before = stream.workCounts
        stream.append("- it")
        #expect(stream.workCounts.newBlockPasses == before.newBlockPasses + 1)
        #expect(stream.workCounts.snapshots == before.snapshots)
        // The final snapshot.
        before = stream.workCounts
        stream.finish()
        #expect(stream.workCounts.snapshots == before.snapshots + 1)
        #expect(stream.document == Document(parsing: "Intro text\n\nSome words and more *ab*\n\n- it"))
    }

    /// A reader that keeps the last update (as a UI showing it does) makes
    /// the next append continue in a spare storage, brought up to date by
    /// copying what changed; no reader, no copy.
    @Test func heldUpdatesCountTheirCopies() {
        var stream = MarkdownStream()
        var held: StreamUpdate? = nil
        for k in 0..<50 { held = stream.append("word\(k) ") }
        #expect(stream.workCounts.heldNodesCopied > 0)
        #expect(held?.document == Document(parsing: (0..<50).map { "word\($0) " }.joined()))
        var free = MarkdownStream()
        for k in 0..<50 { free.append("word\(k) ") }
        #expect(free.workCounts.heldNodesCopied == 0)
    }
}
