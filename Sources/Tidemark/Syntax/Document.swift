/// The immutable storage behind a `Document`: the normalized source, the
/// flat node array (document order) and the side arena of literal bytes.
///
/// Immutable once published. The streaming parser reuses the arrays of the
/// storage it published last, but only when nothing else references that
/// storage any more (`isKnownUniquelyReferenced`), so no reader ever sees a
/// change; hence `@unchecked Sendable`.
@usableFromInline
final class DocumentStorage: @unchecked Sendable {
    // No dynamic exclusivity checks: readers only read, and the one writer
    // (the stream) writes only while it holds the sole reference.
    @exclusivity(unchecked) @usableFromInline var source: [UInt8]
    @exclusivity(unchecked) @usableFromInline var nodes: [RawNode]
    @exclusivity(unchecked) @usableFromInline var arena: [UInt8]
    /// Byte offset of the start of every line of `source` (first is 0).
    @exclusivity(unchecked) @usableFromInline var lineStarts: [UInt32]
    /// A streamed document's top-level blocks and diff (see `StreamUpdate`);
    /// nil for a parsed one.
    @exclusivity(unchecked) var streamLayout: StreamLayout? = nil
    @exclusivity(unchecked) var streamDiff: StreamDiff? = nil

    init(source: [UInt8], nodes: [RawNode], arena: [UInt8], lineStarts: [UInt32]) {
        self.source = source
        self.nodes = nodes
        self.arena = arena
        self.lineStarts = lineStarts
    }

    @inlinable
    func bytes(_ ref: ByteRef) -> ArraySlice<UInt8> {
        ref.isArena ? arena[ref.start..<ref.end] : source[ref.start..<ref.end]
    }

    func string(_ ref: ByteRef) -> String {
        String(decoding: bytes(ref), as: UTF8.self)
    }
}

/// A parsed Markdown document.
///
/// A value: cheap to copy, `Sendable`, `Hashable`, `Codable`. Every node
/// carries its source range as UTF-8 byte offsets into `source` (the input
/// after normalization: a leading BOM dropped, NUL and invalid UTF-8 replaced
/// by U+FFFD). Line and column are computed on demand with `location(of:)`.
public struct Document: Sendable {
    @usableFromInline let storage: DocumentStorage
    /// The extensions this document was parsed with.
    public let options: ParseOptions

    init(storage: DocumentStorage, options: ParseOptions) {
        self.storage = storage
        self.options = options
    }

    /// Parses Markdown text.
    public init(parsing text: String, options: ParseOptions = .default) {
        var text = text
        let storage = text.withUTF8 { buffer in
            BlockParser.parseDocument(Normalizer.normalize(buffer), options: options)
        }
        self.init(storage: storage, options: options)
    }

    /// Parses Markdown given as UTF-8 bytes (invalid sequences become U+FFFD).
    /// The document shares the array as its source when it needs no
    /// normalizing (no copy of a large input).
    public init(parsing bytes: [UInt8], options: ParseOptions = .default) {
        self.init(storage: BlockParser.parseDocument(Normalizer.normalize(bytes), options: options), options: options)
    }

    /// Parses Markdown given as UTF-8 bytes (invalid sequences become U+FFFD).
    public init<Bytes: Sequence>(parsing bytes: Bytes, options: ParseOptions = .default)
    where Bytes.Element == UInt8 {
        let storage: DocumentStorage
        if let s = bytes.withContiguousStorageIfAvailable({
            BlockParser.parseDocument(Normalizer.normalize($0), options: options)
        }) {
            storage = s
        } else {
            let array = Array(bytes)
            storage = array.withUnsafeBufferPointer {
                BlockParser.parseDocument(Normalizer.normalize($0), options: options)
            }
        }
        self.init(storage: storage, options: options)
    }

    /// Parses already-normalized source bytes (no BOM, no NUL, valid UTF-8).
    init(normalizedSource: [UInt8], options: ParseOptions) {
        self.init(storage: BlockParser.parseDocument(normalizedSource, options: options), options: options)
    }

    /// The normalized source text the ranges refer to, as UTF-8 bytes.
    public var source: [UInt8] { storage.source }

    /// The normalized source text.
    public var sourceText: String { String(decoding: storage.source, as: UTF8.self) }

    /// The document node.
    public var root: Node { Node(storage: storage, index: 0) }

    /// The number of nodes in the tree, the document node included.
    public var nodeCount: Int { storage.nodes.count }

    /// The node at a document-order index (`0..<nodeCount`).
    public func node(at index: Int) -> Node {
        precondition(index >= 0 && index < storage.nodes.count, "node index out of range")
        return Node(storage: storage, index: index)
    }

    /// Line and column (both 1-based; the column counts UTF-8 bytes) of a byte
    /// offset into `source`. An offset at the end of the source is valid.
    public func location(of offset: Int) -> SourceLocation {
        storage.location(of: offset)
    }
}

/// A position in the source: 1-based line, 1-based column in UTF-8 bytes.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

extension DocumentStorage {
    func location(of offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, source.count))
        // Binary search for the last line start <= offset.
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(lineStarts[mid]) <= offset { lo = mid } else { hi = mid - 1 }
        }
        return SourceLocation(line: lo + 1, column: offset - Int(lineStarts[lo]) + 1)
    }
}

extension Document: Equatable {
    /// Two documents are equal when they have the same source, options and
    /// tree: the same nodes with the same kinds, ranges, attributes and
    /// literal text (however the bytes are stored internally).
    public static func == (lhs: Document, rhs: Document) -> Bool {
        if lhs.storage === rhs.storage { return lhs.options == rhs.options }
        guard lhs.options == rhs.options,
              lhs.storage.source == rhs.storage.source,
              lhs.storage.nodes.count == rhs.storage.nodes.count
        else { return false }
        let l = lhs.storage, r = rhs.storage
        for i in 0..<l.nodes.count {
            var a = l.nodes[i], b = r.nodes[i]
            guard l.bytes(a.a) == r.bytes(b.a), l.bytes(a.b) == r.bytes(b.b) else { return false }
            a.a = .empty; a.b = .empty
            b.a = .empty; b.b = .empty
            if a != b { return false }
        }
        return true
    }
}

extension Document: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(options)
        hasher.combine(storage.source)
        hasher.combine(storage.nodes.count)
    }
}

extension Document: Codable {
    private enum CodingKeys: String, CodingKey { case source, options, root }

    /// Encodes the source, the options and the tree (for readers; see
    /// `jsonAST`). Decoding parses the source again with the options, which
    /// yields the identical tree: a document is a function of the two.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sourceText, forKey: .source)
        try c.encode(options, forKey: .options)
        try c.encode(FlatTree(self), forKey: .root)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .source)
        let options = try c.decode(ParseOptions.self, forKey: .options)
        self.init(normalizedSource: Array(text.utf8), options: options)
    }
}

/// The tree as a flat list (encoded without recursion, so any depth is safe).
struct FlatTree: Encodable {
    let document: Document
    init(_ document: Document) { self.document = document }

    struct Entry: Encodable {
        var kind: String
        var parent: Int
        var start: Int
        var end: Int
        var literal: String?
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        for i in 0..<document.nodeCount {
            let n = document.node(at: i)
            try c.encode(Entry(kind: n.kind.name, parent: n.parent?.index ?? -1,
                               start: n.range.lowerBound, end: n.range.upperBound, literal: n.literal))
        }
    }
}
