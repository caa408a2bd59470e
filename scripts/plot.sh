#!/bin/sh
# Plots columns of a sweep's CSV (from `sim --sweep ... -f csv` or scripts/sweep.sh)
# to a PNG with gnuplot: one or more Y columns against X (the simulation and the model
# side by side), error bars on the first Y, one curve per Y and per value of a grouping
# column.  Columns are named by their CSV header.
#
#   scripts/plot.sh [-g GROUP] [-e LOW,HIGH] [-o OUT.png] [-t TITLE] [-x XLABEL] [-y YLABEL] [-l] [-n] CSV X Y...
#   scripts/plot.sh -e delay.ci95_low,delay.ci95_high -o delay.png \
#       sweep.csv workload.rate delay.mean analytic.delay_mean
#
# Titles, axis labels and legends come in words, with units, from the table of known
# columns below (a column it lacks goes by its name); -t, -x, -y replace them.  The x
# range is padded, and the y range topped by 5%, so that end points and error bars stay
# off the frame.  A row whose
# Y is empty (a point not run: unstable; saturated; failed) is left out of that curve,
# and said on stderr with why (the row's saturated and stop_reason).  -n prints the gnuplot script instead of
# drawing.  Needs gnuplot (Debian: apt-get install gnuplot-nox; from a clone:
# scripts/deps.sh plot).
set -eu
usage() {
    echo "usage: $0 [-g GROUP] [-e LOW,HIGH] [-o OUT.png] [-t TITLE] [-x XLABEL] [-y YLABEL] [-l] [-n] CSV X Y..." >&2
    exit 2
}
group="" errors="" out="" title="" xlabel="" ylabel="" logscale="" dry=""
help() {
    echo "usage: $0 [-g GROUP] [-e LOW,HIGH] [-o OUT.png] [-t TITLE] [-x XLABEL] [-y YLABEL] [-l] [-n] CSV X Y..."
    echo "  draws columns Y... against column X of a sweep's CSV into a PNG (gnuplot), one curve per Y,"
    echo "  e.g. the simulation's delay.mean and the model's analytic.delay_mean"
    echo "  -g GROUP      one curve per Y and per value of column GROUP"
    echo "  -e LOW,HIGH   error bars on the first Y from columns LOW and HIGH (e.g. delay.ci95_low,delay.ci95_high)"
    echo "  -o OUT.png    the picture (default: the CSV's name with .png)"
    echo "  -t TITLE      the title (default: in words, from the columns)"
    echo "  -x, -y LABEL  axis labels (default: in words, with units, from the columns)"
    echo "  -l            logarithmic Y axis"
    echo "  -n            print the gnuplot script instead of drawing"
    echo "  rows whose Y is empty (points not run: unstable or failed) are left out, each said on stderr"
    exit 0
}
while getopts hg:e:o:t:x:y:ln opt; do
    case $opt in
    h) help ;;
    g) group=$OPTARG ;;
    e) errors=$OPTARG ;;
    o) out=$OPTARG ;;
    t) title=$OPTARG ;;
    x) xlabel=$OPTARG ;;
    y) ylabel=$OPTARG ;;
    l) logscale=yes ;;
    n) dry=yes ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || usage
csv=$1 x=$2
shift 2
ys="$*"
[ -r "$csv" ] || { echo "$0: $csv: cannot read" >&2; exit 2; }
[ -n "$out" ] || out="${csv%.csv}.png"
[ -n "$dry" ] || command -v gnuplot >/dev/null 2>&1 || {
    echo "$0: gnuplot is missing: install it (Debian: apt-get install gnuplot-nox; from a clone: scripts/deps.sh plot)" >&2
    exit 1
}
low="" high=""
if [ -n "$errors" ]; then
    low=${errors%%,*} high=${errors#*,}
    if [ -z "$low" ] || [ -z "$high" ] || [ "$high" = "$errors" ]; then
        echo "$0: -e wants LOW,HIGH" >&2
        exit 2
    fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Column -> words: "column|legend|axis label".  %u is the rate's unit (workload.rate_unit
# of the first row), %m the model's name (analytic.model of the first row).
cat >"$tmp/words" <<'WORDS'
workload.rate|offered load|offered load (%u per node per time unit)
workload.mean_length|mean message length|mean message length (length units)
network.dimension|dimension|network dimension
network.radix|radix|radix (nodes per ring)
network.bandwidth|channel bandwidth|channel bandwidth (length units per time unit)
delay.mean|simulation: mean delay|delay (time units)
delay.p50|simulation: median delay|delay (time units)
delay.p90|simulation: 90th percentile of delay|delay (time units)
delay.p99|simulation: 99th percentile of delay|delay (time units)
delay.max|simulation: largest delay|delay (time units)
delay.stddev|simulation: standard deviation of delay|delay (time units)
analytic.delay_mean|model (%m): mean delay|delay (time units)
analytic.delay_stddev|model (%m): standard deviation of delay|delay (time units)
throughput|simulation: throughput|throughput (messages per node per time unit)
switching.throughput_flits|simulation: throughput in flits|throughput (flits per node per time unit)
hops_mean|simulation: mean hops|hops
analytic.hops_mean|model (%m): mean hops|hops
channels.utilization_max|simulation: busiest channel's utilisation|channel utilisation
channels.utilization_mean|simulation: mean channel utilisation|channel utilisation
analytic.utilization_max|model (%m): busiest channel's utilisation|channel utilisation
WORDS
# One data file per curve, "x y [low high]", and "file<TAB>title" lines in $tmp/curves;
# the words of X and of each Y in $tmp/xwords and $tmp/ywords; a line on stderr per row
# left out.  CSV fields are split as RFC 4180 says (quoted fields may hold commas).
awk -v x="$x" -v ys="$ys" -v g="$group" -v lo="$low" -v hi="$high" -v dir="$tmp" '
    function split_csv(s, f,   n, i, c, quoted, cell) {
        n = 0; cell = ""; quoted = 0
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "\"") { if (quoted && substr(s, i + 1, 1) == "\"") { cell = cell c; i++ } else quoted = !quoted; continue }
            if (c == "," && !quoted) { f[++n] = cell; cell = ""; continue }
            cell = cell c
        }
        f[++n] = cell
        return n
    }
    function words(name, which,   w) {
        if (!(name in legend)) return name
        w = which == "axis" ? axis[name] : legend[name]
        gsub(/%u/, unit, w); gsub(/%m/, model, w)
        return w
    }
    BEGIN {
        while ((getline line < (dir "/words")) > 0) {
            split(line, part, "|"); legend[part[1]] = part[2]; axis[part[1]] = part[3]
        }
        ny = split(ys, y, " ")
    }
    { n = split_csv($0, f) }
    NR == 1 {
        for (i = 1; i <= n; i++) col[f[i]] = i
        want = x " " ys (g != "" ? " " g : "") (lo != "" ? " " lo " " hi : "")
        nw = split(want, w, " ")
        for (i = 1; i <= nw; i++)
            if (!(w[i] in col)) { print "plot.sh: no column " w[i] > "/dev/stderr"; bad = 1 }
        if (bad) exit 2
        next
    }
    NR == 2 {
        unit = ("workload.rate_unit" in col) && f[col["workload.rate_unit"]] != "" ? f[col["workload.rate_unit"]] : "messages"
        model = ("analytic.model" in col) && f[col["analytic.model"]] != "" ? f[col["analytic.model"]] : "analytic"
    }
    {
        gv = g != "" ? f[col[g]] : ""
        missing = ""
        for (j = 1; j <= ny; j++) {
            v = f[col[y[j]]]
            if (v == "" || f[col[x]] == "") { missing = missing (missing != "" ? ", " : "") y[j]; continue }
            key = gv SUBSEP j
            if (!(key in file)) {
                file[key] = dir "/" (++curves) ".dat"
                t = ny > 1 ? words(y[j], "legend") : ""
                if (g != "") t = t (t != "" ? ", " : "") g "=" gv
                if (t == "") t = words(y[j], "legend")
                printf "%s\t%s\t%d\n", file[key], t, j > (dir "/curves")
            }
            line = f[col[x]] " " v
            if (j == 1 && lo != "") line = line " " f[col[lo]] " " f[col[hi]]
            print line > file[key]
        }
        if (missing != "") {
            why = ("stop_reason" in col) && f[col["stop_reason"]] != "" ? f[col["stop_reason"]] : "no value"
            if (("saturated" in col) && f[col["saturated"]] == "true" && why !~ /unstable/) # run, no figure kept
                why = "saturated" (why != "completed" ? ", " why : "")
            printf "plot.sh: left out %s=%s%s: no %s (%s)\n", x, f[col[x]], g != "" ? " " g "=" gv : "", missing, \
                why > "/dev/stderr"
        }
    }
    END {
        if (bad) exit 2
        print words(x, "axis") > (dir "/xwords")
        print words(x, "legend") > (dir "/xlegend")
        for (j = 1; j <= ny; j++) {
            a = words(y[j], "axis")
            if (!(a in said)) { said[a] = 1; ya = ya (ya != "" ? ", " : "") a }
            l = words(y[j], "legend"); sub(/^(simulation|model \([^)]*\)): /, "", l)
            if (!(l in told)) { told[l] = 1; yl = yl (yl != "" ? " and " : "") l }
        }
        print ya > (dir "/ywords")
        print yl > (dir "/ylegend")
    }' "$csv"
[ -s "$tmp/curves" ] || { echo "$0: no rows with a value of $ys" >&2; exit 2; }
# Text for a gnuplot single-quoted string: a quote is written twice.
gp_text() { printf '%s' "$1" | sed "s/'/''/g"; }
# Each curve's rows, sorted by x, as a datablock of the script, so that the script (-n)
# stands alone.
plots="" blocks="$tmp/blocks" curve=0
: >"$blocks"
tab=$(printf '\t')
while IFS=$tab read -r data name index; do
    curve=$((curve + 1))
    { echo "\$curve$curve << EOD"; sort -g "$data"; echo "EOD"; } >>"$blocks"
    style="linespoints" using=1:2
    if [ "$index" = 1 ] && [ -n "$low" ]; then style=yerrorlines using=1:2:3:4; fi
    plots="$plots${plots:+, }\$curve$curve using $using with $style title '$(gp_text "$name")'"
done <"$tmp/curves"
# The x range padded by 5% of the data's span (a single x: 5% of its size, or 1), so
# that the first and last points and their error bars stay off the frame.
xrange=$(cat "$tmp"/*.dat | awk 'NR == 1 { lo = $1; hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
    END { pad = (hi - lo) * 0.05; if (pad == 0) pad = (lo < 0 ? -lo : lo) * 0.05; if (pad == 0) pad = 1
          printf "%.10g:%.10g", lo - pad, hi + pad }')
script() {
    cat "$blocks"
    cat <<GNUPLOT
set terminal pngcairo size 900,600 noenhanced
set output '$(gp_text "$out")'
set datafile missing ''
set title '$(gp_text "${title:-$(cat "$tmp/ylegend") against $(cat "$tmp/xlegend")}")'
set xlabel '$(gp_text "${xlabel:-$(cat "$tmp/xwords")}")'
set ylabel '$(gp_text "${ylabel:-$(cat "$tmp/ywords")}")'
set xrange [$xrange]
set offsets 0, 0, graph 0.05, 0
set key top left
set grid
${logscale:+set logscale y}
plot $plots
GNUPLOT
}
if [ -n "$dry" ]; then
    script
    exit 0
fi
script | gnuplot
echo "$out"
