/* The model input: what the analytic models may see of a configured run.
 *
 * Promise: model_input() (a model_input_fn, analytic/model.h) reads the chosen path
 * selection, switching, access protocol and workload from their registries and hands
 * the models only their traits, the pure path function as the engine follows it (its
 * tie rule included: engine_ops.follows), the protocol's capacity as a
 * number and the destination distribution, set up on the topology, as a probability
 * function, so that analytic/ needs neither routing/, protocols/ nor workloads/.
 * Needs a built topology that outlives *in; model_input_free() releases what
 * model_input() set up (the loads stay the caller's: loads_free).
 */
#ifndef SIM_RUN_MODEL_INPUT_H
#define SIM_RUN_MODEL_INPUT_H

#include "../../analytic/model.h"

model_input_fn model_input;
void model_input_free(struct model_in *in);

#endif
