#!/bin/sh
# Checks every #include "..." of the sources against the layer table of
# docs/architecture.md: a file may include its own layer and the layers its row names.
# Known exceptions are listed in scripts/layers-pending.txt ("from -> to", one per line);
# an exception that no longer occurs must be struck from the list.
# Then checks the keys read by name: a module (a layer) reads a key by name
# (cfg_int(cfg, "section.key"), cfg_real, cfg_bool, cfg_text, cfg_uint, cfg_list_of) only
# when the key is its own (a row of a key table in its own layer), the framework's
# (sim/config/config_keys.c), or listed under "## Shared keys" in docs/architecture.md
# ("- `section.key`: who reads it and why"); everything else is handed to it.  A listed
# key that no module reads outside its owner must be struck from the list.
# Last, the plug-ins' rule (docs/architecture.md, Conventions): a file of topo/, routing/,
# protocols/, workloads/ or analytic/ takes the configuration const, so it names no
# non-const `struct config *` (comments aside); nothing can write a plug-in's key block
# (cfg_params gives it read-only).
# Exit 0 when the code keeps all three, 1 with one line per violation otherwise.
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
includes=$?

awk '
    function layer(path,   parts) {
        split(path, parts, "/")
        return parts[1] == "sim" ? "sim/" parts[2] : parts[1]
    }
    BEGIN {
        while ((getline line < "docs/architecture.md") > 0) {
            if (line ~ /^## /) in_shared = (line == "## Shared keys")
            if (in_shared && match(line, /^- `[a-z0-9_]+\.[a-z0-9_]+`/)) {
                key = substr(line, 4, RLENGTH - 4); shared[key] = 1; order[++n_shared] = key
            }
        }
    }
    # Pass 1 (every file): who declares which key.  A row starts { "section", "name", CFG_...
    FNR == 1 { file = FILENAME; here = layer(file); pass += (file == first_file) }
    NR == 1 { first_file = FILENAME; pass = 1 }
    pass == 1 {
        line = $0
        while (match(line, /\{ *"[a-z0-9_]+", *"[a-z0-9_]+", *CFG_/)) {
            row = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
            split(row, q, "\"")
            key = q[2] "." q[4]
            if (file == "sim/config/config_keys.c") framework[key] = 1
            owner[here, key] = 1; owned[key] = 1
        }
        next
    }
    # Pass 2: every read by name.
    {
        line = $0
        while (match(line, /cfg_(int|uint|real|bool|text|list_of)\([^,()]*, *"[a-z0-9_]+\.[a-z0-9_]+"/)) {
            call = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
            split(call, q, "\"")
            key = q[2]
            if (file == "sim/core/config_value.c" || framework[key] || (here, key) in owner) continue
            if (key in shared) { used[key] = 1; continue }
            printf "%s:%d: reads %s by name: not its own, the framework'"'"'s, nor a shared key of docs/architecture.md\n", file, FNR, key
            bad++
        }
    }
    END {
        for (i = 1; i <= n_shared; i++) {
            if (!(order[i] in owned)) { printf "docs/architecture.md: shared key %s is no key\n", order[i]; bad++ }
            else if (!(order[i] in used)) {
                printf "docs/architecture.md: shared key %s is read by no module but its owner: strike it\n", order[i]; bad++
            }
        }
        if (bad) exit 1
        printf "keys: every key read by name is its module'"'"'s own, the framework'"'"'s or one of %d shared keys\n", n_shared
    }' $(find sim topo routing protocols workloads analytic -name '*.c' | LC_ALL=C sort) \
       $(find sim topo routing protocols workloads analytic -name '*.c' | LC_ALL=C sort)
keys=$?

awk '
    # The line without its comments (in_comment carries a /* ... */ across lines), then
    # each `struct config *` in it must follow a const.
    FNR == 1 { file = FILENAME; in_comment = 0 }
    {
        code = ""; rest = $0
        while (rest != "") {
            if (in_comment) {
                if (!(k = index(rest, "*/"))) { rest = ""; break }
                rest = substr(rest, k + 2); in_comment = 0
            } else if (match(rest, /\/\*|\/\//)) {
                code = code substr(rest, 1, RSTART - 1)
                if (substr(rest, RSTART, 2) == "//") { rest = ""; break }
                rest = substr(rest, RSTART + 2); in_comment = 1
            } else { code = code rest; rest = "" }
        }
        while (match(code, /struct[ \t]+config[ \t]*\*/)) {
            if (substr(code, 1, RSTART - 1) !~ /(^|[^A-Za-z0-9_])const[ \t]+$/) {
                printf "%s:%d: non-const struct config *: plug-ins take the config const (docs/architecture.md)\n", file, FNR
                bad++
            }
            code = substr(code, RSTART + RLENGTH)
        }
    }
    END {
        if (bad) exit 1
        print "plug-ins: every function takes the config const"
    }' $(find topo routing protocols workloads analytic -name '*.[ch]' | LC_ALL=C sort)
plugins=$?
[ "$includes" -eq 0 ] && [ "$keys" -eq 0 ] && [ "$plugins" -eq 0 ]
