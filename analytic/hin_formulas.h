/* Seed 000's formulas (Dandamudi & Eager, "Hierarchical interconnection networks for
 * multicomputer systems"; note 000 §4) as plain functions of the network's shape:
 * the static link count L (eqs. 1, 6, 9, 11, 13), the static mean distance P under the
 * cluster-locality workload (eqs. 2-14), and the open network of M/M/1 link queues
 * (eqs. 15-21) with its per-level link rates (eq. 16).  The reference network of
 * every ratio is the flat binary hypercube BH with the same N, d and α (note 000 §4.1,
 * A14).  No config, no topology: hin_model.c reads those and calls these.
 *
 * Conventions: N = n K nodes, clusters of n = 2^d, K clusters (the level-2 network's
 * nodes); for the flat BH, "clusters" are the subcubes of the low d bits.  K need
 * not be a power of two (BH/CCC has K = D_c 2^D_c); D = log2 N is then formal, as
 * the note's reading A10 prescribes for the BH reference.  Self-addressed messages
 * count with distance 0 and delay 0 (A8).
 */
#ifndef ANALYTIC_HIN_FORMULAS_H
#define ANALYTIC_HIN_FORMULAS_H

#include <stdbool.h>

enum hin_kind { HIN_FLAT_BH, HIN_BH, HIN_BR, HIN_CC, HIN_CCC };
enum { HIN_MAX_CLUSTER_DIMENSION = 30 };

struct hin_net {
    enum hin_kind kind;
    unsigned d;         /* cluster dimension: n = 2^d */
    double clusters;    /* K */
    unsigned ccc_dimension; /* D_c of BH/CCC (K = D_c 2^D_c); unused otherwise */
    double replication; /* r: wires per level-2 link, each counted in L (§2.3) */
};

/* BH/BH, BH/BR, BH/CC (K = 2^(D-d)) or the flat BH(D) with subcube clusters of 2^d. */
struct hin_net hin_net_cube(enum hin_kind kind, unsigned D, unsigned d);
/* BH/CCC with level-2 CCC of dimension D_c: K = D_c 2^D_c. */
struct hin_net hin_net_ccc(unsigned d, unsigned ccc_dimension);
/* The flat BH reference of the same N and d. */
struct hin_net hin_reference(const struct hin_net *h);

double hin_nodes(const struct hin_net *h);

/* Links of the level-2 network alone (one wire each). */
double hin_level2_links(const struct hin_net *h);
/* L: full-duplex links, level-2 ones counted r times. */
double hin_links(const struct hin_net *h);
/* Full-duplex links leaving one cluster (NCUBE/ten boards, Sec. II-C): (D-d) n for
 * BH, and the interface node's level-2 degree for the hierarchical networks. */
double hin_cluster_exit_links(const struct hin_net *h);
/* Mean level-2 distance between distinct clusters: the mean number of level-2 (for
 * the flat BH: noncluster) hops of an intercluster message. */
double hin_level2_distance(const struct hin_net *h);
/* P under locality α (eqs. 5, 8, 10, 12, 14). */
double hin_distance(const struct hin_net *h, double alpha);
/* (L P) / (L_BH P_BH), BH of the same N, d, α. */
double hin_lp_ratio(const struct hin_net *h, double alpha);
/* Table II: α of a nearest-neighbour pattern on √n x √n cluster submeshes. */
double hin_nearest_neighbour_locality(double n);

/* The queueing model's answer.  mu_cluster = μ_CL; mu_level2 = μ_NCL of one level-2
 * (flat BH: noncluster) link, replication included. */
struct hin_queue {
    bool unstable;          /* some link has ρ >= 1: delay is +inf */
    double delay;           /* R */
    double cluster_rate[HIN_MAX_CLUSTER_DIMENSION + 1]; /* per direction, j = 1..d (flat BH: all λ/2) */
    double cluster_utilization[HIN_MAX_CLUSTER_DIMENSION + 1];
    double level2_rate, level2_utilization; /* flat BH: the noncluster links */
    double max_utilization;
};

void hin_queue(const struct hin_net *h, double alpha, double lambda, double mu_cluster, double mu_level2,
               struct hin_queue *out);
/* (L R) / (L_BH R_BH), the BH with μ_CL = μ_NCL = mu_cluster; +inf when either is
 * unstable. */
double hin_lr_ratio(const struct hin_net *h, double alpha, double lambda, double mu_cluster, double mu_level2);
/* Fig. 7's rule (T11): the smallest integer i for which level-2 links of rate
 * i * mu_wire run below utilisation `target`. */
unsigned hin_replication_below(const struct hin_net *h, double alpha, double lambda, double mu_wire, double target);

#endif
