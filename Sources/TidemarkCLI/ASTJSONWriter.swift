import Tidemark

/// Writes the tree as nested JSON objects while walking it. Documents can
/// nest 100,000 levels deep (`>>>>…`), so there is no recursion here (the
/// walk is iterative and this keeps one depth counter) and no Codable
/// (whose encoders recurse per level).
struct ASTJSONWriter: MarkdownWalker {
    /// Deepest indentation written, in levels of two spaces. Past it lines
    /// stay at this indentation: indenting every level would make pretty
    /// output quadratic in the nesting depth (gigabytes for a hostile input).
    /// 40 levels show the real shape of anything up to 20 levels deep.
    static let maxIndentLevels = 40

    /// A newline and the deepest indentation; each line break writes a prefix.
    private static let lineBreak: [UInt8] = [0x0A] + Array(repeating: 0x20, count: 2 * maxIndentLevels)

    private var out = StandardOutput()
    private let pretty: Bool
    private var depth = 0
    /// No child written yet into the innermost open `children` array.
    private var childrenEmpty = true

    init(pretty: Bool) { self.pretty = pretty }

    mutating func enter(_ node: Node) -> WalkAction {
        if depth > 0 {
            if !childrenEmpty { out.write(UInt8(ascii: ",")) }
            newline(indent: 2 * depth)
        }
        out.write(UInt8(ascii: "{"))
        let start = node.startLocation, end = node.endLocation
        var fields: [(StaticString, JSONValue)] = [
            ("type", .string(node.kind.name)),
            ("start", .int(node.range.lowerBound)),
            ("end", .int(node.range.upperBound)),
            ("startLine", .int(start.line)),
            ("startColumn", .int(start.column)),
            ("endLine", .int(end.line)),
            ("endColumn", .int(end.column)),
        ]
        Self.appendAttributes(of: node, to: &fields)
        for (key, value) in fields {
            field(key, depth: depth)
            write(value)
            out.write(UInt8(ascii: ","))
        }
        field("children", depth: depth)
        out.write(UInt8(ascii: "["))
        depth += 1
        childrenEmpty = true
        return .visitChildren
    }

    mutating func exit(_ node: Node) {
        depth -= 1
        if !childrenEmpty { newline(indent: 2 * depth + 1) }
        out.write(UInt8(ascii: "]"))
        newline(indent: 2 * depth)
        out.write(UInt8(ascii: "}"))
        childrenEmpty = false
    }

    /// Ends the output with a newline and writes what is buffered.
    mutating func finish() {
        out.write(UInt8(ascii: "\n"))
        out.flush()
    }

    // MARK: - Attributes

    enum JSONValue {
        case string(String)
        case int(Int)
        case bool(Bool)
        case strings([String])
    }

    /// The attributes that apply to the node's kind, in a fixed order.
    /// `listStart` is not called `start`: that key is the byte offset.
    static func appendAttributes(of node: Node, to fields: inout [(StaticString, JSONValue)]) {
        if let level = node.headingLevel { fields.append(("level", .int(level))) }
        if let literal = node.literal { fields.append(("literal", .string(literal))) }
        if let info = node.info { fields.append(("info", .string(info))) }
        if let type = node.listType { fields.append(("listType", .string(String(describing: type)))) }
        if let start = node.listStart { fields.append(("listStart", .int(start))) }
        if let tight = node.isTight { fields.append(("tight", .bool(tight))) }
        if let marker = node.listMarker { fields.append(("marker", .string(String(marker)))) }
        if node.taskState != .none { fields.append(("task", .string(String(describing: node.taskState)))) }
        if let destination = node.destination { fields.append(("destination", .string(destination))) }
        if let title = node.title, !title.isEmpty { fields.append(("title", .string(title))) }
        if node.kind == .link { fields.append(("autolink", .bool(node.isAutolink))) }
        if let alert = node.alertKind { fields.append(("alert", .string(String(describing: alert)))) }
        if let alignments = node.tableAlignments {
            fields.append(("align", .strings(alignments.map { String(describing: $0) })))
        }
        if let alignment = node.cellAlignment { fields.append(("align", .string(String(describing: alignment)))) }
        if node.kind == .tableRow { fields.append(("header", .bool(node.isHeaderRow))) }
        if let label = node.footnoteLabel { fields.append(("label", .string(label))) }
        if let number = node.footnoteNumber { fields.append(("number", .int(number))) }
        if node.kind == .math || node.kind == .mathBlock { fields.append(("display", .bool(node.isDisplayMath))) }
    }

    // MARK: - Writing

    private mutating func newline(indent levels: Int) {
        guard pretty else { return }
        let count = 1 + 2 * min(levels, Self.maxIndentLevels)
        Self.lineBreak.withUnsafeBufferPointer { out.write(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// `"key": ` on its own line inside the object of a node at `depth`.
    private mutating func field(_ key: StaticString, depth: Int) {
        newline(indent: 2 * depth + 1)
        out.write(UInt8(ascii: "\""))
        out.write(key)
        out.write(pretty ? "\": " : "\":")
    }

    private mutating func write(_ value: JSONValue) {
        switch value {
        case .string(let s): writeString(s)
        case .int(let n): out.write(utf8: String(n))
        case .bool(let b): out.write(b ? "true" : "false")
        case .strings(let list):
            out.write(UInt8(ascii: "["))
            for (i, s) in list.enumerated() {
                if i > 0 { out.write(pretty ? ", " : ",") }
                writeString(s)
            }
            out.write(UInt8(ascii: "]"))
        }
    }

    /// A JSON string: `"` and `\` escaped, the common control characters
    /// in their short forms, the others as `\u00XX`; everything else,
    /// non-ASCII included, as UTF-8.
    private mutating func writeString(_ s: String) {
        out.write(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            // Copy runs that need no escaping in one go.
            var runStart = 0
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.write(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                switch byte {
                case 0x22: out.write("\\\"")
                case 0x5C: out.write("\\\\")
                case 0x0A: out.write("\\n")
                case 0x09: out.write("\\t")
                case 0x0D: out.write("\\r")
                default:
                    let hex: StaticString = "0123456789ABCDEF"
                    out.write("\\u00")
                    out.write(hex.utf8Start[Int(byte >> 4)])
                    out.write(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            out.write(UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.write(UInt8(ascii: "\""))
    }
}
