#!/usr/bin/env python3
"""Deterministic Markdown benchmark corpus, for machines without ../shared/corpus.

    gen-corpus.py OUTDIR [--seed N]

writes OUTDIR/generated-1mb.md (~1 MB) and OUTDIR/generated-10mb.md (~10 MB):
headings, paragraphs with emphasis, links, code spans and autolinks, bullet,
ordered and task lists (some nested), block quotes, fenced and indented code,
GFM tables, thematic breaks, link reference definitions, a little raw HTML and
non-ASCII text. The same seed always gives the same bytes (Python's `random`
with an explicit seed is stable across versions for the calls used here).
"""

import argparse
import os
import random

WORDS = (
    "the parser reads each line once and keeps a stack of open blocks while inline "
    "content waits until every reference definition is known markdown text stream "
    "token model answer render table list quote code emphasis strong link image "
    "heading paragraph buffer byte offset range node tree arena delimiter bracket "
    "closer opener fence indent width column tab space newline value result error "
    "swift rust python query index cache memory thread queue server client request "
    "response header body latency throughput benchmark linear quadratic input output"
).split()
UNICODE_WORDS = ["naïve", "café", "Straße", "日本語", "Привет", "ελληνικά", "emoji 🎉", "façade", "Ωmega"]
LANGS = ["swift", "python", "rust", "js", "bash", "json", "go", "", "c", "yaml"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.refs = []

    def word(self):
        r = self.r
        if r.random() < 0.03:
            return r.choice(UNICODE_WORDS)
        return r.choice(WORDS)

    def words(self, lo, hi):
        return " ".join(self.word() for _ in range(self.r.randint(lo, hi)))

    def inline(self):
        r = self.r
        x = r.random()
        w = self.words(1, 3)
        if x < 0.10:
            return f"*{w}*"
        if x < 0.18:
            return f"**{w}**"
        if x < 0.21:
            return f"_{w}_"
        if x < 0.23:
            return f"***{w}***"
        if x < 0.30:
            return f"`{w.replace(' ', '_')}()`"
        if x < 0.36:
            return f"[{w}](https://example.com/{r.choice(WORDS)}/{r.randint(1, 999)} \"{r.choice(WORDS)}\")"
        if x < 0.39 and self.refs:
            return f"[{w}][{r.choice(self.refs)}]"
        if x < 0.41:
            return f"<https://{r.choice(WORDS)}.example.org/{r.randint(1, 99)}>"
        if x < 0.43:
            return f"https://www.{r.choice(WORDS)}.example.net/path?q={r.randint(1, 9)}"
        if x < 0.45:
            return f"~~{w}~~"
        if x < 0.46:
            return f"![{w}](/img/{r.choice(WORDS)}.png)"
        if x < 0.47:
            return f"<kbd>{r.choice(WORDS)}</kbd>"
        if x < 0.48:
            return "&amp; &copy; &#42;"
        if x < 0.49:
            return f"snake_case_{r.choice(WORDS)} 2*3*4"
        return w

    def sentence(self):
        parts = [self.inline() for _ in range(self.r.randint(3, 9))]
        s = " ".join(parts)
        return s[:1].upper() + s[1:] + self.r.choice([".", ".", ".", "?", "!", ":"])

    def paragraph(self):
        r = self.r
        lines = []
        for _ in range(r.randint(1, 6)):
            line = " ".join(self.sentence() for _ in range(r.randint(1, 2)))
            if r.random() < 0.05:
                line += "  "  # hard break
            lines.append(line)
        return "\n".join(lines) + "\n"

    def heading(self):
        r = self.r
        text = self.words(2, 7).title()
        if r.random() < 0.15:
            return f"{text}\n{'=' if r.random() < 0.5 else '-' * 3}\n"
        return f"{'#' * r.randint(1, 4)} {text}\n"

    def list_block(self, depth=0):
        r = self.r
        ordered = r.random() < 0.35
        task = not ordered and r.random() < 0.2
        out = []
        indent = "  " * depth if not ordered else "   " * depth
        for i in range(r.randint(2, 7)):
            if ordered:
                marker = f"{i + 1}."
            else:
                marker = r.choice("-*+") if i == 0 else out_marker
            if i == 0 and not ordered:
                out_marker = marker
            box = r.choice(["[ ] ", "[x] "]) if task else ""
            out.append(f"{indent}{marker} {box}{self.sentence()}")
            if depth < 2 and r.random() < 0.15:
                out.append(self.list_block(depth + 1).rstrip("\n"))
        return "\n".join(out) + "\n"

    def quote(self):
        body = self.paragraph().rstrip("\n").split("\n")
        if self.r.random() < 0.2:
            body = ["**Note**"] + body
        return "\n".join("> " + line for line in body) + "\n"

    def code(self):
        r = self.r
        lang = r.choice(LANGS)
        lines = []
        for _ in range(r.randint(3, 18)):
            ind = "    " * r.randint(0, 2)
            lines.append(f"{ind}let {r.choice(WORDS)}_{r.randint(0, 99)} = {r.choice(WORDS)}({r.randint(0, 9)}) // <{r.choice(WORDS)}> & \"x\"")
        if r.random() < 0.2:
            return "\n".join("    " + l for l in lines) + "\n"
        fence = r.choice(["```", "~~~", "````"])
        return f"{fence}{lang}\n" + "\n".join(lines) + f"\n{fence}\n"

    def table(self):
        r = self.r
        cols = r.randint(2, 6)
        head = "| " + " | ".join(self.words(1, 2).title() for _ in range(cols)) + " |"
        delim = "|" + "|".join(r.choice([" --- ", ":---", "---:", ":---:"]) for _ in range(cols)) + "|"
        rows = []
        for _ in range(r.randint(2, 25)):
            rows.append("| " + " | ".join(self.inline() for _ in range(cols)) + " |")
        return "\n".join([head, delim] + rows) + "\n"

    def refdef(self):
        label = f"{self.r.choice(WORDS)}-{len(self.refs)}"
        self.refs.append(label)
        return f"[{label}]: https://ref.example.com/{label} \"{self.r.choice(WORDS)}\"\n"

    def html_block(self):
        return f"<div class=\"{self.r.choice(WORDS)}\">\n<p>{self.words(2, 6)}</p>\n</div>\n"

    def block(self):
        r = self.r
        x = r.random()
        if x < 0.10:
            return self.heading()
        if x < 0.50:
            return self.paragraph()
        if x < 0.65:
            return self.list_block()
        if x < 0.71:
            return self.quote()
        if x < 0.81:
            return self.code()
        if x < 0.88:
            return self.table()
        if x < 0.92:
            return self.refdef()
        if x < 0.94:
            return "---\n" if r.random() < 0.5 else "* * *\n"
        if x < 0.95:
            return self.html_block()
        return self.paragraph()

    def document(self, size):
        parts, total = [], 0
        while total < size:
            b = self.block() + "\n"
            parts.append(b)
            total += len(b.encode("utf-8"))
        return "".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=20250101)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    for name, size, seed in [("generated-1mb.md", 1_000_000, args.seed), ("generated-10mb.md", 10_000_000, args.seed + 1)]:
        text = Gen(seed).document(size)
        path = os.path.join(args.outdir, name)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(path)


if __name__ == "__main__":
    main()
