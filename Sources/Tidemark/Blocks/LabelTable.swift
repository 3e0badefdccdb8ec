/// The link reference definitions and footnote labels of a parse: the block
/// parser adds them, inline parsers look them up (the first definition of a
/// label wins).
///
/// A class, so that every inline parser of a stream looks at its parser's
/// table without holding a copy of the dictionaries: with a copy held,
/// every definition added would copy them all again (a stream of n
/// definitions cost n² that way).
///
/// While a streaming snapshot runs (the parser between `checkpoint` and
/// `rollback`), or in a scratch parser of the provisional repair, labels
/// go to an overlay instead: the persistent part holds the settled input's,
/// the overlay the snapshot's tail's. The overlay stays after the rollback —
/// between snapshots the table shows what the last one saw — and is emptied
/// when the next snapshot (or a settling of blocks) starts. Persistent
/// additions do not look at the overlay: the settled input is parsed as if
/// the tail were not there.
final class LabelTable {
    /// Persistent link reference definitions, by normalized label.
    @exclusivity(unchecked) private(set) var definitions: [[UInt8]: LinkDefinition] = [:]
    /// Persistent footnote labels (normalized) that have a definition.
    @exclusivity(unchecked) private(set) var footnotes: Set<[UInt8]> = []
    /// The overlay: labels no persistent entry has.
    @exclusivity(unchecked) private(set) var overlayDefinitions: [[UInt8]: LinkDefinition] = [:]
    @exclusivity(unchecked) private(set) var overlayFootnotes: Set<[UInt8]> = []
    /// Changes with every change of the table (never repeats): equal
    /// versions, equal contents.
    @exclusivity(unchecked) private(set) var version = 0

    init() {}

    /// A table of its own with the same contents (the dictionaries are
    /// shared until one side changes).
    func copy() -> LabelTable {
        let c = LabelTable()
        c.definitions = definitions
        c.footnotes = footnotes
        c.overlayDefinitions = overlayDefinitions
        c.overlayFootnotes = overlayFootnotes
        c.version = version
        return c
    }

    var hasDefinitions: Bool { !definitions.isEmpty || !overlayDefinitions.isEmpty }
    var hasFootnotes: Bool { !footnotes.isEmpty || !overlayFootnotes.isEmpty }
    var definitionCount: Int { definitions.count + overlayDefinitions.count }
    var footnoteCount: Int { footnotes.count + overlayFootnotes.count }

    @inline(__always)
    func definition(_ key: [UInt8]) -> LinkDefinition? {
        if let d = definitions[key] { return d }
        return overlayDefinitions.isEmpty ? nil : overlayDefinitions[key]
    }

    @inline(__always)
    func hasFootnote(_ key: [UInt8]) -> Bool {
        footnotes.contains(key) || (!overlayFootnotes.isEmpty && overlayFootnotes.contains(key))
    }

    /// Whether `key` has a definition or a footnote definition.
    func defines(_ key: [UInt8]) -> Bool { definition(key) != nil || hasFootnote(key) }

    /// Adds a definition unless its label has one; to the overlay when
    /// `overlay`. Returns whether it was added.
    @discardableResult
    func addDefinition(_ key: [UInt8], _ definition: LinkDefinition, overlay: Bool) -> Bool {
        guard definitions[key] == nil else { return false }
        if overlay {
            guard overlayDefinitions[key] == nil else { return false }
            overlayDefinitions[key] = definition
        } else {
            definitions[key] = definition
        }
        version &+= 1
        return true
    }

    /// Adds a footnote label unless it has one; to the overlay when
    /// `overlay`. Returns whether it was added.
    @discardableResult
    func addFootnote(_ key: [UInt8], overlay: Bool) -> Bool {
        guard !footnotes.contains(key) else { return false }
        if overlay {
            guard overlayFootnotes.insert(key).inserted else { return false }
        } else {
            footnotes.insert(key)
        }
        version &+= 1
        return true
    }

    /// Empties the overlay (a new snapshot starts, or blocks settle).
    @inline(__always)
    func clearOverlay() {
        guard !overlayDefinitions.isEmpty || !overlayFootnotes.isEmpty else { return }
        // (New empty storage: a holder of the old overlay keeps it, no copy.)
        overlayDefinitions = [:]
        overlayFootnotes = []
        version &+= 1
    }

    /// Whether the table holds what it held when `mark` was taken — the
    /// persistent part can only have grown since. Costs the overlay then.
    func matches(_ mark: Mark) -> Bool {
        guard definitionCount == mark.definitionCount, footnoteCount == mark.footnoteCount else { return false }
        for (key, d) in mark.overlayDefinitions where definition(key) != d { return false }
        for key in mark.overlayFootnotes where !hasFootnote(key) { return false }
        return true
    }

    /// What `matches` compares with: the counts and the overlay (shared,
    /// not copied).
    struct Mark {
        var definitionCount = 0
        var footnoteCount = 0
        var overlayDefinitions: [[UInt8]: LinkDefinition] = [:]
        var overlayFootnotes: Set<[UInt8]> = []
    }

    var mark: Mark {
        Mark(definitionCount: definitionCount, footnoteCount: footnoteCount,
             overlayDefinitions: overlayDefinitions, overlayFootnotes: overlayFootnotes)
    }
}
