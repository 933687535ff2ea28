/* A pool of worker threads kept between calls, for work that splits into independent slices
 * every frame (posing the scene's rigs): starting threads each frame costs tens of microseconds a
 * thread, a wake-up a few. The caller's thread runs slice 0 and waits for the rest, so a run is a
 * parallel for: it returns when every slice is done, and what a slice writes is then visible to
 * the caller (the pool's mutex orders it).
 *
 * Not for use from several threads at once: one pool, one caller at a time. */
#ifndef GN_BASE_WORKERS_H
#define GN_BASE_WORKERS_H

#include <stdint.h>

typedef struct gn_workers gn_workers;

/* fn(ctx, slice, slices) for slice 0 .. slices - 1. */
typedef void (*gn_work_fn)(void *ctx, uint32_t slice, uint32_t slices);

#define GN_WORKERS_MAX 63u

/* A pool of up to `threads` workers (capped at GN_WORKERS_MAX); fewer when some cannot start.
 * NULL when none can (or out of memory): gn_workers_run then runs every slice on the caller. */
gn_workers *gn_workers_create(uint32_t threads);

/* The workers that started (0 for NULL). */
uint32_t gn_workers_count(const gn_workers *w);

/* Runs slices 0 .. n - 1, slice 0 and any past the pool's workers on the caller; n may be any
 * count, slices beyond count + 1 run on the caller after its own. */
void gn_workers_run(gn_workers *w, uint32_t n, gn_work_fn fn, void *ctx);

/* Stops and joins the workers; NULL is fine. */
void gn_workers_destroy(gn_workers *w);

#endif
