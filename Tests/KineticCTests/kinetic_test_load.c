/*
 * kinetic_test_load.c: what loading the installed library does to its host process, run by
 * `make test-c`. Not linked against the library: it installs its own SIGSEGV handler (as an
 * engine's crash reporter would), records the signal dispositions of SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGTRAP, SIGABRT and SIGSYS, loads the library with dlopen, calls curves, springs
 * and a store (paths that use no BLAS), and checks that no disposition changed: the Swift
 * runtime linked into the library must not install its crash handlers (backtracer).
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

    int32_t (*kn_bezier_create)(double, double, double, double, void **);
    int32_t (*kn_bezier_value)(const void *, double, double *);
    void (*kn_bezier_destroy)(void *);
    int32_t (*kn_spring_create_damping_ratio)(double, double, void **);
    int32_t (*kn_spring_value)(const void *, double, double, double *);
    int32_t (*kn_spring_step)(const void *, double, double *, double *, int64_t);
    void (*kn_spring_destroy)(void *);
    int32_t (*kn_store_create)(void **);
    int32_t (*kn_store_add_group)(void *, const double *, const double *, int64_t, double, uint64_t *);
    int32_t (*kn_store_add_springs)(void *, const void *, const double *, const double *, const double *,
                                    int64_t, uint64_t *);
    int32_t (*kn_store_tick)(void *, double);
    int32_t (*kn_store_read_all)(const void *, double *, int64_t, int64_t *);
    void (*kn_store_destroy)(void *);

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

    RESOLVE(lib, kn_bezier_create);
    RESOLVE(lib, kn_bezier_value);
    RESOLVE(lib, kn_bezier_destroy);
    RESOLVE(lib, kn_spring_create_damping_ratio);
    RESOLVE(lib, kn_spring_value);
    RESOLVE(lib, kn_spring_step);
    RESOLVE(lib, kn_spring_destroy);
    RESOLVE(lib, kn_store_create);
    RESOLVE(lib, kn_store_add_group);
    RESOLVE(lib, kn_store_add_springs);
    RESOLVE(lib, kn_store_tick);
    RESOLVE(lib, kn_store_read_all);
    RESOLVE(lib, kn_store_destroy);
    {
        void *curve = NULL, *spring = NULL, *store = NULL;
        double y = 0, x[64], v[64], out[128];
        const double from[64] = {0}, to[64] = {1};
        uint64_t group = 0, springs = 0;
        int64_t count = 0;
        int k;
        for (k = 0; k < 64; k++) x[k] = -1, v[k] = 0;
        CALL_OK(kn_bezier_create(0.25, 0.1, 0.25, 1, &curve));
        for (k = 0; k <= 100; k++) CALL_OK(kn_bezier_value(curve, k / 100.0, &y));
        CALL_OK(kn_spring_create_damping_ratio(0.5, 0.4, &spring));
        for (k = 0; k <= 100; k++) CALL_OK(kn_spring_value(spring, k / 100.0, 0, &y));
        CALL_OK(kn_spring_step(spring, 1.0 / 60, x, v, 64));
        CALL_OK(kn_store_create(&store));
        CALL_OK(kn_store_add_group(store, from, to, 64, 0.5, &group));
        CALL_OK(kn_store_add_springs(store, spring, to, x, v, 64, &springs));
        for (k = 0; k < 10; k++) CALL_OK(kn_store_tick(store, 1.0 / 60));
        CALL_OK(kn_store_read_all(store, out, 128, &count));
        if (count != 128) {
            fprintf(stderr, "FAIL kn_store_read_all count %lld\n", (long long)count);
            failed = 1;
        }
        kn_store_destroy(store);
        kn_spring_destroy(spring);
        kn_bezier_destroy(curve);
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
