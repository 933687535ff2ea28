/* Series statistics: nearest-rank percentiles on hand-checked series. */
#include <math.h>

#include "../unit/check.h" /* CHECK(cond, fmt, ...) */
#include "series_stats.h"

static void expect(const double *v, uint32_t n, gn_series_stats want, const char *what)
{
    double scratch[200], copy[200];
    for (uint32_t i = 0; i < n; i++) copy[i] = v[i];
    gn_series_stats s;
    gn_series_stats_compute(v, n, scratch, &s);
    CHECK(s.min == want.min && s.median == want.median && s.p99 == want.p99 && s.max == want.max &&
              fabs(s.mean - want.mean) < 1e-12,
          "%s: got min %g median %g p99 %g max %g mean %.15g; want %g %g %g %g %.15g", what, s.min, s.median,
          s.p99, s.max, s.mean, want.min, want.median, want.p99, want.max, want.mean);
    for (uint32_t i = 0; i < n; i++) CHECK(v[i] == copy[i], "%s: input modified at %u", what, i);
}

int main(void)
{
    expect(NULL, 0, (gn_series_stats){0}, "empty");
    const double one[] = {4.5};
    expect(one, 1, (gn_series_stats){4.5, 4.5, 4.5, 4.5, 4.5}, "single");
    /* Even count: nearest rank ceil(0.5 * 4) = 2nd smallest. */
    const double four[] = {9.0, 1.0, 3.0, 7.0};
    expect(four, 4, (gn_series_stats){1.0, 3.0, 9.0, 9.0, 5.0}, "four unsorted");
    const double five[] = {5.0, -2.0, 8.0, 8.0, 1.0};
    expect(five, 5, (gn_series_stats){-2.0, 5.0, 8.0, 8.0, 4.0}, "five with a tie");
    /* 1..200 shuffled by a fixed stride: p99 is the ceil(0.99 * 200) = 198th smallest = 198,
     * median the 100th = 100, mean 100.5. */
    double hundred[200];
    for (uint32_t i = 0; i < 200; i++) hundred[i] = (double)((i * 77u) % 200u + 1u);
    expect(hundred, 200, (gn_series_stats){1.0, 100.0, 198.0, 200.0, 100.5}, "1..200");
    /* 100 values: 49 x 16 (even i but 42), 50 x 17, one 1000. The median is the 50th smallest
     * (17); p99 is the 99th smallest (17), not the maximum. */
    double spike[100];
    for (uint32_t i = 0; i < 100; i++) spike[i] = i == 42 ? 1000.0 : 16.0 + (double)(i % 2);
    expect(spike, 100,
           (gn_series_stats){16.0, 17.0, 17.0, 1000.0, (49.0 * 16.0 + 50.0 * 17.0 + 1000.0) / 100.0},
           "one spike in 100");
    return gn_check_exit();
}
