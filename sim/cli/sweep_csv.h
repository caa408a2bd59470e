/* One CSV header for every point of a sweep.  Points may report different columns (a
 * sweep over routing.switching or routing.router: each engine names its own figures;
 * over protocol.link: each protocol's keys are echoed only where it is chosen), so
 * each point's row is written under the header of the first point written, field by
 * field by column name: a column the point lacks is left empty, and a column the
 * header lacks is left out, said once on stderr (the JSON output keeps every field).
 * In collect mode the header is the union of every point's, config columns first in
 * listing order (key_order), then the others in order of appearance.
 * Needs: the C library only.
 */
#ifndef SIM_CLI_SWEEP_CSV_H
#define SIM_CLI_SWEEP_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct sweep_csv {
    char *header;     /* the first header line written, without its newline; NULL before */
    size_t header_len;
    bool warned;      /* the left-out columns have been named once */
    /* Points run different engines: every point's output is kept and written at the end
     * under the union of their headers (first point's columns, then the others' new
     * ones in order of appearance), so no column is left out. */
    bool collect;
    const char *const *key_order; /* "section.key" of the config keys, in listing order */
    size_t n_key_order;
    char **kept;
    size_t *kept_len, n_kept, cap_kept;
};

/* Writes one point's CSV output (its header line, then its row lines) to out: the
 * whole of it for the first point, else its rows under that first header.  `label`
 * names the point in the warning.  False when out of memory (nothing written). */
bool sweep_csv_write(struct sweep_csv *c, FILE *out, const char *text, size_t len, const char *label);
/* Collect mode: writes the union header and every kept point's rows under it. */
bool sweep_csv_finish(struct sweep_csv *c, FILE *out);
void sweep_csv_free(struct sweep_csv *c);

#endif
