#!/bin/sh
# make test's last line, "N passed, N failed": the checks of the plain and of the
# sanitised Check runs (from the logs they wrote, CK_LOG_FILE_NAME), of tests/install.sh
# (its log has Check's result line) and the golden
# fingerprints (from fingerprint.sh --check's output), with the count of each.  A run
# whose log is missing or has no result line did not finish: it counts as one failure.
#   tests/summary.sh GOLDEN_LOG CHECK_LOG...
golden=$1
shift
for log in "$@"; do
    case $log in */install.log) name=install ;; */san/*) name=sanitised ;; */rel/*) name=plain ;; *) name=$log ;; esac
    if [ -s "$log" ]; then
        awk -v name="$name" '
            /Checks: / { done = 1; split($0, f, /[:,] */); checks = f[3]; failures = f[5]; errors = f[7] }
            END { print name, done ? checks : -1, failures + errors }' "$log"
    else
        echo "$name -1 0"
    fi
done | awk -v golden="$golden" -v expected="$(dirname "$0")/golden/fingerprints.txt" '
    { if (!($1 in checks)) order[++n] = $1
      if ($2 < 0) { stopped[$1] = 1; failed++ } else { checks[$1] += $2; passed += $2 - $3; failed += $3 } }
    END {
        total = 0; changed = 0; ran = 0
        while ((getline line < expected) > 0) total++
        while ((getline line < golden) > 0) {
            if (line ~ /^golden: [0-9]+ fingerprints match/) ran = 1
            else if (line ~ /^golden: outputs changed/) ran = 1
            else if (line ~ /^-/) changed++
        }
        if (ran) { passed += total - changed; failed += changed } else failed++
        detail = ""
        for (i = 1; i <= n; i++)
            detail = detail sprintf("%s%s %s", i > 1 ? ", " : "", order[i],
                                    stopped[order[i]] ? "did not finish" : checks[order[i]] " checks")
        detail = detail sprintf(", golden %s", ran ? (total - changed) " of " total " fingerprints" : "not run")
        printf "%d passed, %d failed (%s)\n", passed, failed, detail
    }'
