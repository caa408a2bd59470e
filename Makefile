# sim: discrete-event simulator of multicomputer interconnection networks.
#
#   make            build bin/sim  (./sim cannot be the binary: sim/ holds the kernel's sources)
#   make run        run configs/default.ini (installs missing dependencies first)
#   make test       layer check, tests/unit (plain and under ASan + UBSan, in parallel), golden outputs
#   make validate   tests/validate: long statistical and seed-reproduction runs (minutes)
#   make golden     every config's short-run output against tests/golden/fingerprints.txt
#   make fuzz       the config fuzzer (clang's libFuzzer, ASan + UBSan) for FUZZ_SECONDS (600)
#   make mpi        bin/sim-mpi, the sweep runner over MPI ranks (needs mpicc: scripts/deps.sh mpi)
#   make bench      benchmarks (event queue, random streams, full runs)
#   make reproduce every seed's experiments: model, simulation and published figures in reports/
#   make reproduce-NNN  one seed (000 ... 004)
#   make appendix-b seed 004's Appendix B reproduced: reports/004-appendix-b.md
#   make reproduce-002  seed 002's figures and printed numbers: reports/002-*
#   make install PREFIX=/usr/local
#   make clean

CC      ?= cc
PREFIX  ?= /usr/local
VERSION := 0.1.0

WARN    := -Wall -Wextra -Werror
STD     := -std=c11 -D_POSIX_C_SOURCE=200809L -DSIM_VERSION='"$(VERSION)"'
OPT     := -O2 -g
SAN     := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LIBS    := -lev -linih -lgsl -lgslcblas -lm
CHECK_LIBS = $$(pkg-config --libs check)
MPICC   ?= mpicc
# The MPI sweep test runs only where mpicc is installed (.ci/run installs it).
HAVE_MPI := $(shell command -v $(MPICC) >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 && echo yes)
MPI_TEST_ENV = $(if $(HAVE_MPI),SIM_MPI_BINARY=bin/sim-mpi SIM_MPIRUN=$$(command -v mpirun))

# sim/ is layered (sim/core, config, run, report, cli): docs/architecture.md says who may include whom.
MODULES := sim/core sim/config sim/run sim/report sim/cli topo routing protocols workloads analytic
LIB_SRC := $(filter-out sim/cli/main.c sim/cli/sweep_mpi.c,$(foreach m,$(MODULES),$(wildcard $(m)/*.c)))
HEADERS := $(foreach m,$(MODULES),$(wildcard $(m)/*.h))
# tests/common: helpers and check bodies shared by both runners; tests/unit: fast,
# deterministic checks (make test); tests/validate: long statistical runs (make validate).
TEST_COMMON := $(wildcard tests/common/*.c)
TEST_HDR := $(wildcard tests/common/*.h)
UNIT_SRC := $(TEST_COMMON) $(wildcard tests/unit/*.c)
VALIDATE_SRC := $(TEST_COMMON) $(wildcard tests/validate/*.c)
BENCH_SRC := $(wildcard bench/*.c)
# make fuzz: clang with libFuzzer, the sanitisers and the same warnings.
FUZZ_CC ?= clang
FUZZ    := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_SECONDS ?= 600

comma := ,
obj = $(patsubst %.c,build/$(1)/%.o,$(2))

REPRODUCE := $(sort $(patsubst scripts/reproduce-%.sh,reproduce-%,$(wildcard scripts/reproduce-*.sh)))

.PHONY: all deps mpi run test test-plain test-san test-san-1 test-san-2 golden validate fuzz fuzz-deps bench appendix-b reproduce $(REPRODUCE) install clean

all: bin/sim

deps:
	@sh scripts/deps.sh

fuzz-deps:
	@sh scripts/deps.sh fuzz

bin/sim: $(call obj,rel,$(LIB_SRC) sim/cli/main.c)
	@mkdir -p bin
	$(CC) $(OPT) -o $@ $^ $(LIBS)

mpi: bin/sim-mpi

# Only the entry point and the MPI runner differ; the rest is the plain build's objects.
# libev is linked statically here: its shared library also exports libevent's API
# (event_add, ...), which would capture Open MPI's own calls to libevent and crash it.
bin/sim-mpi: $(call obj,rel,$(LIB_SRC)) build/mpi/sim/cli/main.o build/mpi/sim/cli/sweep_mpi.o
	@mkdir -p bin
	$(MPICC) $(OPT) -o $@ $^ $(subst -lev,-Wl$(comma)-Bstatic -lev -Wl$(comma)-Bdynamic,$(LIBS))

build/mpi/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(MPICC) $(STD) -DSIM_MPI $(WARN) $(OPT) -c -o $@ $<

build/rel/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(OPT) -c -o $@ $<

build/san/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(SAN) -c -o $@ $<

# Test objects also depend on the shared test headers (the shorter stem wins over the rules above).
build/rel/tests/%.o: tests/%.c $(HEADERS) $(TEST_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(OPT) -c -o $@ $<

build/san/tests/%.o: tests/%.c $(HEADERS) $(TEST_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(SAN) -c -o $@ $<

build/san/bin/sim: $(call obj,san,$(LIB_SRC) sim/cli/main.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(LIBS)

build/rel/tests/unit/run: $(call obj,rel,$(LIB_SRC) $(UNIT_SRC))
	$(CC) $(OPT) -o $@ $^ $(LIBS) $(CHECK_LIBS)

build/san/tests/unit/run: $(call obj,san,$(LIB_SRC) $(UNIT_SRC))
	$(CC) $(SAN) -o $@ $^ $(LIBS) $(CHECK_LIBS)

build/rel/tests/validate/run: $(call obj,rel,$(LIB_SRC) $(VALIDATE_SRC))
	$(CC) $(OPT) -o $@ $^ $(LIBS) $(CHECK_LIBS)

build/rel/bench/%: build/rel/bench/%.o $(call obj,rel,$(LIB_SRC))
	$(CC) $(OPT) -o $@ $^ $(LIBS)

run: deps
	@$(MAKE) --no-print-directory bin/sim
	bin/sim configs/default.ini

# The plain run and the sanitised run (in two halves: it is the slower) build and run
# side by side on the 2 cores; each target's output is printed whole when it ends
# (--output-sync), each Check run also writes its log to build/, and the last line sums
# them up.  No check measures wall time (speed targets are in make bench).
test: deps
	@st=0; $(MAKE) --no-print-directory -k -j3 --output-sync=target test-plain test-san-1 test-san-2 || st=$$?; \
	    sh tests/summary.sh build/rel/tests/unit.log build/san/tests/unit-1.log build/san/tests/unit-2.log; \
	    exit $$st

test-plain: bin/sim build/rel/tests/unit/run $(if $(HAVE_MPI),bin/sim-mpi)
	sh scripts/check-layers.sh
	@rm -f build/rel/tests/unit.log
	SIM_BINARY=bin/sim $(MPI_TEST_ENV) CK_LOG_FILE_NAME=build/rel/tests/unit.log build/rel/tests/unit/run
	sh tests/golden/fingerprint.sh bin/sim --check

# Every config's short-run, --analytic and --describe output, hashed (tests/golden/).
golden: bin/sim
	sh tests/golden/fingerprint.sh bin/sim --check

# CK_FORK=no: one process per half, so LeakSanitizer scans once at exit instead of after
# every forked test (measured: the whole sanitised run took 507 s of CPU forked, 125 s in
# one process).  A crash stops that half, with ASan's report naming the place.
test-san: test-san-1 test-san-2

test-san-1 test-san-2: test-san-%: build/san/bin/sim build/san/tests/unit/run
	@rm -f build/san/tests/unit-$*.log
	SIM_BINARY=build/san/bin/sim ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 CK_FORK=no \
	    CK_LOG_FILE_NAME=build/san/tests/unit-$*.log build/san/tests/unit/run --shard $*/2

# The corpus libFuzzer grows goes to build/fuzz/corpus; tests/fuzz/corpus keeps the
# interesting inputs found so far, configs/ seeds the rest.  A finding stops the run
# with the input that triggered it in build/fuzz/ (crash-*, leak-*, timeout-*).
fuzz: fuzz-deps bin/sim build/fuzz/fuzz_config
	@mkdir -p build/fuzz/corpus
	bin/sim --list | awk '/^\[/ { s = substr($$0, 2, length($$0) - 2); print "\"[" s "]\"" } \
	    /^  [a-z]/ { print "\"" $$1 " = \""; print "\"" s "." $$1 "=\"" } \
	    /^      [a-z]/ { print "\"" $$1 "\"" }' | sort -u >build/fuzz/config.dict
	build/fuzz/fuzz_config -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -dict=build/fuzz/config.dict -artifact_prefix=build/fuzz/ \
	    build/fuzz/corpus tests/fuzz/corpus $(sort $(dir $(wildcard configs/*.ini configs/*/*.ini)))

build/fuzz/%.o: %.c $(HEADERS) $(TEST_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(STD) $(WARN) $(FUZZ) -c -o $@ $<

build/fuzz/fuzz_config: $(call obj,fuzz,$(LIB_SRC) tests/fuzz/fuzz_config.c)
	$(FUZZ_CC) $(FUZZ) -fsanitize=fuzzer -o $@ $^ $(LIBS)

validate: deps
	@$(MAKE) --no-print-directory bin/sim build/rel/tests/validate/run
	SIM_BINARY=bin/sim CK_LOG_FILE_NAME=build/rel/tests/validate.log build/rel/tests/validate/run

bench: deps
	@$(MAKE) --no-print-directory bin/sim $(patsubst %.c,build/rel/%,$(BENCH_SRC)) $(if $(HAVE_MPI),bin/sim-mpi)
	sh bench/run.sh

# Seed 004's simulation results, 50 replications per row, as a markdown table.
appendix-b: deps bin/sim
	mkdir -p reports
	scripts/appendix-b.sh 50 >reports/004-appendix-b.md.tmp
	mv reports/004-appendix-b.md.tmp reports/004-appendix-b.md

# Each seed's reproduction: scripts/reproduce-NNN.sh writes reports/NNN-*.md and *.png.
reproduce: $(REPRODUCE)

reproduce-004: appendix-b
$(REPRODUCE): deps bin/sim
	@scripts/deps.sh plot
	sh scripts/$@.sh

install: bin/sim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/sim/configs
	install -m 755 bin/sim $(DESTDIR)$(PREFIX)/bin/sim
	install -m 644 configs/*.ini $(DESTDIR)$(PREFIX)/share/sim/configs/

clean:
	rm -rf build bin
