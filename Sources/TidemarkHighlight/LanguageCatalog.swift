/// The languages TidemarkHighlight knows, and the info-string words that name them.
///
/// A canonical name is also the directory `scripts/install-grammars.sh` writes
/// (`<grammars>/<name>/parser.so`) and the suffix of the grammar's entry point
/// (`tree_sitter_<name>`), so the three can never drift apart.
enum LanguageCatalog {
    /// Grammars built by the installer, in the order `installedLanguages()` lists them.
    static let treeSitterLanguages: [String] = [
        "swift", "c", "cpp", "c_sharp", "python", "javascript", "typescript", "tsx", "go", "rust",
        "java", "kotlin", "ruby", "bash", "sql", "yaml", "json", "html", "css",
    ]

    /// Languages highlighted by our own Swift code rather than a grammar.
    static let builtInLanguages: [String] = ["diff"]

    /// Lower-cased info-string word → canonical name.
    static let aliases: [String: String] = {
        let table: [String: [String]] = [
            "swift": ["swift"],
            "c": ["c", "h"],
            "cpp": ["cpp", "c++", "cc", "cxx", "hpp"],
            "c_sharp": ["csharp", "cs", "c#", "c_sharp"],
            "python": ["python", "py", "python3"],
            "javascript": ["javascript", "js", "jsx", "mjs", "node"],
            "typescript": ["typescript", "ts"],
            "tsx": ["tsx"],
            "go": ["go", "golang"],
            "rust": ["rust", "rs"],
            "java": ["java"],
            "kotlin": ["kotlin", "kt", "kts"],
            "ruby": ["ruby", "rb"],
            "bash": ["bash", "sh", "shell", "zsh"],
            "sql": ["sql"],
            "yaml": ["yaml", "yml"],
            "json": ["json", "jsonc"],
            "html": ["html", "htm", "xhtml"],
            "css": ["css"],
            "diff": ["diff", "patch"],
        ]
        var result: [String: String] = [:]
        for (canonical, words) in table {
            for word in words { result[word] = canonical }
        }
        return result
    }()

    /// The canonical name for an info-string word, case-insensitively, or nil.
    static func canonicalName(for language: String) -> String? {
        var word = Substring(language)
        while let first = word.first, first.isWhitespace { word.removeFirst() }
        while let last = word.last, last.isWhitespace { word.removeLast() }
        guard !word.isEmpty, word.utf8.count <= 32 else { return nil }
        return aliases[word.lowercased()]
    }
}
