/// Helpers for handing TeX math source to native typesetters.
///
/// SwiftMath and iosMath implement a useful but strict subset of LaTeX math.
/// Language models routinely write amsmath idioms (`\dfrac`, `\implies`,
/// `\begin{cases}`, `\boxed{…}`) that those engines reject outright, so a whole
/// formula fails over one command. ``normalizedForNativeTypesetting(_:)``
/// rewrites the idioms that have an exact or near-exact equivalent in the
/// supported subset and leaves everything else byte-for-byte alone.
public enum MathSource {
    /// TeX rewritten into the subset SwiftMath / iosMath accept.
    ///
    /// The rewrite is token-aware: a control word ends at the first non-letter,
    /// so `\dotsc` is one token and is never mistaken for `\dots` + `c`.
    ///
    /// - `\dots`, `\dotsc`, `\dotsb`, `\dotso` → `\ldots`; `\dotsm`, `\dotsi` → `\cdots`
    /// - `\implies` → `\Rightarrow`, `\impliedby` → `\Leftarrow`, `\iff` → `\Leftrightarrow`
    /// - `\dfrac`, `\tfrac` → `\frac`; `\operatorname{…}` (and `\operatorname*`) → `\mathrm{…}`
    /// - `\boxed{x}` → `x` when the braces balance
    /// - `\begin{align}`/`\begin{align*}` → `\begin{aligned}` (with its matching `\end`)
    /// - `\begin{cases} … \end{cases}` → `\left\{ \begin{matrix} … \end{matrix} \right.`
    ///
    /// Environments are only rewritten when both ends are present, so a
    /// half-streamed formula never gains a dangling `\right.`. The arguments of
    /// text-mode commands (`\text{…}`, `\mbox{…}`, …) are copied untouched.
    public static func normalizedForNativeTypesetting(_ tex: String) -> String {
        let structure = TeXStructure(Array(tex.unicodeScalars))
        return structure.normalized()
    }

    /// Whether `tex` is structurally complete enough to be worth typesetting.
    ///
    /// Returns false when braces are unbalanced, when a `\begin{X}` has no
    /// matching `\end{X}` (or an `\end` has no `\begin`), when `\left` and
    /// `\right` do not pair up, or when the source ends in a lone backslash —
    /// all of which are typical of a formula that is still being streamed.
    /// True does not promise the typesetter knows every command.
    public static func isLikelyRenderable(_ tex: String) -> Bool {
        TeXStructure(Array(tex.unicodeScalars)).isStructurallyComplete
    }
}

/// One scan over TeX source that records how braces, environments and
/// `\left`/`\right` pair up. Both public entry points need the same pairing,
/// and computing it up front lets the rewrite run as a single linear pass
/// with no recursion (so deeply nested input cannot exhaust the stack).
private struct TeXStructure {
    struct Environment {
        var name: String
        /// Index just past the `}` that closes the environment name.
        var end: Int
    }

    let scalars: [Unicode.Scalar]
    /// Position of each `{` → position of its matching `}`.
    private(set) var braceMatch: [Int: Int] = [:]
    /// Position of each `\begin` / `\end` token with a well-formed name.
    private(set) var environments: [Int: Environment] = [:]
    /// Position of each paired `\begin` → position of its `\end`.
    private(set) var environmentMatch: [Int: Int] = [:]
    private(set) var isStructurallyComplete = true

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        scan()
    }

    private mutating func scan() {
        let count = scalars.count
        // Each open brace remembers whether it opened a text-mode argument;
        // environment and \left/\right tokens inside text mode are just text.
        var braceStack: [(position: Int, isText: Bool)] = []
        var textDepth = 0
        var textArgumentPending = false
        var openEnvironments: [(name: String, position: Int)] = []
        var leftBalance = 0
        var i = 0
        while i < count {
            let c = scalars[i]
            if c == "\\" {
                let end = Self.commandEnd(scalars, at: i)
                guard end > i + 1 else {
                    // A lone trailing backslash: the next token has not arrived yet.
                    isStructurallyComplete = false
                    break
                }
                textArgumentPending = false
                let name = Self.commandName(scalars, from: i, to: end)
                if textDepth == 0 {
                    switch name {
                    case "begin", "end":
                        guard let (envName, envEnd) = Self.environmentName(scalars, after: end) else {
                            isStructurallyComplete = false
                            i = end
                            continue
                        }
                        environments[i] = Environment(name: envName, end: envEnd)
                        if name == "begin" {
                            openEnvironments.append((envName, i))
                        } else if let k = openEnvironments.lastIndex(where: { $0.name == envName }) {
                            // Anything opened after the match was never closed.
                            if k != openEnvironments.count - 1 { isStructurallyComplete = false }
                            environmentMatch[openEnvironments[k].position] = i
                            openEnvironments.removeSubrange(k...)
                        } else {
                            isStructurallyComplete = false
                        }
                        i = envEnd
                        continue
                    case "left":
                        leftBalance += 1
                    case "right":
                        leftBalance -= 1
                        if leftBalance < 0 { isStructurallyComplete = false; leftBalance = 0 }
                    default:
                        break
                    }
                }
                if Self.textCommands.contains(name) { textArgumentPending = true }
                i = end
                continue
            }
            switch c {
            case "{":
                braceStack.append((i, textArgumentPending))
                if textArgumentPending { textDepth += 1 }
                textArgumentPending = false
            case "}":
                if let open = braceStack.popLast() {
                    braceMatch[open.position] = i
                    if open.isText { textDepth -= 1 }
                } else {
                    isStructurallyComplete = false
                }
                textArgumentPending = false
            case " ", "\t", "\n", "\r":
                break  // TeX skips spaces between a command and its argument.
            default:
                textArgumentPending = false
            }
            i += 1
        }
        if !braceStack.isEmpty || !openEnvironments.isEmpty || leftBalance != 0 {
            isStructurallyComplete = false
        }
    }

    func normalized() -> String {
        let count = scalars.count
        var out = String.UnicodeScalarView()
        out.reserveCapacity(count)
        // Replacements that must happen later in the scan, keyed by position:
        // the `}` that closes a `\boxed{`, or the `\end{…}` of a rewritten
        // environment. `resume` is where scanning continues afterwards.
        var deferred: [Int: (text: String, resume: Int)] = [:]
        var i = 0
        while i < count {
            if let pending = deferred.removeValue(forKey: i) {
                out.appendEach(pending.text.unicodeScalars)
                i = pending.resume
                continue
            }
            let c = scalars[i]
            let end = c == "\\" ? Self.commandEnd(scalars, at: i) : i + 1
            guard c == "\\", end > i + 1, Self.isLetter(scalars[i + 1]) else {
                // Plain characters and control symbols (`\,`, `\{`, `\\`) pass through.
                out.appendEach(scalars[i..<end])
                i = end
                continue
            }
            let name = Self.commandName(scalars, from: i, to: end)
            if let replacement = Self.renamedCommands[name] {
                out.appendEach(replacement.unicodeScalars)
                i = end
                continue
            }
            switch name {
            case "operatorname":
                out.appendEach("\\mathrm".unicodeScalars)
                // `\operatorname*` only changes limit placement, which
                // `\mathrm` has no notion of, so the star is dropped.
                i = end < count && scalars[end] == "*" ? end + 1 : end
            case "boxed":
                let j = Self.skipSpaces(scalars, from: end)
                if j < count, scalars[j] == "{", let close = braceMatch[j] {
                    deferred[close] = ("", close + 1)
                    i = j + 1
                } else {
                    out.appendEach(scalars[i..<end])
                    i = end
                }
            case "begin":
                guard let env = environments[i] else {
                    out.appendEach(scalars[i..<end])
                    i = end
                    continue
                }
                if let endPosition = environmentMatch[i], let endEnv = environments[endPosition],
                    let rewrite = Self.environmentRewrites[env.name]
                {
                    out.appendEach(rewrite.begin.unicodeScalars)
                    deferred[endPosition] = (rewrite.end, endEnv.end)
                } else {
                    out.appendEach(scalars[i..<env.end])
                }
                i = env.end
            default:
                out.appendEach(scalars[i..<end])
                i = end
                if Self.textCommands.contains(name) {
                    // Text-mode arguments are prose, not math: copy them verbatim.
                    let j = Self.skipSpaces(scalars, from: end)
                    if j < count, scalars[j] == "{", let close = braceMatch[j] {
                        out.appendEach(scalars[end...close])
                        i = close + 1
                    }
                }
            }
        }
        return String(out)
    }

    // MARK: Tables

    private static let renamedCommands: [String: String] = [
        "dots": "\\ldots", "dotsc": "\\ldots", "dotsb": "\\ldots", "dotso": "\\ldots",
        "dotsm": "\\cdots", "dotsi": "\\cdots",
        "implies": "\\Rightarrow", "impliedby": "\\Leftarrow", "iff": "\\Leftrightarrow",
        "dfrac": "\\frac", "tfrac": "\\frac",
    ]

    private static let environmentRewrites: [String: (begin: String, end: String)] = [
        // `aligned` is the inner form of `align` that the native engines know.
        "align": ("\\begin{aligned}", "\\end{aligned}"),
        "align*": ("\\begin{aligned}", "\\end{aligned}"),
        // A matrix behind a stretchy left brace draws the same picture as `cases`.
        "cases": ("\\left\\{ \\begin{matrix}", "\\end{matrix} \\right."),
    ]

    private static let textCommands: Set<String> = [
        "text", "textrm", "textit", "textbf", "textsf", "texttt", "textnormal", "mbox",
    ]

    // MARK: Scanning primitives

    static func isLetter(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
    }

    /// Index just past the control sequence starting at the backslash at `i`:
    /// a control word runs to the first non-letter, a control symbol is one
    /// character. Returns `i + 1` for a backslash at the very end.
    static func commandEnd(_ s: [Unicode.Scalar], at i: Int) -> Int {
        var j = i + 1
        guard j < s.count else { return j }
        guard isLetter(s[j]) else { return j + 1 }
        while j < s.count, isLetter(s[j]) { j += 1 }
        return j
    }

    static func commandName(_ s: [Unicode.Scalar], from i: Int, to end: Int) -> String {
        var view = String.UnicodeScalarView()
        view.appendEach(s[(i + 1)..<end])
        return String(view)
    }

    static func skipSpaces(_ s: [Unicode.Scalar], from i: Int) -> Int {
        var j = i
        while j < s.count, s[j] == " " || s[j] == "\t" || s[j] == "\n" || s[j] == "\r" { j += 1 }
        return j
    }

    /// Parses `{name}` after `\begin`/`\end`. Environment names are letters with
    /// an optional trailing star; anything else means the source is malformed
    /// or still streaming, and the token is left alone.
    static func environmentName(_ s: [Unicode.Scalar], after i: Int) -> (String, Int)? {
        var j = skipSpaces(s, from: i)
        guard j < s.count, s[j] == "{" else { return nil }
        j += 1
        var name = String.UnicodeScalarView()
        while j < s.count, s[j] != "}" {
            guard isLetter(s[j]) || s[j] == "*" else { return nil }
            name.append(s[j])
            j += 1
        }
        guard j < s.count, !name.isEmpty else { return nil }
        return (String(name), j + 1)
    }
}

extension String.UnicodeScalarView {
    /// Appends scalar by scalar. Many short bulk `append(contentsOf:)` calls
    /// measured quadratic-looking on long input, while single appends stay linear.
    fileprivate mutating func appendEach<S: Sequence<Unicode.Scalar>>(_ scalars: S) {
        for scalar in scalars { append(scalar) }
    }
}
