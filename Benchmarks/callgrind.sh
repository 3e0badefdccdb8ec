#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind): stable numbers to track on a
# noisy machine. One iteration each of Tidemark parse-only and parse+HTML, and
# cmark-gfm, on the same file with the same extensions; prints total Ir, the
# Ir inside the measured work (start-up and file reading excluded), the
# Tidemark ÷ cmark-gfm ratio (< 1: Tidemark executes fewer instructions) and
# Tidemark's top functions.
#
#   Benchmarks/callgrind.sh [FILE] [--options gfm|commonmark] [--top N]
#
# FILE defaults to ../shared/corpus/mixed-1mb.md (else the generated 1 MB
# corpus). Output files go to .build-bench/callgrind/ (git-ignored).
# Environment: TIDEMARK_BENCH_BIN, TIDEMARK_BENCH_SNAPSHOT (see build-bench.sh);
# CALLGRIND_REUSE=1 re-annotates the existing profiles without running valgrind.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/Benchmarks"
OUT="${CALLGRIND_OUT:-$ROOT/.build-bench/callgrind}"
OPTIONS=gfm
TOP=15
FILE=""
while (($#)); do
    case "$1" in
        --options) OPTIONS="$2"; shift 2 ;;
        --top) TOP="$2"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) FILE="$1"; shift ;;
    esac
done
mkdir -p "$OUT"

if ! command -v valgrind >/dev/null || ! command -v cmark-gfm >/dev/null; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind cmark-gfm >&2
    fi
fi
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is required" >&2; exit 1; }

if [[ -z "$FILE" ]]; then
    FILE="$ROOT/../shared/corpus/mixed-1mb.md"
    if [[ ! -f "$FILE" ]]; then
        python3 "$HERE/gen-corpus.py" "$ROOT/.build-bench/bench/corpus" >/dev/null
        FILE="$ROOT/.build-bench/bench/corpus/generated-1mb.md"
    fi
fi
FILE="$(cd "$(dirname "$FILE")" && pwd)/$(basename "$FILE")"

BENCH="$(nice -n 10 "$HERE/build-bench.sh")"
DEMANGLE=(cat)
if command -v swift-demangle >/dev/null; then DEMANGLE=(swift-demangle --simplified)
elif command -v swift >/dev/null; then DEMANGLE=(swift demangle --simplified); fi

case "$OPTIONS" in
    gfm) CMARK_EXT=(-e table -e strikethrough -e tasklist -e autolink -e tagfilter) ;;
    commonmark) CMARK_EXT=() ;;
    *) echo "callgrind.sh: --options gfm or commonmark" >&2; exit 2 ;;
esac

run_callgrind() { # NAME COMMAND...
    local name="$1"; shift
    if [[ -n "${CALLGRIND_REUSE:-}" && -s "$OUT/callgrind.out.$name" ]]; then return; fi
    nice -n 10 valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out.$name" "$@" \
        >/dev/null 2>"$OUT/valgrind-$name.log" || { cat "$OUT/valgrind-$name.log" >&2; exit 1; }
}

# Total Ir of a profile (the `totals:`/`summary:` line of the output file).
total_ir() { awk '/^(totals|summary):/ { print $2; exit }' "$OUT/callgrind.out.$1"; }

# Inclusive Ir of the functions whose (mangled) names match an extended
# regex: summed over distinct functions (sum), or the largest entry (max, for
# one function that callgrind lists once per source file of inlined code).
inclusive_ir() { # NAME REGEX sum|max
    callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$OUT/callgrind.out.$1" 2>/dev/null \
        | awk -v re="$2" -v agg="$3" '$3 ~ re { gsub(",", "", $1); v = $1 + 0;
              sum += v; if (v > max) max = v }
              END { print (agg == "max" ? max : sum) + 0 }'
}

echo "callgrind: $(basename "$FILE") ($(wc -c <"$FILE") bytes), options $OPTIONS" >&2
echo "  tidemark parse ..." >&2
run_callgrind tidemark-parse "$BENCH" parse "$FILE" --options "$OPTIONS" --iterations 1 --warmup 0 --quiet
echo "  tidemark html ..." >&2
run_callgrind tidemark-html "$BENCH" html "$FILE" --options "$OPTIONS" --iterations 1 --warmup 0 --emit --quiet
echo "  cmark-gfm ..." >&2
run_callgrind cmark-gfm cmark-gfm "${CMARK_EXT[@]}" "$FILE"

tp=$(total_ir tidemark-parse); th=$(total_ir tidemark-html); tc=$(total_ir cmark-gfm)
# Work only: Tidemark's runOnce (parse, or parse + render) and cmark-gfm's
# parser calls plus the HTML renderer.
wp=$(inclusive_ir tidemark-parse 'runOnce' max)
wh=$(inclusive_ir tidemark-html 'runOnce' max)
cp=$(inclusive_ir cmark-gfm ':cmark_parser_(feed|finish)$' sum)
cr=$(inclusive_ir cmark-gfm ':cmark_render_html(_with_mem)?$' max)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "—" }'; }
per_byte() { awk -v a="$1" -v n="$(wc -c <"$FILE")" 'BEGIN { printf "%.1f", a / n }'; }

echo
echo "## callgrind instruction counts: $(basename "$FILE"), $(wc -c <"$FILE") bytes, options $OPTIONS"
echo
printf '%-34s %16s %9s %16s %9s\n' "" "total Ir" "Ir/byte" "work Ir" "Ir/byte"
printf '%-34s %16s %9s %16s %9s\n' "Tidemark parse" "$tp" "$(per_byte "$tp")" "$wp" "$(per_byte "$wp")"
printf '%-34s %16s %9s %16s %9s\n' "Tidemark parse+HTML" "$th" "$(per_byte "$th")" "$wh" "$(per_byte "$wh")"
printf '%-34s %16s %9s %16s %9s\n' "cmark-gfm parse (feed+finish)" "" "" "$cp" "$(per_byte "$cp")"
printf '%-34s %16s %9s %16s %9s\n' "cmark-gfm render_html" "" "" "$cr" "$(per_byte "$cr")"
printf '%-34s %16s %9s %16s %9s\n' "cmark-gfm whole process" "$tc" "$(per_byte "$tc")" "$((cp + cr))" "$(per_byte $((cp + cr)))"
echo
echo "Tidemark ÷ cmark-gfm (Ir; < 1 means fewer instructions than cmark-gfm):"
echo "  whole process, parse+HTML:  $(ratio "$th" "$tc")"
echo "  work only,     parse+HTML:  $(ratio "$wh" $((cp + cr)))"
echo "  work only,     parse:       $(ratio "$wp" "$cp")"
echo "  work only,     HTML render: $(ratio $((wh - wp)) "$cr")"

# Top functions of a profile (exclusive, or inclusive with --inclusive=yes).
top_functions() { # NAME FILTER-REGEX [callgrind_annotate options...]
    local name="$1" filter="$2"; shift 2
    # `head` closes the pipe early: no pipefail here.
    (set +o pipefail
     callgrind_annotate --auto=no --threshold=100 "$@" "$OUT/callgrind.out.$name" 2>/dev/null \
        | awk '/file:function/ { go = 1; getline; next } go && NF' | grep -E -- "$filter" | head -n "$TOP" \
        | sed -E -e 's/ \[[^]]*\]$//' -e 's#  [^ ]*/(Sources|Benchmarks)/#  #' \
        | "${DEMANGLE[@]}" | cut -c1-200)
}

for name in tidemark-parse tidemark-html; do
    echo
    echo "## top $TOP functions, $name (exclusive Ir)"
    top_functions "$name" .
done
echo
echo "## top $TOP Tidemark functions below runOnce, tidemark-html (inclusive Ir)"
top_functions tidemark-html '/Sources/Tidemark/.*:' --inclusive=yes
echo
echo "profiles: $OUT/callgrind.out.{tidemark-parse,tidemark-html,cmark-gfm} (callgrind_annotate / kcachegrind)"
