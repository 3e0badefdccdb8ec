#!/usr/bin/env python3
"""A deterministic Japanese chat-like document (~324 KB) for the streaming
benchmark of text without spaces, where 4-byte chunks split most UTF-8
sequences:

    python3 Benchmarks/gen-cjk.py > /tmp/cjk.md
    tidemark-bench stream /tmp/cjk.md --chunk 4
"""
import sys

SENTENCE = "これは日本語のテストです。ストリーミングの性能を測定します。**太字**と`コード`も含みます。"
out = []
for i in range(800):
    out.append(SENTENCE * 3 + "\n\n")
    if i % 5 == 0:
        out.append("- 項目その一\n- 項目その二\n\n")
sys.stdout.write("".join(out))
