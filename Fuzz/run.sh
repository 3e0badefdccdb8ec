#!/usr/bin/env bash
# Builds and runs one libFuzzer target of Tidemark.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]   fuzz for SECONDS
#   Fuzz/run.sh TARGET repro FILE...                  run the given inputs once
#   Fuzz/run.sh TARGET build                          only build Fuzz/bin/TARGET
#   Fuzz/run.sh list                                  list the targets
#
# Targets: parse, ast, math (see Fuzz/README.md). Planned, not written yet:
# stream, render, highlight.
#
# The library (Sources/Tidemark) is compiled once per source hash into
# Fuzz/bin/lib/HASH/ with -sanitize=fuzzer,address; each target is the target
# file plus Fuzz/Support/*.swift linked against it. Everything under
# Fuzz/bin/, Fuzz/corpus/ and Fuzz/artifacts/ is git-ignored. The corpus
# Fuzz/corpus/TARGET is seeded from Fuzz/make-seeds.py (every example of
# Fixtures/*.json plus hand-written hostile inputs) when it is empty.
#
# Environment: FUZZ_MAX_LEN (default 16384) caps the input size; SWIFTC
# overrides the compiler; FUZZ_STALE_OK=1 uses the last library build that
# compiled when the current sources do not.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
swiftc="${SWIFTC:-swiftc}"

implemented=(parse ast math)
# ---------------------------------------------------------------------------
# Room for the targets that come later. Each needs Fuzz/Targets/NAME.swift
# (an LLVMFuzzerTestOneInput entry using Fuzz/Support) and an entry in
# `implemented` above; a target that needs another module (TidemarkRender,
# TidemarkHighlight) also needs its sources added in build_target below.
#   stream    — streaming equivalence: split the input into chunks chosen by
#               the leading bytes, append them one by one, and require after
#               every append that the streamed document == Document(parsing:
#               text so far) (contract 2), and that the final one equals the
#               batch parse.
#   render    — run tree and terminal writer (TidemarkRender): widths, wide
#               CJK and emoji, OSC 8 links, NO_COLOR, no crash on any tree.
#   highlight — code blocks through TidemarkHighlight (tree-sitter), every
#               language name and alias, token spans inside the code.
planned=(stream render highlight)
# ---------------------------------------------------------------------------

usage() {
    sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[[ $# -ge 1 ]] || usage
target="$1"; shift
if [[ "$target" == list ]]; then
    echo "implemented: ${implemented[*]}"
    echo "planned:     ${planned[*]}"
    exit 0
fi
if [[ " ${planned[*]} " == *" $target "* ]]; then
    echo "run.sh: target '$target' is planned but not written yet (see Fuzz/run.sh)" >&2
    exit 2
fi
if [[ " ${implemented[*]} " != *" $target "* ]]; then
    echo "run.sh: unknown target '$target' (implemented: ${implemented[*]})" >&2
    exit 2
fi
[[ $# -ge 1 ]] || usage
mode="$1"; shift

flags=(-swift-version 6 -parse-as-library -O -g -sanitize=fuzzer,address -use-ld=lld)
bin="$here/bin"
mkdir -p "$bin"

build_target() {
    local lib_sources
    mapfile -t lib_sources < <(cd "$root" && find Sources/Tidemark -name '*.swift' | LC_ALL=C sort)
    local version
    version="$("$swiftc" --version 2>&1 | head -1)"
    local lib_hash
    lib_hash="$( (cd "$root" && echo "$version ${flags[*]}" | cat - "${lib_sources[@]}") | sha256sum | cut -c1-16)"
    local lib="$bin/lib/$lib_hash"

    # One build at a time (two run.sh may start together).
    exec 9>"$bin/.lock"
    flock 9

    if [[ ! -f "$lib/Tidemark.o" ]]; then
        echo "run.sh: compiling Sources/Tidemark for fuzzing ($lib_hash)…" >&2
        rm -rf "$lib.tmp"
        mkdir -p "$lib.tmp"
        if (cd "$root" && nice -n 19 "$swiftc" "${flags[@]}" -wmo -module-name Tidemark \
                -emit-module -emit-module-path "$lib.tmp/Tidemark.swiftmodule" \
                -emit-object -o "$lib.tmp/Tidemark.o" "${lib_sources[@]}"); then
            mv "$lib.tmp" "$lib"
            touch "$lib"
            # Keep only the newest two library builds.
            ls -1dt "$bin/lib"/*/ 2>/dev/null | tail -n +3 | xargs -r rm -rf
        else
            rm -rf "$lib.tmp"
            # The sources are edited by several people at once; with
            # FUZZ_STALE_OK=1 fall back to the last library that compiled.
            local stale
            stale="$(ls -1dt "$bin/lib"/*/ 2>/dev/null | head -1)"
            if [[ "${FUZZ_STALE_OK:-0}" == 1 && -n "$stale" && -f "$stale/Tidemark.o" ]]; then
                lib="${stale%/}"
                lib_hash="$(basename "$lib")"
                echo "run.sh: Sources/Tidemark does not compile; using the stale build $lib_hash" >&2
            else
                echo "run.sh: Sources/Tidemark does not compile (FUZZ_STALE_OK=1 uses the last good build)" >&2
                exit 1
            fi
        fi
    fi

    local target_sources=("$here/Targets/$target.swift" "$here"/Support/*.swift)
    local key
    key="$( (echo "$lib_hash"; cat "${target_sources[@]}") | sha256sum | cut -c1-16)"
    if [[ ! -x "$bin/$target" || "$(cat "$bin/$target.key" 2>/dev/null)" != "$key" ]]; then
        echo "run.sh: linking Fuzz/bin/$target…" >&2
        nice -n 19 "$swiftc" "${flags[@]}" -warnings-as-errors -module-name "Fuzz_$target" \
            -I "$lib" "${target_sources[@]}" "$lib/Tidemark.o" -o "$bin/$target.tmp"
        mv "$bin/$target.tmp" "$bin/$target"
        echo "$key" > "$bin/$target.key"
    fi
    exec 9>&-
}

build_target

# Let libFuzzer and ASan report crashes; the Swift backtracer would
# otherwise take over the signal and can hang under the fuzzer.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

artifacts="$here/artifacts/$target"
mkdir -p "$artifacts"
common=(-timeout=1 -rss_limit_mb=2048 -detect_leaks=1 "-artifact_prefix=$artifacts/")

case "$mode" in
    build)
        echo "$bin/$target"
        ;;
    repro)
        [[ $# -ge 1 ]] || usage
        exec nice -n 19 "$bin/$target" "${common[@]}" "$@"
        ;;
    *)
        [[ "$mode" =~ ^[0-9]+$ ]] || usage
        corpus="$here/corpus/$target"
        mkdir -p "$corpus"
        if [[ -z "$(ls -A "$corpus")" ]]; then
            python3 "$here/make-seeds.py" --target "$target" "$corpus"
        fi
        exec nice -n 19 "$bin/$target" "$corpus" "${common[@]}" \
            -max_total_time="$mode" -max_len="${FUZZ_MAX_LEN:-16384}" \
            -dict="$here/markdown.dict" -print_final_stats=1 "$@"
        ;;
esac
