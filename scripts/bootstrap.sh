#!/usr/bin/env bash
# Installs what building and testing Tidemark needs on Debian, when missing:
#   libtree-sitter-dev  the package does not compile without it (CTreeSitter)
#   pkg-config          how SwiftPM finds tree-sitter's flags
#   tmux                terminal-rendering tests run the CLI inside a real terminal
#   cmark-gfm           the reference implementation the tests and benchmarks compare with
#   valgrind            instruction counts for benchmarks (stable on a noisy machine)
# then the tree-sitter grammars, through scripts/install-grammars.sh when it exists
# (the highlighter's tests need them).
#
# Idempotent: when everything is there it installs nothing and runs no
# `apt-get update`, so a warm machine spends no time and needs no network here.
# Needs root to install; otherwise it says what is missing and fails.
set -euo pipefail

say() { printf 'bootstrap: %s\n' "$*"; }
die() { printf 'bootstrap: error: %s\n' "$*" >&2; exit 1; }

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

missing=()
if ! { pkg-config --exists tree-sitter 2>/dev/null || [[ -f /usr/include/tree_sitter/api.h ]]; }; then
    missing+=(libtree-sitter-dev)
fi
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v cmark-gfm >/dev/null 2>&1 || missing+=(cmark-gfm)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)

if ((${#missing[@]} == 0)); then
    say "system packages present"
elif [[ $(id -u) -ne 0 ]]; then
    die "missing: ${missing[*]}; install them as root: apt-get install ${missing[*]}"
elif ! command -v apt-get >/dev/null 2>&1; then
    die "missing: ${missing[*]}, and there is no apt-get to install them with"
else
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    say "apt-get update"
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [[ -f "$ROOT/scripts/install-grammars.sh" ]]; then
    say "tree-sitter grammars: scripts/install-grammars.sh"
    bash "$ROOT/scripts/install-grammars.sh"
fi
say "done"
