#!/usr/bin/env python3
"""Writes the seed corpus of a fuzz target: one file per example of every
Fixtures/*.json file (a list of objects with a "markdown" key), plus a few
hand-written hostile inputs.

    Fuzz/make-seeds.py --target parse OUTDIR

Each target reads a different header before the Markdown bytes (see
Fuzz/README.md): `parse` two bytes (parse options, HTML options), `ast` one
byte (parse options), `math` none, `stream` three (parse options, split
strategy, split parameter), `render` four (parse options, render options,
width, terminal options). `highlight` reads two (language, flags) before code: its seeds are
the language samples of Tests/TidemarkHighlightTests/LanguageSamples.swift
under their own language, plus every Markdown seed as code under the
languages in turn. The parse options of a seed follow its
fixture: CommonMark examples get none, GFM examples the GFM extensions,
everything else every extension. The seeds are written into the git-ignored
corpus directory by Fuzz/run.sh, so nothing generated is committed.
"""

import argparse
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# ParseOptions bits (Sources/Tidemark/ParseOptions.swift).
TABLE, STRIKE, TASKLIST, AUTOLINK, TAGFILTER, FOOTNOTES, ALERTS, MATH = (1 << i for i in range(8))
COMMONMARK = 0
GFM = TABLE | STRIKE | TASKLIST | AUTOLINK | TAGFILTER
DEFAULT = 0xFF

HOSTILE = [
    "> " * 200 + "a\n",
    "- " * 200 + "a\n",
    "1. " * 200 + "a\n",
    "[" * 500 + "a",
    "*a **a " * 200,
    "_a __a " * 200,
    "[[[[[[[[[[a]]]]]]]]]]" * 20,
    "![" * 300 + "a" + "](b)" * 300,
    "`" * 300 + "a",
    "<" * 300 + "a",
    "&#" * 300,
    "[a](<" * 200,
    "[a](" * 200,
    "[a]: " * 200,
    "a\\\n" * 100,
    "a  \n" * 100,
    "|a|b|\n|-|-|\n" + "|c|d|\n" * 100,
    "| a |\n| - |\n| " + "|" * 500 + "\n",
    "$" * 300 + "a",
    "$a$ " * 200,
    "$$\n" + "x^2\n" * 50 + "$$\n",
    "\\(" * 200 + "x",
    "\\[" * 200 + "x",
    "```math\n\\begin{cases} a \\\\ b \\end{cases}\n```\n",
    "$\\frac{" * 100 + "$",
    "[^a]" * 100 + "\n\n[^a]: b\n",
    "> [!NOTE]\n> " * 50 + "a\n",
    "www.a.com/" + "(" * 200,
    "a@b.c" * 100,
    "http://a" + "." * 300,
    "~~a ~b " * 200,
    "- [ ] " * 100 + "a\n",
    "<!--" * 100,
    "<?" * 100 + "a",
    "<![CDATA[" * 100,
    "\r\n\r" * 100 + "a\r",
    "\t>\t-\t1.\t" * 50 + "a\n",
    "\ufeff# BOM\n",
    "a\u0000b\n",
    "[x](javascript:alert(1))\n<javascript:alert(1)>\n![y](data:text/html,x)\n",
    "[x](&#106;avascript&colon;alert(1) \"t\\\" onmouseover=\\\"x\")\n",
    "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n",
]
HOSTILE_BYTES = [
    b"\x80\xbf\xc0\x80\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82\n",
    b"*\xff*\n> \xc3\n",
]


def fixture_options(path: pathlib.Path, example: dict) -> int:
    name = path.name
    if name.startswith("commonmark"):
        return COMMONMARK
    if name.startswith("gfm"):
        return GFM
    return DEFAULT


def seeds():
    for path in sorted((ROOT / "Fixtures").glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"make-seeds: skipping {path.name}: {error}", file=sys.stderr)
            continue
        if not isinstance(data, list):
            continue
        for example in data:
            if isinstance(example, dict) and isinstance(example.get("markdown"), str):
                yield fixture_options(path, example), example["markdown"].encode("utf-8")
    for text in HOSTILE:
        yield DEFAULT, text.encode("utf-8")
    for raw in HOSTILE_BYTES:
        yield DEFAULT, raw


def header(target: str, options: int, variant: int) -> bytes:
    if target == "parse":
        # Alternate the HTML options so safe and unsafe, sourcepos and the
        # soft-break styles all appear in the corpus from the start.
        return bytes([options, variant & 0x3F])
    if target == "ast":
        return bytes([options])
    if target == "stream":
        # Every split strategy, String appends, forks, no finish, held
        # updates; small chunk parameters (1-byte chunks are the hardest).
        return bytes([options, variant & 0x3F, (variant * 7) % 13 + 1])
    if target == "render":
        # Render and terminal options vary with the variant; widths 1…200.
        return bytes([options, variant & 0xFF, (variant * 37) % 200 + 1, (variant * 13) & 0xFF])
    return b""


# The order of the first names of HIGHLIGHT_LANGUAGES in
# Fuzz/Targets/highlight.swift: byte 0 of a `highlight` input indexes it.
HIGHLIGHT_LANGUAGES = [
    "swift", "c", "cpp", "c_sharp", "python", "javascript", "typescript", "tsx", "go", "rust",
    "java", "kotlin", "ruby", "bash", "sql", "yaml", "json", "html", "css", "diff",
]


def language_samples():
    """(language, code) of every sample in the highlighter's tests."""
    import re
    import textwrap
    path = ROOT / "Tests" / "TidemarkHighlightTests" / "LanguageSamples.swift"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return
    pattern = re.compile(r'language:\s*"([^"]+)",\s*code:\s*#"""\n(.*?)\n\s*"""#', re.S)
    for language, code in pattern.findall(text):
        yield language, textwrap.dedent(code) + "\n"


def highlight_seeds():
    for language, code in language_samples():
        if language in HIGHLIGHT_LANGUAGES:
            index = HIGHLIGHT_LANGUAGES.index(language)
            for flags in (0, 1, 0x13):
                yield bytes([index, flags]) + code.encode("utf-8")
    for n, (_, markdown) in enumerate(seeds()):
        yield bytes([n % 64, n & 0xFF]) + markdown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    parser.add_argument("outdir", type=pathlib.Path)
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    written = set()
    if args.target == "highlight":
        for data in highlight_seeds():
            name = hashlib.sha1(data).hexdigest()
            if name not in written:
                written.add(name)
                (args.outdir / name).write_bytes(data)
        print(f"make-seeds: wrote {len(written)} seeds for highlight into {args.outdir}", file=sys.stderr)
        return 0
    for n, (options, markdown) in enumerate(seeds()):
        if args.target == "math" and options != DEFAULT and b"$" not in markdown and b"\\" not in markdown:
            continue
        data = header(args.target, options, n) + markdown
        name = hashlib.sha1(data).hexdigest()
        if name in written:
            continue
        written.add(name)
        (args.outdir / name).write_bytes(data)
    print(f"make-seeds: wrote {len(written)} seeds for {args.target} into {args.outdir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
