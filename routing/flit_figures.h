/* The flit engines' figures (routing/flit_figures.c), read after the run.
 *
 * Promise: flit_figures() is engine_ops.figures of wormhole and cut-through (blocking
 * per channel and class, acceptance, flit throughput, the sources' backlog and
 * saturation, and the table lines that read them); flit_channel_figures() is their
 * engine_ops.channel_figures (one channel's requests, blocking, wait and queue).
 * Called by: flit_setup.c (the engine_ops).  Calls no other flit file.
 * Needs: the figure sink (sim/core/figures.h) and the counts in the state of flit.h.
 */
#ifndef ROUTING_FLIT_FIGURES_H
#define ROUTING_FLIT_FIGURES_H

#include <stdint.h>

#include "engine.h"

void flit_figures(const void *self, const struct figure_sink *sink);
void flit_channel_figures(const void *self, uint32_t ch, struct channel_figures *out);

#endif
