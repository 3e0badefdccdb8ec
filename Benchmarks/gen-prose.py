#!/usr/bin/env python3
"""A deterministic paragraph of plain prose in hard-wrapped 70-byte lines
(~150 KB), the floor of the streaming design: no construct but the
paragraph and its line breaks.

    python3 Benchmarks/gen-prose.py > /tmp/prose.md
    Benchmarks/stream-callgrind.sh /tmp/prose.md
"""
import random
import sys

random.seed(7)
WORDS = ("the model streams tokens into a paragraph while the reader waits for each word "
         "to appear on screen and nothing else changes").split()
lines, line, size = [], "", 0
while size < 150_000:
    word = random.choice(WORDS)
    if len(line) + len(word) + 1 > 70:
        lines.append(line)
        size += len(line) + 1
        line = word
    else:
        line = f"{line} {word}" if line else word
lines.append(line)
sys.stdout.write("\n".join(lines) + "\n")
