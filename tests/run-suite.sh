#!/bin/sh
# One Check runner as `make test` shows it: each suite's name as it starts ("NAME: suite",
# the progress), a failing check's line as it comes, and nothing else; what the tests
# print on stderr (the models' figures beside the simulation, a sanitiser's report) goes
# to ERRLOG, whose end is shown when the runner fails.  Exits with the runner's status.
#   tests/run-suite.sh NAME ERRLOG COMMAND...
set -u
name=$1 err=$2
shift 2
status=$(mktemp) || exit 1
{ "$@" 2>"$err"; echo $? >"$status"; } | awk -v name="$name" '
    /^Running suite\(s\): / { sub(/^Running suite\(s\): /, ""); print name ": " $0; fflush(); next }
    /^ [A-Za-z_0-9]+$/ { print name ":" $0; fflush(); next }
    /^[0-9]+%: Checks: / { next }
    { print; fflush() }'
st=$(cat "$status")
rm -f "$status"
if [ "$st" -ne 0 ]; then
    echo "$name: exit status $st; the end of its stderr ($err):"
    tail -n 40 "$err"
fi
exit "$st"
