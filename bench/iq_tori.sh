#!/bin/sh
# make bench: the input-queued router (routing.router = iq, configs/iq/torus-8x8.ini's
# settings: 2 dateline VCs of 8 flits, 2-cycle links, 4-flit packets, uniform traffic
# with self-addressed packets, Bernoulli injection) on three tori at a load well under
# saturation: delivered packets per CPU-second (user + system time of the whole
# process, set-up included) and peak RSS, from /usr/bin/time.
# Target (8x8 at 0.1 flits/node/cycle): >= 1e6 packets per CPU-second on one core.
# usage: bench/iq_tori.sh [MESSAGES]   (default 1000000 measured packets per torus)
set -eu
cd "$(dirname "$0")/.."
messages=${1:-1000000}
warmup=20000
printf '%-10s %-6s %-10s %-10s %-12s %-10s %s\n' torus load packets cpu_s packets/cpu_s peak_MB latency
for spec in "8 2 0.1" "32 2 0.025" "16 3 0.05"; do
    set -- $spec
    /usr/bin/time -f '%U %S %M' -o build/bench_iq.time bin/sim configs/iq/torus-8x8.ini --no-progress -f csv \
        -s network.radix="$1" -s network.dimension="$2" -s workload.rate="$3" -s run.messages="$messages" \
        -s run.warmup_messages="$warmup" >build/bench_iq.csv
    latency=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "delay.mean") c = i } NR == 2 { print $c }' \
        build/bench_iq.csv)
    read -r user sys kb <build/bench_iq.time
    awk -v k="$1" -v n="$2" -v load="$3" -v p="$((messages + warmup))" -v u="$user" -v s="$sys" -v kb="$kb" \
        -v lat="$latency" 'BEGIN {
        name = k; for (i = 1; i < n; i++) name = name "x" k
        printf "%-10s %-6s %-10d %-10.2f %-12.3g %-10.1f %.2f\n", name, load, p, u + s, p / (u + s), kb / 1024, lat }'
done
