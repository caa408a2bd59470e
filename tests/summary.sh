#!/bin/sh
# make test's last line: suites, checks and failures of the plain and of the sanitised
# run (summed over its halves), from the logs the runners wrote (CK_LOG_FILE_NAME).
# A run whose log is missing or has no result line did not finish.
#   tests/summary.sh LOG...
for log in "$@"; do
    case $log in */san/*) name=sanitised ;; */rel/*) name=plain ;; *) name=$log ;; esac
    if [ -s "$log" ]; then
        awk -v name="$name" '
            /^Running suite/ { suites++ }
            /Checks: / { done = 1; split($0, f, /[:,] */); checks = f[3]; failures = f[5]; errors = f[7] }
            END { print name, suites + 0, done ? checks : -1, failures + 0, errors + 0 }' "$log"
    else
        echo "$name 0 -1 0 0"
    fi
done | awk '
    { if (!($1 in suites)) order[++n] = $1
      suites[$1] += $2; if ($3 > 0) checks[$1] += $3; failures[$1] += $4; errors[$1] += $5; if ($3 < 0) stopped[$1] = 1 }
    END {
        printf "== make test:"
        for (i = 1; i <= n; i++) {
            k = order[i]
            printf "%s %s: %d suites, %d checks, %d failures, %d errors%s", (i > 1 ? ";" : ""), k, suites[k],
                   checks[k], failures[k], errors[k], (stopped[k] ? " (a run did not finish)" : "")
        }
        print ""
    }'
