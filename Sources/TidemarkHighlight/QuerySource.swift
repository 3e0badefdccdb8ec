/// Lexical facts about the text of a tree-sitter query that the C API does
/// not expose: where each top-level pattern begins and ends, and how deeply
/// each capture is nested inside its pattern.
///
/// Only strings, `;` comments and bracket nesting matter here; the query
/// compiler has already validated (or will validate) the rest.
enum QuerySource {
    /// Byte ranges of the top-level patterns, including their trailing
    /// captures and quantifiers (`[ "if" "else" ] @keyword`).
    static func topLevelPatterns(in bytes: [UInt8]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var depth = 0
        var start: Int?
        var lastEnd = 0
        var index = 0
        let count = bytes.count

        func close() {
            if let open = start { result.append(open..<lastEnd) }
            start = nil
        }

        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: ";"):
                while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "\""):
                if depth == 0 {
                    close()
                    start = index
                }
                index = endOfString(bytes, from: index)
                if depth == 0 { lastEnd = index }
                continue
            case UInt8(ascii: "("), UInt8(ascii: "["):
                if depth == 0 {
                    close()
                    start = index
                }
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                if depth == 0 { lastEnd = index + 1 }
            case UInt8(ascii: "@"):
                // A capture name: part of whatever item precedes it.
                index += 1
                while index < count && isNameByte(bytes[index]) { index += 1 }
                if depth == 0 { lastEnd = index }
                continue
            case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"):
                if depth == 0 { lastEnd = index + 1 }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            default:
                if depth == 0 && start == nil {
                    // A bare node name or wildcard at top level.
                    start = index
                }
                if depth == 0 {
                    while index < count && isNameByte(bytes[index]) { index += 1 }
                    lastEnd = index
                    continue
                }
            }
            index += 1
        }
        close()
        return result
    }

    /// For each capture name used in `pattern` (outside predicates), how
    /// many node constraints enclose the captured item, counting the item
    /// itself: `(identifier) @x` → 1, `(call function: (identifier) @f)` → 2.
    static func captureDepths(in pattern: [UInt8]) -> [String: Int] {
        enum Open { case node, group, predicate, alternation }
        var stack: [Open] = []
        var depths: [String: Int] = [:]
        var index = pattern.startIndex
        let end = pattern.endIndex
        while index < end {
            let byte = pattern[index]
            switch byte {
            case UInt8(ascii: ";"):
                while index < end && pattern[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "\""):
                index = endOfString(pattern, from: index)
                continue
            case UInt8(ascii: "("):
                var next = index + 1
                while next < end && isSpace(pattern[next]) { next += 1 }
                let kind: Open
                if next < end {
                    switch pattern[next] {
                    case UInt8(ascii: "#"): kind = .predicate
                    case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "\""): kind = .group
                    default: kind = .node
                    }
                } else {
                    kind = .group
                }
                stack.append(kind)
            case UInt8(ascii: "["):
                stack.append(.alternation)
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: "@"):
                var nameEnd = index + 1
                while nameEnd < end && isNameByte(pattern[nameEnd]) { nameEnd += 1 }
                if !stack.contains(.predicate) {
                    let name = String(decoding: pattern[(index + 1)..<nameEnd], as: UTF8.self)
                    let depth = stack.reduce(1) { $0 + ($1 == .node ? 1 : 0) }
                    depths[name] = max(depths[name] ?? 0, depth)
                }
                index = nameEnd
                continue
            default:
                break
            }
            index += 1
        }
        return depths
    }

    /// The index just past the string literal that starts at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "-"), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            return true
        default:
            return byte >= 0x80
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}
