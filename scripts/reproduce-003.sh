#!/bin/sh
# Reproduces seed 003 (Kim & Das 1994, wormhole routing in a 10-cube): the model
# (wormhole-hypercube, sim --analytic) on a fine grid of rho = lambda_g * l, and the
# simulation at a few points of each configs/003/fig*.ini experiment.  Writes
#   reports/003-results.md   one table per experiment: model, simulation (95% CI), differences
#   reports/003-fig2.png ... 003-fig6.png   the seed's figures (blocking and delay vs rho)
# The seed prints no point values (its figures' images were lost), so there is no
# published column; its one quantitative claim, "within 5%" (configs/003/published.csv),
# is the check column.
# usage: scripts/reproduce-003.sh [SIM]    (default bin/sim; REPRODUCE_SCALE=k runs k times more messages)
# POSIX sh, awk and gnuplot only.
set -eu
sim=${1:-bin/sim}
scale=${REPRODUCE_SCALE:-1}
cd "$(dirname "$0")/.."
script=reproduce-003
. scripts/lib-reproduce.sh
tol=$(awk -F, '$1 == "delay_agreement" { print $2 }' configs/003/published.csv)
[ -n "$tol" ] || { echo "reproduce-003: no delay_agreement in configs/003/published.csv" >&2; exit 2; }
L=200 # flits (configs/003: mean_length 200, bandwidth 1)
M=wormhole-hypercube

# Prints the named CSV columns of sim's output (quoted text blanked), tab-separated,
# "nan" for empty cells.
columns() {
    sed 's/"[^"]*"/""/g' | awk -F, -v OFS='\t' -v want="$*" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
            n = split(want, w, " ")
            line = ""
            for (i = 1; i <= n; i++) {
                x = (w[i] in col) ? $col[w[i]] : ""
                if (x == "" || x == "false") x = (x == "false") ? 0 : "nan"
                if (x == "true") x = 1
                line = line (i > 1 ? "\t" : "") x
            }
            print line
        }'
}

# Model curve of one experiment, rho = 0.005 .. 0.6:
#   rho, delay, simple-average delay, P_b mean, P_b dim0, P_b dim9, acceptance, unstable
model_curve() { # name
    i=1
    while [ "$i" -le 120 ]; do
        rho=$(awk -v i="$i" 'BEGIN { print i * 0.005 }')
        printf '%s\t' "$rho"
        run_sim --analytic -f csv -s "workload.rate=$(awk -v r="$rho" -v l="$L" 'BEGIN { print r / l }')" \
            "configs/003/$1.ini" |
            columns "$M.switching.network_delay_mean" "$M.delay.simple_average" "$M.switching.blocking_probability" \
                "$M.switching.blocking_dim0" "$M.switching.blocking_dim9" "$M.switching.acceptance_probability" \
                analytic.unstable
        [ ! -e "$tmp/failed" ] || exit 1
        i=$((i + 1))
    done >"$tmp/$1.model"
}

# Run length of the simulated points: a message count, or (random routing, whose throughput collapses past
# rho = 0.1, so a count would take hours) a span of cycles.
by_messages="-s run.messages=$((20000 * scale)) -s run.warmup_messages=$((5000 * scale))"
by_cycles="-s run.warmup_time=20000 -s run.duration=$((200000 * scale))"

# Simulated points of one experiment:
#   1 rho, 2 total delay, 3 CI low, 4 CI high, 5 network delay, 6 source wait, 7 P_b mean, 8 P_b dim0,
#   9 P_b dim9, 10 acceptance, 11 saturated, 12 model delay, 13 model P_b dim0, 14 model P_b dim9,
#   15 model acceptance, 16 model P_b mean, 17 deadlock recoveries, 18 recoveries per message,
#   19 throughput / offered
sim_points() { # name length rho...
    name=$1
    length=$2
    shift 2
    for rho in "$@"; do
        rate=$(awk -v r="$rho" -v l="$L" 'BEGIN { print r / l }')
        printf '%s\t' "$rho"
        # shellcheck disable=SC2086 # $length is a list of options
        run_sim --no-progress -f csv -s "workload.rate=$rate" $length "configs/003/$name.ini" >"$tmp/point.csv"
        columns delay.mean delay.ci95_low delay.ci95_high switching.network_delay_mean switching.source_wait_mean \
            switching.blocking_probability switching.blocking_dim0 switching.blocking_dim9 \
            switching.acceptance_probability switching.saturated <"$tmp/point.csv" | tr '\n' '\t'
        run_sim --analytic -f csv -s "workload.rate=$rate" "configs/003/$name.ini" |
            columns "$M.switching.network_delay_mean" "$M.switching.blocking_dim0" "$M.switching.blocking_dim9" \
                "$M.switching.acceptance_probability" "$M.switching.blocking_probability" | tr '\n' '\t'
        columns switching.recoveries switching.recovery_rate throughput <"$tmp/point.csv" |
            awk -F'\t' -v rate="$rate" -v OFS='\t' '{ $3 = $3 == "nan" ? "nan" : $3 / rate; print }'
        [ ! -e "$tmp/failed" ] || exit 1
    done >"$tmp/$name.sim"
}

infinite_points="0.05 0.10 0.15 0.20 0.25 0.30"
finite_points="0.05 0.10 0.15 0.20 0.25 0.30 0.35 0.40 0.45 0.50"
for d in 2-4-uniform 3-5-spherical; do
    dist=${d#*-*-}
    fig=${d%%-*}
    model_curve "fig$d-wormhole-infinite"
    model_curve "fig$d-wormhole-finite"
    model_curve "fig$fig-$dist-cut-through"
    sim_points "fig$d-wormhole-infinite" "$by_messages" $infinite_points
    sim_points "fig$d-wormhole-finite" "$by_messages" $finite_points
    sim_points "fig$fig-$dist-cut-through" "$by_messages" $infinite_points
done
for f in fig4-uniform-random-infinite fig4-uniform-random-finite fig5-spherical-random-infinite \
    fig5-spherical-random-finite; do
    model_curve "$f"
    sim_points "$f" "$by_cycles" $infinite_points
done

# --- the markdown report ---
table() { # name title
    echo
    echo "## $2"
    echo
    echo "\`configs/003/$1.ini\`, workload.rate = ρ / 200."
    echo
    echo "| ρ | model t_avg | sim network delay | Δ | within ${tol}? | sim delay from creation [95% CI] | Δ | sim source wait | model P_b,0 | sim P_b,0 | model P_b,9 | sim P_b,9 | model P_b mean | sim P_b mean | model acceptance | sim acceptance |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    awk -F'\t' -v tol="$tol" '
    function pct(a, b) { return (a == "nan" || b == "nan" || b == 0) ? "" : sprintf("%+.1f%%", 100 * (a - b) / b) }
    function g(x) { return x == "nan" ? "-" : sprintf("%.4g", x) }
    {
        if ($11 == 1) {
            printf "| %s | %s | saturated: source queues grow without bound | | | | | | %s | %s | %s | %s | %s | %s | | |\n",
                   $1, g($12), g($13), g($8), g($14), g($9), g($16), g($7)
            next
        }
        ok = ($12 == "nan" || $5 == "nan") ? "" : (($5 - $12) / $12 <= tol && ($12 - $5) / $12 <= tol ? "yes" : "**no**")
        printf "| %s | %s | %s | %s | %s | %s [%s, %s] | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
               $1, g($12), g($5), pct($5, $12), ok, g($2), g($3), g($4), pct($2, $12), g($6),
               g($13), g($8), g($14), g($9), g($16), g($7), g($15), g($10)
    }' "$tmp/$1.sim"
}
random_table() { # name title
    echo
    echo "### $2"
    echo
    echo "\`configs/003/$1.ini\`, workload.rate = ρ / 200."
    echo
    echo "| ρ | model t_avg | sim network delay | Δ | sim delay from creation | model acceptance | sim acceptance | recoveries | per message | carried |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    awk -F'\t' '
    function pct(a, b) { return (a == "nan" || b == "nan" || b == 0) ? "" : sprintf("%+.1f%%", 100 * (a - b) / b) }
    function g(x) { return x == "nan" ? "-" : sprintf("%.4g", x) }
    {
        if ($11 == 1)
            printf "| %s | %s | saturated | | | %s | %s | %s | %s | %s |\n", $1, g($12), g($15), g($10), g($17), g($18), g($19)
        else
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, g($12), g($5), pct($5, $12), g($2),
                   g($15), g($10), g($17), g($18), g($19)
    }' "$tmp/$1.sim"
}
{
    echo "# Seed 003 (Kim & Das 1994): the model, this simulator, and the seed's claim"
    echo
    echo "Generated by \`scripts/reproduce-003.sh\` (\`make reproduce-003\`; REPRODUCE_SCALE=$scale: $((20000 * scale))"
    echo "messages measured after $((5000 * scale)) per point).  10-cube, Poisson arrivals, exponential lengths of mean"
    echo "l = 200 flits, t_u = 1 cycle, ρ = λ_g·l.  *model*: \`wormhole-hypercube\` (Kim & Das eqs. 1-14 as note 003"
    echo "reconstructs them; t_avg counts from the grant of the first channel, as the seed's eqs. 8 and 12 do)."
    echo "*sim network delay*: from that grant to the tail's delivery (\`switching.network_delay_mean\`); *sim delay"
    echo "from creation*: adds the wait at the source (\`delay.mean\` with its batch-means 95% interval; the seed's"
    echo "model has no term for it).  Δ = (sim − model) / model.  P_b,s: fraction of requests for a channel of"
    echo "dimension s that find it busy (s = 0 the lowest, 9 the highest channel in e-cube order).  The seed prints"
    echo "no point values (its figures were lost with the images), so there is no published column; \"within ${tol}\""
    echo "checks its one quantitative claim (Sec. IV: analysis and simulation of Figs. 4-5 match within 5%) on the"
    echo "network delay."
    table fig2-4-uniform-wormhole-infinite "Figs. 2 and 4: uniform destinations, LR wormhole, infinite buffer"
    table fig2-4-uniform-wormhole-finite "Figs. 2 and 4: uniform destinations, LR wormhole, finite buffer"
    table fig2-uniform-cut-through "Fig. 2: uniform destinations, virtual cut-through (delay: our completion of the model)"
    table fig3-5-spherical-wormhole-infinite "Figs. 3 and 5: spherical destinations (P_k = 1/n), LR wormhole, infinite buffer"
    table fig3-5-spherical-wormhole-finite "Figs. 3 and 5: spherical destinations (P_k = 1/n), LR wormhole, finite buffer"
    table fig3-spherical-cut-through "Fig. 3: spherical destinations (P_k = 1/n), virtual cut-through"
    echo
    echo
    echo "## Random wormhole routing (Figs. 4 and 5) with deadlock recovery"
    echo
    echo "The seed only analyses random routing (eqs. 12-14): without virtual channels it can deadlock.  Here it is"
    echo "simulated with \`routing.deadlock = recover\`: every 64 cycles a search finds the worms that can never"
    echo "advance and aborts the youngest of each cycle, which is sent again from its source on a new random path"
    echo "(delays include the retries).  Time mode: 200,000 cycles × REPRODUCE_SCALE after 20,000, since past"
    echo "ρ = 0.1 the throughput collapses and a message count would take hours.  *recoveries*: aborts in the window,"
    echo "and per message delivered; *carried*: throughput / offered load.  A saturated point (source queues growing)"
    echo "has its delays withheld."
    random_table fig4-uniform-random-infinite "Fig. 4: uniform destinations, random wormhole, infinite buffer"
    random_table fig4-uniform-random-finite "Fig. 4: uniform destinations, random wormhole, finite buffer"
    random_table fig5-spherical-random-infinite "Fig. 5: spherical destinations, random wormhole, infinite buffer"
    random_table fig5-spherical-random-finite "Fig. 5: spherical destinations, random wormhole, finite buffer"
} >reports/003-results.md.tmp
mv reports/003-results.md.tmp reports/003-results.md

# --- figures ---
# Model curves with the unstable points dropped.
for f in "$tmp"/*.model; do awk -F'\t' '$8 != 1' "$f" >"$f.ok"; done
# Simulated points that are not saturated.
for f in "$tmp"/*.sim; do awk -F'\t' '$11 != 1' "$f" >"$f.ok"; done

blocking_figure() { # file title d fig dist
    wi="$tmp/fig$3-wormhole-infinite" wf="$tmp/fig$3-wormhole-finite" ct="$tmp/fig$4-$5-cut-through"
    cat >"$tmp/plot.gp" <<EOF
set terminal pngcairo size 900,650 font 'sans,10'
set output 'reports/$1'
set title "$2"
set xlabel '{/Symbol r} = {/Symbol l}_g l'
set ylabel 'probability of blocking P_b'
set xrange [0:0.6]
set yrange [0:1]
set key top left font ',9'
set grid
plot '$wi.model.ok' using 1:5 with lines lt 1 lw 2 title 'wormhole, infinite buffer, lowest channel (0): analysis', \\
     '$wi.sim.ok' using 1:8 with points lt 1 pt 7 title '  simulation', \\
     '$wi.model.ok' using 1:6 with lines lt 2 lw 2 title 'wormhole, infinite buffer, highest channel (9): analysis', \\
     '$wi.sim.ok' using 1:9 with points lt 2 pt 7 title '  simulation', \\
     '$wf.model.ok' using 1:5 with lines lt 3 lw 2 title 'wormhole, finite buffer, lowest channel: analysis', \\
     '$wf.sim.ok' using 1:8 with points lt 3 pt 5 title '  simulation (refusals at a busy source included)', \\
     '$wf.model.ok' using 1:6 with lines lt 4 lw 2 title 'wormhole, finite buffer, highest channel: analysis', \\
     '$wf.sim.ok' using 1:9 with points lt 4 pt 5 title '  simulation', \\
     '$ct.model.ok' using 1:4 with lines lt 7 lw 2 dt 2 title 'virtual cut-through, every channel: analysis', \\
     '$ct.sim.ok' using 1:7 with points lt 7 pt 9 title '  simulation (all channels)'
EOF
    gnuplot "$tmp/plot.gp"
}

delay_figure() { # file title d fig dist
    wi="$tmp/fig$3-wormhole-infinite" wf="$tmp/fig$3-wormhole-finite"
    ri="$tmp/fig$4-$5-random-infinite" rf="$tmp/fig$4-$5-random-finite"
    cat >"$tmp/plot.gp" <<EOF
set terminal pngcairo size 900,650 font 'sans,10'
set output 'reports/$1'
set title "$2"
set xlabel '{/Symbol r} = {/Symbol l}_g l   (l = 200 flits, t_u = 1)'
set ylabel 'average message delay t_{avg} (t_u)'
set xrange [0:0.6]
set yrange [200:800]
set key top left font ',9'
set grid
plot '$wi.model.ok' using 1:2 with lines lt 1 lw 2 title 'LR wormhole, infinite buffer: analysis', \\
     '$wi.sim.ok' using 1:5 with points lt 1 pt 7 title '  simulation, network delay', \\
     '$wi.sim.ok' using 1:2:3:4 with yerrorbars lt 1 pt 6 title '  simulation, from creation (95% CI)', \\
     '$wf.model.ok' using 1:2 with lines lt 2 lw 2 title 'LR wormhole, finite buffer: analysis', \\
     '$wf.sim.ok' using 1:5 with points lt 2 pt 5 title '  simulation, network delay', \\
     '$wf.sim.ok' using 1:2:3:4 with yerrorbars lt 2 pt 4 title '  simulation, from creation (95% CI)', \\
     '$ri.model.ok' using 1:2 with lines lt 3 lw 2 dt 3 title 'random wormhole, infinite buffer: analysis', \\
     '$ri.sim.ok' using 1:5 with points lt 3 pt 9 title '  simulation with deadlock recovery, network delay', \\
     '$rf.model.ok' using 1:2 with lines lt 4 lw 2 dt 3 title 'random wormhole, finite buffer: analysis', \\
     '$rf.sim.ok' using 1:5 with points lt 4 pt 11 title '  simulation with deadlock recovery, network delay'
EOF
    gnuplot "$tmp/plot.gp"
}

blocking_figure 003-fig2.png "Fig. 2: Probability of blocking in a 10-cube (uniform distribution)" 2-4-uniform 2 uniform
blocking_figure 003-fig3.png "Fig. 3: Probability of blocking in a 10-cube (spherical distribution, P_k = 1/n)" \
    3-5-spherical 3 spherical
delay_figure 003-fig4.png "Fig. 4: Average message delay in a 10-cube (uniform distribution)" 2-4-uniform 4 uniform
delay_figure 003-fig5.png "Fig. 5: Average message delay in a 10-cube (spherical distribution, P_k = 1/n)" \
    3-5-spherical 5 spherical

wi="$tmp/fig2-4-uniform-wormhole-infinite"
cat >"$tmp/plot.gp" <<EOF
set terminal pngcairo size 900,650 font 'sans,10'
set output 'reports/003-fig6.png'
set title "Fig. 6: average message delay in a 10-cube (uniform), infinite buffer\\n(Dally's analysis and simulation [13] are not in the seed: Kim-Das analysis and this simulator only)"
set xlabel '{/Symbol r} = {/Symbol l}_g l'
set ylabel 'delay / l  (message lengths)'
set xrange [0:0.6]
set yrange [1:4]
set key top left font ',9'
set grid
plot '$wi.model.ok' using 1:(\$3/$L) with lines lt 1 lw 2 dt 2 title "Kim-Das analysis, simple average of D_s (the seed's Fig. 6 curve)", \\
     '$wi.model.ok' using 1:(\$2/$L) with lines lt 2 lw 2 title 'Kim-Das analysis, weighted average (eq. 11)', \\
     '$wi.sim.ok' using 1:(\$5/$L) with points lt 3 pt 7 title 'simulation, network delay', \\
     '$wi.sim.ok' using 1:(\$2/$L):(\$3/$L):(\$4/$L) with yerrorbars lt 4 pt 6 title 'simulation, from creation (95% CI)'
EOF
gnuplot "$tmp/plot.gp"
echo "reproduce-003: reports/003-results.md and reports/003-fig2.png ... 003-fig6.png" >&2
