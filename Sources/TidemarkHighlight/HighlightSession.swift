import CTreeSitter
import Foundation
import Tidemark

/// Incremental highlighting of one code block that grows while it streams in.
///
/// Keep one session per fenced block and call `update(code:)` with the whole
/// current text each time it changes. When the new text starts with the old
/// one (text appended — the streaming case) or shares a prefix with it, the
/// previous syntax tree is edited with `ts_tree_edit` and reparsed, so
/// tree-sitter reuses every subtree the change did not touch; anything else
/// is parsed from scratch. The result always equals what
/// `TreeSitterHighlighter.highlight` returns for the same text, so the spans
/// of the unchanged prefix stay put between updates instead of flashing back
/// to plain text.
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
        var previous: OpaquePointer?
        if let tree, prefix > 0 {
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
        let newTree = grammar.parse(source, oldTree: previous, timeoutMicros: timeoutMicros)
        defer {
            if let tree { ts_tree_delete(tree) }
            tree = newTree
        }
        lastUpdateWasIncremental = previous != nil && newTree != nil
        guard let newTree else {
            // Timed out: keep showing the last good spans where they still
            // apply rather than dropping to plain text mid-stream.
            text = []
            spans = spans.filter { $0.end <= prefix }
            return spans
        }
        let root = ts_tree_root_node(newTree)
        let oldSpans = spans
        text = Array(source)
        guard let previous else {
            spans = SpanPainter.spans(from: grammar.query.captures(root: root, source: source), length: source.count)
            return spans
        }

        // Only the part of the tree the edit could have changed is queried
        // again. tree-sitter reports the ranges whose structure differs
        // between the two trees; nothing before the first of them (or the
        // edit) changed. Captures are then recomputed from the start of the
        // top-level node containing that point, because a pattern may need
        // earlier nodes of the same construct (`(call function: (_) @f
        // arguments: …)`), and a query cursor limited to a byte range skips
        // nodes that end before the range. No chosen query has a pattern
        // spanning two top-level nodes, so everything before that node keeps
        // its spans unchanged.
        var changeStart = UInt32(prefix)
        var rangeCount: UInt32 = 0
        if let ranges = ts_tree_get_changed_ranges(previous, newTree, &rangeCount) {
            for index in 0..<Int(rangeCount) {
                changeStart = min(changeStart, ranges[index].start_byte)
            }
            free(ranges)
        }
        var restart = changeStart
        let topLevel = ts_node_first_child_for_byte(root, changeStart)
        if !ts_node_is_null(topLevel) {
            restart = min(restart, ts_node_start_byte(topLevel))
        }
        let window = Int(restart)..<source.count
        let captures = grammar.query.captures(
            root: root, source: source, byteRange: restart..<UInt32(source.count))
        // Keep the old spans before the restart point. One may straddle it:
        // adjacent runs of one kind are merged into a single span, so a
        // string's opening quote and the text after it are one span even
        // though they are two captures. Clip it; the join below re-merges it.
        var merged = oldSpans.prefix { $0.start < window.lowerBound }
        if let last = merged.last, last.end > window.lowerBound {
            merged[merged.count - 1].end = window.lowerBound
        }
        let fresh = SpanPainter.spans(from: captures, length: source.count, range: window)
        // Adjacent runs of one kind are a single span in a full highlight;
        // join them where the kept prefix meets the new part.
        if let last = merged.last, let first = fresh.first, last.end == first.start, last.kind == first.kind {
            merged[merged.count - 1].end = first.end
            merged.append(contentsOf: fresh.dropFirst())
        } else {
            merged.append(contentsOf: fresh)
        }
        spans = Array(merged)
        return spans
    }

    private func reset() {
        if let tree { ts_tree_delete(tree) }
        tree = nil
        text = []
        spans = []
        lastUpdateWasIncremental = false
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
