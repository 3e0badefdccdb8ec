import Testing
@testable import Tidemark

/// A UI keeps the update it shows while the next append runs. The stream
/// then goes on in a spare storage (`reclaimHeld`) and must cost what it
/// costs without readers — not a copy of the trailing block or of the
/// settled block list per append — and every held update must keep
/// showing what it showed.
@Suite struct HoldingTests {
    /// Copies share a buffer; an append to the copy that wrote last is in
    /// place, any other copies first, and no copy ever sees another's
    /// elements change.
    @Test func growingListsKeepWhatEachCopyShows() {
        var a: GrowingList<Int> = [1, 2, 3]
        let held = a
        a.append(4)
        #expect(Array(held) == [1, 2, 3])
        #expect(Array(a) == [1, 2, 3, 4])
        var b = held
        b.append(9)  // `a` wrote past `held` already: `b` copies
        #expect(Array(b) == [1, 2, 3, 9])
        #expect(Array(a) == [1, 2, 3, 4])
        #expect(Array(held) == [1, 2, 3])
        a.removeSubrange(1...)
        a.append(7)  // shortened: copies, `b` and `held` keep theirs
        #expect(Array(a) == [1, 7])
        #expect(Array(b) == [1, 2, 3, 9])
        var c = GrowingList<Int>()
        for i in 0..<100 { c.append(i) }
        let c50 = c
        for i in 100..<1000 { c.append(i) }
        #expect(Array(c) == Array(0..<1000))
        #expect(Array(c50) == Array(0..<100))
        #expect(c.last == 999 && c50.count == 100 && c.lastIndex(of: 5) == 5)
    }

    /// The same across chunk boundaries (a list is cut back and grown again
    /// while copies of it are held, as when settled blocks are emitted
    /// again): random appends, cuts and copies, each list checked against
    /// an array after every step.
    @Test func growingListsAcrossChunks() {
        var rng = StreamingPropertyTests.Rng(state: 18)
        var lists: [(list: GrowingList<Int>, model: [Int])] = [([], [])]
        for step in 0..<2_000 {
            let k = Int(rng.next() % UInt64(lists.count))
            switch rng.next() % 10 {
            case 0 where lists.count < 8:
                lists.append(lists[k])
            case 1:
                let cut = lists[k].model.isEmpty ? 0 : Int(rng.next() % UInt64(lists[k].model.count + 1))
                lists[k].list.removeSubrange(cut...)
                lists[k].model.removeSubrange(cut...)
            default:
                let more = 1 + Int(rng.next() % 300)
                for _ in 0..<more {
                    lists[k].list.append(step)
                    lists[k].model.append(step)
                }
            }
            // (Every list: a step may change what another copy shows.)
            for (list, model) in lists where list.count != model.count || (step % 20 == 0 && !list.elementsEqual(model))
                || (list.count > 0 && list[list.count - 1] != model[model.count - 1]) {
                Issue.record("step \(step): a list of \(list.count) differs from its model of \(model.count)")
                return
            }
        }
        #expect(lists.contains { $0.model.count > 2 * GrowingList<Int>.chunkSize })
    }

    /// `Array.truncate(to:)` (the streaming paths' way to cut arrays back
    /// by a few elements) drops what `removeSubrange` drops, one by one or
    /// not, leaves a copy taken before it alone, and does nothing past the
    /// end.
    @Test func arraysTruncateLikeRemoveSubrange() {
        var rng = StreamingPropertyTests.Rng(state: 19)
        var a: [String] = []
        var model: [String] = []
        var held: [String] = []
        for step in 0..<3_000 {
            switch rng.next() % 4 {
            case 0:
                // A cut of up to 20 (both ways), sometimes past the end.
                let n = max(0, a.count - Int(rng.next() % 21))
                let past = rng.next() % 8 == 0
                if rng.next() % 3 == 0 { held = a }
                let before = held
                a.truncate(to: past ? a.count + 1 : n)
                if !past { model.removeSubrange(n...) }
                #expect(held == before, "step \(step): a copy changed")
            default:
                for _ in 0..<Int(rng.next() % 12) {
                    a.append("\(step)")
                    model.append("\(step)")
                }
            }
            if a != model {
                Issue.record("step \(step): \(a.count) elements, want \(model.count)")
                return
            }
        }
        #expect(model.count > 20)
    }

    /// An update held while many blocks settle after it still shows its own
    /// blocks, ids and document; the stream stays exact.
    @Test func heldUpdatesKeepTheirBlocks() {
        var stream = MarkdownStream()
        var text = ""
        var kept: [(StreamUpdate, [BlockID], Document)] = []
        var last: StreamUpdate? = nil
        for k in 1...60 {
            let section = "## Part \(k)\n\nText of part \(k), in *words*.\n\n"
            for chunk in section.utf8.chunked(4) {
                last = stream.append(bytes: Array(chunk))
            }
            text += section
            if k % 15 == 0, let u = last { kept.append((u, u.blockIDs, u.document)) }
        }
        #expect(stream.document == Document(parsing: text))
        for (u, ids, doc) in kept {
            #expect(u.blockIDs == ids)
            #expect(u.document == doc)
            #expect(u.blockCount == ids.count)
        }
        #expect(kept.count == 4 && kept[0].1.count < kept[3].1.count)
    }

    /// An update held for a long time while the stream types into many
    /// rows of one table (a spare storage gathers more changed nodes than
    /// it keeps track of, and falls back to copying from the lowest), or
    /// settles many blocks, then let go: the stream continues in that
    /// storage, exact (debug builds also check every spare storage against
    /// the current one when it is reused), and the held update shows what
    /// it showed.
    @Test(arguments: ["table", "blocks"])
    func updatesHeldLongThenLetGo(shape: String) {
        let intro = shape == "table" ? "| a | b |\n|---|---|\n| 1 | 2 |\n" : (1...10).map { "- item \($0)\n" }.joined()
        func line(_ k: Int) -> String {
            if shape == "table" { return "| row \(k) | *x* |\n" }
            return k % 3 == 0 ? "  - nested \(k) with words\n" : k % 3 == 1 ? "\nParagraph \(k), a few words.\n\n" : "- item \(k) with a few words\n"
        }
        var stream = MarkdownStream()
        var text = intro
        var first: StreamUpdate? = stream.append(intro)
        let shown = first?.document
        var held: StreamUpdate? = nil
        for k in 1...150 {
            for chunk in line(k).utf8.chunked(4) { held = stream.append(bytes: Array(chunk)) }
            text += line(k)
            if k == 120 {
                #expect(first?.document == shown)
                first = nil
            }
        }
        #expect(stream.document == Document(parsing: text))
        #expect(held?.document == Document(parsing: text))
        #expect(shown == Document(parsing: intro))
    }

    /// A copied stream goes its own way: both copies settle blocks after
    /// the copy, each exact, and neither shows the other's blocks.
    @Test func copiedStreamsGoTheirOwnWays() {
        var a = MarkdownStream()
        let intro = (1...20).map { "## Part \($0)\n\nText \($0).\n\n" }.joined()
        a.append(intro)
        var b = a
        var (ta, tb) = (intro, intro)
        for k in 1...30 {
            let x = "Only in a, \(k).\n\n", y = "- only in b \(k)\n\n# Heading \(k)\n\n"
            for chunk in x.utf8.chunked(4) { a.append(bytes: Array(chunk)) }
            for chunk in y.utf8.chunked(3) { b.append(bytes: Array(chunk)) }
            ta += x
            tb += y
        }
        #expect(a.document == Document(parsing: ta))
        #expect(b.document == Document(parsing: tb))
        let (ua, ub) = (a.finish(), b.finish())
        #expect(ua.blockIDs.count == Array(ua.document.root.children).count)
        #expect(ub.blockIDs.count == Array(ub.document.root.children).count)
        #expect(Array(ua.blockIDs.prefix(40)) == Array(ub.blockIDs.prefix(40)))
    }

    /// Streams `intro` in one append, then `typed` in 4-byte appends,
    /// holding each update until the next append returns: at most
    /// `perAppend` nodes copied into spare storages per append on average,
    /// and the stream and the last update exact.
    static func expectFewNodesCopied(intro: String, typed: String, perAppend: Int, arenaPerAppend: Int? = nil,
                                     sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var stream = MarkdownStream()
        stream.append(intro)
        let (before, arenaBefore) = (stream.engine.heldNodesCopied, stream.engine.heldArenaCopied)
        var held: StreamUpdate? = nil
        var appends = 0
        for chunk in typed.utf8.chunked(4) {
            held = stream.append(bytes: Array(chunk))
            appends += 1
        }
        let copied = stream.engine.heldNodesCopied - before
        #expect(copied <= appends * perAppend, "\(copied) nodes copied in \(appends) appends", sourceLocation: sourceLocation)
        if let arenaPerAppend {
            let arena = stream.engine.heldArenaCopied - arenaBefore
            #expect(arena <= appends * arenaPerAppend, "\(arena) arena bytes copied in \(appends) appends",
                    sourceLocation: sourceLocation)
        }
        #expect(stream.document == Document(parsing: intro + typed), sourceLocation: sourceLocation)
        #expect(held?.document == Document(parsing: intro + typed), sourceLocation: sourceLocation)
    }

    /// Plain text typed into the last item of a long list while each update
    /// is held: the spare storage the append continues in gets the text
    /// node, the nodes after it and the ends of its ancestors — a few nodes
    /// per append, not the list's (270 nodes in 56 appends; 6,750 when
    /// each append copied the trailing list).
    @Test func typingWhileHoldingCopiesFewNodes() {
        HoldingTests.expectFewNodesCopied(intro: (1...40).map { "- item \($0)\n" }.joined(),
                                          typed: "- " + String(repeating: "more words typed here ", count: 10), perAppend: 12)
    }

    /// Rows typed into a long table while each update is held: the cell,
    /// URL, row, new-row and plain paths copy the nodes from the one they
    /// write on, and the ends of its ancestors — not the table's nodes
    /// (1,654 nodes in 100 appends; 23,587 when each copied the table).
    @Test func typingRowsWhileHoldingCopiesFewNodes() {
        HoldingTests.expectFewNodesCopied(
            intro: "| Name | Link | Notes |\n|---|---|---|\n" + (1...30).map { "| row \($0) | x | y |\n" }.joined(),
            typed: (1...5).map { "| Item \($0) with words | https://example.com/docs?q=\($0)&r=x | some *notes* here |\n" }.joined(),
            perAppend: 24)
    }

    /// Lines typed into a long hard-wrapped paragraph while each update is
    /// held: its line feeds and the passes over it copy what they write —
    /// the root, the paragraph's ends and the nodes from where the pass's
    /// emission starts — not the paragraph (until session 23 each line
    /// copied all of it into every spare: a 150 KB paragraph streamed at
    /// 41.7× a batch parse while holding, 5.8× without).
    @Test func typingLinesOfALongParagraphWhileHoldingCopiesFewNodes() {
        HoldingTests.expectFewNodesCopied(
            intro: (1...150).map { "line \($0) with *some* emphasis and `code` in it\n" }.joined(),
            typed: (1...10).map { "more \($0) with *words* and `spans` typed here\n" }.joined(),
            perAppend: 24)
    }

    /// Items typed into a long nested list while each update is held. An
    /// item's indentation (`appendBlankLineStart`) writes the root's end,
    /// and `  -` shown as a setext underline under the item's paragraph
    /// and taken back (`appendSetextUnderline`, `retractSetextUnderline`)
    /// the paragraph and its ancestors: until session 25 each claimed the
    /// whole trailing list, which every spare then copied (a nested list of
    /// 2,000 items held cost 1,494.6 M instructions, ×3.9 at 4,000).
    @Test func typingItemsOfANestedListWhileHoldingCopiesFewNodes() {
        HoldingTests.expectFewNodesCopied(
            intro: (1...60).map { "- item \($0)\n  - sub *a*\n" }.joined(),
            typed: (1...8).map { "- item \($0)\n  - sub *a* text\n    - deeper\n" }.joined(),
            perAppend: 24)
    }

    /// Items typed into a long ordered list while each update is held: an
    /// item's number is shown as a line of the paragraph before it until
    /// its `.` arrives, then taken back (`settleDigitLine`), which claimed
    /// the whole trailing list until session 26 (8,000 items held: 94.7 ms,
    /// ×4.8 at 16,000).
    @Test func typingItemsOfAnOrderedListWhileHoldingCopiesFewNodes() {
        HoldingTests.expectFewNodesCopied(
            intro: (1...150).map { "\($0). item with *some* words\n" }.joined(),
            typed: (151...160).map { "\($0). new item with `code`\n" }.joined(),
            perAppend: 24)
        HoldingTests.expectFewNodesCopied(
            intro: (1...150).map { "\($0)) item with *some* words\n" }.joined(),
            typed: (151...160).map { "\($0)) new item with `code`\n" }.joined(),
            perAppend: 24)
    }

    /// Appends that go the exact way inside a long list while each update
    /// is held: a sub-item under a bullet (`- a\n  2. b`), an item of a
    /// list in a quote. The snapshot claims the nodes `emitTail` wrote —
    /// from its first difference on, and the containers, parents and
    /// siblings it linked below that — not the whole trailing list, as it
    /// did until session 26 (2,000 sub-items held: 45 ms, ×4.2 at 4,000;
    /// 20 ms now). And an item of a loose ordered list whose number
    /// arrives alone after the blank line (`\n\n1` then `52) `): the
    /// new-block pass shows `1` as a new top-level paragraph after the
    /// list, which claimed every unsettled node; it claims the new nodes,
    /// the root and the list's node (its link) now.
    @Test func exactAppendsInALongListWhileHoldingCopyFewNodes() {
        HoldingTests.expectFewNodesCopied(
            intro: (1...150).map { "\($0)) item with *some* words\n\n" }.joined(),
            typed: (151...160).map { "\($0)) new item with `code`\n\n" }.joined(),
            perAppend: 24)
        HoldingTests.expectFewNodesCopied(
            intro: (1...100).map { "- item \($0)\n  \($0 % 9 + 1)) sub item\n" }.joined(),
            typed: (101...108).map { "- item \($0)\n  \($0 % 9 + 1). sub *a*\n" }.joined(),
            perAppend: 24)
        HoldingTests.expectFewNodesCopied(
            intro: (1...100).map { "> - item \($0)\n>   more\n" }.joined(),
            typed: (101...108).map { "> - item \($0)\n>   1. sub *a*\n" }.joined(),
            perAppend: 40)
    }

    /// Items typed into a long list, and lines into a long quote, while
    /// each update is held: a new item's block pass, its first content and
    /// a line's `>` markers copy the nodes they write (the item before, the
    /// new ones, the ends of the list and its ancestors) — not the list or
    /// the quote (until session 23 a 2,000-item list streamed at 13× its
    /// unheld cost while holding, and doubling it took ×3.6).
    @Test func typingItemsOfALongListWhileHoldingCopiesFewNodes() {
        HoldingTests.expectFewNodesCopied(
            intro: (1...150).map { "- item \($0) with *some* words and `code`\n" }.joined(),
            typed: (1...10).map { "- new \($0) with *more* words and `spans`\n" }.joined(),
            perAppend: 24)
        HoldingTests.expectFewNodesCopied(
            intro: (1...150).map { "> quote line \($0) with *some* words\n" }.joined(),
            typed: (1...10).map { "> more \($0) with *words* typed\n" }.joined(),
            perAppend: 24)
    }
}

extension HoldingTests {
    /// Lines typed into a long code block — fenced, indented with a tab or
    /// with four spaces, in an item — an HTML block or a math block while
    /// each update is held: the paths copy the block's node and the
    /// literal's last bytes into the spare, not the literal (until session
    /// 24 every append copied the whole literal: a fenced block of 4,000
    /// lines streamed at 20× its unheld cost while holding, a math block at
    /// 19×, and doubling either took ×4).
    @Test func typingLinesOfALongCodeBlockWhileHoldingCopiesLittleOfIt() {
        for (opener, indent) in [("```\n", ""), ("", "\t"), ("", "    "), ("- a\n\n  ```\n", "  "), ("<div>\n", "<p>"),
                                 ("$$\n", "\\alpha ")] {
            HoldingTests.expectFewNodesCopied(intro: opener + (1...150).map { indent + "let x\($0) = f(y) + \($0)\n" }.joined(),
                                              typed: (1...10).map { indent + "let z\($0) = g(x) * \($0)\n" }.joined(),
                                              perAppend: 8, arenaPerAppend: 16)
        }
    }
}

extension Collection {
    /// The collection in pieces of `n` elements (the last may be shorter).
    func chunked(_ n: Int) -> [SubSequence] {
        var pieces: [SubSequence] = []
        var i = startIndex
        while i != endIndex {
            let j = index(i, offsetBy: n, limitedBy: endIndex) ?? endIndex
            pieces.append(self[i..<j])
            i = j
        }
        return pieces
    }
}
