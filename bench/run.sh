#!/bin/sh
# make bench: (a) hold model of the bare event queue, (b) the default config at 10
# dimensions through the whole simulator, the ratio (b)/(a) per event, and the random
# stream comparison, describing the largest networks, and seed 004's Appendix B.  Targets: (a) >= 1e7
# events/s at Q=8192; (b) within 2x of (a); describe < 2 s and < 1 GiB; Appendix B
# (141 rows, 5 replications) < 2 min on one core; wormhole torus >= 1e6 delivered packets/s.
set -eu
cd "$(dirname "$0")/.."
echo "== (a) event queue, hold model"
build/rel/bench/bench_queue | tee build/bench_queue.txt
echo
echo "== (b) default config, hypercube of dimension 10 (1024 nodes, 10240 channels)"
bin/sim configs/default.ini -s network.dimension=10 -s run.messages=2000000 --no-progress -f json >build/bench_b.json
python_free_field() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" build/bench_b.json | head -1; }
events=$(python_free_field events)
eps=$(python_free_field events_per_second)
wall=$(python_free_field wall_seconds)
created=$(python_free_field messages_created)
awk -v e="$events" -v r="$eps" -v w="$wall" -v m="$created" 'BEGIN {
    printf "%d events in %.3f s: %.3g events/s, %.3g messages/s (%.2f events per message)\n", e, w, r, m / w, e / m }'
hold=$(sed -n 's/^hold Q=8192 *\([0-9.e+]*\) events.*/\1/p' build/bench_queue.txt)
awk -v b="$eps" -v a="$hold" 'BEGIN {
    printf "ratio (b)/(a) per event: %.2f  (target >= 0.5, i.e. within 2x of the bare queue at Q=8192)\n", b / a }'
echo
echo "== wormhole: 8-ary 2-cube torus, dimension order, 2 VCs, 4-flit packets, 0.1 flits/node/cycle"
bin/sim bench/wormhole-torus.ini --no-progress -f json >build/bench_wormhole.json
wh_field() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" build/bench_wormhole.json | head -1; }
awk -v n="$(wh_field count)" -v w="$(wh_field warmup_messages)" -v s="$(wh_field wall_seconds)" 'BEGIN {
    printf "%d packets delivered in %.3f s: %.3g packets/s (target >= 1e6)\n", n + w, s, (n + w) / s }'
echo
echo "== random streams: ours against GSL"
build/rel/bench/bench_rng
echo
echo "== building and describing the largest networks"
build/rel/bench/bench_describe
echo
echo "== seed 004: every Appendix B and Table 5.1/5.2 row (141 configs), 5 replications each, one core"
start=$(date +%s.%N)
scripts/appendix-b.sh 5 >build/appendix-b-5.md
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v n="$(grep -c '^| [bt]' build/appendix-b-5.md)" 'BEGIN {
    printf "%d rows x 5 replications in %.1f s (target < 120 s)\n", n, e - s }'
