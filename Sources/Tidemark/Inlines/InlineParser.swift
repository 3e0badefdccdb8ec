/// Phase 2 of parsing: the inlines of one leaf block (paragraph, heading,
/// table cell), from its content — its lines joined by `\n`.
///
/// One parser is reused for every leaf of a document, so its arrays are
/// allocated once. Positions are content offsets until `emit` maps them to
/// source offsets through the line map.
final class InlineParser {
    let options: ParseOptions
    /// Link reference definitions and footnote labels (those with a
    /// definition, when footnotes are on): the block parser's table.
    @exclusivity(unchecked) var labels: LabelTable
    /// When set, labels looked up without success are collected here (the
    /// streaming parser re-renders a settled block when one gets defined).
    @exclusivity(unchecked) var missedLabels: Set<[UInt8]>? = nil
    @exclusivity(unchecked) var missedFootnotes: Set<[UInt8]>? = nil

    // The leaf being parsed.
    @exclusivity(unchecked) var content: [UInt8] = []
    @exclusivity(unchecked) var c: Bytes = Bytes(start: nil, count: 0)
    @exclusivity(unchecked) var n = 0
    /// Content offset where each line starts, and its source offset.
    @exclusivity(unchecked) var lineContentStart: [Int] = []
    @exclusivity(unchecked) var lineSourceStart: [Int] = []

    @exclusivity(unchecked) var nodes: [InlineNode] = []
    @exclusivity(unchecked) var delimiters: [Delimiter] = []
    @exclusivity(unchecked) var delimiterTop: Int32 = -1
    @exclusivity(unchecked) var brackets: [Bracket] = []

    /// Backtick runs of the leaf, found once on the first backtick (keeps
    /// code-span matching linear: cmark's pathological "backtick runs").
    @exclusivity(unchecked) var backtickRunsScanned = false
    @exclusivity(unchecked) var backtickRuns: [Int: [Int]] = [:]
    @exclusivity(unchecked) var backtickCursor: [Int: Int] = [:]

    @exclusivity(unchecked) var html = RawHTML.Memo()
    /// `processEmphasis`'s lower bounds for opener searches (see there).
    @exclusivity(unchecked) var openersBottom: [Int32] = []

    /// Which bytes stop the plain-text scan: 1 always, 2 only when they may
    /// start an extended autolink.
    @exclusivity(unchecked) var special: [UInt8]

    init(options: ParseOptions, labels: LabelTable) {
        self.options = options
        self.labels = labels
        self.special = InlineParser.specialTable(options)
    }

    /// The byte classes for the text scan, per option set: 1 always stops
    /// the scan, 2 only where an extended autolink may start. Built once
    /// for every combination (streaming creates an inline parser per append).
    static func specialTable(_ options: ParseOptions) -> [UInt8] {
        specialTables[Int(options.intersection([.strikethrough, .math, .autolink]).rawValue)]!
    }

    static let specialTables: [Int: [UInt8]] = {
        var tables: [Int: [UInt8]] = [:]
        let relevant: [ParseOptions] = [.strikethrough, .math, .autolink]
        for bits in 0..<(1 << relevant.count) {
            var o: ParseOptions = []
            for (k, option) in relevant.enumerated() where bits & (1 << k) != 0 { o.insert(option) }
            var special = [UInt8](repeating: 0, count: 256)
            for ch in "\n\r\\`*_[]!<&" { special[Int(ch.asciiValue!)] = 1 }
            if o.contains(.strikethrough) { special[Int(UInt8(ascii: "~"))] = 1 }
            if o.contains(.math) { special[Int(UInt8(ascii: "$"))] = 1 }
            if o.contains(.autolink) {
                for ch in "wWhHfF" { special[Int(ch.asciiValue!)] = 2 }
            }
            tables[Int(o.rawValue)] = special
        }
        return tables
    }()

    // MARK: Content and positions

    /// Maps a content offset to a source offset.
    @inline(__always)
    func sourceOffset(_ o: Int) -> Int {
        if lineContentStart.count == 1 { return lineSourceStart[0] + o }
        var lo = 0
        var hi = lineContentStart.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if lineContentStart[mid] <= o { lo = mid } else { hi = mid - 1 }
        }
        return lineSourceStart[lo] + (o - lineContentStart[lo])
    }

    /// Set for table cells whose content differs from the source (`\|`):
    /// literals are then copied from the content.
    @exclusivity(unchecked) var literalsFromContent = false

    @inline(__always)
    func sourceRef(_ start: Int, _ end: Int) -> ByteRef {
        if literalsFromContent {
            let a = arena.count
            arena.append(contentsOf: content[start..<end])
            return ByteRef.arena(a, arena.count)
        }
        let s = sourceOffset(start)
        return ByteRef.source(s, s + (end - start))
    }

    // MARK: Nodes

    @discardableResult
    @inline(__always)
    func append(_ node: InlineNode) -> Int32 {
        let i = Int32(nodes.count)
        var node = node
        let last = nodes[0].last
        node.prev = last
        nodes.append(node)
        if last >= 0 { nodes[Int(last)].next = i } else { nodes[0].first = i }
        nodes[0].last = i
        return i
    }

    @discardableResult
    @inline(__always)
    func appendText(_ start: Int, _ end: Int) -> Int32 {
        var t = InlineNode(kind: .text, start: start, end: end)
        t.a = sourceRef(start, end)
        return append(t)
    }

    /// Unlinks a node from its sibling list (whose parent is `parent`).
    func unlinkNode(_ i: Int32, parent: Int32) {
        let node = nodes[Int(i)]
        if node.prev >= 0 { nodes[Int(node.prev)].next = node.next } else { nodes[Int(parent)].first = node.next }
        if node.next >= 0 { nodes[Int(node.next)].prev = node.prev } else { nodes[Int(parent)].last = node.prev }
        nodes[Int(i)].next = -1
        nodes[Int(i)].prev = -1
    }

    /// Creates `kind` wrapping the siblings strictly between `after` and
    /// `before` (`before` = -1: to the end), inserted right after `after`.
    /// All of them are children of the root at this point.
    func wrap(_ kind: NodeKind, after: Int32, before: Int32, start: Int, end: Int) -> Int32 {
        let w = Int32(nodes.count)
        var node = InlineNode(kind: kind, start: start, end: end)
        let first = nodes[Int(after)].next
        let last = before >= 0 ? nodes[Int(before)].prev : nodes[0].last
        if first >= 0 && first != before {
            node.first = first
            node.last = last
            nodes[Int(first)].prev = -1
            nodes[Int(last)].next = -1
        }
        node.prev = after
        node.next = before
        nodes.append(node)
        nodes[Int(after)].next = w
        if before >= 0 { nodes[Int(before)].prev = w } else { nodes[0].last = w }
        return w
    }

    // MARK: Resuming (the streaming trailing paragraph)

    /// A position of `content` before which the parse is final whatever is
    /// appended to the content: there the bracket stack was empty, every
    /// delimiter run before it was matched (or can only close), and no
    /// construct that a later byte could still close (a backtick run, `<`,
    /// `$`, a link destination or title) had been left as text. The nodes
    /// before it are `nodes[..<resumeNodeCount]`, the last top-level one
    /// `resumeLast`. 0: none.
    @exclusivity(unchecked) var resumePosition = 0
    @exclusivity(unchecked) var resumeNodeCount = 0
    @exclusivity(unchecked) var resumeLast: Int32 = -1
    /// Where this parse tries to set a new resume point (-1: nowhere).
    @exclusivity(unchecked) var barrierTarget = -1
    /// The target after it (-1: none): `barrierTarget` moves there once the
    /// parse reaches or passes it.
    @exclusivity(unchecked) var barrierNext = -1
    /// `barrierTarget`, or `Int.max` for none (one comparison per token).
    @exclusivity(unchecked) var barrierAt = Int.max
    /// A construct that later bytes could still close was left as text
    /// since the parse (re)started.
    @exclusivity(unchecked) var blocked = false
    /// Constructs left open since the parse (re)started that a resume point
    /// may hold (`HeldOpen` bits; backtick runs also by length in
    /// `openTicks`, bit `min(length, 63)`), and where the last one is.
    @exclusivity(unchecked) var openKinds: UInt8 = 0
    @exclusivity(unchecked) var openTicks: UInt64 = 0
    @exclusivity(unchecked) var lastOpenAt = -1
    /// The open constructs the resume point holds: a math opener with no
    /// closer yet (`$5 and`), a backtick run with none (a stray `` ` ``).
    /// Like held brackets, a resume point holds them once it is 128 bytes
    /// past the last; a resumed parse that finds what may close one (a
    /// closer the batch parse would give it) starts again from the clean
    /// point, where none is held (`heldConstructMayClose`).
    @exclusivity(unchecked) var resumeHeld: UInt8 = 0
    @exclusivity(unchecked) var resumeHeldTicks: UInt64 = 0
    /// An extended autolink since the restart may still grow: a resume
    /// point must follow a space or tab.
    @exclusivity(unchecked) var autolinkMayGrow = false
    /// The openers left unmatched before the resume point (emphasis and
    /// strikethrough delimiters that a later closer may still take) are
    /// `delimiters[..<resumeOpenerCount]`, linked in order, as the stack held
    /// them there: a resumed parse starts with them where they are (no copy:
    /// with n openers waiting, a copy per call made a streamed paragraph
    /// quadratic). Each was processed as a closer before the resume point,
    /// so a resumed `processEmphasis` takes closers only from above them.
    @exclusivity(unchecked) var resumeOpenerCount: Int32 = 0
    /// `openersBottom` at the resume point: an opener search of a later
    /// closer stops where the searches before the point stopped, as in one
    /// pass over the whole paragraph.
    @exclusivity(unchecked) var resumeOpenersBottom: [Int32] = []
    /// The lowest index of `delimiters[..<resumeOpenerCount]` that a closer
    /// took (part of) in this call; below it they are as they were.
    @exclusivity(unchecked) var touchedFloor: Int32 = .max
    /// Set by `processEmphasis` when it takes (part of) an opener from
    /// before the resume point: nodes before the resume point changed
    /// (after `parseResuming`: in that call).
    @exclusivity(unchecked) var touchedResumeOpeners = false
    /// (Scratch of `tryResumePoint`.)
    @exclusivity(unchecked) var liveScratch: [Int32] = []
    /// The brackets still open at the resume point (`[0, 1)`, a stray `[`)
    /// are `brackets[..<resumeBracketCount]`, as they were there but for
    /// the top one's `bracketAfter` (kept aside) and `linksInactiveBelow`.
    /// A resume point holds brackets once it is 128 bytes past the last
    /// one. A `]` that takes a held bracket starts the parse again from the
    /// clean point, where none is held (`restartFromClean`); nothing of
    /// theirs changed until then.
    @exclusivity(unchecked) var resumeBracketCount = 0
    @exclusivity(unchecked) var resumeTopBracketAfter = false
    @exclusivity(unchecked) var resumeLinksInactiveBelow = 0
    /// Brackets held across a resume point in this call: those of the last
    /// call's, then those of a point this call set.
    @exclusivity(unchecked) var bracketsHeld = 0
    @exclusivity(unchecked) var restartFromClean = false
    /// This call started again from the clean point: no bracket is held.
    @exclusivity(unchecked) var restarted = false
    /// The last resume point with no opener or bracket left before it: no
    /// later byte changes a node before it. At or before the resume point.
    @exclusivity(unchecked) var cleanPosition = 0
    @exclusivity(unchecked) var cleanNodeCount = 0
    @exclusivity(unchecked) var cleanLast: Int32 = -1
    /// `processEmphasis` leaves the openers it did not match on the stack.
    @exclusivity(unchecked) var keepOpeners = false

    /// Parses `content[..<length]` as a paragraph, like `parse()`, but starts
    /// at the resume point of the last call (the content must have only
    /// grown at its end since), and tries to move the resume point to the
    /// start of the last word for the next call. Its cost is the tail after
    /// the resume point, not the paragraph.
    /// Returns whether it resumed (the nodes before the clean point it
    /// started from are the previous call's; so are those before the resume
    /// point unless `touchedResumeOpeners`).
    @discardableResult
    func parseResuming(length: Int) -> Bool {
        var start = 0
        if resumePosition > 0 && resumePosition < length && resumeNodeCount <= nodes.count && resumeLast >= 0 {
            if nodes.count > resumeNodeCount { nodes.truncate(to: resumeNodeCount) }
            nodes[Int(resumeLast)].next = -1
            nodes[0].last = resumeLast
            nodes[0].end = Int32(length)
            start = resumePosition
        } else {
            resumePosition = 0
            cleanPosition = 0
            cleanLast = -1
            forgetResumeOpeners()
            nodes.truncate(to: 0)
            nodes.append(InlineNode(kind: .paragraph, start: 0, end: length))
        }
        resetScan(keeping: resumeOpenerCount, brackets: resumeBracketCount)
        if resumeBracketCount > 0 { brackets[resumeBracketCount - 1].bracketAfter = resumeTopBracketAfter }
        linksInactiveBelow = resumeLinksInactiveBelow
        bracketsHeld = resumeBracketCount
        touchedResumeOpeners = false
        touchedFloor = .max
        restartFromClean = false
        restarted = false
        blocked = false
        openKinds = 0
        openTicks = 0
        lastOpenAt = -1
        autolinkMayGrow = false
        // The start of the last word: at a character that is not a space or
        // tab, past the resume point.
        setBarrier(-1)
        barrierNext = -1
        content.withUnsafeBufferPointer { c in
            var t = length - 1
            while t > start {
                if InlineParser.startsWord(c, t) {
                    setBarrier(t)
                    break
                }
                t -= 1
            }
        }
        // A construct still open at the end (a bracket, a backtick run, `<`,
        // `$`) keeps a resume point from the last word, and the next call
        // parses again from this call's start. So the word with the last
        // such byte is tried first: the parse goes on from before the
        // construct while it stays open (a link's destination being typed).
        // (Only when that is far from the start: the scan back costs too.)
        if barrierTarget - start >= 64 {
            let target = barrierTarget
            // (In the same scan: the last run of `*`, `_` or `~` that
            // starts a word, `r`; see below.)
            let (q, r) = content.withUnsafeBufferPointer { c -> (Int, Int) in
                var q = target - 1
                var r = -1
                while q > start {
                    let b = c[q]
                    if b == UInt8(ascii: "[") || b == UInt8(ascii: "`") || b == UInt8(ascii: "<") || b == UInt8(ascii: "$") { break }
                    if (b == UInt8(ascii: "*") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")) && r < 0
                        && (isSpaceOrTab(c[q - 1]) || c[q - 1] == 0x0A) { r = q }
                    q -= 1
                }
                while q > start && !InlineParser.startsWord(c, q) { q -= 1 }
                return (q, r)
            }
            if q - start >= 32 {
                barrierNext = barrierTarget
                setBarrier(q)
            } else if r - start >= 32 {
                // No such byte far back: the last run of `*`, `_` or `~`
                // that starts a word (an opener a closer the next bytes
                // bring may take) is tried first. Where every delimiter
                // before it is matched it is a clean point, and a closer
                // that takes it starts the next parse there, not from the
                // start. (Without it, text whose last word starts at every
                // character — CJK — set its resume points only past the
                // openers: each closer went back to the start, quadratic
                // in the paragraph.)
                barrierNext = barrierTarget
                setBarrier(r)
            }
        }
        let targets = (barrierTarget, barrierNext)
        content.withUnsafeBufferPointer { buffer in
            c = UnsafeBufferPointer(rebasing: buffer[0..<length])
            n = length
            // (What may close a held construct: again from the clean point.)
            if start > 0 && resumeHeld != 0 && heldConstructMayClose(from: start) {
                restartFromClean = true
            } else {
                parseContent(from: start)
            }
            if restartFromClean {
                // A `]` took a bracket from before the resume point: again
                // from the clean point (before every bracket left open),
                // with the same targets.
                restartFromClean = false
                restarted = true
                start = restartAtCleanPoint(length: length)
                setBarrier(targets.0)
                barrierNext = targets.1
                parseContent(from: start)
            }
            let touchedBefore = touchedResumeOpeners
            touchedResumeOpeners = false
            // (The delimiters left stay where they are: the next call
            // keeps those before the resume point and drops the rest.)
            keepOpeners = true
            processEmphasis(-1, resumed: true)
            keepOpeners = false
            // A closer after the resume point took one of its openers: the
            // nodes before it are not what the next call would resume from;
            // the next call resumes at the clean point.
            if touchedResumeOpeners {
                resumePosition = cleanPosition
                resumeNodeCount = cleanNodeCount
                resumeLast = cleanLast
                forgetResumeOpeners()
            }
            touchedResumeOpeners = touchedResumeOpeners || touchedBefore
            c = Bytes(start: nil, count: 0)
        }
        setBarrier(-1)
        barrierNext = -1
        return start > 0
    }

    /// Whether a word starts at `t` of `content`: a character that is not a
    /// space or tab after a space, tab or line feed, or after a non-ASCII
    /// character (text without spaces, as in Chinese or Japanese). No
    /// construct left open before it can reach past it without being a
    /// blocker.
    @inline(__always)
    static func startsWord(_ content: UnsafeBufferPointer<UInt8>, _ t: Int) -> Bool {
        let b = content[t]
        let before = content[t - 1]
        return !isSpaceOrTab(b) && b != 0x0A && (b & 0xC0) != 0x80
            && (isSpaceOrTab(before) || before == 0x0A || before >= 0x80)
    }

    /// Kinds of open constructs a resume point may hold (`resumeHeld`).
    enum HeldOpen {
        static let dollar: UInt8 = 1          // `$` with no closer yet
        static let dollars: UInt8 = 2         // `$$`
        static let backticks: UInt8 = 4       // a run with none (lengths in the ticks)
        static let paren: UInt8 = 8           // `\(`
        static let bracket: UInt8 = 16        // `\[`
        static let doubledParen: UInt8 = 32   // `\\(`
        static let doubledBracket: UInt8 = 64 // `\\[`
    }

    /// A construct at `pos` that later bytes may still close was left as
    /// text (a backtick run: of `run` backticks).
    /// (A `$` before a digit is a price nearly always, and a resume point
    /// holds it right away: `$5 and $6 and …` would otherwise keep every
    /// resume point within 128 bytes of the last. Others wait, as a span
    /// being typed closes soon: its closer would restart the parse.)
    @inline(__always)
    func holdOpen(_ kind: UInt8, at pos: Int, run: Int = 0, price: Bool = false) {
        if !price { lastOpenAt = pos }
        openKinds |= kind
        if run > 0 { openTicks |= 1 << UInt64(min(run, 63)) }
    }

    /// Whether `c[from..<n]` holds what closes a construct held open across
    /// the resume point in the batch parse of the content as it is now: for
    /// `$`, a `$` that may close (`$$` for `$$`); for a backtick run, one
    /// as long; for `\(`, `\[`, `\\(`, `\\[`, their closers. None was there
    /// when it was held, up to the end of the content then; what may still
    /// become one at the end (a run that grows, a backslash) is looked at
    /// again by the next call, which resumes before it.
    private func heldConstructMayClose(from: Int) -> Bool {
        let held = resumeHeld
        let backslash = UInt8(ascii: "\\"), dollar = UInt8(ascii: "$")
        var i = max(from, 1)
        while i < n {
            let b = c[i]
            if b == dollar {
                if held & HeldOpen.dollars != 0 && i + 1 < n && c[i + 1] == dollar && !isEscaped(i) { return true }
                if held & HeldOpen.dollar != 0 && closesSingleDollar(i) { return true }
            } else if b == UInt8(ascii: "`") {
                var e = i
                while e < n && c[e] == UInt8(ascii: "`") { e += 1 }
                if held & HeldOpen.backticks != 0 && resumeHeldTicks & (1 << UInt64(min(e - i, 63))) != 0 { return true }
                i = e
                continue
            } else if b == backslash && held & (HeldOpen.paren | HeldOpen.bracket | HeldOpen.doubledParen | HeldOpen.doubledBracket) != 0 {
                guard i + 1 < n else { break }
                let d = c[i + 1]
                if (d == UInt8(ascii: ")") && held & HeldOpen.paren != 0) || (d == UInt8(ascii: "]") && held & HeldOpen.bracket != 0) {
                    if !isEscaped(i) { return true }
                }
                if d == backslash && held & (HeldOpen.doubledParen | HeldOpen.doubledBracket) != 0 {
                    if i + 2 < n, (c[i + 2] == UInt8(ascii: ")") && held & HeldOpen.doubledParen != 0)
                        || (c[i + 2] == UInt8(ascii: "]") && held & HeldOpen.doubledBracket != 0) { return true }
                }
            }
            i += 1
        }
        return false
    }

    /// At `barrierTarget`: makes it the resume point when nothing before it
    /// can change but through an opener a later closer takes — processing
    /// now the closers before it, which gives what processing them at the
    /// end would (closers are matched in order, each with openers before
    /// it), and keeping the openers left over for the next call.
    private func tryResumePoint(at pos: Int) {
        guard !blocked else { return }
        if openKinds != 0 {
            guard !restarted, lastOpenAt < 0 || pos - lastOpenAt >= 128 else { return }
        }
        if autolinkMayGrow && !isSpaceOrTab(c[pos - 1]) { return }
        // Brackets are held only once the text after the last one is longer
        // than a link's usually is: a `]` that takes a held bracket starts
        // the parse again from the clean point (the closers processed here
        // across it are right unless it becomes a link, and it does not
        // become one without that restart).
        if !brackets.isEmpty {
            guard !restarted, pos - brackets[brackets.count - 1].position >= 128 else { return }
        }
        // (The bounds the searches start from, also when none runs.)
        if openersBottom.count != 18 { openersBottom = [Int32](repeating: -1, count: 18) }
        if resumeOpenersBottom.count == 18 {
            openersBottom.withUnsafeMutableBufferPointer { to in
                resumeOpenersBottom.withUnsafeBufferPointer { from in for k in 0..<18 { to[k] = from[k] } }
            }
        } else {
            openersBottom.withUnsafeMutableBufferPointer { to in for k in 0..<18 { to[k] = -1 } }
        }
        if delimiterTop >= resumeOpenerCount {
            keepOpeners = true
            processEmphasis(-1, resumed: true)
            keepOpeners = false
        }
        // The openers left, in order, from the bottom of the stack: those
        // below the lowest one a closer took are where they were; the
        // others move down to follow them (a cost of the delimiters since
        // the last resume point and of those a closer reached).
        let low = min(touchedFloor, resumeOpenerCount)
        var live = take(&liveScratch)
        live.truncate(to: 0)
        var d = delimiterTop
        while d >= low {
            live.append(d)
            d = delimiters[Int(d)].prev
        }
        var w = low
        for k in live.indices.reversed() {
            var x = delimiters[Int(live[k])]
            x.prev = w - 1
            x.next = -1
            delimiters[Int(w)] = x
            if w > 0 { delimiters[Int(w - 1)].next = w }
            w += 1
        }
        if w == low && low > 0 { delimiters[Int(low - 1)].next = -1 }
        liveScratch = live
        if delimiters.count > Int(w) { delimiters.truncate(to: Int(w)) }
        delimiterTop = w - 1
        resumeOpenerCount = w
        touchedFloor = .max
        // (What the searches before learned of the openers that moved is
        // dropped: a search may look at them again.)
        if resumeOpenersBottom.count != 18 { resumeOpenersBottom = [Int32](repeating: -1, count: 18) }
        resumeOpenersBottom.withUnsafeMutableBufferPointer { to in
            openersBottom.withUnsafeBufferPointer { from in
                for k in 0..<18 { to[k] = from[k] >= low ? low - 1 : from[k] }
            }
        }
        resumePosition = pos
        resumeNodeCount = nodes.count
        resumeLast = nodes[0].last
        resumeHeld |= openKinds
        resumeHeldTicks |= openTicks
        openKinds = 0
        openTicks = 0
        resumeBracketCount = brackets.count
        bracketsHeld = brackets.count
        resumeTopBracketAfter = brackets.last?.bracketAfter ?? false
        resumeLinksInactiveBelow = linksInactiveBelow
        // (A held bracket's delimiter bottom is never read — a `]` that
        // takes it restarts first — but no index from before the stack was
        // compacted stays.)
        if !brackets.isEmpty {
            brackets.withUnsafeMutableBufferPointer { b in for k in b.indices { b[k].delimiterBottom = -1 } }
        }
        if w == 0 && brackets.isEmpty && resumeHeld == 0 {
            cleanPosition = pos
            cleanNodeCount = nodes.count
            cleanLast = resumeLast
        }
    }

    /// Sets the parse up to go on from the clean point (from the start when
    /// there is none), with nothing waiting; returns where to go on.
    private func restartAtCleanPoint(length: Int) -> Int {
        let start: Int
        if cleanPosition > 0 && cleanLast >= 0 && cleanNodeCount <= nodes.count {
            nodes.truncate(to: cleanNodeCount)
            nodes[Int(cleanLast)].next = -1
            nodes[0].last = cleanLast
            resumePosition = cleanPosition
            resumeNodeCount = cleanNodeCount
            resumeLast = cleanLast
            start = cleanPosition
        } else {
            resumePosition = 0
            cleanPosition = 0
            cleanLast = -1
            nodes.truncate(to: 0)
            nodes.append(InlineNode(kind: .paragraph, start: 0, end: length))
            start = 0
        }
        forgetResumeOpeners()
        resetScan()
        bracketsHeld = 0
        touchedResumeOpeners = true
        touchedFloor = .max
        blocked = false
        openKinds = 0
        openTicks = 0
        lastOpenAt = -1
        autolinkMayGrow = false
        return start
    }

    /// No openers wait before the resume point (there is none, or it is
    /// the clean point).
    private func forgetResumeOpeners() {
        resumeOpenerCount = 0
        resumeHeld = 0
        resumeHeldTicks = 0
        resumeBracketCount = 0
        resumeTopBracketAfter = false
        resumeLinksInactiveBelow = 0
        if !resumeOpenersBottom.isEmpty {
            resumeOpenersBottom.withUnsafeMutableBufferPointer { b in for k in b.indices { b[k] = -1 } }
        }
    }

    // MARK: Parsing a leaf

    /// Empties the stacks and the per-content caches (backtick runs, math
    /// closers, raw HTML memo) before a parse.
    @inline(__always)
    private func resetScan(keeping openers: Int32 = 0, brackets keptBrackets: Int = 0) {
        // (Only when there is something to remove: an empty removal still
        // goes through `replaceSubrange`.)
        if openers > 0 {
            if delimiters.count > Int(openers) { delimiters.truncate(to: Int(openers)) }
            delimiters[Int(openers) - 1].next = -1
        } else if !delimiters.isEmpty {
            delimiters.truncate(to: 0)
        }
        if keptBrackets > 0 {
            if brackets.count > keptBrackets { brackets.truncate(to: keptBrackets) }
        } else if !brackets.isEmpty {
            brackets.truncate(to: 0)
        }
        linksInactiveBelow = 0
        delimiterTop = openers - 1
        if !mathScan.isEmpty { mathScan.reset() }
        backtickRunsScanned = false
        html = RawHTML.Memo()
    }

    /// Parses `content` (already filled, with its line map) into `nodes`;
    /// node 0 is the leaf itself.
    func parse() {
        nodes.truncate(to: 0)
        resumePosition = 0
        forgetResumeOpeners()
        resetScan()
        nodes.append(InlineNode(kind: .paragraph, start: 0, end: content.count))
        content.withUnsafeBufferPointer { buffer in
            c = buffer
            n = buffer.count
            parseContent()
            processEmphasis(-1)
            c = Bytes(start: nil, count: 0)
        }
    }

    private func parseContent(from start: Int = 0) {
        var pos = start
        while pos < n {
            if pos >= barrierAt { reachBarrier(pos) }
            let ch = c[pos]
            let kind = special[Int(ch)]
            if kind == 0 || (kind == 2 && !autolinkMayStart(pos)) {
                let e = scanText(pos + 1)
                appendText(pos, e)
                pos = e
                continue
            }
            switch ch {
            case 0x0A, 0x0D:
                pos = handleNewline(pos)
            case UInt8(ascii: "\\"):
                pos = handleBackslash(pos)
            case UInt8(ascii: "`"):
                pos = handleBackticks(pos)
            case UInt8(ascii: "*"), UInt8(ascii: "_"):
                pos = handleDelimiters(pos)
            case UInt8(ascii: "~"):
                pos = handleTildes(pos)
            case UInt8(ascii: "["):
                let t = appendText(pos, pos + 1)
                pushBracket(node: t, position: pos + 1, image: false)
                pos += 1
            case UInt8(ascii: "!"):
                if pos + 1 < n && c[pos + 1] == UInt8(ascii: "[") {
                    let t = appendText(pos, pos + 2)
                    pushBracket(node: t, position: pos + 2, image: true)
                    pos += 2
                } else {
                    let e = scanText(pos + 1)
                    appendText(pos, e)
                    pos = e
                }
            case UInt8(ascii: "]"):
                pos = handleCloseBracket(pos)
            case UInt8(ascii: "<"):
                pos = handleLessThan(pos)
            case UInt8(ascii: "&"):
                pos = handleAmpersand(pos)
            case UInt8(ascii: "$"):
                pos = handleDollar(pos)
            default:
                // An extended autolink may start here (`www.`, `http://`).
                if let e = extendedAutolink(pos) {
                    pos = e
                } else {
                    let e = scanText(pos + 1)
                    appendText(pos, e)
                    pos = e
                }
            }
        }
    }

    /// The parse reached or passed `barrierTarget`: tries it when reached,
    /// then moves on to the next target.
    private func reachBarrier(_ pos: Int) {
        if pos == barrierTarget { tryResumePoint(at: pos) }
        setBarrier(barrierNext)
        barrierNext = -1
    }

    @inline(__always)
    func setBarrier(_ target: Int) {
        barrierTarget = target
        barrierAt = target >= 0 ? target : .max
    }

    /// The end of a run of plain text starting at `pos`.
    @inline(__always)
    func scanText(_ start: Int) -> Int {
        var i = start
        // (A text run stops at the resume point being tried, so that the
        // scan reaches it; the runs are merged again when emitted.)
        let n = barrierTarget >= start ? barrierTarget : self.n
        while i < n {
            let k = special[Int(c[i])]
            if k == 0 {
                i += 1
            } else if k == 2 && !autolinkMayStart(i) {
                i += 1
            } else {
                break
            }
        }
        return i
    }

    // MARK: Line breaks (spec 6.7, 6.8)

    func handleNewline(_ pos: Int) -> Int {
        var hard = false
        var breakStart = pos
        let last = nodes[0].last
        if last >= 0 && nodes[Int(last)].kind == .text && Int(nodes[Int(last)].end) == pos && !nodes[Int(last)].a.isArena {
            // Trailing spaces: two or more make a hard break; all are removed.
            var t = nodes[Int(last)]
            var spaces = 0
            var e = Int(t.end)
            let s0 = Int(t.start)
            while e > s0 && c[e - 1] == 0x20 {
                e -= 1
                spaces += 1
            }
            if spaces > 0 {
                hard = spaces >= 2
                breakStart = e
                if e == s0 {
                    unlinkNode(last, parent: 0)
                } else {
                    t.end = Int32(e)
                    t.a.length = UInt32(e - s0)
                    nodes[Int(last)] = t
                }
            }
        }
        var brk = InlineNode(kind: hard ? .lineBreak : .softBreak, start: breakStart, end: pos + 1)
        brk.end = Int32(pos + 1)
        append(brk)
        var i = pos + 1
        // Leading spaces of the next line are not content (spec 6.8).
        while i < n && isSpaceOrTab(c[i]) { i += 1 }
        return i
    }

    // MARK: Backslash escapes (spec 2.4)

    func handleBackslash(_ pos: Int) -> Int {
        if pos + 1 < n {
            let next = c[pos + 1]
            if next == 0x0A {
                append(InlineNode(kind: .lineBreak, start: pos, end: pos + 2))
                var i = pos + 2
                while i < n && isSpaceOrTab(c[i]) { i += 1 }
                return i
            }
            if isASCIIPunctuation(next) {
                if options.contains(.math) && (next == UInt8(ascii: "\\") || next == UInt8(ascii: "(") || next == UInt8(ascii: "[")) {
                    // (Math that may still close: no closer yet. One found
                    // is the first, and stays so whatever follows.)
                    if let e = next == UInt8(ascii: "\\") ? doubledMathParen(pos) : mathParen(pos, display: next == UInt8(ascii: "[")) {
                        return e
                    }
                    if mathMayStillClose(pos) { holdOpenMath(pos) }
                }
                var t = InlineNode(kind: .text, start: pos, end: pos + 2)
                t.a = sourceRef(pos + 1, pos + 2)
                append(t)
                return pos + 2
            }
        }
        appendText(pos, pos + 1)
        return pos + 1
    }

    // MARK: Code spans (spec 6.1)

    func handleBackticks(_ pos: Int) -> Int {
        var e = pos
        while e < n && c[e] == UInt8(ascii: "`") { e += 1 }
        let length = e - pos
        let close: Int?
        if backtickRunsScanned {
            close = nextBacktickRun(length: length, after: e)
        } else {
            // The common case, a run with its closer ahead: found by a scan
            // that stops there (spans do not overlap, so these scans read
            // the content once). The first run without a closer switches
            // to an index of every run, which keeps unmatched runs
            // (cmark's pathological "backtick runs") linear.
            close = nextBacktickRunScanning(length: length, after: e)
            if close == nil { scanBacktickRuns(from: e) }
        }
        guard let close else {
            // A closing run may still arrive.
            holdOpen(HeldOpen.backticks, at: pos, run: length)
            appendText(pos, e)
            return e
        }
        var node = InlineNode(kind: .code, start: pos, end: close + length)
        var s = e
        var t = close
        var hasNewline = false
        var allSpace = true
        var i = s
        while i < t {
            let b = c[i]
            if b == 0x0A { hasNewline = true } else if b != 0x20 { allSpace = false }
            i += 1
        }
        if !allSpace && t - s >= 2 && (c[s] == 0x20 || c[s] == 0x0A) && (c[t - 1] == 0x20 || c[t - 1] == 0x0A) {
            s += 1
            t -= 1
        }
        if hasNewline {
            let start = arena.count
            for k in s..<t { arena.append(c[k] == 0x0A ? 0x20 : c[k]) }
            node.a = ByteRef.arena(start, arena.count)
        } else {
            node.a = sourceRef(s, t)
        }
        append(node)
        return close + length
    }

    func scanBacktickRuns(from start: Int) {
        backtickRunsScanned = true
        backtickRuns.removeAll(keepingCapacity: true)
        backtickCursor.removeAll(keepingCapacity: true)
        var i = start
        while i < n {
            if c[i] == UInt8(ascii: "`") {
                var e = i
                while e < n && c[e] == UInt8(ascii: "`") { e += 1 }
                backtickRuns[e - i, default: []].append(i)
                i = e
            } else {
                i += 1
            }
        }
    }

    /// The first backtick run of exactly `length` at or after `pos`, by a
    /// forward scan.
    @inline(__always)
    func nextBacktickRunScanning(length: Int, after pos: Int) -> Int? {
        var i = pos
        while i < n {
            if c[i] == UInt8(ascii: "`") {
                var e = i + 1
                while e < n && c[e] == UInt8(ascii: "`") { e += 1 }
                if e - i == length { return i }
                i = e
            } else {
                i += 1
            }
        }
        return nil
    }

    /// The start of the first backtick run of exactly `length` at or after `pos`.
    func nextBacktickRun(length: Int, after pos: Int) -> Int? {
        guard let runs = backtickRuns[length] else { return nil }
        var k = backtickCursor[length] ?? 0
        while k < runs.count && runs[k] < pos { k += 1 }
        backtickCursor[length] = k
        return k < runs.count ? runs[k] : nil
    }

    // MARK: Emphasis delimiters (spec 6.2)

    /// Whether the scalars around a delimiter run make it left- and/or
    /// right-flanking, and whether the characters around are punctuation.
    func flanking(_ start: Int, _ end: Int) -> (left: Bool, right: Bool, beforePunct: Bool, afterPunct: Bool) {
        let before: UInt32 = start == 0 ? 0x0A : UTF8Decode.scalarBefore(c, start, 0)
        let after: UInt32 = end >= n ? 0x0A : UTF8Decode.scalar(c, end, n).0
        let beforeSpace = UnicodeProperties.isWhitespace(before)
        let afterSpace = UnicodeProperties.isWhitespace(after)
        let beforePunct = UnicodeProperties.isPunctuation(before)
        let afterPunct = UnicodeProperties.isPunctuation(after)
        let left = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
        let right = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
        return (left, right, beforePunct, afterPunct)
    }

    func handleDelimiters(_ pos: Int) -> Int {
        let ch = c[pos]
        var e = pos
        while e < n && c[e] == ch { e += 1 }
        let f = flanking(pos, e)
        let canOpen: Bool
        let canClose: Bool
        if ch == UInt8(ascii: "*") {
            canOpen = f.left
            canClose = f.right
        } else {
            canOpen = f.left && (!f.right || f.beforePunct)
            canClose = f.right && (!f.left || f.afterPunct)
        }
        let t = appendText(pos, e)
        if canOpen || canClose {
            pushDelimiter(node: t, char: ch, count: e - pos, canOpen: canOpen, canClose: canClose)
        }
        return e
    }

    /// GFM strikethrough: runs of one or two tildes.
    func handleTildes(_ pos: Int) -> Int {
        var e = pos
        while e < n && c[e] == UInt8(ascii: "~") { e += 1 }
        let t = appendText(pos, e)
        if e - pos <= 2 {
            let f = flanking(pos, e)
            if f.left || f.right {
                pushDelimiter(node: t, char: UInt8(ascii: "~"), count: e - pos, canOpen: f.left, canClose: f.right)
            }
        }
        return e
    }

    func pushDelimiter(node: Int32, char: UInt8, count: Int, canOpen: Bool, canClose: Bool) {
        let i = Int32(delimiters.count)
        delimiters.append(Delimiter(node: node, char: char, count: Int32(count), original: Int32(count),
                                    canOpen: canOpen, canClose: canClose, prev: delimiterTop, next: -1))
        if delimiterTop >= 0 { delimiters[Int(delimiterTop)].next = i }
        delimiterTop = i
    }

    func removeDelimiter(_ d: Int32) {
        let x = delimiters[Int(d)]
        if x.prev >= 0 { delimiters[Int(x.prev)].next = x.next }
        if x.next >= 0 { delimiters[Int(x.next)].prev = x.prev } else { delimiterTop = x.prev }
    }

    /// The "process emphasis" procedure of the spec appendix, over the
    /// delimiters above `bottom`. `resumed` (`bottom` is -1): the openers
    /// before the resume point were processed as closers already; closers
    /// are taken from above them, and opener searches stop where those
    /// before the resume point stopped.
    func processEmphasis(_ bottom: Int32, resumed: Bool = false) {
        // Lower bounds for opener searches, by delimiter character, whether
        // the closer can also open, and its length mod 3 (the appendix's
        // `openers_bottom`): without them `*a **b ***c …` is quadratic.
        var closer = delimiterTop
        if closer < 0 || closer == bottom { return }
        let floor = resumed ? resumeOpenerCount : 0
        if resumed && closer < floor { return }
        while delimiters[Int(closer)].prev != bottom && delimiters[Int(closer)].prev >= floor {
            closer = delimiters[Int(closer)].prev
        }
        if closer == bottom { return }
        // (A member array, so that a leaf's emphasis allocates nothing.)
        if openersBottom.count != 18 { openersBottom = [Int32](repeating: bottom, count: 18) }
        if resumed && resumeOpenersBottom.count == 18 {
            for k in 0..<18 { openersBottom[k] = resumeOpenersBottom[k] }
        } else {
            for k in 0..<18 { openersBottom[k] = bottom }
        }
        while closer >= 0 {
            let d = delimiters[Int(closer)]
            if !d.canClose {
                closer = d.next
                continue
            }
            let charIndex = d.char == UInt8(ascii: "*") ? 0 : d.char == UInt8(ascii: "_") ? 1 : 2
            let slot = charIndex * 6 + (d.canOpen ? 3 : 0) + Int(d.original % 3)
            var opener = d.prev
            var found = false
            while opener >= 0 && opener != bottom && opener != openersBottom[slot] {
                let o = delimiters[Int(opener)]
                if o.char == d.char && o.canOpen {
                    if d.char == UInt8(ascii: "~") {
                        found = o.count == d.count
                    } else {
                        let odd = (o.canClose || d.canOpen) && (o.original + d.original) % 3 == 0
                            && !(o.original % 3 == 0 && d.original % 3 == 0)
                        found = !odd
                    }
                    if found { break }
                }
                opener = o.prev
            }
            if !found {
                openersBottom[slot] = d.prev
                let next = d.next
                if !d.canOpen { removeDelimiter(closer) }
                closer = next
                continue
            }
            let o = delimiters[Int(opener)]
            let use: Int32 = d.char == UInt8(ascii: "~") ? d.count : (d.count >= 2 && o.count >= 2 ? 2 : 1)
            let kind: NodeKind = d.char == UInt8(ascii: "~") ? .strikethrough : (use == 2 ? .strong : .emphasis)
            // Take the used delimiters off the end of the opener's text and
            // the start of the closer's.
            let on = o.node, cn = d.node
            if opener < resumeOpenerCount {
                touchedResumeOpeners = true
                if opener < touchedFloor { touchedFloor = opener }
            }
            do {
                nodes[Int(on)].end -= use
                nodes[Int(on)].a.length -= UInt32(use)
                let wrapStart = Int(nodes[Int(on)].end)
                let wrapEnd = Int(nodes[Int(cn)].start) + Int(use)
                nodes[Int(cn)].start += use
                nodes[Int(cn)].a.offset += UInt32(use)
                nodes[Int(cn)].a.length -= UInt32(use)
                _ = wrap(kind, after: on, before: cn, start: wrapStart, end: wrapEnd)
            }
            // Delimiters between opener and closer are gone (spec).
            delimiters[Int(opener)].next = closer
            delimiters[Int(closer)].prev = opener
            delimiters[Int(opener)].count -= use
            delimiters[Int(closer)].count -= use
            if delimiters[Int(opener)].count == 0 {
                unlinkNode(on, parent: 0)
                removeDelimiter(opener)
            }
            if delimiters[Int(closer)].count == 0 {
                let next = delimiters[Int(closer)].next
                unlinkNode(cn, parent: 0)
                removeDelimiter(closer)
                closer = next
            }
        }
        if keepOpeners { return }
        while delimiterTop >= 0 && delimiterTop != bottom {
            removeDelimiter(delimiterTop)
        }
    }

    // MARK: Links and images (spec 6.3, 6.4)

    @exclusivity(unchecked) var mathScan = MathScan()

    /// Non-image brackets below this stack index cannot open a link.
    @exclusivity(unchecked) var linksInactiveBelow = 0

    @inline(__always)
    func popBracket() {
        brackets.removeLast()
        if linksInactiveBelow > brackets.count { linksInactiveBelow = brackets.count }
    }

    func pushBracket(node: Int32, position: Int, image: Bool) {
        if !brackets.isEmpty { brackets[brackets.count - 1].bracketAfter = true }
        brackets.append(Bracket(node: node, position: position, image: image, active: true,
                                bracketAfter: false, delimiterBottom: delimiterTop))
    }

    @inline(__always)
    func skipWhitespace(_ pos: Int) -> Int {
        var i = pos
        while i < n && (c[i] == 0x20 || c[i] == 0x09 || c[i] == 0x0A) { i += 1 }
        return i
    }

    func handleCloseBracket(_ pos: Int) -> Int {
        let after = pos + 1
        guard let opener = brackets.last else {
            appendText(pos, after)
            return after
        }
        if brackets.count <= bracketsHeld {
            // A bracket from before the resume point: the parse starts
            // again from the clean point (`parseResuming`).
            restartFromClean = true
            return n
        }
        if !opener.active || (!opener.image && brackets.count - 1 < linksInactiveBelow) {
            popBracket()
            appendText(pos, after)
            return after
        }
        if options.contains(.footnotes), let e = footnoteReference(opener, closeAt: pos) {
            return e
        }
        var destination: ByteRef = .empty
        var title: ByteRef = .empty
        var endPos = -1

        // Inline link: `(destination "title")`.
        if after < n && c[after] == UInt8(ascii: "(") {
            let i = skipWhitespace(after + 1)
            if i < n && c[i] == UInt8(ascii: ")") {
                endPos = i + 1
            } else if let d = LinkScan.destination(c, i, n) {
                let j = skipWhitespace(d.next)
                if j < n && c[j] == UInt8(ascii: ")") {
                    destination = unescapedRef(d.start, d.end)
                    endPos = j + 1
                } else if j > d.next, let t = LinkScan.title(c, j, n) {
                    let k = skipWhitespace(t.next)
                    if k < n && c[k] == UInt8(ascii: ")") {
                        destination = unescapedRef(d.start, d.end)
                        title = unescapedRef(t.start, t.end)
                        endPos = k + 1
                    }
                }
            }
        }
        // Reference link: full, collapsed or shortcut. (With no definition
        // and no one asking which labels were missed, no label can match:
        // nothing to normalize — a streamed link whose destination is still
        // open comes this way on every append.)
        if endPos < 0 && (labels.hasDefinitions || missedLabels != nil) {
            var key: [UInt8]? = nil
            var refEnd = after
            var labelFound = false
            if after < n && c[after] == UInt8(ascii: "[") {
                if let l = LinkScan.label(c, after, n) {
                    labelFound = true
                    key = LinkScan.normalizeLabel(c, l.start, l.end)
                    refEnd = l.next
                } else if let e = blankLabelEnd(after) {
                    // `[]` or `[  ]`: a collapsed reference.
                    refEnd = e
                }
            }
            if !labelFound {
                if !opener.bracketAfter {
                    key = LinkScan.normalizeLabel(c, opener.position, pos)
                } else {
                    key = nil
                }
            }
            if let key, !key.isEmpty {
                if let def = labels.definition(key) {
                    destination = storeArena(def.destination)
                    title = storeArena(def.title)
                    endPos = refEnd
                    // A `(` after `]` that opened no inline link may open
                    // one once more bytes come (`[foo](/url "ti`: the title
                    // is still open): the inline link then takes the text
                    // instead of this reference.
                    if after < n && c[after] == UInt8(ascii: "(") { blocked = true }
                } else if labelFound || LinkScan.label(c, opener.position - 1, pos + 1)?.end == pos {
                    // A definition later in a stream could still make this a link.
                    // (Only a text that is a label: not one with a bracket a
                    // code span or an autolink kept from pairing, which no
                    // definition can match.)
                    missedLabels?.insert(key)
                }
            }
        }
        guard endPos >= 0 else {
            // A destination, title or label may still close — unless the
            // byte after `]` is there and starts none (a label that no
            // definition matches yet is the block's business: a definition
            // after the paragraph cannot be in it).
            // (A label after it that closed decides: whether a definition
            // matches it is the block's business too.)
            if after >= n || c[after] == UInt8(ascii: "(")
                || (c[after] == UInt8(ascii: "[") && LinkScan.label(c, after, n) == nil && blankLabelEnd(after) == nil) { blocked = true }
            popBracket()
            appendText(pos, after)
            return after
        }
        let openerNode = opener.node
        let start = Int(nodes[Int(openerNode)].start)
        // Emphasis inside the link text is settled first, while its nodes
        // are still siblings at the top level (spec appendix, "look for
        // link or image").
        processEmphasis(opener.delimiterBottom)
        let link = wrap(opener.image ? .image : .link, after: openerNode, before: -1, start: start, end: endPos)
        nodes[Int(link)].a = destination
        nodes[Int(link)].b = title
        unlinkNode(openerNode, parent: 0)
        popBracket()
        if !opener.image {
            // No links inside links (spec 6.3): earlier `[` can't open one
            // now. A watermark instead of a walk over the stack keeps
            // `![[]()` repeated linear (cmark's pathological case).
            linksInactiveBelow = brackets.count
        }
        return endPos
    }

    /// `[` followed by only whitespace and `]`: the end after `]`.
    func blankLabelEnd(_ pos: Int) -> Int? {
        var i = pos + 1
        while i < n && (c[i] == 0x20 || c[i] == 0x09 || c[i] == 0x0A) {
            i += 1
            if i - pos > LinkScan.maxLabelLength { return nil }
        }
        return i < n && c[i] == UInt8(ascii: "]") ? i + 1 : nil
    }

    // MARK: Arena

    /// The document's side arena; the builder hands it in for a parse.
    @exclusivity(unchecked) var arena: [UInt8] = []

    func storeArena(_ bytes: [UInt8]) -> ByteRef {
        if bytes.isEmpty { return .empty }
        let s = arena.count
        arena.append(contentsOf: bytes)
        return ByteRef.arena(s, arena.count)
    }

    /// A reference to `content[start..<end]` with escapes and entities
    /// resolved: a source slice when nothing changes (the common case).
    func unescapedRef(_ start: Int, _ end: Int) -> ByteRef {
        if start == end { return .empty }
        if !CharacterReferences.needsUnescaping(c, start, end) && !spansLines(start, end) {
            return sourceRef(start, end)
        }
        let s = arena.count
        CharacterReferences.appendUnescaped(c, start, end, into: &arena)
        return ByteRef.arena(s, arena.count)
    }

    @inline(__always)
    func spansLines(_ start: Int, _ end: Int) -> Bool {
        if lineContentStart.count == 1 { return false }
        var i = start
        while i < end {
            if c[i] == 0x0A { return true }
            i += 1
        }
        return false
    }

    // MARK: Autolinks and raw HTML (spec 6.5, 6.6)

    func handleLessThan(_ pos: Int) -> Int {
        if let (e, email) = Autolinks.scan(c, pos, n) {
            var link = InlineNode(kind: .link, start: pos, end: e)
            link.flags = email ? 3 : 1
            let textStart = pos + 1, textEnd = e - 1
            let text = entityDecodedRef(textStart, textEnd)
            if email {
                let s = arena.count
                arena.append(contentsOf: Array("mailto:".utf8))
                if text.isArena {
                    let decoded = Array(arena[text.start..<text.end])
                    arena.append(contentsOf: decoded)
                } else {
                    // (A source reference of the content's own bytes: an
                    // autolink spans no line.)
                    arena.append(contentsOf: UnsafeBufferPointer(rebasing: c[textStart..<textEnd]))
                }
                link.a = ByteRef.arena(s, arena.count)
            } else {
                link.a = text
            }
            let l = append(link)
            var t = InlineNode(kind: .text, start: textStart, end: textEnd)
            t.a = text
            let ti = Int32(nodes.count)
            t.prev = -1
            nodes.append(t)
            nodes[Int(l)].first = ti
            nodes[Int(l)].last = ti
            return e
        }
        if let e = html.scan(c, pos, n) {
            var node = InlineNode(kind: .html, start: pos, end: e)
            node.a = spansLines(pos, e) ? storeArena(Array(c[pos..<e])) : sourceRef(pos, e)
            append(node)
            return e
        }
        // An autolink or tag may still close — unless the bytes after `<`
        // rule both out (`a < b`, `a <= b`).
        if lessThanMayStillClose(pos) { blocked = true }
        appendText(pos, pos + 1)
        return pos + 1
    }

    /// At a `<` that opened no autolink or raw HTML: whether more bytes may
    /// make it one — what follows it so far is the start of a tag (its
    /// attributes may hold spaces: `x<y then z` may still be one), of a
    /// comment, a declaration or an instruction (`<!`, `<?`), or of an
    /// autolink.
    func lessThanMayStillClose(_ pos: Int) -> Bool {
        guard pos + 1 < n else { return true }
        let b = c[pos + 1]
        if b == UInt8(ascii: "!") || b == UInt8(ascii: "?") { return true }
        if (isASCIILetter(b) || b == UInt8(ascii: "/")) && RawHTML.tagMayComplete(c, pos, n) { return true }
        return Autolinks.uriMayComplete(c, pos, n) || Autolinks.emailMayComplete(c, pos, n)
    }

    /// Entities decoded, backslashes kept (autolinks).
    func entityDecodedRef(_ start: Int, _ end: Int) -> ByteRef {
        var i = start
        var hasAmp = false
        while i < end {
            if c[i] == UInt8(ascii: "&") { hasAmp = true; break }
            i += 1
        }
        if !hasAmp { return sourceRef(start, end) }
        let s = arena.count
        i = start
        while i < end {
            if c[i] == UInt8(ascii: "&"), let next = CharacterReferences.decode(c, i, end, into: &arena) {
                i = next
            } else {
                arena.append(c[i])
                i += 1
            }
        }
        return ByteRef.arena(s, arena.count)
    }

    // MARK: Entities (spec 2.5)

    func handleAmpersand(_ pos: Int) -> Int {
        let s = arena.count
        if let e = CharacterReferences.decode(c, pos, n, into: &arena) {
            var t = InlineNode(kind: .text, start: pos, end: e)
            t.a = ByteRef.arena(s, arena.count)
            append(t)
            return e
        }
        appendText(pos, pos + 1)
        return pos + 1
    }
}
