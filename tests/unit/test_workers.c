/* The worker pool (src/base/workers.h): every slice runs exactly once a run, whatever the pool's
 * size against the slice count, results are visible to the caller when a run returns, runs follow
 * one another many times (the generation hand-over), and a NULL pool runs everything inline. */
#include "base/workers.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(c)                                                                                             \
    do {                                                                                                     \
        if (!(c)) {                                                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);                            \
            failures++;                                                                                      \
        }                                                                                                    \
    } while (0)

#define ITEMS 10000u
#define MAX_SLICES 80u

typedef struct job {
    uint32_t value[ITEMS];
    uint32_t ran[MAX_SLICES]; /* times each slice ran this run */
    uint32_t slices_seen[MAX_SLICES];
    uint32_t round;
} job;

/* slice i of n: items [i * ITEMS / n, (i + 1) * ITEMS / n) get a value of the round */
static void work(void *ctx, uint32_t i, uint32_t n)
{
    job *j = ctx;
    j->ran[i]++;
    j->slices_seen[i] = n;
    for (uint32_t k = ITEMS * i / n; k < ITEMS * (i + 1) / n; k++) j->value[k] = j->round * 31u + k;
}

static void run_and_check(gn_workers *w, job *j, uint32_t n)
{
    memset(j->ran, 0, sizeof j->ran);
    j->round++;
    gn_workers_run(w, n, work, j);
    for (uint32_t i = 0; i < n; i++) CHECK(j->ran[i] == 1 && j->slices_seen[i] == n);
    for (uint32_t i = n; i < MAX_SLICES; i++) CHECK(j->ran[i] == 0);
    uint32_t bad = 0;
    for (uint32_t k = 0; k < ITEMS; k++) bad += j->value[k] != j->round * 31u + k;
    CHECK(bad == 0);
}

int main(void)
{
    static job j;
    /* no pool: everything on the caller */
    CHECK(gn_workers_count(NULL) == 0);
    CHECK(gn_workers_create(0) == NULL);
    run_and_check(NULL, &j, 1);
    run_and_check(NULL, &j, 7);
    gn_workers_run(NULL, 0, work, &j); /* nothing to do */

    const uint32_t sizes[] = {1, 3, 7, 200};
    for (uint32_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        gn_workers *w = gn_workers_create(sizes[s]);
        CHECK(w != NULL);
        uint32_t count = gn_workers_count(w);
        CHECK(count == (sizes[s] < GN_WORKERS_MAX ? sizes[s] : GN_WORKERS_MAX));
        /* fewer slices than workers, as many, more (the rest on the caller), one */
        const uint32_t ns[] = {1, 2, count, count + 1, count + 5, MAX_SLICES};
        for (int rep = 0; rep < 300; rep++)
            for (uint32_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
                if (ns[k] >= 1 && ns[k] <= MAX_SLICES) run_and_check(w, &j, ns[k]);
        gn_workers_destroy(w);
    }
    gn_workers_destroy(NULL);
    /* a pool made and destroyed without a run */
    gn_workers_destroy(gn_workers_create(4));
    if (failures) {
        fprintf(stderr, "unit_workers: %d failures\n", failures);
        return 1;
    }
    printf("unit_workers: ok (pools of 1, 3, 7 and %u workers, 300 rounds each of 6 slice counts)\n",
           GN_WORKERS_MAX);
    return 0;
}
