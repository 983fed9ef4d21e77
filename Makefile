# The two commands of the quick start are `make run` and `make test`; the rest are steps of them.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
ARGS ?=

.PHONY: all deps configure build run test bench load clean

all: build

deps:
	@tools/install-deps

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -Wno-dev > $(BUILD_DIR).configure.log 2>&1 \
	  || { cat $(BUILD_DIR).configure.log; exit 1; }

build: configure
	@cmake --build $(BUILD_DIR) --target decisiond -j$(JOBS)

run: build
	$(BUILD_DIR)/decisiond $(ARGS)

test: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS)
	@cd $(BUILD_DIR) && ctest --output-on-failure --timeout 300

bench: configure
	@cmake --build $(BUILD_DIR) --target decisiond decisiond_bench decisiond_perf_fixtures decisiond_cross_core_latency -j$(JOBS)
	$(BUILD_DIR)/perf/decisiond_bench
	perf/load.sh

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
