// STUB — being replaced by the real block parser.
enum BlockParser {
    static func parseDocument(_ source: [UInt8], options: ParseOptions) -> DocumentStorage {
        var root = RawNode(kind: .document, start: 0, end: source.count)
        root.parent = -1
        return DocumentStorage(source: source, nodes: [root], arena: [], lineStarts: [0])
    }
}
