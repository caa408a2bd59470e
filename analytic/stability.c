/* Stability check from the flow-conservation loads; see model.h. */
#include <stdio.h>

#include "model.h"

void stability_check(const struct config *cfg, const struct topo *t, const struct channel_loads *loads,
                     struct stability *out)
{
    *out = (struct stability){ .blame = "workload.rate" };
    if (!loads->known) {
        snprintf(out->why, sizeof out->why, "%s", loads->why);
        return;
    }
    out->known = true;
    double capacity = loads->capacity;
    out->channel_load = loads->max_utilization / capacity;
    if (cfg->node.service_rate > 0)
        out->node_load = loads->node_visit_rate_max / cfg->node.service_rate;
    if (out->node_load >= 1) {
        out->saturated = true;
        out->blame = "node.service_rate";
        snprintf(out->why, sizeof out->why, "the busiest node's utilisation is %.4g >= 1 (%.4g visits per "
                 "time unit, node.service_rate %g)", out->node_load, loads->node_visit_rate_max, cfg->node.service_rate);
    } else if (out->channel_load >= 1) {
        char cls[24];
        t->ops->class_name(t, loads->busiest_class, cls, sizeof cls);
        out->saturated = true;
        if (capacity < 1)
            snprintf(out->why, sizeof out->why, "channel utilisation %.4g on class %s exceeds the %s "
                     "protocol's capacity %.4g", loads->max_utilization, cls, cfg->protocol.link, capacity);
        else
            snprintf(out->why, sizeof out->why, "channel utilisation %.4g >= 1 on class %s",
                     loads->max_utilization, cls);
    }
}
