#!/bin/sh
# make bench: the static deadlock check alone (sim --check-deadlock, forced whatever its
# size) on the largest wormhole configurations of configs/, on every shipped config's
# largest network forced to wormhole, and on tori up to 64x64 with dimension order
# (iq and simple routers) and with adaptive-minimal and escape VCs (Duato): the verdict,
# the graph's size, wall seconds and peak RSS from /usr/bin/time.
# Target: under 2 s and 200 MB each; a run skips the check above DL_WORK_LIMIT
# (routing/deadlock_check.h) with a note saying so.
# usage: bench/deadlock_check.sh [quick]   (quick: leaves out the 64x64 adaptive torus)
set -eu
cd "$(dirname "$0")/.."
quick=${1:-}
torus="-s network.topology=torus -s network.dimension=2 -s routing.switching=wormhole"
printf '%-44s %-9s %-12s %-12s %-8s %s\n' case verdict channel-VCs dependencies wall_s peak_MB
one() { # name, then sim's arguments
    name=$1
    shift
    /usr/bin/time -f '%e %M' -o build/bench_dl.time bin/sim --check-deadlock -f json "$@" >build/bench_dl.json \
        2>/dev/null || true
    read -r wall kb <build/bench_dl.time
    awk -v name="$name" -v wall="$wall" -v kb="$kb" -F': ' '
        /"deadlock_check"/ { v = $2; gsub(/[",]/, "", v) }
        /"channel_vcs"/ { n = $2; gsub(/,/, "", n) }
        /"dependencies"/ { d = $2; gsub(/,/, "", d) }
        END { printf "%-44s %-9s %-12s %-12s %-8s %.1f\n", name, v, n, d, wall, kb / 1024 }' build/bench_dl.json
}
mkdir -p build
one "configs/003/rr-inf-0.05.ini (10-cube random)" configs/003/rr-inf-0.05.ini
one "configs/003/wh-inf-0.10.ini (10-cube ecube)" configs/003/wh-inf-0.10.ini
one "configs/dragonfly-9x4.ini (ugal, iq)" configs/dragonfly-9x4.ini
one "configs/hyperx-8x8.ini (minimal, iq)" configs/hyperx-8x8.ini
one "configs/kary-32x32.ini as wormhole, 2 VCs" configs/kary-32x32.ini -s routing.switching=wormhole \
    -s routing.virtual_channels=2
for k in 32 64; do
    one "${k}x${k} torus, ecube, 2 VCs, iq" configs/default.ini $torus -s network.radix=$k -s routing.router=iq \
        -s routing.virtual_channels=2
    one "${k}x${k} torus, ecube, 2 VCs, simple" configs/default.ini $torus -s network.radix=$k \
        -s routing.virtual_channels=2
done
one "16x16 torus, adaptive-minimal, 3 VCs, iq" configs/default.ini $torus -s network.radix=16 -s routing.router=iq \
    -s routing.algorithm=adaptive-minimal -s routing.virtual_channels=3
one "32x32 torus, adaptive-minimal, 3 VCs, iq" configs/default.ini $torus -s network.radix=32 \
    -s routing.router=iq -s routing.algorithm=adaptive-minimal -s routing.virtual_channels=3
[ "$quick" = quick ] || one "64x64 torus, adaptive-minimal, 3 VCs, iq" configs/default.ini $torus -s network.radix=64 \
    -s routing.router=iq -s routing.algorithm=adaptive-minimal -s routing.virtual_channels=3
