# Kinetic — set-up, demo, tests and benchmarks.
#
#   make demo         install what is missing, build, run the demo (the main job)
#   make test         install what is missing, build, run every test
#   make test-noblas  the same without BLAS (default traits disabled); both check with ldd
#                     that nothing built links libopenblas (it is loaded at run time)
#   make bench        run the benchmark suites (package-benchmark)
#   make deps         only install what is missing (apt-get; sudo only when not root)
#   make test-sanitize  every test under ASan + LSan (+ UBSan on C code), then the threaded tests
#                     under TSan; test-sanitize-ci is CI's shorter run (see "Sanitizers" below)
#   make fuzz         the libFuzzer harnesses of Tests/Fuzz, FUZZ_SECONDS each (default 60)
#   make fuzz-ci      the same from a fixed seed and a fixed number of runs each (what CI runs)
#
# BLAS=off (what test-noblas sets) builds Kinetic without its OpenBLAS trait, in its own build
# folder (.build-noblas), as Apple platforms build it: no libopenblas-dev is needed then.

SWIFT      ?= swift
CONFIG     ?= release
DATA       ?= notebooks-data
# Extra arguments for `swift package benchmark` (e.g. --filter "Bezier.*"). Each suite's
# duration is set in code (about 1 s per benchmark).
BENCH_ARGS ?=

BLAS       ?= on
ifeq ($(BLAS),off)
# Debian packages the build needs (pkg-config reads the installed kinetic.pc in test-c).
APT_PACKAGES := pkg-config
# Every swift command of this configuration: no default traits, its own build folder.
SWIFTPM_FLAGS ?= --disable-default-traits --scratch-path .build-noblas
EXPECT_BLAS := 0
else
APT_PACKAGES := libopenblas-dev pkg-config
SWIFTPM_FLAGS ?=
EXPECT_BLAS := 1
endif

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build demo test test-noblas check-no-openblas bench bench-ci clean set-version

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
	@[ "$(BLAS)" = off ] || pkg-config --exists openblas || \
	  { echo "deps: pkg-config cannot find openblas after install" >&2; exit 1; }

build: deps
	$(SWIFT) build -c $(CONFIG) $(SWIFTPM_FLAGS) --product kinetic

demo: build
	$(SWIFT) run -c $(CONFIG) $(SWIFTPM_FLAGS) --skip-build kinetic demo --output-dir $(DATA)
	$(SWIFT) run -c $(CONFIG) $(SWIFTPM_FLAGS) --skip-build kinetic export $(DATA)

test: deps plot-deps
	$(SWIFT) build -c $(CONFIG) $(SWIFTPM_FLAGS) --build-tests
	KINETIC_EXPECT_BLAS=$(EXPECT_BLAS) $(SWIFT) test -c $(CONFIG) $(SWIFTPM_FLAGS) --skip-build --disable-swift-testing
	$(MAKE) test-c
	$(MAKE) test-bench-check
	$(MAKE) check-no-openblas

# Kinetic without BLAS (the configuration of Apple platforms), tested in full on this machine.
test-noblas:
	$(MAKE) test BLAS=off

# Fails when any library, executable or test bundle links libopenblas: Kinetic loads it with
# dlopen on the first BLAS routine (with the trait), or never (without it).
check-no-openblas:
	@bin=$$($(SWIFT) build -c $(CONFIG) $(SWIFTPM_FLAGS) --show-bin-path) && \
	files=$$(find "$$bin" -maxdepth 1 -type f \( -name '*.so' -o -name '*.xctest' -o -name kinetic \) | sort) && \
	files="$$files $(C_TEST_DIR)/lib/libKineticC.so $(C_TEST_DIR)/kinetic_test" && \
	[ -n "$$files" ] && status=0 && \
	for f in $$files; do \
	  echo "ldd $$f:"; ldd "$$f" | sed 's/^/    /'; \
	  if ldd "$$f" | grep -q openblas; then echo "check-no-openblas: $$f links libopenblas" >&2; status=1; fi; \
	done; \
	[ $$status = 0 ] && echo "check-no-openblas: nothing built links libopenblas (BLAS=$(BLAS))"

# Sets the version in its one place (Sources/Kinetic/Version.swift) and mirrors it into the C
# header's KN_VERSION_ macros, e.g. `make set-version V=0.3.0`. The tests fail on a mismatch.
set-version:
	@echo "$(V)" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$$' || { echo "set-version: give V=major.minor.patch" >&2; exit 2; }
	@set -- $$(echo "$(V)" | tr . ' '); \
	sed -i -E "s/(static let current = ReleaseVersion\(major: )[0-9]+(, minor: )[0-9]+(, patch: )[0-9]+/\1$$1\2$$2\3$$3/" \
	  Sources/Kinetic/Version.swift && \
	sed -i -E "s/^(#define KN_VERSION_MAJOR )[0-9]+/\1$$1/; s/^(#define KN_VERSION_MINOR )[0-9]+/\1$$2/; s/^(#define KN_VERSION_PATCH )[0-9]+/\1$$3/" \
	  Sources/KineticC/include/kinetic.h && \
	echo "set-version: $(V) (add its section to CHANGELOG.md)"

# The suites are a package of their own (Benchmarks/Package.swift), so that depending on
# Kinetic resolves no benchmark dependency; it depends on this one by path.
BENCH_PACKAGE = $(SWIFT) package --package-path Benchmarks
bench: deps
	$(BENCH_PACKAGE) --disable-sandbox benchmark $(BENCH_ARGS)

# A short run of every suite, for CI: about a second each. The text report is kept in
# $(BENCH_REPORT) and checked by .ci/check-benchmarks.py against Benchmarks/thresholds.csv
# (ratios of benchmarks of the same run; fails on a regression beyond the CI limits), which
# writes $(DATA)/benchmarks.csv, benchmarks-ratios.csv and benchmarks-ratios.svg. With a
# --filter in BENCH_ARGS, thresholds whose benchmarks did not run are skipped.
# One retry: when ratios fail, the benchmarks behind them run once more, together
# (.ci/rerun-benchmarks.py), and the check is repeated with those figures. This machine is
# shared: a slow stretch during one benchmark (seen as every percentile of one benchmark
# 1.5x slow, p0 included) fails one run, while a real regression fails the retry too.
BENCH_REPORT ?= .build/bench-ci.txt
BENCH_CHECK = python3 .ci/check-benchmarks.py $(BENCH_REPORT) --thresholds Benchmarks/thresholds.csv \
	  --out-dir $(DATA) $(if $(strip $(BENCH_ARGS)),--only-present)
bench-ci: deps
	@mkdir -p $(dir $(BENCH_REPORT))
	@rm -f $(BENCH_REPORT).failed $(BENCH_REPORT).retry
	{ $(BENCH_PACKAGE) $(SWIFTPM_FLAGS) --disable-sandbox benchmark --no-progress $(BENCH_ARGS); \
	  echo $$? > $(BENCH_REPORT).rc; } | tee $(BENCH_REPORT)
	@rc=$$(cat $(BENCH_REPORT).rc); rm -f $(BENCH_REPORT).rc; \
	  [ "$$rc" = 0 ] || { echo "bench-ci: the benchmark run failed (exit $$rc)" >&2; exit $$rc; }
	$(BENCH_CHECK) --failed-out $(BENCH_REPORT).failed || { rc=$$?; \
	  [ "$$rc" = 1 ] && [ -s $(BENCH_REPORT).failed ] || exit $$rc; \
	  echo "bench-ci: re-measuring the benchmarks of the failed ratios once:"; cat $(BENCH_REPORT).failed; \
	  SWIFT="$(SWIFT)" python3 .ci/rerun-benchmarks.py $(BENCH_REPORT).failed $(BENCH_REPORT).retry $(SWIFTPM_FLAGS) \
	    || { echo "bench-ci: the retry run failed" >&2; exit 1; }; \
	  $(BENCH_CHECK) --retry-report $(BENCH_REPORT).retry; }

# The benchmark gate's own tests (a recorded report in Tests/Fixtures, and regressed copies).
.PHONY: test-bench-check
test-bench-check:
	python3 Tests/BenchmarkCheckTests/test_check_benchmarks.py

clean:
	rm -rf .build .build-noblas .build-install .build-install-noblas .build-docs .build-asan .build-tsan Benchmarks/.build

# ---- The C interface (Sources/KineticC): install, and its tests from C and Python ----
#
#   make install PREFIX=/opt/kinetic   lib/libKineticC.so.X.Y.Z (+ .so.X and .so symlinks),
#                                      include/kinetic.h, lib/pkgconfig/kinetic.pc
#   make test-c                        install into .build-install, check the installed library
#                                      (exports, SONAME, RUNPATH, no toolchain), compile the header
#                                      in every language mode, build Tests/KineticCTests/
#                                      kinetic_test.c through pkg-config and run it (toolchain
#                                      hidden), the dlopen test, the ctypes script and, when cargo
#                                      is installed, the Rust client (Tests/KineticCTests/rust)
#
# The installed library needs no Swift toolchain: the Swift runtime is linked into it statically
# (--static-swift-stdlib), its RUNPATH is at most $ORIGIN, and it exports exactly the functions
# kinetic.h declares (a linker version script generated from the header). It is built in its own
# scratch folder, per configuration, so that .build is not relinked with these flags; SwiftPM
# users of the KineticC product are unaffected (Package.swift has no unsafe flags).
.PHONY: install test-c

PREFIX        ?= /usr/local
CC            ?= cc
# The version, from its one place (Sources/Kinetic/Version.swift).
KINETIC_VERSION := $(shell sed -n -E 's/.*static let current = ReleaseVersion\(major: ([0-9]+), minor: ([0-9]+), patch: ([0-9]+)\).*/\1.\2.\3/p' Sources/Kinetic/Version.swift)
KINETIC_SONAME  := libKineticC.so.$(firstword $(subst ., ,$(KINETIC_VERSION)))
INSTALL_SCRATCH := $(CURDIR)/.build-install-lib$(if $(filter off,$(BLAS)),-noblas)
KINETIC_MAP     := $(INSTALL_SCRATCH)/kinetic.map
# The toolchain's root (/opt/swift for /opt/swift/usr/bin/swiftc): nothing installed may use it.
SWIFT_TOOLCHAIN_DIR ?= $(shell d=$$(dirname "$$(readlink -f "$$(command -v swiftc)")"); dirname "$$(dirname "$$d")")
# The last --scratch-path wins, so the configuration's traits stay and only the folder changes.
INSTALL_SWIFTPM_FLAGS = $(SWIFTPM_FLAGS) --scratch-path $(INSTALL_SCRATCH) -Xswiftc -static-stdlib \
	-Xlinker -soname -Xlinker $(KINETIC_SONAME) -Xlinker --version-script=$(KINETIC_MAP)
C_TEST_DIR    := $(CURDIR)/.build-install$(if $(filter off,$(BLAS)),-noblas)
# The reference values: the Swift API's, printed bit-exactly by the CLI.
C_TEST_CURVE  := 0.34,1.56,0.64,1
C_TEST_SPRING := --damping-ratio 0.5 --response 0.4 --velocity 2 --rate 240

install: deps
	@mkdir -p $(INSTALL_SCRATCH)
	@python3 Sources/KineticC/kinetic-exports.py Sources/KineticC/include/kinetic.h $(KINETIC_MAP).new
	@# SwiftPM does not see the version script as an input: relink when it changed.
	@bin=$$($(SWIFT) build -c $(CONFIG) $(INSTALL_SWIFTPM_FLAGS) --show-bin-path) && \
	if ! cmp -s $(KINETIC_MAP).new $(KINETIC_MAP); then rm -f "$$bin/libKineticC.so"; fi && \
	mv $(KINETIC_MAP).new $(KINETIC_MAP)
	$(SWIFT) build -c $(CONFIG) $(INSTALL_SWIFTPM_FLAGS) --product KineticC
	@prefix="$(abspath $(PREFIX))"; real=libKineticC.so.$(KINETIC_VERSION); \
	bin=$$($(SWIFT) build -c $(CONFIG) $(INSTALL_SWIFTPM_FLAGS) --show-bin-path) && \
	mkdir -p "$$prefix/lib/pkgconfig" "$$prefix/include" && \
	rm -f "$$prefix/lib/libKineticC.so" "$$prefix/lib/$(KINETIC_SONAME)" && \
	install -m 755 "$$bin/libKineticC.so" "$$prefix/lib/$$real" && \
	ln -s "$$real" "$$prefix/lib/$(KINETIC_SONAME)" && \
	ln -s "$(KINETIC_SONAME)" "$$prefix/lib/libKineticC.so" && \
	install -m 644 Sources/KineticC/include/kinetic.h "$$prefix/include/kinetic.h" && \
	{ echo "prefix=$$prefix"; \
	  echo 'libdir=$${prefix}/lib'; \
	  echo 'includedir=$${prefix}/include'; \
	  echo ''; \
	  echo 'Name: kinetic'; \
	  echo 'Description: Kinetic animation timing (cubic-bezier curves, springs, batch store): C interface'; \
	  echo 'Version: $(KINETIC_VERSION)'; \
	  echo 'Cflags: -I$${includedir}'; \
	  echo 'Libs: -L$${libdir} -lKineticC -Wl,-rpath,$${libdir}'; \
	} > "$$prefix/lib/pkgconfig/kinetic.pc" && \
	echo "install: $$prefix/lib/$$real ($(KINETIC_SONAME), libKineticC.so), $$prefix/include/kinetic.h, $$prefix/lib/pkgconfig/kinetic.pc"

# Compilers for the header test (one missing is skipped, with a message).
HEADER_TEST_CC  ?= gcc clang
HEADER_TEST_CXX ?= g++ clang++
WITHOUT_TOOLCHAIN := Tests/KineticCTests/without_toolchain.sh $(SWIFT_TOOLCHAIN_DIR)

test-c: deps
	$(MAKE) install PREFIX=$(C_TEST_DIR)
	python3 Tests/KineticCTests/check_install.py $(C_TEST_DIR) $(KINETIC_VERSION) $(SWIFT_TOOLCHAIN_DIR) "$(CC)"
	$(MAKE) test-c-header
	$(SWIFT) build -c $(CONFIG) $(SWIFTPM_FLAGS) --product kinetic
	@bin=$$($(SWIFT) build -c $(CONFIG) $(SWIFTPM_FLAGS) --show-bin-path) && \
	mkdir -p $(C_TEST_DIR)/reference && \
	"$$bin/kinetic" sample bezier $(C_TEST_CURVE) --count 1001 -o $(C_TEST_DIR)/reference/bezier.csv && \
	"$$bin/kinetic" sample spring $(C_TEST_SPRING) -o $(C_TEST_DIR)/reference/spring.csv
	export PKG_CONFIG_PATH=$(C_TEST_DIR)/lib/pkgconfig; \
	$(CC) -std=c99 -pedantic -Wall -Wextra -Werror -ffp-contract=off -pthread -o $(C_TEST_DIR)/kinetic_test \
	  Tests/KineticCTests/kinetic_test.c Tests/KineticCTests/kinetic_test_store.c Tests/KineticCTests/kinetic_test_engine.c Tests/KineticCTests/kinetic_test_motion.c \
	  $$(pkg-config --cflags --libs kinetic) -lm
	$(CC) -std=c99 -pedantic -Wall -Wextra -Werror -I$(C_TEST_DIR)/include -o $(C_TEST_DIR)/kinetic_test_load \
	  Tests/KineticCTests/kinetic_test_load.c -ldl
	export PKG_CONFIG_PATH=$(C_TEST_DIR)/lib/pkgconfig; \
	$(CXX) -std=c++17 -pedantic -Wall -Wextra -Werror -Wold-style-cast -ffp-contract=off -pthread \
	  -o $(C_TEST_DIR)/kinetic_test_cpp Tests/KineticCTests/kinetic_test_cpp.cpp $$(pkg-config --cflags --libs kinetic)
	export PKG_CONFIG_PATH=$(C_TEST_DIR)/lib/pkgconfig; \
	$(CC) -std=c99 -pedantic -Wall -Wextra -Werror -o $(C_TEST_DIR)/kinetic_engine_transition \
	  Tests/KineticCTests/kinetic_engine_transition.c $$(pkg-config --cflags --libs kinetic) -lm
	@# The demo's interactive dismissal driven from C through kn_engine_*, written as a timeline CSV.
	$(WITHOUT_TOOLCHAIN) $(C_TEST_DIR)/kinetic_engine_transition $(C_TEST_DIR)/scene-5-interactive-dismissal-c.csv
	$(WITHOUT_TOOLCHAIN) $(C_TEST_DIR)/kinetic_test $(C_TEST_DIR)/reference/bezier.csv \
	  $(C_TEST_DIR)/reference/spring.csv "$$(PKG_CONFIG_PATH=$(C_TEST_DIR)/lib/pkgconfig pkg-config --modversion kinetic)"
	@# The same from C++: RAII handles, std::vector batches and handle arrays, std::thread.
	$(WITHOUT_TOOLCHAIN) $(C_TEST_DIR)/kinetic_test_cpp $(C_TEST_DIR)/reference/bezier.csv $(C_TEST_DIR)/reference/spring.csv
	@# Loading and calling start no thread and map no OpenBLAS (it is loaded on the first BLAS routine).
	$(WITHOUT_TOOLCHAIN) $(C_TEST_DIR)/kinetic_test_load $(C_TEST_DIR)/lib/$(KINETIC_SONAME)
	$(WITHOUT_TOOLCHAIN) python3 Tests/KineticCTests/kinetic_ctypes.py $(C_TEST_DIR)/lib/libKineticC.so \
	  $(C_TEST_DIR)/reference/bezier.csv $(C_TEST_DIR)/reference/spring.csv
	@# The Rust client (hand-written extern "C" declarations, no crates), when cargo is installed.
	if command -v cargo >/dev/null 2>&1; then \
	  CARGO_TARGET_DIR=$(C_TEST_DIR)/rust-target KINETIC_LIB_DIR=$(C_TEST_DIR)/lib \
	    cargo build --offline --release --manifest-path Tests/KineticCTests/rust/Cargo.toml && \
	  $(WITHOUT_TOOLCHAIN) $(C_TEST_DIR)/rust-target/release/kinetic-rust-client \
	    $(C_TEST_DIR)/reference/bezier.csv $(C_TEST_DIR)/reference/spring.csv; \
	else echo "test-c: skipped the Rust client (cargo not found)"; fi

# kinetic.h on its own and in use: C99 and C11 (gcc, clang), C++11 and C++17 (g++, clang++,
# with -Wold-style-cast), every warning an error. Compiles only; needs no build.
.PHONY: test-c-header
test-c-header:
	@status=0; \
	for cc in $(HEADER_TEST_CC); do \
	  command -v $$cc >/dev/null 2>&1 || { echo "test-c-header: skipped $$cc (not found)"; continue; }; \
	  for std in c99 c11; do \
	    $$cc -std=$$std -Wall -Wextra -pedantic -Werror -ISources/KineticC/include -c -o /dev/null \
	      Tests/KineticCTests/kinetic_header_test.c && echo "test-c-header: $$cc -std=$$std ok" || status=1; \
	  done; \
	done; \
	for cxx in $(HEADER_TEST_CXX); do \
	  command -v $$cxx >/dev/null 2>&1 || { echo "test-c-header: skipped $$cxx (not found)"; continue; }; \
	  for std in c++11 c++17; do \
	    $$cxx -std=$$std -Wall -Wextra -pedantic -Werror -Wold-style-cast -ISources/KineticC/include -c -o /dev/null \
	      Tests/KineticCTests/kinetic_header_test.cpp && echo "test-c-header: $$cxx -std=$$std ok" || status=1; \
	  done; \
	done; \
	exit $$status

# matplotlib, for notebooks-data/plot.py and its test; installed from PyPI only when missing.
# Never fails the build: without python3, pip or network the plot.py test is skipped.
.PHONY: plot-deps
plot-deps:
	@if ! command -v python3 >/dev/null 2>&1; then \
	  echo "plot-deps: no python3; the plot.py test will be skipped"; \
	elif python3 -c "import matplotlib" >/dev/null 2>&1; then \
	  echo "plot-deps: matplotlib present"; \
	else \
	  echo "plot-deps: installing matplotlib from PyPI"; \
	  python3 -m pip install --quiet --retries 1 --timeout 20 matplotlib || \
	    echo "plot-deps: note: could not install matplotlib (PyPI unreachable, or pip refused); the plot.py test will be skipped"; \
	fi

# ---- The soak test (issue 16): not part of `make test` or CI ----
#
#   make soak                   both halves, SOAK_SECONDS (120) each; prints the figures
#   make soak SOAK_SECONDS=20   a short run
#
# Swift: Tests/KineticUITests/SoakTests.swift (skipped unless KINETIC_SOAK_SECONDS is set)
# creates and drops curves, springs, batch stores and animators (engines, views, animators
# started, paused, scrubbed, reversed, continued, stopped, finished; engines dropped while
# their animators run). C: Tests/KineticCTests/kinetic_soak.c does the same with curves,
# springs and stores through the installed library (as test-c). Each fails when resident
# memory at the end is more than 5 % above resident memory after the first 10 s. The samples
# (one a second) go to $(SOAK_CSV): elapsed_s,rss_kib,rss_anon_kib,iterations,part (swift | c).
.PHONY: soak

SOAK_SECONDS ?= 120
SOAK_CSV     ?= $(DATA)/soak.csv

soak: deps
	$(SWIFT) build -c $(CONFIG) $(SWIFTPM_FLAGS) --build-tests
	$(MAKE) install PREFIX=$(C_TEST_DIR)
	export PKG_CONFIG_PATH=$(C_TEST_DIR)/lib/pkgconfig; \
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -o $(C_TEST_DIR)/kinetic_soak \
	  Tests/KineticCTests/kinetic_soak.c $$(pkg-config --cflags --libs kinetic) -lm
	@mkdir -p $(C_TEST_DIR)
	@rm -f $(C_TEST_DIR)/soak-swift.csv $(C_TEST_DIR)/soak-c.csv $(C_TEST_DIR)/soak-*.log
	@echo "soak: Swift, $(SOAK_SECONDS) s"
	@KINETIC_SOAK_SECONDS=$(SOAK_SECONDS) KINETIC_SOAK_CSV=$(C_TEST_DIR)/soak-swift.csv \
	  $(SWIFT) test -c $(CONFIG) $(SWIFTPM_FLAGS) --skip-build --disable-swift-testing \
	  --filter SoakTests > $(C_TEST_DIR)/soak-swift.log 2>&1; \
	  echo $$? > $(C_TEST_DIR)/soak-swift.rc; \
	  grep -E "^soak swift:|error|failed" $(C_TEST_DIR)/soak-swift.log || tail -n 20 $(C_TEST_DIR)/soak-swift.log
	@echo "soak: C, $(SOAK_SECONDS) s"
	@$(C_TEST_DIR)/kinetic_soak $(SOAK_SECONDS) $(C_TEST_DIR)/soak-c.csv; echo $$? > $(C_TEST_DIR)/soak-c.rc
	@[ -f $(C_TEST_DIR)/soak-swift.csv ] && [ -f $(C_TEST_DIR)/soak-c.csv ] && \
	  { cat $(C_TEST_DIR)/soak-swift.csv; tail -n +2 $(C_TEST_DIR)/soak-c.csv; } > $(SOAK_CSV) && \
	  echo "soak: samples in $(SOAK_CSV)"
	@s=$$(cat $(C_TEST_DIR)/soak-swift.rc); c=$$(cat $(C_TEST_DIR)/soak-c.rc); \
	  [ "$$s" = 0 ] && [ "$$c" = 0 ] && echo "soak: passed (Swift and C)" || \
	  { echo "soak: FAILED (Swift exit $$s, C exit $$c; log: $(C_TEST_DIR)/soak-swift.log)" >&2; exit 1; }

# ---- Documentation (DocC): the Kinetic, KineticExport and KineticUI catalogs ----
#
#   make docs    .build/docs/<Module>.doccarchive for Kinetic, KineticExport and KineticUI,
#                static sites to be served at /<Module>/ (--hosting-base-path <Module>)
#
# Offline, with the toolchain's own docc (no swift-docc-plugin). The symbol graphs come from
# `swift package dump-symbol-graph` over the CONFIG (release) build, so after `make build`
# little is compiled. dump-symbol-graph also tries the test modules, which a build
# without tests lacks, and then exits non-zero: its log is kept in $(DOCS_DIR) and the recipe
# checks instead that it wrote a fresh graph for every documented module. Each module gets a
# directory holding only its own graphs (and its extension graphs, Kinetic@Swift,
# KineticExport@Kinetic). Every DocC warning is an error (--warnings-as-errors).
.PHONY: docs

DOCS_DIR     ?= .build/docs
DOCS_MODULES := Kinetic KineticExport KineticUI
DOCC         ?= $(shell d=$$(dirname "$$(readlink -f "$$(command -v swiftc)")"); [ -x "$$d/docc" ] && echo "$$d/docc" || echo docc)

docs: deps
	@set -e; start=$$(date +%s); out="$(DOCS_DIR)"; \
	rm -rf "$$out"; mkdir -p "$$out/symbol-graphs"; touch "$$out/.start"; \
	echo "docs: swift package dump-symbol-graph (log: $$out/dump-symbol-graph.log)"; \
	$(SWIFT) package -c $(CONFIG) $(SWIFTPM_FLAGS) dump-symbol-graph --emit-extension-block-symbols \
	  > "$$out/dump-symbol-graph.log" 2>&1 || true; \
	graphs=$$(sed -n 's/^Files written to //p' "$$out/dump-symbol-graph.log" | tail -n 1); \
	for m in $(DOCS_MODULES); do \
	  if [ -z "$$graphs" ] || [ -z "$$(find "$$graphs/$$m.symbols.json" -newer "$$out/.start" 2>/dev/null)" ]; then \
	    cat "$$out/dump-symbol-graph.log" >&2; \
	    echo "docs: no fresh symbol graph for $$m (see the log above)" >&2; exit 1; \
	  fi; \
	  mkdir -p "$$out/symbol-graphs/$$m"; \
	  cp "$$graphs/$$m.symbols.json" "$$out/symbol-graphs/$$m/"; \
	  for f in "$$graphs/$$m"@*.symbols.json; do [ ! -e "$$f" ] || cp "$$f" "$$out/symbol-graphs/$$m/"; done; \
	done; \
	warnings=0; failed=""; \
	for m in $(DOCS_MODULES); do \
	  echo "docs: docc convert Sources/$$m/$$m.docc"; \
	  rc=0; "$(DOCC)" convert "Sources/$$m/$$m.docc" \
	    --additional-symbol-graph-dir "$$out/symbol-graphs/$$m" \
	    --fallback-display-name "$$m" --fallback-bundle-identifier "org.kinetic.$$m" \
	    --output-path "$$out/$$m.doccarchive" \
	    --transform-for-static-hosting --hosting-base-path "$$m" \
	    --warnings-as-errors > "$$out/$$m.log" 2>&1 || rc=$$?; \
	  n=$$(grep -cE '^(warning|error): ' "$$out/$$m.log" || true); \
	  warnings=$$((warnings + n)); \
	  if [ "$$rc" != 0 ] || [ "$$n" != 0 ]; then cat "$$out/$$m.log" >&2; failed="$$failed $$m"; fi; \
	done; \
	rm -f "$$out/.start"; \
	if [ -n "$$failed" ]; then \
	  echo "docs: FAILED for$$failed: $$warnings DocC warning(s), reported as errors (logs: $$out/<Module>.log)" >&2; exit 1; \
	fi; \
	for m in $(DOCS_MODULES); do echo "docs: $$out/$$m.doccarchive"; done; \
	echo "docs: $$warnings DocC warnings; $$(( $$(date +%s) - start )) s"

# ---- Sanitizers and fuzzing (Tests/Fuzz/README.md) ----
#
#   make test-sanitize      every XCTest, the C test programs and every fuzz seed and regression
#                           input under AddressSanitizer + LeakSanitizer (UndefinedBehaviorSanitizer
#                           too on the C code: KineticSIMD, the C tests, the C harness), then the
#                           concurrency tests under ThreadSanitizer (the full run, for people)
#   make test-sanitize-ci   what CI runs: the same but XCTest limited to $(SAN_CI_FILTER)
#                           under ASan (the CLI tests start hundreds of sanitized processes)
#   make fuzz               every libFuzzer harness for FUZZ_SECONDS seconds each (CI runs
#                           make fuzz-ci: a fixed seed and FUZZ_RUNS executions each);
#                           new inputs go to .build-asan/fuzz/corpus/<harness>, crashes to
#                           .build-asan/fuzz/artifacts/ (never into the repository)
#
# One AddressSanitizer build (.build-asan) serves the tests and the fuzzers: SwiftPM builds
# everything with -sanitize=address and libFuzzer's coverage (inline 8-bit counters, PC
# table, comparison tracing; the ASan runtime supplies no-op hooks, so the test programs
# link as usual), and the harnesses link the very object files of that build (the CLI's
# included: its entry point is `kinetic_main` there). ThreadSanitizer has its own build
# (.build-tsan). Any sanitizer report fails the run: ASan and UBSan halt on the first error,
# LeakSanitizer exits with 23 at exit, TSan with 66. Nothing here is in Package.swift: the
# flags are given on the command line only. SwiftPM does not recompile every module when only
# -Xswiftc / -Xcc flags change: after changing them, `rm -rf .build-asan` (libFuzzer refuses
# objects left with the old coverage kind).
.PHONY: test-sanitize test-sanitize-ci sanitize-asan sanitize-tsan sanitize-c sanitize-seeds \
	build-asan build-tsan fuzz fuzz-build fuzz-ci

SAN_CONFIG   ?= debug
SAN_CC       ?= $(dir $(shell readlink -f "$$(command -v swiftc)"))clang
SWIFTC       ?= swiftc
ASAN_SCRATCH := $(CURDIR)/.build-asan
TSAN_SCRATCH := $(CURDIR)/.build-tsan
SAN_COVERAGE := edge,inline-8bit-counters,pc-table,trace-cmp
ASAN_SWIFTPM_FLAGS = $(SWIFTPM_FLAGS) -c $(SAN_CONFIG) --scratch-path $(ASAN_SCRATCH) --sanitize=address \
	-Xswiftc -sanitize-coverage=$(SAN_COVERAGE) \
	-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined -Xcc -fsanitize=fuzzer-no-link
TSAN_SWIFTPM_FLAGS = $(SWIFTPM_FLAGS) -c $(SAN_CONFIG) --scratch-path $(TSAN_SCRATCH) --sanitize=thread
ASAN_BIN = $(ASAN_SCRATCH)/$(SAN_CONFIG)
TSAN_BIN = $(TSAN_SCRATCH)/$(SAN_CONFIG)
# halt_on_error: stop at the first report; exitcode: a report fails the process.
# Leaks inside the toolchain's runtime libraries (XCTest, Foundation) are suppressed, with
# stacks kept 5 frames deep so that a suppression matches only the library's own
# allocations: see Tests/Sanitizers/lsan.supp.
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:malloc_context_size=5 \
	LSAN_OPTIONS=exitcode=23:suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1 \
	KINETIC_EXPECT_BLAS=$(EXPECT_BLAS)
# The XCTest part of CI's sanitizer run: the numerics, the C interface and the UI layer. Left
# to the full `make test-sanitize`: the CLI tests that start the tool hundreds of times
# (CLITests, CLIInputTests: slow under ASan; the cli fuzz harness drives the CLI in process
# in CI) and CubicBezierAccuracyTests (minutes of unoptimised reference arithmetic).
SAN_CI_FILTER ?= ^(KineticTests\.(Batch|Bake|Bucket|BuildConfiguration|CubicBezierBatch|CubicBezierConformance|CubicBezierLazyTable|Keyframe|Spring|StrictJSON|Export|Plot|LaneEngineCurveLifetime)[A-Za-z]*Tests/|KineticCTests\.|KineticUITests\.)
# The tests that use several threads, run under ThreadSanitizer: the parallel batch kernels,
# threads racing to build a curve's solve table and through its batch rule, the CLI tests that read a child's pipes from
# a second Thread, the real-time driver (Swift concurrency), the engine's memory and lifetime
# tests; and the C test of two threads sharing handles (linked with the toolchain's
# libdispatch, which TSan's runtime intercepts).
SWIFT_RUNTIME_DIR = $(SWIFT_TOOLCHAIN_DIR)/usr/lib/swift/linux
TSAN_FILTER ?= ^(KineticTests\.(BatchKernelTests|ProgressCLITests|CubicBezierLazyTableTests)/|KineticTests\.CubicBezierBatchTests/testThreadsRacing|KineticUITests\.(RealTimeDriverTests|EngineMemoryTests|EngineLifetimeTests)/)

build-asan: deps
	$(SWIFT) build $(ASAN_SWIFTPM_FLAGS) --build-tests

build-tsan: deps
	$(SWIFT) build $(TSAN_SWIFTPM_FLAGS) --build-tests

# XCTest under ASan + LSan (SAN_FILTER empty: every test).
sanitize-asan: build-asan
	$(SAN_ENV) $(SWIFT) test $(ASAN_SWIFTPM_FLAGS) --skip-build --disable-swift-testing \
	  $(if $(strip $(SAN_FILTER)),--filter '$(SAN_FILTER)')

# The C test programs against the ASan build of libKineticC.so, compiled with ASan + UBSan.
sanitize-c: build-asan
	@mkdir -p $(ASAN_SCRATCH)/c
	"$(ASAN_BIN)/kinetic" sample bezier $(C_TEST_CURVE) --count 1001 -o $(ASAN_SCRATCH)/c/bezier.csv
	"$(ASAN_BIN)/kinetic" sample spring $(C_TEST_SPRING) -o $(ASAN_SCRATCH)/c/spring.csv
	$(SAN_CC) -std=c99 -g -O1 -Wall -Wextra -Werror -ffp-contract=off -fsanitize=address,undefined \
	  -fno-sanitize-recover=undefined -ISources/KineticC/include -o $(ASAN_SCRATCH)/c/kinetic_test \
	  Tests/KineticCTests/kinetic_test.c Tests/KineticCTests/kinetic_test_store.c Tests/KineticCTests/kinetic_test_engine.c Tests/KineticCTests/kinetic_test_motion.c \
	  -L$(ASAN_BIN) -lKineticC -Wl,-rpath,$(ASAN_BIN) -lm
	$(SAN_CC) -std=c99 -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	  -ISources/KineticC/include -o $(ASAN_SCRATCH)/c/kinetic_test_threads Tests/KineticCTests/kinetic_test_threads.c \
	  -L$(ASAN_BIN) -lKineticC -Wl,-rpath,$(ASAN_BIN) -lpthread
	$(SAN_ENV) $(ASAN_SCRATCH)/c/kinetic_test $(ASAN_SCRATCH)/c/bezier.csv $(ASAN_SCRATCH)/c/spring.csv
	$(SAN_ENV) $(ASAN_SCRATCH)/c/kinetic_test_threads

# Every harness over its seeds and its recorded regression inputs, once each (no fuzzing).
sanitize-seeds: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
	  dirs="$(CURDIR)/Tests/Fuzz/Corpus/$$h"; [ ! -d Tests/Fuzz/Regressions/$$h ] || dirs="$$dirs $(CURDIR)/Tests/Fuzz/Regressions/$$h"; \
	  echo "sanitize-seeds: $$h over $$dirs"; \
	  files=$$(find $$dirs -type f | sort); \
	  $(SAN_ENV) $(FUZZ_DIR)/$$h $(FUZZ_OPTIONS) $$files 2>$(FUZZ_DIR)/$$h-seeds.log \
	    || { tail -n 60 $(FUZZ_DIR)/$$h-seeds.log >&2; echo "sanitize-seeds: $$h FAILED" >&2; exit 1; }; \
	  echo "sanitize-seeds: $$h: $$(grep -c '^Executed' $(FUZZ_DIR)/$$h-seeds.log) inputs passed"; \
	done

# ThreadSanitizer: the concurrency tests and the two-thread C test.
sanitize-tsan: build-tsan
	$(SAN_ENV) $(SWIFT) test $(TSAN_SWIFTPM_FLAGS) --skip-build --disable-swift-testing --filter '$(TSAN_FILTER)'
	@mkdir -p $(TSAN_SCRATCH)/c
	$(SAN_CC) -std=c99 -g -O1 -Wall -Wextra -Werror -fsanitize=thread -ISources/KineticC/include \
	  -o $(TSAN_SCRATCH)/c/kinetic_test_threads Tests/KineticCTests/kinetic_test_threads.c \
	  -L$(TSAN_BIN) -lKineticC -Wl,-rpath,$(TSAN_BIN) -lpthread \
	  -L$(SWIFT_RUNTIME_DIR) -ldispatch -lBlocksRuntime -Wl,-rpath,$(SWIFT_RUNTIME_DIR)
	$(SAN_ENV) $(TSAN_SCRATCH)/c/kinetic_test_threads

test-sanitize:
	$(MAKE) sanitize-asan SAN_FILTER=
	$(MAKE) sanitize-c sanitize-seeds sanitize-tsan

test-sanitize-ci:
	$(MAKE) sanitize-asan SAN_FILTER='$(SAN_CI_FILTER)'
	$(MAKE) sanitize-c sanitize-seeds sanitize-tsan

# ---- libFuzzer harnesses (Tests/Fuzz): c_api (every kinetic.h function), json (the keyframe
# description reader), text (CSV, number lists, curve arguments), cli (the kinetic tool).
FUZZ_HARNESSES ?= c_api json text cli
FUZZ_SECONDS   ?= 60
FUZZ_DIR       := $(ASAN_SCRATCH)/fuzz
# -timeout: an input running over 2 s is a hang (a finding); -rss_limit_mb: so is memory
# above 2 GiB (every count is checked against KN_MAX_COUNT before allocating).
FUZZ_OPTIONS   ?= -timeout=2 -rss_limit_mb=2048 -max_len=4096
FUZZ_MODULES = $(foreach m,ArgumentParser ArgumentParserToolInfo Kinetic KineticExport KineticPlatform KineticSIMD KineticUI RealModule _NumericsShims kinetic,$(wildcard $(ASAN_BIN)/$(m).build/*.o))
FUZZ_SWIFTC_FLAGS = -parse-as-library -g -Onone -sanitize=fuzzer,address -I $(ASAN_BIN)/Modules \
	-Xcc -fmodule-map-file=$(ASAN_BIN)/KineticSIMD.build/module.modulemap \
	-Xcc -fmodule-map-file=$(ASAN_SCRATCH)/checkouts/swift-numerics/Sources/_NumericsShims/include/module.modulemap \
	$(if $(filter 1,$(EXPECT_BLAS)),-Xcc -fmodule-map-file=Sources/CBLAS/module.modulemap \
	  $$(pkg-config --cflags-only-I openblas | sed 's/-I/-Xcc -I/g'))

fuzz-build: build-asan
	@mkdir -p $(FUZZ_DIR)
	$(SAN_CC) -g -O1 -std=c99 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  -ISources/KineticC/include Tests/Fuzz/c_api.c -o $(FUZZ_DIR)/c_api \
	  -L$(ASAN_BIN) -lKineticC -Wl,-rpath,$(ASAN_BIN) -lm
	@for h in json text cli; do \
	  echo "fuzz-build: $$h"; rm -f $(FUZZ_DIR)/$$h; \
	  $(SWIFTC) $(FUZZ_SWIFTC_FLAGS) Tests/Fuzz/$$h.swift $(FUZZ_MODULES) -o $(FUZZ_DIR)/$$h 2>&1 \
	    | grep -v "Cannot export local symbol" >&2; [ -x $(FUZZ_DIR)/$$h ] || exit 1; \
	done

# FUZZ_SEED=N (fuzz-ci): a fixed libFuzzer seed, a fresh scratch corpus and a fixed number of
# executions per harness (FUZZ_RUNS, "harness=count" pairs), so that the same commit fuzzes
# nearly the same inputs on every machine; FUZZ_SECONDS stays an upper bound. Without it (make fuzz), each
# run starts from a random seed and the scratch corpus of the runs before, for exploration.
FUZZ_SEED ?=
FUZZ_RUNS ?= c_api=180000 json=270000 text=600000 cli=1800
FUZZ_CORPUS = $(FUZZ_DIR)/corpus$(if $(FUZZ_SEED),-seed$(FUZZ_SEED))
# A seeded run also fixes what else varies from process to process: Swift's per-process hash
# seed (Set and Dictionary order, so coverage) and, where setarch allows it, address layout.
FUZZ_DETERMINISTIC = SWIFT_DETERMINISTIC_HASHING=1 $(shell setarch $$(uname -m) -R true 2>/dev/null && echo setarch $$(uname -m) -R)

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/artifacts
	@$(if $(FUZZ_SEED),rm -rf $(FUZZ_CORPUS);) status=0; for h in $(FUZZ_HARNESSES); do \
	  mkdir -p $(FUZZ_CORPUS)/$$h; \
	  extra=""; $(if $(FUZZ_SEED),runs=$$(echo '$(FUZZ_RUNS)' | tr ' ' '\n' | sed -n "s/^$$h=//p"); \
	    [ -n "$$runs" ] || { echo "fuzz: FUZZ_RUNS has no count for $$h" >&2; exit 2; }; \
	    extra="-seed=$(FUZZ_SEED) -runs=$$runs";) \
	  echo "fuzz: $$h for $(FUZZ_SECONDS) s $$extra (log: $(FUZZ_DIR)/$$h.log)"; \
	  $(SAN_ENV) $(if $(FUZZ_SEED),$(FUZZ_DETERMINISTIC)) $(FUZZ_DIR)/$$h $(FUZZ_OPTIONS) $$extra -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_DIR)/artifacts/$$h- $(FUZZ_CORPUS)/$$h $(CURDIR)/Tests/Fuzz/Corpus/$$h \
	    > $(FUZZ_DIR)/$$h.log 2>&1 || { status=1; tail -n 60 $(FUZZ_DIR)/$$h.log >&2; \
	    echo "fuzz: $$h FAILED; the input is in $(FUZZ_DIR)/artifacts/" >&2; }; \
	  done_runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_DIR)/$$h.log); \
	  $(if $(FUZZ_SEED),[ "$$done_runs" -ge "$$runs" ] 2>/dev/null || echo "fuzz: WARNING: $$h stopped at \
	$(FUZZ_SECONDS) s after $$done_runs of $$runs executions (a slow machine): not the seeded run's full input set" >&2;) \
	  echo "fuzz: $$h: $$done_runs executions, \
	$$(sed -n 's/^stat::new_units_added: *//p' $(FUZZ_DIR)/$$h.log) new inputs, \
	$$(ls $(FUZZ_CORPUS)/$$h | wc -l) in the scratch corpus"; \
	done; exit $$status

# What .ci/run fuzzes: the seeded, fixed-count run above (about 45 s a harness here; the time
# limit is only a backstop for a much slower machine, which gets a warning).
FUZZ_CI_SEED ?= 20261126
fuzz-ci:
	$(MAKE) fuzz FUZZ_SEED=$(FUZZ_CI_SEED) FUZZ_SECONDS=150
