import Tidemark

/// Appends runs, merging a run into the previous one when they mean the
/// same and look the same (`Run.canMerge`).
struct RunAccumulator {
    var runs: [Run] = []

    mutating func append(_ run: Run) {
        guard !run.text.isEmpty else { return }
        if let last = runs.last, last.canMerge(with: run) {
            runs[runs.count - 1].text += run.text
        } else {
            runs.append(run)
        }
    }
}

/// Turns the inline children of a paragraph, heading or table cell into
/// runs. A walker, not recursion: emphasis can nest as deep as the input is
/// long.
struct InlineRunBuilder: MarkdownWalker {
    let theme: Theme
    let options: RenderOptions
    let context: StyleContext
    private(set) var output = RunAccumulator()

    /// The traits and link in force; saved on entering emphasis, strong,
    /// strikethrough and links, restored on leaving them.
    private var traits: RunTraits = []
    private var link: LinkInfo?
    private var saved: [(RunTraits, LinkInfo?)] = []

    init(theme: Theme, options: RenderOptions, context: StyleContext) {
        self.theme = theme
        self.options = options
        self.context = context
    }

    /// The runs of `leaf`'s inline content.
    static func runs(of leaf: Node, theme: Theme, options: RenderOptions, context: StyleContext) -> [Run] {
        var builder = InlineRunBuilder(theme: theme, options: options, context: context)
        leaf.walk(&builder)
        return builder.output.runs
    }

    mutating func enter(_ node: Node) -> WalkAction {
        switch node.kind {
        case .paragraph, .heading, .tableCell:
            return .visitChildren
        case .text:
            emit(node.literal ?? "")
        case .softBreak:
            // A soft break is where the author's editor wrapped the line,
            // not a break the reader should see.
            emit(" ")
        case .lineBreak:
            emit("\n")
        case .code:
            emit(node.literal ?? "", adding: .code)
        case .html:
            if options.rawHTML == .show { emit(node.literal ?? "", adding: .html) }
        case .emphasis, .strong, .strikethrough:
            saved.append((traits, link))
            traits.insert(node.kind == .emphasis ? .emphasis : node.kind == .strong ? .strong : .strikethrough)
            return .visitChildren
        case .link:
            saved.append((traits, link))
            let destination = node.destination ?? ""
            if options.linkPolicy.allows(destination) {
                traits.insert(.link)
                link = LinkInfo(destination: destination, title: nonEmpty(node.title))
            }
            return .visitChildren
        case .image:
            let alt = node.plainText
            let source = node.destination ?? ""
            if options.imagePolicy.allows(source) {
                let image = ImageInfo(alt: alt, source: source, title: nonEmpty(node.title))
                // An image without alt text still needs something to show.
                emitAtomic(text: alt.isEmpty ? "image" : alt, adding: .image, image: image)
            } else {
                emit(alt)
            }
        case .footnoteReference:
            let number = node.footnoteNumber ?? 0
            let mark = FootnoteMark(number: number, label: node.footnoteLabel ?? "")
            emitAtomic(text: "[\(number)]", adding: .footnoteReference, footnote: mark)
        case .math:
            let tex = node.literal ?? ""
            emitAtomic(text: UnicodeMath.render(tex) ?? tex, adding: .math, math: tex)
        default:
            // Blocks never sit inside inlines; ignore rather than trap.
            break
        }
        return .skipChildren
    }

    mutating func exit(_ node: Node) {
        switch node.kind {
        case .emphasis, .strong, .strikethrough, .link:
            if let (t, l) = saved.popLast() {
                traits = t
                link = l
            }
        default:
            break
        }
    }

    private mutating func emit(_ text: String, adding extra: RunTraits = []) {
        let t = traits.union(extra)
        output.append(Run(text: text, traits: t, link: link,
                          style: theme.style(traits: t, in: context)))
    }

    private mutating func emitAtomic(text: String, adding extra: RunTraits, image: ImageInfo? = nil,
                                     math: String? = nil, footnote: FootnoteMark? = nil) {
        let t = traits.union(extra)
        output.append(Run(text: text, traits: t, link: link, image: image, math: math, footnote: footnote,
                          style: theme.style(traits: t, in: context)))
    }
}

/// `nil` for an empty string: Markdown has no way to write an empty title
/// that differs from no title.
func nonEmpty(_ s: String?) -> String? {
    guard let s, !s.isEmpty else { return nil }
    return s
}
