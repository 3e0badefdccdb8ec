/// Footnotes, numbered the way cmark-gfm numbers them: by the order of the
/// first reference in the document; unused definitions are dropped from
/// the output (they stay in the tree with number 0).
extension BlockParser {
    func postprocess(_ storage: DocumentStorage) -> DocumentStorage {
        guard options.contains(.footnotes), labels.hasFootnotes else { return storage }
        return renumberFootnotes(storage)
    }

    /// Numbers footnotes from scratch (the streaming parser renumbers every
    /// snapshot: a reference in the tail can number a settled definition).
    func renumberFootnotes(_ storage: DocumentStorage) -> DocumentStorage {
        var nodes = storage.nodes
        for i in nodes.indices where nodes[i].kind == .footnoteDefinition || nodes[i].kind == .footnoteReference {
            nodes[i].number = 0
            nodes[i].number2 = 0
            if nodes[i].kind == .footnoteReference { nodes[i].b = .empty }
        }
        // The first definition of each label.
        var definitionByKey: [[UInt8]: Int] = [:]
        storage.source.withUnsafeBufferPointer { src in
            for i in nodes.indices where nodes[i].kind == .footnoteDefinition {
                let a = nodes[i].a
                let key = LinkScan.normalizeLabel(src, a.start, a.end)
                if definitionByKey[key] == nil { definitionByKey[key] = i }
            }
        }
        var next: Int32 = 1
        var changed = false
        storage.source.withUnsafeBufferPointer { src in
            storage.arena.withUnsafeBufferPointer { arena in
                for i in nodes.indices where nodes[i].kind == .footnoteReference {
                    let a = nodes[i].a
                    let key = a.isArena
                        ? LinkScan.normalizeLabel(arena, a.start, a.end)
                        : LinkScan.normalizeLabel(src, a.start, a.end)
                    guard let d = definitionByKey[key] else { continue }
                    if nodes[d].number == 0 {
                        nodes[d].number = next
                        next += 1
                    }
                    nodes[d].number2 += 1
                    nodes[i].number = nodes[d].number
                    nodes[i].number2 = nodes[d].number2
                    // The definition's label, for the HTML ids.
                    nodes[i].b = nodes[d].a
                    changed = true
                }
            }
        }
        _ = changed
        return DocumentStorage(source: storage.source, nodes: nodes, arena: storage.arena, lineStarts: storage.lineStarts)
    }
}

extension HTMLRenderer {
    mutating func renderTaskCheckbox(_ n: RawNode) {
        switch TaskState(rawValue: UInt8(n.small)) {
        case .unchecked: put("<input type=\"checkbox\" disabled=\"\" /> ")
        case .checked: put("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> ")
        default: break
        }
    }

    mutating func enterExtension(_ i: Int, _ n: RawNode) -> Bool {
        switch n.kind {
        case .table:
            cr(); put("<table"); sourcepos(n); put(">\n")
        case .tableRow:
            if n.flags & 1 != 0 {
                put("<thead>\n")
            } else if let p = storage.nodes[Int(n.parent)].firstChild as Int32?, storage.nodes[Int(p)].next == Int32(i) {
                put("<tbody>\n")
            }
            put("<tr"); sourcepos(n); put(">\n")
        case .tableCell:
            let header = storage.nodes[Int(n.parent)].flags & 1 != 0
            put(header ? "<th" : "<td")
            switch TableAlignment(rawValue: UInt8(n.small)) {
            case .left: put(" align=\"left\"")
            case .center: put(" align=\"center\"")
            case .right: put(" align=\"right\"")
            default: break
            }
            sourcepos(n)
            put(">")
        case .alert:
            let kind = AlertKind(rawValue: UInt8(n.small)) ?? .note
            cr()
            put("<div class=\"markdown-alert markdown-alert-")
            out.append(contentsOf: Array(kind.title.lowercased().utf8))
            put("\""); sourcepos(n); put(">\n<p class=\"markdown-alert-title\">")
            out.append(contentsOf: Array(kind.title.utf8))
            put("</p>\n")
        case .footnoteDefinition:
            // Written at the end, in `renderFootnotes`.
            return renderingFootnote == i
        case .footnoteReference:
            put("<sup class=\"footnote-ref\"><a href=\"#fn-")
            escapeHref(n.b)
            put("\" id=\"fnref-")
            escapeHref(n.b)
            if n.number2 > 1 { out.append(UInt8(ascii: "-")); putNumber(Int(n.number2)) }
            put("\" data-footnote-ref>")
            putNumber(Int(n.number))
            put("</a></sup>")
        case .math:
            put(n.flags & 1 != 0 ? "<span class=\"math math-display\">" : "<span class=\"math math-inline\">")
            escape(n.a)
            put("</span>")
        case .mathBlock:
            cr(); put("<div class=\"math math-display\""); sourcepos(n); put(">")
            escape(n.a)
            put("</div>\n")
        default:
            break
        }
        return true
    }

    mutating func exitExtension(_ i: Int, _ n: RawNode) {
        switch n.kind {
        case .table:
            let rows = storage.nodes[Int(n.firstChild)]
            if rows.next >= 0 { put("</tbody>\n") }
            put("</table>\n")
        case .tableRow:
            put("</tr>\n")
            if n.flags & 1 != 0 { put("</thead>\n") }
        case .tableCell:
            put(storage.nodes[Int(n.parent)].flags & 1 != 0 ? "</th>\n" : "</td>\n")
        case .alert:
            cr(); put("</div>\n")
        case .paragraph:
            break
        default:
            break
        }
    }

    /// The back-references of a footnote definition (cmark-gfm's form).
    mutating func putBackrefs(_ def: RawNode) {
        for k in 1...max(1, Int(def.number2)) {
            put("<a href=\"#fnref-")
            escapeHref(def.a)
            if k > 1 { out.append(UInt8(ascii: "-")); putNumber(k) }
            put("\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">↩")
            if k > 1 { put("<sup class=\"footnote-ref\">"); putNumber(k); put("</sup>") }
            put("</a>")
            if k < Int(def.number2) { out.append(0x20) }
        }
    }

    mutating func renderFootnotes() {
        let defs = storage.nodes.indices.filter { storage.nodes[$0].kind == .footnoteDefinition && storage.nodes[$0].number > 0 }
            .sorted { storage.nodes[$0].number < storage.nodes[$1].number }
        guard !defs.isEmpty else { return }
        cr()
        put("<section class=\"footnotes\" data-footnotes>\n<ol>\n")
        for d in defs {
            let def = storage.nodes[d]
            put("<li id=\"fn-")
            escapeHref(def.a)
            put("\">\n")
            let last = def.lastChild
            if last >= 0 && storage.nodes[Int(last)].kind == .paragraph {
                backrefParagraph = Int(last)
            } else {
                backrefParagraph = -1
            }
            renderingFootnote = d
            renderSubtree(d)
            renderingFootnote = -1
            if backrefParagraph < 0 {
                cr()
                putBackrefs(def)
                out.append(0x0A)
            }
            put("</li>\n")
        }
        put("</ol>\n</section>\n")
    }

    /// Renders the children of node `top` (not the node itself).
    mutating func renderSubtree(_ top: Int) {
        var c = storage.nodes[top].firstChild
        while c >= 0 {
            renderNode(Int(c))
            c = storage.nodes[Int(c)].next
        }
    }
}
