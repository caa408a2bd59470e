#!/bin/sh
# Golden fingerprints: every configs/**/*.ini run short (JSON, --no-timing), its
# --analytic (JSON) and --describe output; plus --list, and the table output of every
# top-level config and of one config per engine and protocol of the seed folders.
# Each is hashed with its stderr and exit status.  A refactoring changes none of them;
# a change meant to alter results regenerates them in a commit of its own.
#   tests/golden/fingerprint.sh BINARY            print the fingerprints
#   tests/golden/fingerprint.sh BINARY --check    compare with tests/golden/fingerprints.txt
# A short JSON run: 2 000 measured messages after 500 warm-up ones (message mode), or
# a twentieth of the configured window and warm-up (time mode), at most 2 replications;
# a table run: one replication of 2 000 messages, or a window of 50 after 10.  The one
# wall-clock line --analytic prints without --no-timing is left out of its hash.
# Configs run in parallel, one per online CPU; lines are sorted by what was run.
set -u
bin=${1:?usage: fingerprint.sh BINARY [--check]}
mode=${2:-print}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.." || exit 2
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac

# One line per config: the config, then the -s overrides of its short run.
short_runs() {
    find configs -name '*.ini' | LC_ALL=C sort | xargs awk '
        function flush() {
            if (file == "") return
            args = "-s run.replications=" ((reps == "" || reps == 1) ? 1 : 2)
            if (dur == "" || dur + 0 == 0)
                args = args " -s run.messages=2000 -s run.warmup_messages=500"
            else
                args = args sprintf(" -s run.duration=%.6g -s run.warmup_time=%.6g", dur / 20, warm / 20)
            print file, args
        }
        FNR == 1 { flush(); file = FILENAME; sec = ""; dur = ""; warm = 0; reps = "" }
        /^[ \t]*\[/ { sec = $0; gsub(/[ \t\[\]]/, "", sec); next }
        sec == "run" {
            line = $0; sub(/[;#].*/, "", line)
            n = index(line, "="); if (!n) next
            k = substr(line, 1, n - 1); v = substr(line, n + 1)
            gsub(/[ \t]/, "", k); gsub(/[ \t]/, "", v)
            if (k == "duration") dur = v; else if (k == "warmup_time") warm = v
            else if (k == "replications") reps = v
        }
        END { flush() }'
}

# Runs one config three ways into $out/<config>.{run,analytic,describe}.
one_config() { # out, config, overrides...
    out=$1; ini=$2; shift 2
    dest=$out/$ini
    mkdir -p "$(dirname "$dest")"
    { "$bin" -f json --no-timing --no-progress "$@" "$ini" 2>&1; echo "exit $?"; } >"$dest.run"
    { "$bin" --analytic -f json "$ini" 2>&1; echo "exit $?"; } | grep -v '"wall_seconds"' >"$dest.analytic"
    { "$bin" --describe "$ini" 2>&1; echo "exit $?"; } >"$dest.describe"
}

list_fingerprints() {
    out=$(mktemp -d) || exit 1
    { "$bin" --list 2>&1; echo "exit $?"; } >"$out/list"
    { "$bin" --no-timing --no-progress -s run.messages=2000 -s run.warmup_messages=500 \
        configs/default.ini 2>&1; echo "exit $?"; } >"$out/table-default"
    # The table format: what each engine, protocol and model prints for people.
    for ini in configs/*.ini configs/000/fig2.ini configs/001/m10-l1.00.ini configs/002/fig02.ini \
        configs/003/wh-inf-0.10.ini configs/003/fig2-uniform-cut-through.ini configs/004/t52-slot-0.50.ini \
        configs/004/b3a-dbh-02.5.ini; do
        grep -q '^ *duration' "$ini" && length="-s run.duration=50 -s run.warmup_time=10" ||
            length="-s run.messages=2000 -s run.warmup_messages=500"
        # shellcheck disable=SC2086 # $length is a list of arguments
        { "$bin" --no-timing --no-progress -s run.replications=1 $length "$ini" 2>&1; echo "exit $?"; } \
            >"$out/table-$(echo "$ini" | tr / -)"
    done
    # shellcheck disable=SC2086 # the overrides are split on purpose
    short_runs | while read -r ini args; do printf '%s %s %s\n' "$out" "$ini" "$args"; done |
        xargs -L 1 -P "$(nproc 2>/dev/null || echo 2)" sh "$0" "$bin" --one
    (cd "$out" && find . -type f | LC_ALL=C sort | sed 's|^\./||' | xargs sha256sum) |
        awk '{ print substr($1, 1, 16), $2 }'
    rm -rf "$out"
}

case $mode in
print) list_fingerprints ;;
--one) shift 2; one_config "$@" ;;
--check)
    now=$(mktemp) || exit 1
    list_fingerprints >"$now"
    if cmp -s "$here/fingerprints.txt" "$now"; then
        echo "golden: $(wc -l <"$now") fingerprints match"
        rm -f "$now"
    else
        echo "golden: outputs changed (- expected, + now; rerun a config by hand to see how):" >&2
        diff "$here/fingerprints.txt" "$now" | grep '^[<>]' | sed 's/^</-/; s/^>/+/' >&2
        rm -f "$now"
        exit 1
    fi ;;
*) echo "usage: fingerprint.sh BINARY [--check]" >&2; exit 2 ;;
esac
