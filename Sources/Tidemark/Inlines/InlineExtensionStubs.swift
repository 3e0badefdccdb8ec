// Temporary: inline extension hooks, filled in by the GFM and math work.
extension InlineParser {
    func handleDollar(_ pos: Int) -> Int {
        let e = scanText(pos + 1)
        appendText(pos, e)
        return e
    }
    func mathParen(_ pos: Int, display: Bool) -> Int? { nil }
    @inline(__always) func autolinkMayStart(_ pos: Int) -> Bool { false }
    func extendedAutolink(_ pos: Int) -> Int? { nil }
    func footnoteReference(_ opener: Bracket, closeAt pos: Int) -> Int? { nil }
}
