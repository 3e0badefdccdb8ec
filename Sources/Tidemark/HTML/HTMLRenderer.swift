/// Writes HTML the way cmark (and cmark-gfm, for the extensions) does, byte
/// for byte: the same tags, the same newlines, the same escaping.
struct HTMLRenderer {
    let storage: DocumentStorage
    let options: HTMLOptions
    let parseOptions: ParseOptions
    var out: ByteWriter
    /// Depth of image alt text being written (inside it only text shows).
    var altDepth = 0
    /// The footnote definition being written at the end (else -1).
    var renderingFootnote = -1
    /// The paragraph after whose text the back-references go (else -1).
    var backrefParagraph = -1

    /// `sizeHint`: the source bytes the output is made from (the whole
    /// document's by default); the output starts with room for a quarter
    /// more.
    init(storage: DocumentStorage, options: HTMLOptions, parseOptions: ParseOptions, sizeHint: Int? = nil) {
        self.storage = storage
        self.options = options
        self.parseOptions = parseOptions
        let size = sizeHint ?? storage.source.count
        out = ByteWriter(capacity: size + size / 4 + 64)
    }

    // MARK: Output helpers

    @inline(__always) mutating func put(_ s: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always) mutating func cr() {
        if let last = out.last, last != 0x0A { out.append(0x0A) }
    }

    @inline(__always) func bytes(_ ref: ByteRef) -> ArraySlice<UInt8> { storage.bytes(ref) }

    mutating func putNumber(_ v: Int) {
        // Digits without a String: sourcepos writes four numbers per block.
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                count += 1
            } while m > 0
            for k in stride(from: count - 1, through: 0, by: -1) { out.append(d[k]) }
        }
    }

    /// Escapes `&`, `<`, `>` and `"` (cmark's `escape_html`).
    mutating func escape(_ ref: ByteRef) {
        if ref.isArena {
            storage.arena.withUnsafeBufferPointer { escape(UnsafeBufferPointer(rebasing: $0[ref.start..<ref.end])) }
        } else {
            storage.source.withUnsafeBufferPointer { escape(UnsafeBufferPointer(rebasing: $0[ref.start..<ref.end])) }
        }
    }

    mutating func escape(_ b: UnsafeBufferPointer<UInt8>) {
        guard let base = b.baseAddress else { return }
        var runStart = 0
        var i = 0
        let n = b.count
        // Byte `i`: escaped (after the run of bytes before it), or one more
        // of the run. (All four escaped bytes are below 64: one bit test.)
        @inline(__always) func one(_ i: Int) {
            let c = base[i]
            guard c < 64 && HTMLRenderer.escapeMask >> UInt64(c) & 1 != 0 else { return }
            if i > runStart { out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart)) }
            switch c {
            case UInt8(ascii: "&"): put("&amp;")
            case UInt8(ascii: "<"): put("&lt;")
            case UInt8(ascii: ">"): put("&gt;")
            default: put("&quot;")
            }
            runStart = i + 1
        }
        // Eight bytes at a time: when none of them is escaped (text, nearly
        // always) they join the run; a byte equal to one of the four makes
        // its lane of `w ^ pattern` zero, which the borrow test finds.
        @inline(__always) func zeroLane(_ x: UInt64) -> UInt64 {
            (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
        }
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let hit = zeroLane(w ^ 0x2626_2626_2626_2626) | zeroLane(w ^ 0x3C3C_3C3C_3C3C_3C3C)
                | zeroLane(w ^ 0x3E3E_3E3E_3E3E_3E3E) | zeroLane(w ^ 0x2222_2222_2222_2222)
            if hit != 0 {
                for k in i..<(i + 8) { one(k) }
            }
            i += 8
        }
        while i < n {
            one(i)
            i += 1
        }
        if n > runStart { out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: n - runStart)) }
    }

    /// Percent-encodes a URL the way cmark's `houdini_escape_href` does:
    /// bytes outside a safe set become `%XX`, `&` becomes `&amp;` and `'`
    /// becomes `&#x27;`; existing `%XX` escapes are kept.
    mutating func escapeHref(_ ref: ByteRef) {
        let hex: StaticString = "0123456789ABCDEF"
        let all = bytes(ref)
        var runStart = all.startIndex
        for i in all.indices {
            let c = all[i]
            if HTMLRenderer.hrefSafe[Int(c)] { continue }
            // Safe bytes are copied in runs, not one at a time.
            if i > runStart { out.append(contentsOf: all[runStart..<i]) }
            runStart = i + 1
            if c == UInt8(ascii: "&") {
                put("&amp;")
            } else if c == UInt8(ascii: "'") {
                put("&#x27;")
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex.utf8Start[Int(c >> 4)])
                out.append(hex.utf8Start[Int(c & 0xF)])
            }
        }
        if all.endIndex > runStart { out.append(contentsOf: all[runStart..<all.endIndex]) }
    }

    /// Bit c: byte c is escaped (`&`, `<`, `>`, `"`).
    static let escapeMask: UInt64 = 1 << 0x26 | 1 << 0x3C | 1 << 0x3E | 1 << 0x22

    static let hrefSafe: [Bool] = {
        var t = [Bool](repeating: false, count: 256)
        for c in "!#$%()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~".utf8 {
            t[Int(c)] = true
        }
        return t
    }()

    mutating func sourcepos(_ n: RawNode) {
        guard options.sourcepos else { return }
        let s = storage.location(of: Int(n.start))
        let e = storage.location(of: max(Int(n.start), Int(n.end) - 1))
        put(" data-sourcepos=\"")
        putNumber(s.line); out.append(UInt8(ascii: ":")); putNumber(s.column)
        out.append(UInt8(ascii: "-"))
        putNumber(e.line); out.append(UInt8(ascii: ":")); putNumber(e.column)
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Walking

    mutating func render() {
        renderNode(0)
        renderFootnotes()
    }

    /// Whether a paragraph's `<p>` is omitted (in a tight list).
    func inTightList(_ i: Int) -> Bool {
        let nodes = storage.nodes
        let p = nodes[i].parent
        guard p >= 0 else { return false }
        let item = nodes[Int(p)]
        if item.kind == .item {
            let list = item.parent
            return list >= 0 && nodes[Int(list)].flags & 1 != 0
        }
        return false
    }

    /// Opens a node; returns whether to visit its children.
    mutating func enter(_ i: Int) -> Bool {
        let n = storage.nodes[i]
        if altDepth > 0 {
            // Inside an image: only the plain text of the description.
            switch n.kind {
            case .text, .code, .html, .math: escape(n.a)
            case .softBreak, .lineBreak: out.append(0x20)
            case .image: altDepth += 1
            default: break
            }
            return true
        }
        switch n.kind {
        case .document:
            break
        case .blockQuote:
            cr(); put("<blockquote"); sourcepos(n); put(">\n")
        case .list:
            cr()
            if n.small >= 0x100 {
                put("<ol")
                if n.number != 1 {
                    put(" start=\""); putNumber(Int(n.number)); put("\"")
                }
            } else {
                put("<ul")
            }
            sourcepos(n); put(">\n")
        case .item:
            cr(); put("<li"); sourcepos(n); put(">")
            renderTaskCheckbox(n)
        case .heading:
            cr(); put("<h"); out.append(0x30 + UInt8(n.small)); sourcepos(n); put(">")
        case .codeBlock:
            cr(); put("<pre"); sourcepos(n); put("><code")
            let info = bytes(n.b)
            if n.flags & 1 != 0 && !info.isEmpty {
                var end = info.startIndex
                while end < info.endIndex && info[end] != 0x20 && info[end] != 0x09 { end += 1 }
                put(" class=\"language-")
                var lang = ByteRef(offset: n.b.offset, length: UInt32(end - info.startIndex))
                lang.offset = n.b.offset
                escape(lang)
                put("\"")
            }
            put(">")
            escape(n.a)
            put("</code></pre>\n")
        case .htmlBlock:
            cr()
            if options.unsafe {
                if parseOptions.contains(.tagfilter) { putFilteringTags(n.a) } else { out.append(contentsOf: bytes(n.a)) }
            } else {
                put("<!-- raw HTML omitted -->")
            }
            cr()
        case .paragraph:
            if !inTightList(i) { cr(); put("<p"); sourcepos(n); put(">") }
        case .thematicBreak:
            cr(); put("<hr"); sourcepos(n); put(" />\n")
        case .text:
            escape(n.a)
        case .softBreak:
            switch options.softBreak {
            case .newline: out.append(0x0A)
            case .space: out.append(0x20)
            case .hardBreak: put("<br />\n")
            }
        case .lineBreak:
            put("<br />\n")
        case .code:
            put("<code>"); escape(n.a); put("</code>")
        case .html:
            if options.unsafe {
                if parseOptions.contains(.tagfilter) { putFilteringTags(n.a) } else { out.append(contentsOf: bytes(n.a)) }
            } else {
                put("<!-- raw HTML omitted -->")
            }
        case .emphasis:
            put("<em>")
        case .strong:
            put("<strong>")
        case .strikethrough:
            put("<del>")
        case .link:
            put("<a href=\"")
            if isSafeURL(n.a) { escapeHref(n.a) }
            put("\"")
            if n.b.length > 0 { put(" title=\""); escape(n.b); put("\"") }
            put(">")
        case .image:
            put("<img src=\"")
            if isSafeURL(n.a) { escapeHref(n.a) }
            put("\" alt=\"")
            altDepth = 1
        default:
            return enterExtension(i, n)
        }
        return true
    }

    mutating func exit(_ i: Int) {
        let n = storage.nodes[i]
        if altDepth > 0 {
            if n.kind == .image {
                altDepth -= 1
                if altDepth == 0 {
                    put("\"")
                    if n.b.length > 0 { put(" title=\""); escape(n.b); put("\"") }
                    put(" />")
                }
            }
            return
        }
        switch n.kind {
        case .blockQuote: cr(); put("</blockquote>\n")
        case .list: cr(); put(n.small >= 0x100 ? "</ol>\n" : "</ul>\n")
        case .item: put("</li>\n")
        case .heading: put("</h"); out.append(0x30 + UInt8(n.small)); put(">\n")
        case .paragraph: if !inTightList(i) { put("</p>\n") }
        case .emphasis: put("</em>")
        case .strong: put("</strong>")
        case .strikethrough: put("</del>")
        case .link: put("</a>")
        default: exitExtension(i, n)
        }
    }

    // MARK: Safety

    /// Safe mode drops `javascript:`, `vbscript:`, `file:` and non-image
    /// `data:` destinations. Browsers ignore case and strip tabs and line
    /// breaks inside a scheme and leading control characters and spaces, so
    /// this check does the same before comparing.
    func isSafeURL(_ ref: ByteRef) -> Bool {
        if options.unsafe { return true }
        return URLSafety.isSafe(bytes(ref))
    }

    /// GFM tagfilter: `<title>`, `<textarea>`, `<style>`, `<xmp>`,
    /// `<iframe>`, `<noembed>`, `<noframes>`, `<script>` and `<plaintext>`
    /// have their `<` written as `&lt;`.
    mutating func putFilteringTags(_ ref: ByteRef) {
        let b = Array(bytes(ref))
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "<") && TagFilter.isFiltered(b, i) {
                put("&lt;")
            } else {
                out.append(b[i])
            }
            i += 1
        }
    }
}

enum URLSafety {
    static func isSafe<C: Collection>(_ url: C) -> Bool where C.Element == UInt8 {
        // The first 20 bytes, lowercased, after leading C0 controls and
        // spaces, without tabs and line breaks — on the stack (a link costs
        // no allocation).
        var head: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &head) { b in
            var started = false
            for c in url {
                if !started && c <= 0x20 { continue }
                started = true
                if c == 0x09 || c == 0x0A || c == 0x0D { continue }
                b[n] = asciiLower(c)
                n += 1
                if n >= 20 { break }
            }
        }
        return withUnsafeBytes(of: &head) { b in
            func has(_ p: StaticString) -> Bool {
                let m = p.utf8CodeUnitCount
                guard n >= m else { return false }
                for k in 0..<m where b[k] != p.utf8Start[k] { return false }
                return true
            }
            if has("javascript:") || has("vbscript:") || has("file:") { return false }
            if has("data:") {
                return has("data:image/png") || has("data:image/gif") || has("data:image/jpeg") || has("data:image/webp")
            }
            return true
        }
    }
}

enum TagFilter {
    static let names: [[UInt8]] = ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"].map { Array($0.utf8) }

    static func isFiltered(_ b: [UInt8], _ i: Int) -> Bool {
        var j = i + 1
        if j < b.count && b[j] == UInt8(ascii: "/") { j += 1 }
        for name in names {
            if j + name.count <= b.count {
                var ok = true
                for k in 0..<name.count where asciiLower(b[j + k]) != name[k] {
                    ok = false
                    break
                }
                if ok {
                    let e = j + name.count
                    if e >= b.count { return true }
                    let c = b[e]
                    if c == UInt8(ascii: ">") || c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C
                        || (c == UInt8(ascii: "/") && e + 1 < b.count && b[e + 1] == UInt8(ascii: ">")) {
                        return true
                    }
                }
            }
        }
        return false
    }
}

extension Document {
    /// Renders the document as HTML, byte for byte as cmark(-gfm) does.
    public func html(_ options: HTMLOptions = HTMLOptions()) -> String {
        String(decoding: htmlBytes(options), as: UTF8.self)
    }

    /// Renders the document as HTML, as UTF-8 bytes.
    public func htmlBytes(_ options: HTMLOptions = HTMLOptions()) -> [UInt8] {
        var r = HTMLRenderer(storage: storage, options: options, parseOptions: self.options)
        r.render()
        return r.out.finish()
    }
}

extension Document {
    /// Renders one block (with its subtree) as HTML, the way it appears in
    /// the whole document's HTML — what a streaming UI redraws when the
    /// block changed. Footnote definitions are not appended.
    public func html(of node: Node, _ options: HTMLOptions = HTMLOptions()) -> String {
        // (Room for the block's own bytes, not the document's: a streaming
        // UI renders a block per update.)
        let raw = storage.nodes[node.index]
        var r = HTMLRenderer(storage: storage, options: options, parseOptions: self.options,
                             sizeHint: Int(raw.end) - Int(raw.start))
        r.renderNode(node.index)
        return String(decoding: r.out.finish(), as: UTF8.self)
    }
}

extension HTMLRenderer {
    /// Renders node `top` and its subtree (the one walk of the renderer:
    /// iterative, so any nesting depth is safe).
    mutating func renderNode(_ top: Int) {
        let nodes = storage.nodes
        var current = Int32(top)
        var entering = true
        while true {
            if entering {
                let descend = enter(Int(current))
                let c = nodes[Int(current)].firstChild
                if descend && c >= 0 {
                    current = c
                    continue
                }
                entering = false
            }
            if Int(current) == backrefParagraph {
                // The last paragraph of a footnote being written at the end:
                // its back-references go inside it, before `</p>`.
                out.append(0x20)
                putBackrefs(nodes[renderingFootnote])
            }
            exit(Int(current))
            if Int(current) == top { break }
            let n = nodes[Int(current)]
            if n.next >= 0 {
                current = n.next
                entering = true
            } else {
                current = n.parent
            }
        }
    }
}
