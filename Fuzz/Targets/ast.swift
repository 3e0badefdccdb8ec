// Fuzz target `ast`: walk the tree and read every attribute of every node.
//
// Input: byte 0 = ParseOptions raw value, the rest = the Markdown bytes.
//
// Checks: no crash; `checkTree`; the walker enters nodes in index order and
// exits them in a balanced way; `skipChildren` and `stop` do what they say;
// `children`, `firstChild`, `lastChild` and `nextSibling` agree; locations
// are monotonic; every attribute is readable and in range; `plainText`
// works on every node; the document equals and hashes like itself.

import Tidemark

/// Reads everything a node offers; returns a checksum so the optimizer
/// cannot drop the reads.
func readEverything(_ doc: Document, _ node: Node) -> Int {
    var sum = node.index &+ Int(node.kind.rawValue)
    sum &+= node.range.count
    let start = node.startLocation, end = node.endLocation
    require(start.line >= 1 && start.column >= 1 && end.line >= 1 && end.column >= 1, "location below 1:1")
    require(start.line < end.line || (start.line == end.line && start.column <= end.column),
            "node \(node.index) starts at \(start) after it ends at \(end)")
    require(doc.location(of: node.range.lowerBound) == start, "startLocation disagrees with location(of:)")
    sum &+= node.kind.name.utf8.count
    sum &+= node.kind.isBlock ? 1 : 0
    sum &+= node.literal?.utf8.count ?? 0
    sum &+= node.headingLevel ?? 0
    sum &+= node.isSetextHeading ? 1 : 0
    sum &+= Int(node.listType?.rawValue ?? 9)
    sum &+= node.listStart ?? 0
    sum &+= node.isTight == true ? 1 : 0
    sum &+= node.listMarker.map { $0.utf8.count } ?? 0
    sum &+= Int(node.taskState.rawValue)
    sum &+= node.isFenced ? 1 : 0
    sum &+= node.info?.utf8.count ?? 0
    if let language = node.language {
        require(!language.isEmpty && !language.contains(" ") && !language.contains("\t"), "language \(language.debugDescription)")
        require(node.info?.hasPrefix(language) == true, "language is not a prefix of info")
        sum &+= language.utf8.count
    }
    sum &+= node.destination?.utf8.count ?? 0
    sum &+= node.title?.utf8.count ?? 0
    require((node.destination == nil) == (node.kind != .link && node.kind != .image), "destination on \(node.kind)")
    sum &+= node.isAutolink ? 1 : 0
    sum &+= Int(node.alertKind?.rawValue ?? 9)
    if let alert = node.alertKind { sum &+= alert.title.utf8.count }
    sum &+= Int(node.cellAlignment?.rawValue ?? 9)
    sum &+= node.isHeaderRow ? 1 : 0
    if let alignments = node.tableAlignments {
        require(node.kind == .table, "tableAlignments on \(node.kind)")
        sum &+= alignments.count
    }
    sum &+= node.footnoteLabel?.utf8.count ?? 0
    sum &+= node.footnoteNumber ?? 0
    sum &+= node.isDisplayMath ? 1 : 0
    // `plainText` walks the whole subtree: calling it on every node made the
    // target itself quadratic on deep nesting (a false "slow input").
    // Leaves and the root are enough to exercise it.
    if node.firstChild == nil || node.parent == nil { sum &+= node.plainText.utf8.count }

    // Child accessors agree with each other.
    var viaLinks: [Node] = []
    var c = node.firstChild
    while let child = c { viaLinks.append(child); c = child.nextSibling }
    let viaSequence = Array(node.children)
    require(viaLinks == viaSequence, "children sequence disagrees with firstChild/nextSibling")
    require(node.children.isEmpty == viaLinks.isEmpty, "children.isEmpty")
    require(node.lastChild == viaLinks.last, "lastChild")
    require(doc.node(at: node.index) == node, "node(at:) returns another node")
    require(doc.node(at: node.index).hashValue == node.hashValue, "equal nodes hash differently")
    return sum
}

struct CheckingWalker: MarkdownWalker {
    let doc: Document
    var nextIndex = 0
    var open: [Int] = []
    var checksum = 0

    mutating func enter(_ node: Node) -> WalkAction {
        require(node.index == nextIndex, "walker entered \(node.index), expected \(nextIndex)")
        nextIndex += 1
        if let parent = open.last {
            require(node.parent?.index == parent, "walker entered \(node.index) under \(parent), but its parent is \(String(describing: node.parent?.index))")
        } else {
            require(node.index == 0, "first node entered is not the root")
        }
        open.append(node.index)
        checksum &+= readEverything(doc, node)
        return .visitChildren
    }

    mutating func exit(_ node: Node) {
        require(open.popLast() == node.index, "walker exited \(node.index) out of order")
    }
}

/// Skips the children of every node whose index is odd; counts visits.
struct SkippingWalker: MarkdownWalker {
    var entered: [Int] = []
    var exited = 0
    mutating func enter(_ node: Node) -> WalkAction {
        entered.append(node.index)
        return node.index % 2 == 1 ? .skipChildren : .visitChildren
    }
    mutating func exit(_ node: Node) { exited += 1 }
}

/// Stops after `limit` nodes.
struct StoppingWalker: MarkdownWalker {
    let limit: Int
    var entered = 0
    mutating func enter(_ node: Node) -> WalkAction {
        entered += 1
        return entered >= limit ? .stop : .visitChildren
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func astFuzzEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 1 else { return 0 }
    let options = ParseOptions(rawValue: UInt32(data[0]))
    let body = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let doc = Document(parsing: body, options: options)
    checkTree(doc)
    require(doc == doc && doc.hashValue == doc.hashValue, "document is not equal to itself")

    var walker = CheckingWalker(doc: doc)
    doc.walk(&walker)
    require(walker.nextIndex == doc.nodeCount, "walker entered \(walker.nextIndex) of \(doc.nodeCount) nodes")
    require(walker.open.isEmpty, "walker left nodes open")

    // skipChildren: expected visits computed from the tree itself.
    var expected: [Int] = []
    var stack: [Node] = [doc.root]
    while let node = stack.popLast() {
        expected.append(node.index)
        if node.index % 2 == 0 { stack.append(contentsOf: Array(node.children).reversed()) }
    }
    var skipper = SkippingWalker()
    doc.walk(&skipper)
    require(skipper.entered == expected, "skipChildren visited the wrong nodes")
    require(skipper.exited == expected.count, "skipChildren: exits \(skipper.exited) != enters \(expected.count)")

    let limit = 1 + Int(size % max(1, doc.nodeCount))
    var stopper = StoppingWalker(limit: limit)
    doc.walk(&stopper)
    require(stopper.entered == min(limit, doc.nodeCount), "stop did not stop after \(limit) nodes")

    // Walking a subtree visits exactly that subtree.
    let middle = doc.node(at: doc.nodeCount / 2)
    var sub = SkippingWalker()
    middle.walk(&sub)
    require(sub.entered.first == middle.index, "subtree walk did not start at its node")

    fuzzSink &+= walker.checksum
    return 0
}
