/*
 * kinetic_test_threads.c: the thread-safety promises of kinetic.h, from two threads at once, for
 * ThreadSanitizer (make test-sanitize; it also passes as a plain program).
 *
 * - one kn_bezier and one kn_spring are shared by both threads (immutable: safe to share);
 * - each thread has its own kn_store (different stores on different threads are allowed);
 * - the last error message is per thread: each thread makes its own error and must read back
 *   its own message, not the other thread's;
 * - kn_status_message and kn_version_string from both threads.
 * Each thread's results must equal those computed on the main thread first. Exits 1 on any
 * difference; a data race is a ThreadSanitizer report (which fails the run, exitcode=66).
 */
#include <kinetic.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define SAMPLES 2000
#define ROUNDS 20

static kn_bezier *shared_curve;
static kn_spring *shared_spring;
static double expected[SAMPLES];

typedef struct {
    int id;
    int failures;
} job;

/* What one thread computes: curve and spring values, and a store of its own. */
static int compute(double *out, int id) {
    for (int i = 0; i < SAMPLES / 2; i++) {
        const double x = (double)i / (SAMPLES / 2 - 1);
        if (kn_bezier_value(shared_curve, x, &out[i]) != KN_OK) return 1;
        if (kn_spring_value(shared_spring, x, 0.5, &out[SAMPLES / 2 + i]) != KN_OK) return 1;
    }
    kn_store *store = NULL;
    if (kn_store_create(&store) != KN_OK) return 1;
    const double from[4] = {0, 1, 2, 3}, to[4] = {4, 5, 6, 7}, targets[2] = {1, 2};
    kn_entry group, springs;
    int failed = kn_store_add_group(store, from, to, 4, 0.5, &group) != KN_OK
        || kn_store_add_springs(store, shared_spring, targets, NULL, NULL, 2, &springs) != KN_OK
        || kn_store_tick(store, 1.0 / 60) != KN_OK;
    double values[6];
    int64_t count = 0;
    failed = failed || kn_store_read_all(store, values, 6, &count) != KN_OK || count != 6;
    kn_store_destroy(store);
    (void)id;
    return failed;
}

/* An error of this thread's own (x1 = 2 + id is out of range), read back as its message. */
static int own_error(int id) {
    kn_bezier *curve = NULL;
    if (kn_bezier_create(2.0 + id, 0, 0.5, 1, &curve) != KN_ERR_OUT_OF_RANGE) return 1;
    char message[256], needle[32];
    snprintf(needle, sizeof needle, "%d", 2 + id);
    if (kn_last_error_message(message, sizeof message, NULL) != KN_OK) return 1;
    if (!strstr(message, needle)) {
        fprintf(stderr, "thread %d: last error \"%s\" is not its own (wanted %s)\n", id, message, needle);
        return 1;
    }
    return 0;
}

static void *run(void *argument) {
    job *j = argument;
    double out[SAMPLES];
    for (int round = 0; round < ROUNDS; round++) {
        if (compute(out, j->id) || memcmp(out, expected, sizeof out) != 0) j->failures++;
        if (own_error(j->id)) j->failures++;
        if (!kn_status_message(KN_ERR_NOT_FINITE)[0] || !kn_version_string()[0]) j->failures++;
    }
    return NULL;
}

int main(void) {
    if (kn_bezier_create(0.34, 1.56, 0.64, 1, &shared_curve) != KN_OK
        || kn_spring_create_damping_ratio(0.5, 0.4, &shared_spring) != KN_OK
        || compute(expected, 0)) {
        fprintf(stderr, "kinetic_test_threads: set-up failed\n");
        return 1;
    }
    job jobs[2] = {{0, 0}, {1, 0}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, run, &jobs[i]);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
    kn_bezier_destroy(shared_curve);
    kn_spring_destroy(shared_spring);
    const int failures = jobs[0].failures + jobs[1].failures;
    printf("kinetic_test_threads: 2 threads x %d rounds, %d failure(s)\n", ROUNDS, failures);
    return failures == 0 ? 0 : 1;
}
