/* Internal to the loader: lays out a config's keys from the framework's tables and
 * the plug-in tables reached through the schema's registries, each plug-in table
 * once, with a block of the arena for its values.  Order: sections as first
 * declared; in each, the framework's keys, then the plug-ins' in schema order; then
 * every table with listed_after right after its anchor.  A key declared twice, a
 * choice key without names or tables that do not fit are programming errors (abort).
 */
#ifndef SIM_CONFIG_LAYOUT_H
#define SIM_CONFIG_LAYOUT_H

#include "config.h"

void cfg_lay_out(struct config *cfg, const struct cfg_schema *schema);

#endif
