#!/bin/sh
# make test's check of `make install`: sim staged with DESTDIR, then run as a user who
# installed it would, from another directory with only the staged bin (and the system's
# tools) on PATH: the installed example scripts must find the installed sim, not the
# clone's bin/sim.  Then `make uninstall` must leave nothing behind.  Writes one
# "name: ok" or "name: FAILED ..." line per check and a last line in Check's form
# ("100%: Checks: N, Failures: F, Errors: 0") that tests/summary.sh counts.
#   tests/install.sh LOG        (from the clone's top directory, bin/sim built)
set -u
log=${1:?usage: tests/install.sh LOG}
top=$(pwd)
make=${MAKE:-make}
stage=$(mktemp -d) work=$(mktemp -d)
trap 'rm -rf "$stage" "$work"' EXIT
checks=0 failures=0
: >"$log"
check() { # name, then the command; its output goes to $work/out
    name=$1
    shift
    checks=$((checks + 1))
    if (cd "$work" && PATH="$stage/usr/bin:/usr/bin:/bin" "$@") >"$work/out" 2>&1; then
        echo "$name: ok" >>"$log"
    else
        failures=$((failures + 1))
        echo "install: $name: FAILED; its output:" | tee -a "$log"
        sed 's/^/    /' "$work/out" | tail -n 20 | tee -a "$log"
    fi
}
share=$stage/usr/share/sim
if ! "$make" --no-print-directory -s -C "$top" install DESTDIR="$stage" PREFIX=/usr >"$work/make.log" 2>&1; then
    echo "install: make install failed:" | tee -a "$log"
    tail -n 20 "$work/make.log" | tee -a "$log"
    echo "100%: Checks: 1, Failures: 1, Errors: 0" >>"$log"
    exit 1
fi
runs='-s run.messages=2000 -s run.warmup_messages=200' # short runs, for SIM_ARGS
# sim itself, from PATH
check "sim on PATH is the staged one" sh -c '[ "$(command -v sim)" = "$0/usr/bin/sim" ] && sim --version' "$stage"
check "man page and docs installed" test -f "$stage/usr/share/man/man1/sim.1" -a -f "$stage/usr/share/doc/sim/docs/manual.md"
# scripts/sweep.sh, then scripts/plot.sh on its CSV (the simulation and the model)
check "sweep.sh runs the installed sim" sh -c 'SIM_ARGS="$1" sh "$0/scripts/sweep.sh" "$0/configs/default.ini" \
    workload.rate 0.4 0.8 >rates.csv && [ "$(wc -l <rates.csv)" -eq 3 ]' "$share" "$runs"
check "plot.sh draws the sweep" sh -c 'sh "$0/scripts/plot.sh" -e delay.ci95_low,delay.ci95_high -o rates.png \
    rates.csv workload.rate delay.mean analytic.delay_mean && [ -s rates.png ]' "$share"
check "plot-run.sh draws one run" sh "$share/scripts/plot-run.sh" -s run.messages=2000 -s run.warmup_messages=200 \
    "$share/configs/kary-8x8.ini" pictures
check "plot-run.sh wrote every picture" test -s "$work/pictures/channels.png" -a -s "$work/pictures/histogram.png" \
    -a -s "$work/pictures/series.png"
check "example-trace.sh writes a trace" sh -c 'sh "$0/scripts/example-trace.sh" run "$0/configs/default.ini" t.csv \
    -s run.messages=500 -s run.warmup_messages=0 && [ -s t.csv ]' "$share"
# make uninstall: nothing of sim's left (the staging tree's bare directories may stay)
"$make" --no-print-directory -s -C "$top" uninstall DESTDIR="$stage" PREFIX=/usr >"$work/make.log" 2>&1
check "uninstall leaves no file" sh -c '[ -z "$(find "$0" -type f)" ] && [ ! -e "$0/usr/share/sim" ]' "$stage"
echo "100%: Checks: $checks, Failures: $failures, Errors: 0" >>"$log"
[ "$failures" -eq 0 ]
