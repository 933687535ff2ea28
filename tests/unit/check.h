/* The unit tests' one assertion: CHECK(cond, fmt, ...) prints file:line, the condition and the
 * measured values when cond is false, and keeps going so one run reports every failure; main
 * ends with `return gn_check_exit();`, which is 1 after any failure. */
#ifndef GN_TESTS_CHECK_H
#define GN_TESTS_CHECK_H

#include <stdio.h>

static int gn_check_failures;

#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);                         \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fputc('\n', stderr);                                                                             \
            gn_check_failures++;                                                                             \
        }                                                                                                    \
    } while (0)

static inline int gn_check_exit(void)
{
    if (gn_check_failures) fprintf(stderr, "%d check(s) failed\n", gn_check_failures);
    return gn_check_failures ? 1 : 0;
}

#endif
