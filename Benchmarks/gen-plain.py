#!/usr/bin/env python3
"""A deterministic line of plain words (~480 KB, one paragraph, no line
break but the last): every 4-byte chunk of it takes the stream's plain
path, so streaming it measures the cost of an append and its update alone.

    python3 Benchmarks/gen-plain.py > /tmp/plain.md
    Benchmarks/stream-callgrind.sh /tmp/plain.md
"""
import random
import sys

random.seed(1)
WORDS = ["alpha", "beta", "gamma", "delta", "stream", "token", "render", "words", "plain", "text"]
sys.stdout.write(" ".join(random.choice(WORDS) for _ in range(80_000)) + "\n")
