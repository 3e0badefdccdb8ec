/// A block of the block phase's tree, while the document is being built.
///
/// The block phase (spec appendix, "Phase 1: block structure") keeps every
/// block in one array linked by index; the open blocks are the chain of
/// last children from the document down to the tip.
struct Block: Equatable {
    var kind: NodeKind
    var parent: Int32 = -1
    var firstChild: Int32 = -1
    var lastChild: Int32 = -1
    var next: Int32 = -1
    var prev: Int32 = -1
    var isOpen = true
    /// Whether the last line this block saw was blank (for tight/loose).
    var lastLineBlank = false
    /// Source range (UTF-8 offsets); `end` is set when the block closes.
    var start: Int32
    var end: Int32
    /// The 0-based line on which the block started.
    var startLine: Int32
    /// Content lines (leaves): `lines[firstLine ..< firstLine + lineCount]`.
    var firstLine: Int32 = 0
    var lineCount: Int32 = 0

    // Lists and items.
    var ordered = false
    /// Bullet character, or the delimiter (`.` or `)`) of an ordered list.
    var marker: UInt8 = 0
    var listStart: Int32 = 0
    var markerOffset: Int32 = 0
    var padding: Int32 = 0
    var tight = true
    var task: TaskState = .none

    // Code blocks, math blocks.
    var fenced = false
    var fenceChar: UInt8 = 0
    var fenceLength: Int32 = 0
    var fenceOffset: Int32 = 0
    var infoStart: Int32 = 0
    var infoEnd: Int32 = 0

    // Headings.
    var level: UInt8 = 0
    var setext = false

    // HTML blocks.
    var htmlKind: UInt8 = 0

    /// Paragraphs: its lines stopped being all link reference definitions,
    /// so `takeFinalDefinitions` no longer looks at them.
    var definitionsGivenUp = false

    /// Alert kind; table: index of its alignments in `BlockParser.tableAlignments`;
    /// footnote definition: index of its label.
    var extra: Int32 = 0

    init(kind: NodeKind, start: Int, startLine: Int) {
        self.kind = kind
        self.start = Int32(truncatingIfNeeded: start)
        self.end = Int32(truncatingIfNeeded: start)
        self.startLine = Int32(truncatingIfNeeded: startLine)
    }
}

/// One line of a leaf block's content: `pad` virtual spaces (the rest of a
/// tab that indentation only partly consumed) and then `source[start..<end]`.
struct Line {
    var start: Int32
    var end: Int32
    var pad: Int32

    init(start: Int, end: Int, pad: Int = 0) {
        self.start = Int32(truncatingIfNeeded: start)
        self.end = Int32(truncatingIfNeeded: end)
        self.pad = Int32(truncatingIfNeeded: pad)
    }
}

/// A link reference definition's destination and title, already unescaped.
struct LinkDefinition: Equatable {
    var destination: [UInt8]
    var title: [UInt8]
}
