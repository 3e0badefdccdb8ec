#!/usr/bin/env bash
# Tidemark peer benchmark (`make bench`): builds tidemark-bench (release) and
# the md4c driver, then compares Tidemark with cmark-gfm, md4c and
# pulldown-cmark on ../shared/corpus (or a generated corpus when it is
# absent), in one run: throughput, Tidemark ÷ peer ratios, peak memory.
#
#   Benchmarks/run.sh [--quick] [--dialects gfm,commonmark] [--runs N]
#                     [--cli-mb MB] [--target-mb MB] [--only NAME,...]
#
# Environment: TIDEMARK_BENCH_BIN, TIDEMARK_BENCH_SNAPSHOT (see
# build-bench.sh), BENCH_CORPUS=DIR (default: ../shared/corpus from the repo
# root), BENCH_OUT=DIR (default: .build-bench/bench). Results are also written
# to $BENCH_OUT/report.txt and summary.json.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/Benchmarks"
OUT="${BENCH_OUT:-$ROOT/.build-bench/bench}"
CORPUS="${BENCH_CORPUS:-$ROOT/../shared/corpus}"
mkdir -p "$OUT"

# --- tools ------------------------------------------------------------------
# Installs what is missing when we are root on a Debian-like system; otherwise
# the comparison skips the missing peer.
need_pkgs=()
command -v hyperfine >/dev/null || need_pkgs+=(hyperfine)
command -v cmark-gfm >/dev/null || need_pkgs+=(cmark-gfm)
command -v pulldown-cmark >/dev/null || need_pkgs+=(pulldown-cmark)
[[ -x /usr/bin/time ]] || need_pkgs+=(time)
command -v cc >/dev/null || need_pkgs+=(gcc libc6-dev)
command -v python3 >/dev/null || need_pkgs+=(python3)
[[ -f /usr/include/md4c-html.h ]] || need_pkgs+=(libmd4c-dev libmd4c-html0)
if ((${#need_pkgs[@]})); then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        echo "installing: ${need_pkgs[*]}" >&2
        apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >&2 || true
    else
        echo "warning: missing ${need_pkgs[*]} (not root: not installing); those peers are skipped" >&2
    fi
fi
command -v python3 >/dev/null || { echo "run.sh: python3 is required" >&2; exit 1; }

# --- build ------------------------------------------------------------------
echo "building tidemark-bench (release) ..." >&2
BENCH="$(nice -n 10 "$HERE/build-bench.sh")"

MD4C="$ROOT/.build-bench/md4c-driver"
if [[ -f /usr/include/md4c-html.h ]] && command -v cc >/dev/null; then
    # Debian ships libmd4c-html.so.0 without the unversioned link-time name,
    # so fall back to naming the shared object.
    if ! cc -O2 -o "$MD4C" "$HERE/md4c-driver.c" -lmd4c-html -lmd4c 2>/dev/null; then
        cc -O2 -o "$MD4C" "$HERE/md4c-driver.c" -l:libmd4c-html.so.0 -lmd4c
    fi
else
    MD4C=""
fi

# --- measure ----------------------------------------------------------------
corpus_args=()
[[ -d "$CORPUS" ]] && corpus_args=(--corpus "$CORPUS")
nice -n 10 python3 "$HERE/compare.py" --bench "$BENCH" ${MD4C:+--md4c "$MD4C"} --out "$OUT" \
    "${corpus_args[@]}" "$@" | tee "$OUT/report.txt"
echo "report: $OUT/report.txt" >&2
