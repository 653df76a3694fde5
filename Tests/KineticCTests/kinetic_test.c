/*
 * kinetic_test.c: exercises every function of kinetic.h, built against the installed
 * header and library through pkg-config (see `make test-c`).
 *
 * Every promise the comments of kinetic.h make is listed, with the check that holds it to
 * it, in Tests/KineticCTests/HEADER_PROMISES.md: a change to the header's promises (or to
 * what the library does) updates that table and the checks here together.
 *
 *   kinetic_test BEZIER_CSV SPRING_CSV
 *
 * BEZIER_CSV is `kinetic sample bezier 0.34,1.56,0.64,1 …` (columns x,value,slope) and
 * SPRING_CSV is `kinetic sample spring --damping-ratio 0.5 --response 0.4 --velocity 2 …`
 * (columns time,value,velocity; the last row is at the settling duration). The CLI prints
 * every double so that it parses back to the same bits, so comparing the C results with
 * those files bit for bit compares them with the Swift API.
 *
 * The store part is in kinetic_test_store.c, the engine part in kinetic_test_engine.c. Prints one line per failed check and ends with
 * "kinetic_test: N passed, M failed"; exits 1 on any failure.
 */
/* pthreads (the thread-safety checks), with -std=c99. */
#define _POSIX_C_SOURCE 200809L

#include "kinetic_test.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

int passed = 0, failed = 0;

int same_bits(double a, double b) {
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

/* The calling thread's last error message (static buffer). */
const char *last_error(void) {
    static char buffer[512];
    kn_last_error_message(buffer, sizeof buffer, NULL);
    return buffer;
}

/* Whether the last error message contains `needle`. */
int error_mentions(const char *needle) {
    const char *message = last_error();
    if (strstr(message, needle) != NULL) return 1;
    fprintf(stderr, "  last error \"%s\" does not mention \"%s\"\n", message, needle);
    return 0;
}

/* Reads a CSV of 3 numeric columns after a header line; returns the row count (or -1). */
static long read_csv(const char *path, double **a, double **b, double **c) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char line[512];
    long n = 0, cap = 1024;
    *a = malloc(cap * sizeof(double));
    *b = malloc(cap * sizeof(double));
    *c = malloc(cap * sizeof(double));
    if (!fgets(line, sizeof line, f)) { fclose(f); return -1; }
    while (fgets(line, sizeof line, f)) {
        if (n == cap) {
            cap *= 2;
            *a = realloc(*a, cap * sizeof(double));
            *b = realloc(*b, cap * sizeof(double));
            *c = realloc(*c, cap * sizeof(double));
        }
        char *end;
        (*a)[n] = strtod(line, &end);
        if (*end != ',') { fclose(f); return -1; }
        (*b)[n] = strtod(end + 1, &end);
        if (*end != ',') { fclose(f); return -1; }
        (*c)[n] = strtod(end + 1, &end);
        n++;
    }
    fclose(f);
    return n;
}

/* ---------------------------------------------------------------- status, errors, version */

static void test_status_and_version(void) {
    for (int s = KN_OK; s <= KN_ERR_ILLEGAL_STATE; s++) {
        const char *m = kn_status_message(s);
        CHECK(m != NULL && strlen(m) > 0 && strcmp(m, "unknown status") != 0);
    }
    CHECK(strcmp(kn_status_message(-1), "unknown status") == 0);
    CHECK(strcmp(kn_status_message(12), "unknown status") == 0);
    CHECK(strcmp(kn_status_message(KN_OK), "success") == 0);
    /* Every int32_t maps to a string; the strings are static (the same pointer every time). */
    CHECK(strcmp(kn_status_message(INT32_MIN), "unknown status") == 0);
    CHECK(strcmp(kn_status_message(INT32_MAX), "unknown status") == 0);
    CHECK(kn_status_message(KN_ERR_STALE_HANDLE) == kn_status_message(KN_ERR_STALE_HANDLE));
    CHECK(kn_status_message(-7) == kn_status_message(12));
    CHECK(kn_version_string() == kn_version_string());

    int32_t major = -1, minor = -1, patch = -1;
    OK(kn_version(&major, &minor, &patch));
    CHECK(major == KN_VERSION_MAJOR && minor == KN_VERSION_MINOR && patch == KN_VERSION_PATCH);
    OK(kn_version(NULL, &minor, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_version(NULL, NULL, NULL));
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", KN_VERSION_MAJOR, KN_VERSION_MINOR, KN_VERSION_PATCH);
    CHECK(strcmp(kn_version_string(), expected) == 0);

    /* The last error message: length query, truncation, NULL buffer. */
    kn_bezier *b = NULL;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_create(1.5, 0, 0.5, 1, &b));
    CHECK(b == NULL);
    size_t length = 0;
    OK(kn_last_error_message(NULL, 0, &length));
    CHECK(length == strlen("x1 = 1.5 is outside [0, 1]"));
    CHECK(strcmp(last_error(), "x1 = 1.5 is outside [0, 1]") == 0);
    char small[5] = "zzzz";
    EXPECT(KN_ERR_BUFFER_TOO_SMALL, kn_last_error_message(small, sizeof small, &length));
    CHECK(strcmp(small, "x1 =") == 0);
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_last_error_message(NULL, 8, NULL));
    /* kn_last_error_message itself never replaces the message. */
    CHECK(strcmp(last_error(), "x1 = 1.5 is outside [0, 1]") == 0);
    /* A success leaves it as it was. */
    OK(kn_bezier_create_preset(KN_BEZIER_EASE, &b));
    CHECK(strcmp(last_error(), "x1 = 1.5 is outside [0, 1]") == 0);
    kn_bezier_destroy(b);

    /* Messages name the C parameters (snake case), not the Swift API's. */
    kn_spring *unsettled = NULL;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_settling(1, 1e-200, 1e-3, &unsettled));
    CHECK(unsettled == NULL);
    CHECK(strstr(last_error(), "settling_duration = 1.0 is outside [") != NULL);
    CHECK(strstr(last_error(), "(for damping_ratio = 1e-200)") != NULL);
    CHECK(strstr(last_error(), "Ratio") == NULL && strstr(last_error(), "Duration") == NULL);
    OK(kn_spring_create_settling(1e60, 1e-200, 1e-3, &unsettled));
    kn_spring_destroy(unsettled);
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_damping_ratio(-1, 0.5, &unsettled));
    CHECK(strstr(last_error(), "damping_ratio = -1.0") != NULL);

    /* Truncation cuts at a UTF-8 character boundary: at every capacity the copy is a prefix
     * of the message that ends before a character, at most three bytes short of capacity - 1
     * (a character is at most four bytes). The mass's range, (0, inf), prints the infinity
     * sign, three bytes. */
    kn_spring *spring = NULL;
    CHECK(kn_spring_create(0, 1, 1, &spring) != KN_OK);
    char full[256];
    size_t full_length = 0;
    OK(kn_last_error_message(full, sizeof full, &full_length));
    int multibyte = 0;
    for (size_t i = 0; i < full_length; i++) multibyte |= (unsigned char)full[i] >= 0x80;
    CHECK(multibyte);
    for (size_t capacity = 1; capacity <= full_length + 1; capacity++) {
        char cut[256];
        memset(cut, 'z', sizeof cut);
        kn_status status = kn_last_error_message(cut, capacity, NULL);
        size_t n = strlen(cut);
        CHECK(status == (capacity > full_length ? KN_OK : KN_ERR_BUFFER_TOO_SMALL));
        if (capacity > full_length) CHECK(n == full_length);
        else CHECK(n <= capacity - 1 && n + 3 >= capacity - 1);
        CHECK(memcmp(cut, full, n) == 0);
        CHECK(n == full_length || ((unsigned char)full[n] & 0xC0) != 0x80);
    }
}

/* ---------------------------------------------------------------- bezier */

/* A new handle's first 64 evaluations run without its solve table, the 65th builds it: the
 * values are the same bit for bit either way (the header on kn_bezier_value: "the same with
 * the table or without it"). 300 random curves, each at 64 x before and the same x after. */
static void test_bezier_values_before_and_after_the_table(void) {
    enum { CURVES = 300, X = 64 };
    uint64_t state = 0x4C415A59ull;
    long differs = 0, compared = 0;
    for (int k = 0; k < CURVES; k++) {
        double p[4], xs[X], before[X];
        for (int j = 0; j < 4; j++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(state >> 11) / 9007199254740992.0;
            p[j] = (j % 2 == 0) ? u : 3 * u - 1;
        }
        kn_bezier *curve = NULL;
        OK(kn_bezier_create(p[0], p[1], p[2], p[3], &curve));
        for (int i = 0; i < X; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            xs[i] = (double)(state >> 11) / 9007199254740992.0;
            OK(kn_bezier_value(curve, xs[i], &before[i]));
        }
        double warm[100];
        for (int i = 0; i < 100; i++) warm[i] = i / 99.0;
        OK(kn_bezier_values(curve, warm, warm, 100));
        for (int i = 0; i < X; i++) {
            double after = NAN;
            OK(kn_bezier_value(curve, xs[i], &after));
            differs += !same_bits(before[i], after);
            compared++;
        }
        kn_bezier_destroy(curve);
    }
    if (differs) fprintf(stderr, "values before and after the solve table differ: %ld of %ld\n", differs, compared);
    CHECK(differs == 0 && compared == CURVES * X);
}

/* The header's promise for kn_bezier_values: bit for bit as kn_bezier_value until the curve's
 * batch values pass 8,192 (a fresh curve's first calls: 1,023 then 4,096 values); after that,
 * within 2e-13 * max(1, |y1|, |y2|) of kn_bezier_value in [0, 1], exactly 0 at 0 and 1 at 1,
 * bit for bit outside [0, 1] and for NaN. Over the presets (whose shared table may already
 * exist: the bound only), 200 seeded random curves (x1, x2 in [0, 1], y1, y2 in [-1, 2]) and
 * 40 with large control values (|y1|, |y2| up to 1e5), 4,096 random x per curve with the
 * special values mixed in. (This test
 * found a scalar look-up that started one segment too high on S-shaped curves.) */
static void test_bezier_batch_bound(void) {
    enum { N = 4096, SMALL = 1023, CURVES = 245, LARGE = 205 };
    double *xs = malloc(N * sizeof(double)), *out = malloc(N * sizeof(double));
    uint64_t state = 0x4B4E42415443ull;
    long far = 0, ends_wrong = 0, outside_differs = 0, small_differs = 0, compared = 0;
    for (int k = 0; k < CURVES; k++) {
        kn_bezier *curve = NULL;
        double bound = 2e-13;
        if (k < 5) {
            OK(kn_bezier_create_preset(k, &curve));
        } else {
            double p[4];
            for (int j = 0; j < 4; j++) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                double u = (double)(state >> 11) / 9007199254740992.0;
                /* y: in [-1, 2], or from the LARGE-th curve on, +-10^(5u) */
                p[j] = (j % 2 == 0) ? u : k < LARGE ? 3 * u - 1 : ((state >> 3) & 1 ? 1 : -1) * pow(10, 5 * u);
            }
            OK(kn_bezier_create(p[0], p[1], p[2], p[3], &curve));
            bound *= fmax(1, fmax(fabs(p[1]), fabs(p[3])));
        }
        for (int i = 0; i < N; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            xs[i] = (double)(state >> 11) / 9007199254740992.0;
        }
        xs[0] = 0; xs[1] = 1; xs[2] = -0.25; xs[3] = 1.5; xs[4] = NAN; xs[5] = 0.5; xs[6] = 1e-300;
        if (k >= 5) {
            /* Fresh: 1,023 then 4,096 values, bit for bit. */
            OK(kn_bezier_values(curve, xs, out, SMALL));
            for (int i = 0; i < SMALL; i++) {
                double v = NAN;
                OK(kn_bezier_value(curve, xs[i], &v));
                small_differs += !same_bits(out[i], v);
            }
            OK(kn_bezier_values(curve, xs, out, N));
            for (int i = 0; i < N; i++) {
                double v = NAN;
                OK(kn_bezier_value(curve, xs[i], &v));
                small_differs += !same_bits(out[i], v);
            }
        }
        /* Past 8,192 batch values (the table, unless the curve declines it). */
        OK(kn_bezier_values(curve, xs, out, N));
        OK(kn_bezier_values(curve, xs, out, N));
        for (int i = 0; i < N; i++) {
            double v = NAN;
            OK(kn_bezier_value(curve, xs[i], &v));
            if (!(xs[i] >= 0 && xs[i] <= 1)) {
                outside_differs += !same_bits(out[i], v);
            } else {
                compared++;
                if (!(fabs(out[i] - v) <= bound)) far++;
                if ((xs[i] == 0 && out[i] != 0) || (xs[i] == 1 && out[i] != 1)) ends_wrong++;
            }
        }
        kn_bezier_destroy(curve);
    }
    CHECK(compared > (long)CURVES * (N - 10));
    CHECK(far == 0);
    CHECK(ends_wrong == 0);
    CHECK(outside_differs == 0);
    CHECK(small_differs == 0);
    free(xs);
    free(out);
}

static void test_bezier(const char *csv) {
    double *xs, *values, *slopes;
    long n = read_csv(csv, &xs, &values, &slopes);
    CHECK(n > 100);
    if (n <= 0) return;

    kn_bezier *curve = NULL;
    OK(kn_bezier_create(0.34, 1.56, 0.64, 1, &curve));
    CHECK(curve != NULL);
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    OK(kn_bezier_control_points(curve, &x1, &y1, &x2, &y2));
    CHECK(x1 == 0.34 && y1 == 1.56 && x2 == 0.64 && y2 == 1);
    OK(kn_bezier_control_points(curve, NULL, NULL, NULL, &y2));

    /* Scalar value and slope: bit for bit the Swift API's (the CLI's CSV). */
    long value_mismatches = 0, slope_mismatches = 0;
    for (long i = 0; i < n; i++) {
        double v = NAN, s = NAN;
        OK(kn_bezier_value(curve, xs[i], &v));
        OK(kn_bezier_slope(curve, xs[i], &s));
        if (!same_bits(v, values[i])) value_mismatches++;
        if (!same_bits(s, slopes[i])) slope_mismatches++;
    }
    CHECK(value_mismatches == 0);
    CHECK(slope_mismatches == 0);

    /* Batch, out of place and in place. */
    double *out = malloc(n * sizeof(double));
    OK(kn_bezier_values(curve, xs, out, n));
    long batch_mismatches = 0;
    for (long i = 0; i < n; i++) batch_mismatches += !same_bits(out[i], values[i]);
    CHECK(batch_mismatches == 0);
    memcpy(out, xs, n * sizeof(double));
    OK(kn_bezier_values(curve, out, out, n));
    batch_mismatches = 0;
    for (long i = 0; i < n; i++) batch_mismatches += !same_bits(out[i], values[i]);
    CHECK(batch_mismatches == 0);
    OK(kn_bezier_values(curve, NULL, NULL, 0));
    test_bezier_batch_bound();
    test_bezier_values_before_and_after_the_table();

    /* Extrapolation and NaN pass through as in Swift. */
    double v = 0;
    OK(kn_bezier_value(curve, NAN, &v));
    CHECK(isnan(v));
    OK(kn_bezier_value(curve, 0, &v));
    CHECK(v == 0);
    OK(kn_bezier_value(curve, 1, &v));
    CHECK(v == 1);

    /* Error paths: nothing is written on failure. */
    double untouched = 42;
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_value(NULL, 0.5, &untouched));
    CHECK(untouched == 42 && error_mentions("curve is NULL"));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_value(curve, 0.5, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_slope(NULL, 0.5, &untouched));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_slope(curve, 0.5, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_control_points(NULL, &x1, &y1, &x2, &y2));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_values(NULL, xs, out, n));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_values(curve, NULL, out, n));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_values(curve, xs, NULL, n));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_values(curve, xs, out, -1));
    CHECK(error_mentions("count = -1"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_values(curve, xs, out, INT64_MAX));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_values(curve, NULL, NULL, INT64_MIN));
    CHECK(error_mentions("count = -9223372036854775808"));

    kn_bezier *bad = (kn_bezier *)&untouched;
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_create(0.25, 0.1, 0.25, 1, NULL));
    EXPECT(KN_ERR_NOT_FINITE, kn_bezier_create(NAN, 0, 1, 1, &bad));
    CHECK(bad == (kn_bezier *)&untouched && error_mentions("x1 = nan"));
    EXPECT(KN_ERR_NOT_FINITE, kn_bezier_create(0, NAN, 1, 1, &bad));
    EXPECT(KN_ERR_NOT_FINITE, kn_bezier_create(0, 0, INFINITY, 1, &bad));
    EXPECT(KN_ERR_NOT_FINITE, kn_bezier_create(0, 0, 1, -INFINITY, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_create(-0.1, 0, 1, 1, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_create(0, 0, 1.0000001, 1, &bad));
    CHECK(error_mentions("x2"));
    CHECK(bad == (kn_bezier *)&untouched);

    /* Presets: the CSS control points. */
    static const double presets[5][4] = {
        {0, 0, 1, 1}, {0.25, 0.1, 0.25, 1}, {0.42, 0, 1, 1}, {0, 0, 0.58, 1}, {0.42, 0, 0.58, 1}};
    for (int p = KN_BEZIER_LINEAR; p <= KN_BEZIER_EASE_IN_OUT; p++) {
        kn_bezier *preset = NULL;
        OK(kn_bezier_create_preset(p, &preset));
        OK(kn_bezier_control_points(preset, &x1, &y1, &x2, &y2));
        CHECK(x1 == presets[p][0] && y1 == presets[p][1] && x2 == presets[p][2] && y2 == presets[p][3]);
        kn_bezier_destroy(preset);
    }
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_create_preset(-1, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_create_preset(5, &bad));
    CHECK(strcmp(last_error(), "preset = 5 is outside [0, 4]") == 0);
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_create_preset(KN_BEZIER_EASE, NULL));

    kn_bezier_destroy(curve);
    kn_bezier_destroy(NULL);
    free(out);
    free(xs);
    free(values);
    free(slopes);
}

/* ---------------------------------------------------------------- springs */

static void test_spring(const char *csv) {
    double *times, *values, *velocities;
    long n = read_csv(csv, &times, &values, &velocities);
    CHECK(n > 10);
    if (n <= 0) return;

    kn_spring *spring = NULL;
    OK(kn_spring_create_damping_ratio(0.5, 0.4, &spring));
    const double v0 = 2;
    long value_mismatches = 0, velocity_mismatches = 0;
    for (long i = 0; i < n; i++) {
        double v = NAN, w = NAN;
        OK(kn_spring_value(spring, times[i], v0, &v));
        OK(kn_spring_velocity(spring, times[i], v0, &w));
        value_mismatches += !same_bits(v, values[i]);
        velocity_mismatches += !same_bits(w, velocities[i]);
    }
    CHECK(value_mismatches == 0);
    CHECK(velocity_mismatches == 0);
    /* The CSV's last row is at exactly the settling duration (epsilon 0.001). */
    double settle = 0;
    OK(kn_spring_settling_duration(spring, v0, 0.001, &settle));
    CHECK(same_bits(settle, times[n - 1]));

    /* Parameters read back; the other parameterisations. */
    double mass = 0, stiffness = 0, damping = 0;
    OK(kn_spring_parameters(spring, &mass, &stiffness, &damping));
    CHECK(mass == 1 && fabs(stiffness - pow(2 * PI / 0.4, 2)) < 1e-9 && fabs(damping - 4 * PI * 0.5 / 0.4) < 1e-12);
    OK(kn_spring_parameters(spring, NULL, NULL, NULL));

    kn_spring *physical = NULL, *bouncy = NULL, *settling = NULL;
    OK(kn_spring_create(1, 100, 10, &physical));
    OK(kn_spring_parameters(physical, &mass, &stiffness, &damping));
    CHECK(mass == 1 && stiffness == 100 && damping == 10);
    OK(kn_spring_create_duration(0.5, 0.3, &bouncy));
    OK(kn_spring_parameters(bouncy, &mass, &stiffness, &damping));
    CHECK(fabs(stiffness - 157.91367041742973) < 1e-9 && fabs(damping - 17.59291886010284) < 1e-9);
    OK(kn_spring_create_settling(0.8, 0.9, 0.001, &settling));
    OK(kn_spring_settling_duration(settling, 0, 0.001, &settle));
    CHECK(fabs(settle - 0.8) < 1e-9);

    /* kn_spring_get_properties: bit for bit the Swift API's defining formulas (Spring.swift),
     * evaluated here in the same order, each operation correctly rounded (-ffp-contract=off). */
    kn_spring *const all_springs[4] = {spring, physical, bouncy, settling};
    kn_spring_properties props;
    for (int i = 0; i < 4; i++) {
        memset(&props, 0xff, sizeof props);
        OK(kn_spring_get_properties(all_springs[i], &props));
        OK(kn_spring_parameters(all_springs[i], &mass, &stiffness, &damping));
        const double zeta = damping / (2 * sqrt(stiffness * mass));
        const double response = 2 * PI * sqrt(mass / stiffness);
        CHECK(same_bits(props.mass, mass) && same_bits(props.stiffness, stiffness) && same_bits(props.damping, damping));
        CHECK(same_bits(props.damping_ratio, zeta));
        CHECK(same_bits(props.response, response) && same_bits(props.duration, response));
        CHECK(same_bits(props.bounce, zeta <= 1 ? 1 - zeta : 1 / zeta - 1));
    }
    /* The parameterisations a spring was made from read back, up to rounding. */
    OK(kn_spring_get_properties(spring, &props));
    CHECK(fabs(props.damping_ratio - 0.5) < 1e-15 && fabs(props.response - 0.4) < 1e-15);
    OK(kn_spring_get_properties(bouncy, &props));
    CHECK(fabs(props.bounce - 0.3) < 1e-15 && fabs(props.duration - 0.5) < 1e-15);
    OK(kn_spring_get_properties(physical, &props));
    CHECK(props.damping_ratio == 0.5 && props.bounce == 0.5); /* 10 / (2·√100), exactly */

    /* Φ step over N springs: bit for bit the matrix applied by hand (no FMA: -ffp-contract=off),
     * and within 1e-12 of the closed form after many steps. */
    double phi[4] = {0};
    const double dt = 1.0 / 60;
    OK(kn_spring_transition(physical, dt, phi));
    enum { N = 1000 };
    double *x = malloc(N * sizeof(double)), *v = malloc(N * sizeof(double));
    for (int i = 0; i < N; i++) { x[i] = -1 + i * 0.001; v[i] = 2 - i * 0.004; }
    double x_before[3] = {x[0], x[1], x[N - 1]}, v_before[3] = {v[0], v[1], v[N - 1]};
    OK(kn_spring_step(physical, dt, x, v, N));
    CHECK(same_bits(x[0], phi[0] * x_before[0] + phi[1] * v_before[0]));
    CHECK(same_bits(v[1], phi[2] * x_before[1] + phi[3] * v_before[1]));
    CHECK(same_bits(x[N - 1], phi[0] * x_before[2] + phi[1] * v_before[2]));
    double d = -1, w = v0;
    for (int k = 0; k < 120; k++) OK(kn_spring_step(physical, dt, &d, &w, 1));
    double closed = 0;
    OK(kn_spring_value(physical, 120 * dt, v0, &closed));
    CHECK(fabs((1 + d) - closed) < 1e-12);
    OK(kn_spring_step(physical, dt, NULL, NULL, 0));
    /* Non-finite states are stepped as IEEE arithmetic gives (NaN out), the others as ever. */
    {
        double xs[4] = {NAN, 0.5, INFINITY, -0.25}, vs[4] = {0, NAN, 1, 2};
        OK(kn_spring_step(physical, dt, xs, vs, 4));
        CHECK(isnan(xs[0]) && isnan(xs[1]) && !isfinite(xs[2]) + !isfinite(vs[2]) >= 1);
        CHECK(same_bits(xs[3], phi[0] * -0.25 + phi[1] * 2) && same_bits(vs[3], phi[2] * -0.25 + phi[3] * 2));
    }

    /* Error paths. */
    kn_spring *bad = (kn_spring *)&settle;
    double untouched = 42;
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_create(1, 100, 10, NULL));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(0, 100, 10, &bad));
    CHECK(error_mentions("mass = 0.0"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(-1, 100, 10, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(1, -100, 10, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(1, 100, -10, &bad));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_create(NAN, 100, 10, &bad));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_create(1, INFINITY, 10, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(1e-310, 1, 0, &bad));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_create_damping_ratio(0.5, 0.4, NULL));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_damping_ratio(-0.5, 0.4, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_damping_ratio(0.5, 0, &bad));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_create_damping_ratio(NAN, 0.4, &bad));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_create_duration(0.5, 0.3, NULL));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_duration(0.5, 1, &bad));
    CHECK(error_mentions("bounce"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_duration(0.5, -1, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_duration(-0.5, 0, &bad));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_create_duration(0.5, NAN, &bad));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_create_settling(0.8, 0.9, 0.001, NULL));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_settling(0.8, 0.9, 1, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_settling(0.8, 0, 0.001, &bad));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_settling(0, 0.9, 0.001, &bad));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_create_settling(INFINITY, 0.9, 0.001, &bad));
    CHECK(bad == (kn_spring *)&settle);

    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_parameters(NULL, &mass, &stiffness, &damping));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_get_properties(NULL, &props));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_get_properties(spring, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_value(NULL, 0.1, 0, &untouched));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_value(spring, 0.1, 0, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_velocity(NULL, 0.1, 0, &untouched));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_velocity(spring, 0.1, 0, NULL));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_settling_duration(NULL, 0, 0.001, &untouched));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_settling_duration(spring, 0, 0.001, NULL));
    CHECK(untouched == 42);
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_transition(NULL, dt, phi));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_transition(spring, dt, NULL));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_transition(spring, -dt, phi));
    CHECK(error_mentions("dt"));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_transition(spring, NAN, phi));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_step(NULL, dt, x, v, N));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_step(spring, dt, NULL, v, N));
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_step(spring, dt, x, NULL, N));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(spring, dt, x, v, -5));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(spring, dt, x, v, INT64_MAX));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(spring, dt, NULL, NULL, KN_MAX_COUNT + 1));
    CHECK(error_mentions("count = 268435457"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(spring, -dt, x, v, N));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_step(spring, INFINITY, x, v, N));
    /* Overlapping arrays are refused and left as they were; adjacent ones are fine. */
    {
        double both[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(spring, dt, both, both + 3, 4));
        EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(spring, dt, both + 3, both, 4));
        EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(spring, dt, both, both, 1));
        CHECK(both[0] == 1 && both[3] == 4 && both[7] == 8); /* nothing changed */
        OK(kn_spring_step(spring, dt, both, both + 4, 4));
        CHECK(both[0] != 1); /* adjacent arrays are stepped */
    }

    /* Swift's answers for odd input, passed through. */
    OK(kn_spring_value(spring, -1, 0, &untouched));
    CHECK(untouched == 0);
    OK(kn_spring_settling_duration(spring, 0, 0, &untouched));
    CHECK(isinf(untouched));
    kn_spring *undamped = NULL;
    OK(kn_spring_create(1, 100, 0, &undamped));
    OK(kn_spring_settling_duration(undamped, 0, 0.001, &untouched));
    CHECK(isinf(untouched));

    kn_spring_destroy(spring);
    kn_spring_destroy(physical);
    kn_spring_destroy(bouncy);
    kn_spring_destroy(settling);
    kn_spring_destroy(undamped);
    kn_spring_destroy(NULL);
    free(x);
    free(v);
    free(times);
    free(values);
    free(velocities);
}

/* ---------------------------------------------------------------- header promises (HEADER_PROMISES.md) */

/* The exact eased progress at x, by bisection on Bx(t) = x in long double (x in [0, 1]). */
static double exact_bezier(double x1, double y1, double x2, double y2, double x) {
    long double lo = 0, hi = 1, t = 0.5L, u;
    int i;
    for (i = 0; i < 200; i++) {
        long double bx;
        t = (lo + hi) / 2;
        u = 1 - t;
        bx = 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t;
        if (bx < x) lo = t; else hi = t;
    }
    u = 1 - t;
    return (double)(3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t);
}

/* kn_bezier_value / _values: exact to 1e-12 in [0, 1]; extrapolated along the end tangents
 * outside; ±infinity slopes where the tangent is vertical; any finite y accepted and never NaN
 * for non-NaN x; KN_MAX_COUNT itself accepted; the batch result independent of earlier calls,
 * in place too. */
static void test_bezier_promises(void) {
    static const double curves[6][4] = {{0.25, 0.1, 0.25, 1}, {0.42, 0, 0.58, 1}, {0.34, 1.56, 0.64, 1},
                                        {0.9, 0.1, 0.1, 0.9}, {0, 0, 1, 1}, {0.2, -0.8, 0.6, 1.8}};
    enum { N = 2048 };
    double *xs = malloc(N * sizeof(double)), *out = malloc(N * sizeof(double)), *again = malloc(N * sizeof(double));
    long far_scalar = 0, far_batch = 0;
    int c, i;
    for (c = 0; c < 6; c++) {
        kn_bezier *curve = NULL;
        OK(kn_bezier_create(curves[c][0], curves[c][1], curves[c][2], curves[c][3], &curve));
        for (i = 0; i < N; i++) xs[i] = i / (double)(N - 1);
        /* The first call (the vectorised solve), and the fifth (past 8,192 batch values: the
         * batch table, unless the curve declines it). */
        OK(kn_bezier_values(curve, xs, out, N));
        for (i = 0; i < 4; i++) OK(kn_bezier_values(curve, xs, again, N));
        for (i = 0; i < N; i++) {
            double v = NAN, exact = exact_bezier(curves[c][0], curves[c][1], curves[c][2], curves[c][3], xs[i]);
            OK(kn_bezier_value(curve, xs[i], &v));
            far_scalar += !(fabs(v - exact) <= 1e-12);
            far_batch += !(fabs(out[i] - exact) <= 1e-12);
            far_batch += !(fabs(again[i] - exact) <= 1e-12);
        }
        kn_bezier_destroy(curve);
    }
    CHECK(far_scalar == 0);
    CHECK(far_batch == 0);

    /* Outside [0, 1]: along the end tangents (Chromium's rule: y1/x1 at the start, (y2 − 1)/(x2 − 1)
     * at the end), the same bits as computed here. */
    {
        kn_bezier *curve = NULL;
        double v = NAN, s = NAN;
        const double start = 0.3 / 0.2, end = (0.8 - 1) / (0.6 - 1);
        OK(kn_bezier_create(0.2, 0.3, 0.6, 0.8, &curve));
        OK(kn_bezier_slope(curve, -0.25, &s));
        CHECK(same_bits(s, start));
        OK(kn_bezier_value(curve, -0.25, &v));
        CHECK(same_bits(v, start * -0.25));
        OK(kn_bezier_slope(curve, 1.5, &s));
        CHECK(same_bits(s, end));
        OK(kn_bezier_value(curve, 1.5, &v));
        CHECK(same_bits(v, 1 + end * (1.5 - 1)));
        kn_bezier_destroy(curve);
    }
    /* Vertical tangents: ±infinity slopes. */
    {
        kn_bezier *up = NULL, *down = NULL;
        double s = 0;
        OK(kn_bezier_create(0, 0.5, 0.5, 1, &up));
        OK(kn_bezier_slope(up, 0, &s));
        CHECK(s == INFINITY);
        OK(kn_bezier_create(0, -0.5, 0.5, 1, &down));
        OK(kn_bezier_slope(down, 0, &s));
        CHECK(s == -INFINITY);
        kn_bezier_destroy(up);
        kn_bezier_destroy(down);
    }
    /* x1, x2 at the ends of [0, 1] and y1, y2 any finite value; NaN only for NaN x. */
    {
        kn_bezier *wild = NULL;
        long nans = 0;
        double v = 0;
        OK(kn_bezier_create(0, -DBL_MAX, 1, DBL_MAX, &wild));
        kn_bezier_destroy(wild);
        OK(kn_bezier_create(0.3, 1e308, 0.7, -1e308, &wild));
        for (i = 0; i < N; i++) xs[i] = -2 + 5.0 * i / (N - 1);
        xs[0] = INFINITY;
        xs[1] = -INFINITY;
        xs[2] = DBL_MAX;
        OK(kn_bezier_values(wild, xs, out, N));
        for (i = 0; i < N; i++) {
            OK(kn_bezier_value(wild, xs[i], &v));
            nans += isnan(v) + isnan(out[i]);
        }
        CHECK(nans == 0);
        OK(kn_bezier_value(wild, NAN, &v));
        CHECK(isnan(v));
        OK(kn_bezier_slope(wild, NAN, &v));
        CHECK(isnan(v));
        kn_bezier_destroy(wild);
    }
    /* KN_MAX_COUNT itself passes the count check (then the NULL array is reported). */
    {
        kn_bezier *curve = NULL;
        OK(kn_bezier_create_preset(KN_BEZIER_EASE, &curve));
        EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_values(curve, NULL, NULL, KN_MAX_COUNT));
        EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_values(curve, NULL, NULL, KN_MAX_COUNT + 1));
        kn_bezier_destroy(curve);
    }
    /* Until the curve's batch values pass 8,192, bit for bit as kn_bezier_value (a fresh
     * handle whose first call is the batch, another after scalar and small batch calls, a
     * repeat, and in place); the call past 8,192 builds the batch table, and from then on the
     * values are the table's: within 2e-13 * max(1, |y1|, |y2|), the same bits on every later
     * call and in place. */
    {
        kn_bezier *first = NULL, *later = NULL;
        double v = 0;
        long differ = 0, far = 0, table_differs = 0;
        uint64_t state = 0x48495354ull;
        for (i = 0; i < N; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            xs[i] = (double)(state >> 11) / 9007199254740992.0 * 1.2 - 0.1;
        }
        OK(kn_bezier_create(0.34, 1.56, 0.64, 1, &first));
        OK(kn_bezier_create(0.34, 1.56, 0.64, 1, &later));
        OK(kn_bezier_values(first, xs, out, N));
        for (i = 0; i < N; i++) {
            OK(kn_bezier_value(later, xs[i], &v));
            differ += !same_bits(out[i], v);
        }
        OK(kn_bezier_values(later, xs, again, 1023));
        OK(kn_bezier_values(later, xs, again, N));
        for (i = 0; i < N; i++) differ += !same_bits(out[i], again[i]);
        OK(kn_bezier_values(first, xs, again, N));
        for (i = 0; i < N; i++) differ += !same_bits(out[i], again[i]);
        memcpy(again, xs, N * sizeof(double));
        OK(kn_bezier_values(later, again, again, N));
        for (i = 0; i < N; i++) differ += !same_bits(out[i], again[i]);
        CHECK(differ == 0);
        /* `first` has had 4,096 batch values: two more calls reach 8,192, the third passes it. */
        for (int r = 0; r < 2; r++) {
            OK(kn_bezier_values(first, xs, again, N));
            for (i = 0; i < N; i++) differ += !same_bits(out[i], again[i]);
        }
        CHECK(differ == 0);
        OK(kn_bezier_values(first, xs, again, N));
        for (i = 0; i < N; i++) {
            far += !(fabs(again[i] - out[i]) <= 2e-13 * 1.56);
            table_differs += !same_bits(again[i], out[i]);
        }
        CHECK(far == 0);
        CHECK(table_differs > 0);
        {
            double *table = malloc(N * sizeof(double));
            long repeat_differs = 0;
            memcpy(table, again, N * sizeof(double));
            OK(kn_bezier_values(first, xs, again, N));
            for (i = 0; i < N; i++) repeat_differs += !same_bits(table[i], again[i]);
            memcpy(again, xs, N * sizeof(double));
            OK(kn_bezier_values(first, again, again, N));
            for (i = 0; i < N; i++) repeat_differs += !same_bits(table[i], again[i]);
            CHECK(repeat_differs == 0);
            free(table);
        }
        kn_bezier_destroy(first);
        kn_bezier_destroy(later);
    }
    free(xs);
    free(out);
    free(again);
}

/* The springs' promises beyond the reference CSV: limits at +infinity, NaN only where the
 * header says, finite input never infinite (or a status), settling's special cases, the ranges
 * of the constructors, the settling round trip, bounce's range, the properties layout, and
 * nothing changed when a step fails. */
static void test_spring_promises(void) {
    kn_spring *springs[4] = {NULL, NULL, NULL, NULL}; /* under-, critically, over-, undamped */
    kn_spring *soft = NULL, *s = NULL;
    double v = 0, w = 0;
    int i, j, k;
    OK(kn_spring_create(1, 100, 10, &springs[0]));
    OK(kn_spring_create(1, 100, 20, &springs[1]));
    OK(kn_spring_create(1, 100, 40, &springs[2]));
    OK(kn_spring_create(1, 100, 0, &springs[3]));

    /* Time +infinity: the rest position (1, velocity 0) for a damped spring, NaN (no limit) for
     * an undamped one. */
    for (i = 0; i < 3; i++) {
        OK(kn_spring_value(springs[i], INFINITY, 0.5, &v));
        OK(kn_spring_velocity(springs[i], INFINITY, 0.5, &w));
        CHECK(v == 1 && w == 0);
    }
    OK(kn_spring_value(springs[3], INFINITY, 0, &v));
    CHECK(isnan(v));
    /* Overshoot above 1 when bouncy. */
    {
        double top = 0;
        for (k = 1; k <= 100; k++) {
            OK(kn_spring_value(springs[0], k * 0.01, 0, &v));
            if (v > top) top = v;
        }
        CHECK(top > 1);
    }
    /* NaN in, NaN out; before time 0: 0 and initial_velocity. */
    OK(kn_spring_value(springs[0], NAN, 0, &v));
    CHECK(isnan(v));
    OK(kn_spring_value(springs[0], 0.1, NAN, &v));
    CHECK(isnan(v));
    OK(kn_spring_velocity(springs[0], NAN, 0, &w));
    CHECK(isnan(w));
    OK(kn_spring_velocity(springs[0], -1, 0.75, &w));
    CHECK(w == 0.75);
    /* An infinite initial velocity: ±infinity while the motion lasts (no status: not finite input). */
    OK(kn_spring_value(springs[2], 0.1, INFINITY, &v));
    CHECK(v == INFINITY);

    /* Finite input never gives NaN or an infinity: a finite result, or KN_ERR_OUT_OF_RANGE naming
     * initial_velocity with nothing written (a huge velocity on a soft spring). */
    OK(kn_spring_create(1, 1e-2, 0.5, &soft));
    {
        static const double times[] = {0, 1e-9, 0.01, 0.5, 1, 10, 100, 1e4, 1e6, 1e300, DBL_MAX};
        static const double velocities[] = {0, 1, -1, 1e300, -1e308, DBL_MAX, -DBL_MAX, 5e-324};
        long bad = 0, overflowed = 0, bad_status = 0;
        kn_spring *all[5];
        for (i = 0; i < 4; i++) all[i] = springs[i];
        all[4] = soft;
        for (i = 0; i < 5; i++)
            for (j = 0; j < (int)(sizeof times / sizeof times[0]); j++)
                for (k = 0; k < (int)(sizeof velocities / sizeof velocities[0]); k++) {
                    kn_status sv, sw;
                    v = 42;
                    w = 42;
                    sv = kn_spring_value(all[i], times[j], velocities[k], &v);
                    if (sv == KN_OK) {
                        bad += !isfinite(v);
                    } else {
                        overflowed++;
                        bad_status += sv != KN_ERR_OUT_OF_RANGE || v != 42 || !error_mentions("initial_velocity");
                    }
                    sw = kn_spring_velocity(all[i], times[j], velocities[k], &w);
                    if (sw == KN_OK) {
                        bad += !isfinite(w);
                    } else {
                        overflowed++;
                        bad_status += sw != KN_ERR_OUT_OF_RANGE || w != 42 || !error_mentions("initial_velocity");
                    }
                }
        CHECK(bad == 0);
        CHECK(bad_status == 0);
        CHECK(overflowed > 0);
    }

    /* Settling duration: +infinity for epsilon <= 0, an infinite velocity, an undamped spring,
     * and a settling time beyond double; 0 when the motion never leaves the band; finite for
     * every other finite input; NaN only for NaN input. */
    OK(kn_spring_settling_duration(springs[3], 0, 0.001, &v));
    CHECK(v == INFINITY);
    OK(kn_spring_settling_duration(springs[3], 0, 2, &v));
    CHECK(v == 0); /* the undamped motion (amplitude 1) never leaves a band of 2 */
    OK(kn_spring_settling_duration(springs[0], 0, 2, &v));
    CHECK(v == 0);
    for (i = 0; i < 3; i++) {
        OK(kn_spring_settling_duration(springs[i], 0, -1, &v));
        CHECK(v == INFINITY);
        OK(kn_spring_settling_duration(springs[i], INFINITY, 0.001, &v));
        CHECK(v == INFINITY);
        OK(kn_spring_settling_duration(springs[i], -INFINITY, 0.001, &v));
        CHECK(v == INFINITY);
        OK(kn_spring_settling_duration(springs[i], NAN, 0.001, &v));
        CHECK(isnan(v));
        OK(kn_spring_settling_duration(springs[i], 0, NAN, &v));
        CHECK(isnan(v));
        OK(kn_spring_settling_duration(springs[i], DBL_MAX, 0.001, &v));
        CHECK(isfinite(v) && v > 0);
        OK(kn_spring_settling_duration(springs[i], -DBL_MAX, 1e-300, &v));
        CHECK(isfinite(v) && v > 0);
    }
    OK(kn_spring_create(1, 1, 1e-310, &s)); /* damping ratio 5e-311 */
    OK(kn_spring_settling_duration(s, 0, 0.001, &v));
    CHECK(v == INFINITY);
    kn_spring_destroy(s);
    OK(kn_spring_create(1, 1, 1e-300, &s)); /* damping ratio 5e-301: long, but finite */
    OK(kn_spring_settling_duration(s, 0, 0.001, &v));
    CHECK(isfinite(v) && v > 1e300);
    kn_spring_destroy(s);
    OK(kn_spring_create(1, 1e-300, 1e150, &s)); /* overdamped, slow rate 1e-450 */
    OK(kn_spring_settling_duration(s, 0, 0.001, &v));
    CHECK(v == INFINITY);
    kn_spring_destroy(s);

    /* The constructors' ranges: stiffness / mass in [1e-300, 1e300], damping / (2·mass) <= 1e150. */
    s = (kn_spring *)&v;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(1e-310, 1, 0, &s));
    CHECK(error_mentions("stiffness / mass"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(1, 1e-310, 0, &s));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create(1, 1, 1e200, &s));
    CHECK(error_mentions("damping / (2·mass)"));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_damping_ratio(1e300, 0.4, &s));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_damping_ratio(0.5, 1e-300, &s));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_duration(1e-300, 0, &s));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_duration(0, 0, &s));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_settling(1e300, 0.5, 0.001, &s));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_create_settling(0.8, 0.9, 0, &s));
    EXPECT(KN_ERR_NOT_FINITE, kn_spring_create_settling(0.8, 0.9, NAN, &s));
    CHECK(s == (kn_spring *)&v);
    OK(kn_spring_create(1, 1e300, 0, &s));
    kn_spring_destroy(s);
    OK(kn_spring_create(1, 1e-300, 0, &s));
    kn_spring_destroy(s);
    OK(kn_spring_create(1, 1, 2e150, &s));
    kn_spring_destroy(s);
    OK(kn_spring_create_damping_ratio(0, 0.4, &s)); /* ratio 0: undamped */
    OK(kn_spring_parameters(s, NULL, NULL, &v));
    CHECK(v == 0);
    kn_spring_destroy(s);

    /* Extreme but valid parameters: k·m or m/k underflows or overflows, the properties do
     * not (a fuzzer finding: damping_ratio was c / (2·√0) = inf). Every spring that can be
     * made over this grid has finite properties or, where the true value is beyond the range
     * of double, KN_ERR_OUT_OF_RANGE with *out untouched. */
    {
        static const double scales[] = {5e-324, 1e-300, 1e-200, 1e-160, 1e-3, 1, 1e160, 1e200, 1e300};
        kn_spring_properties p;
        long made = 0, finite = 0, refused = 0;
        for (i = 0; i < 9; i++)
            for (j = 0; j < 9; j++)
                for (k = 0; k < 9; k++) {
                    kn_status st;
                    if (kn_spring_create(scales[i], scales[j], scales[k], &s) != KN_OK) continue;
                    made++;
                    p.mass = -1;
                    st = kn_spring_get_properties(s, &p);
                    if (st == KN_OK) {
                        finite += isfinite(p.damping_ratio) && isfinite(p.response) && isfinite(p.duration)
                                  && isfinite(p.bounce) && p.damping_ratio >= 0 && p.response > 0;
                    } else {
                        CHECK(st == KN_ERR_OUT_OF_RANGE && p.mass == -1);
                        refused++;
                    }
                    kn_spring_destroy(s);
                }
        CHECK(made > 100 && finite + refused == made);
        /* m = k = c = 1e-170: k·m underflows to 0 (the old formula gave ζ = c / 0 = inf), but
         * ζ = 0.5 and the period is 2π. */
        s = NULL;
        OK(kn_spring_create(1e-170, 1e-170, 1e-170, &s));
        if (s) {
            OK(kn_spring_get_properties(s, &p));
            CHECK(fabs(p.damping_ratio / 0.5 - 1) < 1e-15 && fabs(p.response / 6.283185307179586 - 1) < 1e-15);
            kn_spring_destroy(s);
        }
    }

    /* kn_spring_create_settling: the settling duration comes back within 1e-12 relative. */
    {
        static const double ratios[] = {0.05, 0.3, 0.9, 1, 1.5, 3};
        static const double durations[] = {0.05, 0.8, 3, 100};
        static const double epsilons[] = {0.001, 0.01, 0.2};
        long far = 0;
        for (i = 0; i < 6; i++)
            for (j = 0; j < 4; j++)
                for (k = 0; k < 3; k++) {
                    double settle = NAN;
                    OK(kn_spring_create_settling(durations[j], ratios[i], epsilons[k], &s));
                    OK(kn_spring_settling_duration(s, 0, epsilons[k], &settle));
                    far += !(fabs(settle - durations[j]) <= 1e-12 * durations[j]);
                    kn_spring_destroy(s);
                }
        CHECK(far == 0);
    }

    /* bounce in (−1, 1]: 1 undamped, above −1 however overdamped. */
    {
        kn_spring_properties p;
        OK(kn_spring_get_properties(springs[3], &p));
        CHECK(p.bounce == 1 && p.damping_ratio == 0);
        OK(kn_spring_create(1, 1, 1e6, &s));
        OK(kn_spring_get_properties(s, &p));
        CHECK(p.bounce > -1 && p.bounce < 0);
        kn_spring_destroy(s);
        /* Seven doubles in declaration order (fields are only ever added at the end). */
        CHECK(sizeof(kn_spring_properties) == 7 * sizeof(double));
        CHECK(offsetof(kn_spring_properties, mass) == 0 && offsetof(kn_spring_properties, bounce) == 6 * sizeof(double));
    }

    /* A failed step changes nothing. */
    {
        double x[3] = {1, 2, 3}, u[3] = {4, 5, 6};
        EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_step(springs[0], -0.1, x, u, 3));
        EXPECT(KN_ERR_NOT_FINITE, kn_spring_step(springs[0], NAN, x, u, 3));
        EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_step(NULL, 0.1, x, u, 3));
        CHECK(x[0] == 1 && x[1] == 2 && x[2] == 3 && u[0] == 4 && u[1] == 5 && u[2] == 6);
        EXPECT(KN_ERR_NULL_ARGUMENT, kn_spring_step(springs[0], 0.1, NULL, NULL, KN_MAX_COUNT));
        OK(kn_spring_step(springs[0], 0, x, u, 3)); /* dt 0: the identity */
        CHECK(x[0] == 1 && u[2] == 6);
    }
    for (i = 0; i < 4; i++) kn_spring_destroy(springs[i]);
    kn_spring_destroy(soft);
}

/* ---------------------------------------------------------------- threads */

/* One thread's share of test_threads: what it found, checked by the main thread. */
typedef struct {
    int index;
    const kn_bezier *curve;
    const kn_spring *spring;
    /* bezier_expected: the values before the curve's batch table, then with it (a call gives
     * one or the other throughout: the table is read once per call). */
    const double *xs, *bezier_expected, *bezier_table_expected, *times, *spring_expected, *store_expected;
    long mismatches, table_calls;
    int fresh_error_empty, own_error_kept, statics_ok;
} thread_job;

enum { THREADS = 4, THREAD_XS = 4096, THREAD_TIMES = 500, THREAD_LANES = 8 };

/* A store of THREAD_LANES lanes (a group and springs), ticked 10 times, read into out. */
static int run_store(const kn_spring *spring, double *out) {
    static const double from[4] = {0, 1, 2, 3}, to[4] = {10, 11, 12, 13};
    kn_store *store = NULL;
    kn_entry group = KN_ENTRY_NONE, springs = KN_ENTRY_NONE;
    int64_t count = 0;
    int k, status = 0;
    status |= kn_store_create(&store);
    status |= kn_store_add_group(store, from, to, 4, 0.25, &group);
    status |= kn_store_add_springs(store, spring, to, from, NULL, 4, &springs);
    for (k = 0; k < 10; k++) status |= kn_store_tick(store, 1.0 / 60);
    status |= kn_store_read_all(store, out, THREAD_LANES, &count);
    kn_store_destroy(store);
    return status == KN_OK && count == THREAD_LANES;
}

static void *thread_main(void *argument) {
    thread_job *job = argument;
    double *out = malloc(THREAD_XS * sizeof(double));
    double lanes[THREAD_LANES], v = 0;
    char message[128], expected[128];
    size_t length = 99;
    kn_bezier *bad = NULL;
    int32_t major = -1;
    int i, round;
    /* A thread that has had no error reads "". */
    kn_last_error_message(message, sizeof message, &length);
    job->fresh_error_empty = length == 0 && message[0] == '\0';
    /* Its own error message, which the other threads' errors must not replace. */
    kn_bezier_create(1 + (job->index + 1) / 8.0, 0, 0.5, 1, &bad);
    kn_last_error_message(expected, sizeof expected, NULL);
    for (round = 0; round < 20; round++) {
        /* The shared curve (its batch table built by whichever thread takes it past 8,192
         * batch x) and spring. */
        long before = 0, after = 0;
        if (kn_bezier_values(job->curve, job->xs, out, THREAD_XS) != KN_OK) job->mismatches++;
        for (i = 0; i < THREAD_XS; i++) {
            before += !same_bits(out[i], job->bezier_expected[i]);
            after += !same_bits(out[i], job->bezier_table_expected[i]);
        }
        if (before != 0 && after != 0) job->mismatches++;
        job->table_calls += before != 0;
        for (i = 0; i < THREAD_TIMES; i++) {
            if (kn_spring_value(job->spring, job->times[i], 1.5, &v) != KN_OK) job->mismatches++;
            job->mismatches += !same_bits(v, job->spring_expected[i]);
        }
        /* A store of its own. */
        if (!run_store(job->spring, lanes)) job->mismatches++;
        for (i = 0; i < THREAD_LANES; i++) job->mismatches += !same_bits(lanes[i], job->store_expected[i]);
        /* An error of another kind in between, then its own again. */
        kn_bezier_values(NULL, NULL, NULL, 0);
        kn_bezier_create(1 + (job->index + 1) / 8.0, 0, 0.5, 1, &bad);
    }
    kn_last_error_message(message, sizeof message, NULL);
    job->own_error_kept = strcmp(message, expected) == 0 && strstr(message, "x1 = 1.") != NULL;
    job->statics_ok = strcmp(kn_status_message(KN_ERR_WRONG_KIND), kn_status_message(6)) == 0 &&
                      kn_version(&major, NULL, NULL) == KN_OK && major == KN_VERSION_MAJOR &&
                      strchr(kn_version_string(), '.') != NULL;
    free(out);
    return NULL;
}

/* kn_bezier and kn_spring handles shared by threads at once, a store per thread, per-thread
 * last error messages ("" on a fresh thread), the static strings from any thread. */
static void test_threads(void) {
    kn_bezier *curve = NULL, *reference = NULL;
    kn_spring *spring = NULL;
    double *xs = malloc(THREAD_XS * sizeof(double)), *bezier_expected = malloc(THREAD_XS * sizeof(double));
    double *bezier_table_expected = malloc(THREAD_XS * sizeof(double));
    double times[THREAD_TIMES], spring_expected[THREAD_TIMES], store_expected[THREAD_LANES];
    pthread_t threads[THREADS];
    thread_job jobs[THREADS];
    kn_bezier *bad = NULL;
    int i, started = 0;
    for (i = 0; i < THREAD_XS; i++) xs[i] = i / (double)(THREAD_XS - 1) * 1.2 - 0.1;
    OK(kn_bezier_create(0.34, 1.56, 0.64, 1, &curve));     /* shared; no batch call yet */
    OK(kn_bezier_create(0.34, 1.56, 0.64, 1, &reference)); /* the same curve, for the expected values */
    OK(kn_bezier_values(reference, xs, bezier_expected, THREAD_XS));
    /* Past the batch table's rule (8,192 batch x): the values from the table. */
    for (i = 0; i < 3; i++) OK(kn_bezier_values(reference, xs, bezier_table_expected, THREAD_XS));
    {
        long differing = 0;
        for (i = 0; i < THREAD_XS; i++) differing += !same_bits(bezier_table_expected[i], bezier_expected[i]);
        CHECK(differing > 0); /* the table is in use */
    }
    OK(kn_spring_create_damping_ratio(0.5, 0.4, &spring));
    for (i = 0; i < THREAD_TIMES; i++) {
        times[i] = i * 0.004;
        OK(kn_spring_value(spring, times[i], 1.5, &spring_expected[i]));
    }
    CHECK(run_store(spring, store_expected));
    /* The main thread's own last error. */
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_create(0.5, 0, 7.5, 1, &bad));
    for (i = 0; i < THREADS; i++) {
        jobs[i].index = i;
        jobs[i].curve = curve;
        jobs[i].spring = spring;
        jobs[i].xs = xs;
        jobs[i].bezier_expected = bezier_expected;
        jobs[i].bezier_table_expected = bezier_table_expected;
        jobs[i].table_calls = 0;
        jobs[i].times = times;
        jobs[i].spring_expected = spring_expected;
        jobs[i].store_expected = store_expected;
        jobs[i].mismatches = 0;
        jobs[i].fresh_error_empty = jobs[i].own_error_kept = jobs[i].statics_ok = 0;
        if (pthread_create(&threads[i], NULL, thread_main, &jobs[i]) == 0) started++;
    }
    CHECK(started == THREADS);
    for (i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
        CHECK(jobs[i].mismatches == 0);
        CHECK(jobs[i].table_calls > 0);
        CHECK(jobs[i].fresh_error_empty);
        CHECK(jobs[i].own_error_kept);
        CHECK(jobs[i].statics_ok);
    }
    CHECK(strcmp(last_error(), "x2 = 7.5 is outside [0, 1]") == 0);
    kn_bezier_destroy(curve);
    kn_bezier_destroy(reference);
    kn_spring_destroy(spring);
    free(xs);
    free(bezier_expected);
    free(bezier_table_expected);
}

/* No function of the header runs a BLAS routine, so after all of them OpenBLAS is not mapped
 * into the process (checked where /proc/self/maps exists). */
static void check_no_openblas(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    if (!maps) return;
    while (fgets(line, sizeof line, maps)) found |= strstr(line, "libopenblas") != NULL;
    fclose(maps);
    CHECK(!found);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s BEZIER_CSV SPRING_CSV [PKG_CONFIG_VERSION]\n", argv[0]);
        return 2;
    }
    test_status_and_version();
    if (argc == 4) {
        /* kinetic.pc's Version (pkg-config --modversion kinetic) is the library's. */
        CHECK(strcmp(argv[3], kn_version_string()) == 0);
    }
    test_bezier(argv[1]);
    test_spring(argv[2]);
    test_bezier_promises();
    test_spring_promises();
    test_store();
    test_store_overflow();
    test_store_promises();
    test_engine();
    test_motion();
    test_threads();
    check_no_openblas();
    printf("kinetic_test: library %s, header %d.%d.%d\n", kn_version_string(), KN_VERSION_MAJOR,
           KN_VERSION_MINOR, KN_VERSION_PATCH);
    printf("kinetic_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
