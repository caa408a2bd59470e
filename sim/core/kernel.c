#include "kernel.h"

#include <assert.h>
#include <string.h>

bool kernel_init(struct kernel *k)
{
    memset(k, 0, sizeof *k);
    return eventq_init(&k->queue, 1024);
}

void kernel_free(struct kernel *k) { eventq_free(&k->queue); }

uint32_t kernel_register(struct kernel *k, event_handler fn, void *ctx)
{
    assert(k->handler_count < KERNEL_MAX_HANDLERS);
    k->handlers[k->handler_count].fn = fn;
    k->handlers[k->handler_count].ctx = ctx;
    return k->handler_count++;
}

void kernel_set_chore(struct kernel *k, kernel_chore fn, void *ctx)
{
    k->chore = fn;
    k->chore_ctx = ctx;
}

void kernel_set_prefetch(struct kernel *k, uint32_t type, event_prefetch fn)
{
    assert(type < k->handler_count);
    k->handlers[type].prefetch = fn;
    k->prefetching = true;
}

struct prefetch_pass {
    const struct kernel *k;
    unsigned stage;
};

static void prefetch_one(void *ctx, const struct event *ev)
{
    const struct prefetch_pass *p = ctx;
    if (p->k->handlers[ev->type].prefetch)
        p->k->handlers[ev->type].prefetch(p->k->handlers[ev->type].ctx, ev->obj, p->stage);
}

/* A bucket was reached: its events take the last stage, the next bucket's the middle
 * one, the one after the first, so each stage's loads find the previous one's lines. */
static void prefetch_ahead(const struct kernel *k)
{
    for (unsigned ahead = 0; ahead < 3; ahead++) {
        struct prefetch_pass pass = { k, 2 - ahead };
        eventq_visit_ahead(&k->queue, ahead, prefetch_one, &pass);
    }
}

enum kernel_stop kernel_run(struct kernel *k)
{
    struct event ev;
    uint32_t until_chore = KERNEL_CHORE_INTERVAL;
    uint64_t loads = k->queue.loads;
    while (k->stop == KERNEL_RUNNING) {
        const struct event *top = eventq_top(&k->queue);
        if (!top) {
            k->stop = k->queue.failed ? KERNEL_FAILED : KERNEL_EMPTY;
            break;
        }
        if (k->prefetching && k->queue.loads != loads) {
            loads = k->queue.loads;
            prefetch_ahead(k);
            top = eventq_top(&k->queue);
        }
        ev = *top;
        k->top_consumed = true;
        assert(ev.time >= k->now);
        assert(ev.type < k->handler_count);
        k->now = ev.time;
        k->events++;
        k->handlers[ev.type].fn(k, k->handlers[ev.type].ctx, ev.obj);
        if (k->top_consumed) { /* the handler scheduled nothing */
            k->top_consumed = false;
            eventq_pop(&k->queue, &ev);
        }
        if (--until_chore == 0) {
            until_chore = KERNEL_CHORE_INTERVAL;
            if (k->chore)
                k->chore(k, k->chore_ctx);
        }
    }
    return k->stop;
}
