# The two commands of the project (see README.md):
#   make setup   the main job: system packages, grammars, a release build
#   make test    everything CI checks
#
# Extra flags for every swift invocation, e.g. a separate build directory:
#   make test SWIFTFLAGS="--scratch-path .build-cli"
SWIFT ?= swift
SWIFTFLAGS ?=

.PHONY: setup test build spec extract help bench bench-callgrind bench-stream-callgrind bench-stream-set bench-pathological check-stream

help:
	@echo "make setup    install what is missing, build release (the main job)"
	@echo "make test     build, run the tests, the spec runner and the fixture check"
	@echo "make spec     run the conformance runner over Fixtures/*.json"
	@echo "make extract  regenerate Fixtures/*.json from spec/*.md"
	@echo "make check-stream [SEED=1 COUNT=20]  streaming checked from outside on generated documents"

# The main job: what is missing is installed (system packages, tree-sitter
# grammars: scripts/bootstrap.sh), everything is built in release mode, and
# a bundled assistant-style answer streams into the terminal, styled and
# redrawn in place (`tidemark demo`; DEMO_FLAGS="--rate 0" for no pauses).
DEMO_FLAGS ?=
setup:
	scripts/bootstrap.sh
	$(SWIFT) build -c release $(SWIFTFLAGS)
	$(SWIFT) run -c release --skip-build $(SWIFTFLAGS) tidemark demo $(DEMO_FLAGS)

# One build of everything (tests included), then every check without
# rebuilding: the unit and fixture tests, the conformance runner (which
# fails on any difference not in Fixtures/expected-differences.txt), and
# the check that Fixtures/*.json match spec/*.md. With CI=true (or
# FUZZ_SMOKE=1) also a smoke fuzz: every libFuzzer target for
# FUZZ_SMOKE_SECONDS (60) seconds.
test:
	scripts/bootstrap.sh
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	$(SWIFT) test --skip-build $(SWIFTFLAGS)
	$(SWIFT) run --skip-build $(SWIFTFLAGS) tidemark-spec
	$(SWIFT) run --skip-build $(SWIFTFLAGS) tidemark-spec extract --check
	@if [ "$$CI" = true ] || [ -n "$(FUZZ_SMOKE)" ]; then $(MAKE) fuzz-smoke; \
	else echo "(smoke fuzz skipped: it runs when CI=true or FUZZ_SMOKE=1)"; fi

build:
	$(SWIFT) build $(SWIFTFLAGS)

spec:
	$(SWIFT) run $(SWIFTFLAGS) tidemark-spec

extract:
	$(SWIFT) run $(SWIFTFLAGS) tidemark-spec extract

# Benchmarks against cmark-gfm, md4c and pulldown-cmark (see Benchmarks/README.md).
bench:
	Benchmarks/run.sh

bench-callgrind:
	Benchmarks/callgrind.sh

bench-stream-callgrind:
	Benchmarks/stream-callgrind.sh

bench-stream-set:
	Benchmarks/stream-set.sh

bench-pathological:
	Benchmarks/pathological.py

# The outside check of streaming (see README.md, "Streaming"): COUNT seeded
# documents of each generator style, every `--emit-each` emission of the
# release CLI (HTML and AST) against the batch output of its prefix, at
# chunk sizes 1, 2, 3, 4, 5 and 7. Exit status 1 on any difference.
SEED ?= 1
COUNT ?= 20
STYLES ?= llm mutant splice lines focus cjk links open blocks utf8 punct bytes
CHECK_DIR ?= /tmp/tidemark-check-stream
check-stream:
	$(SWIFT) build -c release --product tidemark $(SWIFTFLAGS)
	rm -rf $(CHECK_DIR)
	for s in $(STYLES); do python3 scripts/gen-stream-docs.py --style $$s --seed $(SEED) --count $(COUNT) --out $(CHECK_DIR)/$$s >/dev/null || exit 1; done
	python3 scripts/check-emit-each.py --bin "$$($(SWIFT) build -c release $(SWIFTFLAGS) --show-bin-path)/tidemark" \
		--ast --jobs 2 $(CHECK_DIR)/*/*.md

# Fuzzing (see Fuzz/README.md): one target for SECONDS, or every target briefly.
FUZZ_TARGETS := parse ast math stream render highlight
FUZZ_SMOKE_SECONDS ?= 60
TARGET ?= parse
SECONDS ?= 600
export FUZZ_IGNORE FUZZ_MAX_LEN FUZZ_TIMEOUT FUZZ_SEED

.PHONY: fuzz fuzz-smoke
fuzz:
	Fuzz/run.sh $(TARGET) $(SECONDS)

fuzz-smoke:
	@# A shared CI machine can stall any process for a second: the smoke run
	@# allows 10 s per input unless FUZZ_TIMEOUT says otherwise.
	@# A fixed seed (FUZZ_SEED=1) makes CI's runs mutate alike; long runs
	@# (make fuzz) pick a new seed each time and are where findings come from.
	@# sql-scanner-leak: tree-sitter-sql 0.3.7's own scanner leaks a few bytes
	@# per parse (third-party; see Fuzz/README.md) and is suppressed here.
	@for t in $(FUZZ_TARGETS); do FUZZ_TIMEOUT=$${FUZZ_TIMEOUT:-10} FUZZ_IGNORE=$${FUZZ_IGNORE:-sql-scanner-leak} FUZZ_SEED=$${FUZZ_SEED:-1} \
		Fuzz/run.sh $$t $(FUZZ_SMOKE_SECONDS) || exit 1; done
