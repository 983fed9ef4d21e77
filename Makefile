# The two commands of the quick start are `make run` and `make test`; the rest are steps of them.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
# Tests at once in make test: twice the CPUs, since most of a test's time is waiting for
# servers and clusters to start or for a server's state to move (docs/testing.md).
TEST_JOBS ?= $(shell echo $$(( $$(nproc) * 2 )))
ARGS ?=
# One clang build with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage
# serves `make sanitize` (every test) and `make fuzz` (every fuzz driver).
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_JOBS ?= $(JOBS)
# The first report ends the process (-fno-sanitize-recover=all stops UBSan in the build).
SANITIZER_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

.PHONY: all deps configure build run test soak bench load clean fuzz-configure sanitize fuzz deb

all: build

deps:
	@tools/install-deps

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -Wno-dev > $(BUILD_DIR).configure.log 2>&1 \
	  || { cat $(BUILD_DIR).configure.log; exit 1; }

build: configure
	@cmake --build $(BUILD_DIR) --target programs -j$(JOBS)

run: build
	$(BUILD_DIR)/decisiond $(ARGS)

# Tests run TEST_JOBS at a time: each starts its own servers on free ports in its own
# folders. The few that measure rates, latency or memory under load are RUN_SERIAL and run
# alone.
test: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS)
	@cd $(BUILD_DIR) && ctest --output-on-failure --timeout 300 -j$(TEST_JOBS) --output-junit ctest-results.xml

# The cluster soak (docs/testing.md "The cluster soak"): SECONDS of traffic under random
# faults, seeded by SEED (default: the clock; the seed is printed first, so a failing run
# replays with SEED=<it>). make test runs it for 20 s.
SOAK_SECONDS = $(if $(SECONDS),$(SECONDS),120)
soak: configure
	@cmake --build $(BUILD_DIR) --target decisiond decisiond_cluster_soak -j$(JOBS)
	@DECISIOND_SOAK_SECONDS=$(SOAK_SECONDS) DECISIOND_SOAK_SEED=$(SEED) \
	  $(BUILD_DIR)/tests/integration/cluster/decisiond_cluster_soak

# The Debian package (packaging/): the Release programs, staged and packed by dpkg-deb into
# $(BUILD_DIR)/decisiond_<version>_<arch>.deb, then lintian (an error or a warning fails).
deb: configure
	@cmake --build $(BUILD_DIR) --target decisiond decisiond-keys decisiond-events decisiond-cel decisiond-catalog -j$(JOBS)
	@deb=$$(packaging/build-deb $(BUILD_DIR) $(BUILD_DIR)) && packaging/lint-deb "$$deb" && echo "make deb: $$deb"

bench: configure
	@cmake --build $(BUILD_DIR) --target decisiond decisiond_bench decisiond_perf_fixtures decisiond_cross_core_latency decisiond_jetstream_floor decisiond_overload_client -j$(JOBS)
	$(BUILD_DIR)/perf/decisiond_bench
	perf/load.sh

fuzz-configure: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
	  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DDECISIOND_FUZZ=ON -Wno-dev > $(FUZZ_BUILD_DIR).configure.log 2>&1 \
	  || { cat $(FUZZ_BUILD_DIR).configure.log; exit 1; }

# Every test under ASan and UBSan (docs/testing.md): unit and replay tests side by side,
# then the integration and conformance tests one at a time, as make test runs them.
SERIAL_LABELS = integration|conformance
sanitize: fuzz-configure
	@cmake --build $(FUZZ_BUILD_DIR) -j$(JOBS)
	@cd $(FUZZ_BUILD_DIR) && $(SANITIZER_ENV) ctest --output-on-failure --timeout 600 -j$(JOBS) -LE '$(SERIAL_LABELS)' \
	  --output-junit ctest-results-parallel.xml
	@cd $(FUZZ_BUILD_DIR) && $(SANITIZER_ENV) ctest --output-on-failure --timeout 600 -L '$(SERIAL_LABELS)' \
	  --output-junit ctest-results-serial.xml

# Every fuzz driver for FUZZ_SECONDS, FUZZ_JOBS at a time, one core each (tools/run-fuzz).
fuzz: fuzz-configure
	@cmake --build $(FUZZ_BUILD_DIR) --target fuzz_drivers -j$(JOBS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) tools/run-fuzz $(FUZZ_BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
