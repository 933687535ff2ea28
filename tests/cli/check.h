/* The one assertion the CLI unit tests use: report every failure with its line, keep going,
 * and make main return non-zero if any failed. */
#ifndef GN_TEST_CHECK_H
#define GN_TEST_CHECK_H

#include <stdio.h>

static int gn_test_failures;

#define GN_CHECK(cond)                                                                                       \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                         \
            gn_test_failures++;                                                                              \
        }                                                                                                    \
    } while (0)

#define GN_CHECK_NEAR(a, b, tol) GN_CHECK(fabs((double)(a) - (double)(b)) <= (tol))

static inline int gn_test_result(const char *name)
{
    if (gn_test_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", name, gn_test_failures);
    else
        printf("%s: ok\n", name);
    return gn_test_failures ? 1 : 0;
}

#endif
