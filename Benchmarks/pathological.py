#!/usr/bin/env python3
"""Pathological inputs: is Tidemark linear where a naive parser is not?

    pathological.py [--scale F] [--only SUBSTRING,...] [--timeout S] [--runs N]
                    [--bench BIN] [--no-cmark] [--list]

Every case is generated at two sizes, n and 2n, and run through Tidemark's
CLI-equivalent (`tidemark-bench html FILE --iterations 1 --warmup 0 --emit`)
and through cmark-gfm with matching extensions. The table shows wall time
(best of --runs, minus the start-up time of the tool on an empty file), the
input-size ratio and the time ratio t(2n)/t(n): for a linear parser the time
ratio follows the size ratio (2 for most cases). A case is marked
  SLOW       when t(2n) exceeds 1 s,
  NONLINEAR  when t(2n)/t(n) exceeds 1.5 × the size ratio (about 3) and
             t(2n) is long enough (≥ 50 ms) to tell,
  CRASH / TIMEOUT  when the process dies or runs past --timeout.
The cases follow the list of cmark's pathological tests (written anew here,
with the sizes the Tidemark issue names), plus cases for the extensions
Tidemark adds (tables, math, footnotes, strikethrough, autolinks) and for the
streaming path (`tidemark-bench stream FILE --chunk 4 --once`: the input
appended 4 bytes at a time, Tidemark only).

The binary comes from Benchmarks/build-bench.sh (TIDEMARK_BENCH_BIN to skip
the build). Inputs go to .build-bench/pathological/ (git-ignored).
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

GFM = ["table", "strikethrough", "tasklist", "autolink", "tagfilter"]

# (name, default n, generator, tidemark options, cmark-gfm extensions)
# Generators return str; n is scaled by --scale.


def nested_lists(n):
    return "".join("  " * i + "* a\n" for i in range(n))


def backtick_runs(n):
    return "".join("e" + "`" * i for i in range(1, n + 1))


def reference_collisions(n):
    # Labels that all normalize (case fold, whitespace collapse) to one key,
    # spelled n different ways; every definition after the first is ignored
    # but must still be normalized and looked up.
    out = []
    for i in range(n):
        spelled = "".join(c.upper() if (i >> k) & 1 else c for k, c in enumerate("reference label"))
        spaced = spelled.replace(" ", " " * (1 + i % 7))
        out.append(f"[{spaced}]: /url{i}\n")
    out.append("\n")
    out.append(" ".join("[Reference Label]" for _ in range(n)))
    return "".join(out) + "\n"


def long_shared_prefix_labels(n):
    prefix = "x" * 990
    defs = "".join(f"[{prefix}{i:07d}]: /u{i}\n" for i in range(n))
    uses = " ".join(f"[{prefix}{(i * 7919) % n:07d}]" for i in range(n))
    return defs + "\n" + uses + "\n"


def many_references(n):
    defs = "".join(f"[label{i}]: /url{i} \"title {i}\"\n" for i in range(n))
    uses = "".join(f"[text][label{(i * 31) % n}] [label{i}] " for i in range(n))
    return defs + "\n" + uses + "\n"


def wide_table(n):
    head = "|" + "|".join(f"h{i}" for i in range(n)) + "|\n"
    delim = "|" + "|".join("-" for _ in range(n)) + "|\n"
    body = "".join("|" + "|".join("c" for _ in range(n)) + "|\n" for _ in range(5))
    return head + delim + body


def long_table(n):
    return "| a | b | c |\n|---|:-:|--:|\n" + "".join(f"| {i} | *x* | `y` |\n" for i in range(n))


def wide_table_short_rows(n):
    # n columns and n one-cell rows: GFM pads every row to n cells, so the
    # output (not the input) is quadratic; a renderer that caps it stays linear.
    head = "|" + "|".join("h" for _ in range(n)) + "|\n"
    delim = "|" + "|".join("-" for _ in range(n)) + "|\n"
    return head + delim + "x\n" * n


def footnote_refs(n):
    return "[^1]" * n + "\n\n[^1]: the note\n"


def citations(n):
    # A model's answer with citations: each paragraph cites a source, the
    # definitions follow every four paragraphs (streamed, every snapshot
    # renumbers the footnotes).
    out = []
    for i in range(1, n + 1):
        out.append(f"Paragraph {i} says something *worth* citing.[^{i}] And it goes on.\n\n")
        if i % 4 == 0:
            out.append("".join(f"[^{k}]: Source {k}, https://example.com/{k}\n" for k in range(i - 3, i + 1)) + "\n")
    return "".join(out)


def reference_citations(n):
    # The same with reference links: the definitions a model writes under
    # its answer (streamed, a definition in the tail resolves references in
    # settled paragraphs; until session 18 every snapshot compared and
    # copied the whole table of definitions).
    out = []
    for i in range(1, n + 1):
        out.append(f"Paragraph {i} says something *worth* citing [src{i}]. And it goes on.\n\n")
        if i % 4 == 0:
            out.append("".join(f'[src{k}]: https://example.com/{k} "Source {k}"\n' for k in range(i - 3, i + 1)) + "\n")
    return "".join(out)


def footnote_defs(n):
    defs = "".join(f"[^n{i}]: note {i} [^n{(i + 1) % n}]\n\n" for i in range(n))
    return " ".join(f"[^n{i}]" for i in range(n)) + "\n\n" + defs


def blank_lines_in_nested_list(n):
    return "- " * n + "x" + "\n" * n


def blank_lines_in_nested_list_in_quote(n):
    return "> " + "- " * n + "x\n" + ">\n" * n


def blank_lines_in_quote(n):
    return "> " * n + "x\n" + ">\n" * n


CASES = [
    # --- regressions found by the fuzzing/hardening work ----------------------
    ("autolink trailing parens www.a.com/)))", 32_000, lambda n: "www.a.com/" + ")" * n, "gfm", GFM),
    ("unclosed math parens \\(", 32_000, lambda n: "\\(" * n, "default", GFM),
    ("nested list items on one line", 32_000, lambda n: "- " * n + "a", "gfm", GFM),
    ("long line of mixed inlines", 100_000, lambda n: "word *em* `c` [l](/u) & < " * n, "gfm", GFM),
    # --- cmark's pathological list -------------------------------------------
    ("nested strong emphasis", 50_000, lambda n: "*a **a " * n + "b" + " a** a*" * n, "gfm", GFM),
    ("emphasis closers without openers", 100_000, lambda n: "a_ " * n, "gfm", GFM),
    ("emphasis openers without closers", 100_000, lambda n: "_a " * n, "gfm", GFM),
    ("3-run closers without openers", 100_000, lambda n: "a*** " * n, "gfm", GFM),
    ("link closers without openers", 100_000, lambda n: "a]" * n, "gfm", GFM),
    ("link openers without closers", 100_000, lambda n: "[a" * n, "gfm", GFM),
    ("link openers and emphasis closers", 100_000, lambda n: "[ a_" * n, "gfm", GFM),
    ("mismatched openers and closers", 100_000, lambda n: "*a_ " * n, "gfm", GFM),
    ("openers and closers multiple of 3", 100_000, lambda n: "a**b" + "c* " * n, "gfm", GFM),
    ("pattern [ (]( repeated", 100_000, lambda n: "[ (](" * n, "gfm", GFM),
    ("pattern ![[]() repeated", 100_000, lambda n: "![[]()" * n, "gfm", GFM),
    ("nested brackets", 25_000, lambda n: "[" * n + "a" + "]" * n, "gfm", GFM),
    ("nested links", 25_000, lambda n: "[" * n + "a" + "](b)" * n, "gfm", GFM),
    ("nested block quotes", 25_000, lambda n: "> " * n + "a\n", "gfm", GFM),
    ("deeply nested lists (size ~n^2)", 1_000, nested_lists, "gfm", GFM),
    ("backtick runs 1..n (size ~n^2)", 2_500, backtick_runs, "gfm", GFM),
    ("unclosed links <", 100_000, lambda n: "[a](<b" * n, "gfm", GFM),
    ("unclosed links", 100_000, lambda n: "[a](b" * n, "gfm", GFM),
    ("unclosed link titles", 100_000, lambda n: "[a](b \"c" * n, "gfm", GFM),
    ("unclosed <!--", 100_000, lambda n: "</" + "<!--" * n, "gfm", GFM),
    ("unclosed <? <![CDATA[ <!X", 50_000, lambda n: "a <?x <![CDATA[y <!Z " * n, "gfm", GFM),
    ("unclosed <a attributes", 100_000, lambda n: "<a href='x' " * n, "gfm", GFM),
    ("empty lines in nested lists", 10_000, blank_lines_in_nested_list, "gfm", GFM),
    ("empty lines in nested lists in a quote", 10_000, blank_lines_in_nested_list_in_quote, "gfm", GFM),
    ("empty lines in nested block quotes", 10_000, blank_lines_in_quote, "gfm", GFM),
    ("emphasis in 100,000-deep block quote", 100_000, lambda n: ">" * n + "a*" * n, "gfm", GFM),
    ("deep block quote, lazy emphasis lines", 100_000, lambda n: ">" * n + " a*" * 10 + "\n" + "*b* " * n + "\n", "gfm", GFM),
    ("many references", 50_000, many_references, "gfm", GFM),
    ("reference label collisions", 50_000, reference_collisions, "gfm", GFM),
    ("long labels with shared prefix", 2_000, long_shared_prefix_labels, "gfm", GFM),
    ("many entities and escapes", 100_000, lambda n: "&amp;&#35;&#x41;\\*&bogus; " * n, "gfm", GFM),
    ("one long delimiter run", 500_000, lambda n: "a" + "*" * n + "b", "gfm", GFM),
    ("one long unmatched backtick run", 500_000, lambda n: "`" * n + "a", "gfm", GFM),
    ("many hard breaks and spaces", 100_000, lambda n: "a  \n" * n, "gfm", GFM),
    # --- Tidemark's extensions -----------------------------------------------
    ("table with n columns", 5_000, wide_table, "gfm", GFM),
    ("long table body", 100_000, long_table, "gfm", GFM),
    ("n columns, n short rows (output ~n^2)", 1_000, wide_table_short_rows, "gfm", GFM),
    ("table delimiter rows without header", 50_000, lambda n: "|-|-|\n|a|\n" * n, "gfm", GFM),
    ("strikethrough openers without closers", 100_000, lambda n: "~~a " * n, "gfm", GFM),
    ("mixed ~ runs", 100_000, lambda n: "~a ~~~b ~~c~ " * n, "gfm", GFM),
    ("www. autolinks", 50_000, lambda n: "www.example.com/a_(b) " * n, "gfm", GFM),
    ("autolink-like text without dots", 100_000, lambda n: "http://x www.y a@b " * n, "gfm", GFM),
    ("many $ dollars", 200_000, lambda n: "$a " * n, "default", GFM),
    ("many $$ pairs unclosed", 200_000, lambda n: "$$a " * n, "default", GFM),
    ("nested \\( \\[ math openers", 100_000, lambda n: "\\(a \\[b " * n, "default", GFM),
    ("many footnote references", 100_000, footnote_refs, "default", GFM + ["footnotes"]),
    ("many footnote definitions", 20_000, footnote_defs, "default", GFM + ["footnotes"]),
    ("many task list items", 100_000, lambda n: "- [ ] a\n- [x] b\n" * (n // 2), "default", GFM),
    ("many alerts", 50_000, lambda n: "> [!NOTE]\n> a\n\n" * n, "default", GFM),
    # --- the streaming path: `tidemark-bench stream FILE --chunk 4 --once`,
    # the input appended 4 bytes at a time, the update taken after each
    # append (Tidemark only). The contract is O(chunk + trailing open block)
    # per append: where one open block is the whole input (a list, a code
    # block, a quote), n appends into it may cost up to n × block — marked
    # "(block)" in the name.
    ("stream: many short paragraphs", 20_000, lambda n: "Word *em* `c` [l](/u) text.\n\n" * n, "stream", GFM),
    ("stream: one long paragraph of inlines", 20_000, lambda n: "word *em* `c` [l](/u) & " * n, "stream", GFM),
    ("stream: long paragraph after unclosed * (block)", 20_000, lambda n: "*a " + "word `c` " * n, "stream", GFM),
    ("stream: emphasis pairs across words", 20_000, lambda n: "*a b* c " * n, "stream", GFM),
    # n unmatched openers, then closers of another kind, in one streamed
    # paragraph: linear since session 8 (the waiting openers stay on the
    # delimiter stack; emission goes on after the resume point).
    ("stream: n openers then n closers of another kind", 2_000, lambda n: "*a " * n + "b_ " * n, "stream", GFM),
    ("stream: long paragraph of [n] citations", 2_000, lambda n: "Some words here [1] and more text [2] about it. " * n,
     "stream", GFM),
    # A [ that never closes: resume points hold it (linear since session 8).
    ("stream: n paragraphs citing footnotes, defined after every 4", 2_000, citations, "stream", GFM),
    ("stream: n paragraphs citing reference links, defined after every 4", 2_000, reference_citations, "stream", GFM),
    ("stream: paragraph after an unclosed [", 2_000, lambda n: "x [ " + "word *em* `c` more " * n, "stream", GFM),
    # Known quadratic: closers that take the waiting openers one by one (each
    # wraps all that follows its opener, so the paragraph's tail is parsed
    # and emitted again from the clean point). Batch parsing is linear.
    ("stream: n openers then n closers", 2_000, lambda n: "*a " * n + "b* " * n, "stream", GFM),
    # Paragraphs that start with `[`: until session 25 every append to one
    # went the exact way or took the new-block pass over its whole line
    # (quadratic: 1.9 s for the first at n = 4,000, 14.7 s for 2,000 lines
    # of `[n] Source`).
    ("stream: paragraph that starts with a link (block)", 4_000, lambda n: "[link](/u) " + "word *a* " * n, "stream", GFM),
    ("stream: n lines of [n] sources", 2_000,
     lambda n: "".join(f"[{i}] Source number {i}, example\n" for i in range(n)), "stream", GFM),
    # A run of link reference definitions, one paragraph: until session 26
    # every snapshot parsed every definition so far (2,000: 2.6 s).
    ("stream: n lines of reference definitions (block)", 2_000,
     lambda n: "".join(f"[s{i}]: https://example.com/{i} \"Source {i}\"\n" for i in range(n)), "stream", GFM),
    # Session 27's shapes, each a snapshot or a parse of the whole block per
    # append before it: a paragraph that starts like a task's box, a fenced
    # code block in a quote, and paragraphs with a construct that can no
    # longer close (`a < b`, closed backslash math, `[doc][ref]`) or that
    # may still (a price, a stray backtick: held across resume points).
    ("stream: paragraph that starts with [x] (block)", 1_000, lambda n: "[x] " + "word *em* `c` " * n, "stream", GFM),
    ("stream: code block of n lines in a quote (block)", 2_000,
     lambda n: "> ```swift\n" + "> let x = compute(1) + value\n" * n, "stream", GFM),
    ("stream: comparisons a < b, c > d", 2_000, lambda n: "if a < b and c > d then " * n, "stream", GFM),
    ("stream: x<y, then sentences with numbers", 2_000, lambda n: "If x<y then " + "word 3 more *em* text. " * n, "stream", GFM),
    ("stream: escapes and backslash math", 2_000, lambda n: "a \\*b\\* c\\_d \\[e\\] " * n, "stream", GFM),
    ("stream: full references without definitions", 2_000, lambda n: "see [doc][ref] and " * n, "stream", GFM),
    ("stream: a price, then sentences", 2_000, lambda n: "It costs $5 today. " + "Then word *em* text. " * n,
     "stream", GFM),
    ("stream: prices", 2_000, lambda n: "It costs $5 and then $6 more. " * n, "stream", GFM),
    ("stream: a stray backtick, then sentences", 2_000, lambda n: "Use the ` key. " + "Then word *em* text. " * n,
     "stream", GFM),
    # CJK text with emphasis between spaces, one paragraph: quadratic until
    # session 25 (the clean point stayed at the first opener when every
    # character starts a word; a split character after `** ` dropped the
    # emission mark with the space's text node).
    ("stream: CJK words with spaced emphasis (block)", 1_000, lambda n: "ab **cd** 日本 " * n, "stream", GFM),
    ("stream: Japanese with spaced emphasis (block)", 1_000, lambda n: "これは *強調* です。" * n, "stream", GFM),
    ("stream: list of n items (block)", 4_000, lambda n: "- item *a* `b` text\n" * n, "stream", GFM),
    ("stream: table of n rows", 10_000, lambda n: "| a | b |\n|---|---|\n" + "| x *y* | `z` w |\n" * n, "stream", GFM),
    # A long table cell with inlines: a row pass parses the open cell on
    # from its resume point (session 28; before, the whole cell each pass:
    # 1,392.8 M instructions for a 10 KB cell of `*w* x`, 83.9 M after).
    ("stream: table cell of n inlines", 2_000,
     lambda n: "| a | b | c |\n|---|---|---|\n| x | " + " ".join(f"*w{i}* x" for i in range(n)) + " | y |\n", "stream", GFM),
    # A long paragraph after a footnote definition: until session 29 every
    # pass scanned the paragraph for `[^` from its start and, with a
    # reference in it, numbered the footnotes looking at every node of it
    # (38 KB: 945.8 M instructions without a reference, 337.7 M with one).
    ("stream: paragraph after a footnote definition", 2_000,
     lambda n: "[^1]: note\n\n" + "word *em* and `c` " * n + "\n", "stream", GFM),
    ("stream: paragraph citing a footnote defined before it", 2_000,
     lambda n: "[^1]: note\n\nsee[^1] " + "word *em* and `c` " * n + "\n", "stream", GFM),
    # A row's first cell: until session 29 its row was split again on
    # every pass (426.0 M instructions for a 19 KB first cell, 34.7 M after).
    ("stream: first table cell of n inlines", 2_000,
     lambda n: "| a | b | c |\n|---|---|---|\n| " + " ".join(f"*w{i}* x" for i in range(n)) + " | y |\n", "stream", GFM),
    # A delimiter row typed under a wide header: each append looks at its
    # own bytes (session 28; before, it split the header and the row again:
    # 831.6 M instructions at 2,000 cells, 3,401.6 M at 4,000).
    ("stream: delimiter row under a header of n cells", 2_000,
     lambda n: "|" + "|".join(f"h{i}" for i in range(n)) + "|\n|" + "---|" * n + "\n", "stream", GFM),
    ("stream: code block of n lines (block)", 4_000, lambda n: "```\n" + "let x = foo(bar) + 1\n" * n, "stream", GFM),
    ("stream: paragraph of n plain lines (block)", 4_000, lambda n: "plain words of text on a line without markup\n" * n, "stream", GFM),
    ("stream: paragraph of n lines with inlines (block)", 4_000, lambda n: "words *em* and `code` on a line\n" * n, "stream", GFM),
    ("stream: HTML block of n lines (block)", 4_000, lambda n: "<div>\n" + "<p>html line with text</p>\n" * n, "stream", GFM),
    ("stream: math block of n lines (block)", 10_000, lambda n: "$$\n" + "x^2 + y^2 = z^2 \\\\\n" * n, "stream", GFM),
    ("stream: quote paragraph of n lines (block)", 500, lambda n: "> quoted line *a* b\n" * n, "stream", GFM),
    # The same, holding each update until the next append returns (as a UI
    # that shows it does): the stream then writes to a spare storage and
    # copies what changed. Until session 23 a line of a long paragraph, an
    # item of a long list and a line of a long quote copied the whole block.
    ("stream held: list of n items (block)", 4_000, lambda n: "- item *a* `b` text\n" * n, "stream-hold", GFM),
    ("stream held: paragraph of n lines (block)", 4_000, lambda n: "words *em* and `code` on a line\n" * n,
     "stream-hold", GFM),
    ("stream held: quote paragraph of n lines (block)", 2_000, lambda n: "> quoted line *a* b\n" * n, "stream-hold", GFM),
    ("stream held: code block of n lines (block)", 4_000, lambda n: "```\n" + "let x = foo(bar) + 1\n" * n, "stream-hold", GFM),
    ("stream held: indented code of n lines (block)", 4_000, lambda n: "\tlet x = foo(bar) + 1\n" * n, "stream-hold", GFM),
    ("stream held: math block of n lines (block)", 4_000, lambda n: "$$\n" + "x^2 + y^2 = z^2 \\\\\n" * n, "stream-hold", GFM),
    # An item's indentation and `  -` shown as a setext underline claimed
    # the whole trailing list until session 25 (×3.9 on doubling).
    ("stream held: nested list of n items (block)", 2_000, lambda n: "- item\n  - sub *a*\n" * n, "stream-hold", GFM),
    ("stream held: chat-like sections", 2_000, lambda n: ("## Step\n\nSome *text* with `code`.\n\n- a **b**\n- c\n\n"
     "| x | y |\n|---|---|\n| 1 | 2 |\n\n") * n, "stream-hold", GFM),
    ("stream: chat-like sections", 2_000, lambda n: ("## Step\n\nSome *text* with `code`.\n\n- a **b**\n- c\n\n"
                                                     "| k | v |\n|---|---|\n| 1 | 2 |\n\n```py\nx = 1\n```\n\n") * n,
     "stream", GFM),
]


def timed_run(cmd, path, timeout):
    """Wall seconds and exit status of one run, output discarded."""
    with open(path, "rb") as stdin:
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd + [path], stdin=stdin, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, "TIMEOUT"
        elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        if proc.returncode < 0:
            return elapsed, f"CRASH (signal {-proc.returncode})"
        return elapsed, f"EXIT {proc.returncode}"
    return elapsed, None


def best_of(cmd, path, runs, timeout):
    best, status = None, None
    for i in range(runs):
        t, status = timed_run(cmd, path, timeout)
        if status:
            return t, status
        best = t if best is None else min(best, t)
        if t > 2.0:  # slow enough: one run tells
            break
    return best, None


def fmt_time(t):
    if t is None:
        return "—"
    return f"{t * 1000:.0f} ms" if t < 10 else f"{t:.1f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every n (default 1)")
    ap.add_argument("--only", help="comma-separated substrings of case names")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--runs", type=int, default=3, help="best of N runs per measurement")
    ap.add_argument("--bench", help="tidemark-bench binary (default: build with build-bench.sh)")
    ap.add_argument("--no-cmark", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the generated inputs")
    args = ap.parse_args()

    if args.list:
        for name, n, *_ in CASES:
            print(f"{name} (n = {n})")
        return
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    work = os.path.join(root, ".build-bench", "pathological")
    os.makedirs(work, exist_ok=True)
    bench = args.bench or os.environ.get("TIDEMARK_BENCH_BIN")
    if not bench:
        bench = subprocess.run([os.path.join(here, "build-bench.sh")], check=True,
                               stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
    cmark = None if args.no_cmark else shutil.which("cmark-gfm")

    tools = [("Tidemark", lambda opts, ext: [bench, "stream", "--chunk", "4", "--once"] if opts == "stream" else
              [bench, "stream", "--chunk", "4", "--once", "--hold"] if opts == "stream-hold" else
              [bench, "html", "--options", opts, "--iterations", "1", "--warmup", "0", "--emit", "--quiet"])]
    if cmark:
        tools.append(("cmark-gfm", lambda opts, ext: [cmark] + [a for e in ext for a in ("-e", e)]))

    # Start-up time of each tool on an empty file, subtracted from every run.
    empty = os.path.join(work, "empty.md")
    open(empty, "w").close()
    baseline = {}
    for tool, make in tools:
        ts = [timed_run(make("default" if tool == "Tidemark" else "gfm", GFM), empty, 10)[0] for _ in range(5)]
        baseline[tool] = min(t for t in ts if t is not None)

    print(f"# pathological inputs (scale {args.scale}); times are best of {args.runs} runs minus start-up "
          f"({', '.join(f'{k} {v * 1000:.1f} ms' for k, v in baseline.items())})")
    print(f"tidemark-bench: {bench}")
    print()
    header = f"{'case':42} {'n':>8} {'size n':>9} {'size×':>5}"
    for tool, _ in tools:
        header += f" | {tool + ' t(n)':>14} {'t(2n)':>9} {'×':>5} {'':9}"
    print(header)
    print("-" * len(header))
    flagged = []
    selected = [c for c in CASES if not args.only or any(o.lower() in c[0].lower() for o in args.only.split(","))]
    for name, n0, gen, opts, ext in selected:
        n = max(1, int(n0 * args.scale))
        paths = []
        for k, size_n in enumerate([n, 2 * n]):
            path = os.path.join(work, f"{''.join(c if c.isalnum() else '-' for c in name)}-{k + 1}n.md")
            with open(path, "w", encoding="utf-8") as f:
                f.write(gen(size_n))
            paths.append(path)
        s1, s2 = os.path.getsize(paths[0]), os.path.getsize(paths[1])
        size_ratio = s2 / s1
        line = f"{name[:42]:42} {n:>8} {s1 / 1e6:>7.2f}MB {size_ratio:>5.2f}"
        for tool, make in tools:
            if opts.startswith("stream") and tool != "Tidemark":
                line += f" | {'(no streaming)':>14} {'':>9} {'':>5} {'':9}"
                continue
            cmd = make(opts, ext)
            t1, st1 = best_of(cmd, paths[0], args.runs, args.timeout)
            t2, st2 = (None, "skipped") if st1 else best_of(cmd, paths[1], args.runs, args.timeout)
            a = None if t1 is None else max(t1 - baseline[tool], 0.0005)
            b = None if t2 is None else max(t2 - baseline[tool], 0.0005)
            ratio = (b / a) if (a and b) else None
            if ratio and ratio > 1.5 * size_ratio and b >= 0.05 and not (st1 or st2):
                # Looks super-linear: measure both sizes again (a busy machine
                # inflates single runs) and keep the best times.
                r1, _ = best_of(cmd, paths[0], args.runs + 1, args.timeout)
                r2, _ = best_of(cmd, paths[1], args.runs + 1, args.timeout)
                if r1 is not None and r2 is not None:
                    a = min(a, max(r1 - baseline[tool], 0.0005))
                    b = min(b, max(r2 - baseline[tool], 0.0005))
                    ratio = b / a
            marks = []
            if st1 or st2:
                marks.append(st1 or st2)
            else:
                if b > 1.0:
                    marks.append("SLOW")
                if ratio > 1.5 * size_ratio and b >= 0.05:
                    marks.append("NONLINEAR")
            mark = ",".join(marks)
            if marks:
                flagged.append(f"{tool}: {name} — {mark} (t(n) {fmt_time(a)}, t(2n) {fmt_time(b)}, "
                               f"× {ratio:.2f})" if ratio else f"{tool}: {name} — {mark}")
            rtxt = f"{ratio:.2f}" if ratio else "—"
            line += f" | {fmt_time(a):>14} {fmt_time(b):>9} {rtxt:>5} {mark:9}"
        print(line, flush=True)
        if not args.keep:
            for p in paths:
                os.remove(p)
    print()
    if flagged:
        print("flagged:")
        for f in flagged:
            print("  " + f)
    else:
        print("no case flagged: every time ratio follows the size ratio and every t(2n) is under 1 s")


if __name__ == "__main__":
    main()
