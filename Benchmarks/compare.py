#!/usr/bin/env python3
"""Peer comparison driven by Benchmarks/run.sh (which builds the binaries).

    compare.py --bench BIN --md4c BIN --out DIR [--corpus DIR] [--quick]
               [--dialects gfm,commonmark] [--runs N] [--cli-mb MB] [--target-mb MB]

For every corpus file and dialect it measures, in the same run:
  * in process: Tidemark parse and parse+HTML (tidemark-bench, internal
    iterations) against md4c md_parse (empty callbacks) and md_html
    (md4c-driver, internal iterations);
  * as a command line, wall time with hyperfine: tidemark-bench's
    CLI-equivalent single run (read, parse, render, write), cmark-gfm, md4c
    (md4c-driver single run) and pulldown-cmark, on the input repeated to
    about --cli-mb megabytes so that process start-up does not dominate;
    pulldown-cmark --dry-run as a parse-only CLI figure;
  * peak memory of each command line (/usr/bin/time -f %M, KiB).
Ratios are Tidemark ÷ peer for speed (> 1: Tidemark faster) and for memory
(> 1: Tidemark uses more).
"""

import argparse
import json
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time

GFM_EXTENSIONS = ["table", "strikethrough", "tasklist", "autolink", "tagfilter"]


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def machine_description():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        model = platform.processor() or model
    load = ""
    if hasattr(os, "getloadavg"):
        load = "load average %.2f %.2f %.2f" % os.getloadavg()
    return f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'}), {model}, {platform.system()} {platform.release()}, {load}"


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[0] if text else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def dpkg_version(package):
    if not shutil.which("dpkg-query"):
        return "?"
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return out.stdout.strip() or "?"


# ---------------------------------------------------------------- corpus


def prepare_corpus(args):
    """Returns [(name, path)]: the shared corpus when present, else generated."""
    work = os.path.join(args.out, "corpus")
    os.makedirs(work, exist_ok=True)
    files = []
    corpus = args.corpus
    if corpus and os.path.isdir(corpus):
        for name in ["mixed-1mb.md", "mixed-10mb.md", "chat-1mb.md", "commonmark-spec.md"]:
            path = os.path.join(corpus, name)
            if os.path.isfile(path):
                files.append((name, path))
        readmes = os.path.join(corpus, "readmes")
        if os.path.isdir(readmes):
            parts = sorted(p for p in os.listdir(readmes) if p.endswith(".md"))
            path = os.path.join(work, "readmes-concatenated.md")
            with open(path, "wb") as out:
                for p in parts:
                    with open(os.path.join(readmes, p), "rb") as f:
                        data = f.read()
                    out.write(data)
                    out.write(b"\n\n" if data.endswith(b"\n") else b"\n\n\n")
            files.append(("readmes/ (concatenated)", path))
    else:
        log(f"no shared corpus at {corpus!r}: generating one (Benchmarks/gen-corpus.py)")
        gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-corpus.py")
        subprocess.run([sys.executable, gen, work], check=True, stdout=subprocess.DEVNULL)
        for name in ["generated-1mb.md", "generated-10mb.md"]:
            files.append((name, os.path.join(work, name)))
    if args.only:
        files = [f for f in files if any(o in f[0] for o in args.only.split(","))]
    return files


def repeated_input(path, target_bytes, work):
    """The file itself when large enough, else its content repeated (blank line between)."""
    size = os.path.getsize(path)
    if size >= target_bytes * 0.8:
        return path, 1
    times = math.ceil(target_bytes / size)
    out = os.path.join(work, "corpus", os.path.basename(path) + f".x{times}.md")
    if not os.path.exists(out) or os.path.getsize(out) < size * times:
        with open(path, "rb") as f:
            data = f.read()
        if not data.endswith(b"\n"):
            data += b"\n"
        with open(out, "wb") as f:
            for _ in range(times):
                f.write(data)
                f.write(b"\n")
    return out, times


# ---------------------------------------------------------------- measuring


def in_process(cmd):
    """Runs a driver with --tsv; returns (min_s, median_s, peak_kib)."""
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        log(f"  FAILED ({out.returncode}): {' '.join(cmd)}\n{out.stderr[-2000:]}")
        return None
    line = [l for l in out.stderr.splitlines() if "\t" in l][-1].split("\t")
    return float(line[5]), float(line[6]), int(line[10])


def hyperfine(commands, runs, warmup, json_path):
    """Wall times of shell commands; returns {name: (min, median)}."""
    cmd = ["hyperfine", "--style", "basic", "--runs", str(runs), "--warmup", str(warmup),
           "--export-json", json_path]
    for name, command in commands:
        cmd += ["--command-name", name, command]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        log(res.stdout[-3000:], res.stderr[-3000:])
        return {}
    with open(json_path) as f:
        data = json.load(f)
    return {r["command"]: (min(r["times"]), statistics.median(r["times"])) for r in data["results"]}


def python_timer(commands, runs, warmup):
    """Fallback without hyperfine: repeated runs through the shell."""
    result = {}
    for name, command in commands:
        times = []
        for i in range(warmup + runs):
            t = time.perf_counter()
            subprocess.run(command, shell=True, executable="/bin/bash")
            if i >= warmup:
                times.append(time.perf_counter() - t)
        result[name] = (min(times), statistics.median(times))
    return result


def peak_memory_kib(command):
    """Peak RSS of a shell command in KiB, with /usr/bin/time -f %M (or wait4)."""
    if os.path.exists("/usr/bin/time"):
        res = subprocess.run(["/usr/bin/time", "-f", "%M", "/bin/bash", "-c", "exec " + command],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            return int(res.stderr.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return None
    proc = subprocess.Popen(["/bin/bash", "-c", "exec " + command])
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_maxrss


# ---------------------------------------------------------------- formatting


def fmt(x, digits=1):
    return "—" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--md4c")
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus")
    ap.add_argument("--dialects", default="gfm,commonmark")
    ap.add_argument("--runs", type=int, default=5, help="hyperfine runs per command line")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--cli-mb", type=float, default=5.0, help="repeat small inputs to this size for CLI runs")
    ap.add_argument("--target-mb", type=float, default=20.0, help="in-process: iterate over about this much input")
    ap.add_argument("--only", help="comma-separated substrings of corpus names to keep")
    ap.add_argument("--quick", action="store_true", help="fewer runs and iterations")
    args = ap.parse_args()
    if args.quick:
        args.runs, args.warmup, args.cli_mb, args.target_mb = 3, 1, 3.0, 6.0
    os.makedirs(args.out, exist_ok=True)

    have = {t: shutil.which(t) is not None for t in ["cmark-gfm", "pulldown-cmark", "hyperfine"]}
    md4c = args.md4c if args.md4c and os.path.exists(args.md4c) else None
    print("# Tidemark benchmark")
    print()
    print(f"machine: {machine_description()}")
    print(f"peers: cmark-gfm {dpkg_version('cmark-gfm') if have['cmark-gfm'] else 'MISSING'}, "
          f"md4c {dpkg_version('libmd4c0') if md4c else 'MISSING'}, "
          f"pulldown-cmark {dpkg_version('pulldown-cmark') if have['pulldown-cmark'] else 'MISSING'}, "
          f"timer {'hyperfine ' + dpkg_version('hyperfine') if have['hyperfine'] else 'python (hyperfine missing)'}")
    print(f"tidemark-bench: {args.bench}")
    print("ratios: speed = Tidemark MB/s ÷ peer MB/s (> 1: Tidemark faster); "
          "memory = Tidemark KiB ÷ peer KiB (> 1: Tidemark uses more)")
    print(flush=True)

    files = prepare_corpus(args)
    summary = []
    for name, path in files:
        size = os.path.getsize(path)
        mb = size / 1e6
        iterations = max(3, min(100, math.ceil(args.target_mb / mb)))
        cli_path, times_repeated = repeated_input(path, args.cli_mb * 1e6, args.out)
        cli_mb = os.path.getsize(cli_path) / 1e6
        q = shlex.quote
        for dialect in args.dialects.split(","):
            log(f"measuring {name} [{dialect}] ...")
            row = {"corpus": name, "dialect": dialect, "bytes": size}
            # In process.
            tm_opts = ["--options", dialect, "--iterations", str(iterations), "--tsv"]
            for mode in ["parse", "html"]:
                r = in_process([args.bench, mode, path] + tm_opts)
                row[f"tm_{mode}"] = mb / r[1] if r else None
                row[f"tm_{mode}_rss"] = r[2] if r else None
                if md4c:
                    r = in_process([md4c, mode, path, "--dialect", dialect, "--iterations", str(iterations), "--tsv"])
                    row[f"md4c_{mode}"] = mb / r[1] if r else None
            # Command lines on the (repeated) input.
            cmark_ext = "".join(f" -e {e}" for e in GFM_EXTENSIONS) if dialect == "gfm" else ""
            pulldown_ext = " -T -S -L" if dialect == "gfm" else ""
            commands = [("tidemark", f"{q(args.bench)} html {q(cli_path)} --options {dialect} "
                                     f"--iterations 1 --warmup 0 --emit --quiet")]
            if have["cmark-gfm"]:
                commands.append(("cmark-gfm", f"cmark-gfm{cmark_ext} {q(cli_path)}"))
            if md4c:
                commands.append(("md4c", f"{q(md4c)} html {q(cli_path)} --dialect {dialect} "
                                         f"--iterations 1 --warmup 0 --emit --quiet"))
            if have["pulldown-cmark"]:
                commands.append(("pulldown-cmark", f"pulldown-cmark{pulldown_ext} < {q(cli_path)}"))
                commands.append(("pulldown-cmark-dry", f"pulldown-cmark -d{pulldown_ext} < {q(cli_path)}"))
            safe = "".join(c if c.isalnum() else "_" for c in name)
            if have["hyperfine"]:
                timed = hyperfine([(n, c + " > /dev/null") for n, c in commands], args.runs, args.warmup,
                                  os.path.join(args.out, f"hyperfine-{safe}-{dialect}.json"))
            else:
                timed = python_timer([(n, c + " > /dev/null") for n, c in commands], args.runs, args.warmup)
            for n, c in commands:
                t = timed.get(n)
                row[f"cli_{n}"] = cli_mb / t[1] if t else None
                row[f"cli_{n}_min"] = t[0] if t else None
                row[f"mem_{n}"] = peak_memory_kib(c + " > /dev/null")
            row["cli_mb"] = cli_mb
            row["repeated"] = times_repeated
            summary.append(row)
            print_row(row, iterations, args)

    if args.corpus and os.path.isdir(os.path.join(args.corpus, "readmes")) and have["hyperfine"] \
            and (not args.only or "readmes" in args.only):
        per_file_readmes(args, md4c, have)
    print_summary(summary)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


def per_file_readmes(args, md4c, have):
    """readmes/ the way a CLI meets them: one process per file, gfm dialect."""
    readmes = os.path.join(args.corpus, "readmes")
    files = sorted(os.path.join(readmes, p) for p in os.listdir(readmes) if p.endswith(".md"))
    total = sum(os.path.getsize(f) for f in files)
    listing = os.path.join(args.out, "corpus", "readmes-files.txt")
    with open(listing, "w") as f:
        f.write("\n".join(files) + "\n")
    q = shlex.quote
    loop = f"while IFS= read -r f; do {{}}; done < {q(listing)} > /dev/null"
    cmark_ext = "".join(f" -e {e}" for e in GFM_EXTENSIONS)
    commands = [("tidemark", loop.format(f'{q(args.bench)} html "$f" --iterations 1 --warmup 0 --emit --quiet'))]
    if have["cmark-gfm"]:
        commands.append(("cmark-gfm", loop.format(f'cmark-gfm{cmark_ext} "$f"')))
    if md4c:
        commands.append(("md4c", loop.format(f'{q(md4c)} html "$f" --iterations 1 --warmup 0 --emit --quiet')))
    if have["pulldown-cmark"]:
        commands.append(("pulldown-cmark", loop.format('pulldown-cmark -T -S -L < "$f"')))
    log("measuring readmes/ one process per file ...")
    timed = hyperfine(commands, max(2, args.runs // 2), 1, os.path.join(args.out, "hyperfine-readmes-per-file.json"))
    print(f"## readmes/ one process per file [gfm] — {len(files)} files, {total:,} bytes, "
          f"median of {max(2, args.runs // 2)} runs")
    print(f"  {'':34}{'total ms':>9}  {'Tidemark ÷ peer':>15}")
    tm = timed.get("tidemark")
    for n, _ in commands:
        t = timed.get(n)
        r = "" if n == "tidemark" else fmt(ratio(t[1] if t else None, tm[1] if tm else None), 2)
        print(f"  {n:34}{fmt(t[1] * 1000 if t else None):>9}  {r:>15}")
    print(flush=True)


def print_row(row, iterations, args):
    print(f"## {row['corpus']} [{row['dialect']}] — {row['bytes']:,} bytes")
    print(f"in process, median of {iterations} iterations:")
    print(f"  {'':34}{'MB/s':>9}  {'Tidemark ÷ peer':>15}")
    print(f"  {'Tidemark parse':34}{fmt(row['tm_parse']):>9}")
    if row.get("md4c_parse") is not None:
        print(f"  {'md4c md_parse (empty callbacks)':34}{fmt(row['md4c_parse']):>9}  "
              f"{fmt(ratio(row['tm_parse'], row['md4c_parse']), 2):>15}")
    print(f"  {'Tidemark parse+HTML':34}{fmt(row['tm_html']):>9}")
    if row.get("md4c_html") is not None:
        print(f"  {'md4c md_html':34}{fmt(row['md4c_html']):>9}  "
              f"{fmt(ratio(row['tm_html'], row['md4c_html']), 2):>15}")
    rep = f" (input repeated ×{row['repeated']})" if row["repeated"] > 1 else ""
    print(f"command line, {row['cli_mb']:.1f} MB{rep}, median of {args.runs} runs, output to /dev/null:")
    print(f"  {'':34}{'MB/s':>9}  {'Tidemark ÷ peer':>15}  {'peak KiB':>9}  {'mem T ÷ peer':>12}")
    tm, tm_mem = row.get("cli_tidemark"), row.get("mem_tidemark")
    labels = {"tidemark": "tidemark-bench (1 run, --emit)", "cmark-gfm": "cmark-gfm",
              "md4c": "md4c-driver (1 run, --emit)", "pulldown-cmark": "pulldown-cmark",
              "pulldown-cmark-dry": "pulldown-cmark -d (parse only)"}
    for key, label in labels.items():
        if f"cli_{key}" not in row:
            continue
        v, m = row[f"cli_{key}"], row[f"mem_{key}"]
        r = "" if key == "tidemark" else fmt(ratio(tm, v), 2)
        mr = "" if key == "tidemark" else fmt(ratio(tm_mem, m), 2)
        print(f"  {label:34}{fmt(v):>9}  {r:>15}  {m if m is not None else '—':>9}  {mr:>12}")
    print(flush=True)


def print_summary(rows):
    print("## Summary (Markdown)")
    print()
    print("Speed ratio = Tidemark ÷ peer (> 1: Tidemark faster). In-process: median MB/s. "
          "CLI: median MB/s of whole processes. Memory: CLI peak RSS, Tidemark ÷ peer.")
    print()
    head = ["corpus", "dialect", "TM parse", "md4c parse", "×", "TM html", "md4c html", "×",
            "CLI TM", "cmark-gfm", "×", "md4c", "×", "pulldown", "×",
            "mem TM KiB", "÷cmark-gfm", "÷md4c", "÷pulldown"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + "|")
    for r in rows:
        tm = r.get("cli_tidemark")
        cells = [r["corpus"], r["dialect"], fmt(r.get("tm_parse")), fmt(r.get("md4c_parse")),
                 fmt(ratio(r.get("tm_parse"), r.get("md4c_parse")), 2),
                 fmt(r.get("tm_html")), fmt(r.get("md4c_html")),
                 fmt(ratio(r.get("tm_html"), r.get("md4c_html")), 2), fmt(tm)]
        for peer in ["cmark-gfm", "md4c", "pulldown-cmark"]:
            cells += [fmt(r.get(f"cli_{peer}")), fmt(ratio(tm, r.get(f"cli_{peer}")), 2)]
        cells.append(str(r.get("mem_tidemark")))
        for peer in ["cmark-gfm", "md4c", "pulldown-cmark"]:
            cells.append(fmt(ratio(r.get("mem_tidemark"), r.get(f"mem_{peer}")), 2))
        print("| " + " | ".join(cells) + " |")
    print(flush=True)


if __name__ == "__main__":
    main()
