#!/usr/bin/env python3
"""Checks `tidemark html --stream-chunks N --emit-each` from outside, as an
external checker would: for each Markdown file and a few chunk sizes, the
HTML printed after each append must equal `tidemark html` of the bytes
appended so far. Every emission is checked for small files; for larger ones
a fixed random sample (and always the last append and the one after
`finish()`).

    scripts/check-emit-each.py [--bin PATH] [--sample N] FILE...

Chunk sizes scale with the file (about 1,500 appends at the smallest), so a
directory of READMEs takes a couple of minutes. Exit status 1 on any
difference (printed with the file, the chunk size and the append).
Build the CLI first: swift build -c release --product tidemark.
"""
import argparse
import os
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "tidemark"))
    ap.add_argument("--sample", type=int, default=12, help="appends checked per file and chunk size (beside the last two)")
    args = ap.parse_args()
    rng = random.Random(7)
    checked = bad = 0
    for path in args.files:
        data = open(path, "rb").read()
        base = max(1, len(data) // 1500)
        for n in sorted({base, base + 1, base * 3 + 2, base * 7 + 5}):
            out = subprocess.run([args.bin, "html", "--stream-chunks", str(n), "--emit-each", path],
                                 capture_output=True).stdout
            parts = out.split(b"\0")
            if parts and parts[-1] == b"":
                parts = parts[:-1]
            appends = (len(data) + n - 1) // n
            # One emission per append, then one after finish().
            if len(parts) != appends + 1:
                print(f"{path}: chunk {n}: {len(parts)} emissions, want {appends + 1}")
                bad += 1
                continue
            picks = set(rng.sample(range(appends), min(args.sample, appends)))
            for k in sorted(picks | {appends - 1, appends}):
                prefix = data[:min(len(data), (k + 1) * n)]
                want = subprocess.run([args.bin, "html"], input=prefix, capture_output=True).stdout
                checked += 1
                if parts[k] != want:
                    print(f"{path}: chunk {n}: append {k} ({len(prefix)} bytes) differs from the batch HTML")
                    bad += 1
                    break
    print(f"checked {checked} emissions, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
