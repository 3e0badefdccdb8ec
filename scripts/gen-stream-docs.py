#!/usr/bin/env python3
"""Deterministic generator of realistic-but-tricky Markdown documents, the kind
a language model streams (CommonMark + GFM + footnotes + math + alerts), for
checking the streaming mode against the batch parse from outside
(scripts/check-emit-each.py --all).

    scripts/gen-stream-docs.py --seed 1 --count 300 --out docs/   # docs/doc-00000-s1.md ...
    scripts/gen-stream-docs.py --seed 1 --one 17                   # print document 17 to stdout
    --style llm|mutant|splice|lines|focus|cjk|links|open|blocks|utf8|punct|bytes, --dist small|log (see --help)

Each document is generated from Random(f"{seed}:{index}") so any single document
can be regenerated on its own.  Sizes are 300 B .. 4 KB (skewed small).
"""
import argparse
import math
import os
import random
import sys

WORDS = ("the a parser stream token chunk buffer render model answer table list item code "
         "block quote link image footnote value config server client cache index node tree "
         "query event handler async await future promise vector matrix test case edge "
         "fast slow lazy eager strict safe unsafe simple typed generic quickly rarely always "
         "run build ship check parse emit flush append finish").split()
INTL = ["café", "naïve", "résumé", "Zürich", "façade", "jalapeño", "東京", "日本語のテキスト",
        "中文", "한국어", "Ωμέγα", "Привет", "🙂", "🚀", "👍🏽", "✅", "→", "…", "—", "“quoted”",
        "ß", "İstanbul", "e\u0301", "👨‍👩‍👧"]
LANGS = ["python", "swift", "js", "rust", "bash", "json", "yaml", "sql", "go", "console",
         "c++", "text", "diff", "python {.numberLines}", "`weird`", "~tilde", "py title=\"a b\""]
URLS = ["https://example.com", "https://example.com/a/b?q=1&r=2", "/relative/path",
        "http://x.y/z_(w)", "https://例え.jp/パス", "mailto:me@x.io", "#anchor", "./img.png",
        "https://example.com/a%20b", "<https://example.com/with space>", "javascript:alert(1)",
        "https://en.wikipedia.org/wiki/Foo_(bar)", "ftp://files.example.org/f.tgz"]
TITLES = ['"A title"', "'single'", "(paren)", '"with \\"escape\\""', '"multi\nline title"', '"&amp; ent"']
ENTITIES = ["&amp;", "&#x27;", "&nbsp;", "&lt;", "&gt;", "&copy;", "&#35;", "&#X22;", "&quot;",
            "&hellip;", "&nope;", "&#0;", "& ", "&amp", "&ThickSpace;", "&#1234567;"]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.refs = []        # reference labels defined (or to be defined)
        self.foot = []        # footnote labels used
        self.used_refs = []
        self.plain = rng.choice([0.55, 0.7, 0.8, 0.9])

    # ---------------------------------------------------------------- inline
    def word(self):
        r = self.r
        x = r.random()
        if x < 0.12:
            return r.choice(INTL)
        if x < 0.16:
            return r.choice(WORDS).capitalize()
        if x < 0.19:
            return str(r.randint(0, 2024))
        return r.choice(WORDS)

    def words(self, lo=1, hi=5):
        return " ".join(self.word() for _ in range(self.r.randint(lo, hi)))

    def label(self):
        r = self.r
        c = r.random()
        if self.refs and c < 0.5:
            lab = r.choice(self.refs)
            # case / whitespace variants of the same label
            v = r.random()
            if v < 0.2:
                lab = lab.upper()
            elif v < 0.3:
                lab = lab.replace(" ", "  ")
            return lab
        lab = r.choice(["foo", "bar", "docs", "1", "API ref", "ÄÖÜ", "x*y*", "a\\]b", "spec", "链接", "Foo Bar"])
        if lab not in self.refs:
            self.refs.append(lab)
        return lab

    def link(self, image=False):
        r = self.r
        bang = "!" if image else ""
        text = self.inline(depth=2, lo=1, hi=3, allow_links=False) if not image else self.words(1, 3)
        k = r.random()
        if k < 0.35:
            t = (" " + r.choice(TITLES)) if r.random() < 0.3 else ""
            u = r.choice(URLS)
            if r.random() < 0.1:
                u = ""
            return f"{bang}[{text}]({u}{t})"
        lab = self.label()
        self.used_refs.append(lab)
        if k < 0.55:
            return f"{bang}[{text}][{lab}]"
        if k < 0.75:
            return f"{bang}[{lab}][]"
        if k < 0.95:
            return f"{bang}[{lab}]"
        # broken / unclosed
        return r.choice([f"{bang}[{text}](", f"{bang}[{text}](<{r.choice(URLS)}", f"{bang}[{text}",
                         f"{bang}[{text}]({r.choice(URLS)} \"unterminated", f"{bang}[{text}] ({r.choice(URLS)})"])

    def autolink(self):
        r = self.r
        return r.choice(["<https://example.com/x>", "<mailto:a@b.co>", "<a.b+c@d.org>", "www.example.com",
                         "www.example.com/path_(x).", "https://github.com/o/r/issues/1?x=y#z", "http://a.b/c.",
                         "foo@bar.baz", "foo.bar@example.co.uk.", "https://x.io/**bold**", "www.commonmark.org/he<lp",
                         "(www.google.com/search?q=Markup+(business))", "https://a.b/&amp;c", "xmpp:me@x.org/res",
                         "<irc://x>", "http://localhost:8080/", "www.x.y~~z~~", "https://e.com/~user/"])

    def math(self):
        r = self.r
        return r.choice(["$x$", "$x^2 + y^2 = z^2$", "$O(n \\log n)$", "$$E=mc^2$$", "$a_1$ and $b_2$",
                         "costs $5 and $6", "$ x $", "$x", "\\$escaped$", "$\\alpha$", "$`a`$", "$$", "$x$y",
                         "$$\\frac{1}{2}$$", "$ $", "$a\\$b$", "$|x|$"])

    def html_inline(self):
        return self.r.choice(["<span>", "</span>", "<b>bold</b>", "<br>", "<br/>", "<!-- c -->",
                              "<kbd>Ctrl</kbd>", "<a href=\"x\">a</a>", "<img src=x>", "<?php ?>",
                              "<x y='z'>", "< notag>", "<!DOCTYPE x>", "<![CDATA[x]]>", "<em", "</div>",
                              "<sup>2</sup>", "<script>x</script>", "<title>t</title>"])

    def codespan(self):
        r = self.r
        return r.choice(["`code`", "``a ` b``", "` x `", "`foo|bar`", "`*not em*`", "`$x$`", "```tri```",
                         "`unclosed", "`` `` ", "`a\\`", "`[link](x)`", "`<b>`", "`&amp;`", "` `", "``` a ```"])

    def emph(self, depth, allow_links):
        r = self.r
        inner = self.inline(depth + 1, 1, 3, allow_links)
        d = r.choice(["*", "_", "**", "__", "***", "~~", "~", "___", "*", "**"])
        c = r.random()
        if c < 0.8:
            return f"{d}{inner}{d}"
        if c < 0.88:
            return f"{d}{inner}"           # unclosed
        if c < 0.94:
            return f"{d} {inner}{d}"       # not left-flanking
        return f"{d}{inner} {d}"

    def inline(self, depth=0, lo=3, hi=14, allow_links=True):
        r = self.r
        out = []
        n = r.randint(lo, hi)
        for _ in range(n):
            x = r.random()
            if depth > 2:
                x = x * 0.5
            if x < self.plain:
                out.append(self.word())
                continue
            x = 0.55 + (x - self.plain) / (1 - self.plain) * 0.45
            if x < 0.55:
                out.append(self.word())
            elif x < 0.64:
                out.append(self.emph(depth, allow_links))
            elif x < 0.69:
                out.append(self.codespan())
            elif x < 0.75 and allow_links:
                out.append(self.link(image=r.random() < 0.2))
            elif x < 0.78:
                out.append(self.autolink())
            elif x < 0.81:
                lab = r.choice(["1", "2", "note", "a b", "^", "x"])
                if lab not in self.foot:
                    self.foot.append(lab)
                out.append(f"[^{lab}]")
            elif x < 0.85:
                out.append(self.math())
            elif x < 0.87:
                out.append(self.html_inline())
            elif x < 0.90:
                out.append(r.choice(ENTITIES))
            elif x < 0.93:
                out.append(r.choice(["\\*", "\\_", "\\|", "\\[", "\\]", "\\\\", "\\`", "\\$", "\\~", "\\#", "\\!", "\\<", "\\a"]))
            elif x < 0.95:
                out.append(r.choice(["*", "**", "_", "~~", "[", "]", "![", "<", "|", "$", "`", "(", ")", "!", "\\"]))
            elif x < 0.97:
                out.append(self.word() + "\t" + self.word())
            else:
                out.append(r.choice(["a*b*c", "snake_case_name", "2*3*4", "**", "x~y", "foo__bar__", "[]", "[x]", "[ ]"]))
        s = ""
        for i, t in enumerate(out):
            if i and r.random() < 0.93:
                s += " "
            s += t
        return s

    def para_lines(self, lo=1, hi=4):
        r = self.r
        lines = []
        for i in range(r.randint(lo, hi)):
            line = self.inline()
            if i < hi - 1 and r.random() < 0.1:
                line += r.choice(["  ", "\\", "   ", " \t"])  # hard break / trailing ws
            elif r.random() < 0.08:
                line += r.choice([" ", "\t", "  "])
            lines.append(line)
        return lines

    # ---------------------------------------------------------------- blocks
    def heading(self):
        r = self.r
        lvl = r.randint(1, 6)
        t = self.inline(lo=1, hi=6)
        c = r.random()
        if c < 0.1:
            return [f"{'#' * lvl} {t} {'#' * r.randint(1, 4)}"]
        if c < 0.15:
            return [f"{'#' * lvl}{t}"]      # not a heading
        if c < 0.18:
            return ["#" * lvl]
        if c < 0.21:
            return [f"{' ' * r.randint(1, 3)}{'#' * lvl} {t}"]
        if c < 0.23:
            return [f"####### {t}"]
        return [f"{'#' * lvl} {t}"]

    def setext(self):
        r = self.r
        lines = self.para_lines(1, 3)
        u = r.choice(["=", "-"]) * r.randint(1, 8)
        if r.random() < 0.2:
            u = " " * r.randint(1, 3) + u + " " * r.randint(0, 2)
        return lines + [u]

    def thematic(self):
        return [self.r.choice(["***", "---", "___", "- - -", "* * *", "_ _ _ _", "-----", " ***", "***  ", "--", "**", "—"])]

    def fence(self, depth):
        r = self.r
        ch = r.choice(["`", "`", "~"])
        n = r.choice([3, 3, 3, 4, 5])
        info = r.choice(LANGS + [""] * 4)
        if ch == "`" and "`" in info:
            info = "python"
        lines = [ch * n + info]
        for _ in range(r.randint(0, 6)):
            c = r.random()
            if c < 0.12:
                lines.append(ch * (n - 1) if n > 3 else ("~~~" if ch == "`" else "```"))  # inner shorter / other fence
            elif c < 0.2:
                lines.append("")
            elif c < 0.3:
                lines.append("\t" + r.choice(["return x", "if (a < b) { *p = &q; }", "# comment"]))
            else:
                lines.append(r.choice(["def f(x):", "    return x * 2", "let a = [1, 2, 3]", "SELECT * FROM t;",
                                       "| not | table |", "# not heading", "- not list", "$x$", "<div>", "**no**",
                                       "echo \"$HOME\" | grep -v '^#'", "    indented", "fn main() {}", "}", "```js"]))
        if r.random() < 0.85 or depth > 0:
            lines.append(ch * (n + r.choice([0, 0, 0, 1])) + r.choice(["", "", " ", "  "]))
        return lines

    def indented_code(self):
        r = self.r
        lines = []
        for _ in range(r.randint(1, 4)):
            pre = r.choice(["    ", "\t", "     ", "  \t"])
            lines.append(pre + r.choice(["x = 1", "print(x)", "", "  nested", "*not em*", "<b>"]))
        if lines[0].strip() == "":
            lines[0] = "    code"
        return lines

    def html_block(self):
        r = self.r
        return r.choice([
            ["<div>", self.words(), "</div>"],
            ["<div class=\"note\">", "", "*markdown* inside", "", "</div>"],
            ["<!-- a comment", self.words(), "-->"],
            ["<!-- unclosed comment", self.words()],
            ["<pre>", "x < y", "</pre>"],
            ["<details>", "<summary>More</summary>", "", self.words(), "", "</details>"],
            ["<script>", "var a = '**x**';", "</script>"],
            ["<table><tr><td>", "cell", "</td></tr></table>"],
            ["<img src=\"x.png\" />"],
            ["<custom-el attr>", self.words()],
            ["<?xml version=\"1.0\"?>"],
            ["<!DOCTYPE html>"],
            ["<![CDATA[", "x", "]]>"],
            ["</p>", self.words()],
            ["<textarea>", "", "*x*", "</textarea>"],
        ])

    def math_block(self):
        r = self.r
        body = r.choice([["x^2 + y^2"], ["\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}"], ["a", "", "b"], [],
                         ["\\sum_{i=0}^n i = \\frac{n(n+1)}{2}"], ["$$"]])
        c = r.random()
        if c < 0.25:
            return ["$$" + (body[0] if body else "x") + "$$"]
        if c < 0.35:
            return ["$$"] + body   # unclosed
        if c < 0.45:
            return ["$$ " + (body[0] if body else "x")] + ["$$"]
        return ["$$"] + body + ["$$"]

    def table(self):
        r = self.r
        cols = r.randint(1, 5)
        lead = r.random() < 0.7
        trail = r.random() < 0.6

        def row(cells):
            s = " | ".join(cells)
            if lead:
                s = "| " + s
            if trail:
                s = s + " |"
            return s

        def cell():
            c = r.random()
            if c < 0.6:
                return self.words(1, 3)
            if c < 0.7:
                return self.codespan().replace("|", "\\|")
            if c < 0.78:
                return "`a \\| b`"
            if c < 0.86:
                return self.link()
            if c < 0.9:
                return ""
            if c < 0.95:
                return self.emph(2, False)
            return self.math()

        hdr = row([self.words(1, 2) for _ in range(cols)])
        aligns = [r.choice(["---", ":--", "--:", ":-:", "-", "------", ":---:"]) for _ in range(cols)]
        if r.random() < 0.1:
            aligns = aligns[:-1] or ["---", "---"]   # mismatched delimiter row
        delim = row(aligns)
        if r.random() < 0.15:
            delim = delim.replace(" ", "")
        lines = []
        if r.random() < 0.2:
            lines += self.para_lines(1, 2)   # paragraph right before the header
        lines += [hdr, delim]
        for _ in range(r.randint(0, 5)):
            n = max(1, cols + r.choice([0, 0, 0, -1, 1, 2]))
            lines.append(row([cell() for _ in range(n)]))
        if r.random() < 0.2:
            lines.append(self.inline(lo=2, hi=5))   # a row without pipes continues the table
        return lines

    def refdef(self):
        r = self.r
        lab = self.label() if r.random() < 0.7 else r.choice(["foo", "bar", "later"])
        u = r.choice(URLS)
        c = r.random()
        if c < 0.3:
            return [f"[{lab}]: {u}"]
        if c < 0.5:
            return [f"[{lab}]: {u} {r.choice(TITLES)}"]
        if c < 0.6:
            return [f"[{lab}]:", f"  {u}", f"  {r.choice(TITLES)}"]
        if c < 0.7:
            return [f"[{lab}]: {u} \"title\" trailing junk"]          # invalid
        if c < 0.8:
            return [f"[{lab}]: {u} 'unterminated title", self.words()]  # becomes invalid/valid later
        if c < 0.86:
            return [f"[{lab}]: {u}", f"\"title\" junk"]             # valid without title
        if c < 0.92:
            return [f"[{lab}]: <{u}>"]
        return [f"[{lab}]:"]                                          # invalid (no destination)

    def footdef(self, depth):
        r = self.r
        lab = r.choice(self.foot) if self.foot and r.random() < 0.8 else r.choice(["1", "2", "note"])
        lines = [f"[^{lab}]: " + self.inline(lo=2, hi=8)]
        if r.random() < 0.5:
            lines += ["", "    " + self.inline(lo=2, hi=8)]
        if r.random() < 0.2:
            lines += ["", "    ```", "    code", "    ```"]
        if r.random() < 0.2:
            lines += [self.inline(lo=2, hi=5)]  # lazy continuation
        return lines

    def alert(self):
        r = self.r
        kind = r.choice(["NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION", "note", "FOO"])
        lines = [f"> [!{kind}]"]
        for l in self.para_lines(1, 3):
            lines.append("> " + l)
        return lines

    def blockquote(self, depth):
        r = self.r
        inner = self.blocks(depth + 1, r.randint(1, 3))
        out = []
        for i, l in enumerate(inner):
            if l == "" and r.random() < 0.3:
                out.append(">")
            elif i > 0 and l and r.random() < 0.1 and not l.startswith((" ", "\t", "`", "~", "-", "*", "#", "|", ">")):
                out.append(l)  # lazy continuation (may or may not be lazy-able)
            else:
                out.append(r.choice(["> ", "> ", ">", ">  "]) + l if l else ">")
        return out

    def list_(self, depth):
        r = self.r
        ordered = r.random() < 0.4
        marker = r.choice([".", ")"]) if ordered else r.choice(["-", "*", "+", "-", "-"])
        start = r.choice([1, 1, 1, 0, 3, 10, 99, 123456789])
        loose = r.random() < 0.3
        task = (not ordered) and r.random() < 0.3
        out = []
        n = r.randint(1, 5)
        for i in range(n):
            m = f"{start + i}{marker}" if ordered else marker
            sp = " " * (1 if r.random() < 0.85 else r.randint(2, 4))
            pad = " " * (len(m) + len(sp))
            if r.random() < 0.05:
                pad = pad + " "   # over-indented children
            first = self.inline(lo=1, hi=8)
            if task:
                first = r.choice(["[ ] ", "[x] ", "[X] ", "[ ]", "[-] ", "[x]\t"]) + first
            c = r.random()
            body = []
            if c < 0.08:
                first = ""     # empty item
            elif c < 0.14:
                first = "# " + first   # heading in item
            elif c < 0.2:
                body = self.para_lines(0, 2) + [r.choice(["---", "===", "-"])]  # setext in list item
            elif c < 0.24:
                first = "```" + r.choice(["", "py"])
                body = ["code in item", "```"] if r.random() < 0.8 else ["code in item"]
            if r.random() < 0.4 and depth < 3 and c >= 0.24:
                if r.random() < 0.5:
                    body += self.para_lines(1, 2)    # continuation lines (laziness below)
                sub = self.blocks(depth + 1, r.randint(1, 2), in_list=True)
                if r.random() < 0.5 or loose:
                    body.append("")
                body += sub
            line = m + (sp + first if first else "")
            out.append(line)
            for l in body:
                if l == "":
                    out.append("")
                elif r.random() < 0.05 and not l.startswith((" ", "\t")):
                    out.append(l)   # lazy (or breaking) continuation
                else:
                    out.append(pad + l if r.random() < 0.9 else "\t" + l)
            if loose and i < n - 1:
                out.append("")
            if r.random() < 0.05:
                out += ["", ""]
        return out

    def block(self, depth, in_list=False):
        r = self.r
        x = r.random()
        if depth > 3:
            x = x * 0.35
        if x < 0.25:
            return self.para_lines()
        if x < 0.32:
            return self.heading()
        if x < 0.36:
            return self.setext()
        if x < 0.39:
            return self.thematic()
        if x < 0.45:
            return self.fence(depth)
        if x < 0.47:
            return self.indented_code()
        if x < 0.50:
            return self.html_block()
        if x < 0.54:
            return self.math_block()
        if x < 0.62:
            return self.table()
        if x < 0.66:
            return self.refdef()
        if x < 0.69:
            return self.footdef(depth)
        if x < 0.71:
            return self.alert()
        if x < 0.80:
            return self.blockquote(depth)
        return self.list_(depth)

    def blocks(self, depth, n, in_list=False):
        r = self.r
        out = []
        for i in range(n):
            b = self.block(depth, in_list)
            if out:
                sep = r.choice([[""], [""], [""], [], [""], ["", ""]])
                out += sep
            out += b
        return out

    def document(self, target):
        r = self.r
        lines = []
        if r.random() < 0.3:
            lines += ["**User:** " + self.inline(lo=3, hi=8), "", "**Assistant:**", ""]
        while len("\n".join(lines)) < target:
            lines += self.blocks(0, 1)
            lines.append("" if r.random() < 0.85 else r.choice([" ", "\t", "  "]))
            if r.random() < 0.12 and self.used_refs:   # definitions after use
                lab = r.choice(self.used_refs)
                lines += [f"[{lab}]: {r.choice(URLS)}" + (" " + r.choice(TITLES) if r.random() < 0.4 else ""), ""]
            if r.random() < 0.08 and self.foot:
                lines += self.footdef(0) + [""]
        text = "\n".join(lines)
        c = r.random()
        if c < 0.35:
            text = text[:target]                 # ends mid-construct
        elif c < 0.45:
            text = text.rstrip("\n")
        elif c < 0.5:
            text = text + "\n\n"
        # line endings
        c = r.random()
        if c < 0.1:
            text = text.replace("\n", "\r\n")
        elif c < 0.15:
            text = text.replace("\n", "\r")
        elif c < 0.2:
            text = "".join(ch if ch != "\n" or r.random() < 0.6 else r.choice(["\r\n", "\r"]) for ch in text)
        data = text.encode("utf-8")
        if len(data) > 4096:
            data = data[:4096]
            # keep it valid UTF-8
            data = data.decode("utf-8", "ignore").encode("utf-8")
        return data


SPECIAL = list("*_[]()<>!|$~`#>-+=:\\ \t\n&;.0123456789xX^\"'") + ["\r", "\r\n", "    ", "```", "~~~", "$$", "[^1]", "[a]", "[a]: /u", "- ", "1. ", "> ", "| ", "---", "***", "\n\n", "<div>", "<!--", "-->", "\u00e9", "\u201c", "\u3002", "\U0001F600", "&amp;", "www.", "http://", "@", "\x00", "\x0c", "\ufeff"]
_SPEC = None


def spec_examples():
    global _SPEC
    if _SPEC is None:
        import glob
        import json
        seen, _SPEC = set(), []
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "*.json")
        for f in sorted(glob.glob(fixtures)):
            for e in json.load(open(f)):
                if e["markdown"] not in seen:
                    seen.add(e["markdown"])
                    _SPEC.append(e["markdown"])
    return _SPEC


def mutate(rng, data, edits):
    """Random character-level edits with Markdown-significant material."""
    t = data.decode("utf-8", "replace")
    for _ in range(edits):
        if not t:
            t = rng.choice(SPECIAL)
            continue
        i = rng.randrange(len(t) + 1)
        c = rng.random()
        if c < 0.45:
            t = t[:i] + rng.choice(SPECIAL) + t[i:]
        elif c < 0.65:
            t = t[:i] + t[i + rng.randint(1, 4):]
        elif c < 0.8:   # duplicate a line-ish span
            j = t.rfind("\n", 0, i) + 1
            k = t.find("\n", i)
            k = len(t) if k < 0 else k + 1
            t = t[:k] + t[j:k] + t[k:]
        elif c < 0.9:   # indent or prefix a line with a container marker
            j = t.rfind("\n", 0, i) + 1
            t = t[:j] + rng.choice(["  ", "   ", "    ", "\t", "> ", "- ", "1. ", ">>", " > ", "* "]) + t[j:]
        else:           # splice a spec example
            t = t[:i] + rng.choice(spec_examples()) + t[i:]
    return t.encode("utf-8", "surrogatepass")[:4096]


def make_splice(rng):
    ex = spec_examples()
    parts = []
    while sum(len(p) for p in parts) < rng.randint(300, 1500):
        e = rng.choice(ex)
        c = rng.random()
        if c < 0.2:
            e = "".join("> " + l for l in e.splitlines(True))
        elif c < 0.35:
            lines = e.splitlines(True)
            e = "- " + "".join(lines[:1]) + "".join("  " + l for l in lines[1:])
        elif c < 0.45:
            lines = e.splitlines(True)
            e = "1. " + "".join(lines[:1]) + "".join("   " + l for l in lines[1:])
        parts.append(e)
        parts.append(rng.choice(["", "", "\n", "\n", "text\n", "- item\n", "> q\n", "| a | b |\n"]))
    d = "".join(parts)
    if rng.random() < 0.15:
        d = d.replace("\n", "\r\n")
    if rng.random() < 0.3:
        d = d[:rng.randint(len(d) // 2, len(d))]
    b = d.encode("utf-8")
    if len(b) < 300:
        b += make(rng.random(), 0)[:300]
    return b[:4096]


LINE_HEADS = ["", "", "", " ", "  ", "   ", "    ", "\t", " \t", "> ", ">", "> > ", "- ", "-", "* ", "+ ", "1. ", "1) ",
              "2. ", "10. ", "0. ", "- [ ] ", "- [x] ", "1. - ", "- > ", "> - ", "  - ", "    - ", "- 1. ", ">\t"]
LINE_BODIES = ["", "text", "more text", "===", "---", "-", "--", "- - -", "***", "___", "# h", "## h ##", "#", "#5",
               "```", "```py", "````", "~~~", "~~~ x", "``` `", "$$", "$$ x $$", "$x$", "| a | b |", "|---|---|",
               "| - |", "a | b", "-|-", ":-:|", "| x |", "<div>", "</div>", "<!--", "-->", "<pre>", "</pre>", "<a>",
               "[a]: /u", "[a]: /u 'open", "'close'", "\"t\"", "[a]", "[^1]: fn", "[^1]", "    indented", "123",
               "1.", "1)", "2.", "*a*", "**b", "c**", "_d_", "~~e~~", "`f`", "``", "\\", "a  ", "b\\", "&amp;",
               "www.x.io", "a@b.co", "<http://a>", "[!NOTE]", "\t\tcode", "*", "+", ">", "=", "==", "- a", "x:", "[x]: <>",
               "éé", "中", "😀", "[b]:", "/url", "(title)"]


def make_lines(rng):
    """Dense documents of short lines with ambiguous starts (list/quote/fence/setext/table/def)."""
    out = []
    target = rng.randint(300, 900)
    while sum(len(l) + 1 for l in out) < target:
        head = rng.choice(LINE_HEADS) if rng.random() < 0.6 else ""
        body = rng.choice(LINE_BODIES)
        if rng.random() < 0.2:
            body += " " + rng.choice(LINE_BODIES)
        out.append(head + body)
    eol = rng.choice(["\n"] * 6 + ["\r\n", "\r"])
    d = eol.join(out)
    c = rng.random()
    if c < 0.3:
        d += eol
    elif c < 0.4:
        d += eol + eol
    return d.encode("utf-8")[:4096]


def make_focus(rng):
    """Documents dominated by one construct (tables, deep lists, quotes, fences, definitions, emphasis)."""
    g = Gen(rng)
    theme = rng.choice(["table", "list", "quote", "fence", "defs", "emph", "footnote"])
    out = []
    target = rng.randint(300, 1500)
    while len("\n".join(out)) < target:
        if theme == "table":
            cols = rng.randint(1, 6)
            hdr = "|".join(rng.choice(["a", " b ", "`c|d`", "e\\|f", "é", "", "**g**", "[h](i)", "日本"]) for _ in range(cols))
            if rng.random() < 0.6:
                hdr = "|" + hdr + "|"
            out.append(hdr)
            out.append("|".join(rng.choice(["-", "--", ":-", "-:", ":-:", " --- ", "---"]) for _ in range(cols + rng.choice([0, 0, 0, 1, -1]))))
            for _ in range(rng.randint(0, 12)):
                n = max(1, cols + rng.choice([0, 0, -1, -2, 1, 3]))
                cells = [rng.choice(["x", " y ", "", "\\|", "`|`", "z\\", "é", "😀", "a b", "**q**", "~~r~~", "$m$",
                                     "<b>", "www.a.io", "[^1]", "[l]", "&amp;", "\t", "  "]) for _ in range(n)]
                row = "|".join(cells)
                c = rng.random()
                if c < 0.5:
                    row = "|" + row + "|"
                elif c < 0.7:
                    row = "|" + row
                elif c < 0.8:
                    row = row + "|"
                out.append(row)
            if rng.random() < 0.3:
                out.append(rng.choice(["plain line", "> quote", "- item", "", "# h", "    code", "```"]))
        elif theme == "list":
            depth = 0
            for _ in range(rng.randint(3, 15)):
                depth = max(0, min(8, depth + rng.choice([-2, -1, 0, 0, 1, 1])))
                ind = "  " * depth if rng.random() < 0.7 else "   " * depth
                m = rng.choice(["-", "*", "+", "1.", "2)", "10.", "- [ ]", "- [x]", "-\t", "1.  "])
                body = g.inline(lo=1, hi=4) if rng.random() < 0.9 else ""
                out.append(f"{ind}{m} {body}".rstrip(" ") if body else f"{ind}{m}")
                c = rng.random()
                if c < 0.15:
                    out.append("")
                elif c < 0.25:
                    out.append(ind + "  " + g.inline(lo=1, hi=3))
                elif c < 0.3:
                    out.append(g.inline(lo=1, hi=3))       # lazy
                elif c < 0.35:
                    out += [ind + "  ```", ind + "  code", ind + "  ```"]
                elif c < 0.38:
                    out += ["", ind + "      indented code"]
        elif theme == "quote":
            for _ in range(rng.randint(2, 10)):
                q = rng.choice([">", "> ", ">>", "> > ", ">>>", " > ", ">\t", ""])
                out.append(q + rng.choice([g.inline(lo=1, hi=4), "- item", "1. item", "```", "~~~", "code", "",
                                           "---", "===", "# h", "| a |", "|-|", "    code", "[!NOTE]", "$$", "<div>"]))
        elif theme == "fence":
            ch = rng.choice(["`", "~"])
            n = rng.randint(3, 6)
            ind = rng.choice(["", " ", "  ", "   ", "- ", "> ", "1. "])
            out.append(ind + ch * n + rng.choice(["", "py", " js ", "a`b", "{.x}", "~", " "]))
            for _ in range(rng.randint(0, 5)):
                out.append(rng.choice(["code", "", ch * (n - 1), ch * (n + 1) + "x", "  " + ch * n + " ", "\t" + ch * n,
                                       ("~" if ch == "`" else "`") * n, " " * rng.randint(0, 4) + ch * n, "$$", "</div>"]))
        elif theme == "defs":
            lab = rng.choice(["a", "B", "c d", "ä", "x\\]"])
            out.append(rng.choice([f"[{lab}]", f"[t][{lab}]", f"[{lab}][]", f"![{lab}]", f"[{lab}]: /u", f"[{lab}]:",
                                   f"[{lab}]: <u v>", f"[{lab}]: /u 't", "i'", f"[{lab}]: /u (p)", "\"title\"",
                                   f"[{lab}]: /u \"t\" x", "", f"> [{lab}]: /q", f"- [{lab}]: /l", f"  [{lab}]: /n",
                                   f"[{lab}]\n===", f"| [{lab}] |\n|-|", f"[{lab}]: /u\n===", f"# [{lab}]"]))
        elif theme == "footnote":
            lab = rng.choice(["1", "2", "a", "B", "x y"])
            out.append(rng.choice([f"text[^{lab}]", f"[^{lab}]: def", f"[^{lab}]:", f"    more", "", f"> [^{lab}]: q",
                                   f"- [^{lab}]", f"[^{lab}]: a[^1]", f"[^{lab}][x]", f"[x]: /u", "lazy", f"[^{lab}]: ```",
                                   f"| [^{lab}] |\n|-|"]))
        else:
            out.append(g.inline(lo=5, hi=20).replace("  ", " "))
            if rng.random() < 0.3:
                out.append("")
    d = "\n".join(out)
    if rng.random() < 0.5:
        d += "\n"
    return d.encode("utf-8")[:4096]


CJK_TOKENS = ["東京", "日本語", "中文字", "한국어", "😀", "👍🏽", "👨‍👩‍👧", "é", "e\u0301", "ß", "Ω", "“", "”", "。", "、", "！", "（", "）",
              "«", "»", "—", "…", "\u00a0", "\u3000", "\u200b", "\ufeff", "ﬁ", "𝔸", "\U0001F1EF\U0001F1F5", "½",
              " ", " ", "  ", "\t", "*", "**", "_", "~~", "`", "$", "|", "\\", "www.", "例え.jp", "@x.io", "a@", "http://",
              "&amp;", "&#x4E2D;", "[", "]", "(", ")", "<", ">", "!", "a", "b", "1", ".", ",", ":", ";", "?", "'", "\""]


def make_cjk(rng):
    """Paragraphs, headings and table cells of multi-byte text next to delimiters (U+FFFD placeholders)."""
    out = []
    target = rng.randint(300, 1200)
    while len("\n".join(out).encode()) < target:
        line = "".join(rng.choice(CJK_TOKENS) for _ in range(rng.randint(1, 25)))
        c = rng.random()
        if c < 0.15:
            line = "# " + line
        elif c < 0.3:
            line = "| " + line.replace("\n", " ") + " | " + "".join(rng.choice(CJK_TOKENS) for _ in range(3))
            if rng.random() < 0.5 and not any(l.startswith("|") for l in out[-3:]):
                out.append("| h | i |")
                out.append("|---|---|")
        elif c < 0.38:
            line = rng.choice(["- ", "> ", "1. ", "- [ ] "]) + line
        elif c < 0.45:
            out.append("")
        out.append(line)
    d = "\n".join(out) + rng.choice(["", "\n", "  ", "\u4e2d"])
    return d.encode("utf-8", "surrogatepass")[:4096]


def make_links(rng):
    """Link reference definitions and links whose text matches them: inline links and
    images with spaces, line breaks, angle brackets and titles inside the parentheses,
    full, collapsed and shortcut references, a space before `(` (session 21: a
    reference taking `[foo]` while its inline link was still open)."""
    labels = ["foo", "Bar baz", "x", "ref 1", "a*b*", "`c`", "ÄÖÜ"]
    dests = ["/url", "<a b>", "(x)", "http://e.com/p?q=1", '"q"', "'s'", "", "<>", "\\(y\\)"]
    titles = ['"t"', "'t'", "(t)", '"a b"', '"multi\nline"', ""]
    words = ["some", "text", "here", "and", "then", "**bold**", "*em*", "`code`", "<b>", "&amp;", "x_y", "$m$"]

    def link():
        lab = rng.choice(labels)
        bang = rng.choice(["", "!"])
        form = rng.randint(0, 7)
        if form < 4:
            lead = rng.choice(["", " ", "  ", "\n", " \n "])
            t = rng.choice(titles)
            inner = lead + rng.choice(dests) + (rng.choice([" ", "\n", "  "]) + t if t else "") + rng.choice(["", " ", "\n"])
            return f"{bang}[{lab}]({inner})"
        if form == 4:
            return f"{bang}[{lab}][]"
        if form == 5:
            return f"{bang}[{lab}][{rng.choice(labels)}]"
        if form == 6:
            return f"{bang}[{lab}] ({rng.choice(dests)})"
        return f"{bang}[{lab}]"

    blocks = []
    for _ in range(rng.randint(1, 3)):
        blocks.append(f"[{rng.choice(labels)}]: {rng.choice(['/d', '<d e>', '/u'])} {rng.choice(titles[:4])}\n")
    for _ in range(rng.randint(2, 5)):
        para = " ".join(rng.choice(words + [link(), link()]) for _ in range(rng.randint(3, 10)))
        blocks.append(rng.choice(["", "> ", "- ", "1. ", "# "]) + para + "\n")
    rng.shuffle(blocks)
    d = "".join(blocks)
    if rng.random() < 0.6:
        d = d.replace("\n", "\n\n")
    return d.encode("utf-8")[:4096]


def make_open(rng):
    """Inline constructs that stay open across spaces, line breaks and chunk
    boundaries and are decided only by later bytes: raw HTML (tags with quoted
    attribute values holding spaces, `>` and newlines, comments, processing
    instructions, declarations, CDATA, near misses broken by a blank line or a
    digit-led attribute name), code spans with runs of 1-4 backticks and other
    runs inside, math dollars, autolinks and GFM extended autolinks with trailing
    punctuation, links whose text, destination or title holds these, emphasis and
    strikethrough with spaces, entities, backslash escapes, hard breaks and
    footnote references -- in paragraphs, list items, block quotes, headings and
    table cells.  Session 21's bug was of this class: a construct that fails only
    because the text ended, resolved meanwhile into an alternative."""
    words = ["a", "b", "x", "y", "text", "more", "code", "and", "then", "é", "東京", "1", "42", "foo", "bar"]
    sp = lambda: rng.choice([" ", " ", " ", "\n", "  ", "\t", " \n", "\n "])

    def w():
        return rng.choice(words)

    def ws():
        return " ".join(w() for _ in range(rng.randint(1, 3)))

    def attr_value():
        c = rng.random()
        if c < 0.35:
            q = rng.choice(['"', "'"])
            body = rng.choice(["x y", "a > b", "a\nb", "`", "]", "x\" y", "<b>", "", " ", "a'b", "$x$", "*e*", "a\n\nb",
                               "http://a.b", "&amp;", "-->", "a\\"])
            return q + body + (q if rng.random() < 0.9 else "")
        if c < 0.8:
            return rng.choice(["x", "1", "a/b", "http://a.b/c", "a`b", "a]b", "{x}", "a*b*", "$"])
        return rng.choice(['x"y', "a=b", "a'b", "a<b", "a>b", "`"])  # invalid unquoted chars

    def tag():
        name = rng.choice(["a", "span", "b", "img", "x-y", "my-el", "Input", "br", "em", "h1", "q", "a1"])
        s = "<" + name
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            an = rng.choice(["href", "title", "data-x", "b", ":x", "_y", "x.y", "alt", "1b", "-a", "a"])
            s += rng.choice([" ", " ", "\n", "  ", "\t", "\n\n"]) + an
            if rng.random() < 0.8:
                s += rng.choice(["=", "=", " = ", "=\n", " ="]) + attr_value()
        s += rng.choice([">", ">", ">", "/>", " />", "\n>", " >", "/ >", "", " /"])
        return s

    def html():
        c = rng.random()
        if c < 0.35:
            return tag()
        if c < 0.45:
            return "</" + rng.choice(["a", "span", "b", "x-y", "em"]) + rng.choice([">", ">", " >", "\n>", "", " x>"])
        if c < 0.62:
            return rng.choice(["<!-- c -->", "<!-->", "<!--->", "<!-- a -- b -->", "<!--\nmulti\nline\n-->", "<!-- open",
                               "<!---->", "<!-- a --->", "<!-- `x` -->", "<!-- ] -->", "<!-- a\n\nb -->", "<!--x-->",
                               "<!- not ->", "<!-- > -->", "<!-- $x -->"])
        if c < 0.72:
            return rng.choice(["<?php echo 1; ?>", "<? a > b ?>", "<?x\ny?>", "<? open", "<??>", "<?a ? b?>", "<?`?>",
                               "<? ] ?>"])
        if c < 0.82:
            return rng.choice(["<!DOCTYPE html>", "<!X y z>", "<!ELEMENT a\nb>", "<!x>", "<!1>", "<!X open", "<!X `a` >",
                               "<!X\n\nY>", "<!>"])
        if c < 0.9:
            return rng.choice(["<![CDATA[ a ]] > ]]>", "<![CDATA[x\n]]>", "<![CDATA[ open", "<![CDATA[]]>",
                               "<![CDATA[ ` ]]>", "<![cdata[x]]>", "<![CDATA[ ] ]>"])
        return rng.choice(["<a\n\nhref=\"x\">", "<a 1b=\"x\">", "<a href=\"x>", "<a href='x\n\ny'>", "<a b=c d= e>",
                           "< a>", "<a/ >", "<a href=x\"y>", "<a  =x>", "<a b='c'd>", "<a\tb\n=\nc>", "<1a>", "<a!>"])

    def codespan():
        n = rng.choice([1, 1, 1, 2, 2, 3, 4])
        body = ""
        for _ in range(rng.randint(1, 4)):
            c = rng.random()
            if c < 0.4:
                body += w()
            elif c < 0.6:
                m = rng.choice([x for x in (1, 2, 3, 4, 5) if x != n])
                body += "`" * m
            elif c < 0.8:
                body += rng.choice([" ", "  ", "\n", " \n ", "\n\n"])
            else:
                body += rng.choice(["<a>", "]", "[x](y)", "$x$", "*", "\\", "|", "<http://a.b>", "&amp;", "-->"])
        if rng.random() < 0.3:
            body = " " + body + " "
        c = rng.random()
        if c < 0.78:
            close = "`" * n
        elif c < 0.9:
            close = ""
        else:
            close = "`" * rng.choice([x for x in (1, 2, 3, 4, 5) if x != n])
        return "`" * n + body + close

    def math():
        c = rng.random()
        if c < 0.55:
            return rng.choice(["$x$", "$$ x $$", "$ x$", "$x $", "\\$x$", "$5 and $6", "$x$5", "$$x$$", "$a\nb$",
                               "$x\\$y$", "$ $", "$$", "$`a`$", "$<b>$", "$[x](y)$", "$a$b$", "$x", "$$ x\n\ny $$",
                               "$$x$", "$x$$", "1$x$", "$**a**$", "$x$.", "($x$)"])
        d = rng.choice(["$", "$", "$$"])
        return d + rng.choice(["", " "]) + ws() + rng.choice(["", " ", "\n"]) + (d if rng.random() < 0.8 else "")

    def autolink():
        return rng.choice(["<http://a.b/c>", "<a@b.c>", "<http://a b>", "www.x.com", "http://x.y/z)", "(http://x.y/z)",
                           "www.x.com.", "www.x.com/a?b=c!", "a@b.c.", "a@b.c", "https://x.y/a_b_", "<http://a.b/`c`>",
                           "<https://a.b/c d>", "<mailto:a@b.c>", "<a+b@c.d>", "www.x.com/<b>", "http://x.y/**z**",
                           "<http://a.b\n/c>", "www.x.com&amp;", "www.x.com&amp", "http://x.y/z]", "[www.x.com]",
                           "<http://a.b/c>d", "https://x.y/$z$", "www.x.com/`a`", "x@y.z_", "<irc:a>", "<h:/>"])

    def dest():
        return rng.choice(["/u", "<b c>", "<b>", "<`x`>", "/u`x`", "<b\nc>", "</u>", "<a href>", "http://a.b", "",
                           "<http://a.b>", "$x$", "/a(b)c", "<]>", "/u\\)", "<>"])

    def title():
        return rng.choice(['"t `x` <b>"', "'a <b> c'", "(t `c`)", '"<!-- x -->"', '"a\nb"', '"$x$"', '"]"',
                          '"unclosed `x', "'<a href=\"x\">'", '"t"', '"a\n\nb"'])

    def link():
        bang = "!" if rng.random() < 0.25 else ""
        text = rng.choice([ws(), "a `]` b", "`x](y)`", "<b title=\"]\">c</b>", "a <!-- ] --> b", "$]$", "<]>",
                           "`a`", "a\nb", "<http://a.b/]>", "x `` ] `` y", "a <?]?>", "~~]~~", "\\]", "[^1]", "<a>",
                           "`` ` ``", "a\n\nb", "www.x.com"])
        c = rng.random()
        if c < 0.6:
            t = (rng.choice([" ", "\n", "  "]) + title()) if rng.random() < 0.45 else ""
            return f"{bang}[{text}]({rng.choice(['', ' ', chr(10)])}{dest()}{t}{rng.choice(['', ' ', chr(10)])}" + \
                (")" if rng.random() < 0.88 else "")
        if c < 0.75:
            return f"{bang}[{text}][ref]"
        if c < 0.85:
            return f"{bang}[{text}]"
        return f"{bang}[{text}]" + rng.choice(["(", "(/u", "(<a", "(/u \"t", " (/u)", "[", "[ref"])

    def emph():
        d = rng.choice(["*", "**", "_", "__", "~~", "~", "***"])
        inner = rng.choice([ws(), inl(1)])
        return rng.choice([f"{d}{inner}{d}", f"{d} {inner} {d}", f"{d}{inner} {d}", f"{d} {inner}{d}", f"{d}{inner}",
                           f"{d}{inner}\n{d}", f"x{d}{inner}{d}y"])

    def misc():
        return rng.choice(["&amp;", "&#x41;", "&#65;", "&copy;", "&am", "&#x4", "&#x41", "&nbsp", "&#;", "&#x;",
                           "&ThickSpace;", "&amp", "[^1]", "[^2]", "[^note]", "[^ x]", "[^1]:", "\\\n", "  \n",
                           "\\", "\\`", "\\<", "\\$", "\\[", "\\*", "\\~", "\\&amp;", "<", ">", "`", "$", "[", "]",
                           "*", "~~", "!", "("])

    def token(depth):
        c = rng.random()
        if c < 0.3:
            t = ws()
        elif c < 0.45:
            t = html()
        elif c < 0.58:
            t = codespan()
        elif c < 0.65:
            t = math()
        elif c < 0.72:
            t = autolink()
        elif c < 0.8 and depth == 0:
            t = link()
        elif c < 0.88 and depth == 0:
            t = emph()
        else:
            t = misc()
        if rng.random() < 0.08:
            t = "\\" + t
        return t

    def inl(depth=0, lo=1, hi=4):
        s = ""
        for i in range(rng.randint(lo, hi)):
            if i:
                s += sp() if rng.random() < 0.85 else ""
            s += token(depth)
        return s

    def text(lo=2, hi=8):
        s = inl(0, lo, hi)
        if rng.random() < 0.15:
            s += rng.choice(["  ", "\\", " "])   # trailing hard break / space at the end of the block
        return s

    def one_line(s):
        return s.replace("\n", rng.choice([" ", ""]))

    blocks = []
    target = rng.choice([rng.randint(200, 700), rng.randint(200, 1500), rng.randint(200, 1500), rng.randint(800, 3500)])
    footdefs = rng.random() < 0.5
    while sum(len(b) + 2 for b in blocks) < target:
        k = rng.random()
        t = text()
        if k < 0.4:
            b = t
        elif k < 0.58:   # list item; continuation lines indented or lazy
            m = rng.choice(["- ", "* ", "1. ", "2) ", "- [ ] "])
            pad = " " * len(m) if rng.random() < 0.8 else ""
            b = m + t.replace("\n", "\n" + pad)
            if rng.random() < 0.3:
                b += "\n" + m + text(1, 4).replace("\n", "\n" + pad)
        elif k < 0.72:   # block quote; continuation lines quoted or lazy
            q = rng.choice(["> ", ">", "> > "])
            b = q + t.replace("\n", "\n" + (q if rng.random() < 0.8 else ""))
        elif k < 0.8:
            b = rng.choice(["# ", "## ", "### "]) + one_line(t) + rng.choice(["", "", " #", " ##"])
        elif k < 0.93:   # GFM table
            cols = rng.randint(1, 4)
            def cell():
                s = one_line(inl(0, 1, 2))
                return s.replace("|", "\\|") if rng.random() < 0.8 else s
            rows = ["| " + " | ".join(cell() for _ in range(cols)) + " |",
                    "|" + "|".join(rng.choice(["---", ":-", "-:", ":-:"]) for _ in range(cols)) + "|"]
            for _ in range(rng.randint(0, 4)):
                rows.append("| " + " | ".join(cell() for _ in range(cols + rng.choice([0, 0, 0, 1, -1]))) + " |")
            b = "\n".join(rows)
        else:            # setext heading
            b = t + "\n" + rng.choice(["===", "---", "-"])
        blocks.append(b)
    if footdefs:
        blocks.append(rng.choice(["[^1]: def", "[^note]: n `c`", "[^1]: one\n[^2]: two"]))
    if rng.random() < 0.4:
        blocks.append("[ref]: " + rng.choice(["/r", "<r s>", "/r 't'", "/r\n\"multi\nline\""]))
    if rng.random() < 0.3:
        rng.shuffle(blocks)
    d = ""
    for i, b in enumerate(blocks):
        if i:
            d += rng.choice(["\n\n", "\n\n", "\n\n", "\n", "\n\n\n", "\n \n"])
        d += b
    d += rng.choice(["", "\n", "\n", "\n\n", " "])
    return d.encode("utf-8")[:4096]


def make_blocks(rng):
    """Block structure that later lines decide: HTML blocks of the seven kinds with their
    end conditions (on the start line, lines later, never; a blank line; the end of a
    container), a paragraph that a later line turns into a setext heading or a table, or
    leaves a paragraph (lazy lines, a thematic break, a list item that may or may not
    interrupt it), definitions whose title comes on the next line or is spoiled by text after
    it, fences and math blocks closed by shorter, longer, indented or other fences, and all of
    it inside block quotes and list items that end or continue."""
    g = Gen(rng)
    conts = ["", "", "", "> ", ">", "> > ", "- ", "  ", "1. ", "   ", "- > ", "> - ", "    "]

    def text():
        return g.inline(lo=1, hi=5).replace("\n", " ")

    def html_block():
        kind = rng.randint(1, 7)
        if kind == 1:
            tag = rng.choice(["script", "pre", "style", "textarea", "SCRIPT", "pre class=x"])
            end = tag.split()[0]
            body = [rng.choice([f"<{tag}>", f"<{tag}>x", f"<{tag}"])]
            for _ in range(rng.randint(0, 3)):
                body.append(rng.choice(["code < 1", "", "*not em*", f"</{end}", f"</{end}>", "</div>", "  x"]))
            if rng.random() < 0.7:
                body.append(rng.choice([f"</{end}>", f"x </{end}> y", f"</{end.upper()}>", f"</{end} >"]))
            return body
        if kind == 2:
            body = [rng.choice(["<!--", "<!-- x", "<!-- a -->", "<!---->", "<!-->", "<!--->"])]
            for _ in range(rng.randint(0, 3)):
                body.append(rng.choice(["c", "", "--", "- ->", "-- >", "*x*"]))
            if rng.random() < 0.7:
                body.append(rng.choice(["-->", "x -->", "--->"]))
            return body
        if kind == 3:
            body = [rng.choice(["<?", "<?php", "<? x ?>", "<?xml"])]
            body += [rng.choice(["a", "", "? >", "?"]) for _ in range(rng.randint(0, 2))]
            if rng.random() < 0.7:
                body.append(rng.choice(["?>", "x ?>"]))
            return body
        if kind == 4:
            body = [rng.choice(["<!DOCTYPE html>", "<!X", "<!x y", "<!A"])]
            body += [rng.choice(["a", "", "b >"]) for _ in range(rng.randint(0, 2))]
            if rng.random() < 0.6:
                body.append(">")
            return body
        if kind == 5:
            body = [rng.choice(["<![CDATA[", "<![CDATA[ x", "<![CDATA[]]>"])]
            body += [rng.choice(["a", "", "]] >", "]"]) for _ in range(rng.randint(0, 2))]
            if rng.random() < 0.7:
                body.append(rng.choice(["]]>", "x ]]>"]))
            return body
        if kind == 6:
            tag = rng.choice(["div", "DIV", "table", "p", "section", "/div", "div class='a b'", "ul", "details", "h1"])
            body = [rng.choice([f"<{tag}>", f"<{tag}", f"<{tag}/>", f"<{tag}> *x*", f"</{tag.split()[0].lstrip('/')}>"])]
            for _ in range(rng.randint(0, 3)):
                body.append(rng.choice(["*a*", "text", "<td>x</td>", "    code?", "- item?", "# h?"]))
            if rng.random() < 0.5:
                body.append("")
                body.append(rng.choice(["*after*", "text", f"</{tag.split()[0].lstrip('/')}>"]))
            return body
        tag = rng.choice(["a href='x'", "span", "b", "x-y", "/a", "a\nhref=x", "Custom", "img src=\"a b\" /"])
        body = [rng.choice([f"<{tag}>", f"<{tag}> ", f"<{tag}>x", f"<{tag}"])]
        for _ in range(rng.randint(0, 2)):
            body.append(rng.choice(["*a*", "text", "", "</b>"]))
        return body

    def para_decided_later():
        lines = [text() for _ in range(rng.randint(1, 3))]
        c = rng.random()
        if c < 0.2:
            lines.append(rng.choice(["===", "---", " ==", "=  ", "- - -", "--", "-", "= =", "***", "___", "   ---", "    ---"]))
        elif c < 0.35:
            lines[-1] = "| " + " | ".join(rng.choice(["a", "b c", "`|`"]) for _ in range(rng.randint(1, 3))) + " |"
            lines.append(rng.choice(["|-|", "|---|---|", "| - | - | - |", "-|-", ":-", "|:-:|", "| -- |"]))
            for _ in range(rng.randint(0, 2)):
                lines.append(rng.choice(["| x |", "y", "| a | b | c |", "> q", "- i", ""]))
        elif c < 0.5:
            lines.append(rng.choice(["- item", "* item", "1. item", "2. item", "-", "1.", "- ", "+ x", "10) y"]))
        elif c < 0.6:
            lines.append(rng.choice(["    lazy code?", "\tlazy", "> quote", "# heading", "```", "~~~", "$$", "<div>", "<b>"]))
        elif c < 0.7:
            lines.insert(0, rng.choice(["[a]: /u", "[a]:", "[a]: /u 'ti", "[a]: <b c>", "[^a]: note"]))
            lines.insert(1, rng.choice(["tle'", "'t'", "\"t\" x", "(p)", "/v", "text"]))
        return lines

    def fence():
        ch = rng.choice(["`", "~", "$"])
        if ch == "$":
            body = [rng.choice(["$$", "$$ x", "$$x$$"])]
            body += [rng.choice(["a^2", "", "$", "$ $"]) for _ in range(rng.randint(0, 3))]
            if rng.random() < 0.7:
                body.append(rng.choice(["$$", " $$", "$$ ", "x $$"]))
            return body
        n = rng.randint(3, 5)
        body = [ch * n + rng.choice(["", "py", " a b", "`"])]
        body += [rng.choice(["x", "", ch * (n - 1), "    " + ch * n, "  " + ch * n + "  "]) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.7:
            body.append(rng.choice([ch * n, ch * (n + 1), " " * rng.randint(1, 3) + ch * n, ch * n + " x"]))
        return body

    out = []
    target = rng.randint(250, 1400)
    while len("\n".join(out)) < target:
        c = rng.random()
        if c < 0.4:
            block = html_block()
        elif c < 0.75:
            block = para_decided_later()
        elif c < 0.9:
            block = fence()
        else:
            block = [rng.choice(["", "text", "    code", "***", "- a", "> b", "[a]"])]
        cont = rng.choice(conts)
        lazy = rng.random() < 0.2
        for k, line in enumerate(block):
            if k == 0 or not lazy:
                pre = cont if k == 0 else (cont.replace("- ", "  ").replace("1. ", "   ") if rng.random() < 0.9 else "")
            else:
                pre = ""
            out.append((pre + line).rstrip(" ") if line == "" else pre + line)
        if rng.random() < 0.55:
            out.append(rng.choice(["", "", ">", "  "]))
    d = "\n".join(out)
    if rng.random() < 0.5:
        d += "\n"
    return d.encode("utf-8")[:4096]


MB = ["é", "ß", "東", "京", "中", "😀", "👍🏽", "—", "“", "”", "\u00a0", "\u3000", "ü", "한", "𝔸", "½", "…"]


def sprinkle(rng, data):
    """Multi-byte characters inserted at random places of a document of another style
    (before and after delimiters, inside cells, labels, destinations, fences): every chunk
    size then splits some of them, and the placeholder paths run next to every construct."""
    s = data.decode("utf-8", "replace")
    out = []
    rate = rng.choice([0.02, 0.05, 0.1])
    for ch in s:
        if rng.random() < rate:
            out.append(rng.choice(MB))
        out.append(ch)
        if ch in "*_`~$[]()<>|^:!\\&#" and rng.random() < 0.2:
            out.append(rng.choice(MB))
    return "".join(out).encode("utf-8")[:4096]


def rawbytes(rng, data):
    """Line endings and bytes the normalizer takes care of: CR LF or CR for LF (all or some),
    a BOM at the start, NUL, lone continuation bytes, truncated and overlong sequences, tabs
    for spaces — inserted next to the constructs of a document of another style."""
    eol = rng.choice([b"\r\n", b"\r", b"\n", None])
    if eol is None:
        data = b"".join((rng.choice([b"\r\n", b"\r", b"\n"]) if c == 10 else bytes([c])) for c in data)
    else:
        data = data.replace(b"\n", eol)
    bad = [b"\x00", b"\x80", b"\xbf", b"\xc3", b"\xe6\x9d", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xed\xa0\x80", b"\xff", b"\t", b"\r"]
    out = bytearray()
    if rng.random() < 0.2:
        out += b"\xef\xbb\xbf"
    rate = rng.choice([0.005, 0.02, 0.05])
    for c in data:
        if rng.random() < rate:
            out += rng.choice(bad)
        out.append(c)
    return bytes(out[:4096])


PUNCT = list("*_`[]<>!|$~&#:\\()\"'-+=^.") + ["**", "~~", "``", "](", "[^", "<!--", "-->", "$$", "\\\n", "  \n", "&amp;", "&#"]


def punctuate(rng, data):
    """ASCII punctuation (and a few two-byte pairs) inserted at random places of a
    document of another style: delimiters that open, close or spoil the constructs around."""
    s = data.decode("utf-8", "replace")
    out = []
    rate = rng.choice([0.01, 0.03, 0.06])
    for ch in s:
        if rng.random() < rate:
            out.append(rng.choice(PUNCT))
        out.append(ch)
    return "".join(out).encode("utf-8")[:4096]


TRANSFORMS = {"utf8": (sprinkle, ["focus", "lines", "links", "llm", "mutant", "blocks", "open"]),
              "punct": (punctuate, ["focus", "lines", "links", "open", "blocks", "splice"]),
              "bytes": (rawbytes, ["focus", "lines", "links", "llm", "mutant", "blocks", "cjk", "open"])}


def make_transformed(seed, index, dist, style):
    """A document of a base style drawn per document, transformed (see `sprinkle`,
    `punctuate`, `rawbytes`); `punct` sprinkles multi-byte characters too, a third of the time."""
    rng = random.Random(f"{style}:{seed}:{index}")
    transform, bases = TRANSFORMS[style]
    base = make_style(seed, index, dist, rng.choice(bases))
    d = transform(rng, base)
    if style == "punct" and rng.random() < 0.3:
        d = sprinkle(rng, d)
    return d


def make_style(seed, index, dist, style):
    if style in TRANSFORMS:
        return make_transformed(seed, index, dist, style)
    if style == "blocks":
        return make_blocks(random.Random(f"blocks:{seed}:{index}"))
    if style == "open":
        return make_open(random.Random(f"open:{seed}:{index}"))
    if style == "links":
        return make_links(random.Random(f"links:{seed}:{index}"))
    if style == "cjk":
        return make_cjk(random.Random(f"cjk:{seed}:{index}"))
    if style == "focus":
        return make_focus(random.Random(f"focus:{seed}:{index}"))
    if style == "lines":
        return make_lines(random.Random(f"lines:{seed}:{index}"))
    if style == "llm":
        return make(seed, index, dist)
    rng = random.Random(f"{style}:{seed}:{index}")
    if style == "splice":
        return make_splice(rng)
    base = make(seed, index, dist)
    return mutate(rng, base, rng.choice([1, 2, 4, 8, 16, 32]))


def make(seed, index, dist="small"):
    rng = random.Random(f"{seed}:{index}")
    # log-uniform between 300 and 4000 bytes, biased a little to the small end
    # skewed toward small documents (median ~470 B, ~12% over 2 KB) so that an
    # exhaustive check (one batch run per prefix) of hundreds of them fits in an hour
    target = int(300 * (4000 / 300) ** (rng.random() ** (2.5 if dist == "small" else 1.0)) * rng.uniform(0.75, 1.0))
    target = max(300, target)
    g = Gen(rng)
    d = g.document(target)
    while len(d) < 300:
        d += g.document(300 - len(d) + 50)
    return d[:4096]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--out", default="docs")
    ap.add_argument("--one", type=int)
    ap.add_argument("--style", default="llm", choices=["llm", "mutant", "splice", "lines", "focus", "cjk", "links", "open", "blocks", "utf8", "punct", "bytes"],
                    help="llm: generated documents; mutant: llm documents with random Markdown-significant edits;"
                         " splice: spec examples glued together, some inside quotes and list items;"
                         " lines: dense short lines with ambiguous starts; focus: one construct dominates; cjk: multi-byte text by delimiters;"
                         " links: definitions and the links, images and references that match them;"
                         " open: inline constructs left open across spaces, line breaks and chunks (raw HTML, code spans,"
                         " math, autolinks, link destinations and titles, emphasis, entities, escapes, hard breaks);"
                         " blocks: block structure later lines decide (HTML blocks of the seven kinds and their ends, setext"
                         " underlines, delimiter rows, interrupting items, definitions, fences and math blocks, in quotes and items);"
                         " utf8, punct, bytes: a document of another style with multi-byte characters, ASCII punctuation,"
                         " or CR LF/CR, a BOM, NUL and invalid UTF-8 sprinkled in")
    ap.add_argument("--dist", default="small", choices=["small", "log"],
                    help="small: median ~470 B; log: log-uniform 300 B..4 KB")
    a = ap.parse_args()
    if a.one is not None:
        sys.stdout.buffer.write(make_style(a.seed, a.one, a.dist, a.style))
        return
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.start, a.start + a.count):
        # (Other styles than llm in their own names: two styles can share a directory.)
        name = "doc" if a.style == "llm" else a.style
        with open(os.path.join(a.out, f"{name}-{i:05d}-s{a.seed}.md"), "wb") as f:
            f.write(make_style(a.seed, i, a.dist, a.style))


if __name__ == "__main__":
    main()
