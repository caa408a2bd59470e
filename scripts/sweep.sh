#!/bin/sh
# A parameter sweep in plain sh, to copy and adapt: runs `sim` once per value of one
# key and writes one CSV (one header, then one row per value) to stdout.
#
#   scripts/sweep.sh CONFIG SECTION.KEY VALUE...
#   SIM_ARGS='-s run.messages=100000 --replications 5' \
#       scripts/sweep.sh configs/default.ini workload.rate 0.4 0.8 1.2 >rate.csv
#
# SIM is the binary (default: the clone's bin/sim beside these scripts, else sim on
# PATH, as installed), SIM_ARGS more options for every run.  Every
# run keeps the config's seed (common random numbers across values); `sim --sweep`
# instead derives each point's seed from its coordinates and runs points in parallel.
# Runs may have different columns (a report echoes only the keys of the plug-ins it
# chose, and each engine has its own figures): the header is then the union of the
# runs' headers, the configuration keys in `sim --list` order (as `sim --sweep` writes
# them), then the figures, each new one after the column it follows in its own run;
# every row is written under it by column name, empty where a run lacks a column.
# Rows are written when the loop ends.  A run that fails (e.g. a saturated value:
# exit 2) stops the loop with its status, and an interrupt (INT, TERM) with 130; the
# rows of the runs done so far are written either way.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 CONFIG SECTION.KEY VALUE..." >&2
    exit 2
fi
sim=sim
[ ! -x "$(dirname "$0")/../bin/sim" ] || sim=$(dirname "$0")/../bin/sim
sim=${SIM:-$sim}
config=$1
key=$2
shift 2
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
# Every key in listing order, "section.key" per line: the order of the config columns.
"$sim" --list | awk '/^\[/ { s = substr($0, 2, length($0) - 2); next }
    /^  [a-z0-9_]+ +(integer|number|choice|boolean|list|text) / { print s "." $1 }' >"$runs/keys"

# Every run's CSV in $runs/1, $runs/2...: the union of their headers, each row under it.
merge() {
    set --
    i=1
    while [ -e "$runs/$i" ]; do
        set -- "$@" "$runs/$i"
        i=$((i + 1))
    done
    [ $# -gt 0 ] || return 0
    awk -v keys="$runs/keys" '
        # Splits CSV line s (RFC 4180: quoted fields may hold commas and doubled quotes) into f.
        function split_csv(s, f,   n, i, c, quoted, cell) {
            n = 0; cell = ""; quoted = 0
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                if (c == "\"") quoted = !quoted
                if (c == "," && !quoted) { f[++n] = cell; cell = ""; continue }
                cell = cell c
            }
            f[++n] = cell
            return n
        }
        BEGIN { while ((getline k < keys) > 0) rank[k] = ++n_keys }
        FNR == 1 {
            file++; n = split_csv($0, h)
            prev = 0 # the union position of the previous column of this header
            for (i = 1; i <= n; i++) {
                col[file, i] = h[i]
                if (!(h[i] in pos)) { # insert after prev
                    for (k = ncols; k > prev; k--) { name[k + 1] = name[k]; pos[name[k + 1]] = k + 1 }
                    name[prev + 1] = h[i]; pos[h[i]] = prev + 1; ncols++
                }
                prev = pos[h[i]]
            }
            width[file] = n
            next
        }
        { rows++; row_file[rows] = file; line[rows] = $0 }
        END {
            # The config columns first, by rank; the others keep their order (a stable sort).
            for (k = 2; k <= ncols; k++) {
                c = name[k]; r = (c in rank) ? rank[c] : n_keys + 1
                for (j = k - 1; j >= 1 && ((name[j] in rank) ? rank[name[j]] : n_keys + 1) > r; j--) name[j + 1] = name[j]
                name[j + 1] = c
            }
            for (k = 1; k <= ncols; k++) printf "%s%s", name[k], k < ncols ? "," : "\n"
            for (r = 1; r <= rows; r++) {
                split_csv(line[r], v); delete at
                for (i = 1; i <= width[row_file[r]]; i++) at[col[row_file[r], i]] = v[i]
                for (k = 1; k <= ncols; k++) printf "%s%s", (name[k] in at) ? at[name[k]] : "", k < ncols ? "," : "\n"
            }
        }' "$@"
}

trap 'merge; echo "$0: interrupted" >&2; exit 130' INT TERM
i=0
for value in "$@"; do
    i=$((i + 1))
    # $SIM_ARGS is split into words on purpose: it holds several options.
    # shellcheck disable=SC2086
    "$sim" -f csv --no-progress ${SIM_ARGS:-} -s "$key=$value" "$config" >"$runs/$i" || {
        status=$?
        rm -f "$runs/$i"
        merge
        echo "$0: $key=$value failed (exit status $status)" >&2
        exit "$status"
    }
done
merge
