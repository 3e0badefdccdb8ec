#!/usr/bin/env python3
"""Writes the seed corpus of a fuzz target: one file per example of every
Fixtures/*.json file (a list of objects with a "markdown" key), plus a few
hand-written hostile inputs.

    Fuzz/make-seeds.py --target parse OUTDIR

Each target reads a different header before the Markdown bytes (see
Fuzz/README.md): `parse` two bytes (parse options, HTML options), `ast` one
byte (parse options), `math` none. The parse options of a seed follow its
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
    if target in ("ast", "stream", "render"):
        return bytes([options])
    return b""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    parser.add_argument("outdir", type=pathlib.Path)
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    written = set()
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
