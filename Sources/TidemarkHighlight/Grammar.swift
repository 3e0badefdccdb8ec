import CTreeSitter

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A grammar loaded from `<grammars>/<name>/parser.so` together with its
/// compiled highlights query.
///
/// Grammars are `dlopen`ed the first time a code block needs them and never
/// unloaded: a `TSLanguage` is static data inside the shared library, and
/// trees or queries may still point into it from other threads.
final class Grammar: @unchecked Sendable {
    let name: String
    /// `const TSLanguage *`, immutable.
    let language: OpaquePointer
    let query: HighlightQuery

    private init(name: String, language: OpaquePointer, query: HighlightQuery) {
        self.name = name
        self.language = language
        self.query = query
    }

    /// Loads grammar `name` from `directory`, or nil when anything is missing
    /// or incompatible (the caller then shows plain code).
    static func load(name: String, directory: String, regexes: RegexCache) -> Grammar? {
        let folder = directory + "/" + name
        let libraryPath = folder + "/parser.so"
        let queryPath = folder + "/highlights.scm"
        guard let querySource = readFile(queryPath) else { return nil }
        // RTLD_LOCAL: every grammar exports its own scanner symbols, and YAML's
        // library bundles dozens of grammars; keep them out of the global namespace.
        guard let handle = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL) else { return nil }
        // Until a Grammar owns the language nothing points into the library,
        // so a rejected one can still be closed.
        var accepted = false
        defer { if !accepted { dlclose(handle) } }
        guard let symbol = dlsym(handle, "tree_sitter_" + name) else { return nil }
        typealias LanguageFunction = @convention(c) () -> OpaquePointer?
        let function = unsafeBitCast(symbol, to: LanguageFunction.self)
        guard let language = function() else { return nil }
        // Debian's 0.20.7 runtime reads ABI 13–14; a newer grammar would load
        // and then be rejected by ts_parser_set_language, so check up front.
        let version = ts_language_version(language)
        guard version >= UInt32(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION),
            version <= UInt32(TREE_SITTER_LANGUAGE_VERSION)
        else { return nil }
        guard let query = HighlightQuery(language: language, source: querySource, regexes: regexes) else {
            return nil
        }
        accepted = true
        return Grammar(name: name, language: language, query: query)
    }

    private static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if read > 0 { bytes += chunk[0..<read] }
            if read < chunk.count { break }
            // A highlights query is a few KB; refuse anything absurd.
            if bytes.count > 16 * 1024 * 1024 { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses `source`, reusing `oldTree` (already edited) when given.
    /// Returns nil when the parser gives up (timeout) or cannot be created.
    func parse(
        _ source: UnsafeBufferPointer<UInt8>, oldTree: OpaquePointer? = nil, timeoutMicros: UInt64
    ) -> OpaquePointer? {
        guard let parser = ts_parser_new() else { return nil }
        defer { ts_parser_delete(parser) }
        guard ts_parser_set_language(parser, language) else { return nil }
        ts_parser_set_timeout_micros(parser, timeoutMicros)
        return source.withMemoryRebound(to: CChar.self) { chars in
            ts_parser_parse_string(parser, oldTree, chars.baseAddress, UInt32(chars.count))
        }
    }
}
