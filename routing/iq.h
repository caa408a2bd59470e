/* The input-queued virtual-channel router with credit-based flow control
 * (routing.router = iq, wormhole switching): the router most network papers and the
 * field's reference cycle-accurate simulator use.
 *
 * Promise (the exact semantics; tests/unit/test_iq.c checks the zero-load closed form
 * and the invariants under random traffic):
 *  - Time is in cycles.  Every node has a router whose input ports are the channels
 *    that end there plus an injection port, and whose output ports are the channels
 *    that start there plus an ejection port.  Every input port has V =
 *    virtual_channels VCs of B = flit_buffers flits.  A message of
 *    max(1, ceil(length / bandwidth)) flits created at time x joins its source queue
 *    at cycle ceil(x); self-addressed messages too (they cross the router once).
 *  - Within a cycle, in order: credits and flits due arrive; sources inject; VC
 *    allocation; switch allocation.  Everything is decided on the state at the start
 *    of its step.
 *  - Channels: a flit or a credit written in cycle w onto a channel of latency d is read
 *    at the far end in cycle w + d + 1 (the reference router's channels: the write is
 *    latched, the delay line starts the next cycle).  A network channel has d =
 *    link_latency; the injection and ejection channels have d = 1 (2 cycles each).
 *  - Source: one flit per cycle onto the injection channel (latency 1), the packets
 *    of its queue one after another (the next head may go the cycle after a tail).  A
 *    head takes a free injection VC (round robin after the last one taken) that has a
 *    credit; every flit needs a credit of its VC.  With a bounded reply queue and
 *    separate class VCs a source has a queue per class (a reply never waits behind a
 *    request): still one flit per cycle, the class that did not send last first.
 *  - Pipeline per router: a head that reaches the front of its input VC at cycle f
 *    (it arrives, or the flit before it left at f - 1) computes its route and asks
 *    for an output VC from f + routing_delay; granted at g, its flits ask for the
 *    switch from g + vc_alloc_delay; a flit granted the switch at s leaves its buffer
 *    (its credit is written upstream at s + sw_alloc_delay - 1 and arrives over that
 *    channel's latency d as above, plus credit_delay) and is written onto the output
 *    channel at w = s + sw_alloc_delay + st_delay - 1; it arrives at w + d + 1 (d =
 *    link_latency, or 1 on the ejection channel).  The next flit of the VC may ask
 *    from s + 1, or from its arrival if later.  Zero load, per router: the stage
 *    delays minus one plus the outgoing channel's latency plus one.
 *  - Allocators, separable, round robin, one pass (docs/models.md, "Allocators").  VC
 *    allocation, vc_allocator = islip: each waiting head requests every free output
 *    VC of its class on its output port; each output VC grants the request nearest
 *    after the input VC that last accepted it, each input VC accepts the grant nearest
 *    after the output VC it last accepted; only accepts move pointers (one iSLIP
 *    iteration).  lowest-free: a head requests only the lowest-numbered free VC of its
 *    class, each output VC grants one request (round robin over input VCs).  Switch
 *    allocation, sw_allocator = islip: each input port requests every output port one
 *    of its VCs with a flit and a credit can use (per pair, the VC nearest after the
 *    port's last one sent), output ports grant and input ports accept as above.
 *    input-first: each input port picks one of its VCs that has a flit and a credit
 *    (round robin over its VCs), each output port grants one input port (round robin
 *    over input ports).  So each input port sends at most one flit per cycle and each
 *    output port receives at most one.
 *  - An output VC is free again once the tail has been granted the switch into it
 *    (vc_release = tail), or once the tail's credit has come back (tail-credit).
 *  - Routing: dimension order (ecube); on a torus an antipodal tie is broken at random
 *    (tie = random, from the routing stream of the node deciding; not on a 2-ary
 *    torus, whose two ways are parallel channels) or by the topology's rule
 *    (negative); engine_ops.follows hands the models the same rule (routing/ecube.c's
 *    random-ties path, ecube_random_ties()).  With V >= 2 the VCs are split into dateline
 *    classes: a packet entering a dimension takes the upper half for the whole
 *    dimension when its path there crosses the wrap-around link, else the lower half
 *    (on one-way rings, where a path may cover all but one link, the upper half until
 *    the wrap-around link and the lower half after it).
 *  - Every other network (routing/iq_nets.c) routes by its canonical minimal route with
 *    the VC classes it needs: none where it is acyclic (hyperx, fat-tree), raised at each
 *    global link (dragonfly), else one per router-to-router hop taken (Slim Fly, graphs);
 *    Valiant and UGAL likewise, escape VCs on that route for the per-hop routings; and
 *    up-down on every network follows its path selection's route on every VC.
 *  - The ejection port's VCs get a credit back over the ejection channel (written the
 *    cycle each flit arrives, so 2 cycles later, plus credit_delay).  A
 *    packet is delivered when its tail arrives at the ejection channel's far end; its
 *    delay is from creation; its network part from the cycle its head was injected.
 *  - workload.reply_queue = q > 0 (routing/iq_reply.c): a request's head at its
 *    destination asks for an ejection VC only while that terminal holds fewer than q
 *    places, and takes one when granted; till then its flits wait in the input VC and
 *    their credits stay withheld.  The place is freed when the request's reply's head
 *    takes its injection VC.  q = 0 changes nothing.
 *  - Deadlock: every routing.deadlock_interval cycles the VCs that hold flits and can
 *    never move (a full downstream buffer or no free output VC, all held by VCs that
 *    cannot move either; a request waiting for a reply-queue place waits for the
 *    injection port's VCs of the replies) are found; if any, the run stops (exit
 *    status 3) naming a cycle of channels (env.fatal).
 */
#ifndef ROUTING_IQ_H
#define ROUTING_IQ_H

#include <stdbool.h>
#include <stdint.h>

#include "../sim/core/stats.h"
#include "engine.h"
#include "vc_classes.h"

enum { IQ_MAX_BUFFERS = 4096, IQ_MINIMAL_HOPS_MAX = 128 };

enum iq_vc_state { IQ_IDLE, IQ_VC_ALLOC, IQ_ACTIVE };

/* How a head picks its output: dimension order (ecube) on every VC; or among the
 * minimal hops on the adaptive VCs [E, V), the one with the most free credits
 * (adaptive-minimal) or one at random (random-minimal), and when none has a free
 * adaptive VC, the escape VCs [0, E) of the dimension-order hop. */
enum iq_selection { IQ_DIMENSION_ORDER, IQ_MOST_CREDITS, IQ_RANDOM_MINIMAL, IQ_VALIANT };

struct iq_packet {
    uint32_t msg;     /* in env.pool->msgs */
    uint32_t src, dst, flits;
    uint32_t next;    /* source queue, arrival list or free list */
    uint32_t hops;    /* channels its head has been granted */
    uint64_t id;      /* creation number */
    int64_t offered;  /* cycle it joined its source queue */
    int64_t injected; /* cycle its head went onto the injection channel, -1 before */
    uint32_t sent;    /* flits its source has injected */
    uint32_t dim;     /* dimension of its current network hops, UINT32_MAX before the first */
    uint8_t cls;      /* dateline class in that dimension */
    uint8_t phase;    /* valiant: 0 on the way to `mid`, 1 on the way to dst; ugal: 2 until the source's router chooses */
    uint8_t globals;  /* router networks: VC class, raised at each channel the topology names (global links) */
    uint8_t reply;    /* request-reply: 1 for a reply (its source line with per-class lines) */
    uint8_t gated;    /* a request whose ejection takes a place in its destination's reply queue */
    uint32_t mid;     /* valiant: the intermediate node */
    uint32_t vc_base; /* its message class's VC set: VCs [vc_base, vc_base + Vc) of each port */
};

/* An input VC: a ring of B flits (each the packet it belongs to, | IQ_TAIL on a tail)
 * and the state of the packet at its front. */
struct iq_input_vc {
    int64_t ready;       /* IQ_VC_ALLOC: may ask for an output VC; IQ_ACTIVE: the front flit may ask for the switch */
    uint32_t first, count; /* ring position of the front flit, flits held */
    uint32_t front_seq;  /* the front flit's number within its packet */
    uint32_t out_unit;   /* output port (unit) of the front packet's route (adaptive: its dimension-order
                          * escape hop until a VC is granted) */
    uint32_t out_vc;     /* IQ_ACTIVE: the output VC held (global index) */
    uint16_t vc_lo, vc_hi; /* IQ_VC_ALLOC: the VCs of its class (adaptive: its escape VCs) on out_unit */
    uint8_t state;       /* enum iq_vc_state */
    uint8_t vc;          /* its index within its unit (iv % V), kept to spare divisions */
    uint8_t vc_requests; /* islip: output VCs its head asked for this cycle (2: more than one) */
    uint32_t busy_pos;   /* index in the busy list, UINT32_MAX when not listed */
    uint32_t unit;       /* its input unit (iv / V) */
    uint32_t vc_accepted; /* islip: the output VC it last accepted, UINT32_MAX none (in the padding) */
};
_Static_assert(sizeof(struct iq_input_vc) == 48, "an input VC in 48 bytes");

/* An output VC in 16 bytes: VC allocation, credits and release read and write it
 * together. */
struct iq_output_vc {
    uint32_t owner;    /* input VC holding it (IQ_SINK | node: a source), UINT32_MAX free */
    int16_t credits;   /* at most B <= IQ_MAX_BUFFERS */
    uint8_t tail_sent; /* tail-credit: tail sent, its credit not yet back */
    uint32_t vc_rr;    /* last input VC granted (VC allocation) */
    uint32_t pick;     /* this cycle's VC-allocation winner, UINT32_MAX */
};
_Static_assert(IQ_MAX_BUFFERS <= INT16_MAX, "credits fit an int16_t");

/* A switch arbiter, with what its side keeps there: read and written together. */
struct iq_arbiter {
    uint32_t rr;   /* input unit: last VC granted; output unit: last input unit granted */
    uint32_t pick; /* this cycle's candidate, UINT32_MAX */
    union {
        uint32_t accepted; /* input unit, sw_allocator = islip: last output unit accepted, UINT32_MAX */
        uint64_t busy;     /* output unit of a channel: flits sent inside the measurement window */
    };
};

/* A flit or a credit on its way: due at a cycle, kept in a calendar slot. */
struct iq_flight {
    uint32_t packet, seq, target; /* packet | IQ_TAIL on a tail; target: input VC (global index), or IQ_SINK | node */
};

/* For tests, which check the invariants cycle by cycle (all optional). */
struct iq_observer {
    void *ctx;
    void (*switched)(void *ctx, uint32_t input_vc, uint32_t output_vc, int64_t cycle); /* a flit granted the switch */
    void (*injected)(void *ctx, uint32_t node, uint32_t packet, uint32_t seq, int64_t cycle);
    void (*ejected)(void *ctx, uint32_t packet, uint32_t seq, int64_t cycle); /* at the ejection channel's far end */
    void (*delivered)(void *ctx, const struct iq_packet *p, int64_t cycle);
    void (*cycle_end)(void *ctx, int64_t cycle);
};

struct iq_vec {
    void *v;
    uint32_t n, cap;
};

#define IQ_SINK 0x80000000u
enum { IQ_LINK_INJECT = 1, IQ_LINK_EJECT = 2 };
/* A flit's packet with this bit marks the tail: the switch and the ejection know it
 * without reading the packet.  Packet indices stay below it. */
#define IQ_TAIL 0x80000000u

/* Units: input units 0..C-1 are the channels' far ends, C..C+N-1 the injection ports;
 * output units 0..C-1 the channels' near ends, C..C+N-1 the ejection ports,
 * C+N..C+2N-1 the sources' sides of the injection channels.  VC j of unit u is global
 * index u*V + j; the output VC of channel c feeds the input VC of the same index. */
struct iq_engine {
    struct engine_env env;
    uint32_t V, B, L;       /* VCs per port, buffer flits, link latency */
    /* The VCs of one message class (routing.class_vcs: request-reply with separate sets
     * has V = 2 Vc, replies on [Vc, 2 Vc); else V = Vc).  The routing reasons in [0, Vc);
     * iq_route() places its range in the packet's set (iq_packet.vc_base). */
    uint32_t Vc, vc_sets;
    uint32_t rd, va, sa, st, cd; /* pipeline delays and credit delay */
    uint32_t deadlock_interval;  /* cycles between deadlock searches */
    bool tail_credit, tie_random;
    int8_t forced_tie;      /* the static check: an antipodal tie goes this way (0 negative, 1 up); -1: drawn */
    bool tie_seen;          /* ... and a route met one */
    bool vc_islip;          /* routing.vc_allocator = islip (else lowest-free) */
    bool sw_islip;          /* routing.sw_allocator = islip (else input-first) */
    uint8_t selection;      /* enum iq_selection */
    uint32_t E;             /* escape VCs (adaptive and random-minimal selections) */
    bool dateline_topology; /* a torus (rings that close) */
    bool dateline;          /* ... with V >= 2: two VC classes */
    bool router_net;        /* hyperx, fat-tree, dragonfly: routes by the topology's hops (routing/iq_nets.c) */
    bool ugal;              /* router networks, routing.algorithm = ugal (selection IQ_VALIANT, phase 2 first) */
    uint32_t vc_classes;    /* router networks: VC classes, raised at the channels in `raises` */
    uint8_t *raises;        /* router networks: per channel, crossing it raises the packet's VC class */
    bool raising;           /* ... some channel does (the dragonfly); else the class is Valiant's phase */
    /* Router networks whose canonical route has cyclic dependencies (Slim Fly, graphs):
     * the class is the router-to-router hops taken so far (`raises` marks those channels). */
    bool hop_indexed;
    bool by_path;           /* a deterministic route of the path selection's own (up-down), every VC one class */
    /* Router networks whose terminals hang off routers by terminal links: per channel
     * IQ_LINK_INJECT (a terminal's link to its router) or IQ_LINK_EJECT (a router's link
     * to a terminal), else 0; NULL elsewhere.  The router treats them as the reference
     * router's injection and ejection channels (latency 1): a terminal's source writes
     * into its router's input VC over the inject link, and a flit leaving a router over
     * an eject link is ejected at the terminal; terminals route nothing themselves. */
    uint8_t *terminal_link;
    uint32_t *src_link;     /* per node: the inject link of a terminal, UINT32_MAX for a router (NULL with the above) */
    uint32_t *latency;      /* per channel: its latency d (the topology's, or L); NULL when every one is L */
    uint32_t C, N;          /* channels, nodes */
    uint32_t radix;         /* torus k, for the dateline */
    uint32_t *chan_to;      /* channel -> node it leads to */
    uint32_t *chan_dim;     /* channel -> dimension */
    uint32_t *digit_stride; /* per dimension: k^i */
    uint16_t *digits;       /* k-ary n-cube: node * dimension + dim -> its digit */
    uint32_t *out_chan;     /* (node * dimension + dim) * 2 + up: the channel that way, UINT32_MAX none */
    uint32_t dims;
    bool by_digits;         /* dimension order from the digits (else the path selection's next hop) */
    bool descending, both_ways, wrap;

    uint32_t ev_tick;
    int64_t tick_at, cycle;

    struct iq_packet *packets;
    uint32_t packet_cap, packet_free;
    uint32_t pending_head, pending_tail;       /* created, not yet at their source queue */
    /* Source lines: one per node (line = node), or with class_lines one per node and
     * message class (line = 2 node + reply), sharing the node's injection channel. */
    bool class_lines;
    uint32_t *src_head, *src_tail;             /* per line: source queue */
    uint32_t *src_vc;                          /* per line: injection VC of the packet being injected, UINT32_MAX */
    uint32_t *src_rr;                          /* per line: last injection VC taken */
    uint8_t *line_last;                        /* class_lines, per node: the class that sent last */
    uint32_t *sources, n_sources;              /* nodes with a backlog */
    uint32_t *source_pos;                      /* per node: index in sources, UINT32_MAX */
    /* workload.reply_queue = q > 0 (routing/iq_reply.c): per terminal, the places taken
     * (requests granted their ejection VC whose reply has not yet taken its injection VC)
     * and the replies handed to the engine that have not yet taken it. */
    uint32_t reply_queue;
    uint32_t *reply_held, *replies_in;

    struct iq_input_vc *in;   /* (C + N) * V */
    uint32_t *ring;           /* (C + N) * V * B packets */
    uint32_t *busy, n_busy;   /* input VCs holding flits */
    struct iq_output_vc *ovc; /* (C + 2N) * V */
    struct iq_arbiter *in_arb;  /* per input unit: switch allocation among its VCs */
    struct iq_arbiter *out_arb; /* per output unit: among the input units */
    /* islip VC allocation, kept apart (touched only for heads that asked for more than
     * one output VC): per input VC this cycle's best grant. */
    uint32_t *vc_acc_pick;
    struct iq_vec touched_in, touched_out, touched_ovc, touched_ivc; /* uint32_t */
    struct iq_vec *flits_due, *credits_due; /* calendars of struct iq_flight / uint32_t */
    uint32_t slots, slot_mask; /* a power of two */
    uint64_t in_flight_flits, in_flight_credits;
    uint32_t packets_live;    /* in the engine: pending, queued or in the network */
    uint64_t moves;           /* flits granted the switch so far */

    /* Measurement (inside the window). */
    uint64_t *node_flits;     /* per node: flits ejected there */
    uint64_t offered_flits, offered_packets, ejected_flits;
    int64_t backlog, backlog_open; /* packets at sources, not yet fully injected */
    bool open_seen;
    struct iq_observer obs;
};

/* The packet at the front of input VC iv (its head, when it waits for a VC). */
static inline uint32_t iq_front_packet(const struct iq_engine *e, uint32_t iv)
{
    return e->ring[(size_t)iv * e->B + e->in[iv].first] & ~IQ_TAIL;
}

/* The hops a head at `node` toward dst may take on the adaptive VCs [E, V) (adaptive
 * and random-minimal selections): the topology's minimal hops.  The VC allocation
 * (iq_alloc.c) and the static check's relation both ask here. */
static inline unsigned iq_adaptive_hops(const struct iq_engine *e, uint32_t node, uint32_t dst, struct hop *out)
{
    return e->env.topo->ops->minimal_hops(e->env.topo, node, dst, out, IQ_MINIMAL_HOPS_MAX);
}

/* Whether output unit o, an input VC's route, ejects: an ejection port, or a router's
 * link to a terminal (router networks). */
static inline bool iq_ejects(const struct iq_engine *e, uint32_t o)
{
    return o >= e->C || (e->terminal_link && e->terminal_link[o] == IQ_LINK_EJECT);
}

/* workload.reply_queue: whether the head at the front of input VC iv, waiting for a
 * VC, is a request whose ejection waits for a place in its destination's full reply
 * queue. */
static inline bool iq_waits_for_reply_place(const struct iq_engine *e, uint32_t iv)
{
    const struct iq_packet *p = &e->packets[iq_front_packet(e, iv)];
    return p->gated && iq_ejects(e, e->in[iv].out_unit) && e->reply_held[p->dst] >= e->reply_queue;
}

/* routing/iq_reply.c: the reply queue's set-up (false: out of memory); the source step
 * with a line per class (replaces iq_router.c's when e->class_lines); whether a request
 * granted output VC ov at input VC iv may take it (a place is free, and taken, or it
 * needs none). */
bool iq_reply_init(struct iq_engine *e);
void iq_inject_by_class(struct iq_engine *e, int64_t c);
bool iq_take_reply_place(struct iq_engine *e, uint32_t iv, uint32_t ov);

/* routing/iq_router.c: a message from the run; one cycle (the tick event). */
void iq_inject(struct iq_engine *e, uint32_t msg);
void iq_tick(struct kernel *k, void *ctx, uint32_t unused);
bool iq_vec_push(struct iq_vec *a, const void *x, size_t size);

/* routing/iq_setup.c: the route of the head at the front of input VC iv, at router
 * `node`: sets its output unit and class range (and draws a tie). */
void iq_route(struct iq_engine *e, uint32_t iv, uint32_t node);
/* The same for packet p, its route written into x (the static check's relation calls
 * it on packets of its own, with e->forced_tie set). */
void iq_route_packet(struct iq_engine *e, struct iq_input_vc *x, struct iq_packet *p, uint32_t node);
/* The node whose router owns input unit u. */
static inline uint32_t iq_unit_node(const struct iq_engine *e, uint32_t u)
{
    return u < e->C ? e->chan_to[u] : u - e->C;
}

/* routing/iq_setup.c: the routing fields and route tables of e, whose env.cfg and
 * env.topo are set (create() and the static check's relation use them): false when
 * out of memory.  iq_engine_free() frees an engine, whole or not. */
bool iq_route_tables(struct iq_engine *e, const struct config *cfg);
void iq_engine_free(struct iq_engine *e);
/* Valiant's and UGAL's intermediate choice: how many there are (the draw is uniform
 * among them, from the source's routing stream), and the packet's mid and phase for
 * choice `pick`.  (routing/iq_nets.c) */
uint32_t iq_mid_picks(const struct iq_engine *e);
void iq_set_mid(const struct iq_engine *e, struct iq_packet *x, uint32_t pick);
/* Whether t is a router network to the router (tables, not digits), and Valiant's draw
 * on t as the router makes it (iq_mid_picks, iq_set_mid), for the channel loads. */
bool iq_router_net(const struct topo *t);
void iq_valiant_mids(const struct topo *t, struct valiant_mids *out);
/* routing/iq_relation.c: the routing relation iq_route() and the adaptive choice follow,
 * for the static deadlock check (engine_ops.relation). */
struct dl_relation;
bool iq_relation(const struct config *cfg, const struct topo *t, struct dl_relation *out);

/* routing/iq_checks.c: the configurations the router refuses (engine_ops.check). */
bool iq_check(const struct engine_spec *spec, struct cfg_error *err);

/* routing/iq_nets.c: the router on router networks.  check: the routings and VC
 * counts it takes there; init: its tables (false: out of memory); route: as iq_route. */
bool iq_nets_check(const struct config *cfg, const struct topo *t, struct cfg_error *err);
bool iq_nets_init(struct iq_engine *e, const struct config *cfg);
void iq_nets_route(struct iq_engine *e, struct iq_input_vc *x, struct iq_packet *p, uint32_t node);
/* The same for e->by_path, on every topology: the path selection's next hop, any VC. */
void iq_path_route(struct iq_engine *e, struct iq_input_vc *x, struct iq_packet *p, uint32_t node);

/* routing/iq_deadlock.c: finds VCs that can never move; writes a message naming a
 * cycle of channels into buf and returns true if there are any. */
bool iq_find_deadlock(struct iq_engine *e, char *buf, size_t size);
/* routing/iq_figures.c */
void iq_figures(const void *self, const struct figure_sink *sink);

extern const struct engine_ops engine_iq;
/* For tests: the instance when ops is the iq engine, else NULL. */
struct iq_engine *iq_engine_of(const struct engine_ops *ops, void *self);

#endif
