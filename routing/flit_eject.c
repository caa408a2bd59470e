/* The simple router's bounded reply queue (workload.reply_queue; contract in flit.h,
 * enum flit_eject, and flit_eject.h): requests whose header waits at its destination
 * for a place, and their grants. */
#include "flit_eject.h"

#include "flit.h"

/* Request w's header arrives at its destination at `arrives`: it joins the requests
 * waiting for room in a reply queue, kept by creation number. */
void flit_eject_wait(struct flit_engine *e, uint32_t w, int64_t arrives)
{
    struct worm *x = &e->worms[w];
    x->eject = EJECT_WAITING;
    x->ready = arrives;
    uint32_t j = e->eject_wait.n;
    flit_push(e, &e->eject_wait, w);
    if (e->eject_wait.n == j) /* out of memory: the run stops */
        return;
    for (; j > 0 && e->worms[e->eject_wait.v[j - 1]].id > x->id; j--)
        e->eject_wait.v[j] = e->eject_wait.v[j - 1];
    e->eject_wait.v[j] = w;
}

/* Oldest first, every request whose header has arrived takes a place in its
 * destination's reply queue if one is free; from then on its flits are taken as they
 * arrive (those waiting in the buffer at once), and one whose tail is in is delivered
 * in this cycle. */
void flit_grant_ejections(struct flit_engine *e, int64_t c)
{
    uint32_t keep = 0;
    for (uint32_t k = 0; k < e->eject_wait.n; k++) {
        uint32_t w = e->eject_wait.v[k];
        struct worm *x = &e->worms[w];
        uint32_t dst = x->to[x->hops - 1];
        if (x->ready > c || e->reply_held[dst] >= e->reply_queue) {
            e->eject_wait.v[keep++] = w;
            continue;
        }
        e->reply_held[dst]++;
        bool tail_in = x->eject & EJECT_TAIL_IN;
        x->eject = EJECT_FREE;
        if (tail_in)
            flit_push(e, &e->deliver_cal[c & e->deliver_mask], w);
        else
            flit_push(e, &e->wake_cal[c & e->wake_mask], w); /* step 3 looks at it this cycle */
    }
    e->eject_wait.n = keep;
}

