#!/usr/bin/env bash
# Builds and runs one libFuzzer target of Tidemark.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]   fuzz for SECONDS
#   Fuzz/run.sh TARGET repro FILE...                  run the given inputs once
#   Fuzz/run.sh TARGET build                          only build Fuzz/bin/TARGET
#   Fuzz/run.sh list                                  list the targets
#
# Targets: parse, ast, math, stream, render, highlight (see Fuzz/README.md).
#
# Each module a target needs (Sources/Tidemark, and Sources/TidemarkRender or
# Sources/TidemarkHighlight) is compiled once per source hash into
# Fuzz/bin/lib/MODULE/HASH/ with -sanitize=fuzzer,address; each target is the
# target file plus Fuzz/Support/*.swift linked against them. Everything
# under Fuzz/bin/, Fuzz/corpus/ and Fuzz/artifacts/ is git-ignored. The
# corpus Fuzz/corpus/TARGET is seeded from Fuzz/make-seeds.py (every example
# of Fixtures/*.json plus hand-written hostile inputs) when it is empty.
#
# Environment: FUZZ_MAX_LEN caps the input size (default 16384; 4096 for
# stream, whose every append is checked against a batch parse);
# FUZZ_TIMEOUT is libFuzzer's per-input limit in seconds (default 1);
# FUZZ_SEED fixes libFuzzer's random seed (make fuzz-smoke sets 1, so CI
# mutates the same way on every run; unset, each run picks its own);
# SWIFTC overrides the compiler; FUZZ_STALE_OK=1 uses the last build of a
# module that compiled when its current sources do not; FUZZ_IGNORE relaxes
# the checks of known bugs (Fuzz/README.md).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
swiftc="${SWIFTC:-swiftc}"

implemented=(parse ast math stream render highlight)
planned=()

# The modules each target links, in dependency order.
modules_of() {
    case "$1" in
        render) echo Tidemark TidemarkRender ;;
        highlight) echo Tidemark TidemarkHighlight ;;
        *) echo Tidemark ;;
    esac
}

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
if [[ ${#planned[@]} -gt 0 && " ${planned[*]} " == *" $target "* ]]; then
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

# TidemarkHighlight imports the system module CTreeSitter (its module map
# is in Sources/CTreeSitter) and links libtree-sitter (Debian's
# libtree-sitter-dev); grammars are dlopen()ed at run time from
# ${TIDEMARK_GRAMMARS_DIR:-~/.cache/tidemark/grammars}.
ts_flags=(-I "$root/Sources/CTreeSitter")
for f in $(pkg-config --cflags tree-sitter 2>/dev/null); do ts_flags+=(-Xcc "$f"); done

# Compiles Sources/$1 into Fuzz/bin/lib/$1/HASH/ (module + one object);
# the hash covers the compiler, the flags, the sources and the builds of
# the modules compiled before it. Sets module_dir and module_hash.
module_dir=""
module_hash=""
dep_hashes=""
dep_includes=()
build_module() {
    local name="$1"
    local sources
    mapfile -t sources < <(cd "$root" && find "Sources/$name" -name '*.swift' | LC_ALL=C sort)
    local extra=()
    [[ "$name" == TidemarkHighlight ]] && extra=("${ts_flags[@]}")
    local hash
    hash="$( (cd "$root" && echo "$name $version ${flags[*]} $dep_hashes" | cat - "${sources[@]}") \
        | sha256sum | cut -c1-16)"
    local dir="$bin/lib/$name/$hash"
    if [[ ! -f "$dir/$name.o" ]]; then
        echo "run.sh: compiling Sources/$name for fuzzing ($hash)…" >&2
        rm -rf "$dir.tmp"
        mkdir -p "$dir.tmp"
        if (cd "$root" && nice -n 19 "$swiftc" "${flags[@]}" -wmo -module-name "$name" \
                "${dep_includes[@]}" "${extra[@]}" \
                -emit-module -emit-module-path "$dir.tmp/$name.swiftmodule" \
                -emit-object -o "$dir.tmp/$name.o" "${sources[@]}"); then
            mv "$dir.tmp" "$dir"
            touch "$dir"
            # Keep only the newest two builds of each module.
            ls -1dt "$bin/lib/$name"/*/ 2>/dev/null | tail -n +3 | xargs -r rm -rf
        else
            rm -rf "$dir.tmp"
            # The sources are edited by several people at once; with
            # FUZZ_STALE_OK=1 fall back to the last build that compiled.
            local stale
            stale="$(ls -1dt "$bin/lib/$name"/*/ 2>/dev/null | head -1)"
            if [[ "${FUZZ_STALE_OK:-0}" == 1 && -n "$stale" && -f "$stale/$name.o" ]]; then
                dir="${stale%/}"
                hash="$(basename "$dir")"
                echo "run.sh: Sources/$name does not compile; using the stale build $hash" >&2
            else
                echo "run.sh: Sources/$name does not compile (FUZZ_STALE_OK=1 uses the last good build)" >&2
                exit 1
            fi
        fi
    fi
    module_dir="$dir"
    module_hash="$hash"
}

build_target() {
    version="$("$swiftc" --version 2>&1 | head -1)"

    # One build at a time (two run.sh may start together).
    exec 9>"$bin/.lock"
    flock 9

    local objects=() link_extra=()
    dep_hashes=""
    dep_includes=()
    for m in $(modules_of "$target"); do
        build_module "$m"
        dep_hashes+="$module_hash "
        dep_includes+=(-I "$module_dir")
        objects+=("$module_dir/$m.o")
        if [[ "$m" == TidemarkHighlight ]]; then
            link_extra+=("${ts_flags[@]}" -ltree-sitter)
        fi
    done

    local target_sources=("$here/Targets/$target.swift" "$here"/Support/*.swift)
    local key
    key="$( (echo "$dep_hashes"; cat "${target_sources[@]}") | sha256sum | cut -c1-16)"
    if [[ ! -x "$bin/$target" || "$(cat "$bin/$target.key" 2>/dev/null)" != "$key" ]]; then
        echo "run.sh: linking Fuzz/bin/$target…" >&2
        nice -n 19 "$swiftc" "${flags[@]}" -warnings-as-errors -module-name "Fuzz_$target" \
            "${dep_includes[@]}" "${link_extra[@]}" "${target_sources[@]}" "${objects[@]}" \
            -o "$bin/$target.tmp"
        mv "$bin/$target.tmp" "$bin/$target"
        echo "$key" > "$bin/$target.key"
    fi
    exec 9>&-
}

build_target

# Let libFuzzer and ASan report crashes; the Swift backtracer would
# otherwise take over the signal and can hang under the fuzzer.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

# A known leak in a third-party grammar (FUZZ_IGNORE=sql-scanner-leak) is
# suppressed with Fuzz/lsan-suppressions.txt so a run can find new leaks.
if [[ ",${FUZZ_IGNORE:-}," == *",sql-scanner-leak,"* ]]; then
    export LSAN_OPTIONS="suppressions=$here/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi

artifacts="$here/artifacts/$target"
mkdir -p "$artifacts"
common=("-timeout=${FUZZ_TIMEOUT:-1}" -rss_limit_mb=2048 -detect_leaks=1 "-artifact_prefix=$artifacts/")

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
        max_len="${FUZZ_MAX_LEN:-16384}"
        [[ "$target" == stream && -z "${FUZZ_MAX_LEN:-}" ]] && max_len=4096
        mkdir -p "$corpus"
        if [[ -z "$(ls -A "$corpus")" ]]; then
            python3 "$here/make-seeds.py" --target "$target" "$corpus"
        fi
        seed=()
        [[ -n "${FUZZ_SEED:-}" ]] && seed=("-seed=$FUZZ_SEED")
        exec nice -n 19 "$bin/$target" "$corpus" "${common[@]}" "${seed[@]}" \
            -max_total_time="$mode" -max_len="$max_len" \
            -dict="$here/markdown.dict" -print_final_stats=1 "$@"
        ;;
esac
