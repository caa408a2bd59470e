#include "describe.h"

#include <math.h>
#include <string.h>

#include "../../analytic/model.h"
#include "../core/traits.h"
#include "../run/model_input.h"
#include "../run/deadlock_run.h"
#include "../run/run_config.h"
#include "../../topo/topo.h"

/* Pipelined switching (wormhole, cut-through, the iq router) can saturate below every
 * channel's capacity (blocking, head-of-line), so a load under capacity proves nothing:
 * the run's backlog decides. */
static bool unpredictable(const struct config *cfg)
{
    return run_engine_traits(cfg) & SWITCH_PIPELINED;
}

static const char *describe_stability(const struct config *cfg, const struct stability *st)
{
    if (st->saturated)
        return st->why;
    return unpredictable(cfg) ? "not predicted: no channel or node is loaded to capacity, but pipelined switching "
                                "can saturate below it (blocking); the run's backlog decides (saturated)"
                              : "stable";
}

/* The offered workload.rate at which the busiest channel (or node server) is loaded to
 * capacity: loads grow in proportion to the rate, so the rate over that load.  An upper
 * bound on what the network accepts; pipelined switching may saturate below it. */
static double saturation_bound(const struct config *cfg, const struct stability *st)
{
    double load = st->channel_load > st->node_load ? st->channel_load : st->node_load;
    return st->known && load > 0 ? cfg->workload.rate / load : NAN;
}

static const char *kind_name(enum channel_kind k)
{
    switch (k) {
    case CHANNEL_LINK_DIRECTION:
        return "link-direction";
    case CHANNEL_HALF_DUPLEX:
        return "half-duplex-link";
    case CHANNEL_BUS:
        return "bus";
    }
    return "?";
}

static void json_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void json_value(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.10g", v);
    else
        fputs("null", out);
}

/* The family's bisection: channels and bandwidth each way (the fewer), and the most
 * uniform traffic (over the other terminals) can put across it, in length units per
 * terminal per time unit: a terminal sends (T/2)/(T-1) of its traffic to the other
 * half, so T/2 terminals at r put r T^2 / (4 (T-1)) across. */
struct bisection_line {
    bool known, searched;
    uint64_t channels;
    double bandwidth, uniform_bound;
    char why[160];
};

static void bisection_of(const struct topo *t, struct bisection_line *b)
{
    struct topo_bisection tb;
    b->known = topo_bisection(t, &tb, b->why, sizeof b->why);
    if (!b->known)
        return;
    int s = tb.bandwidth[1] < tb.bandwidth[0];
    b->channels = tb.channels[s];
    b->searched = tb.searched;
    b->bandwidth = tb.bandwidth[s];
    double T = t->terminals;
    b->uniform_bound = b->bandwidth * 4 * (T - 1) / (T * T);
}

/* The zero-load delay, or why there is none. */
struct zero_load_line {
    bool known;
    double delay;
    char why[200];
};

static void write_json(FILE *out, const struct config *cfg, const struct topo *t, double avg,
                       const struct channel_loads *l, const struct zero_load_line *z,
                       const struct bisection_line *b)
{
    double lambda = cfg_message_rate(cfg);
    fputs("{\n  \"topology\": ", out);
    json_text(out, cfg->network.topology);
    fputs(",\n  \"network\": ", out);
    json_text(out, t->label);
    fprintf(out, ",\n  \"nodes\": %u,\n  \"terminals\": %u,\n  \"routers\": %u,\n  \"channels\": %u,\n"
                 "  \"channel_kind\": \"%s\",\n  \"links\": %llu,\n  \"degree\": %u,\n  \"router_degree\": %u,\n"
                 "  \"diameter\": %u,\n  \"router_diameter\": %u,\n  \"average_distance\": ",
            t->nodes, t->terminals, t->routers, t->channels, kind_name(t->kind), (unsigned long long)t->links, t->degree,
            t->router_degree, t->diameter, t->router_diameter);
    json_value(out, avg >= 0 ? avg : NAN);
    fputs(",\n  \"bisection_channels\": ", out);
    json_value(out, b->known ? (double)b->channels : NAN);
    fputs(",\n  \"bisection_bandwidth\": ", out);
    json_value(out, b->known ? b->bandwidth : NAN);
    fputs(",\n  \"bisection_uniform_bound\": ", out);
    json_value(out, b->known ? b->uniform_bound : NAN);
    fprintf(out, ",\n  \"bisection_searched\": %s", b->known && b->searched ? "true" : "false");
    fputs(",\n  \"mean_hops\": ", out);
    json_value(out, l->known ? l->mean_hops : NAN);
    fputs(",\n  \"max_utilization\": ", out);
    json_value(out, l->known ? l->max_utilization : NAN);
    fputs(",\n  \"loads_note\": ", out);
    if (l->known)
        fputs("null", out);
    else
        json_text(out, l->why);
    struct stability st;
    stability_check(cfg, t, l, &st);
    fputs(",\n  \"node_visit_rate_max\": ", out);
    json_value(out, l->known ? l->node_visit_rate_max : NAN);
    fputs(",\n  \"node_utilization_max\": ", out);
    json_value(out, st.known && cfg->node.service_rate > 0 ? st.node_load : NAN);
    fputs(",\n  \"channel_load_of_capacity\": ", out);
    json_value(out, st.known ? st.channel_load : NAN);
    fputs(",\n  \"saturation_rate_bound\": ", out);
    json_value(out, saturation_bound(cfg, &st));
    fprintf(out, ",\n  \"saturated\": %s", st.saturated ? "true" : unpredictable(cfg) ? "null" : "false");
    fputs(",\n  \"zero_load_delay\": ", out);
    json_value(out, z->known ? z->delay : NAN);
    fputs(",\n  \"zero_load_note\": ", out);
    if (z->known)
        fputs("null", out);
    else
        json_text(out, z->why);
    char verdict[1024];
    if (net_deadlock_line(cfg, t, verdict, sizeof verdict)) {
        fputs(",\n  \"deadlock_check\": ", out);
        json_text(out, verdict);
    }
    fputs(",\n  \"classes\": [", out);
    for (unsigned c = 0; c < t->classes; c++) {
        char name[32];
        t->ops->class_name(t, c, name, sizeof name);
        fprintf(out, "%s\n    {\"name\": ", c ? "," : "");
        json_text(out, name);
        fprintf(out, ", \"channels\": %llu, \"bandwidth\": %.10g, \"load_factor\": ",
                (unsigned long long)t->ops->channels_in_class(t, c), t->class_bandwidth[c]);
        json_value(out, l->known ? l->class_rate[c] / lambda : NAN);
        fputs(", \"load_factor_max\": ", out);
        json_value(out, l->known ? l->class_rate_max[c] / lambda : NAN);
        fputs(", \"utilization\": ", out);
        json_value(out, l->known ? l->class_utilization[c] : NAN);
        fputc('}', out);
    }
    fputs("\n  ]\n}\n", out);
}

static void write_table(FILE *out, const struct config *cfg, const struct topo *t, double avg,
                        const struct channel_loads *l, const struct zero_load_line *z,
                        const struct bisection_line *b)
{
    double lambda = cfg_message_rate(cfg);
    fprintf(out, "topology          %s (%s)\n", cfg->network.topology, t->label);
    fprintf(out, "nodes             %u (%u terminals, %u routers)\n", t->nodes, t->terminals, t->routers);
    fprintf(out, "channels          %u (%s servers)\n", t->channels, kind_name(t->kind));
    fprintf(out, "links             %llu\n", (unsigned long long)t->links);
    fprintf(out, "degree            %u (router to router: %u)\n", t->degree, t->router_degree);
    fprintf(out, "diameter          %u (router to router: %u)\n", t->diameter, t->router_diameter);
    if (avg >= 0)
        fprintf(out, "average distance  %.10g (ordered pairs of distinct terminals)\n", avg);
    else
        fprintf(out, "average distance  not computed (not symmetric and over %d nodes)\n", DESCRIBE_PAIRS_MAX_NODES);
    if (b->known)
        fprintf(out, "bisection         %s%llu channels each way, bandwidth %.6g (uniform traffic: at most %.6g per terminal "
                     "per time unit across it)%s\n", b->searched ? "at most " : "",
                (unsigned long long)b->channels, b->bandwidth, b->uniform_bound,
                b->searched ? "; a balanced cut found by search, no closed form" : "");
    else
        fprintf(out, "bisection         not computed: %s\n", b->why);
    char verdict[1024];
    if (net_deadlock_line(cfg, t, verdict, sizeof verdict))
        fprintf(out, "deadlock check    %s\n", verdict);
    if (!l->known) {
        fprintf(out, "load factors      not computed: %s\n", l->why);
        fprintf(out, "zero-load delay   not computed: it walks the same routes\n");
        return;
    }
    fprintf(out, "mean hops         %.10g (%s destinations, self-addressed messages counting 0)\n", l->mean_hops,
            cfg->workload.destination);
    fprintf(out, "\n%-16s %10s %10s  %-24s %s\n", "class", "channels", "bandwidth", "load factor (mean, max)",
            "utilisation");
    for (unsigned c = 0; c < t->classes; c++) {
        char name[32], lf[64];
        t->ops->class_name(t, c, name, sizeof name);
        snprintf(lf, sizeof lf, "%.6g, %.6g", l->class_rate[c] / lambda, l->class_rate_max[c] / lambda);
        fprintf(out, "%-16s %10llu %10g  %-24s %.6g\n", name, (unsigned long long)t->ops->channels_in_class(t, c),
                t->class_bandwidth[c], lf, l->class_utilization[c]);
    }
    if (cfg_rate_in_flits(cfg)) { /* the loads are per message: say so, and the rate in both units */
        fprintf(out, "\nload factor: messages per time unit through a channel per message per node per time "
                     "unit offered;\n");
        fprintf(out, "utilisation: at workload.rate = %g flits (%g messages) per node per time unit and mean "
                     "length %g (max %.6g)\n",
                cfg->workload.rate, lambda, cfg->workload.mean_length, l->max_utilization);
    } else if (l->request_reply) { /* both classes, each at its own length */
        fprintf(out, "\nload factor: requests and replies per time unit through a channel per unit of "
                     "workload.rate;\n");
        fprintf(out, "utilisation: at workload.rate = %g requests per terminal, each reply back to its source, each "
                     "class at its own length (max %.6g)\n", lambda, l->max_utilization);
    } else {
        fprintf(out, "\nload factor: messages per time unit through a channel per unit of workload.rate;\n");
        fprintf(out, "utilisation: at workload.rate = %g and mean length %g (max %.6g)\n", lambda,
                cfg->workload.mean_length, l->max_utilization);
    }
    struct stability st;
    stability_check(cfg, t, l, &st);
    fprintf(out, "node visits       %.6g per time unit at the busiest node", l->node_visit_rate_max);
    if (cfg->node.service_rate > 0)
        fprintf(out, " (utilisation %.6g at node.service_rate %g)", st.node_load, cfg->node.service_rate);
    fprintf(out, "\nchannel load      %.6g of what the %s protocol sustains\n", st.channel_load, cfg->protocol.link);
    fprintf(out, "stability         %s\n", describe_stability(cfg, &st));
    double bound = saturation_bound(cfg, &st);
    if (isfinite(bound))
        fprintf(out, "saturation bound  workload.rate = %.6g%s (the busiest %s at capacity)\n", bound,
                cfg_rate_in_flits(cfg) ? " flits" : "", st.channel_load >= st.node_load ? "channel" : "node");
    if (z->known)
        fprintf(out, "zero-load delay   %.10g (mean over the routes, a message alone in the network)\n", z->delay);
    else
        fprintf(out, "zero-load delay   not computed: %s\n", z->why);
}

int describe(const struct config *cfg, enum report_format fmt, FILE *out)
{
    if (fmt == REPORT_CSV) {
        fputs("sim: --describe prints a table or JSON, not CSV\n", stderr);
        return 2;
    }
    struct topo t;
    struct cfg_error err;
    if (!topo_build(&t, cfg, &err)) {
        cfg_error_print(&err, stderr);
        topo_free(&t);
        return 2;
    }
    double avg = topo_mean_distance(&t, DESCRIBE_PAIRS_MAX_NODES);
    struct channel_loads loads;
    struct model_in in;
    model_input(&in, cfg, &t, &loads);
    struct zero_load_line z = { 0 };
    z.known = zero_load_delay(&in, &z.delay, z.why, sizeof z.why);
    struct bisection_line b = { 0 };
    bisection_of(&t, &b);
    if (fmt == REPORT_JSON)
        write_json(out, cfg, &t, avg, &loads, &z, &b);
    else
        write_table(out, cfg, &t, avg, &loads, &z, &b);
    model_input_free(&in);
    loads_free(&loads);
    topo_free(&t);
    return ferror(out) ? 1 : 0;
}

int describe_deadlock_check(const struct config *cfg, enum report_format fmt, FILE *out)
{
    if (fmt == REPORT_CSV) {
        fputs("sim: --check-deadlock prints a table or JSON, not CSV\n", stderr);
        return 2;
    }
    struct dl_result r;
    struct cfg_error err;
    if (!net_check_deadlock(cfg, &r, &err)) {
        cfg_error_print(&err, stderr);
        return 2;
    }
    char summary[1024];
    dl_summary(&r, summary, sizeof summary);
    if (fmt == REPORT_JSON) {
        fputs("{\n  \"deadlock_check\": ", out);
        json_text(out, dl_verdict_name(r.verdict));
        fprintf(out, ",\n  \"duato\": %s,\n  \"channel_vcs\": %llu,\n  \"dependencies\": %llu,\n"
                     "  \"states\": %llu,\n  \"note\": ", r.duato ? "true" : "false", (unsigned long long)r.nodes,
                (unsigned long long)r.edges, (unsigned long long)r.states);
        if (r.note[0])
            json_text(out, r.note);
        else
            fputs("null", out);
        fputs("\n}\n", out);
    } else {
        fprintf(out, "deadlock check    %s\n", summary);
    }
    if (r.verdict == DL_REFUSED) {
        cfg_error_print(&err, stderr);
        return ferror(out) ? 1 : 2;
    }
    return ferror(out) ? 1 : 0;
}
