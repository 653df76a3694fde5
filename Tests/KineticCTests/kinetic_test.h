/*
 * kinetic_test.h: the check macros and helpers shared by kinetic_test.c,
 * kinetic_test_store.c and kinetic_test_engine.c (the C test of kinetic.h; see kinetic_test.c).
 */
#ifndef KINETIC_TEST_H
#define KINETIC_TEST_H

#include <kinetic.h>
#include <stdio.h>

/* Checks that held and that failed, over the whole program. */
extern int passed, failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            passed++;                                                                \
        } else {                                                                     \
            failed++;                                                                \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
        }                                                                            \
    } while (0)

/* A call that must return `expected`. */
#define EXPECT(expected, call)                                                       \
    do {                                                                             \
        kn_status s_ = (call);                                                       \
        if (s_ == (expected)) {                                                      \
            passed++;                                                                \
        } else {                                                                     \
            failed++;                                                                \
            fprintf(stderr, "FAIL %s:%d: %s returned %d (%s), expected %s\n", __FILE__, \
                    __LINE__, #call, (int)s_, kn_status_message(s_), #expected);     \
        }                                                                            \
    } while (0)

#define OK(call) EXPECT(KN_OK, call)

/* Whether a and b are the same double, bit for bit. */
int same_bits(double a, double b);
/* The calling thread's last error message (a static buffer). */
const char *last_error(void);
/* Whether the last error message contains `needle` (prints it when not). */
int error_mentions(const char *needle);

void test_store(void);
void test_store_overflow(void);
void test_store_promises(void);
void test_engine(void);
void test_motion(void);

#endif /* KINETIC_TEST_H */
