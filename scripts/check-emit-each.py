#!/usr/bin/env python3
"""Checks `tidemark html --stream-chunks N --emit-each` from outside, as an
external checker would: for each Markdown file and each chunk size, the
HTML printed after each append must equal `tidemark html` of the bytes
appended so far, and the one printed after `finish()` the HTML of the whole
file.

    scripts/check-emit-each.py [--chunks 1,2,3,4,5,7] [--ast] [--jobs 2]
                               [--flags="..."] [--html-flags="..."] FILE...
    scripts/check-emit-each.py --oracle cli [--all] [--sample N] FILE...

By default (`--oracle prefixes`) every emission is checked: the oracle is
`tidemark html --stream-chunks N --batch-prefixes`, which prints the batch
HTML of the first N, 2N, ... bytes and of the whole file in one process,
without the streaming parser; on a few prefixes per file and chunk size
(`--spot`, default 3) it is itself checked against `tidemark html` of the
prefix on standard input. Chunk sizes default to 1,2,3,4,5,7 for files
under 16 KB and scale with larger ones (about 1,500 appends at the
smallest). `--ast` also checks `tidemark ast --json`. `--flags` go to both
commands (parse flags: --commonmark, --no-extension X), `--html-flags` to
`html` only (--sourcepos, --unsafe, --hardbreaks, --nobreaks); write them
with `=` (`--flags=--commonmark`), or a value that starts with `--` is
taken for an option of this script.

`--oracle cli` is the older, slower way: one `tidemark html` process per
prefix, for a sample of the emissions (`--sample`, always the last two) or
with `--all` for every one. Exit status 1 on any difference (printed with
the file, the chunk size, the append and the first differing line). Build
the CLI first: swift build -c release --product tidemark.
"""
import argparse
import concurrent.futures as cf
import shlex
import os
import random
import subprocess
import sys


def command_line(args, command):
    """The CLI and its flags for `command` (html or ast)."""
    line = [args.bin, command] + (["--json"] if command == "ast" else []) + shlex.split(args.flags)
    return line + (shlex.split(args.html_flags) if command == "html" else [])


def emissions(args, command, n, path, mode="--emit-each"):
    """The NUL-terminated outputs of one run (`--emit-each`, or the
    oracle's `--batch-prefixes`)."""
    out = subprocess.run(command_line(args, command) + ["--stream-chunks", str(n), mode, path],
                         capture_output=True).stdout
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


def parts_of(process):
    """The NUL-terminated outputs of a running process, one by one (a long
    file's outputs at a small chunk size do not fit in memory at once)."""
    pieces = []
    while True:
        block = process.stdout.read(1 << 20)
        if not block:
            break
        start = 0
        while True:
            end = block.find(b"\0", start)
            if end < 0:
                pieces.append(block[start:])
                break
            pieces.append(block[start:end])
            yield b"".join(pieces)
            pieces = []
            start = end + 1
    rest = b"".join(pieces)
    if rest:
        yield rest


def compare_runs(args, path, command, n, appends, data, rng, batch):
    """Every emission of `--emit-each` against the oracle's output for it,
    the oracle spot-checked against the CLI's batch output."""
    spots = set(rng.sample(range(appends + 1), min(args.spot, appends + 1)))
    streamed = subprocess.Popen(command_line(args, command) + ["--stream-chunks", str(n), "--emit-each", path],
                                stdout=subprocess.PIPE)
    oracle = subprocess.Popen(command_line(args, command) + ["--stream-chunks", str(n), "--batch-prefixes", path],
                              stdout=subprocess.PIPE)
    checked = bad = k = 0
    a, b = parts_of(streamed), parts_of(oracle)
    while True:
        got, want = next(a, None), next(b, None)
        if got is None or want is None:
            if got is not None or want is not None or k != appends + 1:
                print(f"{path}: {command}, chunk {n}: {k + (got is not None)} emissions against "
                      f"{k + (want is not None)} outputs of the oracle, want {appends + 1}")
                bad += 1
            break
        length = min(len(data), (k + 1) * n)
        if k in spots and want != batch(length):
            print(f"{path}: {command}, chunk {n}: the oracle's output {k} differs from the CLI's batch output")
            bad += 1
            break
        checked += 1
        if got != want:
            what = "after finish()" if k == appends else f"append {k} ({length} bytes)"
            print(f"{path}: {command}, chunk {n}: {what} differs from the batch output: "
                  f"{first_difference(want, got)}")
            bad += 1
            break
        k += 1
    for process in (streamed, oracle):
        process.stdout.close()
        process.kill()
        process.wait()
    return checked, bad


def check_file(args, path, rng, command, chunks):
    data = open(path, "rb").read()
    cache = {}

    def batch(length):
        if length not in cache:
            cache[length] = subprocess.run(command_line(args, command), input=data[:length],
                                           capture_output=True).stdout
        return cache[length]

    checked = bad = 0
    for n in chunks:
        appends = (len(data) + n - 1) // n
        if args.oracle == "prefixes":
            c, b = compare_runs(args, path, command, n, appends, data, rng, batch)
            checked += c
            bad += b
            continue
        parts = emissions(args, command, n, path)
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
    ap.add_argument("--oracle", choices=["prefixes", "cli"], default="prefixes",
                    help="prefixes: every emission against --batch-prefixes; cli: a batch process per prefix")
    ap.add_argument("--spot", type=int, default=3, help="prefixes per file and chunk size on which the oracle is checked")
    ap.add_argument("--sample", type=int, default=12,
                    help="with --oracle cli: appends checked per file and chunk size (beside the last two)")
    ap.add_argument("--all", action="store_true", help="with --oracle cli: check every emission")
    ap.add_argument("--chunks", help="chunk sizes (comma-separated; default 1,2,3,4,5,7, or scaled to the file)")
    ap.add_argument("--ast", action="store_true", help="check `ast --json` too")
    ap.add_argument("--flags", default="", help="flags for both commands (parse flags), as --flags=\"...\"")
    ap.add_argument("--html-flags", default="", help="flags for `html` only, as --html-flags=\"...\"")
    ap.add_argument("--jobs", type=int, default=1, help="files checked at once")
    args = ap.parse_args()
    exhaustive = args.all or args.oracle == "prefixes"

    def check(item):
        index, path = item
        rng = random.Random(f"7:{index}")
        if args.chunks:
            chunks = [int(c) for c in args.chunks.split(",")]
        elif exhaustive and os.path.getsize(path) < 16384:
            chunks = [1, 2, 3, 4, 5, 7]
        else:
            base = max(1, os.path.getsize(path) // 1500)
            chunks = sorted({base, base + 1, base * 3 + 2, base * 7 + 5})
        checked = bad = 0
        for command in (["html", "ast"] if args.ast and exhaustive else ["html"]):
            c, b = check_file(args, path, rng, command, chunks)
            checked += c
            bad += b
        return checked, bad

    checked = bad = 0
    with cf.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for c, b in pool.map(check, enumerate(args.files)):
            checked += c
            bad += b
    print(f"checked {checked} emissions in {len(args.files)} files, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
