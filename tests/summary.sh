#!/bin/sh
# make test's last line: suites, checks and failures of each Check run, from the logs
# the runners wrote (CK_LOG_FILE_NAME).  A run whose log is missing did not finish.
#   tests/summary.sh LOG...
for log in "$@"; do
    case $log in */san/*) name=sanitised ;; */rel/*) name=plain ;; *) name=$log ;; esac
    if [ ! -s "$log" ]; then
        printf '%s: no results (not run, or stopped)\n' "$name"
        continue
    fi
    awk -v name="$name" '
        /^Running suite/ { suites++ }
        /Checks: / { line = $0; sub(/^[0-9]+%: /, "", line) }
        END { printf "%s: %d suites, %s\n", name, suites, line ? line : "no summary (stopped?)" }' "$log"
done | awk '{ printf "%s%s", (NR > 1 ? "; " : "== make test: "), $0 } END { print "" }'
