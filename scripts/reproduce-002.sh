#!/bin/sh
# Reproduces seed 002 (Agarwal 1991, "Limits on interconnection network performance"):
# every figure's model curves, swept with `sim --analytic` over configs/002/*.ini, the
# paper's printed numbers against the model (configs/002/published.csv), and the best
# dimension for a given N.  Writes reports/002-*.md and reports/002-fig*.png.
# POSIX sh + awk + gnuplot.  usage: scripts/reproduce-002.sh [SIM]   (default bin/sim)
set -eu
sim=${1:-bin/sim}
cd "$(dirname "$0")/.."
command -v gnuplot >/dev/null 2>&1 || { echo "reproduce-002: gnuplot is missing (scripts/deps.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p reports
P=configs/002/physical.ini
C=configs/002/contention.ini

# an CONFIG "MODEL.FIGURE ..." [-s key=value ...]: the figures' values on one line
# ("nan" where the model gives none: saturated, or the model does not apply).
an() {
    cfg=$1 figs=$2
    shift 2
    "$sim" --analytic -f csv "$cfg" "$@" | awk -F, -v want="$figs" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { n = split(want, w, " "); line = ""
          for (i = 1; i <= n; i++) { v = (w[i] in col) ? $col[w[i]] : ""; line = line (i > 1 ? " " : "") (v == "" ? "nan" : v) }
          print line }'
}

log2() { awk -v x="$1" 'BEGIN { printf "%d", log(x) / log(2) + 1e-9 }'; }

# base_sweep FILE CONFIG N [-s ...]: "n latency.base" for n = 2 .. log2 N
base_sweep() {
    out=$1 cfg=$2 N=$3
    shift 3
    : >"$out"
    n=2
    while [ "$n" -le "$(log2 "$N")" ]; do
        printf '%d %s\n' "$n" "$(an "$cfg" kary-physical.latency.base -s physical.nodes="$N" -s physical.dimension="$n" "$@")" >>"$out"
        n=$((n + 1))
    done
}

# load_sweep FILE CONFIG MMAX FIGURE [-s ...]: "m value" for 60 loads in (0, MMAX]
load_sweep() {
    out=$1 cfg=$2 mmax=$3 fig=$4
    shift 4
    : >"$out"
    for i in $(awk 'BEGIN { for (i = 1; i <= 60; i++) print i }'); do
        m=$(awk -v i="$i" -v x="$mmax" 'BEGIN { printf "%.6g", i * x / 60 }')
        printf '%s %s\n' "$m" "$(an "$cfg" "$fig" -s workload.rate="$m" "$@")" >>"$out"
    done
}

# plot PNG TITLE XLABEL YLABEL LOGY XRANGE YRANGE then "file:title" curve specs
plot() {
    png=$1 title=$2 xl=$3 yl=$4 logy=$5 xr=$6 yr=$7
    shift 7
    {
        echo "set terminal pngcairo size 800,560 font ',11'"
        echo "set output '$png'"
        echo "set title \"$title\""
        echo "set xlabel \"$xl\"; set ylabel \"$yl\""
        echo "set key outside right; set grid; set datafile missing 'nan'"
        [ "$logy" = log ] && echo "set logscale y"
        echo "set xrange [$xr]; set yrange [$yr]"
        printf 'plot '
        sep=""
        for spec in "$@"; do
            printf '%s"%s" using 1:2 with linespoints pt 7 ps 0.5 title "%s"' "$sep" "${spec%%:*}" "${spec#*:}"
            sep=", "
        done
        echo
    } >"$tmp/plot.gp"
    gnuplot "$tmp/plot.gp"
}

echo "reproduce-002: base latency against dimension (Figs. 6-10, 15, 16, Sec. IV-C)" >&2
for N in 256 16384 1048576; do
    base_sweep "$tmp/f6-$N" $P "$N"
    base_sweep "$tmp/f9-$N" $P "$N" -s physical.constraint=fixed-bisection
    base_sweep "$tmp/f15-$N" $P "$N" -s physical.constraint=fixed-bisection -s physical.switch_delay=0
done
plot reports/002-fig06.png "Fig. 6: fixed channel width W = 8, L/W = 20 flits, s = 4" "dimension n" \
    "base latency T_b (units of T^w(2))" log "1.5:20.5" "*:*" \
    "$tmp/f6-256:N = 256" "$tmp/f6-16384:N = 16K" "$tmp/f6-1048576:N = 1M"
plot reports/002-fig09.png "Fig. 9: fixed bisection (unit-width binary n-cube, W = k/2), L = 160, s = 4" \
    "dimension n" "base latency T_b (units of T^w(2))" log "1.5:20.5" "*:*" \
    "$tmp/f9-256:N = 256" "$tmp/f9-16384:N = 16K" "$tmp/f9-1048576:N = 1M"
plot reports/002-fig15.png "Fig. 15: fixed bisection, zero switch delay (s = 0), L = 160" "dimension n" \
    "base latency T_b (units of T^w(2))" log "1.5:20.5" "*:*" \
    "$tmp/f15-256:N = 256" "$tmp/f15-16384:N = 16K" "$tmp/f15-1048576:N = 1M"

svals="0 1 2 4 8 16 32"
flits="1 2 5 10 20 50 100 200 400"
for s in $svals; do
    base_sweep "$tmp/f7a-$s" $P 1048576 -s physical.switch_delay="$s"
    base_sweep "$tmp/f8a-$s" $P 1024 -s physical.switch_delay="$s"
    base_sweep "$tmp/f10a-$s" $P 1024 -s physical.switch_delay="$s" -s physical.constraint=fixed-bisection
    for f in f7a f8a f10a; do echo "$tmp/$f-$s:s = $s" >>"$tmp/specs-$f"; done
done
for b in $flits; do
    L=$((8 * b))
    base_sweep "$tmp/f7b-$b" $P 1048576 -s workload.mean_length="$L"
    base_sweep "$tmp/f8b-$b" $P 1024 -s workload.mean_length="$L"
    base_sweep "$tmp/f10b-$b" $P 1024 -s workload.mean_length="$L" -s physical.constraint=fixed-bisection
    base_sweep "$tmp/f16-$b" $P 1048576 -s workload.mean_length="$L" -s physical.constraint=fixed-bisection \
        -s physical.switch_delay=0
    for f in f7b f8b; do echo "$tmp/$f-$b:L/W = $b flits" >>"$tmp/specs-$f"; done
    for f in f10b f16; do echo "$tmp/$f-$b:L = $L bits" >>"$tmp/specs-$f"; done
done
plot_specs() { # PNG TITLE XRANGE SPECFILE (one "file:title" per line)
    png=$1 title=$2 xr=$3 specs=$4
    set --
    while IFS= read -r spec; do set -- "$@" "$spec"; done <"$specs"
    plot "$png" "$title" "dimension n" "base latency T_b (units of T^w(2))" log "$xr" "*:*" "$@"
}
plot_specs reports/002-fig07a.png "Fig. 7(a): 1M nodes, fixed width, L/W = 20, switch delay s from 0 to 32" "1.5:20.5" "$tmp/specs-f7a"
plot_specs reports/002-fig07b.png "Fig. 7(b): 1M nodes, fixed width W = 8, s = 4, L/W from 1 to 400 flits" "1.5:20.5" "$tmp/specs-f7b"
plot_specs reports/002-fig08a.png "Fig. 8(a): 1K nodes, fixed width, L/W = 20, s from 0 to 32" "1.5:10.5" "$tmp/specs-f8a"
plot_specs reports/002-fig08b.png "Fig. 8(b): 1K nodes, fixed width W = 8, s = 4, L/W from 1 to 400 flits" "1.5:10.5" "$tmp/specs-f8b"
plot_specs reports/002-fig10a.png "Fig. 10(a): 1K nodes, fixed bisection (W = k/2), L = 160, s from 0 to 32" "1.5:10.5" "$tmp/specs-f10a"
plot_specs reports/002-fig10b.png "Fig. 10(b): 1K nodes, fixed bisection, s = 4, L from 8 to 3200 bits" "1.5:10.5" "$tmp/specs-f10b"
plot_specs reports/002-fig16.png "Fig. 16: 1M nodes, fixed bisection, s = 0, L from 8 to 3200 bits" "1.5:20.5" "$tmp/specs-f16"

echo "reproduce-002: best dimension for a given N" >&2
best() { an "$@" | awk '{ print $1 }'; }
for N in 256 1024 16384 1048576; do
    for c in fixed-width fixed-bisection fixed-node-size; do
        : >"$tmp/best-s-$c-$N"
        : >"$tmp/best-b-$c-$N"
        for s in 0 1 2 3 4 6 8 12 16 24 32; do
            printf '%s %s\n' "$s" "$(best $P kary-physical.best_dimension.base -s physical.nodes="$N" \
                -s physical.constraint="$c" -s physical.switch_delay="$s")" >>"$tmp/best-s-$c-$N"
        done
        for L in 8 16 40 80 160 400 800 1600 3200; do
            printf '%s %s\n' "$L" "$(best $P kary-physical.best_dimension.base -s physical.nodes="$N" \
                -s physical.constraint="$c" -s workload.mean_length="$L")" >>"$tmp/best-b-$c-$N"
        done
    done
done
{
    echo "set terminal pngcairo size 1200,800 font ',11'"
    echo "set output 'reports/002-fig-best-dimension.png'"
    echo "set multiplot layout 2,3 title 'Best dimension n (least base latency, eq. (2)) for a given N; L = 160 bits, s = 4 unless swept'"
    echo "set grid; set key top left; set yrange [1.5:6.5]; set ytics 1"
    for c in fixed-width fixed-bisection fixed-node-size; do
        w="W = 8"
        [ $c = fixed-bisection ] && w="W = k/2"
        [ $c = fixed-node-size ] && w="W = 64/n"
        echo "set title '$c ($w): against switch delay s'; set xlabel 's = T^s/T^w(2)'; unset logscale x; set xrange [0:32]"
        printf 'plot '
        sep=""
        for N in 256 1024 16384 1048576; do
            printf '%s"%s" using 1:2 with linespoints pt 7 title "N = %s"' "$sep" "$tmp/best-s-$c-$N" "$N"
            sep=", "
        done
        echo
    done
    for c in fixed-width fixed-bisection fixed-node-size; do
        echo "set title '$c: against message length L'; set xlabel 'L (bits)'; set logscale x; set xrange [8:3200]"
        printf 'plot '
        sep=""
        for N in 256 1024 16384 1048576; do
            printf '%s"%s" using 1:2 with linespoints pt 7 title "N = %s"' "$sep" "$tmp/best-b-$c-$N" "$N"
            sep=", "
        done
        echo
    done
    echo "unset multiplot"
} >"$tmp/best.gp"
gnuplot "$tmp/best.gp"

echo "reproduce-002: latency with contention (Figs. 11-14)" >&2
for n in 2 3 4 5; do
    load_sweep "$tmp/f11a-$n" $C 0.1 kary-physical.latency -s physical.dimension="$n" -s physical.wire_delay=unit
    load_sweep "$tmp/f11b-$n" $C 0.1 kary-physical.latency -s physical.dimension="$n"
    load_sweep "$tmp/f11c-$n" $C 0.025 kary-physical.latency -s physical.dimension="$n" \
        -s physical.constraint=fixed-bisection
    load_sweep "$tmp/f11d-$n" $C 0.07 kary-physical.latency -s physical.dimension="$n" \
        -s physical.constraint=fixed-node-size
    load_sweep "$tmp/f13-$n" $C 0.07 kary-physical.latency -s physical.dimension="$n" \
        -s physical.constraint=fixed-node-size -s physical.locality_fraction=0.3
done
load_sweep "$tmp/f14-ind" $C 0.13 kary-physical.indirect.latency -s physical.constraint=fixed-node-size
for l in 1 0.6 0.3 0.1; do
    load_sweep "$tmp/f14b-$l" $C 0.13 kary-physical.latency -s physical.constraint=fixed-node-size \
        -s physical.locality_fraction="$l"
done
for l in 1 0.81 0.64 0.49 0.25; do
    load_sweep "$tmp/f12-$l" $C 0.016 kary-physical.latency -s physical.switch_delay=0 -s physical.wire_delay=unit \
        -s network.bandwidth=1 -s workload.mean_length=4 -s physical.locality_fraction="$l"
done
Y="T_c (units of T^w(2))"
{
    plot reports/002-fig11a.png "Fig. 11(a): 1K nodes, L = 128, s = 4, W = 32, unit wire delay" "m (messages per node per cycle)" "$Y" lin "0:0.1" "0:800" \
        "$tmp/f11a-2:n = 2" "$tmp/f11a-3:n = 3" "$tmp/f11a-4:n = 4" "$tmp/f11a-5:n = 5"
    plot reports/002-fig11b.png "Fig. 11(b): 1K nodes, L = 128, s = 4, W = 32, planar wire delay" "m (messages per node per cycle)" "$Y" lin "0:0.1" "0:800" \
        "$tmp/f11b-2:n = 2" "$tmp/f11b-3:n = 3" "$tmp/f11b-4:n = 4" "$tmp/f11b-5:n = 5"
    plot reports/002-fig11c.png "Fig. 11(c): 1K nodes, fixed bisection (n = 2, W = 32: W = k), wire delay" "m (messages per node per cycle)" "$Y" lin "0:0.025" "0:1500" \
        "$tmp/f11c-2:n = 2" "$tmp/f11c-3:n = 3" "$tmp/f11c-4:n = 4" "$tmp/f11c-5:n = 5"
    plot reports/002-fig11d.png "Fig. 11(d): 1K nodes, fixed node size (n = 2, W = 32: W = 64/n), wire delay" "m (messages per node per cycle)" "$Y" lin "0:0.07" "0:800" \
        "$tmp/f11d-2:n = 2" "$tmp/f11d-3:n = 3" "$tmp/f11d-4:n = 4" "$tmp/f11d-5:n = 5"
    plot reports/002-fig13.png "Fig. 13: as Fig. 11(d) with locality l = 0.3" "m (messages per node per cycle)" "$Y" lin "0:0.07" "0:800" \
        "$tmp/f13-2:n = 2" "$tmp/f13-3:n = 3" "$tmp/f13-4:n = 4" "$tmp/f13-5:n = 5"
    plot reports/002-fig14a.png "Fig. 14(a): indirect (4x4 switches, 5 stages, W = 16) vs direct, 128 pins, no locality" "m (messages per node per cycle)" "$Y" lin "0:0.13" "0:800" \
        "$tmp/f14-ind:indirect" "$tmp/f11d-2:direct n = 2" "$tmp/f11d-3:direct n = 3" "$tmp/f11d-4:direct n = 4" "$tmp/f11d-5:direct n = 5"
    plot reports/002-fig14b.png "Fig. 14(b): indirect vs 2-D direct with locality l" "m (messages per node per cycle)" "$Y" lin "0:0.13" "0:800" \
        "$tmp/f14-ind:indirect" "$tmp/f14b-1:2-D, l = 1" "$tmp/f14b-0.6:2-D, l = 0.6" "$tmp/f14b-0.3:2-D, l = 0.3" "$tmp/f14b-0.1:2-D, l = 0.1"
    plot reports/002-fig12.png "Fig. 12: N = 1K, n = 2, k = 32, B = 4: locality l (eq. (10), cycles)" "m (messages per node per cycle)" "latency T_c (cycles)" lin "0:0.016" "0:150" \
        "$tmp/f12-1:l = 1" "$tmp/f12-0.81:l^(1/2) = 0.9" "$tmp/f12-0.64:l^(1/2) = 0.8" "$tmp/f12-0.49:l^(1/2) = 0.7" "$tmp/f12-0.25:l^(1/2) = 0.5"
}

echo "reproduce-002: contention model against simulation (Figs. 2-5)" >&2
# Model: kary-contention's delay.mean for the simulated configuration (eq. (10) at the
# measured k_d, counted from the creation instant); x = its channel utilisation ρ.
# Simulation: cut-through runs of configs/002/fig0[2-5].ini, 95% batch-means intervals.
scale=${REPRODUCE_SCALE:-1}
msgs=$((50000 * scale))
# model_curve FILE CONFIG RHOMAX "B kd-of-config" [-s ...]: "ρ delay.mean" over 40 loads
model_curve() {
    out=$1 cfg=$2 B=$3 kd=$4
    shift 4
    : >"$out"
    for i in $(awk 'BEGIN { for (i = 1; i <= 40; i++) print i }'); do
        m=$(awk -v i="$i" -v B="$B" -v kd="$kd" 'BEGIN { printf "%.6g", i * 0.985 / 40 / (B * kd) }')
        an "$cfg" "kary-contention.utilization kary-contention.delay.mean" -s workload.rate="$m" "$@" >>"$out"
    done
}
# sim_point TABLEFILE PLOTFILE LABEL CONFIG [-s ...]: one run; a row of the table and "ρ mean low high"
sim_point() {
    table=$1 pts=$2 label=$3 cfg=$4
    shift 4
    if "$sim" --no-progress -f csv -s run.messages="$msgs" "$cfg" "$@" >"$tmp/raw.csv" 2>"$tmp/err"; then
        sed 's/"[^"]*"//g' "$tmp/raw.csv" >"$tmp/run.csv" # text fields may hold commas
        awk -F, -v label="$label" -v pts="$pts" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            { rho = $col["analytic.utilization_max"]; s = $col["delay.mean"]; lo = $col["delay.ci95_low"]; hi = $col["delay.ci95_high"]
              m = $col["analytic.delay_mean"]
              printf "| %s | %.3f | %s | %.3f | %.3f [%.3f, %.3f] | %+.1f%% |\n", label, rho, $col["workload.rate"], m, s, lo, hi, 100 * (s - m) / m
              printf "%s %s %s %s\n", rho, s, lo, hi >>pts }' "$tmp/run.csv" >>"$table"
    else
        printf '| %s | | %s | | stopped: %s | |\n' "$label" "$(printf '%s\n' "$@" | sed -n 's/^workload.rate=//p')" \
            "$(cut -c1-60 "$tmp/err" | head -1)" >>"$table"
    fi
}
: >"$tmp/sim-table"
for b in 1 2 4 8; do
    model_curve "$tmp/f2-$b" configs/002/fig02.ini "$b" 4.5045 -s workload.mean_length="$b"
    model_curve "$tmp/f3-$b" configs/002/fig03.ini "$b" 4.5455 -s workload.mean_length="$b"
    : >"$tmp/f2-$b.sim"
    : >"$tmp/f3-$b.sim"
    for rho in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8; do
        m=$(awk -v r="$rho" -v b="$b" 'BEGIN { printf "%.6g", r / (b * 4.5) }')
        sim_point "$tmp/sim-table" "$tmp/f2-$b.sim" "2 | 10 | 3 | $b" configs/002/fig02.ini -s workload.mean_length="$b" -s workload.rate="$m"
        sim_point "$tmp/sim-table" "$tmp/f3-$b.sim" "3 | 10 | 2 | $b" configs/002/fig03.ini -s workload.mean_length="$b" -s workload.rate="$m"
    done
done
for n in 2 3 4; do
    model_curve "$tmp/f4-$n" configs/002/fig04.ini 4 1.6 -s network.dimension="$n"
    : >"$tmp/f4-$n.sim"
    for rho in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8; do
        m=$(awk -v r="$rho" 'BEGIN { printf "%.6g", r / (4 * 1.5) }')
        sim_point "$tmp/sim-table" "$tmp/f4-$n.sim" "4 | 4 | $n | 4" configs/002/fig04.ini -s network.dimension="$n" -s workload.rate="$m"
    done
done
: >"$tmp/sim-table5"
for kn in 10,3 10,2 4,2 4,3 4,4; do
    k=${kn%,*} n=${kn#*,}
    : >"$tmp/f5-$k-$n"
    : >"$tmp/f5-$k-$n.sim"
    for b in 2 3 4 5 6 7 8 9 10 11 12; do
        m=$(awk -v b="$b" -v k="$k" 'BEGIN { printf "%.6g", 0.4 / (b * (k - 1) / 2) }')
        printf '%s %s\n' "$b" "$(an configs/002/fig05.ini kary-contention.delay.mean -s network.radix="$k" -s network.dimension="$n" \
            -s workload.mean_length="$b" -s workload.rate="$m")" >>"$tmp/f5-$k-$n"
        case $b in 2 | 4 | 6 | 8 | 10 | 12)
            : >"$tmp/p5"
            sim_point "$tmp/sim-table5" "$tmp/p5" "5 | $k | $n | $b" configs/002/fig05.ini -s network.radix="$k" -s network.dimension="$n" \
                -s workload.mean_length="$b" -s workload.rate="$m"
            awk -v b="$b" '{ print b, $2, $3, $4 }' "$tmp/p5" >>"$tmp/f5-$k-$n.sim" ;;
        esac
    done
done
: >"$tmp/sim-mesh"
for rho in 0.1 0.2 0.3 0.4 0.5 0.6; do
    m=$(awk -v r="$rho" 'BEGIN { printf "%.6g", 2 * r / (4 * 3.3) }')
    sim_point "$tmp/sim-mesh" "$tmp/mesh.sim" "mesh | 10 | 2 | 4" configs/002/mesh.ini -s workload.rate="$m"
done
# plot_sim PNG TITLE XLABEL XRANGE YRANGE then "file:title" (model line + file.sim points with error bars)
plot_sim() {
    png=$1 title=$2 xl=$3 xr=$4 yr=$5
    shift 5
    {
        echo "set terminal pngcairo size 800,560 font ',11'"
        echo "set output '$png'"
        echo "set title \"$title\""
        echo "set xlabel \"$xl\"; set ylabel \"latency (cycles, from creation)\""
        echo "set key outside right; set grid; set datafile missing 'nan'"
        echo "set xrange [$xr]; set yrange [$yr]"
        printf 'plot '
        sep="" c=1
        for spec in "$@"; do
            f=${spec%%:*} t=${spec#*:}
            printf '%s"%s" using 1:2 with lines lc %d title "%s, model", "%s.sim" using 1:2:3:4 with yerrorbars lc %d pt 7 ps 0.7 title "%s, simulation"' \
                "$sep" "$f" "$c" "$t" "$f" "$c" "$t"
            sep=", " c=$((c + 1))
        done
        echo
    } >"$tmp/plot.gp"
    gnuplot "$tmp/plot.gp"
}
R="channel utilisation rho = m B k_d"
plot_sim reports/002-fig02.png "Fig. 2: k = 10, n = 3 (1000 nodes): eq. (10) (lines) and cut-through simulation" "$R" "0:1" "0:120" \
    "$tmp/f2-1:B = 1" "$tmp/f2-2:B = 2" "$tmp/f2-4:B = 4" "$tmp/f2-8:B = 8"
plot_sim reports/002-fig03.png "Fig. 3: k = 10, n = 2 (100 nodes): eq. (10) (lines) and cut-through simulation" "$R" "0:1" "0:120" \
    "$tmp/f3-1:B = 1" "$tmp/f3-2:B = 2" "$tmp/f3-4:B = 4" "$tmp/f3-8:B = 8"
plot_sim reports/002-fig04.png "Fig. 4: k = 4, B = 4: eq. (10) (lines) and cut-through simulation" "$R" "0:1" "0:120" \
    "$tmp/f4-2:n = 2" "$tmp/f4-3:n = 3" "$tmp/f4-4:n = 4"
plot_sim reports/002-fig05.png "Fig. 5: latency against packet size B at channel utilisation 0.4" "packet size B (flits)" "1.5:12.5" "0:*" \
    "$tmp/f5-10-3:k = 10, n = 3" "$tmp/f5-10-2:k = 10, n = 2" "$tmp/f5-4-2:k = 4, n = 2" "$tmp/f5-4-3:k = 4, n = 3" "$tmp/f5-4-4:k = 4, n = 4"
{
    echo "# Seed 002 (Agarwal 1991): the contention model against simulation (Figs. 2-5)"
    echo
    echo "Cut-through switching (routing/flit_cycle.c: unbounded buffers, one flit per channel per cycle, one cycle per hop),"
    echo "one-way torus, dimension-ordered routing, constant B-flit packets, Poisson creation, destinations uniform"
    echo "over the other nodes; configs/002/fig0[2-5].ini, $msgs messages after 5000, seed 1, 95% batch-means"
    echo "intervals.  Model: kary-contention's delay.mean, eq. (10) at the measured k_d = (k-1)/2 N/(N-1), minus"
    echo "half a cycle (the run counts from the creation instant, the seed from the cycle of generation).  The paper"
    echo "prints no simulated values (points on its plots only), so there is no published column; rho is the model's"
    echo "utilisation m B k_d.  Generated by scripts/reproduce-002.sh (REPRODUCE_SCALE=$scale)."
    echo
    echo "| fig | k | n | B | rho | m | model | simulation [95% CI] | difference |"
    echo "|---|---|---|---|---|---|---|---|---|"
    cat "$tmp/sim-table" "$tmp/sim-table5"
    echo
    echo "## Sec. III-C: bidirectional mesh (no end-around links, configs/002/mesh.ini)"
    echo
    echo "The points are at the paper's rho = m B k_d / 2 = 0.1 .. 0.6; the table gives the busiest channel's"
    echo "utilisation (the middle channels of each row, about 1.5 times rho).  The paper: accurate at low to"
    echo "moderate load, the simulation higher at heavy load."
    echo
    echo "| network | k | n | B | busiest channel | m | model | simulation [95% CI] | difference |"
    echo "|---|---|---|---|---|---|---|---|---|"
    cat "$tmp/sim-mesh"
    echo
    if grep -q stopped "$tmp/sim-table" "$tmp/sim-mesh"; then
        echo
        echo "\"stopped\": the run ended with an error (its first line is shown); the point is left out."
    fi
} >reports/002-simulation.md

echo "reproduce-002: published numbers" >&2
{
    echo "# Seed 002 (Agarwal 1991): the paper's printed numbers against the model"
    echo
    echo "Every number the paper prints that its models determine (configs/002/published.csv), evaluated with"
    echo "\`sim --analytic\` (models kary-physical and kary-contention, analytic/kary_*.c).  Tolerance: half a unit of"
    echo "the printed digit (one unit for \"about\"/\"roughly\" and for integers read off a plot; 0 for a dimension)."
    echo "*disagree* rows are numbers the paper's own formulas do not give; the reason is in the source column (note 002 §9)."
    echo "The paper prints no simulated numbers (its simulations appear only as plotted points)."
    echo "Generated by scripts/reproduce-002.sh."
    echo
    echo "| id | figure | published | model | difference | tolerance | agreement | source |"
    echo "|---|---|---|---|---|---|---|---|"
    grep -v '^#' configs/002/published.csv | tail -n +2 | while IFS=, read -r id cfg ov fig pub tol exp src; do
        set --
        for o in $ov; do set -- "$@" -s "$o"; done
        v=$(an "configs/002/$cfg" "$fig" "$@")
        awk -v id="$id" -v fig="$fig" -v p="$pub" -v v="$v" -v t="$tol" -v e="$exp" -v src="$src" 'BEGIN {
            d = v - p; a = d < 0 ? -d : d
            ok = a <= t + 1e-12 ? "agree" : "**disagree**"
            printf "| %s | %s | %s | %.6g | %+.4g | %s | %s%s | %s |\n", id, fig, p, v, d, t, ok, (ok == "agree") == (e == "agree") ? "" : " (unexpected)", src }'
    done
} >reports/002-published.md

echo "reproduce-002: tables" >&2
{
    echo "# Seed 002 (Agarwal 1991): base latency and the best dimension (Figs. 6-10, 15, 16; Sec. IV-C)"
    echo
    echo "Base latency T_b = (s + N^(1/2 - 1/n)) (n (k - 1)/2 + L/W), eq. (2), in units of T^w(2), k = N^(1/n)"
    echo "(fractional), one-way torus.  Best n = the dimension of least T_b over n = 2 .. log2 N"
    echo "(figure kary-physical.best_dimension.base).  Fixed width: W = 8; fixed bisection: W = k/2;"
    echo "fixed node size: W = 64/n.  The paper prints no latencies for these figures, only the best n"
    echo "(see 002-published.md).  Generated by scripts/reproduce-002.sh; plots reports/002-fig06 ... fig16.png."
    echo
    for c in fixed-width fixed-bisection fixed-node-size; do
        echo "## $c: best n against switch delay s (L = 160 bits)"
        echo
        echo "| N | s = 0 | 1 | 2 | 3 | 4 | 6 | 8 | 12 | 16 | 24 | 32 |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
        for N in 256 1024 16384 1048576; do
            printf '| %s |%s\n' "$N" "$(awk '{ printf " %s |", $2 }' "$tmp/best-s-$c-$N")"
        done
        echo
        echo "## $c: best n against message length L (s = 4)"
        echo
        echo "| N | L = 8 | 16 | 40 | 80 | 160 | 400 | 800 | 1600 | 3200 |"
        echo "|---|---|---|---|---|---|---|---|---|---|"
        for N in 256 1024 16384 1048576; do
            printf '| %s |%s\n' "$N" "$(awk '{ printf " %s |", $2 }' "$tmp/best-b-$c-$N")"
        done
        echo
    done
    echo "## Fig. 6: T_b against n (fixed width W = 8, L/W = 20, s = 4)"
    echo
    echo "| n | N = 256 | N = 16K | N = 1M |"
    echo "|---|---|---|---|"
    awk 'FILENAME ~ /f6-256$/ { a[$1] = $2 } FILENAME ~ /f6-16384$/ { b[$1] = $2 } FILENAME ~ /f6-1048576$/ { c[$1] = $2; if ($1 > max) max = $1 }
         END { for (n = 2; n <= max; n++) printf "| %d | %s | %s | %s |\n", n, (n in a) ? sprintf("%.1f", a[n]) : "", (n in b) ? sprintf("%.1f", b[n]) : "", sprintf("%.1f", c[n]) }' \
        "$tmp/f6-256" "$tmp/f6-16384" "$tmp/f6-1048576"
} >reports/002-base-latency.md

{
    echo "# Seed 002 (Agarwal 1991): latency with contention (Figs. 11-14) and the contention model (Figs. 2-5)"
    echo
    echo "T_c = (s + N^(1/2 - 1/n)) (n k_d (1 + w) + L/W), eq. (12), w from eq. (8), units of T^w(2); N = 1K,"
    echo "L = 128 bits, s = 4 (model kary-physical).  Figs. 2-5 and 12 are eq. (10) in cycles (clock 1)."
    echo "Saturation rate m_sat = 1/(B k_d).  Generated by scripts/reproduce-002.sh; plots reports/002-fig11*.png,"
    echo "fig12-14.png and fig02-05.png.  The paper prints no values on these curves beyond those in 002-published.md."
    echo
    echo "## Saturation rates and T_c at m = 0.005 (n = 2 .. 5)"
    echo
    echo "| panel | n | W | B = L/W | m_sat | T_c at m = 0.005 |"
    echo "|---|---|---|---|---|---|"
    for panel in "11(a) unit wire, W = 32:-s physical.wire_delay=unit" "11(b) wire delay, W = 32:" \
        "11(c) fixed bisection, W = k:-s physical.constraint=fixed-bisection" \
        "11(d) fixed node size, W = 64/n:-s physical.constraint=fixed-node-size" \
        "13 fixed node size, l = 0.3:-s physical.constraint=fixed-node-size -s physical.locality_fraction=0.3"; do
        name=${panel%%:*} opts=${panel#*:}
        for n in 2 3 4 5; do
            # shellcheck disable=SC2086
            an $C "kary-physical.channel_width kary-physical.flits kary-physical.saturation_rate kary-physical.latency" \
                -s physical.dimension="$n" -s workload.rate=0.005 $opts |
                awk -v p="$name" -v n="$n" '{ printf "| %s | %d | %.4g | %.4g | %.4g | %s |\n", p, n, $1, $2, $3, $4 == "nan" ? "saturated" : sprintf("%.1f", $4) }'
        done
    done
    an $C "kary-physical.indirect.channel_width kary-physical.indirect.flits kary-physical.indirect.saturation_rate kary-physical.indirect.latency" \
        -s physical.constraint=fixed-node-size -s workload.rate=0.005 |
        awk '{ printf "| 14 indirect 4x4, 5 stages | - | %.4g | %.4g | %.4g | %.1f |\n", $1, $2, $3, $4 }'
    echo
    echo "## Fig. 12: eq. (10) in cycles, N = 1K, n = 2, B = 4"
    echo
    echo "| m | l = 1 | l^(1/2) = 0.9 | drop | hop part of the drop |"
    echo "|---|---|---|---|---|"
    for m in 0.001 0.004 0.008 0.012 0.014; do
        a=$(an $C kary-physical.latency -s physical.switch_delay=0 -s physical.wire_delay=unit -s network.bandwidth=1 -s workload.mean_length=4 -s workload.rate=$m)
        b=$(an $C kary-physical.latency -s physical.switch_delay=0 -s physical.wire_delay=unit -s network.bandwidth=1 -s workload.mean_length=4 -s workload.rate=$m -s physical.locality_fraction=0.81)
        awk -v m="$m" -v a="$a" -v b="$b" 'BEGIN { printf "| %s | %.2f | %.2f | %.1f%% | %.1f%% |\n", m, a, b, 100 * (a - b) / a, 100 * 2 * (15.5 - 13.9) / a }'
    done
    echo
    echo "The paper: 35 -> 31 at m = 0.001 and 67 -> 50 (over 25%, of which under 6% from hops) at m = 0.012."
    echo "Eq. (10) gives 35.7 -> 32.5 and 67.6 -> 54.1 (20%, 4.7% from hops): the text's 31 and 50 are not"
    echo "values of the model (note 002 §9 item 12); the split (hops a few per cent, bandwidth the rest) is."
} >reports/002-contention.md
echo "reproduce-002: done (reports/002-*.md, reports/002-fig*.png)" >&2
