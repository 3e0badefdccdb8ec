import Foundation
import Testing
import Tidemark
import TidemarkRender

@Suite struct ThemeTests {
    /// A built-in theme, shown by name in test output.
    struct BuiltIn: Sendable, CustomTestStringConvertible {
        var theme: Theme
        var testDescription: String { theme.name }
    }

    static let builtIns: [BuiltIn] = [Theme.default, .defaultLight, .defaultDark, .highContrast].map(BuiltIn.init)

    @Test func derivingAThemeChangesOnlyWhatWasSet() {
        var theme = Theme.default
        let purple = ThemeColor(light: RGBA(hex: 0x7A3E9D), dark: RGBA(hex: 0xC39AE0))
        theme.link.foreground = purple
        theme.heading.scales[0] = 3
        theme.tokens[.keyword] = purple
        theme.alert[.warning] = purple

        #expect(theme.link.foreground == purple)
        #expect(theme.tokens.keyword == purple)
        #expect(theme.alert.warning == purple)
        #expect(theme.text == Theme.default.text)
        #expect(Theme.default.link.foreground != purple)  // the original is a value, untouched

        let doc = Support.render("# Big [link](https://x)", theme: theme)
        let runs = doc.blocks[0].runs
        #expect(runs[0].style.size == theme.bodySize * 3)
        #expect(runs[1].style.foreground == purple)
    }

    @Test(arguments: builtIns)
    func everyTokenKindIsColoredFromTheTheme(_ builtIn: BuiltIn) {
        let theme = builtIn.theme
        for kind in TokenKind.allCases {
            let style = theme.style(traits: [], token: kind, in: StyleContext(role: .codeBlock))
            #expect(style.foreground == theme.tokens[kind])
            #expect(style.font == .code)
        }
    }

    @Test(arguments: builtIns)
    func codableRoundTrip(_ builtIn: BuiltIn) throws {
        let theme = builtIn.theme
        let data = try JSONEncoder().encode(theme)
        #expect(try JSONDecoder().decode(Theme.self, from: data) == theme)
    }

    @Test func colorsEncodeAsHex() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let color = ThemeColor(light: RGBA(hex: 0x0969DA), dark: RGBA(red: 1, green: 2, blue: 3, alpha: 4))
        let data = try encoder.encode(color)
        #expect(String(decoding: data, as: UTF8.self) == ##"{"dark":"#01020304","light":"#0969DAFF"}"##)
        #expect(RGBA(hexString: "#abcdef") == RGBA(hex: 0xABCDEF))
        #expect(RGBA(hexString: "abcdef80") == RGBA(red: 0xAB, green: 0xCD, blue: 0xEF, alpha: 0x80))
        #expect(RGBA(hexString: "#abc") == nil)
        #expect(RGBA(hexString: "#ggcdef") == nil)
    }

    @Test func pinnedThemesUseOnePaletteForBothAppearances() {
        #expect(Theme.defaultLight.text.foreground.light == Theme.defaultLight.text.foreground.dark)
        #expect(Theme.defaultDark.text.foreground.light == Theme.defaultDark.text.foreground.dark)
        #expect(Theme.default.text.foreground.light == Theme.defaultLight.text.foreground.light)
        #expect(Theme.default.text.foreground.dark == Theme.defaultDark.text.foreground.dark)
        #expect(Theme.default.text.foreground.resolved(for: .dark) == Theme.default.text.foreground.dark)
    }

    /// Every text color of the high-contrast theme reaches WCAG AAA (7:1)
    /// against its background, in both appearances.
    @Test(arguments: Appearance.allCases)
    func highContrastMeetsAAA(_ appearance: Appearance) throws {
        let t = Theme.highContrast
        let page = try #require(t.text.background).resolved(for: appearance)
        let code = try #require(t.codeBlock.background).resolved(for: appearance)
        var pairs: [(String, RGBA, RGBA)] = [
            ("text", t.text.foreground.resolved(for: appearance), page),
            ("heading", t.heading.foreground.resolved(for: appearance), page),
            ("link", t.link.foreground.resolved(for: appearance), page),
            ("quote", t.quote.foreground.resolved(for: appearance), page),
        ]
        for kind in AlertKind.allCases {
            pairs.append(("alert \(kind)", t.alert[kind].resolved(for: appearance), page))
        }
        for kind in TokenKind.allCases {
            pairs.append(("token \(kind)", t.tokens[kind].resolved(for: appearance), code))
        }
        for (name, fg, bg) in pairs {
            #expect(RGBA.contrastRatio(fg, bg) >= 7, "\(name) \(fg) on \(bg) in \(appearance)")
        }
        #expect(t.link.underline)
    }

    @Test func contrastRatioMatchesWCAG() {
        #expect(abs(RGBA.contrastRatio(RGBA(hex: 0x000000), RGBA(hex: 0xFFFFFF)) - 21) < 0.001)
        #expect(abs(RGBA.contrastRatio(RGBA(hex: 0x777777), RGBA(hex: 0xFFFFFF)) - 4.48) < 0.01)
    }

    @Test func styleResolution() {
        let t = Theme.default
        let body = StyleContext.body
        #expect(t.style(traits: [], in: body) == RunStyle(font: .body, size: 16, foreground: t.text.foreground))
        #expect(t.style(traits: .strong, in: body).weight == t.strongWeight)
        #expect(t.style(traits: .emphasis, in: body).italic)
        #expect(t.style(traits: .strikethrough, in: body).strikethrough)
        let code = t.style(traits: .code, in: body)
        #expect(code.font == .code && code.size == 16 * t.codeScale && code.background == t.inlineCode.background)
        let link = t.style(traits: .link, in: body)
        #expect(link.foreground == t.link.foreground && link.underline == t.link.underline)
        let h2 = t.style(traits: [], in: StyleContext(role: .heading(level: 2)))
        #expect(h2.font == .heading && h2.size == 16 * t.heading.scale(level: 2) && h2.weight == t.heading.weight)
        #expect(t.style(traits: [], in: StyleContext(role: .body, quoted: true)).foreground == t.quote.foreground)
        #expect(t.heading.scale(level: 9) == 1)
        // HTML-block lines are code once, not code of code.
        let htmlLine = t.style(traits: .html, in: StyleContext(role: .codeBlock))
        #expect(htmlLine == t.style(traits: [], in: StyleContext(role: .codeBlock)))
        // Inline code in a heading scales from the heading's size.
        let h1Code = t.style(traits: .code, in: StyleContext(role: .heading(level: 1)))
        #expect(h1Code.size == 16 * t.heading.scale(level: 1) * t.codeScale)
    }
}
