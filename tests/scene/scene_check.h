/* The scene tests' assertion: on failure print file:line, the condition and the measured
 * values, and return 1 from the test function (later steps would use what failed). */
#ifndef GN_TESTS_SCENE_CHECK_H
#define GN_TESTS_SCENE_CHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);                         \
            fprintf(stderr, __VA_ARGS__);                                                                    \
            fprintf(stderr, "\n");                                                                           \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

#endif
