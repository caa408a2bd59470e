/* Trait bits of the plug-in kinds whose interfaces some layers may not see.
 *
 * Promise: a capability question about the chosen path selection, switching,
 * channel access or workload ("is the path fixed by the pair?", "does the header go
 * on before the tail arrives?", "are arrivals Poisson?") is answered by one of these
 * bits, never by comparing a module's name.  The bits live here, in the core, because
 * the analytic models must ask them without including routing/, protocols/ or
 * workloads/: routing/ puts ROUTE_*, SWITCH_* and ENGINE_* on its ops tables,
 * workloads/ ARRIVAL_*, DEST_* and LENGTH_*, and sim/run/model_input.c hands the
 * chosen modules' bits (ACCESS_* included) to the models.  A module sets a bit only when it
 * has the capability for every value of its own keys.
 */
#ifndef SIM_CORE_TRAITS_H
#define SIM_CORE_TRAITS_H

/* Path selection (struct route_ops.traits). */
enum route_traits {
    ROUTE_DETERMINISTIC = 1u << 0,   /* the path depends only on (source, destination) */
    /* Uniform among the minimal next hops at every node, drawn afresh at each hop:
     * channel loads follow by splitting the flow equally over those hops. */
    ROUTE_UNIFORM_SPLIT = 1u << 1,
    /* Corrects the differing dimensions one at a time, in a fixed order (e-cube); on a
     * family without dimensions (TOPO_NO_DIMENSIONS), its canonical minimal route. */
    ROUTE_DIMENSION_ORDER = 1u << 2,
    /* The next hop is a function of (topology, current node, destination) and a fresh
     * draw only: route_ops.next() exists and keeps no state of the run. */
    ROUTE_OBLIVIOUS = 1u << 3,
    /* Slotted, finite-buffer routing that may misroute and send a blocked message
     * back the way it came (seed 001): it runs the network itself. */
    ROUTE_BACKTRACKS = 1u << 4,
    /* Chooses each hop from the router's state when the header is there (free virtual
     * channels, credits, queue lengths): only an engine with ENGINE_ROUTES_ADAPTIVELY
     * runs it. */
    ROUTE_ADAPTIVE = 1u << 5,
    /* Valiant's randomised routing: to a random intermediate node first, then to the
     * destination, each phase by the base rule on its own virtual channels; needs
     * per-packet state, so only an engine with ENGINE_ROUTES_ADAPTIVELY runs it. */
    ROUTE_VALIANT = 1u << 6,
    /* Dimension order (with ROUTE_DIMENSION_ORDER) whose direction is drawn, half each
     * way, where the dimension being corrected is equally short both ways round a torus
     * ring (distance k/2, k even): the input-queued router's tie = random.  The draw is
     * taken at the node that enters the dimension; the path is no longer a function of
     * the pair, and route_ops.split lists both ways. */
    ROUTE_RANDOM_TIES = 1u << 7,
    /* Chooses at the source's router between the minimal route and Valiant's through a
     * random router, by queue length times hops (UGAL-L); per-packet state, so only an
     * engine that keeps it runs it. */
    ROUTE_SOURCE_ADAPTIVE = 1u << 8,
};

/* Switching (struct engine_ops.traits, routing/engine.h). */
enum switch_traits {
    /* A message is received whole at every node before it goes on: every channel is a
     * queue of whole messages, the channels queues in series. */
    SWITCH_WHOLE_MESSAGE = 1u << 0,
    /* The header goes on before the tail has arrived (flit-level pipelining). */
    SWITCH_PIPELINED = 1u << 1,
    /* A blocked message stays spread over the channels behind its header instead of
     * being gathered at the blocking node (wormhole, not cut-through). */
    SWITCH_HOLDS_CHANNELS = 1u << 2,
    /* The router is the input-queued VC router (routing.router = iq): pipeline stages,
     * allocators and credits that the seeds' models of the simple router leave out. */
    SWITCH_INPUT_QUEUED = 1u << 3,
};

/* What kind of engine runs the network (struct engine_ops.traits, beside SWITCH_*). */
enum engine_traits {
    /* Time is whole cycles and the engine admits its own input each cycle (it has no
     * inject(): the run creates no messages for it). */
    ENGINE_SLOTTED = 1u << 8,
    /* The engine routes by itself: the one a ROUTE_BACKTRACKS path selection runs on. */
    ENGINE_BACKTRACKS = 1u << 9,
    /* Its figures are columns of every report, empty when another engine ran (so that
     * one CSV header serves a sweep across algorithms). */
    ENGINE_COLUMNS_ALWAYS = 1u << 10,
    /* Self-addressed messages go through the engine (its router's injection and
     * ejection) instead of being delivered at once with delay 0. */
    ENGINE_TAKES_SELF_ADDRESSED = 1u << 11,
    /* Routes each hop when the header is at the node, from what the router sees, and
     * keeps per-message routing state: runs ROUTE_ADAPTIVE and ROUTE_VALIANT path
     * selections (store-and-forward; the iq router, with escape virtual channels). */
    ENGINE_ROUTES_ADAPTIVELY = 1u << 12,
    /* Reads the messages' creation numbers (msg_id), which the pool then keeps. */
    ENGINE_READS_IDS = 1u << 13,
    /* Draws from the routing streams itself (ties, intermediate nodes, ...), whatever
     * the path selection: the run seeds them even for a deterministic one. */
    ENGINE_DRAWS_ROUTING = 1u << 14,
    /* Bounds request-reply's reply queue (workload.reply_queue): a terminal whose queue
     * is full stops ejecting requests, their tails left in the network. */
    ENGINE_BOUNDS_REPLY_QUEUE = 1u << 15,
};

/* Channel access: what the order in which channels and nodes serve their waiting
 * messages guarantees, as the models rely on it.  The access protocol (protocol.link,
 * proto_ops.traits) and the queue discipline (protocol.priority,
 * queue_discipline.traits, protocols/protocol.h) each set the bits they keep as far as
 * their own choices go; a run has a property when both keep it, and
 * sim/run/model_input.c hands the models that intersection (with the fresh-length rule
 * below).  Every discipline is non-preemptive: a message in service is never cut. */
enum access_traits {
    /* A channel never idles while a message waits for it, and serves one at a time:
     * no slots, no token to wait for (a discipline: it never holds a message back). */
    ACCESS_WORK_CONSERVING = 1u << 0,
    /* Waiting messages are served in arrival order (a protocol: in the order of its
     * one queue per channel, adding no order of its own). */
    ACCESS_FIFO_ORDER = 1u << 1,
    /* Which waiting message goes next never depends on the waiting messages' lengths,
     * their service times here: arrival order, slot or token turns. */
    ACCESS_ORDER_BLIND_TO_LENGTH = 1u << 2,
    /* Blind to a length drawn afresh at each hop, not to one a message keeps: the order
     * reads the message's past (its creation time), which a kept length shaped (a
     * longer message has spent longer on its earlier hops).  model_input() counts it as
     * ACCESS_ORDER_BLIND_TO_LENGTH only with run.redraw_length_per_hop. */
    ACCESS_ORDER_BLIND_TO_FRESH_LENGTH = 1u << 3,
    /* Not a property of the order: the protocol asks for random streams of its own,
     * one per channel (access_env.rng); a run seeds them only for a protocol that
     * asks, so the others' runs draw nothing new. */
    ACCESS_DRAWS_RANDOM = 1u << 8,
};

/* What an engine that arbitrates channels itself (flit, iq router, backtracking)
 * requires of the protocol: a work-conserving channel in arrival order, which is what
 * the engine does. */
#define ACCESS_PLAIN_CHANNEL (ACCESS_WORK_CONSERVING | ACCESS_FIFO_ORDER)

/* Workloads (workloads/workload.h): what an arrival process, a destination or a length
 * distribution is (struct arrival_ops, dest_ops, length_ops .traits). */
enum arrival_traits {
    /* A Poisson process in continuous time: exponential inter-arrival times, drawn by
     * interarrival() (a process that only counts per cycle does not claim it). */
    ARRIVAL_POISSON = 1u << 0,
    /* Messages come from workload.trace, not from per-node processes (the network
     * schedules them; interarrival and per_cycle are NULL). */
    ARRIVAL_REPLAY = 1u << 1,
    /* Slotted: each cycle a node creates a geometric batch of mean workload.rate (seed 001's input). */
    ARRIVAL_GEOMETRIC_BATCHES = 1u << 2,
    /* Every message is created at a whole time unit (slotted sources, whole-cycle gaps):
     * the zero-load delay knows the wait to an engine's next cycle. */
    ARRIVAL_WHOLE_TIMES = 1u << 3,
    /* With ARRIVAL_REPLAY: a dependency-driven trace (Netrace), whose packets wait for
     * the deliveries of others: the run closes the loop through the engines' delivery
     * callback (routing/engine.h: engine_env.loop). */
    ARRIVAL_DEPENDENCIES = 1u << 4,
};
enum dest_traits {
    /* prob(src, dst) is unchanged when the topology's translate() moves both ends */
    DEST_TRANSLATION_INVARIANT = 1u << 0,
    DEST_UNIFORM = 1u << 1,          /* uniform over the other nodes */
    /* distance h with probability proportional to workload.distance_weights[h], then
     * uniform over the nodes h hops away */
    DEST_DISTANCE_WEIGHTS = 1u << 2,
    DEST_FIXED_DISTANCE = 1u << 3,   /* uniform over the nodes exactly workload.hops hops away */
    /* own cluster (source included) with probability workload.locality, else uniform
     * over the other clusters */
    DEST_CLUSTER_LOCALITY = 1u << 4,
    /* may pick the source itself (a self-addressed message, delivered at once) */
    DEST_MAY_PICK_SOURCE = 1u << 5,
};
enum length_traits {
    LENGTH_EXPONENTIAL = 1u << 0,
    LENGTH_FIXED = 1u << 1, /* every message exactly workload.mean_length long */
};

#endif
