import Testing
@testable import Tidemark

// Spot checks of the tables written by scripts/gen-tables.py. The script's
// own self-checks guard the encoding; these guard the Swift lookup code and
// the handful of values the parser relies on.

private func entity(_ name: String) -> (UInt32, UInt32?)? {
    let bytes = Array(name.utf8)
    return bytes.withUnsafeBufferPointer { EntityTable.lookup($0) }
}

private func folded(_ text: String) -> String {
    var out: [UInt8] = []
    for scalar in text.unicodeScalars {
        CaseFolding.appendFolded(scalar.value, to: &out)
    }
    return String(decoding: out, as: UTF8.self)
}

private func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
    UnicodeProperties.isPunctuation(scalar.value)
}

private func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    UnicodeProperties.isWhitespace(scalar.value)
}

@Suite struct EntityTableTests {
    @Test func singleCodePointEntities() throws {
        let amp = try #require(entity("amp"))
        #expect(amp.0 == 0x26)
        #expect(amp.1 == nil)

        let nbsp = try #require(entity("nbsp"))
        #expect(nbsp.0 == 0xA0)
        #expect(nbsp.1 == nil)

        let dcaron = try #require(entity("Dcaron"))
        #expect(dcaron.0 == 0x010E)
        #expect(dcaron.1 == nil)
    }

    @Test func twoCodePointEntity() throws {
        let ngE = try #require(entity("ngE"))
        #expect(ngE.0 == 0x2267)
        #expect(ngE.1 == 0x0338)
    }

    @Test func firstAndLastNamesAreFound() {
        // The ends of the sorted table and of each first-byte bucket are
        // where an off-by-one in the search would show.
        #expect(entity("AElig")?.0 == 0xC6)
        #expect(entity("zwnj")?.0 == 0x200C)
        #expect(entity("Zscr")?.0 == 0x1D4B5)
        #expect(entity("aacute")?.0 == 0xE1)
    }

    @Test func namesAreCaseSensitive() {
        #expect(entity("AMP")?.0 == 0x26)
        #expect(entity("Amp") == nil)
        #expect(entity("COPY")?.0 == 0xA9)
        #expect(entity("Copy") == nil)
    }

    @Test func unknownNamesAreNil() {
        #expect(entity("") == nil)
        #expect(entity("foo") == nil)
        #expect(entity("am") == nil)
        #expect(entity("ampx") == nil)
        #expect(entity("amp;") == nil)
        #expect(entity("1amp") == nil)
        #expect(entity("{amp") == nil)
        #expect(entity("é") == nil)
    }

    @Test func maxNameLengthBoundsTheTable() {
        let longest = "CounterClockwiseContourIntegral"
        #expect(EntityTable.maxNameLength == longest.utf8.count)
        #expect(entity(longest)?.0 == 0x2233)
        #expect(entity(longest + "x") == nil)
        #expect(entity(String(repeating: "a", count: EntityTable.maxNameLength + 1)) == nil)
    }

    @Test func tableSize() {
        // Only the `;`-terminated HTML5 names; the legacy unterminated
        // aliases would inflate this to about 2231.
        #expect(EntityTable.count == 2125)
    }
}

@Suite struct CaseFoldingTests {
    @Test func ascii() {
        #expect(folded("A") == "a")
        #expect(folded("Hello, World! [Z]") == "hello, world! [z]")
        #expect(folded("@[`{") == "@[`{")
    }

    @Test func expandingFoldings() {
        #expect(folded("ẞ") == "ss")
        #expect(folded("ß") == "ss")
        #expect(folded("ﬃ") == "ffi")
        #expect(folded("İ") == "i\u{307}")
    }

    @Test func greekSigma() {
        #expect(folded("Σ") == "σ")
        #expect(folded("ς") == "σ")
        #expect(folded("σ") == "σ")
    }

    @Test func titlecaseDigraph() {
        #expect(folded("ǅ") == "ǆ")
        #expect(folded("Ǆ") == "ǆ")
    }

    @Test func alternatingRuns() {
        // Latin Extended-A alternates upper, lower: only the even ones fold.
        #expect(folded("Ā") == "ā")
        #expect(folded("ā") == "ā")
        #expect(folded("Ď") == "ď")
    }

    @Test func cherokeeFoldsToUppercase() {
        // Cherokee is the odd one out: case folding maps its (newer)
        // lowercase letters to the uppercase ones, for stability.
        #expect(folded("\u{AB70}") == "\u{13A0}")
        #expect(folded("\u{13F8}") == "\u{13F0}")
        #expect(folded("\u{13A0}") == "\u{13A0}")
    }

    @Test func unchangedScalarsAreCopied() {
        #expect(folded("中文") == "中文")
        #expect(folded("😀") == "😀")
        #expect(folded("a\u{301}") == "a\u{301}")
    }

    @Test func linkLabelsMatchAcrossCase() {
        #expect(folded("ΣΟΦΊΑ") == folded("σοφία"))
        #expect(folded("Straße") == folded("STRASSE"))
    }
}

@Suite struct UnicodePropertiesTests {
    @Test func asciiPunctuation() {
        for scalar in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars {
            #expect(isPunctuation(scalar), "\(scalar)")
        }
    }

    @Test func punctuationCategories() {
        #expect(isPunctuation("!"))
        #expect(isPunctuation("_"))  // Pc
        #expect(isPunctuation("$"))  // Sc: symbols count since CommonMark 0.31
        #expect(isPunctuation("€"))  // Sc
        #expect(isPunctuation("¡"))  // Po
        #expect(isPunctuation("‘"))  // Pi
        #expect(isPunctuation("’"))  // Pf
        #expect(isPunctuation("「"))  // Ps
        #expect(isPunctuation("©"))  // So
        #expect(isPunctuation("+"))  // Sm
        #expect(isPunctuation("^"))  // Sk
    }

    @Test func nonPunctuation() {
        for scalar in "aZ09 \t\n".unicodeScalars {
            #expect(!isPunctuation(scalar), "\(scalar)")
        }
        #expect(!isPunctuation("é"))
        #expect(!isPunctuation("中"))
        #expect(!isPunctuation("\u{A0}"))
        #expect(!isPunctuation("\u{301}"))
        #expect(!UnicodeProperties.isPunctuation(0x7F))
    }

    @Test func whitespace() {
        #expect(isWhitespace(" "))
        #expect(isWhitespace("\t"))
        #expect(isWhitespace("\n"))
        #expect(isWhitespace("\u{0C}"))
        #expect(isWhitespace("\r"))
        #expect(isWhitespace("\u{A0}"))
        #expect(isWhitespace("\u{2003}"))
        #expect(isWhitespace("\u{3000}"))
    }

    @Test func nonWhitespace() {
        #expect(!isWhitespace("\u{200B}"))  // Cf, not Zs
        #expect(!isWhitespace("\u{0B}"))  // vertical tab is not in CommonMark's list
        #expect(!isWhitespace("\u{2028}"))  // Zl
        #expect(!isWhitespace("a"))
        #expect(!isWhitespace("_"))
        #expect(!isWhitespace("\u{FEFF}"))
    }
}
