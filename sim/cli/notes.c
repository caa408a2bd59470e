/* Notes on a loaded configuration (contract in notes.h). */
#include "notes.h"

#include <stdio.h>
#include <string.h>

#include "../run/run_config.h"

void note_defaults_only(const struct config *cfg)
{
    if (cfg_file_sets_keys(cfg))
        return;
    fputs("sim: ", stderr);
    cfg_put_escaped(cfg->path, stderr);
    fputs(" sets no key: running the defaults (sim --list shows them)\n", stderr);
}

void note_overrides_without_effect(const struct config *cfg, const char *const *overrides, size_t n_overrides)
{
    struct cfg_echo echo;
    run_config_echo_any_model(cfg, &echo);
    bool in_effect[CFG_KEYS_MAX] = { false }, noted[CFG_KEYS_MAX] = { false };
    for (size_t e = 0; e < echo.n; e++)
        in_effect[echo.key[e]] = true;
    for (size_t o = 0; o < n_overrides; o++) {
        char key[128], why[512];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(overrides[o], "="), overrides[o]);
        int k = cfg_key_index(cfg, key);
        if (k < 0 || in_effect[k] || noted[k]) /* loaded: every override names a key */
            continue;
        noted[k] = true; /* once, however often it is set */
        fputs("sim: -s ", stderr);
        cfg_put_escaped(key, stderr);
        if (cfg_echo_why_not(cfg, run_config_schema(), &echo, (size_t)k, why, sizeof why)) {
            fputs(" has no effect with ", stderr);
            cfg_put_escaped(why, stderr);
            fputc('\n', stderr);
        } else {
            fputs(" has no effect: no chosen plug-in reads it\n", stderr);
        }
    }
}
