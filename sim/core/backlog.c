/* The backlog's course over the window and the verdict from it (contract in backlog.h). */
#include "backlog.h"

#include <math.h>

void backlog_init(struct backlog_trace *t, uint32_t at_open)
{
    t->at_open = at_open;
    t->stride = 1;
    t->next = 1;
    t->n = 0;
}

void backlog_sample(struct backlog_trace *t, uint64_t created, uint32_t in_network)
{
    if (t->n == BACKLOG_SAMPLES) { /* keep every other one: the spacing doubles */
        for (uint32_t i = 0; i < BACKLOG_SAMPLES / 2; i++) { /* samples are at multiples of the stride */
            t->created[i] = t->created[2 * i + 1];
            t->level[i] = t->level[2 * i + 1];
        }
        t->n = BACKLOG_SAMPLES / 2;
        t->stride *= 2;
        if (created % t->stride) { /* this one falls between the kept ones */
            t->next = t->created[t->n - 1] + t->stride;
            return;
        }
    }
    t->created[t->n] = created;
    t->level[t->n] = in_network;
    t->n++;
    t->next = created + t->stride;
}

void backlog_judge(const struct backlog_trace *t, uint32_t sources, struct backlog_verdict *out)
{
    *out = (struct backlog_verdict){ 0 };
    if (t->n < 2)
        return;
    uint64_t first = t->created[0], last = t->created[t->n - 1];
    double mid = 0.5 * ((double)first + (double)last);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    unsigned m = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if ((double)t->created[i] < mid)
            continue;
        double x = (double)t->created[i] - mid, y = t->level[i];
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        m++;
    }
    out->start = t->at_open;
    out->end = t->level[t->n - 1];
    if (m < BACKLOG_MIN_SAMPLES)
        return;
    double denom = m * sxx - sx * sx;
    double slope = denom > 0 ? (m * sxy - sx * sy) / denom : 0;
    out->known = true;
    out->middle = (sy - slope * sx) / m;
    out->created_half = (double)last - mid;
    out->growth = slope * out->created_half;
    double ss = 0; /* residuals about the line */
    for (uint32_t i = 0; i < t->n; i++)
        if ((double)t->created[i] >= mid) {
            double r = t->level[i] - (out->middle + slope * ((double)t->created[i] - mid));
            ss += r * r;
        }
    out->spread = m > 2 ? sqrt(ss / (m - 2)) : 0;
    double early = out->middle - out->start; /* the rise over the first half */
    out->saturated = out->growth > (double)sources && out->growth > BACKLOG_GROWTH * out->created_half &&
                     out->growth > BACKLOG_PACE * early && early > BACKLOG_PACE * out->growth &&
                     out->growth > BACKLOG_SPREAD * out->spread;
}
