#!/usr/bin/env python3
"""Checks `tidemark html --stream-chunks N --emit-each` from outside, as an
external checker would: for each Markdown file and a few chunk sizes, the
HTML printed after each append must equal `tidemark html` of the bytes
appended so far, and the one printed after `finish()` the HTML of the whole
file.

    scripts/check-emit-each.py [--bin PATH] [--sample N] FILE...
    scripts/check-emit-each.py --all [--chunks 1,2,3,4,5,7] [--ast] FILE...

By default chunk sizes scale with the file (about 1,500 appends at the
smallest) and a fixed random sample of emissions is checked (always the
last append and the one after `finish()`): a directory of READMEs takes a
couple of minutes. `--all` checks every emission at the given chunk sizes
(the batch HTML of each prefix length is computed once for all of them) —
for small files, such as those of scripts/gen-stream-docs.py; `--ast` also
checks `tidemark ast --json` the same way. Exit status 1 on any difference
(printed with the file, the chunk size, the append and the first differing
line). Build the CLI first: swift build -c release --product tidemark.
"""
import argparse
import os
import random
import subprocess
import sys


def emissions(binary, command, n, path):
    """The NUL-terminated outputs of one streaming run."""
    out = subprocess.run([binary, command, *(["--json"] if command == "ast" else []),
                          "--stream-chunks", str(n), "--emit-each", path], capture_output=True).stdout
    parts = out.split(b"\0")
    if parts and parts[-1] == b"":
        parts = parts[:-1]
    return parts


def first_difference(want, got):
    a, b = want.split(b"\n"), got.split(b"\n")
    for k in range(max(len(a), len(b))):
        x = a[k] if k < len(a) else b"<end>"
        y = b[k] if k < len(b) else b"<end>"
        if x != y:
            return f"line {k + 1}: want {x[:120]!r}, got {y[:120]!r}"
    return "same lines, different bytes"


def check_file(args, path, rng, command, chunks):
    data = open(path, "rb").read()
    cache = {}

    def batch(length):
        if length not in cache:
            cache[length] = subprocess.run([args.bin, command, *(["--json"] if command == "ast" else [])],
                                           input=data[:length], capture_output=True).stdout
        return cache[length]

    checked = bad = 0
    for n in chunks:
        parts = emissions(args.bin, command, n, path)
        appends = (len(data) + n - 1) // n
        # One emission per append, then one after finish().
        if len(parts) != appends + 1:
            print(f"{path}: {command}, chunk {n}: {len(parts)} emissions, want {appends + 1}")
            bad += 1
            continue
        if args.all:
            picks = range(appends + 1)
        else:
            picks = sorted(set(rng.sample(range(appends), min(args.sample, appends))) | {appends - 1, appends})
        for k in picks:
            length = min(len(data), (k + 1) * n)
            checked += 1
            want = batch(length)
            if parts[k] != want:
                what = "after finish()" if k == appends else f"append {k} ({length} bytes)"
                print(f"{path}: {command}, chunk {n}: {what} differs from the batch output: "
                      f"{first_difference(want, parts[k])}")
                bad += 1
                break
    return checked, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "tidemark"))
    ap.add_argument("--sample", type=int, default=12, help="appends checked per file and chunk size (beside the last two)")
    ap.add_argument("--all", action="store_true", help="check every emission")
    ap.add_argument("--chunks", default="1,2,3,4,5,7", help="chunk sizes with --all (comma-separated)")
    ap.add_argument("--ast", action="store_true", help="with --all, check `ast --json` too")
    args = ap.parse_args()
    rng = random.Random(7)
    checked = bad = 0
    for path in args.files:
        if args.all:
            chunks = [int(c) for c in args.chunks.split(",")]
        else:
            base = max(1, os.path.getsize(path) // 1500)
            chunks = sorted({base, base + 1, base * 3 + 2, base * 7 + 5})
        for command in (["html", "ast"] if args.all and args.ast else ["html"]):
            c, b = check_file(args, path, rng, command, chunks)
            checked += c
            bad += b
    print(f"checked {checked} emissions, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
