# sim: discrete-event simulator of multicomputer interconnection networks.
#
#   make            build bin/sim  (./sim cannot be the binary: sim/ holds the kernel's sources)
#   make run        run configs/default.ini (installs missing dependencies first)
#   make test       layer check, tests/unit (plain and under ASan + UBSan, in parallel), installed
#                   scripts (tests/install.sh), golden outputs
#   make validate   tests/validate: long statistical and seed-reproduction runs (minutes)
#   make golden     every config's short-run output against tests/golden/fingerprints.txt
#   make manual     regenerate docs/manual.md's key reference from the key tables (bin/sim --list-markdown)
#   make fuzz       the two fuzzers (clang's libFuzzer, ASan + UBSan), FUZZ_SECONDS (600) between them
#   make mpi        bin/sim-mpi, the sweep runner over MPI ranks (needs mpicc: scripts/deps.sh mpi)
#   make bench      benchmarks (event queue, random streams, full runs)
#   make reproduce  every seed's experiments: model, simulation and published figures in reports/
#   make reproduce-NNN  one seed (000 ... 004)
#   make appendix-b seed 004's Appendix B reproduced: reports/004-appendix-b.md
#   make install    PREFIX (/usr/local) and DESTDIR honoured; make uninstall removes exactly that
#   make clean
#   make help       this list
#
# Conventions: CC, CFLAGS (default -O2 -g), CPPFLAGS and LDFLAGS are honoured by every
# build of bin/sim, bin/sim-mpi and the plain tests (the sanitised test build keeps its
# own optimisation and sanitiser flags, SAN_CFLAGS, and adds CPPFLAGS).  Every build,
# the fuzzer's too, compiles with -ffp-contract=off (FP, below) so that any compiler and
# flags give the same bytes; CI checks a clang -O3 -march=native build against the
# golden fingerprints.  Warnings are errors only when asked, WERROR=1; `make test` and
# .ci/run ask for it, so development builds stay strict while a distribution's compiler
# cannot break a release build.
# `make run`, `make test`, `make validate`... install missing Debian packages first
# (scripts/deps.sh); `make`, `make install` and any other build never do.

CC      ?= cc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
DOCDIR  ?= $(DATADIR)/doc/sim
PKG_CONFIG ?= pkg-config
INSTALL ?= install
VERSION := 0.1.0

WARN    := -Wall -Wextra $(if $(filter 1 yes,$(WERROR)),-Werror)
# -ffp-contract=off: no compiler may fuse a*b+c into one fused multiply-add (clang does
# by default wherever the target has FMA, e.g. -march=native), so every compiler and
# flag set rounds each operation as written and gives the same bytes.  In STD, which
# every build's compile lines use (bin/sim, bin/sim-mpi, tests, bench, fuzz).
FP      := -ffp-contract=off
STD     := -std=c11 -D_POSIX_C_SOURCE=200809L -DSIM_VERSION='"$(VERSION)"' $(FP)
SAN_CFLAGS ?= -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# GSL and inih ship pkg-config files; libev has none on Debian.  Evaluated when make
# starts: `make run` and `make test` start a second make once scripts/deps.sh has run.
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags gsl inih 2>/dev/null)
LIBS    := -lev -lbz2 $(or $(shell $(PKG_CONFIG) --libs gsl inih 2>/dev/null),-lgsl -lgslcblas -lm -linih) -lm
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(or $(shell $(PKG_CONFIG) --libs check 2>/dev/null),-lcheck -lsubunit -lrt -lm -pthread)
REL_CFLAGS = $(STD) $(PKG_CFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS)
SAN_ALL_CFLAGS = $(STD) $(PKG_CFLAGS) $(CPPFLAGS) $(WARN) $(SAN_CFLAGS)
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

.PHONY: all help deps test-deps mpi run test test-plain test-san test-san-1 test-san-2 golden validate fuzz fuzz-deps bench appendix-b reproduce $(REPRODUCE) install uninstall manual clean FORCE

all: bin/sim

# The list at the top of this file.
help:
	@sed -n 's/^#   \(make .*\)/\1/p' $(firstword $(MAKEFILE_LIST))

deps:
	@sh scripts/deps.sh

fuzz-deps:
	@sh scripts/deps.sh -q fuzz

# tests/unit/test_observe.c draws every picture of scripts/plot-run.sh: gnuplot.
test-deps:
	@sh scripts/deps.sh -q plot

# Each build's objects are rebuilt when the flags that shape its code change (CC,
# CFLAGS, CPPFLAGS, LDFLAGS...; not WERROR, which changes no object): build/*/flags
# holds the last command line and is rewritten only when it differs.
quote = '$(subst ','\'',$(1))'
flags_rel = $(CC) $(filter-out -Werror,$(REL_CFLAGS)) $(CHECK_CFLAGS) / $(LDFLAGS) $(LIBS)
flags_san = $(CC) $(filter-out -Werror,$(SAN_ALL_CFLAGS)) $(CHECK_CFLAGS) / $(LIBS)
flags_mpi = $(MPICC) $(filter-out -Werror,$(REL_CFLAGS)) / $(LDFLAGS) $(LIBS)
build/rel/flags build/san/flags build/mpi/flags: build/%/flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call quote,$(flags_$*)) | cmp -s - $@ 2>/dev/null || printf '%s\n' $(call quote,$(flags_$*)) >$@
FORCE:

bin/sim: $(call obj,rel,$(LIB_SRC) sim/cli/main.c) build/rel/flags
	@mkdir -p bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIBS)

mpi: bin/sim-mpi

# Only the entry point and the MPI runner differ; the rest is the plain build's objects.
# libev is linked statically here: its shared library also exports libevent's API
# (event_add, ...), which would capture Open MPI's own calls to libevent and crash it.
bin/sim-mpi: $(call obj,rel,$(LIB_SRC)) build/mpi/sim/cli/main.o build/mpi/sim/cli/sweep_mpi.o build/mpi/flags
	@mkdir -p bin
	$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(subst -lev,-Wl$(comma)-Bstatic -lev -Wl$(comma)-Bdynamic,$(LIBS))

build/mpi/%.o: %.c $(HEADERS) build/mpi/flags
	@mkdir -p $(dir $@)
	$(MPICC) $(REL_CFLAGS) -DSIM_MPI -c -o $@ $<

build/rel/%.o: %.c $(HEADERS) build/rel/flags
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) -c -o $@ $<

build/san/%.o: %.c $(HEADERS) build/san/flags
	@mkdir -p $(dir $@)
	$(CC) $(SAN_ALL_CFLAGS) -c -o $@ $<

# Test objects also depend on the shared test headers (the shorter stem wins over the rules above).
build/rel/tests/%.o: tests/%.c $(HEADERS) $(TEST_HDR) build/rel/flags
	@mkdir -p $(dir $@)
	$(CC) $(REL_CFLAGS) $(CHECK_CFLAGS) -c -o $@ $<

build/san/tests/%.o: tests/%.c $(HEADERS) $(TEST_HDR) build/san/flags
	@mkdir -p $(dir $@)
	$(CC) $(SAN_ALL_CFLAGS) $(CHECK_CFLAGS) -c -o $@ $<

build/san/bin/sim: $(call obj,san,$(LIB_SRC) sim/cli/main.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -o $@ $^ $(LIBS)

build/rel/tests/unit/run: $(call obj,rel,$(LIB_SRC) $(UNIT_SRC))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(CHECK_LIBS)

build/san/tests/unit/run: $(call obj,san,$(LIB_SRC) $(UNIT_SRC))
	$(CC) $(SAN_CFLAGS) -o $@ $^ $(LIBS) $(CHECK_LIBS)

build/rel/tests/validate/run: $(call obj,rel,$(LIB_SRC) $(VALIDATE_SRC))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(CHECK_LIBS)

build/rel/bench/%: build/rel/bench/%.o $(call obj,rel,$(LIB_SRC))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

run: deps
	@$(MAKE) --no-print-directory bin/sim
	bin/sim configs/default.ini

# The plain run and the sanitised run (in two halves: it is the slower) build and run
# side by side on the 2 cores.  What is shown: each suite's name as it starts, any
# failure, and one last line, "N passed, N failed" (tests/summary.sh); everything else
# (build commands, the models' figures the tests print) is in build/test.log and in
# each runner's stderr log.  No check measures wall time (speed targets are in make bench).
# Warnings fail `make test` unless WERROR is given (WERROR=0 to relax it).
TEST_WERROR := $(if $(filter undefined,$(origin WERROR)),1,$(WERROR))
test: test-deps
	@mkdir -p build; rm -f build/test.status build/rel/tests/golden.log build/rel/tests/install.log; \
	{ $(MAKE) --no-print-directory -k -j3 WERROR=$(TEST_WERROR) test-plain test-san-1 test-san-2 2>&1; \
	  echo $$? >build/test.status; } | tee build/test.log | grep --line-buffered -vE '^($(CC)|$(MPICC)) '; \
	sh tests/summary.sh build/rel/tests/golden.log build/rel/tests/unit.log build/rel/tests/install.log \
	    build/san/tests/unit-1.log build/san/tests/unit-2.log; \
	exit $$(cat build/test.status)

test-plain: bin/sim build/rel/tests/unit/run $(if $(HAVE_MPI),bin/sim-mpi)
	@sh scripts/check-layers.sh
	@rm -f build/rel/tests/unit.log
	@SIM_BINARY=bin/sim $(MPI_TEST_ENV) CK_LOG_FILE_NAME=build/rel/tests/unit.log \
	    sh tests/run-suite.sh plain build/rel/tests/unit.err build/rel/tests/unit/run
	@st=0; sh tests/install.sh build/rel/tests/install.log || st=1; \
	    sh tests/golden/fingerprint.sh bin/sim --check >build/rel/tests/golden.log 2>&1 || st=1; \
	    cat build/rel/tests/golden.log; exit $$st

# Every config's short-run, --analytic and --describe output, hashed (tests/golden/).
golden: bin/sim
	sh tests/golden/fingerprint.sh bin/sim --check

# CK_FORK=no: one process per half, so LeakSanitizer scans once at exit instead of after
# every forked test (measured: the whole sanitised run took 507 s of CPU forked, 125 s in
# one process).  A crash stops that half, with ASan's report naming the place.
test-san: test-san-1 test-san-2

test-san-1 test-san-2: test-san-%: build/san/bin/sim build/san/tests/unit/run
	@rm -f build/san/tests/unit-$*.log
	@SIM_BINARY=build/san/bin/sim ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 CK_FORK=no \
	    CK_LOG_FILE_NAME=build/san/tests/unit-$*.log \
	    sh tests/run-suite.sh sanitised-$* build/san/tests/unit-$*.err build/san/tests/unit/run --shard $*/2

# Two harnesses share the budget: fuzz_config (configurations and -s overrides, two thirds
# of it) and fuzz_inputs (traces and --sweep specs, the rest).  The corpora libFuzzer
# grows go to build/fuzz/corpus and build/fuzz/corpus-inputs; tests/fuzz/corpus and
# tests/fuzz/corpus-inputs keep the interesting inputs found so far, configs/ seeds the
# rest.  Every seed runs in well under a second (the harness bounds the runs), so the
# 10 s timeout is a hang's.  A finding stops the run with the input that triggered it in
# build/fuzz/ (crash-*, leak-*, timeout-*).
FUZZ_CONFIG_SECONDS = $(shell echo $$(( $(FUZZ_SECONDS) * 2 / 3 )))
FUZZ_INPUTS_SECONDS = $(shell echo $$(( $(FUZZ_SECONDS) - $(FUZZ_SECONDS) * 2 / 3 )))
fuzz: fuzz-deps bin/sim build/fuzz/fuzz_config build/fuzz/fuzz_inputs
	@mkdir -p build/fuzz/corpus build/fuzz/corpus-inputs
	bin/sim --list | awk '/^\[/ { s = substr($$0, 2, length($$0) - 2); print "\"[" s "]\"" } \
	    /^  [a-z]/ { print "\"" $$1 " = \""; print "\"" s "." $$1 "=\"" } \
	    /^      [a-z]/ { print "\"" $$1 "\"" }' | sort -u >build/fuzz/config.dict
	{ grep '=\"$$' build/fuzz/config.dict; printf '%s\n' '"time,source,destination,length"' '"\x0d"' '"\x00"' \
	    '"\xef\xbb\xbf"' '":"' '","' '"#"' '"1e300"'; } >build/fuzz/inputs.dict
	build/fuzz/fuzz_config -max_total_time=$(FUZZ_CONFIG_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -dict=build/fuzz/config.dict -artifact_prefix=build/fuzz/ \
	    build/fuzz/corpus tests/fuzz/corpus $(sort $(dir $(wildcard configs/*.ini configs/*/*.ini)))
	build/fuzz/fuzz_inputs -max_total_time=$(FUZZ_INPUTS_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -dict=build/fuzz/inputs.dict -artifact_prefix=build/fuzz/ \
	    build/fuzz/corpus-inputs tests/fuzz/corpus-inputs

build/fuzz/%.o: %.c $(HEADERS) $(TEST_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(STD) $(PKG_CFLAGS) $(WARN) $(FUZZ) -c -o $@ $<

build/fuzz/fuzz_config build/fuzz/fuzz_inputs: build/fuzz/%: $(call obj,fuzz,$(LIB_SRC)) build/fuzz/tests/fuzz/%.o
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
	@scripts/deps.sh -q plot
	sh scripts/$@.sh

# docs/manual.md's key reference is bin/sim --list-markdown, spliced between its two
# markers; make test fails while it is out of date (tests/unit/test_params.c).
manual: bin/sim
	@mkdir -p build
	bin/sim --list-markdown >build/key-reference.md
	awk 'FNR == NR { keys = keys $$0 "\n"; next } /^<!-- end of the key reference/ { skip = 0 } \
	    !skip { print } /^<!-- key reference:/ { printf "%s", keys; skip = 1 }' \
	    build/key-reference.md docs/manual.md >docs/manual.md.tmp
	mv docs/manual.md.tmp docs/manual.md

# make install: the binaries, the man page, the documentation, every config (seed
# folders too) and the scripts as examples; make uninstall removes exactly those files
# and the directories that are sim's own.  Neither builds with other flags nor installs
# packages: `make && make install` (or `make mpi` first for bin/sim-mpi).
SHARE_DIR := $(DATADIR)/sim
CONFIG_FILES := $(sort $(wildcard configs/*.ini configs/*/*.ini configs/*/*.csv configs/*/*.tr.bz2))
CONFIG_DIRS := $(sort $(patsubst %/,%,$(dir $(CONFIG_FILES))))
# The scripts that work outside the clone (the reproductions write the clone's reports/).
EXAMPLE_SCRIPTS := scripts/sweep.sh scripts/plot.sh scripts/plot-run.sh scripts/example-trace.sh
INSTALLED_MPI := $(wildcard bin/sim-mpi)

install: bin/sim
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)/docs \
	    $(DESTDIR)$(SHARE_DIR)/scripts $(addprefix $(DESTDIR)$(SHARE_DIR)/,$(CONFIG_DIRS))
	$(INSTALL) -m 755 bin/sim $(INSTALLED_MPI) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 sim.1 $(DESTDIR)$(MANDIR)/man1/sim.1
	$(INSTALL) -m 644 README.md LICENSE $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 $(wildcard docs/*.md) $(DESTDIR)$(DOCDIR)/docs/
	$(INSTALL) -m 755 $(EXAMPLE_SCRIPTS) $(DESTDIR)$(SHARE_DIR)/scripts/
	@echo "$(INSTALL) -m 644 configs/... $(DESTDIR)$(SHARE_DIR)/configs/ ($(words $(CONFIG_FILES)) files)"
	@$(foreach d,$(CONFIG_DIRS),$(INSTALL) -m 644 $(wildcard $(d)/*.ini $(d)/*.csv $(d)/*.tr.bz2) $(DESTDIR)$(SHARE_DIR)/$(d)/ &&) true

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sim $(DESTDIR)$(BINDIR)/sim-mpi $(DESTDIR)$(MANDIR)/man1/sim.1
	rm -f $(DESTDIR)$(DOCDIR)/README.md $(DESTDIR)$(DOCDIR)/LICENSE
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/docs/,$(notdir $(wildcard docs/*.md)))
	rm -f $(addprefix $(DESTDIR)$(SHARE_DIR)/scripts/,$(notdir $(EXAMPLE_SCRIPTS)))
	@echo "rm -f $(DESTDIR)$(SHARE_DIR)/configs/... ($(words $(CONFIG_FILES)) files)"
	@rm -f $(addprefix $(DESTDIR)$(SHARE_DIR)/,$(CONFIG_FILES))
	rmdir $(addprefix $(DESTDIR)$(SHARE_DIR)/,$(filter-out configs,$(CONFIG_DIRS))) 2>/dev/null || true
	rmdir $(DESTDIR)$(SHARE_DIR)/configs $(DESTDIR)$(SHARE_DIR)/scripts $(DESTDIR)$(SHARE_DIR) \
	    $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null || true

clean:
	rm -rf build bin
