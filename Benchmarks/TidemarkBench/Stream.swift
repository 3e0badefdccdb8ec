// tidemark-bench stream FILE [--chunk N] [--naive-prefix BYTES] [--slowest K] [--once [--hold] | --batch-once | --paths [--top K]]
//
// The streaming benchmark of the streaming issue: stream FILE in N-byte
// chunks (default 4), taking the update after every append, against one
// batch parse of the same text in the same run; and the naive "re-parse
// everything per chunk" baseline on a prefix (default 100 KB). Prints the
// ratios and the per-append p50/p99.

@_spi(Diagnostics) import Tidemark

func runStreamBenchmark(_ arguments: [String]) {
    var args = arguments[...]
    var path: String? = nil
    var chunk = 4
    var naivePrefix = 100_000
    // For instruction counts (callgrind): `--once` streams once and does
    // nothing else; `--batch-once` parses once and does nothing else. Less
    // the total of `--batch-once` on an empty file (start-up, reading),
    // they are the streaming run's count and one batch parse's; their
    // quotient is the ratio. (The difference of the two totals is the
    // streaming run less one batch parse: until session 15 the README gave
    // that over the batch parse, one less than the ratio.)
    var once = false
    var batchOnce = false
    // `--hold`: keep each update until the next append returns, as a UI
    // that shows the last document does.
    var hold = false
    // `--slowest K`: also print the K slowest appends of the timed run,
    // with the byte offset each started at (latency spikes, which a UI
    // feels more than the mean).
    var slowest = 0
    // `--paths`: stream once and print which kind of step each append took
    // (no pass, a paragraph or row pass, a new block's line, a snapshot)
    // and which bytes of the chunk set it off — where to look for the cost
    // (`--top K` chunk contexts per kind, default 12).
    var paths = false
    var top = 12
    while let a = args.popFirst() {
        switch a {
        case "--chunk": chunk = Int(args.popFirst() ?? "") ?? 0
        case "--naive-prefix": naivePrefix = Int(args.popFirst() ?? "") ?? 0
        case "--once": once = true
        case "--batch-once": batchOnce = true
        case "--hold": hold = true
        case "--slowest": slowest = Int(args.popFirst() ?? "") ?? -1
        case "--paths": paths = true
        case "--top": top = Int(args.popFirst() ?? "") ?? -1
        default:
            if a.hasPrefix("-") || path != nil { fail("unknown argument '\(a)'") }
            path = a
        }
    }
    guard let path else { fail("stream needs a FILE") }
    guard chunk > 0 else { fail("--chunk needs a positive number") }
    guard slowest >= 0 else { fail("--slowest needs a count") }
    guard top >= 0 else { fail("--top needs a count") }
    let input = readFile(path)
    if paths {
        printPaths(input, path: path, chunk: chunk, top: top)
        return
    }
    let clock = ContinuousClock()
    if batchOnce {
        writeStdout(Array("nodes \(Document(parsing: input, options: .default).nodeCount)\n".utf8))
        return
    }
    if once {
        var stream = MarkdownStream(options: .default)
        var at = 0
        var changed = 0
        var held: StreamUpdate? = nil
        while at < input.count {
            let end = min(input.count, at + chunk)
            let update = stream.append(bytes: input[at..<end])
            changed &+= update.changedBlocks.count
            if hold { held = update }
            at = end
        }
        _ = held
        writeStdout(Array("nodes \(stream.finish().document.nodeCount) changed \(changed)\n".utf8))
        return
    }

    // One batch parse (best of three).
    var batch = Double.infinity
    var reference = Document(parsing: [UInt8](), options: .default)
    for _ in 0..<3 {
        let t0 = clock.now
        reference = Document(parsing: input, options: .default)
        batch = min(batch, seconds(clock.now - t0))
    }

    // Streaming: the whole run timed once (best of three), taking the
    // update after every append; then a separate run with a timing per
    // append for the percentiles (reading the clock twice per append would
    // otherwise be part of the total).
    var streamed = Double.infinity
    var empty = MarkdownStream(options: .default)
    var final = empty.finish()
    for _ in 0..<3 {
        var stream = MarkdownStream(options: .default)
        var at = 0
        let start = clock.now
        while at < input.count {
            let end = min(input.count, at + chunk)
            let update = stream.append(bytes: input[at..<end])
            _ = update.changedBlocks.count
            at = end
        }
        final = stream.finish()
        streamed = min(streamed, seconds(clock.now - start))
    }
    // The same, holding each update until the next append returns (a UI
    // keeps the document it shows): the stream continues in a spare storage.
    var streamedHolding = Double.infinity
    for _ in 0..<3 {
        var stream = MarkdownStream(options: .default)
        var at = 0
        var held: StreamUpdate? = nil
        let start = clock.now
        while at < input.count {
            let end = min(input.count, at + chunk)
            let update = stream.append(bytes: input[at..<end])
            _ = update.changedBlocks.count
            held = update
            at = end
        }
        _ = held
        _ = stream.finish()
        streamedHolding = min(streamedHolding, seconds(clock.now - start))
    }
    var perAppend: [Double] = []
    perAppend.reserveCapacity(input.count / chunk + 1)
    var offsets: [Int] = []
    do {
        var stream = MarkdownStream(options: .default)
        var at = 0
        while at < input.count {
            let end = min(input.count, at + chunk)
            let t0 = clock.now
            let update = stream.append(bytes: input[at..<end])
            _ = update.changedBlocks.count
            perAppend.append(seconds(clock.now - t0))
            if slowest > 0 { offsets.append(at) }
            at = end
        }
    }
    var slowestLines = ""
    if slowest > 0 {
        let order = perAppend.indices.sorted { perAppend[$0] > perAppend[$1] }
        for k in order.prefix(slowest) {
            slowestLines += "  slow append at byte \(offsets[k]): \(format(perAppend[k] * 1e6, 1)) µs\n"
        }
    }
    perAppend.sort()
    let exact = final.document == reference

    // The naive baseline on a prefix: parse the whole prefix after every chunk.
    let prefix = Array(input.prefix(naivePrefix))
    var naive = 0.0
    var streamedPrefix = 0.0
    if !prefix.isEmpty {
        var p = 0
        let t0 = clock.now
        while p < prefix.count {
            p = min(prefix.count, p + chunk)
            _ = Document(parsing: prefix[0..<p], options: .default).nodeCount
        }
        naive = seconds(clock.now - t0)
        var s2 = MarkdownStream(options: .default)
        p = 0
        let t1 = clock.now
        while p < prefix.count {
            let e = min(prefix.count, p + chunk)
            _ = s2.append(bytes: prefix[p..<e]).changedBlocks.count
            p = e
        }
        streamedPrefix = seconds(clock.now - t1)
    }

    func micro(_ s: Double) -> String { format(s * 1e6, 1) + " µs" }
    let p50 = perAppend.isEmpty ? 0 : perAppend[perAppend.count / 2]
    let p99 = perAppend.isEmpty ? 0 : perAppend[min(perAppend.count - 1, perAppend.count * 99 / 100)]
    writeStdout(Array("""
        stream \(path): \(input.count) bytes in \(chunk)-byte chunks, \(perAppend.count) appends, final document exact: \(exact)
          batch parse            \(format(batch * 1000, 2)) ms
          streamed (all appends) \(format(streamed * 1000, 2)) ms   ratio streamed/batch = \(format(streamed / batch, 2))  (target ≤ 3)
          holding each update    \(format(streamedHolding * 1000, 2)) ms   ratio = \(format(streamedHolding / batch, 2))
          per append             p50 \(micro(p50))   p99 \(micro(p99))   max \(micro(perAppend.last ?? 0))
          naive re-parse per chunk on a \(prefix.count)-byte prefix: \(format(naive * 1000, 1)) ms vs streamed \(format(streamedPrefix * 1000, 1)) ms (naive/streamed = \(format(naive / max(streamedPrefix, 1e-9), 1)))
        \(slowestLines)
        """.utf8))
}

/// `--paths`: streams `input` once in `chunk`-byte chunks and sorts the
/// appends by the heaviest step each took (a snapshot, a new block's line,
/// a row pass, a paragraph pass, or none of these), reading the stream's
/// work counts (an SPI) around every append. For each kind: the bytes of
/// the chunks that markup may hang on (a line feed, `*`, a backtick, …:
/// the bytes that start, end or delimit a construct) and the commonest chunks, with
/// the three bytes before each. Also the wall time of each kind, all its
/// appends together and on average, and over one batch parse of `input`.
func printPaths(_ input: [UInt8], path: String, chunk: Int, top: Int) {
    let kinds = ["snapshot", "new-block pass", "row pass", "paragraph pass", "no pass"]
    let plural = ["snapshots", "new-block passes", "row passes", "paragraph passes", ""]
    var appends = [Int](repeating: 0, count: kinds.count)
    var triggers = [[String: Int]](repeating: [:], count: kinds.count)
    var contexts = [[String: Int]](repeating: [:], count: kinds.count)
    // Bytes that can start, end or delimit a construct (the rest, letters,
    // digits, spaces and most punctuation, are plain text after text).
    let markup = Set("#$)*;>@\\]_`|~!<[&".utf8)
    func shown(_ bytes: ArraySlice<UInt8>) -> String {
        var s = ""
        for b in bytes {
            switch b {
            case 0x0A: s += "\\n"
            case 0x0D: s += "\\r"
            case 0x09: s += "\\t"
            case 0x20..<0x7F: s += String(UnicodeScalar(b))
            default: s += "·"  // a byte of a UTF-8 sequence
            }
        }
        return s
    }
    func padded(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
    // Wall time by kind (each append timed on its own: the clock's reads
    // are in it, some tens of nanoseconds an append), against one batch
    // parse (best of three).
    let clock = ContinuousClock()
    var time = [Duration](repeating: .zero, count: kinds.count)
    var batch = Duration.seconds(1_000_000)
    for _ in 0..<3 {
        let t0 = clock.now
        _ = Document(parsing: input, options: .default).nodeCount
        batch = min(batch, clock.now - t0)
    }
    // (What two reads of the clock cost, as each append's timing has.)
    var overhead = Duration.zero
    do {
        var spent = Duration.zero
        for _ in 0..<100_000 {
            let t0 = clock.now
            spent += clock.now - t0
        }
        overhead = spent / 100_000
    }
    var stream = MarkdownStream(options: .default)
    var at = 0
    while at < input.count {
        let end = min(input.count, at + chunk)
        let before = stream.workCounts
        let t0 = clock.now
        _ = stream.append(bytes: input[at..<end]).changedBlocks.count
        let dt = clock.now - t0
        let after = stream.workCounts
        let kind = after.snapshots > before.snapshots ? 0
            : after.newBlockPasses > before.newBlockPasses ? 1
            : after.rowPasses > before.rowPasses ? 2
            : after.paragraphPasses > before.paragraphPasses ? 3 : 4
        appends[kind] += 1
        time[kind] += dt
        if kind < 4 {
            var found: [String] = []
            for b in input[at..<end] {
                let name = b == 0x0A ? "LF" : b == 0x0D ? "CR" : b < 0x20 ? "control" : markup.contains(b) ? String(UnicodeScalar(b)) : nil
                if let name, !found.contains(name) { found.append(name) }
            }
            triggers[kind][found.isEmpty ? "(none)" : found.joined(separator: " "), default: 0] += 1
            contexts[kind][shown(input[max(0, at - 3)..<at]) + " | " + shown(input[at..<end]), default: 0] += 1
        }
        at = end
    }
    _ = stream.finish()
    var out = "stream \(path): \(input.count) bytes in \(chunk)-byte chunks, \(appends.reduce(0, +)) appends\n"
    func ms(_ d: Duration) -> Double { seconds(d) * 1e3 }
    out += "  (each append's time includes two reads of the clock, about \(Int((ms(overhead) * 1e6).rounded())) ns)\n"
    out += "  \(padded("kind", 16)) \(padded("appends", 9)) \(padded("ms", 8)) \(padded("ns each", 8)) x batch (\(format(ms(batch), 2)) ms)\n"
    for k in kinds.indices {
        let t = ms(time[k])
        let each = appends[k] > 0 ? t * 1e6 / Double(appends[k]) : 0
        out += "  \(padded(kinds[k], 16)) \(padded(String(appends[k]), 9)) \(padded(format(t, 2), 8)) \(padded(String(Int(each.rounded())), 8)) \(format(t / ms(batch), 2))\n"
    }
    for k in 0..<4 where appends[k] > 0 {
        out += "\n\(plural[k]), by the markup bytes of the chunk:\n   "
        for (t, n) in triggers[k].sorted(by: { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }).prefix(max(top, 1)) {
            out += " \(t): \(n);"
        }
        out += "\n  commonest chunks (3 bytes before | the chunk):\n"
        for (c, n) in contexts[k].sorted(by: { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }).prefix(top) {
            out += "    \(padded(String(n), 6)) \(c)\n"
        }
    }
    writeStdout(Array(out.utf8))
}
