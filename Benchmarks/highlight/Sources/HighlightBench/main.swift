// Times TidemarkHighlight on the inputs compare.py writes, and prints one
// JSON object per line: {"language", "input", "first_ms" | "median_ms", ...}.
//
// Usage: HighlightBench <input-dir> <language>... [--runs N]
//   <input-dir>/<language>-<size>.txt are highlighted; "first" is the first
//   highlight in this process (grammar dlopen + query compile + highlight),
//   "warm" the median of N further runs with the result cache disabled, and
//   "stream" the median cost of one HighlightSession update when the largest
//   input is appended 5 bytes at a time (as a streaming renderer would).
import Foundation
import TidemarkHighlight

func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 50
if let flag = arguments.firstIndex(of: "--runs"), flag + 1 < arguments.count {
    runs = Int(arguments[flag + 1]) ?? runs
    arguments.removeSubrange(flag...(flag + 1))
}
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: HighlightBench <input-dir> <language>... [--runs N]\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[0])
let highlighter = TreeSitterHighlighter(cacheCapacity: 0)

for language in arguments.dropFirst() {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    let inputs = files.filter { $0.hasPrefix(language + "-") && $0.hasSuffix(".txt") }.sorted()
    var firstDone = false
    for name in inputs {
        guard let code = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { continue }
        let label = String(name.dropFirst(language.count + 1).dropLast(4))
        var spans = 0
        if !firstDone {
            let first = milliseconds { spans = highlighter.highlight(code, language: language)?.count ?? -1 }
            print(#"{"language":"\#(language)","input":"\#(label)","kind":"first","ms":\#(first),"spans":\#(spans)}"#)
            firstDone = true
        }
        var samples: [Double] = []
        for _ in 0..<runs {
            samples.append(milliseconds { spans = highlighter.highlight(code, language: language)?.count ?? -1 })
        }
        samples.sort()
        let median = samples[samples.count / 2]
        print(#"{"language":"\#(language)","input":"\#(label)","kind":"warm","ms":\#(median),"min_ms":\#(samples[0]),"spans":\#(spans)}"#)
    }
    if let largest = inputs.last,
        let code = try? String(contentsOf: directory.appendingPathComponent(largest), encoding: .utf8)
    {
        let label = String(largest.dropFirst(language.count + 1).dropLast(4))
        let bytes = Array(code.utf8)
        let session = HighlightSession(language: language, highlighter: highlighter)
        var samples: [Double] = []
        var end = 0
        while end < bytes.count {
            end = min(end + 5, bytes.count)
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            samples.append(milliseconds { _ = session.update(code: text) })
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p90 = samples[samples.count * 9 / 10]
        print(#"{"language":"\#(language)","input":"\#(label)","kind":"stream","ms":\#(median),"p90_ms":\#(p90),"updates":\#(samples.count)}"#)
    }
}
