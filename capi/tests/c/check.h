/* The C tests' checks: a failed one prints its file, line and condition and counts towards the
 * test's exit status (`failures`), and the test goes on to report every failure of the run. */
#ifndef D3D9S_TEST_CHECK_H
#define D3D9S_TEST_CHECK_H

#include <stdio.h>

static int failures = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

#define EXPECT(call, status) CHECK((call) == (status))

#endif
