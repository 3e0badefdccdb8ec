/// A plain-text rendering of common TeX math, for targets that can only show
/// characters (a terminal, a log line, an accessibility summary).
///
/// The renderer is deliberately conservative: it returns nil rather than guess
/// whenever the source uses something that has no faithful linear form
/// (environments, unknown commands, `\\`, `&`, malformed input), so callers can
/// fall back to showing the TeX source.
///
/// Conventions:
/// - Spacing follows TeX's atom classes rather than the source's whitespace,
///   so `a+b=c` and `a + b = c` render alike (`a + b = c`), a leading `-` stays
///   tight (`−x`), and operator names are separated from their argument
///   (`sin x`, but `sin(x)`). Any TeX space becomes at least one space.
/// - Scripts use Unicode superscript/subscript characters only when *every*
///   character of that script has one (digits, `+ − = ( )`, and the Latin
///   letters Unicode provides; Greek is not used because its modifier letters
///   are phonetic symbols with poor font coverage). Otherwise that script is
///   written `^(…)` or `_(…)`, always parenthesized so `x^(α)β` cannot be
///   misread. Each script is decided on its own, and the subscript is always
///   written before the superscript: `\sum_{i=1}^{\infty}` → `∑ᵢ₌₁^(∞)`.
///   Primes, `*`, `†`, `‡` are already raised glyphs and stay as they are;
///   a superscript that is exactly `\circ` becomes `°`.
/// - `\frac{a}{b}` → `a/b`; a side that is not a single unit (one symbol,
///   possibly with scripts, or a plain number) is parenthesized on its own:
///   `\frac{x+1}{2}` → `(x + 1)/2`.
/// - `\sqrt{x}` → `√x`; a radicand that is not a single unit without a
///   superscript is parenthesized: `√(x + 1)`, `√(x²)`.
/// - Nesting deeper than a fixed limit (a few dozen groups or arguments)
///   returns nil, so hostile input costs linear time and bounded stack.
public enum UnicodeMath {
    /// A plain-text rendering of `tex`, or nil when it contains something it
    /// cannot express faithfully (then the caller shows the source).
    public static func render(_ tex: String) -> String? {
        var parser = MathParser(Array(tex.unicodeScalars))
        guard let items = parser.parseList(until: .end) else { return nil }
        return trimmingSpaces(Layout.render(items, style: .text))
    }

    private static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
            let last = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[first...last])
    }
}

// MARK: - Intermediate form

/// TeX's atom classes, which decide the spacing between neighbours.
private enum AtomClass: Int, Sendable {
    case ord, op, bin, rel, open, close, punct, inner
}

/// How an atom reads when it stands alone as a fraction or root argument.
private enum Unit: Sendable {
    /// Needs parentheses to be read as one thing (`x + 1`, `sin x`, `a/b`).
    case no
    /// A single symbol or number (`x`, `12`, `ℝ`, `√2`).
    case plain
    /// A single symbol carrying a superscript (`x²`): fine over a fraction
    /// bar, ambiguous under a radical.
    case superscripted
}

private struct Atom {
    var cls: AtomClass
    var text: String
    var unit: Unit
    /// Digits and decimal points, so a run of them counts as one number.
    var isNumeric = false
    /// A linear form that would change meaning with a script glued to its end
    /// (`a/b²`, `√x²`), so it gets parentheses when it carries scripts.
    var needsParensAsBase = false
    var primes = 0
    /// Script content rendered in script style, converted when laid out.
    var sub: String?
    var sup: String?

    init(_ cls: AtomClass, _ text: String, unit: Unit = .plain) {
        self.cls = cls
        self.text = text
        self.unit = unit
    }

    var hasScripts: Bool { sub != nil || sup != nil || primes > 0 }

    /// The unit reading of this atom including its own scripts.
    var unitWithScripts: Unit {
        guard unit != .no else { return .no }
        return sup != nil || primes > 0 ? .superscripted : unit
    }

    var rendered: String {
        var out = needsParensAsBase && hasScripts ? "(" + text + ")" : text
        switch primes {
        case 0: break
        case 1: out += "′"
        case 2: out += "″"
        case 3: out += "‴"
        default: out += String(repeating: "′", count: primes)
        }
        if let sub { out += Scripts.form(sub, superscript: false) }
        if let sup { out += Scripts.form(sup, superscript: true) }
        return out
    }
}

private enum Item {
    case atom(Atom)
    /// Explicit space (`\,`, `\quad`, spaces inside `\text`), in columns.
    case space(Int)
}

// MARK: - Layout

private enum Layout {
    enum Style { case text, script }

    /// Joins a list into text, inserting TeX-like spacing between atoms.
    static func render(_ items: [Item], style: Style) -> String {
        var classes: [AtomClass?] = items.map {
            if case .atom(let atom) = $0 { return atom.cls }
            return nil
        }
        // A binary operator with nothing to its left (or right) is unary and
        // takes no space: `-x`, `(+1)`, `a = -b`. Explicit spaces are
        // transparent here, as glue is in TeX.
        var previous: Int?
        for k in items.indices {
            guard let cls = classes[k] else { continue }
            if cls == .bin {
                if let p = previous, let pc = classes[p] {
                    switch pc {
                    case .bin, .op, .rel, .open, .punct: classes[k] = .ord
                    default: break
                    }
                } else {
                    classes[k] = .ord
                }
            }
            if let p = previous, classes[p] == .bin, cls == .rel || cls == .close || cls == .punct {
                classes[p] = .ord
            }
            previous = k
        }
        if let p = previous, classes[p] == .bin { classes[p] = .ord }

        var out = ""
        var previousClass: AtomClass?
        var explicit = 0
        for k in items.indices {
            switch items[k] {
            case .space(let columns):
                explicit += columns
            case .atom(let atom):
                let cls = classes[k] ?? .ord
                var gap = explicit
                if let p = previousClass { gap = max(gap, spacing(p, cls, style)) }
                if gap > 0 { out += String(repeating: " ", count: gap) }
                out += atom.rendered
                previousClass = cls
                explicit = 0
            }
        }
        if explicit > 0 { out += String(repeating: " ", count: explicit) }
        return out
    }

    /// TeX's inter-atom spacing table (TeXbook ch. 18) collapsed to "a space
    /// or not": thin, medium and thick spaces are all one column in text.
    /// Entries marked `t` apply only outside scripts, which is why `x_{n+1}`
    /// stays tight while `n + 1` on the baseline does not.
    private static func spacing(_ left: AtomClass, _ right: AtomClass, _ style: Style) -> Int {
        let always = 1, t = 2, o = 0
        let table: [[Int]] = [
            //  ord     op     bin  rel  open close punct inner
            [o, always, t, t, o, o, o, t],  // ord
            [always, always, o, t, o, o, o, t],  // op
            [t, t, o, o, t, o, o, t],  // bin
            [t, t, o, o, t, o, o, t],  // rel
            [o, o, o, o, o, o, o, o],  // open
            [o, always, t, t, o, o, o, t],  // close
            [t, t, o, t, t, t, t, t],  // punct
            [t, always, t, t, t, o, t, t],  // inner
        ]
        switch table[left.rawValue][right.rawValue] {
        case always: return 1
        case t: return style == .text ? 1 : 0
        default: return 0
        }
    }

    /// How a list reads as a fraction or root argument.
    static func unit(of items: [Item]) -> Unit {
        var atoms: [Atom] = []
        for item in items {
            guard case .atom(let atom) = item else { return .no }
            atoms.append(atom)
        }
        if atoms.count == 1 { return atoms[0].unitWithScripts }
        guard !atoms.isEmpty else { return .no }
        // A number like `12` or `3.5` is several atoms but one unit; only its
        // last digit may carry a script (`10^6` is fine, `1^2 0` is not).
        for (k, atom) in atoms.enumerated() {
            guard atom.isNumeric, k == atoms.count - 1 || !atom.hasScripts else { return .no }
        }
        return atoms[atoms.count - 1].unitWithScripts
    }

    /// A braced group becomes a single ordinary atom, as in TeX.
    static func groupAtom(_ items: [Item]) -> Atom {
        var atom = Atom(.ord, render(items, style: .text), unit: unit(of: items))
        if items.count == 1, case .atom(let only) = items[0], !only.hasScripts {
            atom.needsParensAsBase = only.needsParensAsBase
            atom.isNumeric = only.isNumeric
        }
        return atom
    }
}

// MARK: - Scripts

private enum Scripts {
    /// The script in Unicode form, or the parenthesized `^(…)`/`_(…)` form
    /// when any of its characters has no super/subscript counterpart.
    static func form(_ raw: String, superscript: Bool) -> String {
        if superscript, raw == "∘" { return "°" }
        let table = superscript ? superscripts : subscripts
        var out = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            guard let mapped = table[scalar] else {
                return (superscript ? "^(" : "_(") + raw + ")"
            }
            out.append(mapped)
        }
        return String(out)
    }

    static let superscripts: [Unicode.Scalar: Unicode.Scalar] = pairs(
        "0⁰1¹2²3³4⁴5⁵6⁶7⁷8⁸9⁹+⁺−⁻-⁻=⁼(⁽)⁾"
            + "aᵃbᵇcᶜdᵈeᵉfᶠgᵍhʰiⁱjʲkᵏlˡmᵐnⁿoᵒpᵖrʳsˢtᵗuᵘvᵛwʷxˣyʸzᶻ"
            + "AᴬBᴮDᴰEᴱGᴳHᴴIᴵJᴶKᴷLᴸMᴹNᴺOᴼPᴾRᴿTᵀUᵁVⱽWᵂ"
            // Already-raised glyphs keep their shape in a superscript.
            + "′′″″‴‴**∗*††‡‡")

    static let subscripts: [Unicode.Scalar: Unicode.Scalar] = pairs(
        "0₀1₁2₂3₃4₄5₅6₆7₇8₈9₉+₊−₋-₋=₌(₍)₎"
            + "aₐeₑhₕiᵢjⱼkₖlₗmₘnₙoₒpₚrᵣsₛtₜuᵤvᵥxₓ")

    /// Builds a map from a string of alternating (plain, mapped) scalars.
    static func pairs(_ spec: String) -> [Unicode.Scalar: Unicode.Scalar] {
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        var pending: Unicode.Scalar?
        for scalar in spec.unicodeScalars {
            if let key = pending {
                map[key] = scalar
                pending = nil
            } else {
                pending = scalar
            }
        }
        return map
    }
}

// MARK: - Parser

/// Recursive-descent parser from TeX source to atoms. Every failure returns
/// nil; recursion is bounded by `maxDepth` so pathological nesting (thousands
/// of braces, chains like `\sqrt\sqrt\sqrt…`) fails fast instead of
/// exhausting the stack.
private struct MathParser {
    enum Terminator { case end, brace, bracket }

    /// Generous for real formulas (each level of nesting costs one or two),
    /// small enough to stay far from stack limits on secondary threads.
    static let maxDepth = 48

    let s: [Unicode.Scalar]
    var i = 0
    var depth = 0

    init(_ scalars: [Unicode.Scalar]) { s = scalars }

    mutating func parseList(until terminator: Terminator) -> [Item]? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return nil }
        var items: [Item] = []
        // `\left` and `\right` must pair within one group, as in TeX.
        var openLefts = 0
        while i < s.count {
            let c = s[i]
            switch c {
            case " ", "\t", "\n", "\r", "\u{0C}":
                i += 1
            case "}":
                guard terminator == .brace, openLefts == 0 else { return nil }
                i += 1
                return items
            case "]" where terminator == .bracket:
                guard openLefts == 0 else { return nil }
                i += 1
                return items
            case "{":
                i += 1
                guard let inner = parseList(until: .brace) else { return nil }
                items.append(.atom(Layout.groupAtom(inner)))
            case "^", "_":
                i += 1
                guard let script = parseArgument() else { return nil }
                let raw = Layout.render(script, style: .script)
                guard attach(raw, superscript: c == "^", to: &items) else { return nil }
            case "'":
                i += 1
                if let k = lastAtomIndex(items), case .atom(var atom) = items[k] {
                    // TeX reads `x^2'` as a double superscript: an error.
                    guard atom.sup == nil else { return nil }
                    atom.primes += 1
                    items[k] = .atom(atom)
                } else {
                    items.append(.atom(Atom(.ord, "′")))
                }
            case "\\":
                guard parseCommand(into: &items, openLefts: &openLefts) else { return nil }
            case "~":
                i += 1
                items.append(.space(1))
            default:
                guard let atom = Self.characterAtom(c) else { return nil }
                i += 1
                items.append(.atom(atom))
            }
        }
        return terminator == .end && openLefts == 0 ? items : nil
    }

    /// A macro argument: a braced group or a single token.
    mutating func parseArgument() -> [Item]? {
        skipSpaces()
        guard i < s.count else { return nil }
        let c = s[i]
        switch c {
        case "{":
            i += 1
            return parseList(until: .brace)
        case "\\":
            var items: [Item] = []
            var openLefts = 0
            guard parseCommand(into: &items, openLefts: &openLefts), openLefts == 0 else { return nil }
            return items
        default:
            guard let atom = Self.characterAtom(c) else { return nil }
            i += 1
            return [.atom(atom)]
        }
    }

    private func lastAtomIndex(_ items: [Item]) -> Int? {
        guard let last = items.indices.last, case .atom = items[last] else { return nil }
        return last
    }

    /// Attaches a script to the preceding atom, or to an empty base when there
    /// is none (`{}^{14}C`, a script after an explicit space).
    private func attach(_ raw: String, superscript: Bool, to items: inout [Item]) -> Bool {
        var atom: Atom
        if let k = lastAtomIndex(items), case .atom(let last) = items[k] {
            atom = last
            items.removeLast()
        } else {
            atom = Atom(.ord, "", unit: .no)
        }
        if superscript {
            guard atom.sup == nil else { return false }  // double superscript
            atom.sup = raw
        } else {
            guard atom.sub == nil else { return false }  // double subscript
            atom.sub = raw
        }
        items.append(.atom(atom))
        return true
    }

    private mutating func skipSpaces() {
        while i < s.count, Self.isSpace(s[i]) { i += 1 }
    }

    // MARK: Commands

    mutating func parseCommand(into items: inout [Item], openLefts: inout Int) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return false }
        i += 1  // the backslash
        guard i < s.count else { return false }
        let name: String
        if Self.isLetter(s[i]) {
            let start = i
            while i < s.count, Self.isLetter(s[i]) { i += 1 }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: s[start..<i])
            name = String(view)
        } else {
            name = String(s[i])
            i += 1
        }

        if let symbol = Tables.symbols[name] {
            items.append(.atom(Atom(symbol.cls, symbol.text, unit: symbol.cls == .op ? .no : .plain)))
            return true
        }
        if let columns = Tables.spaces[name] {
            if columns > 0 { items.append(.space(columns)) }
            return true
        }
        if Tables.functionNames.contains(name) {
            items.append(.atom(Atom(.op, name, unit: .no)))
            return true
        }
        if let accent = Tables.accents[name] {
            guard let atom = parseAccent(accent, spanning: name == "overline") else { return false }
            items.append(.atom(atom))
            return true
        }
        if let font = Tables.letterFonts[name] {
            guard let text = parseLetterArgument(font) else { return false }
            items.append(.atom(Atom(.ord, text, unit: text.unicodeScalars.count == 1 ? .plain : .no)))
            return true
        }
        if Tables.plainFonts.contains(name) {
            // Bold, italic, sans and typewriter have Unicode forms, but using
            // them would make text unsearchable; the letters themselves carry
            // the meaning.
            guard let inner = parseArgument() else { return false }
            items.append(.atom(Layout.groupAtom(inner)))
            return true
        }
        if Tables.textCommands.contains(name) {
            guard let text = parseTextArgument() else { return false }
            appendText(text, to: &items)
            return true
        }
        if let delimiterClass = Tables.sizedDelimiters[name] {
            guard let delimiter = parseDelimiter() else { return false }
            items.append(.atom(Atom(delimiterClass ?? Tables.naturalClass(of: delimiter), delimiter)))
            return true
        }

        switch name {
        case "frac", "dfrac", "tfrac", "cfrac":
            guard let numerator = parseArgument(), let denominator = parseArgument() else { return false }
            items.append(.atom(fraction(numerator, denominator)))
        case "sqrt":
            guard let atom = parseRoot() else { return false }
            items.append(.atom(atom))
        case "operatorname":
            skipSpaces()
            if i < s.count, s[i] == "*" { i += 1 }
            guard let inner = parseArgument() else { return false }
            items.append(.atom(Atom(.op, Layout.render(inner, style: .text), unit: .no)))
        case "left":
            guard let delimiter = parseDelimiter() else { return false }
            openLefts += 1
            items.append(.atom(Atom(.open, delimiter)))
        case "right":
            guard openLefts > 0, let delimiter = parseDelimiter() else { return false }
            openLefts -= 1
            items.append(.atom(Atom(.close, delimiter)))
        case "middle":
            guard openLefts > 0, let delimiter = parseDelimiter() else { return false }
            items.append(.atom(Atom(.rel, delimiter)))
        case "not":
            guard let atom = parseNegation() else { return false }
            items.append(.atom(atom))
        case "pmod":
            guard let inner = parseArgument() else { return false }
            items.append(.space(1))
            items.append(.atom(Atom(.ord, "(mod " + Layout.render(inner, style: .text) + ")", unit: .no)))
        default:
            // Unknown commands, environments (`\begin`), `\\` and friends have
            // no faithful linear form.
            return false
        }
        return true
    }

    /// `a/b`, parenthesizing each side that does not read as one unit.
    private func fraction(_ numerator: [Item], _ denominator: [Item]) -> Atom {
        func side(_ items: [Item]) -> String {
            let text = Layout.render(items, style: .text)
            return Layout.unit(of: items) == .no ? "(" + text + ")" : text
        }
        var atom = Atom(.inner, side(numerator) + "/" + side(denominator), unit: .no)
        atom.needsParensAsBase = true
        return atom
    }

    /// `\sqrt{x}`, `\sqrt[3]{x}`. Cube and fourth roots have their own signs;
    /// other indices are written as a superscript before the sign, and an
    /// index with no superscript form makes the whole root unrenderable.
    private mutating func parseRoot() -> Atom? {
        skipSpaces()
        var sign = "√"
        if i < s.count, s[i] == "[" {
            i += 1
            guard let index = parseList(until: .bracket) else { return nil }
            let raw = Layout.render(index, style: .script)
            switch raw {
            case "", "2": break
            case "3": sign = "∛"
            case "4": sign = "∜"
            default:
                let raised = Scripts.form(raw, superscript: true)
                guard !raised.hasPrefix("^(") else { return nil }
                sign = raised + "√"
            }
        }
        guard let radicand = parseArgument() else { return nil }
        let text = Layout.render(radicand, style: .text)
        let bare = Layout.unit(of: radicand) == .plain
        var atom = Atom(.ord, sign + (bare ? text : "(" + text + ")"))
        atom.needsParensAsBase = true
        return atom
    }

    /// Accents become combining marks, which only read correctly on a single
    /// base character; `\overline` is the exception because a run of
    /// combining overlines joins into one continuous bar.
    private mutating func parseAccent(_ mark: Unicode.Scalar, spanning: Bool) -> Atom? {
        guard let inner = parseArgument() else { return nil }
        // A script under the mark would end up between the base and its accent.
        for item in inner {
            guard case .atom(let atom) = item, !atom.hasScripts else { return nil }
        }
        let scalars = Layout.render(inner, style: .text).unicodeScalars
        guard !scalars.isEmpty else { return nil }
        guard spanning || scalars.count == 1 else { return nil }
        var out = String.UnicodeScalarView()
        for scalar in scalars {
            guard !Self.isSpace(scalar) else { return nil }
            out.append(scalar)
            out.append(mark)
        }
        return Atom(.ord, String(out), unit: scalars.count == 1 ? .plain : .no)
    }

    /// `\not` before a relation: the precomposed negation when Unicode has
    /// one, otherwise the relation with a combining long solidus.
    private mutating func parseNegation() -> Atom? {
        guard let inner = parseArgument(), inner.count == 1, case .atom(let relation) = inner[0],
            !relation.hasScripts, relation.text.unicodeScalars.count == 1,
            let scalar = relation.text.unicodeScalars.first
        else { return nil }
        if let negated = Tables.negations[scalar] { return Atom(.rel, String(negated)) }
        return Atom(.rel, relation.text + "\u{0338}")
    }

    /// The delimiter after `\left`, `\right`, `\big`, …; `.` is the empty one.
    private mutating func parseDelimiter() -> String? {
        skipSpaces()
        guard i < s.count else { return nil }
        let c = s[i]
        if c == "\\" {
            let start = i + 1
            var end = start
            if end < s.count, Self.isLetter(s[end]) {
                while end < s.count, Self.isLetter(s[end]) { end += 1 }
            } else {
                end = min(start + 1, s.count)
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: s[start..<end])
            guard let delimiter = Tables.namedDelimiters[String(view)] else { return nil }
            i = end
            return delimiter
        }
        i += 1
        switch c {
        case "(", ")", "[", "]", "|", "/": return String(c)
        case ".": return ""
        case "<": return "⟨"
        case ">": return "⟩"
        default: return nil
        }
    }

    /// Arguments of `\mathbb`, `\mathcal`, `\mathfrak`: letters and digits
    /// only, since those alphabets exist for nothing else.
    private mutating func parseLetterArgument(_ font: LetterFont) -> String? {
        skipSpaces()
        guard i < s.count else { return nil }
        var out = String.UnicodeScalarView()
        if s[i] != "{" {
            guard let mapped = font.map(s[i]) else { return nil }
            i += 1
            return String(mapped)
        }
        i += 1
        while i < s.count {
            let c = s[i]
            i += 1
            if c == "}" { return out.isEmpty ? nil : String(out) }
            if Self.isSpace(c) { continue }
            guard let mapped = font.map(c) else { return nil }
            out.append(mapped)
        }
        return nil
    }

    /// The argument of `\text{…}` and friends, read in text mode: spaces are
    /// kept (runs collapse, as TeX does), inner braces only group, and the
    /// only commands allowed are escaped specials. Scanned iteratively, so
    /// nested braces cost no stack.
    private mutating func parseTextArgument() -> String? {
        skipSpaces()
        guard i < s.count else { return nil }
        if s[i] != "{" {
            let c = s[i]
            guard !Self.isSpecial(c), c != "}" else { return nil }
            i += 1
            return String(c)
        }
        i += 1
        var out = String.UnicodeScalarView()
        var nesting = 1
        var lastWasSpace = false
        while i < s.count {
            let c = s[i]
            var emitted: Unicode.Scalar?
            switch c {
            case "{":
                nesting += 1
                i += 1
            case "}":
                nesting -= 1
                i += 1
                if nesting == 0 { return String(out) }
            case "\\":
                guard i + 1 < s.count else { return nil }
                let next = s[i + 1]
                switch next {
                case "{", "}", "_", "%", "&", "$", "#": emitted = next
                case " ", "\t", "\n", "\r": emitted = " "
                default: return nil  // commands inside text are out of scope
                }
                i += 2
            case "$", "^", "_", "&", "#", "%":
                return nil  // math shifts and specials inside text
            case "~":
                emitted = " "
                i += 1
            case "-":
                // TeX's text-mode ligatures: -- is an en dash, --- an em dash.
                var run = 1
                while i + run < s.count, s[i + run] == "-", run < 3 { run += 1 }
                emitted = run == 3 ? "—" : run == 2 ? "–" : "-"
                i += run
            default:
                if Self.isSpace(c) {
                    emitted = " "
                } else {
                    guard c.value >= 0x20, c.value != 0x7F else { return nil }
                    emitted = c
                }
                i += 1
            }
            if let scalar = emitted {
                let isSpace = scalar == " "
                if !(isSpace && lastWasSpace) { out.append(scalar) }
                lastWasSpace = isSpace
            }
        }
        return nil
    }

    /// Text becomes one ordinary atom; its outer spaces become explicit space
    /// items so they merge with the spacing around it instead of doubling.
    private func appendText(_ text: String, to items: inout [Item]) {
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, scalars[start] == " " { start += 1 }
        while end > start, scalars[end - 1] == " " { end -= 1 }
        guard start < end else {
            if !scalars.isEmpty { items.append(.space(1)) }
            return
        }
        var core = String.UnicodeScalarView()
        core.append(contentsOf: scalars[start..<end])
        if start > 0 { items.append(.space(1)) }
        items.append(.atom(Atom(.ord, String(core), unit: end - start == 1 ? .plain : .no)))
        if end < scalars.count { items.append(.space(1)) }
    }

    // MARK: Characters

    static func isLetter(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
    }

    static func isSpecial(_ c: Unicode.Scalar) -> Bool {
        c == "\\" || c == "{" || c == "$" || c == "&" || c == "#" || c == "^" || c == "_" || c == "%"
    }

    /// The atom for a literal character in math mode, with TeX's class.
    static func characterAtom(_ c: Unicode.Scalar) -> Atom? {
        switch c {
        case "0"..."9", ".":
            var atom = Atom(.ord, String(c))
            atom.isNumeric = true
            return atom
        case "+": return Atom(.bin, "+")
        // TeX typesets a hyphen in math as a minus sign, and `*` as an asterisk operator.
        case "-": return Atom(.bin, "−")
        case "*": return Atom(.bin, "∗")
        case "=", "<", ">", ":": return Atom(.rel, String(c))
        case "(", "[": return Atom(.open, String(c))
        case ")", "]", "!", "?": return Atom(.close, String(c))
        case ",", ";": return Atom(.punct, String(c))
        // Specials that only mean something inside environments or text.
        case "&", "#", "$", "%", "^", "_", "\\", "{", "}": return nil
        default:
            guard c.value >= 0x20, c.value != 0x7F, !(0x80..<0xA0).contains(c.value) else { return nil }
            // Source that already contains `≤` or `×` should space like `\le` or `\times`.
            return Atom(Tables.glyphClasses[c] ?? .ord, String(c))
        }
    }
}

// MARK: - Tables

/// A styled alphabet: Unicode placed most of each one in the Mathematical
/// Alphanumeric Symbols block but had already encoded some letters in
/// Letterlike Symbols (ℝ, ℒ, ℭ, …), leaving holes that must be filled from there.
private struct LetterFont: Sendable {
    var capitals: UInt32
    var smalls: UInt32
    var digits: UInt32?
    var exceptions: [Unicode.Scalar: Unicode.Scalar]

    func map(_ c: Unicode.Scalar) -> Unicode.Scalar? {
        if let special = exceptions[c] { return special }
        let v = c.value
        switch c {
        case "A"..."Z": return Unicode.Scalar(capitals + v - 0x41)
        case "a"..."z": return Unicode.Scalar(smalls + v - 0x61)
        case "0"..."9": return digits.flatMap { Unicode.Scalar($0 + v - 0x30) }
        default: return nil
        }
    }
}

private struct Symbol: Sendable {
    var cls: AtomClass
    var text: String
}

private enum Tables {
    static let symbols: [String: Symbol] = {
        var table: [String: Symbol] = [:]
        // Each spec is "name glyph name glyph …"; one class per spec.
        func add(_ cls: AtomClass, _ spec: String) {
            let words = spec.split(separator: " ")
            var k = 0
            while k + 1 < words.count {
                table[String(words[k])] = Symbol(cls: cls, text: String(words[k + 1]))
                k += 2
            }
        }
        add(.ord, """
            alpha α beta β gamma γ delta δ epsilon ϵ varepsilon ε zeta ζ eta η theta θ \
            vartheta ϑ iota ι kappa κ varkappa ϰ lambda λ mu μ nu ν xi ξ omicron ο pi π \
            varpi ϖ rho ρ varrho ϱ sigma σ varsigma ς tau τ upsilon υ phi ϕ varphi φ \
            chi χ psi ψ omega ω Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ \
            Upsilon Υ Phi Φ Psi Ψ Omega Ω digamma ϝ
            """)
        add(.ord, """
            infty ∞ partial ∂ nabla ∇ forall ∀ exists ∃ nexists ∄ emptyset ∅ varnothing ∅ \
            ldots … dots … dotsc … dotso … cdots ⋯ dotsb ⋯ dotsm ⋯ dotsi ⋯ vdots ⋮ ddots ⋱ \
            prime ′ angle ∠ triangle △ hbar ℏ hslash ℏ ell ℓ Re ℜ Im ℑ aleph ℵ beth ℶ wp ℘ \
            top ⊤ bot ⊥ neg ¬ lnot ¬ degree ° checkmark ✓ square □ Box □ blacksquare ■ \
            surd √ imath ı jmath ȷ S § P ¶ % % $ $ # # & & _ _ | ‖ Vert ‖ vert | \
            backslash \\ clubsuit ♣ diamondsuit ♢ heartsuit ♡ spadesuit ♠ flat ♭ natural ♮ \
            sharp ♯ mho ℧ complement ∁ therefore ∴ because ∵ qed ∎ bigstar ★
            """)
        add(.op, """
            sum ∑ prod ∏ coprod ∐ int ∫ iint ∬ iiint ∭ oint ∮ oiint ∯ bigcup ⋃ bigcap ⋂ \
            bigoplus ⨁ bigotimes ⨂ bigodot ⨀ bigvee ⋁ bigwedge ⋀ bigsqcup ⨆ biguplus ⨄
            """)
        add(.bin, """
            times × cdot ⋅ pm ± mp ∓ div ÷ cup ∪ cap ∩ setminus ∖ smallsetminus ∖ wedge ∧ \
            land ∧ vee ∨ lor ∨ oplus ⊕ ominus ⊖ otimes ⊗ oslash ⊘ odot ⊙ circ ∘ bullet ∙ \
            star ⋆ ast ∗ dagger † ddagger ‡ sqcup ⊔ sqcap ⊓ uplus ⊎ amalg ⨿ wr ≀ diamond ⋄ \
            bmod mod ltimes ⋉ rtimes ⋊ bigtriangleup △ bigtriangledown ▽
            """)
        add(.rel, """
            leq ≤ le ≤ geq ≥ ge ≥ neq ≠ ne ≠ approx ≈ equiv ≡ sim ∼ simeq ≃ cong ≅ \
            propto ∝ in ∈ notin ∉ ni ∋ owns ∋ subset ⊂ subseteq ⊆ supset ⊃ supseteq ⊇ \
            subsetneq ⊊ supsetneq ⊋ nsubseteq ⊈ nsupseteq ⊉ sqsubseteq ⊑ sqsupseteq ⊒ \
            ll ≪ gg ≫ prec ≺ succ ≻ preceq ⪯ succeq ⪰ perp ⊥ parallel ∥ nparallel ∦ mid ∣ \
            nmid ∤ models ⊨ vdash ⊢ dashv ⊣ asymp ≍ doteq ≐ coloneqq ≔ eqqcolon ≕ \
            leqslant ⩽ geqslant ⩾ lesssim ≲ gtrsim ≳ nleq ≰ ngeq ≱ nless ≮ ngtr ≯ \
            ncong ≇ nsim ≁ approxeq ≊ triangleq ≜ bowtie ⋈ smile ⌣ frown ⌢ \
            to → rightarrow → leftarrow ← gets ← Rightarrow ⇒ Leftarrow ⇐ Leftrightarrow ⇔ \
            leftrightarrow ↔ mapsto ↦ longmapsto ⟼ implies ⟹ impliedby ⟸ iff ⟺ \
            longrightarrow ⟶ longleftarrow ⟵ longleftrightarrow ⟷ Longrightarrow ⟹ \
            Longleftarrow ⟸ Longleftrightarrow ⟺ uparrow ↑ downarrow ↓ updownarrow ↕ \
            Uparrow ⇑ Downarrow ⇓ Updownarrow ⇕ nearrow ↗ searrow ↘ swarrow ↙ nwarrow ↖ \
            hookrightarrow ↪ hookleftarrow ↩ rightharpoonup ⇀ leftharpoonup ↼ \
            rightleftharpoons ⇌ leadsto ⇝ twoheadrightarrow ↠ rightrightarrows ⇉ \
            leftleftarrows ⇇ nrightarrow ↛ nleftarrow ↚ nRightarrow ⇏ nLeftrightarrow ⇎
            """)
        add(.open, "{ { lbrace { langle ⟨ lfloor ⌊ lceil ⌈ lvert | lVert ‖ lbrack [")
        add(.close, "} } rbrace } rangle ⟩ rfloor ⌋ rceil ⌉ rvert | rVert ‖ rbrack ]")
        add(.punct, "colon : ldotp . cdotp ·")
        return table
    }()

    /// The class of each non-ASCII glyph the symbol table produces, for
    /// formulas that use the character directly. Glyphs that appear under
    /// more than one class (`‖`, `⊥`, `△`) stay ordinary, as TeX would treat
    /// an unknown character.
    static let glyphClasses: [Unicode.Scalar: AtomClass] = {
        var classes: [Unicode.Scalar: AtomClass] = [:]
        var ambiguous: Set<Unicode.Scalar> = []
        for symbol in symbols.values {
            let scalars = symbol.text.unicodeScalars
            guard scalars.count == 1, let glyph = scalars.first, !glyph.isASCII else { continue }
            if let existing = classes[glyph], existing != symbol.cls { ambiguous.insert(glyph) }
            classes[glyph] = symbol.cls
        }
        classes["−"] = .bin
        for glyph in ambiguous { classes[glyph] = nil }
        return classes.filter { $0.value != .ord }
    }()

    /// Spacing commands, in columns. A thin space still gets a whole column
    /// because it separates things (`f(x)\,dx`); `\!` only tightens, so it
    /// disappears. Style switches and limit placement have no linear effect.
    static let spaces: [String: Int] = [
        ",": 1, ":": 1, ">": 1, ";": 1, " ": 1, "\t": 1, "\n": 1, "\r": 1,
        "enspace": 1, "thinspace": 1, "medspace": 1, "thickspace": 1,
        "quad": 2, "qquad": 4, "!": 0, "negthinspace": 0,
        "limits": 0, "nolimits": 0, "displaystyle": 0, "textstyle": 0,
        "scriptstyle": 0, "scriptscriptstyle": 0,
    ]

    static let functionNames: Set<String> = [
        "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan",
        "sinh", "cosh", "tanh", "coth", "log", "ln", "lg", "exp", "max", "min",
        "sup", "inf", "lim", "limsup", "liminf", "det", "dim", "ker", "gcd", "deg",
        "arg", "hom", "Pr",
    ]

    static let accents: [String: Unicode.Scalar] = [
        "hat": "\u{0302}", "widehat": "\u{0302}", "check": "\u{030C}", "tilde": "\u{0303}",
        "widetilde": "\u{0303}", "acute": "\u{0301}", "grave": "\u{0300}", "dot": "\u{0307}",
        "ddot": "\u{0308}", "breve": "\u{0306}", "bar": "\u{0304}", "vec": "\u{20D7}",
        "overline": "\u{0305}", "mathring": "\u{030A}",
    ]

    static let letterFonts: [String: LetterFont] = {
        let doubleStruck = LetterFont(
            capitals: 0x1D538, smalls: 0x1D552, digits: 0x1D7D8,
            exceptions: ["C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"])
        let script = LetterFont(
            capitals: 0x1D49C, smalls: 0x1D4B6, digits: nil,
            exceptions: [
                "B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ",
                "e": "ℯ", "g": "ℊ", "o": "ℴ",
            ])
        let fraktur = LetterFont(
            capitals: 0x1D504, smalls: 0x1D51E, digits: nil,
            exceptions: ["C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"])
        return ["mathbb": doubleStruck, "mathcal": script, "mathscr": script, "mathfrak": fraktur]
    }()

    static let plainFonts: Set<String> = [
        "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "mathnormal", "boldsymbol", "bm",
    ]

    static let textCommands: Set<String> = [
        "text", "textrm", "textit", "textbf", "textsf", "texttt", "textnormal", "mbox",
    ]

    /// Sizing commands before a delimiter; nil means "use the delimiter's own class".
    static let sizedDelimiters: [String: AtomClass?] = [
        "big": nil, "Big": nil, "bigg": nil, "Bigg": nil,
        "bigl": .open, "Bigl": .open, "biggl": .open, "Biggl": .open,
        "bigr": .close, "Bigr": .close, "biggr": .close, "Biggr": .close,
        "bigm": .rel, "Bigm": .rel, "biggm": .rel, "Biggm": .rel,
    ]

    static let namedDelimiters: [String: String] = [
        "{": "{", "}": "}", "|": "‖", "lbrace": "{", "rbrace": "}", "langle": "⟨",
        "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
        "vert": "|", "Vert": "‖", "lvert": "|", "rvert": "|", "lVert": "‖", "rVert": "‖",
        "backslash": "\\", "uparrow": "↑", "downarrow": "↓", "updownarrow": "↕",
        "Uparrow": "⇑", "Downarrow": "⇓", "lbrack": "[", "rbrack": "]",
    ]

    static func naturalClass(of delimiter: String) -> AtomClass {
        switch delimiter {
        case "(", "[", "{", "⟨", "⌊", "⌈": return .open
        case ")", "]", "}", "⟩", "⌋", "⌉": return .close
        default: return .ord
        }
    }

    static let negations: [Unicode.Scalar: Unicode.Scalar] = [
        "=": "≠", "<": "≮", ">": "≯", "≤": "≰", "≥": "≱", "∈": "∉", "∋": "∌", "⊂": "⊄",
        "⊃": "⊅", "⊆": "⊈", "⊇": "⊉", "≡": "≢", "∼": "≁", "≈": "≉", "≅": "≇", "∣": "∤",
        "∥": "∦", "→": "↛", "←": "↚", "⇒": "⇏", "⇔": "⇎", "↔": "↮", "≃": "≄",
    ]
}
