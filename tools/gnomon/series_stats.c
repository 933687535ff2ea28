/* Series statistics. Nearest rank (not interpolation) so every reported percentile is a
 * value that was actually measured. */
#include "series_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int gn_double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The ceil(p/100 * n)-th smallest (1-based), at least the first. */
static double gn_nearest_rank(const double *sorted, uint32_t n, double p)
{
    double rank = ceil(p / 100.0 * (double)n);
    uint32_t i = rank < 1.0 ? 0u : (uint32_t)rank - 1u;
    return sorted[i < n ? i : n - 1u];
}

void gn_series_stats_compute(const double *v, uint32_t n, double *scratch, gn_series_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0) return;
    memcpy(scratch, v, (size_t)n * sizeof(double));
    qsort(scratch, n, sizeof(double), gn_double_cmp);
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++) sum += scratch[i];
    out->min = scratch[0];
    out->max = scratch[n - 1];
    out->median = gn_nearest_rank(scratch, n, 50.0);
    out->p99 = gn_nearest_rank(scratch, n, 99.0);
    out->mean = sum / (double)n;
}
