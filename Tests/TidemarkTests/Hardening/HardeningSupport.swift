import Foundation
import Testing
@testable import Tidemark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers of the hardening tests (contract 4: hostile input is normal input).
enum Hardening {
    /// The stack a thread gets by default on Linux and macOS main threads
    /// (8 MiB). The test runner's own threads may have another size, so deep
    /// inputs run on a thread of exactly this size: a recursion that only
    /// survives on a larger stack fails here as it would in an app.
    static let defaultStackSize = 8 << 20

    /// Runs `body` on a new thread with an 8 MiB stack and returns its
    /// result, or `nil` when the calling task is cancelled first (a test's
    /// `.timeLimit` cancels it): a hang then fails the test instead of
    /// holding up the whole run. The thread itself cannot be stopped; it
    /// ends with the process.
    static func onDefaultStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        let once = ResumeOnce<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.install(continuation)
                let thread = Thread {
                    once.resume(body())
                }
                thread.stackSize = defaultStackSize
                thread.start()
            }
        } onCancel: {
            once.resume(nil)
        }
    }

    /// Resumes a continuation exactly once, from whichever side comes first.
    final class ResumeOnce<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T?, Never>?
        private var pending: T??
        private var done = false

        func install(_ c: CheckedContinuation<T?, Never>) {
            lock.lock()
            if let value = pending {
                done = true
                lock.unlock()
                c.resume(returning: value)
                return
            }
            continuation = c
            lock.unlock()
        }

        func resume(_ value: T?) {
            lock.lock()
            guard !done else { lock.unlock(); return }
            if let c = continuation {
                done = true
                continuation = nil
                lock.unlock()
                c.resume(returning: value)
            } else {
                if pending == nil { pending = .some(value) }
                lock.unlock()
            }
        }
    }

    /// Parses and renders on a default-size stack (`nil`: cancelled).
    static func html(_ markdown: String, options: ParseOptions = .default,
                     html: HTMLOptions = HTMLOptions()) async -> String? {
        await onDefaultStack { Document(parsing: markdown, options: options).html(html) }
    }

    /// Non-overlapping occurrences of `needle` in `haystack`.
    static func count(_ needle: String, in haystack: String) -> Int {
        let h = Array(haystack.utf8), n = Array(needle.utf8)
        guard !n.isEmpty, h.count >= n.count else { return 0 }
        var count = 0
        var i = 0
        while i + n.count <= h.count {
            if h[i] == n[0] && h[i..<(i + n.count)].elementsEqual(n) {
                count += 1
                i += n.count
            } else {
                i += 1
            }
        }
        return count
    }

    /// What `inspect` found in a document.
    struct TreeReport: Sendable {
        /// Nodes breaking an invariant (see `inspect`).
        var problems: Int
        /// Nodes reached by a pre-order walk over the child links.
        var reached: Int
        var nodeCount: Int
        /// Deepest node (the document is depth 0).
        var maxDepth: Int
        /// Nodes `Document.walk` entered and exited.
        var walkerEntered: Int
        var walkerExited: Int
    }

    /// Checks the structural invariants of a tree without recursion: ranges
    /// inside the source and inside the parent, siblings in order and not
    /// overlapping, nodes stored in document order, parent links consistent;
    /// also runs `Document.walk` over it.
    static func inspect(_ doc: Document) -> TreeReport {
        var expected = 0
        var maxDepth = 0
        var problems = 0
        var stack: [(Node, Int)] = [(doc.root, 0)]
        let sourceCount = doc.source.count
        while let (node, depth) = stack.popLast() {
            maxDepth = max(maxDepth, depth)
            if node.index != expected || node.range.upperBound > sourceCount || node.range.lowerBound < 0 {
                problems += 1
            }
            expected += 1
            var children: [Node] = []
            var previousEnd = node.range.lowerBound
            for child in node.children {
                if child.parent != node || child.range.lowerBound < previousEnd
                    || child.range.upperBound > node.range.upperBound {
                    problems += 1
                }
                previousEnd = child.range.upperBound
                children.append(child)
            }
            for child in children.reversed() { stack.append((child, depth + 1)) }
        }
        var walker = CountingWalker()
        doc.walk(&walker)
        return TreeReport(problems: problems, reached: expected, nodeCount: doc.nodeCount, maxDepth: maxDepth,
                          walkerEntered: walker.entered, walkerExited: walker.exited)
    }

    struct CountingWalker: MarkdownWalker {
        var entered = 0
        var exited = 0
        mutating func enter(_ node: Node) -> WalkAction { entered += 1; return .visitChildren }
        mutating func exit(_ node: Node) { exited += 1 }
    }

    // MARK: Timing

    /// CPU seconds the calling thread has used. Timing uses CPU time, not
    /// wall-clock time: the machines that run the tests are shared, and a
    /// thread waiting for a core must not look like a slow parser.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// CPU seconds one run of `body` takes on the calling thread.
    static func cpuSeconds(_ body: () -> Void) -> Double {
        let start = threadCPUSeconds()
        body()
        return threadCPUSeconds() - start
    }

    /// Compares the time to parse and render `make(n)` and `make(2n)`.
    ///
    /// Growth is judged from a ratio, never from a wall-clock bound alone:
    /// `n` doubles (from `start`) until one run takes at least `floor` CPU
    /// seconds or the input reaches `maxBytes`; then n and 2n are timed
    /// alternately, three times each, and the minimum of each is kept (the
    /// run least disturbed by cache misses from other processes). Linear
    /// work gives a ratio near 2, quadratic near 4.
    static func scaling(start: Int = 1_000, floor: Double = 0.03, maxBytes: Int = 4_000_000,
                        options: ParseOptions = .default,
                        _ make: (Int) -> [UInt8]) -> (n: Int, small: Double, large: Double, ratio: Double) {
        func run(_ input: [UInt8]) -> Double {
            cpuSeconds {
                let doc = Document(parsing: input, options: options)
                _ = doc.htmlBytes()
            }
        }
        var n = start
        while true {
            let input = make(n)
            let t = run(input)
            if t >= floor || input.count * 2 > maxBytes { break }
            n *= 2
        }
        let small = make(n), large = make(2 * n)
        var ts = Double.infinity, tl = Double.infinity
        for _ in 0..<3 {
            ts = min(ts, run(small))
            tl = min(tl, run(large))
        }
        return (n, ts, tl, tl / max(ts, 1e-9))
    }

    // MARK: HTML safety

    struct Tag: CustomStringConvertible {
        var name: String
        var closing: Bool
        var attributes: [(name: String, value: String?)]
        var description: String { "<\(closing ? "/" : "")\(name) \(attributes.map { "\($0.name)=\($0.value ?? "")" })>" }
    }

    /// Reads every tag of renderer output (which writes lowercase tags with
    /// double-quoted, escaped attribute values); `nil` when a tag is not in
    /// that shape, which means something broke out of an attribute or raw
    /// HTML got through. `<!-- raw HTML omitted -->` is skipped.
    static func tags(in html: String) -> [Tag]? {
        let b = Array(html.utf8)
        let omitted = Array("<!-- raw HTML omitted -->".utf8)
        var tags: [Tag] = []
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-")
        }
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else {
                if b[i] == UInt8(ascii: ">") { return nil }  // text `>` is always escaped
                i += 1
                continue
            }
            if b[i...].starts(with: omitted) {
                i += omitted.count
                continue
            }
            i += 1
            var tag = Tag(name: "", closing: false, attributes: [])
            if i < b.count && b[i] == UInt8(ascii: "/") { tag.closing = true; i += 1 }
            let nameStart = i
            while i < b.count && isNameByte(b[i]) { i += 1 }
            tag.name = String(decoding: b[nameStart..<i], as: UTF8.self)
            if tag.name.isEmpty { return nil }
            while true {
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: ">") { i += 1; break }
                if b[i] == UInt8(ascii: "/") {
                    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") else { return nil }
                    i += 2
                    break
                }
                guard b[i] == 0x20 else { return nil }
                i += 1
                if i < b.count && (b[i] == UInt8(ascii: "/") || b[i] == UInt8(ascii: ">")) { continue }
                let attrStart = i
                while i < b.count && isNameByte(b[i]) { i += 1 }
                let name = String(decoding: b[attrStart..<i], as: UTF8.self)
                if name.isEmpty { return nil }
                var value: String? = nil
                if i < b.count && b[i] == UInt8(ascii: "=") {
                    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: "\"") else { return nil }
                    i += 2
                    let valueStart = i
                    while i < b.count && b[i] != UInt8(ascii: "\"") {
                        if b[i] == UInt8(ascii: "<") || b[i] == UInt8(ascii: ">") { return nil }
                        i += 1
                    }
                    guard i < b.count else { return nil }
                    value = String(decoding: b[valueStart..<i], as: UTF8.self)
                    i += 1
                }
                tag.attributes.append((name, value))
            }
            tags.append(tag)
        }
        return tags
    }

    /// An attribute value as a browser reads it: character references
    /// decoded once (the renderer writes only `&amp;`, `&lt;`, `&gt;`,
    /// `&quot;` and `&#x27;`; any other `&…;` is left as is, which the
    /// `unescapedAmpersand` check catches).
    static func decodeAttribute(_ value: String) -> String {
        var s = value
        for (ref, char) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#x27;", "'"), ("&amp;", "&")] {
            s = s.replacingOccurrences(of: ref, with: char)
        }
        return s
    }

    /// Whether an attribute value holds a `&` that does not start one of the
    /// references the renderer writes (a browser would decode it).
    static func hasUnescapedAmpersand(_ value: String) -> Bool {
        var rest = Substring(value)
        while let i = rest.firstIndex(of: "&") {
            let tail = rest[i...]
            if !["&amp;", "&lt;", "&gt;", "&quot;", "&#x27;"].contains(where: { tail.hasPrefix($0) }) { return true }
            rest = rest[rest.index(after: i)...]
        }
        return false
    }

    /// Whether a URL is one a browser would run script from or read a local
    /// file with: leading C0 controls and spaces stripped, tabs and line
    /// breaks removed anywhere, the scheme compared without case.
    static func isDangerousURL(_ url: String) -> Bool {
        var scalars: [Unicode.Scalar] = []
        var started = false
        for u in url.unicodeScalars {
            if !started && u.value <= 0x20 { continue }
            started = true
            if u == "\t" || u == "\n" || u == "\r" { continue }
            scalars.append(u)
        }
        let s = String(String.UnicodeScalarView(scalars)).lowercased()
        for scheme in ["javascript:", "vbscript:", "file:"] where s.hasPrefix(scheme) { return true }
        if s.hasPrefix("data:") {
            return !["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains { s.hasPrefix($0) }
        }
        return false
    }

    /// Everything wrong with safe-mode HTML, as messages (empty: safe).
    static func safetyProblems(in html: String) -> [String] {
        guard let tags = tags(in: html) else { return ["output has a malformed tag or an unescaped >: \(html)"] }
        var problems: [String] = []
        let forbidden: Set<String> = ["script", "iframe", "svg", "style", "object", "embed", "math", "form",
                                      "textarea", "title", "xmp", "noembed", "noframes", "plaintext", "base",
                                      "meta", "link", "frame", "frameset", "audio", "video", "source"]
        for tag in tags {
            if forbidden.contains(tag.name) { problems.append("forbidden tag \(tag)") }
            for (name, value) in tag.attributes {
                if name.hasPrefix("on") { problems.append("event handler attribute \(name) in \(tag)") }
                if name == "style" || name == "srcdoc" || name == "formaction" { problems.append("attribute \(name) in \(tag)") }
                if let value {
                    if hasUnescapedAmpersand(value) { problems.append("unescaped & in \(name)=\"\(value)\"") }
                    if (name == "href" || name == "src") && isDangerousURL(decodeAttribute(value)) {
                        problems.append("dangerous URL \(name)=\"\(value)\"")
                    }
                }
            }
        }
        return problems
    }

    /// Every `href` and `src` value of the output, decoded.
    static func urls(in html: String) -> [String] {
        (tags(in: html) ?? []).flatMap { tag in
            tag.attributes.compactMap { ($0.name == "href" || $0.name == "src") ? $0.value.map(decodeAttribute) : nil }
        }
    }
}
