#include "message.h"

#include <stdlib.h>

/* *array grown to cap elements of `size` bytes; false (nothing changed) when out of memory. */
static bool grow_array(void **array, uint32_t cap, size_t size)
{
    void *grown = realloc(*array, (size_t)cap * size);
    if (!grown)
        return false;
    *array = grown;
    return true;
}

bool msg_pool_grow(struct msg_pool *p)
{
    uint32_t old = p->capacity;
    if (old >= MSG_POOL_MAX)
        return false;
    uint32_t cap = old ? old * 2 : 1024;
    if (!grow_array((void **)&p->msgs, cap, sizeof *p->msgs) ||
        (p->keep_ids && !grow_array((void **)&p->ids, cap, sizeof *p->ids)) ||
        (p->key && !grow_array((void **)&p->order, cap, sizeof *p->order)))
        return false; /* the arrays grown so far are only larger: capacity still holds */
    p->capacity = cap;
    return true;
}

void msg_pool_free(struct msg_pool *p)
{
    free(p->msgs);
    free(p->ids);
    free(p->order);
    *p = msg_pool_empty(p->key, p->key_params, p->keep_ids);
}
