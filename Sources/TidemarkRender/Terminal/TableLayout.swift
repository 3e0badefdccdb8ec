import Tidemark

/// Lays a table out in box-drawing characters within a width:
///
///     ┌──────┬─────────┐
///     │ Name │   Price │
///     ├──────┼─────────┤
///     │ Tea  │    3.50 │
///     └──────┴─────────┘
///
/// Columns get their natural width when the table fits. When it does not,
/// the widest columns shrink first (every column keeps
/// `min(natural, share)` where the share is as large as the width allows)
/// and cell text wraps inside them; rows that wrap are then separated by
/// rules so each row reads as one. A table that cannot fit even at
/// `minimumColumnWidth` per column is shown as records, one
/// `header: value` line per cell.
struct TableLayout {
    /// Narrower columns turn every word into a column of letters.
    static let minimumColumnWidth = 3

    let border: CellStyle
    let headerStyle: CellStyle

    /// - Parameters:
    ///   - header: the header cells as styled spans, one array per column.
    ///   - rows: the body rows, each with one span array per column.
    func lines(header: [[StyledSpan]], rows: [[[StyledSpan]]], alignments: [TableAlignment],
               width: Int) -> [StyledLine] {
        let columns = alignments.count
        guard columns > 0 else { return [] }
        // "│ " before each cell, " " after, and the closing "│".
        let chrome = 3 * columns + 1
        let available = width - chrome
        guard available >= columns * Self.minimumColumnWidth else {
            return records(header: header, rows: rows, width: width)
        }
        let all = [header] + rows
        var natural = Array(repeating: 1, count: columns)
        for row in all {
            for (c, cell) in row.enumerated() where c < columns {
                let widest = TextWrapper.wrap(cell, width: Int.max / 2).map(\.width).max() ?? 0
                natural[c] = max(natural[c], widest)
            }
        }
        let widths = Self.fit(natural, into: available)

        let laidOut = all.map { row in
            (0..<columns).map { c in TextWrapper.wrap(c < row.count ? row[c] : [], width: widths[c]) }
        }
        let separateRows = laidOut.dropFirst().contains { row in row.contains { $0.count > 1 } }

        var out: [StyledLine] = [rule("┌", "┬", "┐", widths)]
        for (r, row) in laidOut.enumerated() {
            if r == 1 { out.append(rule("├", "┼", "┤", widths)) }
            if r > 1 && separateRows { out.append(rule("├", "┼", "┤", widths)) }
            let height = row.map(\.count).max() ?? 1
            for i in 0..<height {
                var line = StyledLine("│", border)
                for c in 0..<columns {
                    line.pad(1)
                    let cell = i < row[c].count ? row[c][i] : StyledLine()
                    let slack = widths[c] - cell.width
                    let before: Int
                    switch alignments[c] {
                    case .right: before = slack
                    case .center: before = slack / 2
                    case .left, .none: before = 0
                    }
                    line.pad(before)
                    line.append(cell)
                    line.pad(slack - before)
                    line.pad(1)
                    line.append("│", border)
                }
                out.append(line)
            }
        }
        out.append(rule("└", "┴", "┘", widths))
        return out
    }

    /// Column widths that sum to at most `available`: the natural widths
    /// when they fit, else every column capped at the largest common cap
    /// that fits, the columns at the cap sharing what is left over.
    static func fit(_ natural: [Int], into available: Int) -> [Int] {
        if natural.reduce(0, +) <= available { return natural }
        let sorted = natural.sorted()
        var cap = 0
        var used = 0  // by the columns narrower than the cap
        for (i, w) in sorted.enumerated() {
            let remaining = sorted.count - i
            // Can every remaining column get `w`?
            if used + w * remaining <= available {
                cap = w
                used += w
            } else {
                cap = max(cap, (available - used) / remaining)
                break
            }
        }
        var widths = natural.map { min($0, cap) }
        var left = available - widths.reduce(0, +)
        for c in widths.indices where left > 0 && natural[c] > widths[c] {
            widths[c] += 1
            left -= 1
        }
        return widths
    }

    private func rule(_ left: String, _ middle: String, _ right: String, _ widths: [Int]) -> StyledLine {
        var text = left
        for (c, w) in widths.enumerated() {
            text += String(repeating: "─", count: w + 2)
            text += c == widths.count - 1 ? right : middle
        }
        return StyledLine(text, border)
    }

    /// Too narrow for columns: each body row as `header: value` lines,
    /// rows separated by a rule.
    private func records(header: [[StyledSpan]], rows: [[[StyledSpan]]], width: Int) -> [StyledLine] {
        var out: [StyledLine] = []
        let separator = StyledLine(String(repeating: "─", count: width), border)
        out.append(separator)
        for row in rows.isEmpty ? [Array(repeating: [StyledSpan](), count: header.count)] : rows {
            for (c, cell) in row.enumerated() {
                var spans = c < header.count ? header[c].map { StyledSpan(text: $0.text, style: headerStyle) } : []
                spans.append(StyledSpan(text: ": ", style: headerStyle))
                spans += cell
                out += TextWrapper.wrap(spans, width: width)
            }
            out.append(separator)
        }
        return out
    }
}
