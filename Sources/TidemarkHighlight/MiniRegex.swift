/// A small regular-expression matcher for `#match?` predicates.
///
/// Why our own: the highlight queries use a tiny subset of regex syntax
/// (anchors, classes, groups, alternation, `* + ? {n,m}`) on short node texts,
/// called thousands of times per highlight from many threads. A compiled
/// `MiniRegex` is an immutable value (trivially `Sendable`), answers only
/// "is there a match?", and runs as a Pike VM — time linear in the text for
/// any pattern, no recursion, so a `.*` over a 100 KB comment cannot blow the
/// stack. Anything outside the subset makes `init` return nil, and the caller
/// falls back to Swift's `Regex`.
///
/// Two deliberate dialect choices:
/// - `.` does not match a newline (as in Rust's `regex`, which tree-sitter's
///   own highlighter uses).
/// - Lua pattern classes (`%d`, `%a`, `%s`, `%w`, `%l`, `%u`, `%x`, `%p`,
///   `%%`) are understood, because some nvim-era queries (SQL's) were written
///   for Neovim's Lua matcher. A literal `%` followed by one of those letters
///   never occurs in a real query regex.
struct MiniRegex: Sendable {
    fileprivate enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        case anyButNewline
        case set(ScalarSet)
        case split(Int, Int)
        case jump(Int)
        case assertStart
        case assertEnd
        case match
    }

    private let program: [Instruction]
    /// `^(if|else|…)$`-shaped patterns (most of the big ones in the queries,
    /// e.g. Python's builtin names) are answered by a set lookup instead.
    private let exactWords: Set<[UInt8]>?
    /// True when the pattern begins with `^` on every branch: threads then
    /// start only at offset 0 instead of at every position.
    private let anchoredAtStart: Bool

    init?(_ pattern: String) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let tree = parser.parseAlternation(), parser.atEnd else { return nil }
        var compiler = Compiler()
        guard compiler.emit(tree) else { return nil }
        compiler.program.append(.match)
        // Keep patterns bounded: a query regex is tiny, and an expanded
        // `{n,m}` that explodes is almost certainly not what we were given.
        guard compiler.program.count <= 20_000 else { return nil }
        program = compiler.program
        anchoredAtStart = tree.alwaysAnchoredAtStart
        exactWords = tree.exactWords.map { Set($0.map { Array($0.utf8) }) }
    }

    /// Whether the pattern matches anywhere in `text` (search semantics, as
    /// `#match?` has).
    func matches(_ text: some StringProtocol) -> Bool {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { matches(utf8: UnsafeBufferPointer($0)) }
    }

    /// Whether the pattern matches anywhere in the UTF-8 bytes.
    func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let exactWords { return exactWords.contains(Array(bytes)) }
        let count = program.count
        // Sparse sets of program counters: `current` holds the threads alive
        // before the scalar at `position`, `next` those alive after it.
        var current = ThreadList(capacity: count)
        var next = ThreadList(capacity: count)
        var position = 0
        let end = bytes.count
        if addThread(0, to: &current, position: position, end: end, bytes: bytes) { return true }
        while position < end {
            let (scalar, width) = decodeScalar(bytes, at: position)
            let nextPosition = position + width
            next.clear()
            for index in 0..<current.count {
                let pc = current.dense[index]
                let advances: Bool
                switch program[pc] {
                case .scalar(let expected): advances = scalar == expected
                case .anyButNewline: advances = scalar != "\n"
                case .set(let set): advances = set.contains(scalar)
                default: advances = false
                }
                if advances, addThread(pc + 1, to: &next, position: nextPosition, end: end, bytes: bytes) {
                    return true
                }
            }
            swap(&current, &next)
            position = nextPosition
            if !anchoredAtStart,
                addThread(0, to: &current, position: position, end: end, bytes: bytes)
            {
                return true
            }
            if current.count == 0 && anchoredAtStart { return false }
        }
        return false
    }

    /// Follows jumps, splits and assertions from `pc`; returns true as soon
    /// as `match` is reachable (we only need a yes/no answer).
    private func addThread(
        _ start: Int, to list: inout ThreadList, position: Int, end: Int, bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var stack = [start]
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match:
                return true
            case .jump(let target):
                stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assertStart:
                if position == 0 { stack.append(pc + 1) }
            case .assertEnd:
                if position == end { stack.append(pc + 1) }
            case .scalar, .anyButNewline, .set:
                break
            }
        }
        return false
    }
}

/// Decodes one scalar; invalid UTF-8 yields U+FFFD for one byte, which is all
/// a yes/no matcher needs.
private func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
    let lead = bytes[index]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    let length: Int
    var value: UInt32
    switch lead {
    case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
    case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
    case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
    default: return ("\u{FFFD}", 1)
    }
    guard index + length <= bytes.count else { return ("\u{FFFD}", 1) }
    for offset in 1..<length {
        let byte = bytes[index + offset]
        guard byte & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
        value = value << 6 | UInt32(byte & 0x3F)
    }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
}

/// A set of program counters with O(1) insert and clear.
private struct ThreadList {
    var dense: [Int]
    var sparse: [Int]
    var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    mutating func insert(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        if slot < count && dense[slot] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    mutating func clear() { count = 0 }
}

/// A character class: ranges plus the usual shorthand families.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        var found = false
        for range in ranges where range.contains(value) {
            found = true
            break
        }
        if !found && value > 0x7F && (hasUnicodeLetters || hasUnicodeSpace) {
            let properties = scalar.properties
            found = (hasUnicodeLetters && (properties.isAlphabetic || properties.numericType != nil))
                || (hasUnicodeSpace && properties.isWhitespace)
        }
        return found != negated
    }

    /// `\w` also accepts non-ASCII letters and digits, `\s` non-ASCII spaces.
    var hasUnicodeLetters = false
    var hasUnicodeSpace = false

    static let asciiDigits: [ClosedRange<UInt32>] = [0x30...0x39]
    static let asciiWord: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    static let asciiSpace: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]
    static let asciiLetters: [ClosedRange<UInt32>] = [0x41...0x5A, 0x61...0x7A]
    static let asciiLower: [ClosedRange<UInt32>] = [0x61...0x7A]
    static let asciiUpper: [ClosedRange<UInt32>] = [0x41...0x5A]
    static let asciiHex: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x46, 0x61...0x66]
    static let asciiPunctuation: [ClosedRange<UInt32>] = [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E]
    static let asciiAlphanumeric: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x61...0x7A]
}

// MARK: - Parsing

private indirect enum Node {
    case scalar(Unicode.Scalar)
    case anyButNewline
    case set(ScalarSet)
    case start
    case end
    case sequence([Node])
    case alternation([Node])
    case repeated(Node, min: Int, max: Int?)

    /// The words of a `^(word|word|…)$` pattern, or nil for any other shape.
    var exactWords: [String]? {
        guard case .sequence(let items) = self, items.count >= 3,
            case .start = items[0], case .end = items[items.count - 1]
        else { return nil }
        let middle = items.count == 3 ? items[1] : .sequence(Array(items[1..<(items.count - 1)]))
        func literal(_ node: Node) -> String? {
            switch node {
            case .scalar(let scalar): return String(scalar)
            case .sequence(let parts):
                var text = ""
                for part in parts {
                    guard case .scalar(let scalar) = part else { return nil }
                    text.unicodeScalars.append(scalar)
                }
                return text
            default: return nil
            }
        }
        if case .alternation(let branches) = middle {
            var words: [String] = []
            for branch in branches {
                guard let word = literal(branch) else { return nil }
                words.append(word)
            }
            return words
        }
        return literal(middle).map { [$0] }
    }

    var alwaysAnchoredAtStart: Bool {
        switch self {
        case .start: return true
        case .sequence(let items): return items.first?.alwaysAnchoredAtStart ?? false
        case .alternation(let branches): return !branches.isEmpty && branches.allSatisfy(\.alwaysAnchoredAtStart)
        default: return false
        }
    }
}

private struct Parser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var depth = 0

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var atEnd: Bool { index == scalars.count }
    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    mutating func parseAlternation() -> Node? {
        var branches: [Node] = []
        guard let first = parseSequence() else { return nil }
        branches.append(first)
        while peek == "|" {
            index += 1
            guard let next = parseSequence() else { return nil }
            branches.append(next)
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func parseSequence() -> Node? {
        var items: [Node] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            guard let atom = parseAtom(), let quantified = parseQuantifier(atom) else { return nil }
            items.append(quantified)
        }
        return .sequence(items)
    }

    mutating func parseQuantifier(_ atom: Node) -> Node? {
        var node = atom
        while let scalar = peek {
            let min: Int
            let max: Int?
            switch scalar {
            case "*": min = 0; max = nil; index += 1
            case "+": min = 1; max = nil; index += 1
            case "?": min = 0; max = 1; index += 1
            case "{":
                guard let bounds = parseBraces() else { return nil }
                (min, max) = bounds
            default:
                return node
            }
            // A lazy or possessive marker changes which match is found, not
            // whether one exists.
            if peek == "?" || peek == "+" { index += 1 }
            switch node {
            case .start, .end: return nil
            default: break
            }
            node = .repeated(node, min: min, max: max)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}`; anything else is unsupported.
    mutating func parseBraces() -> (Int, Int?)? {
        index += 1
        func number(_ parser: inout Parser) -> Int? {
            var value = 0
            var digits = 0
            while let scalar = parser.peek, let digit = Int(String(scalar)), scalar.isASCII {
                value = value * 10 + digit
                digits += 1
                parser.index += 1
                if value > 1000 { return nil }
            }
            return digits > 0 ? value : nil
        }
        guard let low = number(&self) else { return nil }
        var high: Int? = low
        if peek == "," {
            index += 1
            high = peek == "}" ? nil : number(&self)
            if high == nil && peek != "}" { return nil }
        }
        guard peek == "}" else { return nil }
        index += 1
        if let high, high < low { return nil }
        return (low, high)
    }

    mutating func parseAtom() -> Node? {
        guard let scalar = peek else { return nil }
        index += 1
        switch scalar {
        case "(":
            // Non-capturing groups only differ in what they report.
            if peek == "?" {
                guard index + 1 < scalars.count, scalars[index + 1] == ":" else { return nil }
                index += 2
            }
            depth += 1
            guard depth < 100, let inner = parseAlternation(), peek == ")" else { return nil }
            index += 1
            depth -= 1
            return inner
        case "[":
            return parseClass()
        case ".":
            return .anyButNewline
        case "^":
            return .start
        case "$":
            return .end
        case "\\":
            return parseEscape(inClass: false).map { escaped in
                switch escaped {
                case .scalar(let value): return .scalar(value)
                case .set(let set): return .set(set)
                }
            }
        case "%":
            if let set = luaClass() { return .set(set) }
            if peek == "%" {
                index += 1
                return .scalar("%")
            }
            return .scalar("%")
        case "*", "+", "?", "{", ")":
            return nil
        default:
            return .scalar(scalar)
        }
    }

    enum Escaped {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
    }

    mutating func parseEscape(inClass: Bool) -> Escaped? {
        guard let scalar = peek else { return nil }
        index += 1
        switch scalar {
        case "d": return .set(ScalarSet(ranges: ScalarSet.asciiDigits))
        case "D": return .set(ScalarSet(ranges: ScalarSet.asciiDigits, negated: true))
        case "w": return .set(ScalarSet(ranges: ScalarSet.asciiWord, hasUnicodeLetters: true))
        case "W": return .set(ScalarSet(ranges: ScalarSet.asciiWord, negated: true, hasUnicodeLetters: true))
        case "s": return .set(ScalarSet(ranges: ScalarSet.asciiSpace, hasUnicodeSpace: true))
        case "S": return .set(ScalarSet(ranges: ScalarSet.asciiSpace, negated: true, hasUnicodeSpace: true))
        case "n": return .scalar("\n")
        case "t": return .scalar("\t")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "0": return .scalar("\0")
        default:
            // Word boundaries, back-references, \p{…}, \x… are outside the
            // subset; every other escaped character stands for itself.
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) { return nil }
            return .scalar(scalar)
        }
    }

    mutating func luaClass() -> ScalarSet? {
        guard let letter = peek else { return nil }
        let ranges: [ClosedRange<UInt32>]
        switch letter {
        case "d": ranges = ScalarSet.asciiDigits
        case "a": ranges = ScalarSet.asciiLetters
        case "s": ranges = ScalarSet.asciiSpace
        case "w": ranges = ScalarSet.asciiAlphanumeric
        case "l": ranges = ScalarSet.asciiLower
        case "u": ranges = ScalarSet.asciiUpper
        case "x": ranges = ScalarSet.asciiHex
        case "p": ranges = ScalarSet.asciiPunctuation
        default: return nil
        }
        index += 1
        return ScalarSet(ranges: ranges)
    }

    mutating func parseClass() -> Node? {
        var set = ScalarSet()
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while let scalar = peek {
            if scalar == "]" && !first {
                index += 1
                return .set(set)
            }
            first = false
            index += 1
            var low: Unicode.Scalar
            switch scalar {
            case "\\":
                guard let escaped = parseEscape(inClass: true) else { return nil }
                switch escaped {
                case .scalar(let value):
                    low = value
                case .set(let inner):
                    // A negated shorthand inside a class (`[\D]`) would need
                    // set subtraction; not in any query we ship.
                    guard !inner.negated else { return nil }
                    set.ranges += inner.ranges
                    set.hasUnicodeLetters = set.hasUnicodeLetters || inner.hasUnicodeLetters
                    set.hasUnicodeSpace = set.hasUnicodeSpace || inner.hasUnicodeSpace
                    continue
                }
            case "[":
                // POSIX classes like [[:alpha:]] are not supported.
                if peek == ":" { return nil }
                low = scalar
            case "%":
                if let lua = luaClass() {
                    set.ranges += lua.ranges
                    continue
                }
                low = scalar
            default:
                low = scalar
            }
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                guard var high = peek else { return nil }
                index += 1
                if high == "\\" {
                    guard case .scalar(let value)? = parseEscape(inClass: true) else { return nil }
                    high = value
                }
                guard low.value <= high.value else { return nil }
                set.ranges.append(low.value...high.value)
            } else {
                set.ranges.append(low.value...low.value)
            }
        }
        return nil
    }
}

// MARK: - Compiling

private struct Compiler {
    var program: [MiniRegex.Instruction] = []

    /// Emits code for `node`; false when it would be unreasonably large.
    mutating func emit(_ node: Node) -> Bool {
        guard program.count < 20_000 else { return false }
        switch node {
        case .scalar(let scalar):
            program.append(.scalar(scalar))
        case .anyButNewline:
            program.append(.anyButNewline)
        case .set(let set):
            program.append(.set(set))
        case .start:
            program.append(.assertStart)
        case .end:
            program.append(.assertEnd)
        case .sequence(let items):
            for item in items where !emit(item) { return false }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split L2, … ; last branch
            var jumpsToEnd: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, -1))
                    guard emit(branch) else { return false }
                    jumpsToEnd.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    guard emit(branch) else { return false }
                }
            }
            for jump in jumpsToEnd { program[jump] = .jump(program.count) }
        case .repeated(let inner, let min, let max):
            for _ in 0..<min where !emit(inner) { return false }
            if let max {
                // Each optional copy may be skipped.
                var skips: [Int] = []
                for _ in min..<max {
                    skips.append(program.count)
                    program.append(.split(program.count + 1, -1))
                    guard emit(inner) else { return false }
                }
                for skip in skips { program[skip] = .split(skip + 1, program.count) }
            } else {
                // loop: split body, exit; body; jump loop
                let loop = program.count
                program.append(.split(loop + 1, -1))
                guard emit(inner) else { return false }
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
        return true
    }
}
