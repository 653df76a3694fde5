/*
 * kinetic_soak.c: the C half of the soak test (issue 16), run by `make soak` against the
 * installed library (as kinetic_test.c is by `make test-c`).
 *
 * Curves, springs and stores are created, used and destroyed through kinetic.h in a loop for
 * SECONDS seconds. Resident memory (/proc/self/statm) at the end must be within 5 % of
 * resident memory after the first 10 seconds; one sample a second is written to CSV_PATH
 * (elapsed_s,rss_kib,rss_anon_kib,iterations,part with part = c).
 *
 *   kinetic_soak SECONDS CSV_PATH
 *
 * Exit status: 0 when the memory rule holds and every call succeeded, 1 otherwise, 2 on
 * bad arguments.
 */
#define _POSIX_C_SOURCE 200809L
#include <kinetic.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define ALLOWED_GROWTH 0.05
#define WARM_UP 10.0
#define MAX_SAMPLES 100000

static long failures = 0;

/* Counts (and reports the first few of) the calls that did not return KN_OK. */
#define OK(call)                                                                       \
    do {                                                                               \
        kn_status s_ = (call);                                                         \
        if (s_ != KN_OK) {                                                             \
            if (failures++ < 10) {                                                     \
                char m_[256];                                                          \
                kn_last_error_message(m_, sizeof m_, NULL);                            \
                fprintf(stderr, "soak c: %s:%d: %s -> %d (%s)\n", __FILE__, __LINE__,  \
                        #call, (int)s_, m_);                                           \
            }                                                                          \
        }                                                                              \
    } while (0)

typedef struct {
    double elapsed;
    long rss_kib;
    long anon_kib;
    long iterations;
} sample;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long resident_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (!f) return 0;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The anonymous part of resident memory (RssAnon in /proc/self/status: the heap and other
 * private memory, without mapped files); 0 where there is no such line. */
static long anonymous_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "RssAnon: %ld", &kib) == 1) break;
    }
    fclose(f);
    return kib;
}

/* SplitMix64: the same work on every run. */
static uint64_t random_state = 16;
static double uniform(double lo, double hi) {
    uint64_t z = (random_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (double)(z >> 11) / 9007199254740991.0 * (hi - lo);
}

static double xs[2048], ys[2048];

/* Random curves: one value, one slope, a batch of 2,048 (the lazily built batch table). */
static double curves(void) {
    double sum = 0;
    for (int k = 0; k < 4; k++) {
        kn_bezier *curve = NULL;
        double y = 0;
        OK(kn_bezier_create(uniform(0, 1), uniform(-1, 2), uniform(0, 1), uniform(-1, 2), &curve));
        OK(kn_bezier_value(curve, uniform(0, 1), &y));
        sum += y;
        OK(kn_bezier_slope(curve, 0.25, &y));
        OK(kn_bezier_values(curve, xs, ys, 2048));
        sum += ys[1024];
        kn_bezier_destroy(curve);
    }
    static int32_t preset_index = 0;
    kn_bezier *preset = NULL;
    OK(kn_bezier_create_preset(preset_index, &preset));
    preset_index = (preset_index + 1) % 5;
    kn_bezier_destroy(preset);
    return sum;
}

/* Springs from every parameterisation: closed forms, settling, properties, Φ, a step. */
static double springs(void) {
    double sum = 0, ratio = uniform(0.05, 2.5);
    kn_spring *made[4] = {NULL, NULL, NULL, NULL};
    OK(kn_spring_create(uniform(0.5, 2), uniform(10, 500), uniform(0, 40), &made[0]));
    OK(kn_spring_create_damping_ratio(ratio, uniform(0.1, 2), &made[1]));
    OK(kn_spring_create_duration(uniform(0.1, 2), uniform(-0.9, 0.9), &made[2]));
    OK(kn_spring_create_settling(uniform(0.2, 3), ratio, 0.001, &made[3]));
    for (int k = 0; k < 4; k++) {
        double x = 0, v = 0, settle = 0, phi[4];
        double d[64], w[64];
        kn_spring_properties p;
        double v0 = uniform(-5, 5);
        if (!made[k]) continue;
        OK(kn_spring_value(made[k], 0.3, v0, &x));
        OK(kn_spring_velocity(made[k], 0.3, v0, &v));
        OK(kn_spring_settling_duration(made[k], v0, 0.001, &settle));
        OK(kn_spring_get_properties(made[k], &p));
        OK(kn_spring_transition(made[k], 1.0 / 60, phi));
        for (int i = 0; i < 64; i++) { d[i] = i; w[i] = v0; }
        OK(kn_spring_step(made[k], 1.0 / 60, d, w, 64));
        sum += x + v + (isfinite(settle) ? settle : 0) + p.damping_ratio + phi[0] + d[63];
        kn_spring_destroy(made[k]);
    }
    return sum;
}

/* A store with every kind of entry, ticked, churned, destroyed. */
static double stores(void) {
    enum { N = 256, TRACKS = 32 };
    static double from[N], to[N], progress[N], keys[TRACKS * 4], out[4 * N];
    const double key_times[4] = {0, 0.3, 0.7, 1};
    const int32_t interpolations[3] = {KN_INTERPOLATION_LINEAR, KN_INTERPOLATION_EASED, KN_INTERPOLATION_CATMULL_ROM};
    double sum = 0, value = 0;
    int64_t count = 0;
    kn_store *store = NULL;
    kn_bezier *easing = NULL;
    kn_spring *spring = NULL;
    kn_entry group = KN_ENTRY_NONE, lanes = KN_ENTRY_NONE, frames = KN_ENTRY_NONE, springs_entry = KN_ENTRY_NONE,
             more = KN_ENTRY_NONE;
    for (int i = 0; i < N; i++) { from[i] = i; to[i] = 2.0 * i + 1; progress[i] = (double)i / N; }
    for (int t = 0; t < TRACKS; t++) {
        keys[4 * t] = 0; keys[4 * t + 1] = t; keys[4 * t + 2] = -t; keys[4 * t + 3] = 1;
    }
    OK(kn_store_create(&store));
    OK(kn_bezier_create(uniform(0, 1), uniform(-0.5, 1.5), uniform(0, 1), 1, &easing));
    kn_bezier *easings[3] = {NULL, easing, NULL};
    OK(kn_spring_create_damping_ratio(uniform(0.2, 1.5), 0.5, &spring));
    OK(kn_store_add_group(store, from, to, N, 0.25, &group));
    OK(kn_store_add_lanes(store, from, to, progress, N, &lanes));
    OK(kn_store_add_keyframes(store, key_times, 4, keys, TRACKS, interpolations, easings, 0, &frames));
    kn_bezier_destroy(easing); /* the store keeps its own copy */
    OK(kn_store_add_springs(store, spring, to, from, NULL, N, &springs_entry));
    for (int frame = 1; frame <= 5; frame++) {
        OK(kn_store_set_progress(store, group, frame / 5.0));
        OK(kn_store_set_progress(store, frames, frame / 5.0));
        OK(kn_store_tick(store, 1.0 / 60));
    }
    OK(kn_store_remove(store, lanes));
    OK(kn_store_add_springs(store, spring, from, NULL, NULL, N, &more));
    kn_spring_destroy(spring); /* the store keeps its own copy */
    OK(kn_store_tick(store, 1.0 / 120));
    OK(kn_store_value(store, springs_entry, N - 1, &value));
    sum += value;
    OK(kn_store_read_all(store, out, 4 * N, &count));
    sum += out[count - 1];
    OK(kn_store_remove(store, group));
    kn_store_destroy(store);
    return sum;
}

int main(int argc, char **argv) {
    static sample samples[MAX_SAMPLES];
    int n = 0;
    if (argc != 3 || atof(argv[1]) <= 0) {
        fprintf(stderr, "usage: kinetic_soak SECONDS CSV_PATH\n");
        return 2;
    }
    double seconds = atof(argv[1]);
    for (int i = 0; i < 2048; i++) xs[i] = i / 2047.0;
    double start = now(), next_sample = 0, checksum = 0;
    long iterations = 0;
    int reference = -1;
    for (;;) {
        double elapsed = now() - start;
        if (elapsed >= next_sample || elapsed >= seconds) {
            if (n < MAX_SAMPLES) {
                samples[n].elapsed = elapsed;
                samples[n].rss_kib = resident_kib();
                samples[n].anon_kib = anonymous_kib();
                samples[n].iterations = iterations;
                if (reference < 0 && elapsed >= WARM_UP) reference = n;
                n++;
            }
            next_sample += 1;
            if (elapsed >= seconds) break;
        }
        checksum += curves();
        checksum += springs();
        checksum += stores();
        iterations++;
    }
    /* A run shorter than the warm-up compares with its first sample after the start. */
    if (reference < 0) reference = n > 1 ? 1 : 0;
    const sample *base = &samples[reference], *last = &samples[n - 1];
    double ratio = (double)last->rss_kib / (double)base->rss_kib;

    FILE *csv = fopen(argv[2], "w");
    if (!csv) {
        perror(argv[2]);
        return 1;
    }
    fprintf(csv, "elapsed_s,rss_kib,rss_anon_kib,iterations,part\n");
    for (int i = 0; i < n; i++) {
        fprintf(csv, "%.3f,%ld,%ld,%ld,c\n", samples[i].elapsed, samples[i].rss_kib, samples[i].anon_kib,
                samples[i].iterations);
    }
    fclose(csv);

    printf("soak c: %.0f s, %ld iterations; RSS %ld KiB after %.0f s, %ld KiB at the end "
           "(ratio %.4f, limit %.2f); anonymous %ld KiB -> %ld KiB\n",
           last->elapsed, last->iterations, base->rss_kib, base->elapsed, last->rss_kib, ratio,
           1 + ALLOWED_GROWTH, base->anon_kib, last->anon_kib);
    int status = 0;
    if (!isfinite(checksum)) {
        fprintf(stderr, "soak c: a result was not finite (checksum %g)\n", checksum);
        status = 1;
    }
    if (failures > 0) {
        fprintf(stderr, "soak c: %ld calls failed\n", failures);
        status = 1;
    }
    if (ratio > 1 + ALLOWED_GROWTH) {
        fprintf(stderr, "soak c: RSS grew from %ld KiB (%.1f s) to %ld KiB: more than %.0f %%\n", base->rss_kib,
                base->elapsed, last->rss_kib, 100 * ALLOWED_GROWTH);
        status = 1;
    }
    return status;
}
