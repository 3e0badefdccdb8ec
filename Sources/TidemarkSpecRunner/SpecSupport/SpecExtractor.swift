// Turns a specification written in the CommonMark spec's example format
// (our `spec/*.md`) into fixture JSON shaped like the vendored files, so one
// runner and one set of tests cover both. Standard library only: see
// FixtureRules.swift for why this directory is shared with the tests.

extension SpecSupport {
    /// The line that opens an example: 32 backticks, ` example`, and an
    /// optional extension word (the CommonMark spec's own convention).
    static let exampleFence = String(repeating: "`", count: 32)

    struct ExtractError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// The examples of a spec text, in file order, numbered from 1.
    ///
    /// `section` is the text of the last ATX heading before the example.
    /// Headings inside ordinary fenced code blocks are not headings, so a
    /// shell comment in a code sample cannot rename the section.
    ///
    /// With `textSoFar` (spec/streaming.md, whose examples are the text of a
    /// stream so far), the line ending before the `.` line is not part of
    /// the Markdown: `**bol` is the five bytes `**bol`, and a text ending in
    /// a line ending is written with an empty line before the `.`.
    static func extractExamples(fromSpec text: String, textSoFar: Bool = false) throws(ExtractError) -> [Example] {
        var examples: [Example] = []
        var section = ""

        // Example being read: its opening line, extension word, and parts.
        enum State {
            case prose
            case ordinaryFence(marker: UInt8, length: Int)
            case markdown(start: Int, word: String?, lines: [String])
            case html(start: Int, word: String?, markdown: [String], lines: [String])
        }
        var state = State.prose

        for (index, line) in lines(of: text).enumerated() {
            let lineNumber = index + 1
            switch state {
            case .prose:
                if let word = exampleOpening(line) {
                    state = .markdown(start: lineNumber, word: word.isEmpty ? nil : word, lines: [])
                } else if let (marker, length) = fenceOpening(line) {
                    state = .ordinaryFence(marker: marker, length: length)
                } else if let heading = atxHeadingText(line) {
                    section = heading
                }
            case .ordinaryFence(let marker, let length):
                if isFenceClosing(line, marker: marker, length: length) { state = .prose }
            case .markdown(let start, let word, var lines):
                if line == "." {
                    state = .html(start: start, word: word, markdown: lines, lines: [])
                } else if line == exampleFence {
                    throw ExtractError(line: lineNumber, message: "example closed without a '.' line")
                } else {
                    lines.append(line)
                    state = .markdown(start: start, word: word, lines: lines)
                }
            case .html(let start, let word, let markdown, var lines):
                if line == exampleFence {
                    var input = joinedExamplePart(markdown)
                    if textSoFar, input.utf8.last == 0x0A { input = String(decoding: input.utf8.dropLast(), as: UTF8.self) }
                    examples.append(Example(
                        markdown: input, html: joinedExamplePart(lines),
                        example: examples.count + 1, startLine: start, endLine: lineNumber,
                        section: section, extension: word))
                    state = .prose
                } else {
                    lines.append(line)
                    state = .html(start: start, word: word, markdown: markdown, lines: lines)
                }
            }
        }
        switch state {
        case .markdown(let start, _, _), .html(let start, _, _, _):
            throw ExtractError(line: start, message: "example is never closed")
        case .prose, .ordinaryFence:
            return examples
        }
    }

    /// The lines of a text, split at LF; a CR before the LF is dropped. Split
    /// on bytes: as a `Character`, CR LF is one grapheme and would not match.
    private static func lines(of text: String) -> [String] {
        var pieces = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces.map { piece in
            let bytes = piece.last == 0x0D ? piece.dropLast() : piece
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The extension word ("" for none) when `line` opens an example.
    private static func exampleOpening(_ line: String) -> String? {
        let opening = exampleFence + " example"
        guard line.hasPrefix(opening) else { return nil }
        let rest = line.dropFirst(opening.count)
        guard rest.isEmpty || rest.first == " " else { return nil }
        return String(rest.trimmingSpaces())
    }

    private static func fenceOpening(_ line: String) -> (UInt8, Int)? {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count, i < 3, bytes[i] == 0x20 { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "`") || bytes[i] == UInt8(ascii: "~") else { return nil }
        let marker = bytes[i]
        var length = 0
        while i < bytes.count, bytes[i] == marker { i += 1; length += 1 }
        return length >= 3 ? (marker, length) : nil
    }

    private static func isFenceClosing(_ line: String, marker: UInt8, length: Int) -> Bool {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count, i < 3, bytes[i] == 0x20 { i += 1 }
        var run = 0
        while i < bytes.count, bytes[i] == marker { i += 1; run += 1 }
        guard run >= length else { return false }
        return bytes[i...].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    private static func atxHeadingText(_ line: String) -> String? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        return String(rest.trimmingSpaces())
    }

    /// An example part as the fixtures store it: every line ends in `\n`,
    /// and `→` (how the spec text shows a tab) is a real tab.
    private static func joinedExamplePart(_ lines: [String]) -> String {
        var out = ""
        for line in lines {
            out += line.split(separator: "→", omittingEmptySubsequences: false).joined(separator: "\t")
            out += "\n"
        }
        return out
    }

    // MARK: - Writing fixture JSON

    /// Fixture JSON exactly as the vendored files are written (Python's
    /// `json.dumps(examples, ensure_ascii=False, indent=2)` plus a final
    /// newline), so regenerated files diff cleanly and `--check` can compare
    /// bytes.
    static func fixtureJSON(_ examples: [Example]) -> String {
        if examples.isEmpty { return "[]\n" }
        var out = "[\n"
        for (i, e) in examples.enumerated() {
            out += "  {\n"
            var fields: [(String, String)] = [
                ("markdown", jsonString(e.markdown)),
                ("html", jsonString(e.html)),
                ("example", String(e.example)),
                ("start_line", String(e.startLine)),
                ("end_line", String(e.endLine)),
                ("section", jsonString(e.section)),
            ]
            if let word = e.extension { fields.append(("extension", jsonString(word))) }
            for (j, (key, value)) in fields.enumerated() {
                out += "    \"\(key)\": \(value)"
                out += j == fields.count - 1 ? "\n" : ",\n"
            }
            out += i == examples.count - 1 ? "  }\n" : "  },\n"
        }
        out += "]\n"
        return out
    }

    /// A JSON string literal with Python's escapes: the short forms for
    /// `\b \f \n \r \t`, `\u00xx` (lowercase hex) for other control
    /// characters, everything else (DEL and non-ASCII included) as is.
    static func jsonString(_ s: String) -> String {
        var out: [UInt8] = [0x22]
        out.reserveCapacity(s.utf8.count + 2)
        let hex = Array("0123456789abcdef".utf8)
        for byte in s.utf8 {
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x08: out += [0x5C, UInt8(ascii: "b")]
            case 0x0C: out += [0x5C, UInt8(ascii: "f")]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return self[first...last]
    }
}
