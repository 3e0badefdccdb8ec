#!/usr/bin/env python3
"""A chat document with footnote citations: every seventh paragraph that
starts with a letter cites a source (` [^n]` at its end), and the
definitions of each five citations follow them. From the 1 MB chat
document (../shared/corpus/chat-1mb.md, or the file given): 219 citations,
1.05 MB. Streaming it measures footnote renumbering and the paragraph
paths in a document with footnotes.

    python3 Benchmarks/gen-citations.py > /tmp/citations.md
    Benchmarks/stream-callgrind.sh /tmp/citations.md
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "shared", "corpus", "chat-1mb.md")
paragraphs = open(path, encoding="utf-8").read().split("\n\n")
out, pending, n = [], [], 0
for i, p in enumerate(paragraphs):
    if p and p[0].isalpha() and i % 7 == 0:
        n += 1
        p += f" [^{n}]"
        pending.append(n)
    out.append(p)
    if len(pending) >= 5:
        out.append("\n".join(f"[^{k}]: Source {k}, https://example.com/{k}" for k in pending))
        pending = []
sys.stdout.write("\n\n".join(out))
