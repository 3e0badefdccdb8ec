// tidemark-bench: in-process throughput of the Tidemark parser and HTML
// renderer, plus a "CLI-equivalent" mode (read, parse, render, write to
// standard output once) for wall-time comparisons with command-line peers.
//
//   tidemark-bench parse|html FILE... [--iterations N] [--warmup N]
//                  [--options gfm|commonmark|default] [--emit] [--quiet] [--tsv]
//   tidemark-bench stream FILE [--chunk N] [--naive-prefix BYTES] [--slowest K] [--once [--hold] | --batch-once | --paths [--top K]]   (Stream.swift)
//
// Results go to standard error (standard output carries the HTML with
// `--emit`), so `tidemark-bench html FILE --iterations 1 --emit --quiet`
// behaves like `cmark-gfm FILE`.
//
// No Foundation: its start-up cost would count against the CLI-equivalent
// wall time, and the parser core does not need it either.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Tidemark

// MARK: - Command line

enum Mode: String {
    case parse
    case html
}

struct Config {
    var mode: Mode = .html
    var files: [String] = []
    var iterations = 10
    var warmup = 1
    var optionsName = "gfm"
    var options: ParseOptions = [.table, .strikethrough, .tasklist, .autolink, .tagfilter]
    var emit = false
    var quiet = false
    var tsv = false
}

let usage = """
    usage: tidemark-bench parse|html FILE... [--iterations N] [--warmup N]
                          [--options gfm|commonmark|default] [--emit] [--quiet] [--tsv]

      parse         time Document(parsing:options:) only
      html          time parsing and rendering to HTML bytes
      --iterations  timed iterations per file (default 10)
      --warmup      untimed iterations before timing (default 1)
      --options     gfm = table, strikethrough, tasklist, autolink, tagfilter (default);
                    commonmark = no extension; default = every extension
      --emit        write the HTML of the last iteration to standard output
      --quiet       print no statistics
      --tsv         print one tab-separated line per file:
                    mode options file bytes iterations min_s median_s mean_s mb_per_s nodes peak_rss_kib

    """

func fail(_ message: String) -> Never {
    writeStderr("tidemark-bench: \(message)\n")
    exit(2)
}

func parseArguments() -> Config {
    var config = Config()
    var args = CommandLine.arguments.dropFirst()
    guard let first = args.popFirst() else {
        writeStderr(usage)
        exit(2)
    }
    if first == "stream" {
        runStreamBenchmark(Array(args))
        exit(0)
    }
    if first == "-h" || first == "--help" {
        writeStdout(Array(usage.utf8))
        exit(0)
    }
    guard let mode = Mode(rawValue: first) else { fail("unknown mode '\(first)' (parse or html)") }
    config.mode = mode
    func intValue(_ name: String) -> Int {
        guard let text = args.popFirst(), let value = Int(text), value >= 0 else {
            fail("\(name) needs a non-negative integer")
        }
        return value
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--iterations", "-n":
            config.iterations = max(1, intValue(arg))
        case "--warmup":
            config.warmup = intValue(arg)
        case "--options":
            guard let name = args.popFirst() else { fail("--options needs gfm, commonmark or default") }
            switch name {
            case "gfm": config.options = [.table, .strikethrough, .tasklist, .autolink, .tagfilter]
            case "commonmark": config.options = .commonmark
            case "default": config.options = .default
            default: fail("unknown --options '\(name)' (gfm, commonmark or default)")
            }
            config.optionsName = name
        case "--emit":
            config.emit = true
        case "--quiet", "-q":
            config.quiet = true
        case "--tsv":
            config.tsv = true
        default:
            if arg.hasPrefix("-") && arg != "-" { fail("unknown option '\(arg)'") }
            config.files.append(arg)
        }
    }
    if config.files.isEmpty { fail("no input file") }
    if config.emit && config.mode == .parse { fail("--emit needs mode html") }
    return config
}

// MARK: - I/O without Foundation

func writeFD(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}

func writeStdout(_ bytes: [UInt8]) { writeFD(1, bytes) }
func writeStderr(_ text: String) { writeFD(2, Array(text.utf8)) }

func readFile(_ path: String) -> [UInt8] {
    let fd = path == "-" ? 0 : open(path, O_RDONLY)
    if fd < 0 { fail("cannot read '\(path)': \(String(cString: strerror(errno)))") }
    defer { if fd != 0 { close(fd) } }
    var bytes = [UInt8](repeating: 0, count: 1 << 16)
    var count = 0
    while true {
        if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
        let n = bytes.withUnsafeMutableBufferPointer { buffer in
            read(fd, buffer.baseAddress! + count, buffer.count - count)
        }
        if n < 0 {
            if errno == EINTR { continue }
            fail("cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        if n == 0 { break }
        count += n
    }
    bytes.removeLast(bytes.count - count)
    return bytes
}

/// Peak resident set size in KiB: `VmHWM` on Linux, `ru_maxrss` elsewhere.
func peakRSSKiB() -> Int {
    #if os(Linux)
    let status = readFile("/proc/self/status")
    for line in status.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("VmHWM:".utf8)) {
        let digits = line.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return Int(String(decoding: digits, as: UTF8.self)) ?? 0
    }
    return 0
    #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
    #endif
}

// MARK: - Timing

func seconds(_ duration: Duration) -> Double {
    let (s, attoseconds) = duration.components
    return Double(s) + Double(attoseconds) * 1e-18
}

func format(_ value: Double, _ decimals: Int) -> String {
    // Fixed-point formatting without Foundation's String(format:).
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded()
    let negative = rounded < 0
    let magnitude = Int(abs(rounded))
    let whole = magnitude / Int(scale)
    var text = String(whole)
    if decimals > 0 {
        var fraction = String(magnitude % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        text += "." + fraction
    }
    return negative ? "-" + text : text
}

/// Keeps results observable so the optimizer cannot drop the work.
nonisolated(unsafe) var sink = 0

@inline(never)
func runOnce(_ input: [UInt8], _ config: Config, htmlOptions: HTMLOptions) -> (nodes: Int, html: [UInt8]?) {
    let document = Document(parsing: input, options: config.options)
    switch config.mode {
    case .parse:
        return (document.nodeCount, nil)
    case .html:
        let html = document.htmlBytes(htmlOptions)
        return (document.nodeCount, html)
    }
}

// MARK: - Main

let config = parseArguments()
let htmlOptions = HTMLOptions()
var totalBytes = 0
var totalMin = 0.0
var totalMedian = 0.0

for path in config.files {
    let input = readFile(path)
    var lastHTML: [UInt8]? = nil
    var nodes = 0
    for _ in 0..<config.warmup {
        let result = runOnce(input, config, htmlOptions: htmlOptions)
        sink &+= result.nodes &+ (result.html?.count ?? 0)
    }
    var times: [Double] = []
    times.reserveCapacity(config.iterations)
    let clock = ContinuousClock()
    for i in 0..<config.iterations {
        let start = clock.now
        let result = runOnce(input, config, htmlOptions: htmlOptions)
        let elapsed = seconds(clock.now - start)
        times.append(elapsed)
        nodes = result.nodes
        sink &+= result.nodes &+ (result.html?.count ?? 0)
        if config.emit && i == config.iterations - 1 { lastHTML = result.html }
    }
    if let html = lastHTML { writeStdout(html) }

    times.sort()
    let minimum = times[0]
    let median = times.count % 2 == 1
        ? times[times.count / 2]
        : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    let mean = times.reduce(0, +) / Double(times.count)
    let megabytes = Double(input.count) / 1_000_000
    let throughput = median > 0 ? megabytes / median : 0
    totalBytes += input.count
    totalMin += minimum
    totalMedian += median
    if config.quiet { continue }
    let rss = peakRSSKiB()
    if config.tsv {
        let fields = [
            config.mode.rawValue, config.optionsName, path, String(input.count), String(config.iterations),
            format(minimum, 6), format(median, 6), format(mean, 6), format(throughput, 2), String(nodes), String(rss),
        ]
        writeStderr(fields.joined(separator: "\t") + "\n")
    } else {
        writeStderr(
            "\(config.mode.rawValue) [\(config.optionsName)] \(path): \(input.count) bytes, \(nodes) nodes, "
                + "\(config.iterations) iterations\n"
                + "  time/iteration: min \(format(minimum * 1000, 3)) ms, median \(format(median * 1000, 3)) ms, "
                + "mean \(format(mean * 1000, 3)) ms\n"
                + "  throughput:     \(format(throughput, 2)) MB/s (median), "
                + "\(format(megabytes / minimum, 2)) MB/s (best)\n"
                + "  peak RSS:       \(rss) KiB (process so far)\n")
    }
}

if !config.quiet && !config.tsv && config.files.count > 1 {
    let megabytes = Double(totalBytes) / 1_000_000
    writeStderr(
        "total: \(totalBytes) bytes, sum of medians \(format(totalMedian * 1000, 3)) ms, "
            + "\(format(megabytes / totalMedian, 2)) MB/s\n")
}
if sink == Int.min { writeStderr("\n") }  // never true; keeps `sink` alive
