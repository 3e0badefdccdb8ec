// Temporary: extension hooks, filled in by the GFM and math work.
struct MathStart {
    var isFence = false
}

extension BlockParser {
    func matchTable(_ b: Int32) -> Bool { false }
    func tryStartTable(_ b: Int32) -> Int32? { nil }
    func addTableRow(_ b: Int32) {}
    func finalizeTable(_ b: Int32) {}
    func maybeAlert(_ b: Int32) -> Int32 { b }
    func footnoteDefinitionStart(_ pos: Int) -> (labelStart: Int, labelEnd: Int, contentStart: Int)? { nil }
    func startFootnoteDefinition(_ c: Int32, labelStart: Int, labelEnd: Int, contentStart: Int) -> Int32 { c }
    func mathBlockStart(_ pos: Int, interruptsParagraph: Bool) -> MathStart? { nil }
    func startMathBlock(_ c: Int32, _ m: MathStart) -> Int32 { c }
    func matchMathBlockLine(_ b: Int32) -> FenceMatch { .unmatched }
    func addMathLine(_ b: Int32) {}
    func isMathInfo(_ s: Int, _ e: Int) -> Bool { false }
    func recognizeTaskMarker(_ b: Int32) {}
}

extension BlockParser {
    func footnoteLabelSet() -> Set<[UInt8]> { [] }
    func emitExtensionAttributes(_ b: Int32, _ node: inout RawNode, inline: InlineParser) {}
    func loadCellContent(_ b: Int32, inline: InlineParser) {}
    func postprocess(_ storage: DocumentStorage) -> DocumentStorage { storage }
}
