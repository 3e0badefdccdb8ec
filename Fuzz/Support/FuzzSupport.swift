// Shared by every fuzz target: how the leading bytes of an input choose the
// options, and the checks that turn a wrong result into a crash libFuzzer
// can report. Compiled into each target binary (see Fuzz/run.sh); it uses the
// public API of `Tidemark` only.

import Tidemark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the process with a message. libFuzzer reports the trap as a crash
/// and saves the input under `Fuzz/artifacts/TARGET/`.
func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz invariant violated: " + message, file: file, line: line)
}

@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fuzzFailure(message(), file: file, line: line) }
}

/// Where targets fold the values they read, so the optimizer keeps the reads.
nonisolated(unsafe) var fuzzSink = 0

// MARK: - Known issues

/// Names of known, reported bugs whose check is relaxed, from the
/// comma-separated environment variable `FUZZ_IGNORE`, so a run can look
/// for new bugs while an old one waits for its fix. Each name matches a
/// `regression_…` test in Tests/TidemarkTests/Hardening/RegressionTests.swift.
///
/// - `list-end`: a list closed by the next block ends before its last item
///   (`regression_listEndsBeforeItsItems`).
/// - `half-tab`: a half-consumed tab drops the next byte, which can leave
///   HTML that is not valid UTF-8 (`regression_halfConsumedTabDropsFirstByte`);
///   skips the UTF-8 check of the HTML when the source has a tab.
/// - `stream-kept`: a stream update reports a changed block as kept
///   (`fuzz_stream_…` in Tests/TidemarkTests/Hardening/FuzzFindingsTests.swift);
///   `stream` skips the kept-subtree check, `render` does not trust `kept`.
/// - `session-edit`: a `HighlightSession` keeps stale token kinds after an
///   edit that is not an append; `highlight` compares only appends.
/// - `session-append`: a `HighlightSession` can differ from `highlight`
///   even after an append; `highlight` compares no session update.
/// - `cache-canonical`: `TreeSitterHighlighter`'s result cache returns the
///   spans of a canonically equivalent text with other bytes; `highlight`
///   skips the cached-versus-fresh comparison.
/// - `render-cache-indent`: the run-tree cache reuses a block for another
///   whose indentation (outside its range) differs; `render` skips the cache
///   comparisons for documents with an indented top-level block.
/// - `sql-scanner-leak`: tree-sitter-sql's scanner leaks; Fuzz/run.sh
///   applies Fuzz/lsan-suppressions.txt.
let knownIssues: Set<String> = {
    guard let raw = getenv("FUZZ_IGNORE") else { return [] }
    return Set(String(cString: raw).split(separator: ",").map { String($0) })
}()

// MARK: - Input header

/// Options decoded from the first bytes of an input.
///
/// Byte 0 is the `ParseOptions` raw value (its eight bits are exactly the
/// eight extensions). Byte 1 chooses the HTML options and extra checks:
///
/// | bit | meaning |
/// |---|---|
/// | 0 | `HTMLOptions.unsafe` |
/// | 1 | `HTMLOptions.sourcepos` |
/// | 2–3 | soft break: newline, space, hard break, newline |
/// | 4 | also parse the input as a `String` and compare the documents |
/// | 5 | also parse `document.source` again and compare (idempotence) |
struct FuzzHeader {
    var parse: ParseOptions
    var html: HTMLOptions
    var compareStringParse: Bool
    var compareReparse: Bool

    init(_ b0: UInt8, _ b1: UInt8) {
        parse = ParseOptions(rawValue: UInt32(b0))
        let soft: [SoftBreakStyle] = [.newline, .space, .hardBreak, .newline]
        html = HTMLOptions(unsafe: b1 & 1 != 0, sourcepos: b1 & 2 != 0,
                           softBreak: soft[Int((b1 >> 2) & 3)])
        compareStringParse = b1 & 0x10 != 0
        compareReparse = b1 & 0x20 != 0
    }
}

// MARK: - Tree invariants

/// Kinds that may only appear when their extension is on.
func requiredOption(for kind: NodeKind) -> ParseOptions? {
    switch kind {
    case .table, .tableRow, .tableCell: .table
    case .strikethrough: .strikethrough
    case .footnoteDefinition, .footnoteReference: .footnotes
    case .alert: .alerts
    case .math, .mathBlock: .math
    default: nil
    }
}

/// Which kinds a node of `parent` kind may contain.
func mayContain(_ parent: NodeKind, _ child: NodeKind) -> Bool {
    switch parent {
    case .document, .blockQuote, .item, .footnoteDefinition, .alert:
        return child.isBlock && child != .item && child != .tableRow && child != .tableCell
            && child != .document
    case .list:
        return child == .item
    case .table:
        return child == .tableRow
    case .tableRow:
        return child == .tableCell
    case .paragraph, .heading, .tableCell,
         .emphasis, .strong, .strikethrough, .link, .image:
        return !child.isBlock
    case .codeBlock, .htmlBlock, .thematicBreak, .mathBlock,
         .text, .softBreak, .lineBreak, .code, .html, .footnoteReference, .math:
        return false
    }
}

/// Checks the structure of a parsed document; crashes on the first problem.
///
/// - every node's range lies within the source;
/// - the nodes are stored in document order (a pre-order walk over
///   first-child / next-sibling links visits indices 0, 1, 2, … and reaches
///   every node exactly once);
/// - parent links agree with child links; `lastChild` is the last child;
/// - a child's range lies within its parent's; siblings are in source order
///   and do not overlap;
/// - blocks contain what the grammar allows (no block in an inline, list
///   items only in lists, …), no link inside a link;
/// - extension nodes only appear when their extension is on;
/// - attributes are in range (heading level, list marker, task state).
func checkTree(_ doc: Document) {
    let count = doc.nodeCount
    let sourceCount = doc.source.count
    require(count >= 1, "empty node store")
    let root = doc.root
    require(root.kind == .document, "root is \(root.kind)")
    require(root.parent == nil, "root has a parent")
    require(root.index == 0, "root index")

    // Pre-order walk with an explicit stack of (node, depth-in-links).
    var expected = 0
    var stack: [(node: Node, linkDepth: Int)] = [(root, 0)]
    while let (node, linkDepth) = stack.popLast() {
        require(node.index == expected,
                "document order: visited node \(node.index) where \(expected) was expected")
        expected += 1
        require(expected <= count, "walk visits more nodes than stored (cycle?)")

        let kind = node.kind
        let r = node.range
        require(r.lowerBound >= 0 && r.upperBound <= sourceCount,
                "node \(node.index) (\(kind)) range \(r) outside source of \(sourceCount) bytes")
        if let option = requiredOption(for: kind) {
            require(doc.options.contains(option), "\(kind) node without its extension (options \(doc.options.rawValue))")
        }
        if kind == .heading {
            require((1...6).contains(node.headingLevel ?? 0), "heading level \(String(describing: node.headingLevel))")
        }
        if kind == .list {
            let marker = node.listMarker ?? " "
            if node.listType == .ordered {
                require(marker == "." || marker == ")", "ordered list marker \(marker)")
                require((0...999_999_999).contains(node.listStart ?? -1), "list start \(String(describing: node.listStart))")
            } else {
                require(marker == "-" || marker == "+" || marker == "*", "bullet list marker \(marker)")
            }
        }
        if kind == .item && node.taskState != .none {
            require(doc.options.contains(.tasklist), "task item without the tasklist extension")
        }
        // Links do not nest, except that an autolink `<…>` may sit inside
        // link text (cmark and the spec's reference implementations agree).
        let inLink = linkDepth + (kind == .link && !node.isAutolink ? 1 : 0)
        require(inLink <= 1, "link nested inside a link (node \(node.index))")
        if kind == .link && node.isAutolink && linkDepth > 0 {
            require(node.destination?.contains(" ") == false, "autolink with a space inside a link")
        }

        var children: [Node] = []
        var previous: Node? = nil
        var c = node.firstChild
        while let child = c {
            require(children.count < count, "child chain does not end (cycle?)")
            require(child.parent == node, "node \(child.index) does not point back to parent \(node.index)")
            require(mayContain(kind, child.kind), "\(kind) contains \(child.kind) (node \(child.index))")
            let cr = child.range
            let listEndKnown = kind == .list && knownIssues.contains("list-end")
            require(cr.lowerBound >= r.lowerBound && (cr.upperBound <= r.upperBound || listEndKnown),
                    "node \(child.index) (\(child.kind)) range \(cr) not inside parent \(node.index) (\(kind)) range \(r)")
            if let p = previous {
                require(p.range.upperBound <= cr.lowerBound,
                        "siblings \(p.index) (\(p.kind)) \(p.range) and \(child.index) (\(child.kind)) \(cr) overlap or are out of order")
            }
            children.append(child)
            previous = child
            c = child.nextSibling
        }
        require(node.lastChild == children.last, "lastChild of node \(node.index) is not its last child")
        // Push in reverse so the first child pops first.
        for child in children.reversed() { stack.append((child, inLink)) }
    }
    require(expected == count, "walk reached \(expected) of \(count) nodes")
}

// MARK: - HTML invariants

/// Checks HTML output: valid UTF-8 and no NUL. In safe mode also checks that
/// every tag is one the renderer writes itself, that every attribute is well
/// formed, escaped and not an event handler, and that no `href`/`src` holds
/// a script-capable URL, decoded the way a browser decodes an attribute.
func checkHTML(_ html: [UInt8], safe: Bool, sourceHasTab: Bool = false) {
    if !(sourceHasTab && knownIssues.contains("half-tab")) {
        require(String(validating: html, as: UTF8.self) != nil, "HTML output is not valid UTF-8")
    }
    require(!html.contains(0), "HTML output contains NUL")
    guard safe else { return }
    var i = 0
    let n = html.count
    while i < n {
        let c = html[i]
        if c == UInt8(ascii: "<") {
            i = checkTag(html, i)
        } else {
            require(c != UInt8(ascii: ">"), "unescaped > in text at byte \(i): \(excerpt(html, i))")
            i += 1
        }
    }
}

/// Tags the HTML renderer writes (CommonMark, GFM, footnotes, alerts,
/// math). Extend when a renderer starts writing a new one.
let allowedTags: Set<String> = [
    "p", "blockquote", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6",
    "pre", "code", "hr", "em", "strong", "del", "a", "img", "br",
    "table", "thead", "tbody", "tr", "th", "td", "input",
    "section", "sup", "div", "span",
]

/// Attributes the HTML renderer writes. Extend when a renderer adds one.
let allowedAttributes: Set<String> = [
    "href", "src", "alt", "title", "class", "start", "align", "type", "checked", "disabled",
    "id", "data-sourcepos", "data-footnote-ref", "data-footnotes", "data-footnote-backref",
    "data-footnote-backref-idx", "aria-label", "role", "dir", "data-math-style",
]

func excerpt(_ b: [UInt8], _ i: Int) -> String {
    let lo = max(0, i - 40), hi = min(b.count, i + 80)
    return String(decoding: b[lo..<hi], as: UTF8.self).debugDescription
}

/// Checks one tag starting at `i` (a `<`); returns the index after it.
func checkTag(_ b: [UInt8], _ start: Int) -> Int {
    let omitted = Array("<!-- raw HTML omitted -->".utf8)
    if b[start...].starts(with: omitted) { return start + omitted.count }
    var i = start + 1
    let n = b.count
    func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    if i < n && b[i] == UInt8(ascii: "/") { i += 1 }
    let nameStart = i
    while i < n && (isLower(b[i]) || isDigit(b[i])) { i += 1 }
    let name = String(decoding: b[nameStart..<i], as: UTF8.self)
    require(allowedTags.contains(name), "unexpected tag <\(name) in safe HTML: \(excerpt(b, start))")
    while true {
        require(i < n, "unterminated tag: \(excerpt(b, start))")
        if b[i] == UInt8(ascii: ">") { return i + 1 }
        if b[i] == UInt8(ascii: "/") {
            require(i + 1 < n && b[i + 1] == UInt8(ascii: ">"), "stray / in tag: \(excerpt(b, start))")
            return i + 2
        }
        require(b[i] == 0x20, "malformed tag (expected space, >, />): \(excerpt(b, i))")
        i += 1
        if i < n && (b[i] == UInt8(ascii: "/") || b[i] == UInt8(ascii: ">")) { continue }
        let attrStart = i
        while i < n && (isLower(b[i]) || b[i] == UInt8(ascii: "-")) { i += 1 }
        let attr = String(decoding: b[attrStart..<i], as: UTF8.self)
        require(!attr.isEmpty, "empty attribute name: \(excerpt(b, attrStart))")
        require(allowedAttributes.contains(attr), "unexpected attribute \(attr) in safe HTML: \(excerpt(b, start))")
        if i < n && b[i] == UInt8(ascii: "=") {
            require(i + 1 < n && b[i + 1] == UInt8(ascii: "\""), "unquoted attribute value: \(excerpt(b, i))")
            i += 2
            let valueStart = i
            while i < n && b[i] != UInt8(ascii: "\"") {
                require(b[i] != UInt8(ascii: "<") && b[i] != UInt8(ascii: ">"),
                        "unescaped < or > in attribute: \(excerpt(b, i))")
                i += 1
            }
            require(i < n, "unterminated attribute value: \(excerpt(b, valueStart))")
            let value = decodeAttribute(Array(b[valueStart..<i]), context: excerpt(b, valueStart))
            if attr == "href" || attr == "src" {
                require(isHarmlessURL(value), "dangerous URL in \(attr): \(excerpt(b, valueStart))")
            }
            i += 1
        }
    }
}

/// Decodes the character references the renderer writes in attributes
/// (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#x27;`); any other `&` means text
/// reached an attribute unescaped, which a browser would decode further.
func decodeAttribute(_ v: [UInt8], context: @autoclosure () -> String) -> [UInt8] {
    let refs: [(String, UInt8)] = [("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&#x27;", 0x27)]
    var out: [UInt8] = []
    var i = 0
    outer: while i < v.count {
        if v[i] == UInt8(ascii: "&") {
            for (ref, byte) in refs where v[i...].starts(with: ref.utf8) {
                out.append(byte)
                i += ref.utf8.count
                continue outer
            }
            fuzzFailure("unescaped & in attribute: \(context())")
        }
        out.append(v[i])
        i += 1
    }
    return out
}

/// Whether a browser would treat the URL as harmless: it strips leading and
/// trailing C0 controls and spaces, removes tabs and line breaks anywhere,
/// and compares the scheme without case.
func isHarmlessURL(_ url: [UInt8]) -> Bool {
    var s: [UInt8] = []
    var started = false
    for c in url {
        if !started && c <= 0x20 { continue }
        started = true
        if c == 0x09 || c == 0x0A || c == 0x0D { continue }
        s.append(c >= 0x41 && c <= 0x5A ? c + 0x20 : c)
    }
    guard let colon = s.firstIndex(of: UInt8(ascii: ":")) else { return true }
    let scheme = String(decoding: s[..<colon], as: UTF8.self)
    switch scheme {
    case "javascript", "vbscript", "file":
        return false
    case "data":
        let rest = String(decoding: s[(colon + 1)...], as: UTF8.self)
        return ["image/png", "image/gif", "image/jpeg", "image/webp"].contains { rest.hasPrefix($0) }
    default:
        return true
    }
}

// MARK: - Shared drivers

/// Parses, checks the tree, renders with `html` and checks the output.
func parseAndCheck(_ bytes: UnsafeBufferPointer<UInt8>, options: ParseOptions, html: HTMLOptions) -> Document {
    let doc = Document(parsing: bytes, options: options)
    checkTree(doc)
    let out = doc.htmlBytes(html)
    checkHTML(out, safe: !html.unsafe, sourceHasTab: doc.source.contains(0x09))
    return doc
}
