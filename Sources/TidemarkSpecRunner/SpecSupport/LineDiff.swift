// A unified line diff for failure reports (runner and tests). Spec outputs
// are a few dozen lines, so a plain longest-common-subsequence table is
// enough; it is only bounded so a runaway output cannot eat the memory.

extension SpecSupport {
    /// Largest LCS table (lines × lines) worth building; past it the diff
    /// shows every line as removed and added, which is still correct.
    static let maxDiffTableSize = 4_000_000

    /// `expected` → `actual` as a unified diff with three lines of context,
    /// or "" when they are equal. A missing final newline is shown the way
    /// `diff -u` shows it, since fixtures compare byte for byte.
    static func unifiedDiff(expected: String, actual: String,
                            expectedName: String = "expected", actualName: String = "actual") -> String {
        if expected == actual { return "" }
        let a = diffLines(expected), b = diffLines(actual)
        let ops = editScript(a, b)

        var out = "--- \(expectedName)\n+++ \(actualName)\n"
        let context = 3
        // Walk the script, emitting one hunk per cluster of changes.
        var i = 0
        while i < ops.count {
            guard ops[i].kind != .same else { i += 1; continue }
            var hunkStart = i
            var back = 0
            while hunkStart > 0, ops[hunkStart - 1].kind == .same, back < context { hunkStart -= 1; back += 1 }
            var hunkEnd = i
            // Extend while the next change is within 2×context equal lines.
            while true {
                while hunkEnd < ops.count, ops[hunkEnd].kind != .same { hunkEnd += 1 }
                var look = hunkEnd
                while look < ops.count, ops[look].kind == .same, look - hunkEnd < 2 * context { look += 1 }
                if look < ops.count, ops[look].kind != .same { hunkEnd = look; continue }
                hunkEnd = min(ops.count, hunkEnd + context)
                break
            }
            let hunk = ops[hunkStart..<hunkEnd]
            let firstA = hunk.first!.aIndex, firstB = hunk.first!.bIndex
            let countA = hunk.filter { $0.kind != .insert }.count
            let countB = hunk.filter { $0.kind != .delete }.count
            out += "@@ -\(range(firstA, countA)) +\(range(firstB, countB)) @@\n"
            for op in hunk {
                switch op.kind {
                case .same: out += " " + shown(a[op.aIndex])
                case .delete: out += "-" + shown(a[op.aIndex])
                case .insert: out += "+" + shown(b[op.bIndex])
                }
            }
            i = hunkEnd
        }
        return out
    }

    private struct DiffOp {
        enum Kind { case same, delete, insert }
        var kind: Kind
        /// Position in the old / new lines (for inserts/deletes: where the
        /// other side stands, which the hunk header needs).
        var aIndex: Int
        var bIndex: Int
    }

    /// `diff -u`'s hunk range: 1-based start and count; an empty side names
    /// the line before it.
    private static func range(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
    }

    /// The lines of a text, each with its `\n` if it has one: a last line
    /// without it then differs from the same line with it.
    private static func diffLines(_ text: String) -> [String] {
        var pieces = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces.enumerated().map { index, piece in
            let line = String(decoding: piece, as: UTF8.self)
            return index < pieces.count - 1 || text.utf8.last == 0x0A ? line + "\n" : line
        }
    }

    private static func shown(_ line: String) -> String {
        line.hasSuffix("\n") ? line : line + "\n\\ No newline at end of file\n"
    }

    private static func editScript(_ a: [String], _ b: [String]) -> [DiffOp] {
        let n = a.count, m = b.count
        // Trim the common prefix and suffix first: typical failures differ in
        // a line or two, which keeps the table tiny.
        var prefix = 0
        while prefix < n, prefix < m, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < n - prefix, suffix < m - prefix, a[n - 1 - suffix] == b[m - 1 - suffix] { suffix += 1 }
        let aMid = Array(a[prefix..<(n - suffix)]), bMid = Array(b[prefix..<(m - suffix)])

        var ops: [DiffOp] = (0..<prefix).map { DiffOp(kind: .same, aIndex: $0, bIndex: $0) }
        let p = aMid.count, q = bMid.count
        if p * q <= maxDiffTableSize {
            // lcs[i][j]: LCS length of aMid[i...] and bMid[j...], flattened.
            var lcs = [Int32](repeating: 0, count: (p + 1) * (q + 1))
            if p > 0, q > 0 {
                for i in stride(from: p - 1, through: 0, by: -1) {
                    for j in stride(from: q - 1, through: 0, by: -1) {
                        lcs[i * (q + 1) + j] = aMid[i] == bMid[j]
                            ? lcs[(i + 1) * (q + 1) + j + 1] + 1
                            : max(lcs[(i + 1) * (q + 1) + j], lcs[i * (q + 1) + j + 1])
                    }
                }
            }
            var i = 0, j = 0
            while i < p || j < q {
                if i < p, j < q, aMid[i] == bMid[j] {
                    ops.append(DiffOp(kind: .same, aIndex: prefix + i, bIndex: prefix + j)); i += 1; j += 1
                } else if i < p, j == q || lcs[(i + 1) * (q + 1) + j] >= lcs[i * (q + 1) + j + 1] {
                    // Prefer deleting first: removed lines print before added ones.
                    ops.append(DiffOp(kind: .delete, aIndex: prefix + i, bIndex: prefix + j)); i += 1
                } else {
                    ops.append(DiffOp(kind: .insert, aIndex: prefix + i, bIndex: prefix + j)); j += 1
                }
            }
        } else {
            ops += (0..<p).map { DiffOp(kind: .delete, aIndex: prefix + $0, bIndex: prefix) }
            ops += (0..<q).map { DiffOp(kind: .insert, aIndex: prefix + p, bIndex: prefix + $0) }
        }
        ops += (0..<suffix).map { DiffOp(kind: .same, aIndex: n - suffix + $0, bIndex: m - suffix + $0) }
        return ops
    }
}
