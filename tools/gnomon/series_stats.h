/* Summary statistics of a timing series (frame times, pass times): gnomon bench's, so they
 * live with the CLI (the library reports single frames). */
#ifndef GN_CLI_SERIES_STATS_H
#define GN_CLI_SERIES_STATS_H

#include <stdint.h>

typedef struct gn_series_stats {
    double min, median, p99, max, mean;
} gn_series_stats;

/* Percentiles by nearest rank on a sorted copy: the p-th is the ceil(p/100 * n)-th smallest
 * value (so the median of an even count is the lower middle value). scratch holds n doubles;
 * v is not modified. n = 0 gives all zeros. */
void gn_series_stats_compute(const double *v, uint32_t n, double *scratch, gn_series_stats *out);

#endif
