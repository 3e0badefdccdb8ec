import Testing
import TidemarkRender

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumn() {
        #expect(DisplayWidth.of("a") == 1)
        #expect(DisplayWidth.of("hello, world") == 12)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func controlsAreZero() {
        #expect(DisplayWidth.of("\u{7}") == 0)
        #expect(DisplayWidth.of("\u{7F}") == 0)
        #expect(DisplayWidth.of("\u{85}") == 0)
        #expect(DisplayWidth.of("a\r\nb") == 2)
    }

    @Test func eastAsianWide() {
        #expect(DisplayWidth.of("中") == 2)
        #expect(DisplayWidth.of("中文abc") == 7)
        #expect(DisplayWidth.of("Ａ") == 2)  // fullwidth
        #expect(DisplayWidth.of("ｱ") == 1)  // halfwidth katakana
    }

    @Test func emoji() {
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)  // skin-tone modifier
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)  // ZWJ sequence
        #expect(DisplayWidth.of("❤️") == 2)  // text-default emoji + VS16
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("🏳️‍🌈") == 2)
    }

    @Test func combiningMarks() {
        #expect(DisplayWidth.of("\u{301}" as Unicode.Scalar) == 0)
        #expect(DisplayWidth.of("\u{301}") == 0)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("e\u{301}\u{302}x") == 2)
    }

    @Test func formatCharacters() {
        #expect(DisplayWidth.of("\u{200B}" as Unicode.Scalar) == 0)
        #expect(DisplayWidth.of("\u{200D}" as Unicode.Scalar) == 0)
        #expect(DisplayWidth.of("\u{FE0F}" as Unicode.Scalar) == 0)
        #expect(DisplayWidth.of("\u{AD}" as Unicode.Scalar) == 1)  // soft hyphen
    }

    @Test func substrings() {
        let text = "xx中yy"
        #expect(DisplayWidth.of(text.dropFirst(2)) == 4)
    }
}
