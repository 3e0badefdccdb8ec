/// An inline node while a leaf's inlines are being parsed. Siblings are a
/// doubly linked list so that emphasis and links can wrap a run of them in
/// O(1) (spec appendix, "Phase 2: inline structure").
struct InlineNode {
    var kind: NodeKind
    var flags: UInt8 = 0
    var small: UInt16 = 0
    /// Content offsets (not yet source offsets).
    var start: Int32
    var end: Int32
    /// Literal (text, code, html, math) or destination (links).
    var a: ByteRef = .empty
    /// Title (links).
    var b: ByteRef = .empty
    var number: Int32 = 0
    var first: Int32 = -1
    var last: Int32 = -1
    var next: Int32 = -1
    var prev: Int32 = -1

    init(kind: NodeKind, start: Int, end: Int) {
        self.kind = kind
        self.start = Int32(truncatingIfNeeded: start)
        self.end = Int32(truncatingIfNeeded: end)
    }
}

/// An entry of the delimiter stack (spec 6.2 and the appendix).
struct Delimiter {
    var node: Int32
    var char: UInt8
    /// Delimiters still unused.
    var count: Int32
    /// The run's original length (for the "multiple of 3" rule).
    var original: Int32
    var canOpen: Bool
    var canClose: Bool
    var prev: Int32
    var next: Int32
}

/// An entry of the bracket stack: a `[` or `![` that may open a link.
struct Bracket {
    var node: Int32
    /// Content offset just after the bracket.
    var position: Int
    var image: Bool
    var active: Bool
    /// Whether another bracket was opened after this one (then a shortcut or
    /// collapsed reference cannot use this text as its label).
    var bracketAfter: Bool
    /// The delimiter-stack top when the bracket was pushed: the bottom for
    /// emphasis inside the link text.
    var delimiterBottom: Int32
}
