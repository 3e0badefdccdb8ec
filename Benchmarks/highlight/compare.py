"""Compares TidemarkHighlight with Pygments on the same inputs.

Writes 50- and 500-line inputs built from samples/, times the Swift
benchmark binary on them (including incremental streaming updates), times Pygments' lexer (tokens only, no
formatting, the same work as our spans) in-process for warm runs and in a
fresh interpreter for first use, and prints a table of ratios.

Usage: python compare.py <HighlightBench binary> [--runs N]
"""
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LANGUAGES = {"swift": "sample.swift", "python": "sample.py"}
SIZES = {"50": 1, "500": 10}


def build_inputs(directory: Path) -> None:
    for language, sample in LANGUAGES.items():
        base = (HERE / "samples" / sample).read_text()
        for label, copies in SIZES.items():
            # Renamed copies, so no two top-level declarations are identical.
            text = "".join(base.replace("Inventory", f"Inventory{i}").replace("ExpiringCache", f"ExpiringCache{i}")
                           for i in range(copies))
            (directory / f"{language}-{label:>03}.txt").write_text(text)


def pygments_first_use(language: str, path: Path) -> float:
    """First use in a fresh interpreter: import, lexer lookup, one lex."""
    code = (
        "import time, sys\n"
        "t = time.perf_counter()\n"
        "from pygments.lexers import get_lexer_by_name\n"
        f"lexer = get_lexer_by_name({language!r})\n"
        f"text = open({str(path)!r}).read()\n"
        "list(lexer.get_tokens(text))\n"
        "print((time.perf_counter() - t) * 1000)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def pygments_warm(language: str, path: Path, runs: int) -> float:
    from pygments.lexers import get_lexer_by_name

    lexer = get_lexer_by_name(language)
    text = path.read_text()
    list(lexer.get_tokens(text))
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        list(lexer.get_tokens(text))
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    binary = sys.argv[1]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 50
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        build_inputs(directory)
        ours = {}
        for language in LANGUAGES:
            # One process per language, so "first" is that language's cold start.
            out = subprocess.run([binary, str(directory), language, "--runs", str(runs)],
                                 check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                record = json.loads(line)
                ours[(record["language"], record["input"].lstrip("0"), record["kind"])] = record

        print(f"{'input':<22} {'tidemark ms':>12} {'pygments ms':>12} {'pygments/ours':>14}")
        for language in LANGUAGES:
            first_path = directory / f"{language}-050.txt"
            theirs = pygments_first_use(language, first_path)
            mine = ours[(language, "50", "first")]["ms"]
            print(f"{language + ' first use (50)':<22} {mine:>12.2f} {theirs:>12.2f} {theirs / mine:>14.2f}")
            for label in SIZES:
                path = directory / f"{language}-{label:>03}.txt"
                lines = path.read_text().count("\n")
                theirs = pygments_warm(language, path, runs)
                mine = ours[(language, label, "warm")]["ms"]
                name = f"{language} warm {lines} lines"
                print(f"{name:<22} {mine:>12.2f} {theirs:>12.2f} {theirs / mine:>14.2f}")
        print()
        print("Streaming: one HighlightSession update per 5 appended bytes of the 500-line input")
        for language in LANGUAGES:
            record = ours[(language, "500", "stream")]
            full = ours[(language, "500", "warm")]["ms"]
            print(f"  {language:<8} median {record['ms']:.2f} ms, p90 {record['p90_ms']:.2f} ms over "
                  f"{record['updates']} updates (a full highlight: {full:.2f} ms)")


if __name__ == "__main__":
    main()
