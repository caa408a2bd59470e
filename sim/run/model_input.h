/* The model input: what the analytic models may see of a configured run.
 *
 * Promise: model_input() (a model_input_fn, analytic/model.h) reads the chosen path
 * selection, switching and access protocol from their registries and hands the models
 * only their traits, the pure path function and the protocol's capacity as a number,
 * so that analytic/ needs neither routing/ nor protocols/.  Needs a built topology.
 */
#ifndef SIM_RUN_MODEL_INPUT_H
#define SIM_RUN_MODEL_INPUT_H

#include "../../analytic/model.h"

model_input_fn model_input;

#endif
