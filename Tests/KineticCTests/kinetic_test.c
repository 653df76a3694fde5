/*
 * kinetic_test.c: exercises every function of kinetic.h, built against the installed
 * header and library through pkg-config (see `make test-c`).
 *
 *   kinetic_test BEZIER_CSV SPRING_CSV
 *
 * BEZIER_CSV is `kinetic sample bezier 0.34,1.56,0.64,1 …` (columns x,value,slope) and
 * SPRING_CSV is `kinetic sample spring --damping-ratio 0.5 --response 0.4 --velocity 2 …`
 * (columns time,value,velocity; the last row is at the settling duration). The CLI prints
 * every double so that it parses back to the same bits, so comparing the C results with
 * those files bit for bit compares them with the Swift API.
 *
 * The store part is in kinetic_test_store.c. Prints one line per failed check and ends with
 * "kinetic_test: N passed, M failed"; exits 1 on any failure.
 */
#include "kinetic_test.h"

#include <math.h>
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
    for (int s = KN_OK; s <= KN_ERR_INTERNAL; s++) {
        const char *m = kn_status_message(s);
        CHECK(m != NULL && strlen(m) > 0 && strcmp(m, "unknown status") != 0);
    }
    CHECK(strcmp(kn_status_message(-1), "unknown status") == 0);
    CHECK(strcmp(kn_status_message(11), "unknown status") == 0);
    CHECK(strcmp(kn_status_message(KN_OK), "success") == 0);

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
}

/* ---------------------------------------------------------------- bezier */

/* The header's promise for kn_bezier_values from 1,024 values on: within 2e-13 of
 * kn_bezier_value in [0, 1], exactly 0 at 0 and 1 at 1, bit for bit outside [0, 1] and for NaN;
 * bit for bit below 1,024. Over the presets and 200 seeded random curves (x1, x2 in [0, 1],
 * y1, y2 in [-1, 2]), 4,096 random x per curve with the special values mixed in. (This test
 * found a scalar look-up that started one segment too high on S-shaped curves.) */
static void test_bezier_batch_bound(void) {
    enum { N = 4096, SMALL = 1023, CURVES = 205 };
    double *xs = malloc(N * sizeof(double)), *out = malloc(N * sizeof(double));
    uint64_t state = 0x4B4E42415443ull;
    long far = 0, ends_wrong = 0, outside_differs = 0, small_differs = 0, compared = 0;
    for (int k = 0; k < CURVES; k++) {
        kn_bezier *curve = NULL;
        if (k < 5) {
            OK(kn_bezier_create_preset(k, &curve));
        } else {
            double p[4];
            for (int j = 0; j < 4; j++) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                double u = (double)(state >> 11) / 9007199254740992.0;
                p[j] = (j % 2 == 0) ? u : 3 * u - 1;
            }
            OK(kn_bezier_create(p[0], p[1], p[2], p[3], &curve));
        }
        for (int i = 0; i < N; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            xs[i] = (double)(state >> 11) / 9007199254740992.0;
        }
        xs[0] = 0; xs[1] = 1; xs[2] = -0.25; xs[3] = 1.5; xs[4] = NAN; xs[5] = 0.5; xs[6] = 1e-300;
        OK(kn_bezier_values(curve, xs, out, N));
        for (int i = 0; i < N; i++) {
            double v = NAN;
            OK(kn_bezier_value(curve, xs[i], &v));
            if (!(xs[i] >= 0 && xs[i] <= 1)) {
                outside_differs += !same_bits(out[i], v);
            } else {
                compared++;
                if (!(fabs(out[i] - v) <= 2e-13)) far++;
                if ((xs[i] == 0 && out[i] != 0) || (xs[i] == 1 && out[i] != 1)) ends_wrong++;
            }
        }
        OK(kn_bezier_values(curve, xs, out, SMALL));
        for (int i = 0; i < SMALL; i++) {
            double v = NAN;
            OK(kn_bezier_value(curve, xs[i], &v));
            small_differs += !same_bits(out[i], v);
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
    test_store();
    test_store_overflow();
    printf("kinetic_test: library %s, header %d.%d.%d\n", kn_version_string(), KN_VERSION_MAJOR,
           KN_VERSION_MINOR, KN_VERSION_PATCH);
    printf("kinetic_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
