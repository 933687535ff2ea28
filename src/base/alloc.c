/* Host allocations and their fault plan (alloc.h). */
#define _POSIX_C_SOURCE 200809L /* pthread_mutex_t's static initializer */
#include "base/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The one fault plan of the process. `armed` is read without the lock, so a disarmed call
 * costs one atomic load; everything else is read and written under `lock`. */
static struct {
    atomic_bool armed;
    pthread_mutex_t lock;
    uint64_t fail_nth;     /* 0: no nth call fails */
    const char *fail_file; /* NULL: no site fails */
    int fail_line;
    uint64_t calls, failures, dropped;
    gn_alloc_site failed; /* where the failure was, its calls there counting it */
    uint32_t site_count;
    gn_alloc_site sites[GN_ALLOC_MAX_SITES];
} plan = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The same file can reach here through different __FILE__ pointers (one per object file that
 * includes a header), so sites compare by contents. */
static bool same_site(const char *a, int la, const char *b, int lb) { return la == lb && strcmp(a, b) == 0; }

/* Counts the call and says whether the plan fails it. */
static bool planned_failure(const char *file, int line)
{
    if (!atomic_load_explicit(&plan.armed, memory_order_acquire)) return false;
    pthread_mutex_lock(&plan.lock);
    bool fail = false;
    uint64_t n = ++plan.calls;
    uint32_t s = 0;
    while (s < plan.site_count && !same_site(plan.sites[s].file, plan.sites[s].line, file, line)) s++;
    bool first_at_site = s == plan.site_count;
    if (first_at_site && s < GN_ALLOC_MAX_SITES)
        plan.sites[plan.site_count++] = (gn_alloc_site){file, line, 0};
    if (s < plan.site_count)
        plan.sites[s].calls++;
    else
        plan.dropped++;
    if (plan.fail_nth == n) fail = true;
    if (plan.fail_file && same_site(plan.fail_file, plan.fail_line, file, line)) {
        fail = true;
        plan.fail_file = NULL; /* its first call only */
    }
    if (fail) {
        plan.failures++;
        plan.failed = (gn_alloc_site){file, line, s < plan.site_count ? plan.sites[s].calls : 0};
    }
    pthread_mutex_unlock(&plan.lock);
    return fail;
}

void *gn_malloc_at(size_t size, const char *file, int line)
{
    return planned_failure(file, line) ? NULL : malloc(size);
}

void *gn_calloc_at(size_t n, size_t size, const char *file, int line)
{
    return planned_failure(file, line) ? NULL : calloc(n, size);
}

void *gn_realloc_at(void *p, size_t size, const char *file, int line)
{
    return planned_failure(file, line) ? NULL : realloc(p, size);
}

char *gn_strdup_at(const char *s, const char *file, int line)
{
    if (planned_failure(file, line)) return NULL;
    size_t n = strlen(s) + 1; /* strdup is POSIX, not C11 */
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

/* Disarms, resets the counts and sets the plan, then arms. */
static void arm(uint64_t nth, const char *file, int line)
{
    pthread_mutex_lock(&plan.lock);
    plan.fail_nth = nth;
    plan.fail_file = file;
    plan.fail_line = line;
    plan.calls = plan.failures = plan.dropped = 0;
    plan.failed = (gn_alloc_site){0};
    plan.site_count = 0;
    atomic_store_explicit(&plan.armed, true, memory_order_release);
    pthread_mutex_unlock(&plan.lock);
}

void gn_alloc_record(void) { arm(0, NULL, 0); }

void gn_alloc_fail_nth(uint64_t n) { arm(n, NULL, 0); }

void gn_alloc_fail_site(const char *file, int line) { arm(0, file, line); }

void gn_alloc_disarm(void)
{
    pthread_mutex_lock(&plan.lock);
    atomic_store_explicit(&plan.armed, false, memory_order_release);
    plan.fail_nth = 0;
    plan.fail_file = NULL;
    pthread_mutex_unlock(&plan.lock);
}

/* Reads one count under the lock. */
static uint64_t read_count(const uint64_t *count)
{
    pthread_mutex_lock(&plan.lock);
    uint64_t v = *count;
    pthread_mutex_unlock(&plan.lock);
    return v;
}

uint64_t gn_alloc_calls(void) { return read_count(&plan.calls); }

uint64_t gn_alloc_failures(void) { return read_count(&plan.failures); }

uint64_t gn_alloc_sites_dropped(void) { return read_count(&plan.dropped); }

bool gn_alloc_failed_site(gn_alloc_site *out)
{
    pthread_mutex_lock(&plan.lock);
    bool any = plan.failures > 0;
    *out = plan.failed;
    pthread_mutex_unlock(&plan.lock);
    return any;
}

uint32_t gn_alloc_sites(gn_alloc_site *out, uint32_t max)
{
    pthread_mutex_lock(&plan.lock);
    uint32_t n = plan.site_count;
    if (out) memcpy(out, plan.sites, (n < max ? n : max) * sizeof *out);
    pthread_mutex_unlock(&plan.lock);
    return n;
}
