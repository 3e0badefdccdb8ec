#!/usr/bin/env python3
"""Deterministic comparison tables (~150 KB), the way a model answers "compare
these": a short intro, then tables of three columns whose middle cells are
long runs of words with emphasis, code and links. Streaming them measures
the row passes over an open cell with inlines (a cell of 400 bytes took
13x its batch parse before session 28's `emitOpenCell`).

    python3 Benchmarks/gen-tables.py > /tmp/tables.md
    Benchmarks/stream-callgrind.sh /tmp/tables.md
"""
import random
import sys

random.seed(11)
WORDS = ("the value of this option is that it lets you run the code quickly and safely "
         "with less memory than the other one at the cost of a slower start").split()


def cell(lo, hi):
    out = []
    for _ in range(random.randint(lo, hi)):
        w = random.choice(WORDS)
        r = random.random()
        if r < 0.07:
            w = f"**{w}**"
        elif r < 0.13:
            w = f"`{w}()`"
        elif r < 0.17:
            w = f"*{w}*"
        elif r < 0.19:
            w = f"[{w}](https://example.com/{w})"
        out.append(w)
    return " ".join(out)


parts, size, k = [], 0, 0
while size < 150_000:
    rows = [f"Here is how the options compare ({k}).", "",
            "| Option | Description | Notes |", "|---|---|---|"]
    for r in range(random.randint(4, 10)):
        rows.append(f"| **Option {r}** | {cell(20, 90)} | {cell(3, 12)} |")
    rows.append("")
    text = "\n".join(rows) + "\n"
    parts.append(text)
    size += len(text)
    k += 1
sys.stdout.write("".join(parts))
