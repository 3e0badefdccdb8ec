// Fuzz target `parse`: parse + HTML with options taken from the input.
//
// Input: byte 0 = ParseOptions raw value, byte 1 = HTML options and extra
// checks (see `FuzzHeader` in Support/FuzzSupport.swift), the rest = the
// Markdown bytes (any bytes: invalid UTF-8, NUL, CR are all fair game).
//
// Checks: no crash or sanitizer report; the tree invariants of `checkTree`;
// the HTML invariants of `checkHTML` (valid UTF-8; in safe mode only our
// own tags and attributes, no script URL); optionally that parsing the same
// text as a `String` gives the same document, and that parsing the
// normalized source again gives the same document.

import Tidemark

@_cdecl("LLVMFuzzerTestOneInput")
public func parseFuzzEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 2 else { return 0 }
    let header = FuzzHeader(data[0], data[1])
    let body = UnsafeBufferPointer(start: data + 2, count: size - 2)

    let doc = parseAndCheck(body, options: header.parse, html: header.html)

    if header.compareStringParse {
        // The String path repairs invalid UTF-8 with the standard library;
        // the byte path with our normalizer. Both must agree.
        let text = String(decoding: body, as: UTF8.self)
        let viaString = Document(parsing: text, options: header.parse)
        require(viaString == doc, "parsing as String and as bytes give different documents")
    }
    // A byte order mark is dropped once, at the very start of the input; a
    // second one stays in the source as U+FEFF and would be dropped by a
    // new parse of that source (as it must: it is then the first byte).
    let startsWithBOM = doc.source.starts(with: [0xEF, 0xBB, 0xBF])
    if header.compareReparse && !startsWithBOM {
        let again = Document(parsing: doc.source, options: header.parse)
        require(again.source == doc.source, "normalizing the normalized source changed it")
        require(again == doc, "parsing the normalized source again gives a different document")
        require(again.htmlBytes(header.html) == doc.htmlBytes(header.html), "HTML differs on reparse")
    }
    return 0
}
