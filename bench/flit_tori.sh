#!/bin/sh
# make bench: the flit engines' scaling tables (issue 18), for routing.router = simple
# (the default) or iq, from bench/wormhole-torus.ini (dimension order, 2 dateline VCs,
# 4 flit buffers, 4-flit packets, uniform traffic, Poisson arrivals):
#  (1) packets per CPU-second with router delay 4 and 2-cycle links, on 8x8 at 0.1
#      flits/node/cycle, 16x16x16 at 0.05 and 32x32 at 0.025.  Targets (simple):
#      >= 2e6, >= 5e5, >= 6e5.
#  (2) ns of CPU per packet-hop with router delay 0 and 1-cycle links at 0.02
#      flits/node/cycle on 8x8, 16x16, 32x32 and 64x64.  Target: 64x64 within 1.2x of 8x8.
#  (3) simple router only: the same cost on 8x8 and 64x64 at 20, 40, 60 and 80% of each
#      one's saturation, taken as the midpoint between the highest offered load whose
#      mean delay does not grow with the run length and the lowest one whose does (8x8:
#      400,000 and 1,600,000 messages; 64x64: 400,000): 0.275 flits/node/cycle on 8x8
#      (0.27 / 0.28), 0.0475 on 64x64 (0.047 / 0.048).  Target: 64x64 within 1.2x of 8x8 at each.
# The iq router has no router_delay: its four stages (route, VC and switch allocation,
# switch traversal) take 1 cycle each by default (4 in all, for (1)); (2) runs its
# fastest pipeline, routing_delay = 0 (3 cycles).
# CPU time is user + system of the whole process from /usr/bin/time, set-up included
# (under 2% of these runs); peak RSS is the process's maximum resident set.
# usage: bench/flit_tori.sh [simple|iq] [SCALE]   (SCALE multiplies the packet counts; default 1)
set -eu
cd "$(dirname "$0")/.."
router=${1:-simple}
scale=${2:-1}
out=build/bench_flit_$router
one() { # K N RATE(packets) MESSAGES WARMUP ROUTER_DELAY LINK_LATENCY -> "cpu_s peak_kb hops packets"
    if [ "$router" = iq ]; then
        delay="routing.routing_delay=$(($6 > 0 ? 1 : 0))"
    else
        delay="routing.router_delay=$6"
    fi
    /usr/bin/time -f '%U %S %M' -o "$out.time" bin/sim bench/wormhole-torus.ini --no-progress --no-timing -f csv \
        -s routing.router="$router" -s network.radix="$1" -s network.dimension="$2" -s workload.rate="$3" \
        -s run.messages="$4" -s run.warmup_messages="$5" -s "$delay" \
        -s routing.link_latency="$7" >"$out.csv"
    hops=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hops_mean") c = i } NR == 2 { print $c }' "$out.csv")
    read -r user sys kb <"$out.time"
    awk -v u="$user" -v s="$sys" -v kb="$kb" -v h="$hops" -v p="$(($4 + $5))" 'BEGIN { print u + s, kb, h, p }'
}
name() { awk -v k="$1" -v n="$2" 'BEGIN { s = k; for (i = 1; i < n; i++) s = s "x" k; print s }'; }
echo "router = $router: packets per CPU-second (router delay 4, 2-cycle links)"
printf '%-10s %-6s %-9s %-8s %-13s %s\n' torus flits packets cpu_s packets/cpu_s peak_MB
# shellcheck disable=SC2086,SC2046 # each spec and each result is split into fields on purpose
for spec in "8 2 0.1 400000" "16 3 0.05 200000" "32 2 0.025 200000"; do
    set -- $spec
    n=$(awk -v m="$4" -v s="$scale" 'BEGIN { printf "%d", m * s }')
    set -- $(one "$1" "$2" "$(awk -v f="$3" 'BEGIN { print f / 4 }')" "$n" 20000 4 2) "$1" "$2" "$3"
    awk -v c="$1" -v kb="$2" -v p="$4" -v name="$(name "$5" "$6")" -v f="$7" 'BEGIN {
        printf "%-10s %-6s %-9d %-8.2f %-13.3g %.1f\n", name, f, p, c, p / c, kb / 1024 }'
done
echo "router = $router: ns of CPU per packet-hop (router delay 0, 1-cycle links, 0.02 flits/node/cycle)"
printf '%-10s %-9s %-6s %-8s %-13s %-9s %s\n' torus packets hops cpu_s ns/packet-hop vs_8x8 peak_MB
base=
# shellcheck disable=SC2086,SC2046 # as above
for spec in "8 2 200000" "16 2 200000" "32 2 200000" "64 2 100000"; do
    set -- $spec
    n=$(awk -v m="$3" -v s="$scale" 'BEGIN { printf "%d", m * s }')
    set -- $(one "$1" "$2" 0.005 "$n" 20000 0 1) "$1" "$2"
    ns=$(awk -v c="$1" -v h="$3" -v p="$4" 'BEGIN { printf "%.1f", 1e9 * c / (p * h) }')
    base=${base:-$ns}
    awk -v c="$1" -v kb="$2" -v h="$3" -v p="$4" -v ns="$ns" -v b="$base" -v name="$(name "$5" "$6")" 'BEGIN {
        printf "%-10s %-9d %-6.2f %-8.2f %-13s %-9.2f %.1f\n", name, p, h, c, ns, ns / b, kb / 1024 }'
done
[ "$router" = simple ] || exit 0
echo "router = simple: ns of CPU per packet-hop at a fraction of saturation (router delay 0, 1-cycle links)"
printf '%-9s %-12s %-13s %-12s %-13s %s\n' fraction 8x8_flits 8x8_ns 64x64_flits 64x64_ns 64x64/8x8
# shellcheck disable=SC2046 # as above
for frac in 0.2 0.4 0.6 0.8; do
    f8=$(awk -v f="$frac" 'BEGIN { print f * 0.275 }')
    f64=$(awk -v f="$frac" 'BEGIN { print f * 0.0475 }')
    n8=$(awk -v s="$scale" 'BEGIN { printf "%d", 400000 * s }')
    n64=$(awk -v s="$scale" 'BEGIN { printf "%d", 100000 * s }')
    set -- $(one 8 2 "$(awk -v f="$f8" 'BEGIN { print f / 4 }')" "$n8" 20000 0 1)
    ns8=$(awk -v c="$1" -v h="$3" -v p="$4" 'BEGIN { printf "%.1f", 1e9 * c / (p * h) }')
    set -- $(one 64 2 "$(awk -v f="$f64" 'BEGIN { print f / 4 }')" "$n64" 20000 0 1)
    ns64=$(awk -v c="$1" -v h="$3" -v p="$4" 'BEGIN { printf "%.1f", 1e9 * c / (p * h) }')
    awk -v fr="$frac" -v f8="$f8" -v a="$ns8" -v f64="$f64" -v b="$ns64" 'BEGIN {
        printf "%-9s %-12s %-13s %-12s %-13s %.2f\n", fr, f8, a, f64, b, b / a }'
done
