/// A reference to bytes owned by a document: either a slice of the source
/// text or a slice of the document's side arena (for text that differs from
/// the source: decoded entities, code-block contents, link destinations).
///
/// The top bit of `offset` says which: set means "arena".
@usableFromInline
struct ByteRef: Sendable, Hashable {
    @usableFromInline var offset: UInt32
    @usableFromInline var length: UInt32

    @usableFromInline static let arenaBit: UInt32 = 1 << 31
    @usableFromInline static let empty = ByteRef(offset: 0, length: 0)

    @inlinable init(offset: UInt32, length: UInt32) {
        self.offset = offset
        self.length = length
    }

    @inlinable static func source(_ start: Int, _ end: Int) -> ByteRef {
        ByteRef(offset: UInt32(start), length: UInt32(end - start))
    }

    @inlinable static func arena(_ start: Int, _ end: Int) -> ByteRef {
        ByteRef(offset: UInt32(start) | arenaBit, length: UInt32(end - start))
    }

    @inlinable var isArena: Bool { offset & ByteRef.arenaBit != 0 }
    @inlinable var start: Int { Int(offset & ~ByteRef.arenaBit) }
    @inlinable var end: Int { start + Int(length) }
}

/// One node in the flat node store. Trivial (no references), so the whole
/// tree is one allocation and copying it costs no reference counting.
///
/// Nodes are stored in document order (pre-order); children are linked by
/// index. `-1` means "none".
@usableFromInline
struct RawNode: Sendable, Hashable {
    @usableFromInline var kind: NodeKind
    /// Kind-specific small flags:
    /// - list: bit 0 tight, bit 1 `)` delimiter (ordered lists).
    /// - link: bit 0 autolink (`<…>` or extended), bit 1 e-mail autolink.
    /// - codeBlock: bit 0 fenced.
    /// - heading: bit 0 setext.
    /// - math: bit 0 display.
    @usableFromInline var flags: UInt8
    /// Kind-specific small value: heading level, list bullet character or
    /// type, table alignment (cells), alert kind, task state (items),
    /// fence character.
    @usableFromInline var small: UInt16
    /// Source range, UTF-8 byte offsets into the document's source.
    @usableFromInline var start: UInt32
    @usableFromInline var end: UInt32
    @usableFromInline var parent: Int32
    @usableFromInline var firstChild: Int32
    @usableFromInline var lastChild: Int32
    @usableFromInline var next: Int32
    /// Text: literal; code: content; codeBlock/htmlBlock/html: literal;
    /// link/image: destination; codeBlock: also see `b` for info;
    /// footnote reference/definition: label.
    @usableFromInline var a: ByteRef
    /// link/image: title; codeBlock: info string.
    @usableFromInline var b: ByteRef
    /// List start number; footnote number; table column count.
    @usableFromInline var number: Int32
    /// Footnote reference: which reference to the same note this is (1-based).
    @usableFromInline var number2: Int32

    @inlinable
    init(kind: NodeKind, start: Int, end: Int) {
        self.kind = kind
        self.flags = 0
        self.small = 0
        self.start = UInt32(truncatingIfNeeded: start)
        self.end = UInt32(truncatingIfNeeded: end)
        self.parent = -1
        self.firstChild = -1
        self.lastChild = -1
        self.next = -1
        self.a = .empty
        self.b = .empty
        self.number = 0
        self.number2 = 0
    }
}
