/// The footnote numbering of a stream, kept from snapshot to snapshot.
///
/// Numbers follow the batch parser (`BlockParser.renumberFootnotes`): a
/// label with a definition anywhere gets the next number at its first
/// reference; a reference is numbered (with which reference to its note it
/// is, and its definition's label) only when its label has a definition;
/// the first definition of a label carries the number and the count of
/// references, the others nothing.
///
/// Renumbering every footnote per snapshot made a stream quadratic in its
/// footnotes. The fold keeps the settled footnotes (`entries`, in document
/// order, extended as blocks settle and cut back where settled blocks are
/// emitted again) with what they give each label: its first settled
/// definition, its settled references, its place among the labels by
/// first reference and the number that place gives it. A snapshot then
/// costs its tail's footnotes, plus the settled ones from the first label
/// whose number moved — a definition arriving for a label referenced long
/// before moves the numbers after it, and those nodes are written anyway.
struct FootnoteFold {
    struct Entry {
        var node: Int32
        var key: Int32
        /// A reference: which reference of its label it is (1-based). A
        /// definition: 1 when it is its label's first, else 0.
        var ordinal: Int32
        var isDefinition: Bool
    }

    /// The settled footnote nodes, in document order.
    private var entries: [Entry] = []

    // Per label id, for the settled footnotes.
    private var firstDefinition: [Int32] = []
    private var referenceCount: [Int32] = []
    private var place: [Int32] = []
    // What the settled nodes of a label were last given.
    private var number: [Int32] = []
    private var defined: [Bool] = []
    private var label: [ByteRef] = []

    /// Labels in the order of their first settled reference; each one's
    /// first reference (an index of `entries`).
    private var order: [Int32] = []
    private var orderFirstEntry: [Int32] = []
    /// `definedBefore[p]`: labels with a definition among `order[..<p]`,
    /// for `p <= valid`; `number`, `defined` and `label` are right for the
    /// labels at places before `valid`.
    private var definedBefore: [Int32] = [0]
    private var valid = 0
    /// Entries from here on were added since the last renumbering.
    private var writeFrom = Int.max
    /// Labels whose settled footnotes changed since the last renumbering,
    /// and the labels the last snapshot's tail had.
    private var dirtyKeys: [Int32] = []
    private var lastTailKeys: [Int32] = []

    // Per label, for the tail of one renumbering (valid when
    // `tailMark[k] == epoch`).
    private var tailMark: [Int32] = []
    private var epoch: Int32 = 0
    private var tailDefinition: [Int32] = []
    private var tailReferences: [Int32] = []
    private var tailSeen: [Int32] = []
    private var tailNumber: [Int32] = []
    private var touched: [Int32] = []

    /// Nodes looked at (for tests: the cost of renumbering).
    private(set) var visited = 0

    /// Makes room for label ids below `count`.
    mutating func reserveKeys(_ count: Int) {
        let have = firstDefinition.count
        guard count > have else { return }
        let more = count - have
        firstDefinition.append(contentsOf: repeatElement(-1, count: more))
        referenceCount.append(contentsOf: repeatElement(0, count: more))
        place.append(contentsOf: repeatElement(-1, count: more))
        number.append(contentsOf: repeatElement(0, count: more))
        defined.append(contentsOf: repeatElement(false, count: more))
        label.append(contentsOf: repeatElement(ByteRef.empty, count: more))
        tailMark.append(contentsOf: repeatElement(-1, count: more))
        tailDefinition.append(contentsOf: repeatElement(-1, count: more))
        tailReferences.append(contentsOf: repeatElement(0, count: more))
        tailSeen.append(contentsOf: repeatElement(0, count: more))
        tailNumber.append(contentsOf: repeatElement(0, count: more))
    }

    /// A settled footnote node after the others (its label's id below the
    /// count given to `reserveKeys`, which the engine calls as it gives
    /// out ids).
    mutating func append(node: Int32, key: Int32, isDefinition: Bool) {
        let k = Int(key)
        var ordinal: Int32 = 0
        if isDefinition {
            if firstDefinition[k] < 0 {
                firstDefinition[k] = node
                ordinal = 1
            }
        } else {
            referenceCount[k] += 1
            ordinal = referenceCount[k]
            if ordinal == 1 {
                place[k] = Int32(order.count)
                order.append(key)
                orderFirstEntry.append(Int32(entries.count))
            }
        }
        writeFrom = min(writeFrom, entries.count)
        entries.append(Entry(node: node, key: key, ordinal: ordinal, isDefinition: isDefinition))
        dirtyKeys.append(key)
    }

    /// Forgets the settled footnote nodes from index `node` on (settled
    /// blocks emitted again).
    mutating func forget(from node: Int) {
        while let e = entries.last, Int(e.node) >= node {
            entries.removeLast()
            let k = Int(e.key)
            if e.isDefinition {
                if e.ordinal == 1 { firstDefinition[k] = -1 }
            } else {
                referenceCount[k] -= 1
                if referenceCount[k] == 0 {
                    order.removeLast()
                    orderFirstEntry.removeLast()
                    place[k] = -1
                }
            }
            dirtyKeys.append(e.key)
        }
        valid = min(valid, order.count)
    }

    /// Whether the settled footnotes are as the last renumbering left them.
    var unchangedSinceRenumbering: Bool { dirtyKeys.isEmpty && writeFrom == Int.max }

    /// Numbers the settled footnotes and `tail` (the footnote nodes after
    /// them, in document order, with their labels' ids) in `nodes`, through
    /// `write(node, number, number2, b)` (`b` nil: a definition's, left as
    /// it is), which writes only what differs.
    mutating func renumber(_ nodes: UnsafeMutableBufferPointer<RawNode>, tail: [(node: Int32, key: Int32)],
                           write: (Int, Int32, Int32, ByteRef?) -> Void) {
        epoch &+= 1
        touched.truncate(to: 0)
        visited &+= tail.count
        // The tail's definitions and references, per label.
        for (i, key) in tail {
            let k = Int(key)
            if tailMark[k] != epoch {
                tailMark[k] = epoch
                tailDefinition[k] = -1
                tailReferences[k] = 0
                tailSeen[k] = 0
                tailNumber[k] = 0
                touched.append(key)
            }
            if nodes[Int(i)].kind == .footnoteDefinition {
                if firstDefinition[k] < 0 && tailDefinition[k] < 0 { tailDefinition[k] = i }
            } else {
                tailReferences[k] += 1
            }
        }
        @inline(__always) func inTail(_ k: Int) -> Bool { tailMark[k] == epoch }
        @inline(__always) func definition(_ k: Int) -> Int32 {
            firstDefinition[k] >= 0 ? firstDefinition[k] : (inTail(k) ? tailDefinition[k] : -1)
        }
        // A settled label whose definition appeared, went or moved: the
        // numbers from its place on are stale.
        func check(_ key: Int32) {
            let k = Int(key)
            let p = Int(place[k])
            guard p >= 0, p < valid else { return }
            let d = definition(k)
            if (d >= 0) != defined[k] || (d >= 0 && nodes[Int(d)].a != label[k]) { valid = p }
        }
        for k in dirtyKeys { check(k) }
        for k in lastTailKeys { check(k) }
        for k in touched { check(k) }
        // The settled labels from `valid` on.
        var next = definedBefore[valid] + 1
        if definedBefore.count > valid + 1 { definedBefore.truncate(to: (valid + 1)) }
        var changedFrom = Int.max
        for p in valid..<order.count {
            let k = Int(order[p])
            let d = definition(k)
            let n: Int32 = d >= 0 ? next : 0
            if d >= 0 { next += 1 }
            let a = d >= 0 ? nodes[Int(d)].a : ByteRef.empty
            if n != number[k] || (d >= 0) != defined[k] || a != label[k] {
                if changedFrom == Int.max { changedFrom = p }
                number[k] = n
                defined[k] = d >= 0
                label[k] = a
                dirtyKeys.append(Int32(k))
            }
            definedBefore.append(next - 1)
        }
        visited &+= order.count - valid
        valid = order.count
        // Their settled references (from the first reference of the first
        // label whose number moved: every later label's references follow
        // it), and the settled definitions that are not their label's first.
        let from = min(writeFrom, changedFrom == Int.max ? Int.max : Int(orderFirstEntry[changedFrom]))
        if from < entries.count {
            visited &+= entries.count - from
            for e in entries[from...] {
                let k = Int(e.key)
                if !e.isDefinition {
                    let d = defined[k]
                    write(Int(e.node), number[k], d ? e.ordinal : 0, d ? label[k] : .empty)
                } else if e.ordinal == 0 {
                    write(Int(e.node), 0, 0, nil)
                }
            }
        }
        writeFrom = Int.max
        // The tail: settled labels keep their numbers; the others are
        // numbered after them, at their first reference.
        var tailNext = next
        for (i, key) in tail {
            let k = Int(key)
            if nodes[Int(i)].kind == .footnoteDefinition {
                continue
            }
            tailSeen[k] += 1
            let n: Int32
            let d: Int32
            if place[k] >= 0 {
                n = number[k]
                d = n > 0 ? definition(k) : -1
            } else {
                d = definition(k)
                if d >= 0 && tailNumber[k] == 0 {
                    tailNumber[k] = tailNext
                    tailNext += 1
                }
                n = d >= 0 ? tailNumber[k] : 0
            }
            write(Int(i), n, d >= 0 ? referenceCount[k] + tailSeen[k] : 0, d >= 0 ? nodes[Int(d)].a : .empty)
        }
        @inline(__always) func labelNumber(_ k: Int) -> Int32 {
            place[k] >= 0 ? number[k] : (inTail(k) ? tailNumber[k] : 0)
        }
        @inline(__always) func total(_ k: Int) -> Int32 {
            referenceCount[k] + (inTail(k) ? tailReferences[k] : 0)
        }
        for (i, key) in tail where nodes[Int(i)].kind == .footnoteDefinition {
            let k = Int(key)
            if tailDefinition[k] == i && firstDefinition[k] < 0 {
                write(Int(i), labelNumber(k), total(k), nil)
            } else {
                write(Int(i), 0, 0, nil)
            }
        }
        // The settled first definitions whose number or count may have
        // moved: of labels whose settled footnotes or number changed, or
        // that the tail references now or did before.
        func writeDefinition(_ key: Int32) {
            let k = Int(key)
            let d = firstDefinition[k]
            if d >= 0 { write(Int(d), labelNumber(k), total(k), nil) }
        }
        for k in dirtyKeys { writeDefinition(k) }
        for k in lastTailKeys { writeDefinition(k) }
        for k in touched { writeDefinition(k) }
        visited &+= dirtyKeys.count + lastTailKeys.count
        dirtyKeys.truncate(to: 0)
        swap(&lastTailKeys, &touched)
    }
}
