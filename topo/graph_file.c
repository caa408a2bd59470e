/* Any network from a file (`network.graph_file`, relative to the config's folder when
 * set there), in one of two formats (`network.graph_format`, docs/manual.md):
 *
 *   edges   routers N          the routers are 0..N-1 (once, before any link)
 *           terminals C        C terminals at every router (default 1)
 *           terminals R C      C terminals at router R (overrides the line above)
 *           A B                a full-duplex link between routers A and B
 *   anynet  the reference simulator's file: lines "router 0 node 0 router 1 router 2",
 *           "node 5 router 3": a head and the routers and nodes (terminals) it links
 *           to, each optionally followed by a link latency.  A link listed from both
 *           ends is one link, as there.
 *
 * `#` starts a comment.  Terminals: with one at every router (edges' default), every
 * router is its own terminal (no terminal links, as concentration 1); otherwise they
 * hang off their routers by terminal links, numbered router-major (edges) or by the
 * file's own node ids, which must then be 0..T-1 (anynet).  Router ids are 0..R-1,
 * every one named.  Every link has the engines' own latency and bandwidth: a
 * per-link latency other than 1 is refused, naming its line.
 *
 * A bad file is refused whole before anything runs, with one line "FILE:LINE:
 * network.graph_file: problem" (unknown router, self-loop, duplicate link, a
 * disconnected network, too many routers, a line or file too long, a control byte).
 * Minimal routes are the breadth-first table's (routers.h), lowest channel first;
 * they may have cyclic channel dependencies, so the family does not claim
 * TOPO_MINIMAL_ACYCLIC (up-down is the deadlock-free routing for any graph on one VC; the
 * iq router's minimal routes take a VC class per router-to-router hop). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/core/params.h"
#include "../sim/core/registry.h"
#include "routers.h"

enum {
    GRAPH_FILE_BYTES_MAX = 16 << 20,
    GRAPH_LINE_MAX = 4096,      /* bytes of one line, its end excluded */
    GRAPH_TOKENS_MAX = 2 * ROUTER_PORTS_MAX + 8,
    GRAPH_TERMINALS_MAX = 1 << 20,
};

struct graph_format {
    const char *name, *help;
};
static const struct graph_format format_edges = {
    "edges", "lines 'routers N', 'terminals [R] C' and 'A B' (a link between routers A and B)" };
static const struct graph_format format_anynet = {
    "anynet", "the reference simulator's anynet file: 'router 0 node 0 router 1 ...' lines" };
static const struct graph_format *const formats[] = { &format_edges, &format_anynet };
static const struct graph_format *format_find(const char *name);
REGISTRY_DEFINE(struct graph_format, formats, format_find, graph_format_choices);

struct graph_params {
    char graph_file[CFG_TEXT_MAX];
    const char *graph_format;
};

static const struct cfg_key graph_keys[] = {
    { "network", "graph_file", CFG_TEXT, offsetof(struct graph_params, graph_file), "", 0, 0, false, NULL,
      "graph: the file describing the network (relative to the config's folder)" },
    { "network", "graph_format", CFG_CHOICE, offsetof(struct graph_params, graph_format), "edges", 0, 0, false,
      &graph_format_choices, "graph: how network.graph_file is written" },
};
static CFG_PARAM_TABLE(graph_param_table, struct graph_params, graph_keys);

struct link {
    uint32_t a, b; /* a < b */
    int line;
};

/* What a file says, before it becomes a router_net. */
struct graph_spec {
    const char *path;
    struct cfg_error *err;
    uint32_t routers;      /* edges: declared; anynet: highest id + 1 */
    struct link *links;
    size_t n_links, links_cap;
    /* edges: terminals per router (UINT32_MAX: the default); anynet: per node id, its
     * router (UINT32_MAX: no such node) and the line that attached it */
    uint32_t *count, default_count;
    uint32_t *node_router, nodes, nodes_cap;
    int *node_line;
    uint8_t *named;        /* anynet: per router id, whether a line names it */
};

static bool fail(const struct graph_spec *g, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail(const struct graph_spec *g, int line, const char *fmt, ...)
{
    snprintf(g->err->file, sizeof g->err->file, "%s", g->path);
    g->err->line = line;
    snprintf(g->err->key, sizeof g->err->key, "network.graph_file");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err->message, sizeof g->err->message, fmt, ap);
    va_end(ap);
    return false;
}

/* The whole file into *text (NUL-terminated), within the size limit. */
static bool read_file(struct graph_spec *g, char **text, size_t *len)
{
    FILE *f = fopen(g->path, "rb");
    if (!f)
        return fail(g, 0, "cannot read the graph: %s", strerror(errno));
    char *buf = malloc((size_t)GRAPH_FILE_BYTES_MAX + 2);
    size_t n = buf ? fread(buf, 1, (size_t)GRAPH_FILE_BYTES_MAX + 1, f) : 0;
    bool bad = ferror(f);
    fclose(f);
    if (!buf)
        return fail(g, 0, "out of memory");
    if (bad || n > GRAPH_FILE_BYTES_MAX) {
        free(buf);
        return bad ? fail(g, 0, "cannot read the graph: I/O error")
                   : fail(g, 0, "the graph file is larger than %d bytes", GRAPH_FILE_BYTES_MAX);
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return true;
}

/* Splits line number `line` into blank-separated tokens, the comment cut off. */
static bool tokens_of(const struct graph_spec *g, char *s, int line, char **tok, unsigned *n)
{
    *n = 0;
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    for (char *t = strtok(s, " \t"); t; t = strtok(NULL, " \t")) {
        if (*n == GRAPH_TOKENS_MAX)
            return fail(g, line, "more than %d words on one line", GRAPH_TOKENS_MAX);
        tok[(*n)++] = t;
    }
    return true;
}

/* A decimal id below `limit`. */
static bool parse_id(const char *s, uint64_t limit, uint32_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v >= limit)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

static bool is_number(const char *s)
{
    uint32_t unused;
    return parse_id(s, UINT64_MAX / 16, &unused);
}

static bool add_link(struct graph_spec *g, uint32_t a, uint32_t b, int line)
{
    if (a == b)
        return fail(g, line, "router %u is linked to itself", a);
    if (g->n_links == g->links_cap) {
        size_t cap = g->links_cap ? 2 * g->links_cap : 256;
        struct link *l = realloc(g->links, cap * sizeof *l);
        if (!l)
            return fail(g, line, "out of memory");
        g->links = l;
        g->links_cap = cap;
    }
    g->links[g->n_links++] = (struct link){ a < b ? a : b, a < b ? b : a, line };
    return true;
}

static bool router_id(const struct graph_spec *g, const char *s, int line, uint32_t *out)
{
    if (parse_id(s, g->routers, out))
        return true;
    if (!is_number(s))
        return fail(g, line, "'%s' is not a router id", s);
    return fail(g, line, "unknown router %s (the routers are 0 to %u)", s, g->routers - 1);
}

/* --- the edges format --- */

static bool edges_line(struct graph_spec *g, char **tok, unsigned n, int line)
{
    if (strcmp(tok[0], "routers") == 0) {
        uint32_t r;
        if (n != 2 || !is_number(tok[1]))
            return fail(g, line, "expected 'routers N'");
        if (g->routers)
            return fail(g, line, "the routers are declared twice");
        if (!parse_id(tok[1], (uint64_t)ROUTERS_MAX + 1, &r) || r == 0)
            return fail(g, line, "%s routers: there must be 1 to %d", tok[1], ROUTERS_MAX);
        g->routers = r;
        g->count = malloc((size_t)r * sizeof *g->count);
        if (!g->count)
            return fail(g, line, "out of memory");
        for (uint32_t i = 0; i < r; i++)
            g->count[i] = UINT32_MAX;
        return true;
    }
    if (!g->routers)
        return fail(g, line, "'routers N' must come before terminals and links");
    if (strcmp(tok[0], "terminals") == 0) {
        uint32_t r = 0, c;
        if (n != 2 && n != 3)
            return fail(g, line, "expected 'terminals C' or 'terminals ROUTER C'");
        if (n == 3 && !router_id(g, tok[1], line, &r))
            return false;
        if (!parse_id(tok[n - 1], ROUTER_PORTS_MAX + 1, &c))
            return fail(g, line, "'%s' terminals: a router has 0 to %d", tok[n - 1], ROUTER_PORTS_MAX);
        if (n == 2 && g->default_count != UINT32_MAX)
            return fail(g, line, "the terminals of every router are given twice");
        if (n == 3 && g->count[r] != UINT32_MAX)
            return fail(g, line, "the terminals of router %u are given twice", r);
        *(n == 2 ? &g->default_count : &g->count[r]) = c;
        return true;
    }
    uint32_t a, b;
    if (n != 2)
        return fail(g, line, n > 2 && is_number(tok[0]) ? "a link is two router ids 'A B' (per-link latency and "
                             "bandwidth are not supported: every link has the engines' own)"
                             : "expected 'routers N', 'terminals [ROUTER] C' or a link 'A B'");
    return router_id(g, tok[0], line, &a) && router_id(g, tok[1], line, &b) && add_link(g, a, b, line);
}

/* --- the anynet format --- */

static bool anynet_router(struct graph_spec *g, const char *s, int line, uint32_t *out)
{
    if (!is_number(s))
        return fail(g, line, "'%s' is not a router id", s);
    if (!parse_id(s, ROUTERS_MAX, out))
        return fail(g, line, "too many routers: router %s (ids 0 to %d)", s, ROUTERS_MAX - 1);
    if (*out >= g->routers) {
        uint8_t *named = realloc(g->named, (size_t)*out + 1);
        if (!named)
            return fail(g, line, "out of memory");
        memset(named + g->routers, 0, (size_t)*out + 1 - g->routers);
        g->named = named;
        g->routers = *out + 1;
    }
    g->named[*out] = 1;
    return true;
}

static bool attach_node(struct graph_spec *g, const char *s, uint32_t router, int line)
{
    uint32_t id;
    if (!parse_id(s, GRAPH_TERMINALS_MAX, &id))
        return fail(g, line, is_number(s) ? "too many nodes: node %s (ids 0 to %d)" : "'%s' is not a node id", s,
                    GRAPH_TERMINALS_MAX - 1);
    if (id >= g->nodes_cap) {
        uint32_t cap = id + 1 > 2 * g->nodes_cap ? id + 1 : 2 * g->nodes_cap;
        uint32_t *nr = realloc(g->node_router, (size_t)cap * sizeof *nr);
        if (nr)
            g->node_router = nr;
        int *nl = realloc(g->node_line, (size_t)cap * sizeof *nl);
        if (nl)
            g->node_line = nl;
        if (!nr || !nl)
            return fail(g, line, "out of memory");
        for (uint32_t i = g->nodes_cap; i < cap; i++)
            g->node_router[i] = UINT32_MAX;
        g->nodes_cap = cap;
    }
    if (g->node_router[id] != UINT32_MAX && g->node_router[id] != router)
        return fail(g, line, "node %u is attached to router %u here and to router %u on line %d", id, router,
                    g->node_router[id], g->node_line[id]);
    g->node_router[id] = router;
    g->node_line[id] = line;
    g->nodes = id + 1 > g->nodes ? id + 1 : g->nodes;
    return true;
}

static bool anynet_line(struct graph_spec *g, char **tok, unsigned n, int line)
{
    bool head_node = strcmp(tok[0], "node") == 0;
    if ((!head_node && strcmp(tok[0], "router") != 0) || n < 2)
        return fail(g, line, "a line starts with 'router ID' or 'node ID'");
    uint32_t head = 0;
    if (!head_node && !anynet_router(g, tok[1], line, &head))
        return false;
    if (head_node && n == 2)
        return fail(g, line, "node %s is attached to no router", tok[1]);
    for (unsigned i = 2; i < n;) {
        bool node = strcmp(tok[i], "node") == 0;
        if (!node && strcmp(tok[i], "router") != 0)
            return fail(g, line, "expected 'router ID' or 'node ID', got '%s'", tok[i]);
        if (i + 1 == n)
            return fail(g, line, "'%s' without an id", tok[i]);
        if (node && head_node)
            return fail(g, line, "a node cannot be linked to a node");
        uint32_t body;
        bool ok = head_node ? anynet_router(g, tok[i + 1], line, &body) && attach_node(g, tok[1], body, line)
                  : node    ? attach_node(g, tok[i + 1], head, line)
                            : anynet_router(g, tok[i + 1], line, &body) && add_link(g, head, body, line);
        if (!ok)
            return false;
        i += 2;
        if (i < n && is_number(tok[i])) { /* a link latency */
            if (strcmp(tok[i], "1") != 0)
                return fail(g, line, "link latency %s: per-link latencies are not supported (every link has the "
                            "engines' own); remove it or write 1", tok[i]);
            i++;
        }
    }
    return true;
}

/* Every line through its format's reader: false with g->err set at the first bad one. */
static bool parse(struct graph_spec *g, char *text, size_t len, bool anynet)
{
    char *tok[GRAPH_TOKENS_MAX];
    char *s = text;
    if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte-order mark, as configs accept */
        s += 3;
    for (int line = 1;; line++) {
        char *end = s;
        while (end < text + len && *end != '\n')
            end++;
        size_t length = (size_t)(end - s);
        if (length && s[length - 1] == '\r') /* CRLF */
            length--;
        if (length > GRAPH_LINE_MAX)
            return fail(g, line, "the line is longer than %d bytes", GRAPH_LINE_MAX);
        for (size_t i = 0; i < length; i++) {
            unsigned char c = (unsigned char)s[i];
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                return fail(g, line, "control byte 0x%02x (a graph file is text)", c);
        }
        s[length] = '\0';
        unsigned n;
        if (!tokens_of(g, s, line, tok, &n))
            return false;
        if (n && !(anynet ? anynet_line(g, tok, n, line) : edges_line(g, tok, n, line)))
            return false;
        if (end >= text + len)
            break;
        s = end + 1;
    }
    return true;
}

static int by_ends(const void *x, const void *y)
{
    const struct link *a = x, *b = y;
    return a->a != b->a ? (a->a > b->a) - (a->a < b->a) : a->b != b->b ? (a->b > b->b) - (a->b < b->b)
                                                                       : (a->line > b->line) - (a->line < b->line);
}

/* Sorts the links by their ends, merging a link listed twice (anynet lists each from
 * both ends) or refusing it (edges). */
static bool unique_links(struct graph_spec *g, bool anynet)
{
    if (g->n_links)
        qsort(g->links, g->n_links, sizeof *g->links, by_ends);
    size_t kept = 0;
    for (size_t i = 0; i < g->n_links; i++) {
        if (kept && g->links[kept - 1].a == g->links[i].a && g->links[kept - 1].b == g->links[i].b) {
            if (!anynet)
                return fail(g, g->links[i].line, "the link %u %u is listed twice (first on line %d)", g->links[i].a,
                            g->links[i].b, g->links[kept - 1].line);
            continue;
        }
        g->links[kept++] = g->links[i];
    }
    g->n_links = kept;
    return true;
}

/* The terminals' routers, in terminal order, into rn (none: routers are their own). */
static bool attach_terminals(struct graph_spec *g, struct router_net *rn, bool anynet)
{
    uint64_t T = 0;
    bool own = anynet;
    if (anynet) {
        for (uint32_t r = 0; r < g->routers; r++)
            if (!g->named[r])
                return fail(g, 0, "router ids must run from 0 without gaps: router %u is never named", r);
        for (uint32_t i = 0; i < g->nodes; i++)
            if (g->node_router[i] == UINT32_MAX)
                return fail(g, 0, "node ids must run from 0 without gaps: node %u is never named", i);
        T = g->nodes;
    } else {
        if (g->default_count == UINT32_MAX)
            g->default_count = 1;
        for (uint32_t r = 0; r < g->routers; r++) {
            if (g->count[r] == UINT32_MAX)
                g->count[r] = g->default_count;
            T += g->count[r];
            own = own || g->count[r] != 1;
        }
    }
    if (T == 0)
        return fail(g, 0, "the network has no terminals");
    if (!own)
        return true;
    if (T > GRAPH_TERMINALS_MAX)
        return fail(g, 0, "more than %d terminals", GRAPH_TERMINALS_MAX);
    rn->terminals = (uint32_t)T;
    rn->attach = malloc((size_t)T * sizeof *rn->attach);
    if (!rn->attach)
        return fail(g, 0, "out of memory");
    for (uint32_t i = 0, r = 0; !anynet && r < g->routers; r++)
        for (uint32_t k = 0; k < g->count[r]; k++)
            rn->attach[i++] = r;
    for (uint32_t i = 0; anynet && i < T; i++)
        rn->attach[i] = g->node_router[i];
    return true;
}

struct graph {
    struct router_net rn; /* first: routers.h reads it from t->impl */
};

static bool build_net(struct graph_spec *g, struct graph *net, struct topo *t, bool anynet)
{
    if (!g->routers)
        return fail(g, 0, anynet ? "the file names no router" : "the file declares no routers ('routers N')");
    if (!unique_links(g, anynet))
        return false;
    if (!router_net_init(&net->rn, g->routers, 1))
        return fail(g, 0, "out of memory");
    /* Both directions of each link; sorted links give every router its neighbours in
     * increasing order of their ids. */
    for (size_t i = 0; i < g->n_links; i++)
        if (!router_net_add(&net->rn, g->links[i].a, g->links[i].b, 0) ||
            !router_net_add(&net->rn, g->links[i].b, g->links[i].a, 0))
            return fail(g, 0, "out of memory");
    if (!attach_terminals(g, &net->rn, anynet))
        return false;
    char why[128];
    if (router_net_finish(&net->rn, t, why, sizeof why))
        return true;
    if (net->rn.dist) /* disconnected: name a router router 0 cannot reach */
        for (uint32_t r = 0; r < g->routers; r++)
            if (net->rn.dist[r] == UINT8_MAX)
                return fail(g, 0, "the network is not connected: router %u cannot be reached from router 0", r);
    return fail(g, 0, "%s", why);
}

static bool build(struct topo *t, const struct config *cfg, struct cfg_error *err)
{
    const struct graph_params *p = cfg_params(cfg, &graph_param_table);
    bool half, anynet = format_find(p->graph_format) == &format_anynet;
    if (!topo_read_links(cfg, true, &half, err))
        return false;
    if (half) {
        cfg_blame(cfg, "network.links", err, "graph has full-duplex links only");
        return false;
    }
    if (!p->graph_file[0]) {
        cfg_blame(cfg, "network.graph_file", err, "graph needs network.graph_file, the file describing the network");
        return false;
    }
    char path[2 * CFG_TEXT_MAX];
    cfg_file_path(cfg, "network.graph_file", path, sizeof path);
    struct graph_spec g = { .path = path, .err = err, .default_count = UINT32_MAX };
    struct graph *net = calloc(1, sizeof *net);
    char *text = NULL;
    size_t len = 0;
    t->impl = net; /* from here freed by router_net_free_impl on failure */
    bool ok = net ? read_file(&g, &text, &len) : fail(&g, 0, "out of memory");
    if (ok)
        ok = parse(&g, text, len, anynet) && build_net(&g, net, t, anynet);
    if (ok)
        snprintf(t->label, sizeof t->label, "graph %.120s: %u routers, %u terminals, %zu links", p->graph_file,
                 net->rn.routers, t->terminals, g.n_links);
    free(text);
    free(g.links);
    free(g.count);
    free(g.node_router);
    free(g.node_line);
    free(g.named);
    if (!ok)
        router_net_free_impl(t);
    return ok;
}

static void class_name(const struct topo *t, unsigned cls, char *buf, unsigned size)
{
    if (!router_net_class_name(t, cls, buf, size))
        snprintf(buf, size, "link");
}

const struct topo_ops topo_graph = {
    .name = "graph",
    .help = "any network from network.graph_file: an edge list or an anynet file (network.graph_format), "
            "terminals per router from the file",
    .traits = TOPO_NO_DIMENSIONS,
    .params = &graph_param_table,
    .build = build,
    ROUTER_NET_OPS,
    .class_name = class_name,
};
