/*
 * c_api.c: libFuzzer harness over every function of kinetic.h (make fuzz; Tests/Fuzz/README.md).
 *
 * The input is a program: each step reads one byte that picks one of the 40 functions (bytes
 * 224 to 239: the kn_engine_* functions, see engine_step; 240 to 255: the 15 gesture-motion
 * functions and the store's decays and retargeting, see motion_step), then
 * the arguments it needs from the following bytes. Doubles come from a table of hostile
 * values (NaN, ±inf, denormals, ±DBL_MAX, 1e±308, -0) or from 8 raw bytes; counts from a table
 * of hostile counts (negative, INT64_MIN/MAX, KN_MAX_COUNT ± 1, 2^40, products above
 * KN_MAX_COUNT) or a small value; handles, entries and pointers are live ones, NULL, stale
 * (destroyed-entry ids) or arbitrary ids. Curves, springs, stores and entries stay alive across
 * the steps of one input and are all destroyed at its end (LeakSanitizer sees every handle).
 *
 * Beyond "no crash" (the sanitizers: ASan, UBSan on this file and the C kernels) it checks the
 * rules of kinetic.h and aborts (a finding) when one is broken:
 * - a count outside [0, KN_MAX_COUNT] is rejected: the harness then passes a buffer of 8
 *   elements only, so reading or writing more is an ASan report;
 * - a real array is never read or written past its count (buffers are exactly sized);
 * - finite input gives a finite result or an error status (kn_bezier_value, _values,
 *   kn_spring_value, _velocity, _transition, _parameters, _get_properties), and
 *   kn_spring_settling_duration is NaN only for NaN input;
 * - on failure, the out-parameter is not written;
 * - every call returns a known status, and every failure leaves a non-empty last error message.
 */
#include <kinetic.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- reading the input */

typedef struct {
    const uint8_t *data;
    size_t size, at;
} reader;

static uint8_t u8(reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }
static int done(const reader *r) { return r->at >= r->size; }

static uint64_t u64(reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | u8(r);
    return v;
}

static double dbl(reader *r) {
    static const double table[] = {
        0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 0.75, 2.0, 1e-3, 100.0, 1e6, -1e6,
        NAN, INFINITY, -INFINITY, 4.9406564584124654e-324, -4.9406564584124654e-324,
        2.2250738585072014e-308, DBL_MAX, -DBL_MAX, 1e308, -1e308, 1e-308, 1e154, 1e-154,
        0.1, 0.42, 0.58, 1.0000000000000002, 0.9999999999999999, 1.5, -0.5, 1e-300, 3.0, 60.0,
    };
    const uint8_t b = u8(r);
    const size_t n = sizeof table / sizeof table[0];
    if (b < n) return table[b];
    if (b < 200) return (double)(int8_t)u8(r) / 16.0; /* small ordinary values */
    double v;
    uint64_t bits = u64(r);
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* A count: small (0...40, real buffers) or hostile (never valid: rejected without access). */
static const int64_t kHostile[] = {
    -1, -2, INT64_MIN, INT64_MIN + 1, INT64_MAX, KN_MAX_COUNT + 1, (int64_t)1 << 40,
    (int64_t)1 << 32, (int64_t)1 << 62, -((int64_t)1 << 28), (int64_t)UINT32_MAX + 1,
};
#define SMALL_LIMIT 40
#define HOSTILE_BUFFER 8

static int64_t count(reader *r) {
    const uint8_t b = u8(r);
    if (b < 0xE0) return b % (SMALL_LIMIT + 1);
    return kHostile[(b - 0xE0) % (sizeof kHostile / sizeof kHostile[0])];
}
static int is_small(int64_t n) { return n >= 0 && n <= SMALL_LIMIT; }
static size_t elements(int64_t n) { return is_small(n) ? (size_t)n : HOSTILE_BUFFER; }

/* ---------------------------------------------------------------- checks */

#define FAIL(...)                                              \
    do {                                                       \
        fprintf(stderr, "c_api fuzz: rule broken: " __VA_ARGS__); \
        fputc('\n', stderr);                                   \
        abort();                                               \
    } while (0)

static void check_status(kn_status s, const char *call) {
    if (s < KN_OK || s > KN_ERR_ILLEGAL_STATE) FAIL("%s returned unknown status %d", call, (int)s);
    if (s == KN_ERR_INTERNAL) FAIL("%s returned KN_ERR_INTERNAL (a bug)", call);
    if (s != KN_OK) {
        size_t length = 0;
        char message[512];
        kn_status m = kn_last_error_message(message, sizeof message, &length);
        if ((m != KN_OK && m != KN_ERR_BUFFER_TOO_SMALL) || length == 0)
            FAIL("%s failed with %d but left no last error message", call, (int)s);
    }
}

static int all_finite(const double *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

#define SENTINEL 12345.678
#define CHECK_UNTOUCHED(status, value, call) \
    do { if ((status) != KN_OK && (value) != SENTINEL) FAIL("%s wrote its out-parameter on failure", call); } while (0)

/* ---------------------------------------------------------------- live objects */

#define SLOTS 4
#define MAX_ENTRIES 32

typedef struct {
    kn_bezier *curves[SLOTS];
    kn_spring *springs[SLOTS];
    kn_store *stores[2];
    kn_entry entries[MAX_ENTRIES];
    int entry_count;
    int nonfinite_store[2]; /* a store that may hold non-finite values (not checked) */
    kn_velocity_tracker *trackers[2];
    int64_t tracker_lanes[2];
    kn_engine *engines[2];
    kn_run runs[16];
    int run_count;
} world;

static kn_bezier *curve(world *w, reader *r) {
    const uint8_t b = u8(r);
    return b % 8 == 7 ? NULL : w->curves[b % SLOTS];
}
static kn_spring *spring(world *w, reader *r) {
    const uint8_t b = u8(r);
    return b % 8 == 7 ? NULL : w->springs[b % SLOTS];
}
static int store_index(reader *r) { return u8(r) % 2; }
static kn_store *store(world *w, reader *r, int *index) {
    const uint8_t b = u8(r);
    *index = b % 2;
    return b % 8 == 7 ? NULL : w->stores[b % 2];
}
static kn_entry entry(world *w, reader *r) {
    const uint8_t b = u8(r);
    if (b < 0xC0 && w->entry_count > 0) return w->entries[b % w->entry_count];
    switch (b % 4) {
    case 0: return KN_ENTRY_NONE;
    case 1: return UINT64_MAX;
    case 2: return (kn_entry)u8(r);
    default: return u64(r);
    }
}
static void remember(world *w, kn_entry e) {
    if (w->entry_count < MAX_ENTRIES) w->entries[w->entry_count++] = e;
    else w->entries[e % MAX_ENTRIES] = e;
}
static void put_curve(world *w, uint8_t slot, kn_bezier *c) {
    kn_bezier_destroy(w->curves[slot % SLOTS]);
    w->curves[slot % SLOTS] = c;
}
static void put_spring(world *w, uint8_t slot, kn_spring *s) {
    kn_spring_destroy(w->springs[slot % SLOTS]);
    w->springs[slot % SLOTS] = s;
}

/* A heap array of n doubles (exactly: ASan sees any access past it), filled from the input. */
static double *doubles(reader *r, int64_t n, int *finite) {
    const size_t k = elements(n);
    double *p = malloc(k ? k * sizeof(double) : 1);
    for (size_t i = 0; i < k; i++) {
        p[i] = dbl(r);
        if (!isfinite(p[i])) *finite = 0;
    }
    return p;
}
/* Sometimes NULL instead of the array (allowed only for a count of 0). */
static const double *maybe_null(reader *r, const double *p) { return u8(r) % 16 == 15 ? NULL : p; }

/* ---------------------------------------------------------------- one step */

/* The gesture-motion functions (op bytes 240 to 255): finite in, finite out or a status;
 * out-parameters untouched on failure; buffers exactly the tracker's lane count. */
static void motion_step(world *w, reader *r, uint8_t op) {
    kn_status s;
    double a = SENTINEL, b = SENTINEL;
    int finite = 1;
    switch (op) {
    case 0: { /* kn_velocity_tracker_create (replaces a tracker) */
        const int k = u8(r) % 2;
        const int32_t strategy = (int32_t)(u8(r) % 3);
        const int64_t lanes = u8(r) % 4 == 3 ? count(r) : 1 + u8(r) % 3;
        kn_velocity_tracker *t = NULL;
        s = kn_velocity_tracker_create(strategy, lanes, u8(r) % 16 == 15 ? NULL : &t);
        check_status(s, "kn_velocity_tracker_create");
        if (s == KN_OK) {
            kn_velocity_tracker_destroy(w->trackers[k]);
            w->trackers[k] = t;
            w->tracker_lanes[k] = lanes;
        }
        return;
    }
    case 1: case 2: { /* kn_velocity_tracker_add, _velocity */
        const int k = u8(r) % 2;
        kn_velocity_tracker *t = w->trackers[k];
        const int64_t n = t ? w->tracker_lanes[k] : 1;
        double *lanes = doubles(r, n, &finite);
        const double time = dbl(r);
        if (op == 1) {
            s = kn_velocity_tracker_add(t, time, lanes);
            check_status(s, "kn_velocity_tracker_add");
        } else {
            s = kn_velocity_tracker_velocity(t, time, lanes);
            check_status(s, "kn_velocity_tracker_velocity");
            if (s == KN_OK && !all_finite(lanes, (size_t)n)) FAIL("kn_velocity_tracker_velocity gave a non-finite velocity");
        }
        free(lanes);
        return;
    }
    case 3: { /* kn_velocity_tracker_reset, or destroy (and NULL) */
        const int k = u8(r) % 2;
        if (u8(r) % 2) {
            s = kn_velocity_tracker_reset(w->trackers[k]);
            check_status(s, "kn_velocity_tracker_reset");
        } else {
            kn_velocity_tracker_destroy(w->trackers[k]);
            w->trackers[k] = NULL;
        }
        return;
    }
    case 4: case 5: { /* kn_decay_from_rate, _from_friction */
        kn_decay d = {SENTINEL, SENTINEL};
        const double x = dbl(r), y = dbl(r);
        s = op == 4 ? kn_decay_from_rate(x, &d) : kn_decay_from_friction(x, y, &d);
        check_status(s, "kn_decay_from_*");
        CHECK_UNTOUCHED(s, d.decay_constant, "kn_decay_from_*");
        if (s == KN_OK && !(isfinite(d.decay_constant) && d.decay_constant > 0 && d.velocity_threshold >= 0))
            FAIL("kn_decay_from_* made a decay outside its ranges");
        return;
    }
    case 6: case 7: case 8: { /* kn_decay_state, _resting_offset, _duration on any decay */
        kn_decay d = {dbl(r), dbl(r)};
        const kn_decay *dp = u8(r) % 16 == 15 ? NULL : &d;
        const double time = dbl(r), v = dbl(r);
        const int in = isfinite(time) && isfinite(v);
        if (op == 6) s = kn_decay_state(dp, time, v, &a, &b);
        else if (op == 7) s = kn_decay_resting_offset(dp, v, &a);
        else s = kn_decay_duration(dp, v, &a);
        check_status(s, "kn_decay_*");
        CHECK_UNTOUCHED(s, a, "kn_decay_*");
        if (s == KN_OK && in && !(isfinite(a) && (op != 6 || isfinite(b)))) FAIL("kn_decay_* gave a non-finite result");
        return;
    }
    case 9: case 10: { /* kn_spline_fling, _extent */
        const double density = dbl(r), friction = dbl(r), v = dbl(r), time = dbl(r);
        s = op == 9 ? kn_spline_fling(density, friction, v, time, &a, &b)
                    : kn_spline_fling_extent(density, friction, v, &a, &b);
        check_status(s, "kn_spline_fling*");
        CHECK_UNTOUCHED(s, a, "kn_spline_fling*");
        if (s == KN_OK && !(isfinite(a) && isfinite(b))) FAIL("kn_spline_fling* gave a non-finite result");
        return;
    }
    case 11: case 12: { /* kn_rubber_band, _inverse */
        const double x = dbl(r), d = dbl(r), c = dbl(r);
        s = op == 11 ? kn_rubber_band(x, d, c, &a) : kn_rubber_band_inverse(x, d, c, &a);
        check_status(s, "kn_rubber_band*");
        CHECK_UNTOUCHED(s, a, "kn_rubber_band*");
        if (s == KN_OK && !isfinite(a)) FAIL("kn_rubber_band* gave a non-finite result");
        return;
    }
    case 14: { /* kn_store_add_decays: any decay, hostile counts */
        int si = 0;
        kn_store *st = store(w, r, &si);
        const int64_t n = count(r);
        double *x = doubles(r, n, &finite), *v = doubles(r, n, &finite);
        kn_decay d = {dbl(r), dbl(r)};
        kn_entry e = KN_ENTRY_NONE;
        s = kn_store_add_decays(st, u8(r) % 8 == 7 ? NULL : &d, maybe_null(r, x), maybe_null(r, v), n, &e);
        check_status(s, "kn_store_add_decays");
        if (s == KN_OK) remember(w, e);
        free(x);
        free(v);
        return;
    }
    case 15: { /* kn_store_retarget_springs on any entry */
        int si = 0;
        kn_store *st = store(w, r, &si);
        const kn_entry e = entry(w, r);
        const int64_t n = count(r);
        double *targets = doubles(r, n, &finite);
        s = kn_store_retarget_springs(st, e, maybe_null(r, targets), n);
        check_status(s, "kn_store_retarget_springs");
        free(targets);
        return;
    }
    default: { /* kn_snap */
        const int64_t n = count(r);
        double *targets = doubles(r, n, &finite);
        kn_decay d = {dbl(r), dbl(r)};
        int64_t index = -1;
        s = kn_snap(dbl(r), dbl(r), maybe_null(r, targets), n, u8(r) % 2 ? NULL : &d, &index, &a);
        check_status(s, "kn_snap");
        CHECK_UNTOUCHED(s, a, "kn_snap");
        if (s == KN_OK && (index < 0 || index >= n || !isfinite(a))) FAIL("kn_snap gave index %lld of %lld", (long long)index, (long long)n);
        free(targets);
        return;
    }
    }
}

static kn_engine *engine_of(world *w, reader *r) {
    const uint8_t b = u8(r);
    return b % 8 == 7 ? NULL : w->engines[b % 2];
}
/* A run: a live or released one, 0, or an arbitrary id (stale and foreign ids included). */
static kn_run run_of(world *w, reader *r) {
    const uint8_t b = u8(r);
    if (b < 0xC0 && w->run_count > 0) return w->runs[b % w->run_count];
    switch (b % 3) {
    case 0: return 0;
    case 1: return UINT64_MAX;
    default: return u64(r);
    }
}
/* Lanes: small indices (often valid), negative or huge ones. */
static int64_t *lanes_of(reader *r, int64_t n) {
    const size_t k = elements(n);
    int64_t *p = malloc(k ? k * sizeof(int64_t) : 1);
    for (size_t i = 0; i < k; i++) {
        const uint8_t b = u8(r);
        p[i] = b < 0xF0 ? (int64_t)(b % 48) : kHostile[b % (sizeof kHostile / sizeof kHostile[0])];
    }
    return p;
}
/* A timing from the input: any kind (valid or not), hostile fields, a live spring or NULL. */
static kn_timing timing_of(world *w, reader *r) {
    kn_timing t;
    memset(&t, 0, sizeof t);
    t.kind = (int32_t)(u8(r) % 6) - (u8(r) % 16 == 15 ? 1000 : 0);
    t.x1 = dbl(r);
    t.y1 = dbl(r);
    t.x2 = dbl(r);
    t.y2 = dbl(r);
    t.damping_ratio = dbl(r);
    t.spring = spring(w, r);
    t.velocity_x = dbl(r);
    t.velocity_y = dbl(r);
    return t;
}

/* The engine functions (op bytes 224 to 239): every call returns a known status (with a
 * message on failure), never crashes, and never reads or writes past a buffer. */
static void engine_step(world *w, reader *r, uint8_t op) {
    kn_status s;
    int finite = 1;
    switch (op) {
    case 0: { /* kn_engine_create (replaces an engine; its runs stay as foreign ids) */
        const int k = u8(r) % 2;
        kn_engine *e = NULL;
        s = kn_engine_create(u8(r) % 16 == 15 ? NULL : &e);
        check_status(s, "kn_engine_create");
        if (s == KN_OK) {
            kn_engine_destroy(w->engines[k]);
            w->engines[k] = e;
        }
        return;
    }
    case 1: { /* kn_engine_destroy (and NULL) */
        const uint8_t b = u8(r);
        if (b % 8 == 7) { kn_engine_destroy(NULL); return; }
        kn_engine_destroy(w->engines[b % 2]);
        w->engines[b % 2] = NULL;
        return;
    }
    case 2: { /* kn_engine_add_lanes */
        kn_engine *e = engine_of(w, r);
        const int64_t n = count(r);
        double *values = doubles(r, n, &finite);
        int64_t first = -1;
        s = kn_engine_add_lanes(e, maybe_null(r, values), n, &first);
        check_status(s, "kn_engine_add_lanes");
        free(values);
        return;
    }
    case 3: { /* kn_engine_read, _read_model, _read_velocity: ranges hostile, buffers exactly sized */
        kn_engine *e = engine_of(w, r);
        const int64_t first = u8(r) % 4 == 3 ? kHostile[u8(r) % (sizeof kHostile / sizeof kHostile[0])] : u8(r) % 48;
        const int64_t n = count(r);
        double *out = malloc(elements(n) ? elements(n) * sizeof(double) : 1);
        const uint8_t which = u8(r) % 3;
        s = which == 0 ? kn_engine_read(e, first, n, out)
            : which == 1 ? kn_engine_read_model(e, first, n, out) : kn_engine_read_velocity(e, first, n, out);
        check_status(s, "kn_engine_read");
        free(out);
        return;
    }
    case 4: { /* kn_engine_set_model */
        kn_engine *e = engine_of(w, r);
        const int64_t lane = u8(r) % 4 == 3 ? kHostile[u8(r) % (sizeof kHostile / sizeof kHostile[0])] : u8(r) % 48;
        s = kn_engine_set_model(e, lane, dbl(r));
        check_status(s, "kn_engine_set_model");
        return;
    }
    case 5: { /* kn_engine_advance_to, _by */
        kn_engine *e = engine_of(w, r);
        const double t = dbl(r);
        s = u8(r) % 2 ? kn_engine_advance_to(e, t) : kn_engine_advance_by(e, t);
        check_status(s, "kn_engine_advance");
        return;
    }
    case 6: { /* kn_engine_time, _lane_count, and draining events */
        kn_engine *e = engine_of(w, r);
        double t = SENTINEL;
        s = kn_engine_time(e, u8(r) % 16 == 15 ? NULL : &t);
        check_status(s, "kn_engine_time");
        int64_t lanes = -1;
        s = kn_engine_lane_count(e, &lanes);
        check_status(s, "kn_engine_lane_count");
        for (int i = 0; i < 8; i++) {
            kn_event event;
            int32_t has = 0;
            s = kn_engine_next_event(e, &event, &has);
            check_status(s, "kn_engine_next_event");
            if (s != KN_OK || !has) break;
        }
        return;
    }
    case 7: { /* kn_engine_run_create */
        kn_engine *e = engine_of(w, r);
        kn_timing t = timing_of(w, r);
        kn_run run = 0;
        s = kn_engine_run_create(e, u8(r) % 16 == 15 ? NULL : &t, dbl(r), &run);
        check_status(s, "kn_engine_run_create");
        if (s == KN_OK) {
            if (w->run_count < 16) w->runs[w->run_count++] = run;
            else w->runs[run % 16] = run;
        }
        return;
    }
    case 8: s = kn_engine_run_release(engine_of(w, r), run_of(w, r)); check_status(s, "kn_engine_run_release"); return;
    case 9: { /* kn_engine_run_configure, _set_repeat_count */
        kn_engine *e = engine_of(w, r);
        const kn_run run = run_of(w, r);
        if (u8(r) % 2) s = kn_engine_run_configure(e, run, u8(r) % 2, u8(r) % 2, u8(r) % 2);
        else s = kn_engine_run_set_repeat_count(e, run, dbl(r));
        check_status(s, "kn_engine_run_configure");
        return;
    }
    case 10: { /* kn_engine_run_add_animations */
        kn_engine *e = engine_of(w, r);
        const kn_run run = run_of(w, r);
        const int64_t n = count(r);
        int64_t *lanes = lanes_of(r, n);
        double *targets = doubles(r, n, &finite);
        int32_t *vertical = NULL;
        if (u8(r) % 2) {
            vertical = malloc(elements(n) ? elements(n) * sizeof(int32_t) : 1);
            for (size_t i = 0; i < elements(n); i++) vertical[i] = u8(r) % 2;
        }
        s = kn_engine_run_add_animations(e, run, u8(r) % 16 == 15 ? NULL : lanes, maybe_null(r, targets), vertical, n, dbl(r));
        check_status(s, "kn_engine_run_add_animations");
        free(lanes);
        free(targets);
        free(vertical);
        return;
    }
    case 11: { /* kn_engine_run_add_keyframes: counts and their product */
        kn_engine *e = engine_of(w, r);
        const kn_run run = run_of(w, r);
        const int64_t lane_count = count(r), key_count = count(r);
        int64_t *lanes = lanes_of(r, lane_count);
        const int64_t product = is_small(lane_count) && is_small(key_count) ? lane_count * key_count : HOSTILE_BUFFER;
        double *values = doubles(r, product, &finite);
        double *times = u8(r) % 2 ? doubles(r, key_count, &finite) : NULL;
        s = kn_engine_run_add_keyframes(e, run, lanes, lane_count, maybe_null(r, values), times, key_count,
                                        (int32_t)(u8(r) % 7) - 1);
        check_status(s, "kn_engine_run_add_keyframes");
        free(lanes);
        free(values);
        free(times);
        return;
    }
    case 12: { /* kn_engine_run_start, _start_after_delay, _pause */
        kn_engine *e = engine_of(w, r);
        const kn_run run = run_of(w, r);
        const uint8_t b = u8(r) % 3;
        s = b == 0 ? kn_engine_run_start(e, run) : b == 1 ? kn_engine_run_start_after_delay(e, run, dbl(r)) : kn_engine_run_pause(e, run);
        check_status(s, "kn_engine_run_start/pause");
        return;
    }
    case 13: { /* kn_engine_run_stop, _finish (positions valid or not) */
        kn_engine *e = engine_of(w, r);
        const kn_run run = run_of(w, r);
        if (u8(r) % 2) s = kn_engine_run_stop(e, run, u8(r) % 2);
        else s = kn_engine_run_finish(e, run, (int32_t)(u8(r) % 5) - 1);
        check_status(s, "kn_engine_run_stop/finish");
        return;
    }
    case 14: { /* kn_engine_run_continue, _set_fraction */
        kn_engine *e = engine_of(w, r);
        const kn_run run = run_of(w, r);
        if (u8(r) % 2) {
            kn_timing t = timing_of(w, r);
            s = kn_engine_run_continue(e, run, u8(r) % 2 ? NULL : &t, dbl(r));
        } else {
            s = kn_engine_run_set_fraction(e, run, dbl(r));
        }
        check_status(s, "kn_engine_run_continue/set_fraction");
        return;
    }
    default: { /* the flags and kn_engine_run_info */
        kn_engine *e = engine_of(w, r);
        const kn_run run = run_of(w, r);
        const int32_t flag = (int32_t)(u8(r) % 3) - (u8(r) % 8 == 7 ? 5 : 0);
        switch (u8(r) % 5) {
        case 0: s = kn_engine_run_set_reversed(e, run, flag); break;
        case 1: s = kn_engine_run_set_interruptible(e, run, flag); break;
        case 2: s = kn_engine_run_set_scrubs_linearly(e, run, flag); break;
        case 3: s = kn_engine_run_set_pauses_on_completion(e, run, flag); break;
        default: {
            kn_run_info info;
            s = kn_engine_run_info(e, run, u8(r) % 16 == 15 ? NULL : &info);
        }
        }
        check_status(s, "kn_engine_run_set_*/info");
        return;
    }
    }
}

static void step(world *w, reader *r) {
    const uint8_t byte = u8(r);
    if (byte >= 224 && byte < 240) {
        engine_step(w, r, (uint8_t)(byte - 224));
        return;
    }
    if (byte >= 240) {
        motion_step(w, r, (uint8_t)(byte - 240));
        return;
    }
    const uint8_t op = byte % 40;
    kn_status s;
    double out = SENTINEL;
    int si = 0;
    switch (op) {
    case 0: { /* kn_status_message */
        const char *m = kn_status_message((kn_status)(int32_t)(uint32_t)u64(r));
        if (!m) FAIL("kn_status_message returned NULL");
        (void)strlen(m);
        return;
    }
    case 1: { /* kn_last_error_message: capacities within the buffer, or NULL with 0 */
        char buffer[64];
        size_t length = 0;
        const size_t capacity = u8(r) % (sizeof buffer + 1);
        s = kn_last_error_message(capacity ? buffer : NULL, capacity, u8(r) % 2 ? &length : NULL);
        if (s != KN_OK && s != KN_ERR_BUFFER_TOO_SMALL) FAIL("kn_last_error_message returned %d", (int)s);
        if (capacity) (void)strlen(buffer);
        return;
    }
    case 2: { /* kn_version */
        int32_t a, b, c;
        const uint8_t m = u8(r);
        s = kn_version(m & 1 ? &a : NULL, m & 2 ? &b : NULL, m & 4 ? &c : NULL);
        if ((s == KN_OK) != ((m & 7) != 0)) FAIL("kn_version: status %d for mask %d", (int)s, m & 7);
        return;
    }
    case 3:
        if (!kn_version_string()) FAIL("kn_version_string returned NULL");
        return;
    case 4: { /* kn_bezier_create */
        const double x1 = dbl(r), y1 = dbl(r), x2 = dbl(r), y2 = dbl(r);
        const uint8_t slot = u8(r);
        kn_bezier *c = (kn_bezier *)(uintptr_t)1;
        s = kn_bezier_create(x1, y1, x2, y2, slot % 16 == 15 ? NULL : &c);
        check_status(s, "kn_bezier_create");
        if (s == KN_OK) put_curve(w, slot, c);
        else if (c != (kn_bezier *)(uintptr_t)1) FAIL("kn_bezier_create wrote *out on failure");
        return;
    }
    case 5: { /* kn_bezier_create_preset */
        const int32_t preset = (int32_t)(uint32_t)u64(r) % 8 - 1;
        kn_bezier *c = NULL;
        s = kn_bezier_create_preset(preset, &c);
        check_status(s, "kn_bezier_create_preset");
        if (s == KN_OK) put_curve(w, (uint8_t)preset, c);
        return;
    }
    case 6: { /* kn_bezier_control_points */
        double p[4];
        const uint8_t m = u8(r);
        s = kn_bezier_control_points(curve(w, r), m & 1 ? &p[0] : NULL, m & 2 ? &p[1] : NULL,
                                     m & 4 ? &p[2] : NULL, m & 8 ? &p[3] : NULL);
        check_status(s, "kn_bezier_control_points");
        return;
    }
    case 7: { /* kn_bezier_value */
        kn_bezier *c = curve(w, r);
        const double x = dbl(r);
        s = kn_bezier_value(c, x, &out);
        check_status(s, "kn_bezier_value");
        CHECK_UNTOUCHED(s, out, "kn_bezier_value");
        if (s == KN_OK && isfinite(x) && !isfinite(out)) FAIL("kn_bezier_value(%a) = %a", x, out);
        return;
    }
    case 8: { /* kn_bezier_values, in place or not */
        kn_bezier *c = curve(w, r);
        const int64_t n = count(r);
        int finite = 1;
        double *xs = doubles(r, n, &finite);
        const int in_place = u8(r) % 2;
        double *o = in_place ? xs : malloc(elements(n) ? elements(n) * sizeof(double) : 1);
        s = kn_bezier_values(c, maybe_null(r, xs), in_place ? xs : o, n);
        check_status(s, "kn_bezier_values");
        if (!is_small(n) && s == KN_OK) FAIL("kn_bezier_values accepted count %lld", (long long)n);
        if (s == KN_OK && finite && !all_finite(o, (size_t)n)) FAIL("kn_bezier_values: non-finite value for finite input");
        if (!in_place) free(o);
        free(xs);
        return;
    }
    case 9: { /* kn_bezier_slope (±inf allowed: vertical tangents) */
        kn_bezier *c = curve(w, r);
        s = kn_bezier_slope(c, dbl(r), u8(r) % 16 == 15 ? NULL : &out);
        check_status(s, "kn_bezier_slope");
        return;
    }
    case 10: { /* kn_bezier_destroy (and NULL) */
        const uint8_t slot = u8(r);
        if (slot % 8 == 7) kn_bezier_destroy(NULL);
        else put_curve(w, slot, NULL);
        return;
    }
    case 11: case 12: case 13: case 14: { /* the four spring constructors */
        const double a = dbl(r), b = dbl(r), c = dbl(r);
        const uint8_t slot = u8(r);
        kn_spring *sp = NULL, **o = slot % 16 == 15 ? NULL : &sp;
        const char *name;
        if (op == 11) { s = kn_spring_create(a, b, c, o); name = "kn_spring_create"; }
        else if (op == 12) { s = kn_spring_create_damping_ratio(a, b, o); name = "kn_spring_create_damping_ratio"; }
        else if (op == 13) { s = kn_spring_create_duration(a, b, o); name = "kn_spring_create_duration"; }
        else { s = kn_spring_create_settling(a, b, c, o); name = "kn_spring_create_settling"; }
        check_status(s, name);
        if (s == KN_OK) {
            double m, k, d;
            if (kn_spring_parameters(sp, &m, &k, &d) != KN_OK || !isfinite(m) || !isfinite(k) || !isfinite(d))
                FAIL("%s(%a, %a, %a) made a spring with non-finite parameters %a %a %a", name, a, b, c, m, k, d);
            put_spring(w, slot, sp);
        }
        return;
    }
    case 15: { /* kn_spring_parameters */
        double p[3];
        const uint8_t m = u8(r);
        s = kn_spring_parameters(spring(w, r), m & 1 ? &p[0] : NULL, m & 2 ? &p[1] : NULL, m & 4 ? &p[2] : NULL);
        check_status(s, "kn_spring_parameters");
        return;
    }
    case 16: { /* kn_spring_get_properties */
        kn_spring_properties p;
        kn_spring *sp = spring(w, r);
        s = kn_spring_get_properties(sp, u8(r) % 16 == 15 ? NULL : &p);
        check_status(s, "kn_spring_get_properties");
        if (s == KN_OK && !all_finite((const double *)&p, sizeof p / sizeof(double)))
            FAIL("kn_spring_get_properties: a non-finite property");
        return;
    }
    case 17: case 18: { /* kn_spring_value, kn_spring_velocity */
        kn_spring *sp = spring(w, r);
        const double t = dbl(r), v = dbl(r);
        s = op == 17 ? kn_spring_value(sp, t, v, &out) : kn_spring_velocity(sp, t, v, &out);
        check_status(s, op == 17 ? "kn_spring_value" : "kn_spring_velocity");
        CHECK_UNTOUCHED(s, out, op == 17 ? "kn_spring_value" : "kn_spring_velocity");
        if (s == KN_OK && isfinite(t) && isfinite(v) && !isfinite(out))
            FAIL("%s(t = %a, v0 = %a) = %a", op == 17 ? "kn_spring_value" : "kn_spring_velocity", t, v, out);
        return;
    }
    case 19: { /* kn_spring_settling_duration (+inf allowed, NaN only for NaN input) */
        kn_spring *sp = spring(w, r);
        const double v = dbl(r), e = dbl(r);
        s = kn_spring_settling_duration(sp, v, e, &out);
        check_status(s, "kn_spring_settling_duration");
        if (s == KN_OK && isnan(out) && !isnan(v) && !isnan(e))
            FAIL("kn_spring_settling_duration(v0 = %a, epsilon = %a) is NaN", v, e);
        return;
    }
    case 20: { /* kn_spring_transition */
        double matrix[4] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL};
        kn_spring *sp = spring(w, r);
        const double dt = dbl(r);
        s = kn_spring_transition(sp, dt, u8(r) % 16 == 15 ? NULL : matrix);
        check_status(s, "kn_spring_transition");
        if (s == KN_OK && !all_finite(matrix, 4)) FAIL("kn_spring_transition(dt = %a): non-finite matrix", dt);
        return;
    }
    case 21: { /* kn_spring_step: separate, overlapping or hostile-count arrays */
        kn_spring *sp = spring(w, r);
        const double dt = dbl(r);
        const int64_t n = count(r);
        int finite = 1;
        double *x = doubles(r, n, &finite), *v = doubles(r, n, &finite);
        const uint8_t how = u8(r) % 8;
        double *xs = how == 7 ? NULL : x, *vs = how == 6 ? NULL : how == 5 ? x : v;
        s = kn_spring_step(sp, dt, xs, vs, n);
        check_status(s, "kn_spring_step");
        if (s == KN_OK && (!is_small(n) || (how == 5 && n > 0))) FAIL("kn_spring_step accepted count %lld (overlap %d)", (long long)n, how == 5);
        (void)finite; /* finite states may still overflow over a huge dt: not checked */
        free(x);
        free(v);
        return;
    }
    case 22: { /* kn_spring_destroy */
        const uint8_t slot = u8(r);
        if (slot % 8 == 7) kn_spring_destroy(NULL);
        else put_spring(w, slot, NULL);
        return;
    }
    case 23: { /* kn_store_create (replaces a store: its entries go stale) */
        const int i = store_index(r);
        kn_store *st = NULL;
        s = kn_store_create(u8(r) % 16 == 15 ? NULL : &st);
        check_status(s, "kn_store_create");
        if (s == KN_OK) {
            kn_store_destroy(w->stores[i]);
            w->stores[i] = st;
            w->nonfinite_store[i] = 0;
        }
        return;
    }
    case 24: case 25: { /* kn_store_add_group, kn_store_add_lanes */
        kn_store *st = store(w, r, &si);
        const int64_t n = count(r);
        int finite = 1;
        double *from = doubles(r, n, &finite), *to = doubles(r, n, &finite), *progress = doubles(r, n, &finite);
        const double p = dbl(r);
        kn_entry e = KN_ENTRY_NONE;
        if (op == 24) s = kn_store_add_group(st, maybe_null(r, from), maybe_null(r, to), n, p, &e);
        else s = kn_store_add_lanes(st, maybe_null(r, from), maybe_null(r, to), maybe_null(r, progress), n, &e);
        check_status(s, op == 24 ? "kn_store_add_group" : "kn_store_add_lanes");
        if (s == KN_OK) {
            if (!is_small(n)) FAIL("kn_store_add_* accepted count %lld", (long long)n);
            if (e == KN_ENTRY_NONE) FAIL("kn_store_add_* gave KN_ENTRY_NONE");
            remember(w, e);
        } else if (e != KN_ENTRY_NONE) FAIL("kn_store_add_* wrote *out on failure");
        free(from);
        free(to);
        free(progress);
        return;
    }
    case 26: { /* kn_store_add_keyframes: counts and their product */
        kn_store *st = store(w, r, &si);
        int64_t keys = count(r), tracks = count(r);
        if (u8(r) % 8 == 0) { keys = (int64_t)1 << 15; tracks = (int64_t)1 << 14; } /* each valid, product not */
        int finite = 1;
        double *times = doubles(r, keys, &finite);
        /* Times sorted in [0, 1] most of the time, so that deeper paths are reached. */
        if (u8(r) % 4 != 0 && is_small(keys)) {
            for (int64_t i = 0; i < keys; i++) times[i] = keys > 1 ? (double)i / (double)(keys - 1) : 0;
        }
        const int64_t product = is_small(keys) && is_small(tracks) ? keys * tracks : HOSTILE_BUFFER;
        double *values = malloc((size_t)(product ? product : 1) * sizeof(double));
        for (int64_t i = 0; i < product; i++) values[i] = dbl(r);
        const size_t segments = is_small(keys) && keys > 1 ? (size_t)(keys - 1) : HOSTILE_BUFFER;
        int32_t *interpolations = malloc(segments * sizeof(int32_t));
        kn_bezier **easings = malloc(segments * sizeof(kn_bezier *));
        for (size_t i = 0; i < segments; i++) {
            const uint8_t b = u8(r);
            interpolations[i] = b < 0xF0 ? b % 4 : (int32_t)(uint32_t)u64(r);
            easings[i] = curve(w, r);
        }
        const uint8_t m = u8(r);
        kn_entry e = KN_ENTRY_NONE;
        s = kn_store_add_keyframes(st, m & 1 ? NULL : times, keys, m & 2 ? NULL : values, tracks,
                                   m & 4 ? NULL : interpolations, m & 8 ? NULL : easings, dbl(r), &e);
        check_status(s, "kn_store_add_keyframes");
        if (s == KN_OK) {
            if (!is_small(keys) || !is_small(tracks)) FAIL("kn_store_add_keyframes accepted counts %lld x %lld", (long long)keys, (long long)tracks);
            remember(w, e);
        }
        free(times);
        free(values);
        free(interpolations);
        free(easings);
        return;
    }
    case 27: { /* kn_store_add_springs */
        kn_store *st = store(w, r, &si);
        kn_spring *sp = spring(w, r);
        const int64_t n = count(r);
        int finite = 1;
        double *targets = doubles(r, n, &finite), *x = doubles(r, n, &finite), *v = doubles(r, n, &finite);
        const uint8_t m = u8(r);
        kn_entry e = KN_ENTRY_NONE;
        s = kn_store_add_springs(st, sp, m & 1 ? NULL : targets, m & 2 ? NULL : x, m & 4 ? NULL : v, n, &e);
        check_status(s, "kn_store_add_springs");
        if (s == KN_OK) {
            if (!is_small(n)) FAIL("kn_store_add_springs accepted count %lld", (long long)n);
            remember(w, e);
            /* Springs stepped far enough may overflow: such a store is not checked for finiteness. */
            w->nonfinite_store[si] = 1;
        }
        free(targets);
        free(x);
        free(v);
        return;
    }
    case 28: s = kn_store_remove(store(w, r, &si), entry(w, r)); check_status(s, "kn_store_remove"); return;
    case 29: {
        int32_t c = 7;
        kn_store *st = store(w, r, &si);
        s = kn_store_contains(st, entry(w, r), u8(r) % 16 == 15 ? NULL : &c);
        check_status(s, "kn_store_contains");
        if (s == KN_OK && c != 0 && c != 1) FAIL("kn_store_contains wrote %d", (int)c);
        return;
    }
    case 30: {
        kn_store *st = store(w, r, &si);
        s = kn_store_set_progress(st, entry(w, r), dbl(r));
        check_status(s, "kn_store_set_progress");
        return;
    }
    case 31: {
        kn_store *st = store(w, r, &si);
        const kn_entry e = entry(w, r);
        const int64_t n = count(r);
        int finite = 1;
        double *p = doubles(r, n, &finite);
        s = kn_store_set_lane_progress(st, e, maybe_null(r, p), n);
        check_status(s, "kn_store_set_lane_progress");
        if (s == KN_OK && !is_small(n)) FAIL("kn_store_set_lane_progress accepted count %lld", (long long)n);
        free(p);
        return;
    }
    case 32: {
        kn_store *st = store(w, r, &si);
        s = kn_store_tick(st, dbl(r));
        check_status(s, "kn_store_tick");
        return;
    }
    case 33: s = kn_store_evaluate(store(w, r, &si)); check_status(s, "kn_store_evaluate"); return;
    case 34: {
        int64_t lanes = -1, entries = -1;
        kn_store *st = store(w, r, &si);
        const uint8_t m = u8(r);
        s = kn_store_counts(st, m & 1 ? &lanes : NULL, m & 2 ? &entries : NULL);
        check_status(s, "kn_store_counts");
        if (s == KN_OK && ((m & 1 && (lanes < 0 || lanes > KN_MAX_COUNT)) || (m & 2 && entries < 0)))
            FAIL("kn_store_counts: %lld lanes, %lld entries", (long long)lanes, (long long)entries);
        return;
    }
    case 35: {
        int64_t offset = -1, n = -1;
        kn_store *st = store(w, r, &si);
        const kn_entry e = entry(w, r);
        const uint8_t m = u8(r);
        s = kn_store_range(st, e, m & 1 ? &offset : NULL, m & 2 ? &n : NULL);
        check_status(s, "kn_store_range");
        return;
    }
    case 36: {
        kn_store *st = store(w, r, &si);
        const kn_entry e = entry(w, r);
        const int64_t lane = u8(r) < 0xE0 ? (int64_t)(u8(r) % 48) : kHostile[u8(r) % (sizeof kHostile / sizeof kHostile[0])];
        s = kn_store_value(st, e, lane, &out);
        check_status(s, "kn_store_value");
        CHECK_UNTOUCHED(s, out, "kn_store_value");
        return;
    }
    case 37: case 38: { /* kn_store_read, kn_store_read_all: capacity within the buffer, or hostile */
        kn_store *st = store(w, r, &si);
        const kn_entry e = op == 37 ? entry(w, r) : KN_ENTRY_NONE;
        int64_t capacity = count(r);
        if (u8(r) % 4 == 0 && is_small(capacity)) capacity *= 64; /* room for whole stores */
        const size_t room = capacity >= 0 && capacity <= SMALL_LIMIT * 64 ? (size_t)capacity : 0;
        if (capacity > SMALL_LIMIT * 64) capacity = INT64_MIN + capacity % 7; /* only negative ones: no room */
        double *buffer = malloc(room ? room * sizeof(double) : 1);
        int64_t n = -1;
        const uint8_t m = u8(r);
        if (op == 37) s = kn_store_read(st, e, m & 1 && room == 0 ? NULL : buffer, capacity, m & 2 ? NULL : &n);
        else s = kn_store_read_all(st, m & 1 && room == 0 ? NULL : buffer, capacity, m & 2 ? NULL : &n);
        check_status(s, op == 37 ? "kn_store_read" : "kn_store_read_all");
        if (s == KN_OK && capacity < 0) FAIL("kn_store_read accepted capacity %lld", (long long)capacity);
        if (s == KN_OK && !(m & 2) && (n < 0 || n > capacity)) FAIL("kn_store_read: count %lld for capacity %lld", (long long)n, (long long)capacity);
        free(buffer);
        return;
    }
    case 39: { /* kn_store_destroy (and NULL) */
        const uint8_t b = u8(r);
        if (b % 8 == 7) { kn_store_destroy(NULL); return; }
        kn_store_destroy(w->stores[b % 2]);
        w->stores[b % 2] = NULL;
        return;
    }
    }
}

/* A live store can always be evaluated and counted at the end of an input, unless a value
 * would be beyond the range of double: then evaluation refuses with KN_ERR_OUT_OF_RANGE and a
 * message naming the overflow (finite in, finite out or a status naming the overflow). */
static void check_store(world *w, int i) {
    if (!w->stores[i] || w->nonfinite_store[i]) return;
    int64_t lanes = 0;
    kn_status s = kn_store_evaluate(w->stores[i]);
    if (s == KN_ERR_OUT_OF_RANGE) {
        char message[512];
        size_t length = 0;
        kn_last_error_message(message, sizeof message, &length);
        if (!strstr(message, "beyond the range of Double"))
            FAIL("kn_store_evaluate refused a live store for another reason: %s", message);
    } else if (s != KN_OK) {
        FAIL("kn_store_evaluate failed on a live store (%d)", (int)s);
    }
    if (kn_store_counts(w->stores[i], &lanes, NULL) != KN_OK) FAIL("kn_store_counts failed on a live store");
    (void)lanes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size, 0};
    world w;
    memset(&w, 0, sizeof w);
    /* Every input starts with a curve, a spring and a store, so that short inputs go deep. */
    kn_bezier_create_preset(KN_BEZIER_EASE, &w.curves[0]);
    kn_spring_create_damping_ratio(0.5, 0.4, &w.springs[0]);
    kn_store_create(&w.stores[0]);
    for (int steps = 0; !done(&r) && steps < 256; steps++) step(&w, &r);
    check_store(&w, 0);
    check_store(&w, 1);
    for (int i = 0; i < SLOTS; i++) {
        kn_bezier_destroy(w.curves[i]);
        kn_spring_destroy(w.springs[i]);
    }
    kn_store_destroy(w.stores[0]);
    kn_store_destroy(w.stores[1]);
    kn_velocity_tracker_destroy(w.trackers[0]);
    kn_velocity_tracker_destroy(w.trackers[1]);
    kn_engine_destroy(w.engines[0]);
    kn_engine_destroy(w.engines[1]);
    return 0;
}
