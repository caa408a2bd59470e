#!/bin/sh
# Checks every #include "..." of the sources against the layer table of
# docs/architecture.md: a file may include its own layer and the layers its row names.
# Known exceptions are listed in scripts/layers-pending.txt ("from -> to", one per line);
# an exception that no longer occurs must be struck from the list.
# Exit 0 when the code keeps the table, 1 with one line per violation otherwise.
set -u
cd "$(dirname "$0")/.." || exit 2
awk -v pending=scripts/layers-pending.txt '
    function layer(path,   parts) {
        split(path, parts, "/")
        return parts[1] == "sim" ? "sim/" parts[2] : parts[1]
    }
    function normalise(path,   n, parts, out, i, k) { # resolves "." and ".."
        n = split(path, parts, "/"); k = 0
        for (i = 1; i <= n; i++) {
            if (parts[i] == "." || parts[i] == "") continue
            if (parts[i] == "..") { if (k > 0) k--; continue }
            out[++k] = parts[i]
        }
        path = out[1]
        for (i = 2; i <= k; i++) path = path "/" out[i]
        return path
    }
    BEGIN {
        # The table: rows "| `layer` | holds | `a`, `b` |" under "## Layers".
        while ((getline line < "docs/architecture.md") > 0) {
            if (line ~ /^## /) in_layers = (line == "## Layers")
            if (!in_layers || line !~ /^\| `/) continue
            n = split(line, cell, "|")
            name = cell[2]; gsub(/[ `]/, "", name)
            known[name] = 1
            m = split(cell[n - 1], may, ",")
            for (i = 1; i <= m; i++) { l = may[i]; gsub(/[ `]/, "", l); if (l != "") allowed[name, l] = 1 }
        }
        if (length(known) == 0) { print "check-layers: no layer table in docs/architecture.md"; exit 2 }
        while ((getline line < pending) > 0) {
            if (line ~ /^[ \t]*(#|$)/) continue
            split(line, p, / -> /); listed[p[1], p[2]] = line; order[++n_listed] = line
        }
    }
    FNR == 1 { file = FILENAME; from = layer(file); dir = file; sub(/\/[^\/]*$/, "", dir) }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        target = $0; sub(/^[^"]*"/, "", target); sub(/".*$/, "", target)
        target = normalise(dir "/" target)
        to = layer(target)
        if (!(from in known)) { printf "%s: not in any layer of docs/architecture.md\n", file; bad++; nextfile }
        if (to == from || (from, to) in allowed) next
        if ((file, target) in listed) { seen[file, target] = 1; next }
        printf "%s:%d: includes %s: layer %s may not include %s (docs/architecture.md)\n", file, FNR, target, from, to
        bad++
    }
    END {
        for (i = 1; i <= n_listed; i++) {
            split(order[i], p, / -> /)
            if (!((p[1], p[2]) in seen)) {
                printf "scripts/layers-pending.txt: \"%s\" no longer occurs: strike it from the list\n", order[i]; bad++
            }
        }
        if (bad) exit 1
        printf "layers: every include keeps docs/architecture.md (%d pending exceptions)\n", n_listed
    }' $(find sim topo routing protocols workloads analytic -name '*.[ch]' | LC_ALL=C sort)
