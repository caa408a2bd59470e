#!/bin/sh
# Store-and-forward scaling: us per delivered message and ns per event by hypercube
# dimension, in steady state at rho ~ 0.5 (configs/default.ini, workload.rate = 1.0,
# time mode), with the same number of messages at every dimension.
#   bench/saf_scaling.sh [DIMENSIONS...]     default: 6 8 10 12 14 16 18 20
# SIM names the binary (default bin/sim), to compare two builds.
# Per dimension d (N = 2^d nodes) two runs share a warm-up of W = 2d time units (about
# twice the mean delay: the network has mostly filled, a 20-cube to 87% of its
# steady-state memory; five mean delays, the simulator's rule for unbiased delays, made
# the warm-up 96% of a 20-cube's run, and the difference below drowned in the noise of
# a shared machine) and measure windows of D and 3D,
# D = MESSAGES / N (MESSAGES = 2^21 unless set in the environment): 2 MESSAGES between
# them, at least a fifth of the longer run even at 20 dimensions, so that noise in
# the warm-up's CPU time does not swamp the difference.  The cost per message
# is the difference of their CPU times (user + system, /usr/bin/time) over the difference
# of their created messages: the warm-up and the set-up cancel, so it is the marginal,
# steady-state cost; ns per event likewise.  Peak RSS is the longer run's.  CPU time,
# not wall time: the machine may be shared.
set -eu
cd "$(dirname "$0")/.."
dims=${*:-6 8 10 12 14 16 18 20}
messages=${MESSAGES:-2097152}
sim=${SIM:-bin/sim}
field() { sed -n "s/^  \"$1\": \([0-9.e+-]*\).*/\1/p" "$2" | head -1; }
events_of() { sed -n 's/.*"events": \([0-9]*\).*/\1/p' "$1" | head -1; }
# Runs sim, leaves its JSON in $out.json and "cpu_seconds peak_kb" in $out.time.
run() { # out, warmup, duration, dimension
    /usr/bin/time -f "%U %S %M" -o "$1.rusage" "$sim" configs/default.ini -s network.dimension="$4" \
        -s workload.rate=1.0 -s run.warmup_time="$2" -s run.duration="$3" --no-progress -f json >"$1.json"
    awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$1.rusage" >"$1.time"
}
printf '%-9s %9s %12s %12s %12s %10s\n' dimension nodes messages "us/message" "ns/event" "peak RSS"
for d in $dims; do
    n=$((1 << d))
    w=$((2 * d))
    dur=$(awk -v m="$messages" -v n="$n" 'BEGIN { printf "%.6g", m / n }')
    dur2=$(awk -v m="$messages" -v n="$n" 'BEGIN { printf "%.6g", 3 * m / n }')
    run build/saf_scale_a "$w" "$dur" "$d"
    run build/saf_scale_b "$w" "$dur2" "$d"
    awk -v ca="$(cut -d' ' -f1 build/saf_scale_a.time)" -v cb="$(cut -d' ' -f1 build/saf_scale_b.time)" \
        -v ma="$(field messages_created build/saf_scale_a.json)" -v mb="$(field messages_created build/saf_scale_b.json)" \
        -v ea="$(events_of build/saf_scale_a.json)" -v eb="$(events_of build/saf_scale_b.json)" \
        -v kb="$(cut -d' ' -f2 build/saf_scale_b.time)" -v d="$d" -v n="$n" 'BEGIN {
        printf "%-9d %9d %12d %12.3f %12.1f %7.0f MB\n", d, n, mb - ma, 1e6 * (cb - ca) / (mb - ma),
            1e9 * (cb - ca) / (eb - ea), kb / 1024 }'
done
