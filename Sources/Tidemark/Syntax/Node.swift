/// A node of a document's syntax tree: a light view (the document's storage
/// and an index). Equal when it is the same node of the same document.
public struct Node: Sendable, Hashable {
    @usableFromInline let storage: DocumentStorage
    /// The node's position in document order (0 is the document node).
    public let index: Int

    @inlinable init(storage: DocumentStorage, index: Int) {
        self.storage = storage
        self.index = index
    }

    public static func == (lhs: Node, rhs: Node) -> Bool {
        lhs.storage === rhs.storage && lhs.index == rhs.index
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(storage))
        hasher.combine(index)
    }

    @inlinable var raw: RawNode { storage.nodes[index] }

    public var kind: NodeKind { raw.kind }

    /// Source range: UTF-8 byte offsets into the document's `source`.
    public var range: Range<Int> { Int(raw.start)..<Int(raw.end) }

    /// Line and column where the node starts.
    public var startLocation: SourceLocation { storage.location(of: Int(raw.start)) }
    /// Line and column just past the node's last byte.
    public var endLocation: SourceLocation { storage.location(of: Int(raw.end)) }

    public var parent: Node? {
        let p = raw.parent
        return p < 0 ? nil : Node(storage: storage, index: Int(p))
    }

    public var firstChild: Node? {
        let c = raw.firstChild
        return c < 0 ? nil : Node(storage: storage, index: Int(c))
    }

    public var lastChild: Node? {
        let c = raw.lastChild
        return c < 0 ? nil : Node(storage: storage, index: Int(c))
    }

    public var nextSibling: Node? {
        let c = raw.next
        return c < 0 ? nil : Node(storage: storage, index: Int(c))
    }

    /// The children, in source order.
    public var children: Children { Children(storage: storage, first: raw.firstChild) }

    public struct Children: Sequence, Sendable {
        let storage: DocumentStorage
        let first: Int32

        public struct Iterator: IteratorProtocol {
            let storage: DocumentStorage
            var current: Int32
            public mutating func next() -> Node? {
                guard current >= 0 else { return nil }
                let node = Node(storage: storage, index: Int(current))
                current = storage.nodes[Int(current)].next
                return node
            }
        }

        public func makeIterator() -> Iterator { Iterator(storage: storage, current: first) }
        public var isEmpty: Bool { first < 0 }
    }

    // MARK: Attributes

    /// The literal text of text, code, HTML, code-block, HTML-block and math
    /// nodes (code blocks: the content with a final newline per line), or
    /// `nil` for nodes without one.
    public var literal: String? {
        switch raw.kind {
        case .text, .code, .html, .codeBlock, .htmlBlock, .math, .mathBlock:
            return storage.string(raw.a)
        default:
            return nil
        }
    }

    /// Heading level 1…6, or `nil` for other nodes.
    public var headingLevel: Int? { raw.kind == .heading ? Int(raw.small) : nil }

    /// Whether a heading is a setext heading (underlined).
    public var isSetextHeading: Bool { raw.kind == .heading && raw.flags & 1 != 0 }

    /// Bullet or ordered, for lists.
    public var listType: ListType? {
        guard raw.kind == .list else { return nil }
        return raw.small >= 0x100 ? .ordered : .bullet
    }

    /// The first number of an ordered list.
    public var listStart: Int? {
        guard raw.kind == .list, raw.small >= 0x100 else { return nil }
        return Int(raw.number)
    }

    /// Whether a list is tight (its paragraphs are not wrapped in `<p>`).
    public var isTight: Bool? { raw.kind == .list ? raw.flags & 1 != 0 : nil }

    /// The marker character: `-`, `+` or `*` for bullet lists, `.` or `)`
    /// for ordered lists.
    public var listMarker: Character? {
        guard raw.kind == .list else { return nil }
        return Character(Unicode.Scalar(UInt8(raw.small & 0xFF)))
    }

    /// The checkbox of a task-list item.
    public var taskState: TaskState {
        raw.kind == .item ? TaskState(rawValue: UInt8(raw.small)) ?? .none : .none
    }

    /// Whether a code block is fenced (as opposed to indented).
    public var isFenced: Bool { raw.kind == .codeBlock && raw.flags & 1 != 0 }

    /// The info string of a fenced code block (backslash escapes and entities
    /// resolved), or `nil`.
    public var info: String? {
        guard raw.kind == .codeBlock, raw.flags & 1 != 0 else { return nil }
        return storage.string(raw.b)
    }

    /// The first word of a code block's info string, or `nil` if there is none.
    public var language: String? {
        guard let info, !info.isEmpty else { return nil }
        let word = info.prefix { $0 != " " && $0 != "\t" }
        return word.isEmpty ? nil : String(word)
    }

    /// The destination of a link or image (escapes and entities resolved).
    public var destination: String? {
        raw.kind == .link || raw.kind == .image ? storage.string(raw.a) : nil
    }

    /// The title of a link or image (empty when there is none).
    public var title: String? {
        raw.kind == .link || raw.kind == .image ? storage.string(raw.b) : nil
    }

    /// Whether a link is an autolink (`<https://…>`, or an extended one).
    public var isAutolink: Bool { raw.kind == .link && raw.flags & 1 != 0 }

    /// The kind of an alert.
    public var alertKind: AlertKind? {
        raw.kind == .alert ? AlertKind(rawValue: UInt8(raw.small)) : nil
    }

    /// Column alignment of a table cell; for a table, see `tableAlignments`.
    public var cellAlignment: TableAlignment? {
        raw.kind == .tableCell ? TableAlignment(rawValue: UInt8(raw.small)) : nil
    }

    /// Whether a table row is the header row.
    public var isHeaderRow: Bool { raw.kind == .tableRow && raw.flags & 1 != 0 }

    /// Column alignments of a table.
    public var tableAlignments: [TableAlignment]? {
        guard raw.kind == .table, let header = firstChild else { return nil }
        return header.children.map { $0.cellAlignment ?? .none }
    }

    /// The label of a footnote reference or definition, as written.
    public var footnoteLabel: String? {
        raw.kind == .footnoteReference || raw.kind == .footnoteDefinition ? storage.string(raw.a) : nil
    }

    /// The number of a footnote (references and definitions: order of first
    /// reference, starting at 1).
    public var footnoteNumber: Int? {
        raw.kind == .footnoteReference || raw.kind == .footnoteDefinition ? Int(raw.number) : nil
    }

    /// Whether inline math is display math (`$$…$$` or `\[…\]`).
    public var isDisplayMath: Bool { raw.kind == .mathBlock || (raw.kind == .math && raw.flags & 1 != 0) }

    /// The text content of this node and its descendants (text, code and math
    /// literals; breaks as newlines or spaces) — what an image's alt text uses.
    public var plainText: String {
        var out: [UInt8] = []
        var stack: [Int32] = [Int32(index)]
        while let i = stack.popLast() {
            let n = storage.nodes[Int(i)]
            switch n.kind {
            case .text, .code, .math, .html, .codeBlock, .mathBlock, .htmlBlock:
                out.append(contentsOf: storage.bytes(n.a))
            case .softBreak, .lineBreak:
                out.append(0x20)
            default: break
            }
            // Push children in reverse so they pop in order.
            var kids: [Int32] = []
            var c = n.firstChild
            while c >= 0 { kids.append(c); c = storage.nodes[Int(c)].next }
            stack.append(contentsOf: kids.reversed())
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// MARK: - Walking

/// What a walker wants after visiting a node on the way in.
public enum WalkAction: Sendable {
    /// Visit the node's children.
    case visitChildren
    /// Skip the children (its `exit` is still called).
    case skipChildren
    /// Stop the walk.
    case stop
}

/// A visitor over the tree, dispatched generically (no existentials):
/// `document.walk(&myWalker)`. Iterative, so any nesting depth is safe.
public protocol MarkdownWalker {
    mutating func enter(_ node: Node) -> WalkAction
    mutating func exit(_ node: Node)
}

extension MarkdownWalker {
    public mutating func exit(_ node: Node) {}
}

extension Document {
    /// Walks the tree in document order, calling `enter` before and `exit`
    /// after a node's children.
    public func walk<W: MarkdownWalker>(_ walker: inout W) {
        root.walk(&walker)
    }
}

extension Node {
    /// Walks this subtree in document order.
    public func walk<W: MarkdownWalker>(_ walker: inout W) {
        let nodes = storage.nodes
        let top = Int32(index)
        var current = top
        var entering = true
        while true {
            if entering {
                switch walker.enter(Node(storage: storage, index: Int(current))) {
                case .stop: return
                case .visitChildren:
                    let c = nodes[Int(current)].firstChild
                    if c >= 0 { current = c; continue }
                case .skipChildren: break
                }
                entering = false
            }
            walker.exit(Node(storage: storage, index: Int(current)))
            if current == top { return }
            let n = nodes[Int(current)]
            if n.next >= 0 {
                current = n.next
                entering = true
            } else {
                current = n.parent
            }
        }
    }
}
