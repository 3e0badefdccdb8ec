#!/usr/bin/env bash
# Instruction counts of the streaming benchmark (valgrind --tool=callgrind):
# FILE streamed in 4-byte chunks, taking the update after every append,
# against one batch parse of it. Each count is the run's total less the
# total of an empty file's run (start-up, reading the file).
#
#   Benchmarks/stream-callgrind.sh [FILE...] [--hold] [--chunk N]
#
# FILE defaults to ../shared/corpus/chat-1mb.md. `--hold` keeps each update
# until the next append returns (as a UI that shows it does). Prints, per
# file: the streaming count, the batch parse's, their ratio, and the
# streaming count less one batch parse. Uses build-bench.sh (and its
# TIDEMARK_BENCH_BIN).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/Benchmarks"
FILES=()
EXTRA=()
CHUNK=4
while (($#)); do
    case "$1" in
        --hold) EXTRA+=(--hold); shift ;;
        --chunk) CHUNK="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) FILES+=("$1"); shift ;;
    esac
done
((${#FILES[@]})) || FILES=("$ROOT/../shared/corpus/chat-1mb.md")
command -v valgrind >/dev/null || { echo "stream-callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

BIN="$("$HERE/build-bench.sh")"
EMPTY="$(mktemp)"
trap 'rm -f "$EMPTY"' EXIT

ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

empty=$(ir "$BIN" stream "$EMPTY" --chunk "$CHUNK" --batch-once)
for f in "${FILES[@]}"; do
    [[ -r "$f" ]] || { echo "stream-callgrind.sh: cannot read $f" >&2; exit 1; }
    once=$(ir "$BIN" stream "$f" --chunk "$CHUNK" --once "${EXTRA[@]}")
    batch=$(ir "$BIN" stream "$f" --chunk "$CHUNK" --batch-once)
    python3 - "$f" "$once" "$batch" "$empty" "${EXTRA[*]:-}" <<'EOF'
import sys
name, once, batch, empty, extra = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
s, b = once - empty, batch - empty
print(f"{name}{' ' + extra if extra else ''}: streaming {s / 1e6:.1f} M, one batch parse {b / 1e6:.1f} M, "
      f"ratio {s / b:.2f} (streaming less one batch parse: {(s - b) / 1e6:.1f} M)")
EOF
done
