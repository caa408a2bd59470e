#!/bin/sh
# Plots columns of a sweep's CSV (from `sim --sweep ... -f csv` or scripts/sweep.sh)
# to a PNG with gnuplot: Y against X, optional error bars, one curve per value of a
# grouping column.  Columns are named by their CSV header.
#
#   scripts/plot.sh [-g GROUP] [-e LOW,HIGH] [-o OUT.png] [-t TITLE] [-x XLABEL] [-y YLABEL] [-l] CSV X Y
#   scripts/plot.sh -g protocol.link -e delay.ci95_low,delay.ci95_high -o delay.png \
#       -x 'offered load (messages/node/time unit)' -y 'mean delay (time units)' \
#       sweep.csv workload.rate delay.mean
#
# -x, -y: axis labels, with their units (default: the column names).  -l: logarithmic Y axis.  Rows whose Y is empty (points not run: saturated) are left
# out.  Needs gnuplot (scripts/deps.sh plot installs gnuplot-nox).
set -eu
usage() {
    echo "usage: $0 [-g GROUP] [-e LOW,HIGH] [-o OUT.png] [-t TITLE] [-x XLABEL] [-y YLABEL] [-l] CSV X Y" >&2
    exit 2
}
group="" errors="" out="" title="" xlabel="" ylabel="" logscale=""
help() {
    echo "usage: $0 [-g GROUP] [-e LOW,HIGH] [-o OUT.png] [-t TITLE] [-x XLABEL] [-y YLABEL] [-l] CSV X Y"
    echo "  draws column Y against column X of a sweep's CSV into a PNG (gnuplot; scripts/deps.sh plot)"
    echo "  -g GROUP      one curve per value of column GROUP"
    echo "  -e LOW,HIGH   error bars from columns LOW and HIGH (e.g. delay.ci95_low,delay.ci95_high)"
    echo "  -o OUT.png    the picture (default: the CSV's name with .png)"
    echo "  -t TITLE      the title (default: 'Y against X')"
    echo "  -x, -y LABEL  axis labels, with their units (default: the column names)"
    echo "  -l            logarithmic Y axis"
    echo "  rows whose Y is empty (points not run: unstable or failed) are left out"
    exit 0
}
while getopts hg:e:o:t:x:y:l opt; do
    case $opt in
    h) help ;;
    g) group=$OPTARG ;;
    e) errors=$OPTARG ;;
    o) out=$OPTARG ;;
    t) title=$OPTARG ;;
    x) xlabel=$OPTARG ;;
    y) ylabel=$OPTARG ;;
    l) logscale=yes ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || usage
csv=$1 x=$2 y=$3
[ -r "$csv" ] || { echo "$0: $csv: cannot read" >&2; exit 2; }
[ -n "$out" ] || out="${csv%.csv}.png"
command -v gnuplot >/dev/null 2>&1 || {
    echo "$0: gnuplot is missing: run scripts/deps.sh plot (or apt-get install gnuplot-nox)" >&2
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
# One data file per group: "x y [low high]", sorted by x.  Quoted fields (free text
# that may hold commas) are blanked first, so splitting on commas is safe.
sed 's/"[^"]*"/""/g' "$csv" | awk -F, -v x="$x" -v y="$y" -v g="$group" -v lo="$low" -v hi="$high" -v dir="$tmp" '
    NR == 1 {
        for (i = 1; i <= NF; i++) col[$i] = i
        n = split(x " " y (g != "" ? " " g : "") (lo != "" ? " " lo " " hi : ""), want, " ")
        for (i = 1; i <= n; i++)
            if (!(want[i] in col)) { print "plot.sh: no column " want[i] > "/dev/stderr"; bad = 1 }
        if (bad) exit 2
        next
    }
    $col[y] == "" { next }
    {
        name = g != "" ? $col[g] : y
        if (!(name in file)) { file[name] = dir "/" (++groups) ".dat"; print name > (dir "/" groups ".title") }
        line = $col[x] " " $col[y]
        if (lo != "") line = line " " $col[lo] " " $col[hi]
        print line > file[name]
    }'
ls "$tmp"/*.dat >/dev/null 2>&1 || { echo "$0: no rows with a value of $y" >&2; exit 2; }
style=linespoints using=1:2
[ -z "$low" ] || { style=yerrorlines using=1:2:3:4; }
plots=""
for data in "$tmp"/*.dat; do
    sort -g "$data" -o "$data"
    name=$(cat "${data%.dat}.title")
    plots="$plots${plots:+, }'$data' using $using with $style title '$group${group:+=}$name'"
done
# Text for a gnuplot single-quoted string: a quote is written twice.
gp_text() { printf '%s' "$1" | sed "s/'/''/g"; }
gnuplot <<GNUPLOT
set terminal pngcairo size 900,600 noenhanced
set output '$out'
set datafile missing ''
set title '$(gp_text "${title:-$y against $x}")'
set xlabel '$(gp_text "${xlabel:-$x}")'
set ylabel '$(gp_text "${ylabel:-$y}")'
set key top left
set grid
${logscale:+set logscale y}
plot $plots
GNUPLOT
echo "$out"
