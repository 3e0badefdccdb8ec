#!/usr/bin/env bash
# Benchmarks TidemarkHighlight against Pygments on the same Swift and Python
# inputs (50 and 500 lines, plus first use per language) and prints ratios.
# Needs the grammars: runs scripts/install-grammars.sh first (fast when done).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
VENV="${TIDEMARK_BENCH_VENV:-$HOME/.cache/tidemark/bench-venv}"
PYGMENTS_VERSION="2.19.1"

bash "$ROOT/scripts/install-grammars.sh"

if ! "$VENV/bin/python" -c "import pygments, sys; sys.exit(pygments.__version__ != '$PYGMENTS_VERSION')" 2>/dev/null; then
    echo "bench: installing pygments==$PYGMENTS_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check "pygments==$PYGMENTS_VERSION"
fi

echo "bench: building the benchmark (release)"
swift build -c release --package-path "$HERE" --product HighlightBench 2>&1 | tail -n 1
BIN="$(swift build -c release --package-path "$HERE" --show-bin-path)/HighlightBench"

"$VENV/bin/python" "$HERE/compare.py" "$BIN" "$@"
