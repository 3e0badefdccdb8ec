import CTreeSitter
import Foundation
import Tidemark

/// Highlights fenced code with tree-sitter grammars installed by
/// `scripts/install-grammars.sh`, and diffs with a small line-based
/// highlighter of our own.
///
/// Grammars load lazily, the first time a language is asked for, and stay
/// loaded. Every failure — unknown language, missing grammar directory or
/// file, incompatible grammar, query that will not compile, parser timeout,
/// oversized input — yields `nil`, which tells the renderer to show plain
/// code. Nothing here throws or traps on bad input.
///
/// Thread-safe: grammars and compiled queries are shared read-only; each call
/// creates its own parser and query cursor (about 20 µs).
public final class TreeSitterHighlighter: CodeHighlighter, Sendable {
    /// The process-wide highlighter over the default grammar directory.
    public static let shared = TreeSitterHighlighter()

    /// Where `<language>/parser.so` and `<language>/highlights.scm` live.
    public let grammarDirectory: String
    /// Inputs above this size are not highlighted: parse and query time grow
    /// linearly, and a multi-megabyte fence is data, not code to read.
    public let maxInputBytes: Int
    /// Per-parse time limit; a parse that runs over it gives plain code.
    /// Some grammars loop in error recovery on broken code until the limit
    /// (tree-sitter-swift 0.0.1 on `{ b c(d) {\n co`). So that a code block
    /// streaming in does not stall every render for the whole limit, the
    /// last few texts that timed out are remembered: a text that starts with
    /// one of them (the same language) and is shorter than twice it gives
    /// nil at once, without a parse.
    public let parseTimeoutMicros: UInt64

    private let grammars = Locked<[String: GrammarSlot]>([:])
    private let regexes = RegexCache()
    /// The last (at most 8) texts whose parse timed out.
    private let timedOut = Locked<[ResultCache.Key]>([])
    /// Parses started (for tests).
    let parseCount = Locked(0)
    let cache: ResultCache

    /// - Parameters:
    ///   - grammarDirectory: defaults to `$TIDEMARK_GRAMMARS_DIR`, else
    ///     `$HOME/.cache/tidemark/grammars` (where the installer writes).
    ///   - cacheCapacity: how many (language, code) results to keep.
    public init(
        grammarDirectory: String? = nil,
        cacheCapacity: Int = 256,
        maxInputBytes: Int = 2 * 1024 * 1024,
        parseTimeoutMicros: UInt64 = 2_000_000
    ) {
        self.grammarDirectory = grammarDirectory ?? TreeSitterHighlighter.defaultGrammarDirectory()
        self.maxInputBytes = maxInputBytes
        self.parseTimeoutMicros = parseTimeoutMicros
        cache = ResultCache(capacity: cacheCapacity)
    }

    /// `$TIDEMARK_GRAMMARS_DIR`, else `$HOME/.cache/tidemark/grammars`.
    public static func defaultGrammarDirectory() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["TIDEMARK_GRAMMARS_DIR"], !configured.isEmpty {
            return configured
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/tidemark/grammars"
    }

    /// The canonical name for an info-string word (`py` → `python`), or nil
    /// when the language is not one we know.
    public static func canonicalLanguage(_ language: String) -> String? {
        LanguageCatalog.canonicalName(for: language)
    }

    // MARK: CodeHighlighter

    public func highlight(_ code: String, language: String) -> [HighlightSpan]? {
        guard let canonical = LanguageCatalog.canonicalName(for: language) else { return nil }
        if canonical == "diff" { return DiffHighlighter.highlight(code) }
        guard code.utf8.count <= maxInputBytes, let grammar = grammar(named: canonical) else { return nil }
        if code.isEmpty { return [] }
        let key = ResultCache.Key(language: canonical, code: Array(code.utf8))
        if let cached = cache.value(for: key) { return cached }
        if extendsTimedOutText(key) { return nil }
        guard let spans = highlight(code, with: grammar) else {
            recordTimeout(key)
            return nil
        }
        cache.insert(spans, for: key)
        return spans
    }

    /// Whether `key`'s code starts with a text of the same language whose
    /// parse timed out and is shorter than twice it (see `parseTimeoutMicros`).
    private func extendsTimedOutText(_ key: ResultCache.Key) -> Bool {
        timedOut.withLock { entries in
            entries.contains { $0.language == key.language && growsFromTimedOut(key.code, $0.code) }
        }
    }

    private func recordTimeout(_ key: ResultCache.Key) {
        timedOut.withLock { entries in
            // A longer text that timed out replaces the ones it extends.
            entries.removeAll { $0.language == key.language && key.code.starts(with: $0.code) }
            entries.append(key)
            if entries.count > 8 { entries.removeFirst(entries.count - 8) }
        }
    }

    /// Canonical names of the languages that can be highlighted right now:
    /// grammars whose files are installed, plus the built-in diff.
    public func installedLanguages() -> [String] {
        let files = FileManager.default
        let grammars = LanguageCatalog.treeSitterLanguages.filter { name in
            let folder = grammarDirectory + "/" + name
            return files.isReadableFile(atPath: folder + "/parser.so")
                && files.isReadableFile(atPath: folder + "/highlights.scm")
        }
        return grammars + LanguageCatalog.builtInLanguages
    }

    /// Whether `language` resolves and its grammar loads (loading it if needed).
    public func supports(language: String) -> Bool {
        guard let canonical = LanguageCatalog.canonicalName(for: language) else { return false }
        return canonical == "diff" || grammar(named: canonical) != nil
    }

    /// Loads the grammars of `languages` now, so the first fence of each
    /// does not pay for it. Compiling Swift's query alone takes a few hundred
    /// milliseconds, so a renderer may call this from a background task at
    /// start-up. Unknown names are ignored.
    public func preload(_ languages: [String]) {
        for language in languages {
            guard let canonical = LanguageCatalog.canonicalName(for: language), canonical != "diff" else { continue }
            _ = grammar(named: canonical)
        }
    }

    /// A session for incrementally highlighting one growing code block.
    public func session(for language: String) -> HighlightSession {
        HighlightSession(language: language, highlighter: self)
    }

    // MARK: Internals

    /// The loaded grammar for a canonical name, loading it on first use.
    /// Loading one language (Swift's query takes a few hundred ms to compile)
    /// blocks only callers of that language.
    func grammar(named name: String) -> Grammar? {
        let slot = grammars.withLock { slots in
            if let slot = slots[name] { return slot }
            let slot = GrammarSlot()
            slots[name] = slot
            return slot
        }
        return slot.grammar { Grammar.load(name: name, directory: grammarDirectory, regexes: regexes) }
    }

    /// Canonical names of the languages asked for so far (loaded or not).
    func grammarSlotNames() -> [String] {
        grammars.withLock { $0.keys.sorted() }
    }

    private func highlight(_ code: String, with grammar: Grammar) -> [HighlightSpan]? {
        var code = code
        return code.withUTF8 { source in
            parseCount.withLock { $0 += 1 }
            guard let tree = grammar.parse(source, timeoutMicros: parseTimeoutMicros) else { return nil }
            defer { ts_tree_delete(tree) }
            let captures = grammar.query.captures(root: ts_tree_root_node(tree), source: source)
            return SpanPainter.spans(from: captures, length: source.count)
        }
    }
}

/// Load-once storage for one language. A failed load is remembered too, so
/// a missing grammar costs one `stat`/`dlopen` attempt, not one per fence.
final class GrammarSlot: Sendable {
    private enum State {
        case notLoaded
        case loaded(Grammar)
        case unavailable
    }

    private let state = Locked(State.notLoaded)

    func grammar(load: () -> Grammar?) -> Grammar? {
        state.withLock { state in
            switch state {
            case .loaded(let grammar):
                return grammar
            case .unavailable:
                return nil
            case .notLoaded:
                if let grammar = load() {
                    state = .loaded(grammar)
                    return grammar
                }
                state = .unavailable
                return nil
            }
        }
    }
}
