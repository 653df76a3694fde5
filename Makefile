# Kinetic — set-up, demo, tests and benchmarks.
#
#   make demo    install what is missing, build, run the demo (the main job)
#   make test    install what is missing, build, run every test
#   make bench   run the benchmark suites (package-benchmark)
#   make deps    only install what is missing (apt-get; sudo only when not root)

SWIFT      ?= swift
CONFIG     ?= release
DATA       ?= notebooks-data
# Extra arguments for `swift package benchmark` (e.g. --filter "Bezier.*"). Each suite's
# duration is set in code (about 1 s per benchmark).
BENCH_ARGS ?=

# Debian packages the build needs, and a command that tells whether each is present.
APT_PACKAGES := libopenblas-dev pkg-config

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build demo test bench bench-ci clean

all: build

deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "deps: all present ($(APT_PACKAGES))"; \
	fi
	@pkg-config --exists openblas || { echo "deps: pkg-config cannot find openblas after install" >&2; exit 1; }

build: deps
	$(SWIFT) build -c $(CONFIG) --product kinetic

demo: build
	$(SWIFT) run -c $(CONFIG) --skip-build kinetic demo --output-dir $(DATA)

test: deps
	$(SWIFT) build -c $(CONFIG) --build-tests
	$(SWIFT) test -c $(CONFIG) --skip-build --disable-swift-testing

bench: deps
	$(SWIFT) package --disable-sandbox benchmark $(BENCH_ARGS)

# A short run of every suite, for CI: about a second each.
bench-ci: deps
	$(SWIFT) package --disable-sandbox benchmark --no-progress $(BENCH_ARGS)

clean:
	rm -rf .build
