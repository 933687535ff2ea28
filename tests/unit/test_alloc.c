/* The host-allocation hook's fault plan (src/base/alloc.h): the nth call fails and only it, a
 * site's first call fails and only it, every call while armed is counted at its site, nothing
 * is counted or failed once disarmed, and calls from several threads are each counted once. */
#define _POSIX_C_SOURCE 200809L /* pthreads */
#include "base/alloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_nth(void)
{
    gn_alloc_fail_nth(3);
    void *p[5];
    for (int i = 0; i < 5; i++) p[i] = gn_malloc(16);
    CHECK(p[0] && p[1] && !p[2] && p[3] && p[4], "fail_nth(3): %p %p %p %p %p", p[0], p[1], p[2], p[3], p[4]);
    CHECK(gn_alloc_calls() == 5 && gn_alloc_failures() == 1, "%llu calls, %llu failures",
          (unsigned long long)gn_alloc_calls(), (unsigned long long)gn_alloc_failures());
    gn_alloc_site at;
    CHECK(gn_alloc_failed_site(&at) && at.calls == 3 && strstr(at.file, "test_alloc.c"),
          "failed at %s:%d, call %llu there", at.file, at.line, (unsigned long long)at.calls);
    for (int i = 0; i < 5; i++) free(p[i]);
    /* a failed realloc leaves the block as it was */
    char *s = gn_strdup("kept");
    gn_alloc_fail_nth(1);
    char *grown = gn_realloc(s, 1 << 20);
    CHECK(!grown && strcmp(s, "kept") == 0, "failed realloc: %p, '%s'", (void *)grown, s);
    gn_alloc_disarm();
    free(s);
}

static void *at_site_a(void) { return gn_calloc(1, 8); }
static void *at_site_b(void) { return gn_malloc(8); }

static void test_site(void)
{
    gn_alloc_record();
    free(at_site_a());
    free(at_site_b());
    free(at_site_b());
    gn_alloc_site sites[4];
    uint32_t n = gn_alloc_sites(sites, 4);
    CHECK(n == 2 && sites[0].calls == 1 && sites[1].calls == 2 && sites[0].line != sites[1].line,
          "record: %u sites (%llu, %llu calls)", n, (unsigned long long)sites[0].calls,
          (unsigned long long)sites[1].calls);
    CHECK(gn_alloc_failures() == 0 && !gn_alloc_failed_site(&sites[3]), "record failed a call");
    /* site b's first call fails, its second and site a's do not */
    gn_alloc_fail_site(sites[1].file, sites[1].line);
    void *a = at_site_a(), *b1 = at_site_b(), *b2 = at_site_b();
    CHECK(a && !b1 && b2, "fail_site: %p %p %p", a, b1, b2);
    CHECK(gn_alloc_calls() == 3 && gn_alloc_failures() == 1, "%llu calls, %llu failures",
          (unsigned long long)gn_alloc_calls(), (unsigned long long)gn_alloc_failures());
    free(a), free(b2);
    /* disarmed: nothing counted, nothing failed; the last arming's counts stay readable */
    gn_alloc_disarm();
    gn_alloc_fail_nth(0); /* armed with no failure planned, then disarmed */
    gn_alloc_disarm();
    void *c = gn_malloc(8);
    CHECK(c && gn_alloc_calls() == 0, "disarmed: %p, %llu calls", c, (unsigned long long)gn_alloc_calls());
    free(c);
}

#define THREADS 4
#define PER_THREAD 20000

static void *churn(void *arg)
{
    (void)arg;
    for (int i = 0; i < PER_THREAD; i++) free(gn_malloc(32));
    return NULL;
}

static void test_threads(void)
{
    gn_alloc_record();
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, churn, NULL);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    gn_alloc_site site;
    uint32_t n = gn_alloc_sites(&site, 1);
    CHECK(gn_alloc_calls() == THREADS * PER_THREAD && n == 1 && site.calls == THREADS * PER_THREAD,
          "%d threads: %llu calls at %u sites, %llu at the first", THREADS,
          (unsigned long long)gn_alloc_calls(), n, (unsigned long long)site.calls);
    /* the nth call of all the threads fails exactly once */
    gn_alloc_fail_nth(THREADS * PER_THREAD / 2);
    for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, churn, NULL);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    CHECK(gn_alloc_failures() == 1, "%d threads: %llu failures, 1 planned", THREADS,
          (unsigned long long)gn_alloc_failures());
    gn_alloc_disarm();
}

int main(void)
{
    test_nth();
    test_site();
    test_threads();
    return gn_check_exit();
}
