import Testing
import TidemarkRender

@Suite("UnicodeMath")
struct UnicodeMathTests {
    @Test("Greek letters", arguments: [
        (#"\alpha + \beta = \gamma"#, "α + β = γ"),
        (#"\Gamma\Delta\Theta\Lambda\Xi\Pi\Sigma\Upsilon\Phi\Psi\Omega"#, "ΓΔΘΛΞΠΣΥΦΨΩ"),
        (#"\varepsilon \epsilon \varphi \phi \vartheta \theta"#, "εϵφϕϑθ"),
        (#"2\pi r"#, "2πr"),
        (#"\lambda x"#, "λx"),
        (#"\omega_0"#, "ω₀"),
    ])
    func greek(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("superscripts and subscripts", arguments: [
        (#"x^2"#, "x²"),
        (#"x^{10}"#, "x¹⁰"),
        (#"a_i"#, "aᵢ"),
        (#"x_{n+1}"#, "xₙ₊₁"),
        (#"x^{-1}"#, "x⁻¹"),
        (#"x_i^2"#, "xᵢ²"),
        (#"x^2_i"#, "xᵢ²"),
        (#"A^T"#, "Aᵀ"),
        (#"A^*"#, "A*"),
        (#"{}^{14}C"#, "¹⁴C"),
        (#"(-1)^n"#, "(−1)ⁿ"),
        (#"x^23"#, "x²3"),
        (#"x_{\text{max}}"#, "xₘₐₓ"),
        // No superscript α, ∞, ³-of-³, comma: the whole script falls back.
        (#"x^{\alpha}"#, "x^(α)"),
        (#"e^{i\pi}"#, "e^(iπ)"),
        (#"x_{i,j}"#, "x_(i,j)"),
        (#"x^{2^{3}}"#, "x^(2³)"),
        (#"x_q"#, "x_(q)"),
        // Primes and degrees.
        (#"f'(x)"#, "f′(x)"),
        (#"f''"#, "f″"),
        (#"f'_n"#, "f′ₙ"),
        (#"90^\circ"#, "90°"),
    ])
    func scripts(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("fractions", arguments: [
        (#"\frac{a}{b}"#, "a/b"),
        (#"\frac12"#, "1/2"),
        (#"\frac\pi2"#, "π/2"),
        (#"\frac{12}{5}"#, "12/5"),
        (#"\dfrac{\pi}{2}"#, "π/2"),
        (#"\frac{x+1}{2}"#, "(x + 1)/2"),
        (#"\frac{1}{2x}"#, "1/(2x)"),
        (#"\frac{a+b}{c-d}"#, "(a + b)/(c − d)"),
        (#"\frac{x^2}{2}"#, "x²/2"),
        (#"\frac{1}{\sqrt{2}}"#, "1/√2"),
        (#"\frac{\rho}{\varepsilon_0}"#, "ρ/ε₀"),
        (#"\frac{a}{b}^2"#, "(a/b)²"),
        (#"y = \frac{1}{2}x"#, "y = 1/2 x"),
    ])
    func fractions(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("roots", arguments: [
        (#"\sqrt{x}"#, "√x"),
        (#"\sqrt2"#, "√2"),
        (#"\sqrt{x+1}"#, "√(x + 1)"),
        (#"\sqrt{b^2 - 4ac}"#, "√(b² − 4ac)"),
        (#"\sqrt{x^2}"#, "√(x²)"),
        (#"\sqrt[3]{x}"#, "∛x"),
        (#"\sqrt[4]{16}"#, "∜16"),
        (#"\sqrt[n]{x}"#, "ⁿ√x"),
        (#"\sqrt{x}^2"#, "(√x)²"),
    ])
    func roots(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("large operators and limits", arguments: [
        (#"\sum_{i=1}^{n} x_i"#, "∑ᵢ₌₁ⁿ xᵢ"),
        (#"\sum\limits_{k} a_k"#, "∑ₖ aₖ"),
        (#"\sum_{i=1}^{\infty} a_i"#, "∑ᵢ₌₁^(∞) aᵢ"),
        (#"\prod_{k=1}^{n} k"#, "∏ₖ₌₁ⁿ k"),
        (#"\int_0^1 f(x)\,dx"#, "∫₀¹ f(x) dx"),
        (#"\iint_D f\,dA"#, "∬_(D) f dA"),
        (#"\oint_C \mathbf{F} \cdot d\mathbf{r}"#, "∮_(C) F ⋅ dr"),
        (#"\lim_{x \to 0} f(x)"#, "lim_(x→0) f(x)"),
        (#"\lim_{n \to \infty} a_n = L"#, "lim_(n→∞) aₙ = L"),
        (#"\lim_{x \to 0} \frac{\sin x}{x} = 1"#, "lim_(x→0) (sin x)/x = 1"),
    ])
    func largeOperators(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("letter styles", arguments: [
        // Letterlike Symbols block.
        (#"\mathbb{N} \subset \mathbb{Z} \subset \mathbb{Q} \subset \mathbb{R} \subset \mathbb{C}"#, "ℕ ⊂ ℤ ⊂ ℚ ⊂ ℝ ⊂ ℂ"),
        (#"\mathbb{P} \mathbb{H}"#, "ℙℍ"),
        (#"\mathbb{R}^n"#, "ℝⁿ"),
        (#"\mathbb R"#, "ℝ"),
        // Mathematical Alphanumeric Symbols block.
        (#"\mathbb{E}[X]"#, "𝔼[X]"),
        (#"\mathbb{A}"#, "𝔸"),
        (#"\mathbb{1}"#, "𝟙"),
        (#"\mathcal{L}"#, "ℒ"),
        (#"\mathcal{A}"#, "𝒜"),
        (#"\mathcal{O}(n)"#, "𝒪(n)"),
        (#"\mathfrak{g}"#, "𝔤"),
        (#"\mathfrak{R}"#, "ℜ"),
        // Bold and italic carry no meaning a terminal can show: plain letters.
        (#"\mathbf{v} \cdot \mathbf{w}"#, "v ⋅ w"),
        (#"\mathit{x}"#, "x"),
    ])
    func letterStyles(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("arrows", arguments: [
        (#"A \to B"#, "A → B"),
        (#"a \rightarrow b \leftarrow c"#, "a → b ← c"),
        (#"P \Rightarrow Q \Leftrightarrow R"#, "P ⇒ Q ⇔ R"),
        (#"x \mapsto x^2"#, "x ↦ x²"),
        (#"p \implies q"#, "p ⟹ q"),
        (#"p \iff q"#, "p ⟺ q"),
        (#"a \leftrightarrow b"#, "a ↔ b"),
    ])
    func arrows(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("relations and operators", arguments: [
        (#"a \leq b"#, "a ≤ b"),
        (#"a \le b \ge c"#, "a ≤ b ≥ c"),
        (#"a \geq b"#, "a ≥ b"),
        (#"a \neq b"#, "a ≠ b"),
        (#"\pi \approx 3.14"#, "π ≈ 3.14"),
        (#"a \equiv b \pmod{n}"#, "a ≡ b (mod n)"),
        (#"x \sim y \propto z"#, "x ∼ y ∝ z"),
        (#"x \in A, y \notin B"#, "x ∈ A, y ∉ B"),
        (#"A \subset B \subseteq C"#, "A ⊂ B ⊆ C"),
        (#"A \cup B \cap C"#, "A ∪ B ∩ C"),
        (#"a \times b \cdot c"#, "a × b ⋅ c"),
        (#"\pm 1"#, "±1"),
        (#"a \mp b \div c"#, "a ∓ b ÷ c"),
        (#"a = -b"#, "a = −b"),
        (#"x \to \infty"#, "x → ∞"),
        (#"\partial f / \partial x"#, "∂f/∂x"),
        (#"\nabla f"#, "∇f"),
        (#"\forall x \exists y"#, "∀x∃y"),
        (#"A \cap B = \emptyset"#, "A ∩ B = ∅"),
        (#"1, 2, \ldots, n"#, "1, 2, …, n"),
        (#"a + \cdots + z"#, "a + ⋯ + z"),
        (#"x_1, \dots, x_n"#, "x₁, …, xₙ"),
        (#"f'(x) = f^\prime(x)"#, "f′(x) = f′(x)"),
        (#"f \circ g"#, "f ∘ g"),
        (#"\deg p"#, "deg p"),
        (#"\neg p \land q"#, "¬p ∧ q"),
        (#"a \not= b"#, "a ≠ b"),
        (#"x \not\in A"#, "x ∉ A"),
        // Unicode already in the source spaces like the command it stands for.
        ("a≤b", "a ≤ b"),
        ("α+β×γ → ∞", "α + β × γ → ∞"),
    ])
    func relationsAndOperators(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("text and function names", arguments: [
        (#"\text{if } x > 0"#, "if x > 0"),
        (#"x = 1 \text{ for all } n"#, "x = 1 for all n"),
        (#"\text{a {b} c}"#, "a b c"),
        (#"a\text{ }b"#, "a b"),
        (#"\text{1--2, a---b}"#, "1–2, a—b"),
        (#"\mathrm{d}x"#, "dx"),
        (#"\operatorname{rank}(A)"#, "rank(A)"),
        (#"\operatorname*{arg\,max}_x f"#, "arg maxₓ f"),
        (#"\sin x"#, "sin x"),
        (#"\cos(\theta)"#, "cos(θ)"),
        (#"\log_2 n"#, "log₂ n"),
        (#"\ln x + \exp(y)"#, "ln x + exp(y)"),
        (#"\max(a, b)"#, "max(a, b)"),
        (#"\min_i x_i"#, "minᵢ xᵢ"),
        (#"\sin^2\theta + \cos^2\theta = 1"#, "sin² θ + cos² θ = 1"),
    ])
    func textAndNames(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("delimiters, grouping and spacing", arguments: [
        (#"\left( x \right)"#, "(x)"),
        (#"\left[ 0, 1 \right]"#, "[0, 1]"),
        (#"\left| x \right|"#, "|x|"),
        (#"\left\{ x \mid x > 0 \right\}"#, "{x ∣ x > 0}"),
        (#"\left( \frac{a}{b} \right)^2"#, "(a/b)²"),
        (#"\left. \frac{df}{dx} \right|_{x=0}"#, "(df)/(dx)|ₓ₌₀"),
        (#"\bigl( x \bigr)"#, "(x)"),
        (#"\{1, 2, 3\}"#, "{1, 2, 3}"),
        (#"\langle u, v \rangle"#, "⟨u, v⟩"),
        (#"\lfloor x \rfloor"#, "⌊x⌋"),
        (#"{a}{b}"#, "ab"),
        (#"{{{x}}}"#, "x"),
        (#"a\,b"#, "a b"),
        (#"a\;b"#, "a b"),
        (#"a\ b"#, "a b"),
        (#"a~b"#, "a b"),
        (#"a\quad b"#, "a  b"),
        (#"a\qquad b"#, "a    b"),
        (#"a\!b"#, "ab"),
        (#"a   +   b"#, "a + b"),
        (#"a+b=c"#, "a + b = c"),
    ])
    func delimitersAndSpacing(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("accents", arguments: [
        (#"\hat{x}"#, "x\u{0302}"),
        (#"\vec{v}"#, "v\u{20D7}"),
        (#"\bar{x}"#, "x\u{0304}"),
        (#"\overline{AB}"#, "A\u{0305}B\u{0305}"),
    ])
    func accents(_ input: String, _ expected: String) {
        #expect(UnicodeMath.render(input) == expected)
    }

    @Test("unsupported or malformed input gives nil", arguments: [
        #"{x"#, #"x}"#, "\\", "x \\", #"x^"#, #"x_"#, #"x^{"#,
        #"\frac{a}"#, #"\frac{a}{b"#, #"\sqrt"#, #"\sqrt[3{x}"#, #"\sqrt[\alpha]{x}"#,
        #"\unknowncommand"#, #"\binom{n}{k}"#, #"\color{red}{x}"#,
        #"\left( x"#, #"x \right)"#, #"\left< x"#, #"{\left( x} \right)"#,
        #"x^2^3"#, #"x_1_2"#, #"x^2'"#,
        #"\begin{matrix} a & b \end{matrix}"#, #"\begin{cases} x \end{cases}"#,
        #"a & b"#, #"a \\ b"#, #"$x$"#, #"50%"#,
        #"\text{a"#, #"\text{$x$}"#, #"\text{\alpha}"#,
        #"\mathbb{\alpha}"#, #"\mathbb{}"#, #"\hat{xy}"#, #"\hat{x^2}"#, #"\not"#,
        "x\u{0}y",
    ])
    func unsupported(_ input: String) {
        #expect(UnicodeMath.render(input) == nil)
    }

    @Test("blank input renders as empty", arguments: ["", "   ", "\\,", "{}"])
    func blank(_ input: String) {
        #expect(UnicodeMath.render(input) == "")
    }

    /// Pathological inputs are built inside the test so their 10,000-level
    /// sources do not end up in test logs as argument descriptions.
    enum Pathology: String, CaseIterable, Sendable {
        case balancedBraces, openBraces, closeBraces, sqrtChain, superscriptChain, fracChain, leftChain

        var input: String {
            let n = 10_000
            switch self {
            case .balancedBraces: return String(repeating: "{", count: n) + "x" + String(repeating: "}", count: n)
            case .openBraces: return String(repeating: "{", count: n)
            case .closeBraces: return String(repeating: "}", count: n)
            case .sqrtChain: return String(repeating: #"\sqrt"#, count: n) + "x"
            case .superscriptChain: return String(repeating: "x^{", count: n) + String(repeating: "}", count: n)
            case .fracChain: return String(repeating: #"\frac{"#, count: n) + "1"
            case .leftChain: return String(repeating: #"\left("#, count: n)
            }
        }
    }

    @Test("pathological nesting fails fast instead of overflowing the stack", arguments: Pathology.allCases)
    func deepNesting(_ pathology: Pathology) {
        let input = pathology.input
        var result: String? = "not run"
        let elapsed = ContinuousClock().measure { result = UnicodeMath.render(input) }
        #expect(result == nil)
        #expect(elapsed < .seconds(2))
    }

    @Test("text-mode braces nest without a depth limit")
    func deepTextBraces() {
        let input = #"\text{"# + String(repeating: "{", count: 10_000) + "ok" + String(repeating: "}", count: 10_000) + "}"
        #expect(UnicodeMath.render(input) == "ok")
    }

    @Test("ordinary nesting stays within the limit")
    func moderateNesting() {
        let input = String(repeating: #"\frac{1}{"#, count: 8) + "x" + String(repeating: "}", count: 8)
        #expect(UnicodeMath.render(input) == "1/(1/(1/(1/(1/(1/(1/(1/x)))))))")
    }

    @Test("long flat input renders in linear time")
    func longInput() {
        let input = String(repeating: #"x^2 + \alpha_i - "#, count: 5_000) + "1"
        var output: String?
        let elapsed = ContinuousClock().measure { output = UnicodeMath.render(input) }
        #expect(output?.hasPrefix("x² + αᵢ − x² + αᵢ") == true)
        #expect(output?.hasSuffix("− 1") == true)
        #expect(elapsed < .seconds(5))
    }
}
