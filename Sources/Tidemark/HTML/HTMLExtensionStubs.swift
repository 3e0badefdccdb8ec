// Temporary: extension rendering hooks.
extension HTMLRenderer {
    mutating func renderTaskCheckbox(_ n: RawNode) {}
    mutating func enterExtension(_ i: Int, _ n: RawNode) -> Bool { true }
    mutating func exitExtension(_ i: Int, _ n: RawNode) {}
    mutating func renderFootnotes() {}
}
