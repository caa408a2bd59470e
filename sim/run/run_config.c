#include "run_config.h"

#include "../../workloads/workload.h"

bool run_config_load(struct config *cfg, const char *path, const char *const *overrides, size_t n_overrides,
                     struct cfg_error *err)
{
    return cfg_load(cfg, path, overrides, n_overrides, err) && workload_check(cfg, err);
}
