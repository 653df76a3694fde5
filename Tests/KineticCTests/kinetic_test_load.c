/*
 * kinetic_test_load.c: what loading the installed library does to its host process, run by
 * `make test-c`. Not linked against the library: it installs its own SIGSEGV handler (as an
 * engine's crash reporter would), records the signal dispositions of SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGTRAP, SIGABRT and SIGSYS, loads the library with dlopen, calls every function
 * of kinetic.h (curves, springs and stores; success and error paths; the header only supplies
 * the types), and checks that no disposition changed: the Swift runtime linked into the
 * library must not install its crash handlers (backtracer).
 * It also counts the process's threads (/proc/self/task) before and after, and fails when
 * loading or calling starts any, and checks that OpenBLAS is not mapped into the process
 * (/proc/self/maps): Kinetic loads it only when a BLAS routine first runs, which no C entry
 * point does. No environment variable is set for any of this.
 *
 *     kinetic_test_load path/to/libKineticC.so.0
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinetic.h"

static const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS};
static const char *const names[] = {"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGTRAP", "SIGABRT", "SIGSYS"};
#define SIGNAL_COUNT (sizeof signals / sizeof signals[0])

static int failed = 0;

static void host_handler(int sig) { (void)sig; }

/* Whether a mapped file of the process has `name` in its path. */
static int is_mapped(const char *name) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    if (!f) return -1;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, name) != NULL;
    fclose(f);
    return found;
}

static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    struct dirent *e;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* The handler address a disposition names (sa_sigaction with SA_SIGINFO, else sa_handler). */
static void *handler_of(const struct sigaction *a) {
    void *p;
    if (a->sa_flags & SA_SIGINFO) memcpy(&p, &a->sa_sigaction, sizeof p);
    else memcpy(&p, &a->sa_handler, sizeof p);
    return p;
}

/* A function of the library by name (memcpy: ISO C has no object-to-function pointer cast). */
static void resolve(void *lib, const char *name, void *fn, size_t size) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "FAIL dlsym %s: %s\n", name, dlerror());
        exit(1);
    }
    memcpy(fn, &p, size);
}
#define RESOLVE(lib, fn) resolve(lib, #fn, &fn, sizeof fn)

#define CALL_OK(call)                                                          \
    do {                                                                       \
        if ((call) != 0) {                                                     \
            fprintf(stderr, "FAIL %s did not return KN_OK\n", #call);          \
            failed = 1;                                                        \
        }                                                                      \
    } while (0)

int main(int argc, char **argv) {
    struct sigaction host, before[SIGNAL_COUNT], after[SIGNAL_COUNT];
    size_t i;
    int threads_start, threads_loaded, threads_called;
    void *lib;

    /* Every function of kinetic.h, resolved by name (the types are the header's). */
    const char *(*kn_status_message)(kn_status);
    kn_status (*kn_last_error_message)(char *, size_t, size_t *);
    kn_status (*kn_version)(int32_t *, int32_t *, int32_t *);
    const char *(*kn_version_string)(void);
    kn_status (*kn_bezier_create)(double, double, double, double, kn_bezier **);
    kn_status (*kn_bezier_create_preset)(int32_t, kn_bezier **);
    kn_status (*kn_bezier_control_points)(const kn_bezier *, double *, double *, double *, double *);
    kn_status (*kn_bezier_value)(const kn_bezier *, double, double *);
    kn_status (*kn_bezier_values)(const kn_bezier *, const double *, double *, int64_t);
    kn_status (*kn_bezier_slope)(const kn_bezier *, double, double *);
    void (*kn_bezier_destroy)(kn_bezier *);
    kn_status (*kn_spring_create)(double, double, double, kn_spring **);
    kn_status (*kn_spring_create_damping_ratio)(double, double, kn_spring **);
    kn_status (*kn_spring_create_duration)(double, double, kn_spring **);
    kn_status (*kn_spring_create_settling)(double, double, double, kn_spring **);
    kn_status (*kn_spring_parameters)(const kn_spring *, double *, double *, double *);
    kn_status (*kn_spring_get_properties)(const kn_spring *, kn_spring_properties *);
    kn_status (*kn_spring_value)(const kn_spring *, double, double, double *);
    kn_status (*kn_spring_velocity)(const kn_spring *, double, double, double *);
    kn_status (*kn_spring_settling_duration)(const kn_spring *, double, double, double *);
    kn_status (*kn_spring_transition)(const kn_spring *, double, double *);
    kn_status (*kn_spring_step)(const kn_spring *, double, double *, double *, int64_t);
    void (*kn_spring_destroy)(kn_spring *);
    kn_status (*kn_store_create)(kn_store **);
    kn_status (*kn_store_add_group)(kn_store *, const double *, const double *, int64_t, double, kn_entry *);
    kn_status (*kn_store_add_lanes)(kn_store *, const double *, const double *, const double *, int64_t, kn_entry *);
    kn_status (*kn_store_add_keyframes)(kn_store *, const double *, int64_t, const double *, int64_t, const int32_t *,
                                        kn_bezier *const *, double, kn_entry *);
    kn_status (*kn_store_add_springs)(kn_store *, const kn_spring *, const double *, const double *, const double *,
                                      int64_t, kn_entry *);
    kn_status (*kn_store_remove)(kn_store *, kn_entry);
    kn_status (*kn_store_contains)(const kn_store *, kn_entry, int32_t *);
    kn_status (*kn_store_set_progress)(kn_store *, kn_entry, double);
    kn_status (*kn_store_set_lane_progress)(kn_store *, kn_entry, const double *, int64_t);
    kn_status (*kn_store_tick)(kn_store *, double);
    kn_status (*kn_store_evaluate)(kn_store *);
    kn_status (*kn_store_counts)(const kn_store *, int64_t *, int64_t *);
    kn_status (*kn_store_range)(const kn_store *, kn_entry, int64_t *, int64_t *);
    kn_status (*kn_store_value)(const kn_store *, kn_entry, int64_t, double *);
    kn_status (*kn_store_read)(const kn_store *, kn_entry, double *, int64_t, int64_t *);
    kn_status (*kn_store_read_all)(const kn_store *, double *, int64_t, int64_t *);
    void (*kn_store_destroy)(kn_store *);

    if (argc != 2) {
        fprintf(stderr, "usage: %s path/to/libKineticC.so\n", argv[0]);
        return 2;
    }

    /* The host's own crash handler, installed before the library is loaded. */
    memset(&host, 0, sizeof host);
    host.sa_handler = host_handler;
    sigemptyset(&host.sa_mask);
    if (sigaction(SIGSEGV, &host, NULL) != 0) return 2;
    for (i = 0; i < SIGNAL_COUNT; i++) sigaction(signals[i], NULL, &before[i]);
    threads_start = thread_count();

    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "FAIL dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    threads_loaded = thread_count();

    RESOLVE(lib, kn_status_message);
    RESOLVE(lib, kn_last_error_message);
    RESOLVE(lib, kn_version);
    RESOLVE(lib, kn_version_string);
    RESOLVE(lib, kn_bezier_create);
    RESOLVE(lib, kn_bezier_create_preset);
    RESOLVE(lib, kn_bezier_control_points);
    RESOLVE(lib, kn_bezier_value);
    RESOLVE(lib, kn_bezier_values);
    RESOLVE(lib, kn_bezier_slope);
    RESOLVE(lib, kn_bezier_destroy);
    RESOLVE(lib, kn_spring_create);
    RESOLVE(lib, kn_spring_create_damping_ratio);
    RESOLVE(lib, kn_spring_create_duration);
    RESOLVE(lib, kn_spring_create_settling);
    RESOLVE(lib, kn_spring_parameters);
    RESOLVE(lib, kn_spring_get_properties);
    RESOLVE(lib, kn_spring_value);
    RESOLVE(lib, kn_spring_velocity);
    RESOLVE(lib, kn_spring_settling_duration);
    RESOLVE(lib, kn_spring_transition);
    RESOLVE(lib, kn_spring_step);
    RESOLVE(lib, kn_spring_destroy);
    RESOLVE(lib, kn_store_create);
    RESOLVE(lib, kn_store_add_group);
    RESOLVE(lib, kn_store_add_lanes);
    RESOLVE(lib, kn_store_add_keyframes);
    RESOLVE(lib, kn_store_add_springs);
    RESOLVE(lib, kn_store_remove);
    RESOLVE(lib, kn_store_contains);
    RESOLVE(lib, kn_store_set_progress);
    RESOLVE(lib, kn_store_set_lane_progress);
    RESOLVE(lib, kn_store_tick);
    RESOLVE(lib, kn_store_evaluate);
    RESOLVE(lib, kn_store_counts);
    RESOLVE(lib, kn_store_range);
    RESOLVE(lib, kn_store_value);
    RESOLVE(lib, kn_store_read);
    RESOLVE(lib, kn_store_read_all);
    RESOLVE(lib, kn_store_destroy);
    /* Every function once or more, on its success path and on an error path (which records a
     * per-thread message: a pthread key, no thread). Large batches (65,536 values) included. */
    {
        enum { N = 64, BIG = 65536 };
        kn_bezier *curve = NULL, *preset = NULL, *easings[2] = {NULL, NULL};
        kn_spring *spring = NULL, *other = NULL;
        kn_store *store = NULL;
        kn_spring_properties properties;
        double y = 0, a = 0, b = 0, c = 0, d = 0, matrix[4], x[N], v[N], out[4 * N], progress[N];
        double from[N], to[N], key_times[3] = {0, 0.5, 1}, values[2 * 3] = {0, 1, 0, 2, 3, 4};
        const int32_t interpolations[2] = {KN_INTERPOLATION_EASED, KN_INTERPOLATION_CATMULL_ROM};
        double *big = malloc(BIG * sizeof(double));
        char message[256];
        size_t length = 0;
        int32_t major = 0, minor = 0, patch = 0, contains = 0;
        kn_entry group = 0, lanes = 0, keys = 0, springs = 0;
        int64_t count = 0, lane_count = 0, entry_count = 0, offset = 0;
        int k;
        for (k = 0; k < N; k++) x[k] = -1, v[k] = 0, from[k] = 0, to[k] = 1, progress[k] = k / (double)N;
        for (k = 0; k < BIG; k++) big[k] = k / (double)BIG;
        (void)kn_status_message(KN_ERR_OUT_OF_RANGE);
        (void)kn_version_string();
        CALL_OK(kn_version(&major, &minor, &patch));
        CALL_OK(kn_bezier_create(0.25, 0.1, 0.25, 1, &curve));
        CALL_OK(kn_bezier_create_preset(KN_BEZIER_EASE_OUT, &preset));
        CALL_OK(kn_bezier_control_points(curve, &a, &b, &c, &d));
        for (k = 0; k <= 100; k++) CALL_OK(kn_bezier_value(curve, k / 100.0, &y));
        for (k = 0; k <= 100; k++) CALL_OK(kn_bezier_slope(preset, k / 100.0, &y));
        CALL_OK(kn_bezier_values(curve, big, big, BIG));
        CALL_OK(kn_spring_create(1, 100, 10, &spring));
        CALL_OK(kn_spring_create_damping_ratio(0.5, 0.4, &other));
        kn_spring_destroy(other);
        CALL_OK(kn_spring_create_duration(0.5, 0.2, &other));
        kn_spring_destroy(other);
        CALL_OK(kn_spring_create_settling(1, 0.7, 0.001, &other));
        CALL_OK(kn_spring_parameters(other, &a, &b, &c));
        CALL_OK(kn_spring_get_properties(other, &properties));
        CALL_OK(kn_spring_settling_duration(other, 2, 0.001, &y));
        kn_spring_destroy(other);
        for (k = 0; k <= 100; k++) CALL_OK(kn_spring_value(spring, k / 100.0, 0, &y));
        for (k = 0; k <= 100; k++) CALL_OK(kn_spring_velocity(spring, k / 100.0, 0, &y));
        CALL_OK(kn_spring_transition(spring, 1.0 / 60, matrix));
        CALL_OK(kn_spring_step(spring, 1.0 / 60, x, v, N));
        CALL_OK(kn_store_create(&store));
        CALL_OK(kn_store_add_group(store, from, to, N, 0.5, &group));
        CALL_OK(kn_store_add_lanes(store, from, to, progress, N, &lanes));
        easings[0] = curve;
        CALL_OK(kn_store_add_keyframes(store, key_times, 3, values, 2, interpolations, easings, 0.25, &keys));
        CALL_OK(kn_store_add_springs(store, spring, to, x, v, N, &springs));
        CALL_OK(kn_store_set_progress(store, group, 0.75));
        CALL_OK(kn_store_set_progress(store, keys, 0.6));
        CALL_OK(kn_store_set_lane_progress(store, lanes, progress, N));
        for (k = 0; k < 10; k++) CALL_OK(kn_store_tick(store, 1.0 / 60));
        CALL_OK(kn_store_evaluate(store));
        CALL_OK(kn_store_contains(store, keys, &contains));
        CALL_OK(kn_store_counts(store, &lane_count, &entry_count));
        CALL_OK(kn_store_range(store, springs, &offset, &count));
        CALL_OK(kn_store_value(store, group, 3, &y));
        CALL_OK(kn_store_read(store, keys, out, 4 * N, &count));
        CALL_OK(kn_store_remove(store, lanes));
        CALL_OK(kn_store_read_all(store, out, 4 * N, &count));
        if (count != 2 * N + 2) { /* group, two keyframe tracks, springs (lanes removed) */
            fprintf(stderr, "FAIL kn_store_read_all count %lld\n", (long long)count);
            failed = 1;
        }
        /* Error paths: a status and a per-thread message, nothing else. */
        if (kn_bezier_create(2, 0, 0, 1, &preset) == KN_OK || kn_store_tick(store, -1) == KN_OK) {
            fprintf(stderr, "FAIL bad input was accepted\n");
            failed = 1;
        }
        CALL_OK(kn_last_error_message(message, sizeof message, &length));
        kn_store_destroy(store);
        kn_spring_destroy(spring);
        kn_bezier_destroy(preset);
        kn_bezier_destroy(curve);
        free(big);
    }
    threads_called = thread_count();

    for (i = 0; i < SIGNAL_COUNT; i++) {
        sigaction(signals[i], NULL, &after[i]);
        if (handler_of(&before[i]) != handler_of(&after[i]) || before[i].sa_flags != after[i].sa_flags) {
            fprintf(stderr, "FAIL %s: the library changed its disposition (handler %p flags %#x -> %p %#x)\n",
                    names[i], handler_of(&before[i]), (unsigned)before[i].sa_flags, handler_of(&after[i]),
                    (unsigned)after[i].sa_flags);
            failed = 1;
        }
    }
    if (handler_of(&after[0]) != handler_of(&host)) {
        fprintf(stderr, "FAIL SIGSEGV: the host's handler is no longer installed\n");
        failed = 1;
    }
    printf("kinetic_test_load: signal dispositions of %d signals %s; threads: %d at start, %d after dlopen, "
           "%d after calls\n", (int)SIGNAL_COUNT, failed ? "CHANGED" : "unchanged", threads_start, threads_loaded,
           threads_called);
    if (threads_loaded != threads_start || threads_called != threads_start) {
        fprintf(stderr, "FAIL the library started %d thread(s) at load, %d in all\n", threads_loaded - threads_start,
                threads_called - threads_start);
        failed = 1;
    }
    if (is_mapped("libopenblas") != 0) {
        fprintf(stderr, "FAIL libopenblas is mapped into the process (or /proc/self/maps is unreadable)\n");
        failed = 1;
    }
    dlclose(lib);
    return failed;
}
