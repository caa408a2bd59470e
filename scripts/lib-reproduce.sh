# Shared by the reproduction scripts (sourced, from the project root, after `set -eu`
# and with $script and $sim set): a scratch folder $tmp removed on exit, and run_sim.
command -v gnuplot >/dev/null 2>&1 || { echo "$script: gnuplot not found (scripts/deps.sh plot)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 1' TERM

# Runs the simulator.  A failed run stops the whole reproduction: inside a pipeline its
# exit status would be lost, so it signals the script itself, and loops check
# $tmp/failed to stop at once.
run_sim() {
    "$sim" "$@" 2>"$tmp/sim.err" && return 0
    echo "$script: $sim $*: $(head -n 1 "$tmp/sim.err")" >&2
    : >"$tmp/failed"
    kill -TERM $$ # acted on once the current pipeline ends
    exit 1
}
