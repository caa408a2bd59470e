#!/bin/sh
# Pictures of one run: runs sim on a configuration with --channels, --nodes,
# --histogram and --series into a directory, then draws with gnuplot
#   histogram.png  the measured delays' histogram (log-spaced bins, log time axis)
#   series.png     throughput, mean delay and backlog against simulated time, the
#                  warm-up shaded
#   channels.png   each channel's utilisation: a 2-D torus or mesh as its grid (one
#                  panel per direction), a hypercube or larger lattice as dimension x
#                  node, buses and other networks as one row per channel class
# beside the CSV files and the report (report.txt).
#
#   scripts/plot-run.sh [-b SIM] [-s SECTION.KEY=VALUE]... CONFIG.ini DIR
#   scripts/plot-run.sh -s workload.rate=0.3 configs/kary-8x8.ini pictures
#
# -b: the sim binary (default: the clone's bin/sim beside these scripts, else sim on
# PATH, as installed).  -s: overrides, as sim's.  One replication (run.replications = 1
# is set); the slotted backtracking engine has no series (sim refuses --nodes and
# --series for it), so it is not drawn.  nodes.csv is written, not drawn.  Needs
# gnuplot (Debian: apt-get install gnuplot-nox; from a clone: scripts/deps.sh plot).
set -eu
usage() {
    echo "usage: $0 [-b SIM] [-s SECTION.KEY=VALUE]... CONFIG.ini DIR" >&2
    exit 2
}
sim=sim
[ ! -x "$(dirname "$0")/../bin/sim" ] || sim=$(dirname "$0")/../bin/sim
overrides=""
while getopts hb:s: opt; do
    case $opt in
    h)
        echo "usage: $0 [-b SIM] [-s SECTION.KEY=VALUE]... CONFIG.ini DIR"
        echo "  runs CONFIG.ini once and draws DIR/histogram.png, DIR/series.png, DIR/channels.png (gnuplot)"
        exit 0
        ;;
    b) sim=$OPTARG ;;
    s) overrides="$overrides -s $(printf '%s' "$OPTARG" | sed "s/'/'\\\\''/g; s/^/'/; s/\$/'/")" ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
config=$1 dir=$2
command -v gnuplot >/dev/null 2>&1 || {
    echo "$0: gnuplot is missing: install it (Debian: apt-get install gnuplot-nox; from a clone: scripts/deps.sh plot)" >&2
    exit 1
}
mkdir -p "$dir"
series=yes
eval "set -- $overrides"
if ! "$sim" --no-progress "$@" -s run.replications=1 -o "$dir/report.txt" --channels "$dir/channels.csv" \
    --nodes "$dir/nodes.csv" --histogram "$dir/histogram.csv" --series "$dir/series.csv" "$config" 2>"$dir/sim.err"; then
    if grep -q 'no per-message output' "$dir/sim.err"; then # the slotted engine: no series
        series=""
        "$sim" --no-progress "$@" -s run.replications=1 -o "$dir/report.txt" --channels "$dir/channels.csv" \
            --histogram "$dir/histogram.csv" "$config"
    else
        cat "$dir/sim.err" >&2
        exit 1
    fi
fi
rm -f "$dir/sim.err"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the delay histogram: bins as boxes on a log axis (the zeros row is left out) ---
zeros=$(awk -F, 'NR > 1 && $2 == 0 { print $3 }' "$dir/histogram.csv")
awk -F, 'NR > 1 && $2 > 0 { print $1, $2, $3 }' "$dir/histogram.csv" >"$tmp/hist.dat"
gnuplot <<GNUPLOT
set terminal pngcairo size 900,600 noenhanced
set output '$dir/histogram.png'
set title 'Delay histogram of the measured messages${zeros:+ ($zeros self-addressed, delay 0, not drawn)}'
set xlabel 'message delay (time units; log scale, bins 1 : $(awk 'NR == 1 { printf "%.3g", $2 / $1 }' "$tmp/hist.dat"))'
set ylabel 'measured messages per bin'
set logscale x
set grid
set style fill solid 0.6 border -1
plot '$tmp/hist.dat' using (sqrt(\$1 * \$2)):3:1:2:(0):3 with boxxyerror notitle
GNUPLOT

# --- the time series: three panels, the warm-up shaded ---
if [ -n "$series" ]; then
    ws=$(awk -F, 'NR > 1 && $3 == 1 { print $1; exit }' "$dir/series.csv")
    [ -n "$ws" ] || ws=$(awk -F, 'END { print $2 }' "$dir/series.csv")
    awk -F, 'NR > 1 { print ($1 + $2) / 2, $6, ($7 == "" ? "?" : $7), $8 }' "$dir/series.csv" >"$tmp/series.dat"
    gnuplot <<GNUPLOT
set terminal pngcairo size 900,900 noenhanced
set output '$dir/series.png'
set datafile missing '?'
set multiplot layout 3,1 title 'One run over simulated time (shaded: warm-up, not measured)'
set grid
set object 1 rect from graph 0, graph 0 to first $ws, graph 1 behind fc rgb '#e0e0e0' fs solid noborder
set xrange [0:*]
set lmargin 14
set ylabel "throughput (messages\nper node per time unit)"
plot '$tmp/series.dat' using 1:2 with lines lw 2 notitle
set ylabel "mean delay of the\ndeliveries (time units)"
plot '$tmp/series.dat' using 1:3 with lines lw 2 notitle
set ylabel "backlog (messages\nin flight)"
set xlabel 'simulated time (time units)'
plot '$tmp/series.dat' using 1:4 with lines lw 2 notitle
unset multiplot
GNUPLOT
fi

# --- the channels' utilisation ---
# Layout from the channels themselves: a 2-D lattice (links, dimensions 0 and 1 only,
# a square number of nodes) as its grid, one panel per class; other networks with
# dimensions as class x node; anything else (buses) as class x index within the class.
layout=$(awk -F, 'NR > 1 {
        if ($2 != "link" || $7 == "") other = 1
        if ($7 > maxdim) maxdim = $7
        if ($3 + 1 > nodes) nodes = $3 + 1
    }
    END {
        k = int(sqrt(nodes) + 0.5)
        if (!other && maxdim == 1 && k * k == nodes) print "grid", k
        else if (!other) print "node", nodes
        else print "index", nodes
    }' "$dir/channels.csv")
set -- $layout
mode=$1 k=$2
awk -F, -v mode="$mode" -v k="$k" -v dir="$tmp" 'NR > 1 {
        if (!($6 in row)) { row[$6] = classes++; name[row[$6]] = $6 }
        r = row[$6]
        if (mode == "grid") print $3 % k, int($3 / k), $8 > (dir "/class" r ".dat")
        else if (mode == "node") print $3, r, $8 > (dir "/all.dat")
        else print seen[r]++, r, $8 > (dir "/all.dat")
    }
    END {
        tics = ""
        for (r = 0; r < classes; r++) { tics = tics (r ? ", " : "") "\"" name[r] "\" " r; print name[r] > (dir "/class" r ".name") }
        print tics > (dir "/tics"); print classes > (dir "/classes")
    }' "$dir/channels.csv"
classes=$(cat "$tmp/classes")
label='channel utilisation (fraction of the window busy)'
# One colour scale for every panel, 0 to the busiest channel, so that a colour is one
# utilisation throughout; viridis (perceptually uniform, readable in grey and by most
# colour-blind readers) from its published control points.
cbmax=$(awk -F, 'NR > 1 && $8 > max { max = $8 } END { printf "%.4g", (max > 0 ? max : 1) }' "$dir/channels.csv")
palette="set palette defined (0 '#440154', 1 '#482878', 2 '#3e4989', 3 '#31688e', 4 '#26828e', 5 '#1f9e89', \
6 '#35b779', 7 '#6ece58', 8 '#b5de2b', 9 '#fde725')
set cbrange [0:$cbmax]"
if [ "$mode" = grid ]; then
    cols=$classes rows=1
    [ "$classes" -le 2 ] || { cols=2 rows=$(((classes + 1) / 2)); }
    plots=""
    for r in $(seq 0 $((classes - 1))); do
        plots="$plots
set title 'channels $(cat "$tmp/class$r.name") leaving each node'
plot '$tmp/class$r.dat' using 1:2:(0.5):(0.5):3 with boxxyerror fc palette fs solid notitle"
    done
    gnuplot <<GNUPLOT
set terminal pngcairo size $((cols * 520)),$((rows * 480 + 60)) noenhanced
set output '$dir/channels.png'
set multiplot layout $rows,$cols title '$label, by the node each channel leaves ($k x $k grid; one colour scale)'
set xlabel 'node coordinate in dimension 0'
set ylabel 'node coordinate in dimension 1'
set xrange [-0.5:$k - 0.5]
set yrange [-0.5:$k - 0.5]
set size ratio -1
$palette
set cblabel 'utilisation'
$plots
unset multiplot
GNUPLOT
else
    xlabel='node the channel leaves' ylabel='dimension (channel class)' xmax=$((k - 1)).5
    [ "$mode" = node ] || { xlabel='channel within its class (bus or link, in channel order)' ylabel='channel class' xmax='*'; }
    gnuplot <<GNUPLOT
set terminal pngcairo size 1000,$((classes * 40 + 200)) noenhanced
set output '$dir/channels.png'
set title '$label'
set xlabel '$xlabel'
set ylabel '$ylabel'
set ytics ($(cat "$tmp/tics"))
set yrange [-0.5:$classes - 0.5]
set xrange [-0.5:$xmax]
$palette
set cblabel 'utilisation'
plot '$tmp/all.dat' using 1:2:(0.5):(0.5):3 with boxxyerror fc palette fs solid notitle
GNUPLOT
fi
ls "$dir"/*.png
