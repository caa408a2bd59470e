#!/bin/sh
# make bench: the iq router on a 1,056-terminal dragonfly (p = 4, a = 8, h = 4, g = 33;
# minimal routing, 2 VCs of 8 flits: one per class) against a 32x32 torus
# (configs/iq/torus-8x8.ini's settings), both with 4-flit packets and uniform traffic
# at half of each one's saturation (the most flits accepted per terminal per cycle, 2,000 +
# 4,000 cycles a point: saturation() below): ns of CPU (user + system, set-up included, from
# /usr/bin/time) per packet-hop, and peak RSS.
# Target (issue 34): the dragonfly within 1.2x of the torus, per packet-hop (the headline).
# A second column, not the target: ns per router a packet crosses (hops + 1: the
# destination's router too, whose pipeline every packet also goes through), so that
# networks whose diameters differ eightfold compare by the work each router visit costs.
# usage: bench/modern.sh [MESSAGES]   (default 300000 measured packets each)
set -eu
cd "$(dirname "$0")/.."
messages=${1:-300000}
out=build/bench_modern
dragonfly="-s network.topology=dragonfly -s network.group_routers=8 -s network.global_links=4
    -s network.concentration=4 -s routing.algorithm=minimal -s routing.link_latency=1 -s workload.destination=uniform"
torus="-s network.radix=32"
accepted() { # settings load: the accepted flits per terminal per cycle at that offered load, and whether saturated
    # shellcheck disable=SC2086 # the settings are split into words on purpose
    bin/sim configs/iq/torus-8x8.ini --no-progress -f csv $1 -s workload.rate="$2" -s run.allow_unstable=true \
        -s run.warmup_time=2000 -s run.duration=4000 >"$out.csv"
    sed 's/"[^"]*"/""/g' "$out.csv" | # quoted cells may hold commas
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
                 NR == 2 { print $col["switching.throughput_flits"], $col["switching.saturated"] }'
}
# The saturation throughput: the most accepted, searched upwards from what offered load 1.0
# gets (past saturation a torus accepts half what it does at saturation: 0.05 against 0.10
# flits on the 32x32 torus) in steps of 5% until the backlog grows.
saturation() {
    set -- "$1" "$(accepted "$1" 1.0)"
    best=${2% *} load=${2% *}
    while :; do
        load=$(awk -v l="$load" 'BEGIN { print l * 1.05 }')
        got=$(accepted "$1" "$load")
        best=$(awk -v b="$best" -v g="${got% *}" 'BEGIN { print (g > b ? g : b) }')
        [ "${got#* }" = false ] || break
    done
    echo "$best"
}
printf '%-10s %-11s %-9s %-8s %-6s %-14s %-8s %s\n' network saturation packets cpu_s hops ns/packet-hop peak_MB \
    ns/router-visit
base='' base_visit=''
for name in torus dragonfly; do
    eval "set -- \$$name"
    settings="$*"
    sat=$(saturation "$settings")
    rate=$(awk -v s="$sat" 'BEGIN { print s / 2 }')
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S %M' -o "$out.time" bin/sim configs/iq/torus-8x8.ini --no-progress --no-timing -f csv \
        $settings -s workload.rate="$rate" -s run.messages="$messages" -s run.warmup_messages=20000 >"$out.csv"
    hops=$(sed 's/"[^"]*"/""/g' "$out.csv" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hops_mean") c = i } NR == 2 { print $c }')
    read -r user sys kb <"$out.time"
    ns=$(awk -v u="$user" -v s="$sys" -v h="$hops" -v p="$((messages + 20000))" 'BEGIN { printf "%.1f", (u + s) * 1e9 / (p * h) }')
    visit=$(awk -v u="$user" -v s="$sys" -v h="$hops" -v p="$((messages + 20000))" \
        'BEGIN { printf "%.1f", (u + s) * 1e9 / (p * (h + 1)) }')
    awk -v n="$name" -v sat="$sat" -v p="$((messages + 20000))" -v u="$user" -v s="$sys" -v h="$hops" -v ns="$ns" \
        -v kb="$kb" -v visit="$visit" \
        'BEGIN { printf "%-10s %-11.4f %-9d %-8.2f %-6.3f %-14s %-8.1f %s\n", n, sat, p, u + s, h, ns, kb / 1024, visit }'
    if [ -z "$base" ]; then base=$ns base_visit=$visit; else
        awk -v a="$ns" -v b="$base" 'BEGIN { printf "dragonfly / torus: %.2f (target <= 1.2)\n", a / b }'
        awk -v a="$visit" -v b="$base_visit" \
            'BEGIN { printf "per router visit (hops + 1; not the target): %.2f\n", a / b }'
    fi
done
