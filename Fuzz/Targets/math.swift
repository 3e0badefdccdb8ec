// Fuzz target `math`: parse with only the math extension and render.
//
// Input: the Markdown bytes (no header).
//
// Checks: no crash; `checkTree`; safe and unsafe HTML (`checkHTML`); every
// math node is a leaf with a literal that `MathSource` can rewrite and
// judge; `MathSource` also gets the whole input as TeX.

import Tidemark

@_cdecl("LLVMFuzzerTestOneInput")
public func mathFuzzEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let body = UnsafeBufferPointer(start: data, count: size)
    let doc = parseAndCheck(body, options: .math, html: HTMLOptions())
    checkHTML(doc.htmlBytes(HTMLOptions(unsafe: true)), safe: false, sourceHasTab: doc.source.contains(0x09))

    for i in 0..<doc.nodeCount {
        let node = doc.node(at: i)
        guard node.kind == .math || node.kind == .mathBlock else { continue }
        require(node.children.isEmpty, "math node \(i) has children")
        guard let tex = node.literal else { fuzzFailure("math node \(i) without a literal") }
        if node.kind == .mathBlock { require(node.isDisplayMath, "math block not display") }
        let rewritten = MathSource.normalizedForNativeTypesetting(tex)
        _ = MathSource.isLikelyRenderable(tex)
        _ = MathSource.isLikelyRenderable(rewritten)
    }
    let whole = String(decoding: body, as: UTF8.self)
    _ = MathSource.normalizedForNativeTypesetting(whole)
    _ = MathSource.isLikelyRenderable(whole)
    return 0
}
