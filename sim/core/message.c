#include "message.h"

#include <stdlib.h>

bool msg_pool_grow(struct msg_pool *p)
{
    uint32_t old = p->capacity;
    if (old >= MSG_POOL_MAX)
        return false;
    uint32_t cap = old ? old * 2 : 1024;
    struct message *grown = realloc(p->msgs, (size_t)cap * sizeof *grown);
    if (!grown)
        return false;
    p->msgs = grown;
    p->capacity = cap;
    return true;
}

void msg_pool_free(struct msg_pool *p)
{
    free(p->msgs);
    *p = msg_pool_empty(p->discipline);
}
