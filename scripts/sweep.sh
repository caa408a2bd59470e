#!/bin/sh
# A parameter sweep in plain sh, to copy and adapt: runs `sim` once per value of one
# key and writes one CSV (the first run's header, then one row per value) to stdout.
#
#   scripts/sweep.sh CONFIG SECTION.KEY VALUE...
#   SIM_ARGS='-s run.messages=100000 --replications 5' \
#       scripts/sweep.sh configs/default.ini workload.rate 0.4 0.8 1.2 >rate.csv
#
# SIM (default bin/sim) is the binary, SIM_ARGS more options for every run.  Every
# run keeps the config's seed (common random numbers across values); `sim --sweep`
# instead derives each point's seed from its coordinates and runs points in parallel.
# A run that fails (e.g. a saturated value: exit 2) stops the loop with its status;
# the rows so far stay on stdout.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 CONFIG SECTION.KEY VALUE..." >&2
    exit 2
fi
sim=${SIM:-bin/sim}
config=$1
key=$2
shift 2
header=yes
for value in "$@"; do
    # $SIM_ARGS is split into words on purpose: it holds several options.
    # shellcheck disable=SC2086
    csv=$("$sim" -f csv --no-progress ${SIM_ARGS:-} -s "$key=$value" "$config") || {
        status=$?
        echo "$0: $key=$value failed (exit status $status)" >&2
        exit "$status"
    }
    if [ "$header" = yes ]; then
        printf '%s\n' "$csv"
        header=no
    else
        printf '%s\n' "$csv" | tail -n +2
    fi
done
