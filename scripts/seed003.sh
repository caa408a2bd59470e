#!/bin/sh
# Seed 003 (Kim & Das): runs every configs/003/*.ini once (seed 1, or $1) and prints a
# markdown table of the simulated figures the paper plots: network delay (from the
# header's first grant, the paper's t_avg), total delay, source wait, blocking
# probability of channels 0 (first corrected) and 9, acceptance (finite buffer).
# A deadlocked run is reported as such; the random wormhole (rr-inf) recovers from deadlocks and
# says how often.
set -eu
cd "$(dirname "$0")/.."
seed=${1:-1}
echo "| config | rho | network delay | 95% CI of total | total delay | source wait | P_b dim0 | P_b dim9 | P_b all | acceptance | note |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for f in configs/003/*.ini; do
    name=$(basename "$f" .ini)
    rho=${name##*-}
    status=0
    bin/sim "$f" --no-progress --seed "$seed" -f csv >build/seed003.csv 2>build/seed003.err || status=$?
    if [ "$status" -ne 0 ]; then
        echo "| $name | $rho | - | - | - | - | - | - | - | - | exit $status: $(sed 's/;.*//' build/seed003.err | head -1) |"
        continue
    fi
    sed 's/"[^"]*"/""/g' build/seed003.csv | awk -F, -v name="$name" -v rho="$rho" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        function v(k) { return (k in col) && $(col[k]) != "" ? $(col[k]) : "-" }
        { printf "| %s | %s | %s | [%s, %s] | %s | %s | %s | %s | %s | %s | %s |\n", name, rho,
              v("switching.network_delay_mean"), v("delay.ci95_low"), v("delay.ci95_high"), v("delay.mean"),
              v("switching.source_wait_mean"), v("switching.blocking_dim0"), v("switching.blocking_dim9"),
              v("switching.blocking_probability"), v("switching.acceptance_probability"),
              note() }
        function note(  s) {
            s = v("switching.saturated") == "true" ? "saturated" : ""
            if (v("switching.recoveries") != "-")
                s = s (s == "" ? "" : "; ") v("switching.recoveries") " deadlock recoveries (" \
                    v("switching.recovery_rate") " per message)"
            return s
        }'
done
