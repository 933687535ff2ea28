/* Host allocations: every malloc, calloc, realloc and strdup of the library goes through these
 * (memory is still freed with free()). Outside a test they are libc's, after one atomic load.
 *
 * For tests only, the fault injection of the reliability issue (docs/RELIABILITY.md, "Host
 * allocation faults"): a fault plan, armed below, makes one chosen call return NULL as a real
 * failure would, so a test can fail each allocation of a load or a frame in turn and check
 * that it becomes a gn_result error with a message. Each call passes its site (file and line)
 * through the macros, so a plan can name a site and a record can list the sites it saw.
 *
 * The plan is process-wide (one state, in alloc.c) and guarded by a mutex while armed: calls
 * from several threads are counted once each, in some order. Allocations made by libraries
 * gnomon links (assimp, PhysicsFS, stb_image, cJSON, the Vulkan driver) do not come here. */
#ifndef GN_BASE_ALLOC_H
#define GN_BASE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *gn_malloc_at(size_t size, const char *file, int line);
void *gn_calloc_at(size_t n, size_t size, const char *file, int line);
void *gn_realloc_at(void *p, size_t size, const char *file, int line); /* p untouched on failure */
char *gn_strdup_at(const char *s, const char *file, int line);

#define gn_malloc(size) gn_malloc_at((size), __FILE__, __LINE__)
#define gn_calloc(n, size) gn_calloc_at((n), (size), __FILE__, __LINE__)
#define gn_realloc(p, size) gn_realloc_at((p), (size), __FILE__, __LINE__)
#define gn_strdup(s) gn_strdup_at((s), __FILE__, __LINE__)

/* ---- the fault plan (tests only) --------------------------------------------------------- */

/* A call site as recorded: file is the __FILE__ string of the call (kept, not copied). */
typedef struct gn_alloc_site {
    const char *file;
    int line;
    uint64_t calls; /* calls at this site while armed */
} gn_alloc_site;

/* Most distinct sites one arming records; sites past this are counted in gn_alloc_calls but
 * not listed (gn_alloc_sites_dropped says how many calls that was). */
#define GN_ALLOC_MAX_SITES 1024

/* Each arming resets the counts and the list of sites; every call while armed is counted and
 * its site recorded, whatever the plan. */
void gn_alloc_record(void);                          /* count and record; fail nothing */
void gn_alloc_fail_nth(uint64_t n);                  /* the nth call from now fails (1: the next) */
void gn_alloc_fail_site(const char *file, int line); /* the first call at file:line fails */
void gn_alloc_disarm(void);                          /* libc again; the counts stay readable */

uint64_t gn_alloc_calls(void);         /* calls since the last arming */
uint64_t gn_alloc_failures(void);      /* failures injected since then (0 or 1) */
uint64_t gn_alloc_sites_dropped(void); /* calls at sites past GN_ALLOC_MAX_SITES */
/* The site of the failure injected since the last arming, its calls there up to and with the
 * failure in calls; false when none was. */
bool gn_alloc_failed_site(gn_alloc_site *out);
/* The distinct sites seen since the last arming, in the order first seen: copies up to max of
 * them into out (may be NULL with max 0) and returns how many there are. */
uint32_t gn_alloc_sites(gn_alloc_site *out, uint32_t max);

#endif
