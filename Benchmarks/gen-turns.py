#!/usr/bin/env python3
"""A deterministic transcript of short chat turns (~300 KB): one-line
paragraphs that open with a bold speaker label (`**User:**`,
`**Assistant:**`), some with a word in `code` or *emphasis*, each ended by
a blank line. Most of a turn's cost is its start: the paragraph before it
settles and the new one is published, and the label's closer takes an
inline pass.

    python3 Benchmarks/gen-turns.py > /tmp/turns.md
    Benchmarks/stream-callgrind.sh /tmp/turns.md
"""
import random
import sys

random.seed(31)
WORDS = ("how do I sort the list in place without a copy and keep the order "
         "stable when two keys are equal here is one way that works").split()
out, size, k = [], 0, 0
while size < 300_000:
    label = "**User:**" if k % 2 == 0 else "**Assistant:**"
    words = [random.choice(WORDS) for _ in range(random.randint(4, 16))]
    if random.random() < 0.3:
        i = random.randrange(len(words))
        words[i] = random.choice([f"`{words[i]}`", f"*{words[i]}*"])
    turn = f"{label} {' '.join(words)}.\n\n"
    out.append(turn)
    size += len(turn)
    k += 1
sys.stdout.write("".join(out))
