#!/usr/bin/env bash
# Instruction counts of streaming for every document the README's Status
# table gives (valgrind --tool=callgrind, through stream-callgrind.sh): the
# corpus documents when ../shared/corpus is there (chat-1mb.md,
# mixed-1mb.md, commonmark-spec.md), and generated ones — CJK text whose
# characters 4-byte chunks split (gen-cjk.py), one 150 KB hard-wrapped
# paragraph (gen-prose.py), comparison tables with long cells of inlines
# (gen-tables.py), short chat turns, each a paragraph that opens with a
# bold label (gen-turns.py), a list of 2,000 items and a quote of 2,000
# lines. Each streamed in 4-byte chunks, then again holding each update.
# A change to a streaming path should move none of these the wrong way:
# session 22 measured chat-1mb alone and missed CJK's 47% rise.
#
#   Benchmarks/stream-set.sh        (make bench-stream-set)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/Benchmarks"
OUT="$ROOT/.build-bench/stream-set"
mkdir -p "$OUT"
FILES=()
for f in chat-1mb.md mixed-1mb.md commonmark-spec.md; do
    [[ -f "$ROOT/../shared/corpus/$f" ]] && FILES+=("$ROOT/../shared/corpus/$f")
done
python3 "$HERE/gen-cjk.py" > "$OUT/cjk.md"
python3 "$HERE/gen-prose.py" > "$OUT/prose.md"
python3 "$HERE/gen-tables.py" > "$OUT/tables.md"
python3 "$HERE/gen-turns.py" > "$OUT/turns.md"
python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
with open(f"{out}/list-2000.md", "w") as f:
    f.writelines(f"- item {k} with *some* words and `code` in it\n" for k in range(2000))
with open(f"{out}/quote-2000.md", "w") as f:
    f.writelines(f"> quote line {k} with *some* words and `code`\n" for k in range(2000))
PY
FILES+=("$OUT/cjk.md" "$OUT/prose.md" "$OUT/tables.md" "$OUT/turns.md" "$OUT/list-2000.md" "$OUT/quote-2000.md")
"$HERE/stream-callgrind.sh" "${FILES[@]}"
"$HERE/stream-callgrind.sh" "${FILES[@]}" --hold
