import Tidemark

/// What a capture name in a highlights query means for us.
enum CaptureMeaning: Equatable, Sendable {
    /// Color the node as this kind.
    case kind(TokenKind)
    /// Explicitly plain (`@none`): paints over outer captures, so an outer
    /// `@string` does not leak into, say, an interpolated expression.
    case plain
    /// Not a highlight at all (`@spell`, `@embedded`, `@local.*`, names we do
    /// not know): the capture is dropped and cannot hide another one.
    case ignored
}

/// Maps the capture names of the chosen queries onto `TokenKind`.
///
/// The queries mix two naming generations: old nvim-treesitter names
/// (`@include`, `@conditional`, `@repeat`, `@parameter`, `@float`, `@field`)
/// and current ones (`@keyword.import`, `@function.method`,
/// `@string.special.key`), plus CSS at-rule names (`@media`, `@keyframes`, …).
/// A name is looked up whole, then with its last dotted component removed,
/// and so on (`keyword.conditional.ternary` → `keyword.conditional` →
/// `keyword`), so new sub-names fall back to their family.
enum CaptureNames {
    static func meaning(of name: String) -> CaptureMeaning {
        // `_name` captures exist only to feed predicates.
        if name.hasPrefix("_") { return .ignored }
        var candidate = Substring(name)
        while true {
            if let meaning = table[String(candidate)] { return meaning }
            guard let dot = candidate.lastIndex(of: ".") else { return .ignored }
            candidate = candidate[..<dot]
        }
    }

    private static let table: [String: CaptureMeaning] = [
        // Keywords, including the old nvim families that are keywords in all but name.
        "keyword": .kind(.keyword),
        "conditional": .kind(.keyword),
        "repeat": .kind(.keyword),
        "include": .kind(.keyword),
        "exception": .kind(.keyword),
        "storageclass": .kind(.keyword),
        "type.qualifier": .kind(.keyword),
        "preproc": .kind(.keyword),
        "define": .kind(.keyword),
        "debug": .kind(.keyword),
        // CSS at-rules are captured under their own names.
        "media": .kind(.keyword),
        "import": .kind(.keyword),
        "charset": .kind(.keyword),
        "keyframes": .kind(.keyword),
        "supports": .kind(.keyword),

        "string": .kind(.string),
        "string.escape": .kind(.escape),
        "string.special.key": .kind(.property),
        "string.special.symbol": .kind(.constant),
        "string.special.path": .kind(.string),
        "string.special.url": .kind(.string),
        "character": .kind(.string),
        "character.special": .kind(.builtin),
        "escape": .kind(.escape),

        "number": .kind(.number),
        "float": .kind(.number),
        "boolean": .kind(.constant),

        "comment": .kind(.comment),

        "function": .kind(.function),
        "function.builtin": .kind(.builtin),
        "function.method.builtin": .kind(.builtin),
        "method": .kind(.function),
        "constructor": .kind(.type),

        "type": .kind(.type),
        "type.builtin": .kind(.type),
        "class": .kind(.type),
        "struct": .kind(.type),
        "enum": .kind(.type),
        "interface": .kind(.type),

        "variable": .kind(.variable),
        "variable.builtin": .kind(.builtin),
        "variable.member": .kind(.property),
        "parameter": .kind(.variable),

        "constant": .kind(.constant),
        "constant.builtin": .kind(.constant),

        "property": .kind(.property),
        "field": .kind(.property),

        "operator": .kind(.operator),
        "punctuation": .kind(.punctuation),
        "delimiter": .kind(.punctuation),

        "tag": .kind(.tag),
        "tag.attribute": .kind(.attribute),
        "tag.delimiter": .kind(.punctuation),
        "attribute": .kind(.attribute),
        "decorator": .kind(.attribute),
        "annotation": .kind(.attribute),

        "label": .kind(.label),
        "module": .kind(.namespace),
        "namespace": .kind(.namespace),

        // Diff-like captures, should a query use them.
        "diff.plus": .kind(.inserted),
        "diff.minus": .kind(.deleted),
        "text.diff.add": .kind(.inserted),
        "text.diff.delete": .kind(.deleted),

        "none": .plain,
        // Explicitly not highlights.
        "spell": .ignored,
        "nospell": .ignored,
        "embedded": .ignored,
        "conceal": .ignored,
        "local": .ignored,
        "injection": .ignored,
    ]
}
