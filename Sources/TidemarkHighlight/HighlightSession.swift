import CTreeSitter
import Foundation
import Tidemark

/// Incremental highlighting of one code block that grows while it streams in.
///
/// Keep one session per fenced block and call `update(code:)` with the whole
/// current text each time it changes. When the new text starts with the old
/// one (text appended — the streaming case) or shares a prefix with it, the
/// previous syntax tree is edited with `ts_tree_edit` and reparsed, so
/// tree-sitter reuses every subtree the change did not touch — unless that
/// tree had syntax errors (typical mid-stream), where an incremental reparse
/// can differ from a fresh one; anything else is parsed from scratch, and
/// the highlight query always runs over the whole tree. The result always equals what
/// `TreeSitterHighlighter.highlight` returns for the same text, so the spans
/// of the unchanged prefix stay put between updates instead of flashing back
/// to plain text.
///
/// A parse that runs over the highlighter's `parseTimeoutMicros` is the one
/// exception (some grammars loop in error recovery on broken code until the
/// limit: tree-sitter-swift 0.0.1 on `{ b c(d) {\n co`). The update then keeps
/// the previous spans that end before the first changed byte and sets
/// `lastUpdateTimedOut`; and so that a stuck block does not stall every
/// append of a stream for the whole limit, later updates that only append
/// to the text that timed out do not parse again until it has doubled in
/// length (they return the kept spans, with `lastUpdateTimedOut` still
/// true). Any other edit parses again at once.
///
/// Thread-safe (updates are serialized), though one block is normally fed
/// from one place.
public final class HighlightSession: @unchecked Sendable {
    /// The canonical language, or nil when the info-string word is unknown.
    public let language: String?

    private let grammar: Grammar?
    private let timeoutMicros: UInt64
    private let maxInputBytes: Int
    private let lock = NSLock()

    // Guarded by `lock`.
    private var tree: OpaquePointer?
    private var text: [UInt8] = []
    private var spans: [HighlightSpan] = []
    private var lastUpdateWasIncremental = false
    /// After a timeout: the text that timed out; an append to it shorter
    /// than twice its length is not parsed (see the type's documentation).
    private var timedOutText: [UInt8]?
    private var updateTimedOut = false
    private(set) var parsesAttempted = 0

    /// - Parameters:
    ///   - language: an info-string word (`swift`, `py`, …).
    ///   - highlighter: where grammars come from; loads the grammar now.
    public init(language: String, highlighter: TreeSitterHighlighter = .shared) {
        let canonical = TreeSitterHighlighter.canonicalLanguage(language)
        self.language = canonical
        if let canonical, canonical != "diff" {
            grammar = highlighter.grammar(named: canonical)
        } else {
            grammar = nil
        }
        timeoutMicros = highlighter.parseTimeoutMicros
        maxInputBytes = highlighter.maxInputBytes
    }

    deinit {
        if let tree { ts_tree_delete(tree) }
    }

    /// Whether updates produce highlighting (the language is known and its
    /// grammar loaded); when false every update returns no spans.
    public var isAvailable: Bool { language == "diff" || grammar != nil }

    /// True when the last `update` reused the previous tree (for tests and
    /// diagnostics).
    public var reusedPreviousTree: Bool {
        lock.lock()
        defer { lock.unlock() }
        return lastUpdateWasIncremental
    }

    /// True when the last `update` returned kept spans instead of a parse of
    /// its text: the parse timed out, or an earlier one did and the text has
    /// not doubled since (see the type's documentation). A renderer may show
    /// such a block's tail as plain code.
    public var lastUpdateTimedOut: Bool {
        lock.lock()
        defer { lock.unlock() }
        return updateTimedOut
    }

    /// Spans for the block's full current text.
    public func update(code: String) -> [HighlightSpan] {
        lock.lock()
        defer { lock.unlock() }
        if language == "diff" { return DiffHighlighter.highlight(code) }
        guard let grammar else { return [] }
        var code = code
        return code.withUTF8 { source in
            update(source: source, grammar: grammar)
        }
    }

    private func update(source: UnsafeBufferPointer<UInt8>, grammar: Grammar) -> [HighlightSpan] {
        if source.elementsEqual(text), tree != nil { return spans }
        guard source.count <= maxInputBytes else {
            reset()
            return []
        }

        // The edit runs from the first differing byte to the end of both
        // texts: one edit covers appends, truncations and a rewritten tail.
        let prefix = commonPrefixLength(text, source)
        if let stuck = timedOutText {
            if growsFromTimedOut(source, stuck) {
                // Still growing from the text that timed out: keep the spans.
                text = Array(source)
                lastUpdateWasIncremental = false
                updateTimedOut = true
                return spans
            }
            timedOutText = nil
        }
        var previous: OpaquePointer?
        // A previous tree with syntax errors is not reused: error recovery
        // is where an incremental reparse can differ from a fresh one (the
        // fuzzer found Ruby text after an unterminated string keeping tokens
        // a fresh parse does not have), and the spans must equal a fresh
        // highlight's.
        if let tree, prefix > 0, !ts_node_has_error(ts_tree_root_node(tree)) {
            let start = point(after: text[..<prefix])
            var edit = TSInputEdit(
                start_byte: UInt32(prefix),
                old_end_byte: UInt32(text.count),
                new_end_byte: UInt32(source.count),
                start_point: start,
                old_end_point: advance(start, over: text[prefix...]),
                new_end_point: advance(start, over: source[prefix...]))
            ts_tree_edit(tree, &edit)
            previous = tree
        }
        parsesAttempted += 1
        let newTree = grammar.parse(source, oldTree: previous, timeoutMicros: timeoutMicros)
        defer {
            if let tree { ts_tree_delete(tree) }
            tree = newTree
        }
        lastUpdateWasIncremental = previous != nil && newTree != nil
        updateTimedOut = newTree == nil
        guard let newTree else {
            // Timed out: keep showing the last good spans where they still
            // apply rather than dropping to plain text mid-stream.
            text = Array(source)
            timedOutText = text
            spans = spans.filter { $0.end <= prefix }
            return spans
        }
        let root = ts_tree_root_node(newTree)
        text = Array(source)
        // The parse is incremental (tree-sitter reuses every subtree the edit
        // did not touch); the query runs over the whole tree. Querying only
        // the changed ranges was wrong in two ways the fuzzer found: `#match?`
        // predicates look at text that an edit can change without changing
        // the tree's structure (JavaScript `A_` → `A`), and an append can
        // change how earlier text parses without tree-sitter reporting it as
        // a changed range (Ruby, an unterminated string). Exact spans are
        // worth an O(code block) query per update.
        spans = SpanPainter.spans(from: grammar.query.captures(root: root, source: source), length: source.count)
        return spans
    }

    private func reset() {
        if let tree { ts_tree_delete(tree) }
        tree = nil
        text = []
        spans = []
        lastUpdateWasIncremental = false
        timedOutText = nil
        updateTimedOut = false
    }
}

private func commonPrefixLength(_ old: [UInt8], _ new: UnsafeBufferPointer<UInt8>) -> Int {
    let limit = min(old.count, new.count)
    var index = 0
    old.withUnsafeBufferPointer { old in
        while index < limit && old[index] == new[index] { index += 1 }
    }
    return index
}

/// tree-sitter points are (row, byte column).
private func point(after bytes: some Collection<UInt8>) -> TSPoint {
    advance(TSPoint(row: 0, column: 0), over: bytes)
}

private func advance(_ start: TSPoint, over bytes: some Collection<UInt8>) -> TSPoint {
    var point = start
    for byte in bytes {
        if byte == UInt8(ascii: "\n") {
            point.row += 1
            point.column = 0
        } else {
            point.column += 1
        }
    }
    return point
}

/// Whether `text` starts with `stuck` — a text whose parse timed out — and
/// is shorter than twice it: such a text is not parsed again (a grammar that
/// loops in error recovery on the stuck text would stall each append of a
/// stream for the whole time limit).
func growsFromTimedOut(_ text: some Collection<UInt8>, _ stuck: [UInt8]) -> Bool {
    text.count >= stuck.count && text.count < 2 * stuck.count && text.starts(with: stuck)
}
