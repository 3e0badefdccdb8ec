import Testing
import Tidemark

@Suite("MathSource")
struct MathSourceTests {
    // MARK: Rewrites

    @Test("dots variants", arguments: [
        (#"\dots"#, #"\ldots"#),
        (#"a, \dotsc, z"#, #"a, \ldots, z"#),
        (#"a + \dotsb + z"#, #"a + \ldots + z"#),
        (#"\dotso"#, #"\ldots"#),
        (#"a \dotsm z"#, #"a \cdots z"#),
        (#"\int \dotsi \int"#, #"\int \cdots \int"#),
        (#"x_1,\dots,x_n"#, #"x_1,\ldots,x_n"#),
    ])
    func dots(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("logical arrows", arguments: [
        (#"p \implies q"#, #"p \Rightarrow q"#),
        (#"p \impliedby q"#, #"p \Leftarrow q"#),
        (#"p \iff q"#, #"p \Leftrightarrow q"#),
        (#"a\implies{b}"#, #"a\Rightarrow{b}"#),
    ])
    func arrows(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("fraction styles", arguments: [
        (#"\dfrac{a}{b}"#, #"\frac{a}{b}"#),
        (#"\tfrac{1}{2}"#, #"\frac{1}{2}"#),
        (#"\dfrac12"#, #"\frac12"#),
        (#"\frac{a}{b}"#, #"\frac{a}{b}"#),
    ])
    func fractions(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("boxed unwraps balanced braces", arguments: [
        (#"\boxed{x}"#, "x"),
        (#"y = \boxed{42}"#, "y = 42"),
        (#"\boxed{\frac{a}{b}}"#, #"\frac{a}{b}"#),
        (#"\boxed{{a}^{2} + \sqrt{b_{1}}}"#, #"{a}^{2} + \sqrt{b_{1}}"#),
        (#"\boxed {x}"#, "x"),
        (#"\boxed{\dfrac{1}{2}} + 1"#, #"\frac{1}{2} + 1"#),
        (#"\boxed{\boxed{x}}"#, "x"),
        (#"\boxed{\{ x \}}"#, #"\{ x \}"#),
    ])
    func boxed(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("align becomes aligned", arguments: [
        (#"\begin{align} a &= b \\ c &= d \end{align}"#, #"\begin{aligned} a &= b \\ c &= d \end{aligned}"#),
        (#"\begin{align*}x &= 1\end{align*}"#, #"\begin{aligned}x &= 1\end{aligned}"#),
        (#"\begin{aligned}x\end{aligned}"#, #"\begin{aligned}x\end{aligned}"#),
    ])
    func align(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("cases becomes a braced matrix", arguments: [
        (
            #"\begin{cases} a & b \\ c & d \end{cases}"#,
            #"\left\{ \begin{matrix} a & b \\ c & d \end{matrix} \right."#
        ),
        (
            #"f(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}"#,
            #"f(x) = \left\{ \begin{matrix} 1 & x > 0 \\ 0 & \text{otherwise} \end{matrix} \right."#
        ),
        (
            #"\begin{cases} \begin{cases} a \end{cases} \end{cases}"#,
            #"\left\{ \begin{matrix} \left\{ \begin{matrix} a \end{matrix} \right. \end{matrix} \right."#
        ),
    ])
    func cases(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("operatorname becomes mathrm", arguments: [
        (#"\operatorname{foo}(x)"#, #"\mathrm{foo}(x)"#),
        (#"\operatorname*{argmax}_x f"#, #"\mathrm{argmax}_x f"#),
    ])
    func operatorName(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    // MARK: Things that must not change

    @Test("token boundaries and untouched input", arguments: [
        // A command name ends at the first non-letter: these are other commands.
        (#"\dotsc"#, #"\ldots"#),
        (#"\dotsx"#, #"\dotsx"#),
        (#"\iffy"#, #"\iffy"#),
        (#"\boxedx"#, #"\boxedx"#),
        (#"\implies2"#, #"\Rightarrow2"#),
        // `\\` is a line break; the letters after it are not a command.
        (#"a \\dots"#, #"a \\dots"#),
        // No-op: nothing here needs rewriting.
        (#"x^2 + \alpha_i = \sqrt{y} \cdot \frac{1}{2}"#, #"x^2 + \alpha_i = \sqrt{y} \cdot \frac{1}{2}"#),
        (#"\text{if } x \implies y"#, #"\text{if } x \Rightarrow y"#),
        (#"\text{\dots and \boxed{x}}"#, #"\text{\dots and \boxed{x}}"#),
        (#"a\,b\;c\!d\:e"#, #"a\,b\;c\!d\:e"#),
        ("α + β = \\dots", "α + β = \\ldots"),
        ("", ""),
    ])
    func untouched(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("incomplete structures are left as they are", arguments: [
        (#"\boxed{x"#, #"\boxed{x"#),
        (#"\boxed"#, #"\boxed"#),
        (#"\begin{cases} a & b"#, #"\begin{cases} a & b"#),
        (#"a \end{align}"#, #"a \end{align}"#),
        (#"\begin{align} a \end{cases}"#, #"\begin{align} a \end{cases}"#),
        (#"\begin{ali"#, #"\begin{ali"#),
        (#"x \dfrac"#, #"x \frac"#),
        ("x \\", "x \\"),
    ])
    func incomplete(_ input: String, _ expected: String) {
        #expect(MathSource.normalizedForNativeTypesetting(input) == expected)
    }

    @Test("deep nesting is handled without recursion")
    func deepNesting() {
        let depth = 10_000
        let input = String(repeating: #"\boxed{"#, count: depth) + "x" + String(repeating: "}", count: depth)
        #expect(MathSource.normalizedForNativeTypesetting(input) == "x")
        #expect(MathSource.isLikelyRenderable(input))
    }

    // MARK: Renderability

    @Test("likely renderable", arguments: [
        ("", true),
        (#"x^2"#, true),
        (#"\frac{a}{b}"#, true),
        (#"\{ x \}"#, true),
        (#"\left( x \right)"#, true),
        (#"\begin{cases} a \\ b \end{cases}"#, true),
        (#"\begin{align*} a \end{align*}"#, true),
        (#"\text{a } x"#, true),
        (#"\frac{a}{b"#, false),
        (#"x}"#, false),
        (#"{x"#, false),
        (#"\begin{cases} a"#, false),
        (#"\begin{align} a \end{cases}"#, false),
        (#"\end{matrix}"#, false),
        (#"\begin{ali"#, false),
        (#"\left( x"#, false),
        (#"x \right)"#, false),
        ("x \\", false),
    ])
    func renderable(_ input: String, _ expected: Bool) {
        #expect(MathSource.isLikelyRenderable(input) == expected)
    }
}
