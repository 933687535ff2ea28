/* The worker pool (workers.h): each worker waits on `start` for a new generation, runs its slice
 * (worker i runs slice i + 1) when there is one, and the last to finish signals `done`. */
#include "base/workers.h"

#include "base/alloc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct gn_worker {
    gn_workers *pool;
    uint32_t index;
    pthread_t thread;
} gn_worker;

struct gn_workers {
    pthread_mutex_t lock;
    pthread_cond_t start, done;
    uint64_t generation; /* bumped by each run */
    bool quit;
    uint32_t slices, pooled, pending; /* this run's slices, those on workers (1 .. pooled), and
                                         the workers' not yet finished */
    gn_work_fn fn;
    void *ctx;
    uint32_t count; /* workers started */
    gn_worker worker[GN_WORKERS_MAX];
};

static void *worker_main(void *arg)
{
    gn_worker *me = arg;
    gn_workers *w = me->pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->quit && w->generation == seen) pthread_cond_wait(&w->start, &w->lock);
        if (w->quit) break;
        seen = w->generation;
        uint32_t slice = me->index + 1;
        if (slice > w->pooled) continue; /* not needed this run */
        gn_work_fn fn = w->fn;
        void *ctx = w->ctx;
        uint32_t slices = w->slices;
        pthread_mutex_unlock(&w->lock);
        fn(ctx, slice, slices);
        pthread_mutex_lock(&w->lock);
        if (--w->pending == 0) pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

gn_workers *gn_workers_create(uint32_t threads)
{
    if (threads > GN_WORKERS_MAX) threads = GN_WORKERS_MAX;
    if (!threads) return NULL;
    gn_workers *w = gn_calloc(1, sizeof *w);
    if (!w) return NULL;
    /* default attributes: glibc's inits cannot fail */
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->start, NULL);
    pthread_cond_init(&w->done, NULL);
    for (uint32_t i = 0; i < threads; i++) {
        w->worker[w->count] = (gn_worker){w, w->count, 0};
        if (pthread_create(&w->worker[w->count].thread, NULL, worker_main, &w->worker[w->count]) != 0) break;
        w->count++;
    }
    if (!w->count) {
        gn_workers_destroy(w);
        return NULL;
    }
    return w;
}

uint32_t gn_workers_count(const gn_workers *w) { return w ? w->count : 0; }

void gn_workers_run(gn_workers *w, uint32_t n, gn_work_fn fn, void *ctx)
{
    if (!n) return;
    uint32_t pooled = 0; /* slices 1 .. pooled run on workers */
    if (w && n > 1) {
        pooled = n - 1 < w->count ? n - 1 : w->count;
        pthread_mutex_lock(&w->lock);
        w->fn = fn, w->ctx = ctx, w->slices = n, w->pooled = pooled, w->pending = pooled;
        w->generation++;
        pthread_cond_broadcast(&w->start);
        pthread_mutex_unlock(&w->lock);
    }
    fn(ctx, 0, n);
    for (uint32_t i = pooled + 1; i < n; i++) fn(ctx, i, n);
    if (pooled) {
        pthread_mutex_lock(&w->lock);
        while (w->pending) pthread_cond_wait(&w->done, &w->lock);
        pthread_mutex_unlock(&w->lock);
    }
}

void gn_workers_destroy(gn_workers *w)
{
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->quit = true;
    pthread_cond_broadcast(&w->start);
    pthread_mutex_unlock(&w->lock);
    for (uint32_t i = 0; i < w->count; i++) pthread_join(w->worker[i].thread, NULL);
    pthread_cond_destroy(&w->start);
    pthread_cond_destroy(&w->done);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
