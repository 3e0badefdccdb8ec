// This directory is compiled twice: into `tidemark-spec`, and into the
// `TidemarkTests` test target through the symlink
// `Tests/TidemarkTests/Support/SpecSupport`. An executable target cannot be
// imported by tests, and the rules below must not drift apart between the
// runner and the tests, so both compile the same files. The code here uses
// the Swift standard library and `Tidemark` only (no Foundation), so the
// parser core stays free of it and nothing here needs a new target.
// Everything lives under `SpecSupport` so the test target's namespace gets
// exactly one new name.

import Tidemark

enum SpecSupport {}

extension SpecSupport {
    /// One example of a fixture file, in the shape of the CommonMark
    /// project's `spec.json` (plus the GFM runner's `extension` word).
    struct Example: Codable, Sendable, Hashable {
        var markdown: String
        var html: String
        var example: Int
        var startLine: Int
        var endLine: Int
        var section: String
        var `extension`: String?

        enum CodingKeys: String, CodingKey {
            case markdown, html, example
            case startLine = "start_line"
            case endLine = "end_line"
            case section, `extension`
        }
    }

    /// The extensions an example of a fixture file runs with, or `nil` when
    /// the example names an extension word this function does not know
    /// (a typo in one of our specs must be reported, not run with a guess).
    ///
    /// The one place where that decision is made: the runner and the tests
    /// both call it.
    static func parseOptions(fixtureFile file: String, extension word: String?) -> ParseOptions? {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        if name.hasPrefix("commonmark-") {
            // The CommonMark spec: no extension at all.
            return .commonmark
        }
        if name == "gfm-0.29.0.json" {
            // As cmark-gfm's own spec runner does: core examples run without
            // extensions (with all of them on, tagfilter and autolink rewrite
            // core examples), extension examples with only their extension.
            switch word {
            case nil: return .commonmark
            // The two task-list examples, which cmark-gfm's runner disables.
            case "disabled": return .tasklist
            case let word? where ["table", "strikethrough", "autolink", "tagfilter"].contains(word):
                return ParseOptions.named(word)
            default: return nil
            }
        }
        if name == "gfm-extensions.json" {
            // cmark-gfm runs this file with exactly these extensions on.
            return [.table, .strikethrough, .autolink, .tagfilter, .footnotes, .tasklist]
        }
        // Our own specs (extracted from spec/*.md) describe Tidemark as users
        // get it: every extension on, unless the example says otherwise.
        guard let word else { return .default }
        if word == "commonmark" { return .commonmark }
        return ParseOptions.named(word)
    }

    /// The HTML options every fixture is rendered with: the specs show raw
    /// HTML passing through.
    static let htmlOptions = HTMLOptions(unsafe: true)

    /// Whether a fixture file holds provisional-display examples
    /// (spec/streaming.md): their Markdown is the text of a stream so far,
    /// and their HTML is what `Provisional.document(forTextSoFar:)` shows,
    /// not the batch parse.
    static func isProvisional(fixtureFile file: String) -> Bool {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return name == "streaming.json"
    }

    /// The HTML of an example as the runner and the tests compare it, or
    /// `nil` when the example's extension word is unknown.
    static func renderHTML(_ example: Example, fixtureFile file: String) -> String? {
        guard let options = parseOptions(fixtureFile: file, extension: example.extension) else { return nil }
        let document = isProvisional(fixtureFile: file)
            ? Provisional.document(forTextSoFar: example.markdown, options: options)
            : Document(parsing: example.markdown, options: options)
        return document.html(htmlOptions)
    }

    /// Whether rendered HTML passes an example: byte for byte equal, or
    /// anything at all when the expected HTML is `<IGNORE>`. That marker is
    /// cmark-gfm's convention for "must not crash" inputs (gfm-extensions.json
    /// example 20), and its runner passes them the same way.
    static func passes(expected: String, actual: String, extension word: String? = nil) -> Bool {
        if expected == actual || isIgnored(expected) { return true }
        // The GFM spec text writes task-list checkboxes as
        // `<input disabled="" type="checkbox">`; cmark-gfm (and Tidemark)
        // write `<input type="checkbox" disabled="" />`. The fixtures README
        // says these `disabled` examples are compared with the attributes of
        // `<input>` tags taken in any order.
        if word == "disabled" {
            return normalizingInputTags(expected) == normalizingInputTags(actual)
        }
        return false
    }

    /// Rewrites every `<input …>` tag with its attributes sorted and without
    /// a self-closing slash.
    static func normalizingInputTags(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        while let open = rest.range(of: "<input") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: ">") else {
                out += rest[open.lowerBound...]
                return out
            }
            var inner = String(rest[open.upperBound..<close])
            if inner.hasSuffix("/") { inner.removeLast() }
            let attributes = inner.split(separator: " ").map(String.init).sorted()
            out += "<input " + attributes.joined(separator: " ") + ">"
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    static func isIgnored(_ expectedHTML: String) -> Bool {
        var trimmed = Substring(expectedHTML)
        while let last = trimmed.last, last == "\n" || last == " " { trimmed = trimmed.dropLast() }
        return trimmed == "<IGNORE>"
    }

    /// The examples whose HTML is meant to differ from the fixture, read
    /// from `Fixtures/expected-differences.txt`.
    struct ExpectedDifferences: Sendable {
        struct Key: Hashable, Sendable, Comparable {
            var file: String
            var example: Int
            static func < (a: Key, b: Key) -> Bool {
                (a.file, a.example) < (b.file, b.example)
            }
        }

        /// Reason text by file and example number.
        private(set) var reasons: [Key: String] = [:]

        init() {}

        /// Parses the file's text: one entry per line, `FILE EXAMPLE reason…`;
        /// blank lines and lines starting with `#` are ignored. Malformed
        /// lines are returned as errors (1-based line numbers) so a typo
        /// does not silently un-list an example.
        init(parsing text: String) throws(ParseError) {
            var lineNumber = 0
            for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                let line = rawLine.drop { $0 == " " || $0 == "\t" }
                if line.isEmpty || line.hasPrefix("#") { continue }
                let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                guard fields.count >= 2, let number = Int(fields[1]), number > 0 else {
                    throw ParseError(line: lineNumber, text: String(rawLine))
                }
                let reason = fields.count > 2 ? String(fields[2]) : ""
                reasons[Key(file: String(fields[0]), example: number)] = reason
            }
        }

        struct ParseError: Error, CustomStringConvertible {
            var line: Int
            var text: String
            var description: String {
                "line \(line): expected 'FILE EXAMPLE reason', got '\(text)'"
            }
        }

        func reason(file: String, example: Int) -> String? {
            reasons[Key(file: file, example: example)]
        }

        var keys: [Key] { reasons.keys.sorted() }
    }
}
