import ArgumentParser
import TidemarkRender

/// How `render` and `demo` draw on the terminal.
struct TerminalFlags: ParsableArguments {
    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    enum ThemeName: String, ExpressibleByArgument, CaseIterable {
        case dark, light
    }

    @Option(help: ArgumentHelp("Wrap at this many columns (default: the terminal's width, or 80).", valueName: "n"))
    var width: Int?

    @Option(help: ArgumentHelp("""
        Colors for a dark or a light background (default: from COLORFGBG, else dark).
        """, valueName: "theme"))
    var theme: ThemeName?

    @Option(help: ArgumentHelp("""
        Styled output: auto (when standard output is a terminal; colors unless NO_COLOR is set), \
        always, or never.
        """, valueName: "when"))
    var color: ColorMode = .auto

    @Flag(name: .customLong("no-color"), help: "No colors (bold, italic and underline remain on a terminal).")
    var noColor = false

    @Flag(name: .customLong("no-hyperlinks"),
          help: "Show link URLs after the link text instead of as terminal hyperlinks (OSC 8).")
    var noHyperlinks = false

    @Option(help: ArgumentHelp("""
        Live view (--stream, demo): redraws per second of the trailing block while text arrives \
        (it is also redrawn when a line is complete and no more text is waiting).
        """, valueName: "n"))
    var fps = 20

    func validate() throws {
        if let width, width < TerminalOptions.minimumWidth {
            throw ValidationError("--width must be at least \(TerminalOptions.minimumWidth)")
        }
        if fps < 1 || fps > 1000 { throw ValidationError("--fps must be between 1 and 1000") }
    }

    /// The writer's options for standard output: `plain` for `--format
    /// plain`, else styled as `--color`, `--no-color`, `NO_COLOR` and
    /// whether standard output is a terminal decide.
    func options(plain: Bool) -> TerminalOptions {
        let interactive = Terminal.isInteractive()
        let styling: TerminalOptions.Styling
        // An explicit request wins over the environment.
        let noColorEnv = !(Terminal.environment("NO_COLOR") ?? "").isEmpty
        if plain {
            styling = .plain
        } else if color == .always {
            styling = noColor ? .attributes : Self.colorDepth
        } else if !interactive {
            styling = .plain
        } else if color == .never || noColor || noColorEnv {
            styling = .attributes
        } else {
            styling = Self.colorDepth
        }
        let appearance = theme.map { $0 == .light ? Appearance.light : .dark } ?? Self.backgroundAppearance
        let columns = interactive ? Terminal.size()?.columns : nil
        let fallback = Int(Terminal.environment("COLUMNS") ?? "")
            .flatMap { $0 >= TerminalOptions.minimumWidth ? $0 : nil }
        return TerminalOptions(
            width: width ?? columns ?? fallback ?? 80,
            theme: appearance == .light ? .defaultLight : .defaultDark,
            appearance: appearance,
            styling: styling,
            hyperlinks: !noHyperlinks)
    }

    /// 24-bit color where the terminal says it has it, else 256 colors.
    private static var colorDepth: TerminalOptions.Styling {
        let colorterm = Terminal.environment("COLORTERM") ?? ""
        return colorterm == "truecolor" || colorterm == "24bit" ? .trueColor : .palette256
    }

    /// `COLORFGBG` ("15;0": light text on black) names the background's
    /// palette index: 0–6 and 8 are dark.
    private static var backgroundAppearance: Appearance {
        guard let value = Terminal.environment("COLORFGBG"),
              let last = value.split(separator: ";").last, let index = Int(last) else { return .dark }
        return (0...6).contains(index) || index == 8 ? .dark : .light
    }
}
