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

enum kernel_stop kernel_run(struct kernel *k)
{
    struct event ev;
    uint32_t until_chore = KERNEL_CHORE_INTERVAL;
    while (k->stop == KERNEL_RUNNING) {
        const struct event *top = eventq_top(&k->queue);
        if (!top) {
            k->stop = KERNEL_EMPTY;
            break;
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
