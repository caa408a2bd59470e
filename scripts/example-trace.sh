#!/bin/sh
# Example traces for workload.arrival = trace (format: time,source,destination,length).
#
#   scripts/example-trace.sh run CONFIG.ini OUT.csv [sim options...]
#       the messages of a simulated run (any arrival process and destination pattern),
#       via sim --write-trace; replaying OUT.csv reproduces that run's delays exactly.
#   scripts/example-trace.sh bursts NODES BURSTS PERIOD LENGTH >OUT.csv
#       a synthetic trace without random numbers: every PERIOD time units a burst in which
#       node s sends one message of LENGTH to node (s + 1 + k mod (NODES - 1)) mod NODES
#       (burst k = 0, 1, ...), the senders 0.001 apart in node order.
# SIM is the binary (default: the clone's bin/sim beside these scripts, else sim on PATH).
set -eu
sim=sim
[ ! -x "$(dirname "$0")/../bin/sim" ] || sim=$(dirname "$0")/../bin/sim
sim=${SIM:-$sim}
usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift
case $mode in
run)
    [ $# -ge 2 ] || usage
    config=$1 out=$2
    shift 2
    "$sim" "$config" --no-progress --write-trace "$out" "$@" >/dev/null
    echo "wrote $(wc -l <"$out") messages to $out" >&2
    ;;
bursts)
    [ $# -eq 4 ] || usage
    awk -v n="$1" -v bursts="$2" -v period="$3" -v len="$4" 'BEGIN {
        if (n < 2 || bursts < 1 || period <= 0 || len <= 0) { print "bad arguments" > "/dev/stderr"; exit 2 }
        print "# bursts: " n " nodes, " bursts " bursts every " period ", length " len
        print "time,source,destination,length"
        for (k = 0; k < bursts; k++)
            for (s = 0; s < n; s++)
                printf "%.17g,%d,%d,%.17g\n", k * period + s * 0.001, s, (s + 1 + k % (n - 1)) % n, len
    }'
    ;;
*)
    usage
    ;;
esac
