/* Check bodies run by both runners: tests/unit calls each on small networks or short
 * runs (make test), tests/validate on large networks or long runs (make validate).
 * Each asserts with ck_assert, so it must be called from inside a Check test. */
#ifndef TESTS_CHECKS_H
#define TESTS_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../analytic/hin_formulas.h"
#include "../../routing/backtracking.h"
#include "../../sim/config/config.h"
#include "../../sim/report/report.h"

/* flit_checks.c: set as flit_observer.delivered with ctx a struct flit_invariants; at
 * every delivery: VC ownership matches the hops each worm holds, the waiting headers
 * number e->waiting, and a per-hop worm's hops were all minimal. */
struct flit_engine;
struct worm;
struct flit_invariants {
    const struct flit_engine *e;
    uint64_t checks;
};
void flit_check_invariants(void *ctx, const struct worm *done, int64_t cycle);

/* checks.c */

/* configs/request-reply-mesh.ini (4 x 4 mesh, wormhole, reply queues of 2) offered
 * twice its saturation with separate VC sets per class, on `router` (routing.router:
 * simple or iq): each of 3 seeds runs `cycles` cycles to its end (no deadlock) at the
 * network's capacity (tests/unit/test_request_reply.c short,
 * tests/validate/test_deadlock_free.c 50,000). */
void check_separate_classes_never_deadlock(const char *router, int cycles);

/* Seed 001's backtracking engine on an n-cube: base settings, then `extra`
 * (NULL-terminated); bt_run runs it in-process and returns the engine's books. */
void bt_config(struct config *cfg, int n, int buffers, double rate, const char *const *extra);
struct backtracking_figures bt_run(const struct config *cfg, struct run_report *report);

/* The topology built from the settings: BFS distances, diameter, mean distance and
 * minimal hops as stated (tests/unit/test_topo.c). */
void check_routes_are_shortest_paths(const char *const *settings);

/* Every network family simulated against the M/M/1 network model (tests/unit/test_model_mm1.c). */
extern const char *const families[][8];
extern const int families_count;
void check_family_matches_the_open_network_model(int i, long messages);

/* Seed 000's hin model (tests/unit/test_model_hin_sim.c). */
struct point {
    const char *topology;
    int D, d;
    double alpha, mu_cl, mu_ncl;
};
struct hin_net point_net(const struct point *p);
void check_hin_redrawn_lengths_cover_model(int seeds, long messages);
void check_hin_kept_lengths_close_to_model(long messages);

/* Seed 001's backtracking engine against its chain, for `duration` ("run.duration=N"). */
void check_simulation_agrees_with_the_chain(const char *duration);

/* workload.rate_unit = flits: the flits a flit engine offers are the rate, within 1%,
 * for fixed, exponential, geometric, bimodal and empirical lengths whose whole flits
 * outnumber mean_length / bandwidth.  `engine`: the switching settings (NULL-terminated);
 * `figure`: the engine's flit figure per node per cycle (group switching) that measures
 * it. */
void check_rate_in_flits_is_offered(const char *const *engine, const char *figure, long messages);

/* Seed 003's claim: wormhole simulation within 5% of the model at load rho. */
void within_seed_claim(double rho, bool finite, int64_t messages);

/* appendix_b.c: seed 004's rows (configs/004/published.csv) */

struct row {
    char id[64];
    bool saturated;
    double figure[3]; /* mean, sd, max */
};
int read_rows(struct row *rows, int max);
void load_row(const struct row *row, int replications, struct config *cfg);
/* The thesis's figures within the replications' spread: every fourth row with 20
 * replications, or (all) every row with 50. */
void check_thesis_figures(bool all);
/* The FIFO rows of Table B.1 against md1-mm1-network: every other triple of rows with
 * 20 replications, or (all) every row with 50. */
void check_fifo_rows_track_the_model(bool all);

/* observe_checks.c: a store-and-forward hypercube of `dimension` under uniform traffic,
 * `seeds` runs of `messages`: every channel's utilisation (sim --channels) within its
 * 99.9% interval over the seeds of the analytic load (Bonferroni over the channels), and at
 * least min_coverage of the channels' 95% intervals covering it (tests/unit/test_observe.c,
 * tests/validate/test_network.c). */
void check_channel_loads(int dimension, int seeds, long messages, double min_coverage);

#endif
