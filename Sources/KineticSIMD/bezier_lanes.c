// The lane solver of KeyframeBatch segments whose easing differs between tracks
// (Curves/BezierLanes.swift): many distinct cubic-bezier curves, each at its own progress,
// solved side by side, compiled for the widest vector instruction set the processor has,
// chosen at run time (see spring_step.c for why this is C).
//
// Each lane solves x(t) = u by Halley's method from t = u (cubic convergence: three steps
// take a typical curve from an error of 0.1 to rounding; from prepared planes, two steps from
// a better start, see below), each step clamped to [0, 1], for
// a fixed number of steps with no test between them, then takes one Newton step and y there.
// The lane is certified when the error that last step can leave in y (its quadratic term
// from the curvature of x, plus the residual's rounding, times |y'|) plus the rounding of y
// itself is at most LANE_TOLERANCE; the test is multiplied through by x' (> 0), so it costs
// no division. Lanes that are not certified are reported; the caller gathers them for a
// second pass with LANE_RETRY_STEPS steps (kinetic_simd_bezier_lanes_retry) and solves the
// rest exactly.
//
// A caller that solves the same curves at many progresses (a keyframe batch at a shared
// progress, frame after frame) prepares each curve once (kinetic_simd_bezier_lanes_prepare)
// and passes those planes instead (kinetic_simd_bezier_lanes_shared_prepared). The planes hold
// the coefficients, rounding bounds and identity mark that the kernel otherwise computes per
// lane and call, and a better start than t = u: t(x), the inverse of x(t), at LANE_KNOTS + 1
// evenly spaced x with its slope there (each capped so that the interpolant is monotone,
// Fritsch and Carlson's condition). The start is the cubic Hermite interpolant of those at u;
// as u is shared, its knot interval and weights are computed once per call, and each lane
// only loads four planes. From that start LANE_KNOT_STEPS Halley steps do what LANE_STEPS do
// from t = u, before the same certified step: the same certificate, so the same accuracy, but
// not the same bits as the solve from control points.
//
// The lanes are processed in blocks of LANE_BLOCK (bezier_lanes_block.h, one size per path)
// written with clang's vector extension, so that every path runs several independent vectors
// at once (the steps are a long dependent chain; one vector at a time would wait on it). The
// remainder runs as one padded block.
// Every operation is a select or a correctly rounded operation with contraction off, so every
// path (128-bit baseline, AVX2, AVX-512) gives the same bits.
#include "kinetic_simd.h"
#include <math.h>
#include <string.h>

#pragma clang fp contract(off)

#define LANE_STEPS 3
// The second pass over the lanes the first did not certify (kinetic_simd_bezier_lanes_retry):
// the same solve with more steps, for curves where Halley's method from t = u needs them
// (next to a steep stretch, where the clamped steps converge slowly at first).
#define LANE_RETRY_STEPS 8
#define LANE_TOLERANCE 1e-13
// The prepared planes' start (see above): knot intervals of t(x) on [0, 1], the first knot
// plane (after the eight of coefficients, bounds and mark; then t and slope per knot), and the
// Halley steps from it.
#define LANE_KNOTS 4
#define LANE_KNOT_PLANE 8
#define LANE_KNOT_STEPS 2
_Static_assert(KINETIC_SIMD_BEZIER_LANES_PREPARED_PLANES == LANE_KNOT_PLANE + 2 * (LANE_KNOTS + 1),
               "the header's prepared plane count");

// One call's arguments: the control-point planes, the progress (per lane, or `shared_u` for
// every lane when `shared`), and the outputs; or, when `prepared`, the prepared planes
// at x1, `stride` apart, with `shared_u` for every lane.
typedef struct {
    const double *x1, *y1, *x2, *y2, *u;
    double shared_u;
    int shared;
    // Whether this is the second pass (LANE_RETRY_STEPS; per-lane progress).
    int retry;
    int prepared;
    // Whether this is the inverse solve for the prepared knots: t where x(t) = shared_u, from
    // the x control points alone (x1, x2).
    int inverse;
    long stride;
    double *w;
    unsigned char *ok;
    long n;
} lanes_call;

// The first eight prepared planes (coefficients, rounding bounds) from control points (the
// block from control points computes them with LANES_ABS the vector absolute value;
// kinetic_simd_bezier_lanes_prepare, one lane at a time, with fabs: the same values).
#define LANES_PREPARE(V, x1, y1, x2, y2)                                                              \
    V cx = 3 * (x1), bx = 3 * ((x2) - (x1)) - cx, ax = 1 - cx - bx;                                   \
    V cy = 3 * (y1), by = 3 * ((y2) - (y1)) - cy, ay = 1 - cy - by;                                   \
    V xr = 0x1p-50 * (LANES_ABS(ax) + LANES_ABS(bx) + LANES_ABS(cx));                                 \
    V yr = 0x1p-50 * (LANES_ABS(ay) + LANES_ABS(by) + LANES_ABS(cy));


// The knot interval of shared progress u (clamped to the first or last; any lane that is not
// in [0, 1] does not use the start) and the cubic Hermite weights of the interval's t0, m0,
// t1, m1 at u's place s in it.
static inline __attribute__((always_inline))
void lanes_knot_weights(double u, long *knot, double h[4]) {
    double scaled = u * LANE_KNOTS;
    // NaN and u < 1/N: the first interval; u ≥ (N − 1)/N: the last (no conversion of a huge u).
    long k = scaled >= LANE_KNOTS - 1 ? LANE_KNOTS - 1 : scaled >= 1 ? (long)scaled : 0;
    double s = scaled - (double)k;
    s = s >= 0 && s <= 1 ? s : 0;
    double s2 = s * s, s3 = s2 * s;
    h[0] = 2 * s3 - 3 * s2 + 1;
    h[1] = s3 - 2 * s2 + s;
    h[2] = 3 * s2 - 2 * s3;
    h[3] = s3 - s2;
    *knot = k;
}

// The block code for each size: 16 lanes on the 128-bit baseline (SSE2, NEON) and 32 on
// AVX2 and AVX-512, whose longer registers hold more independent chains before they spill.
// The block's solve takes its planes as vector arguments; it is always inlined, so the
// calling convention that clang warns about for vectors wider than the target's is never used.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"
#define LANE_BLOCK 16
#include "bezier_lanes_block.h"
#undef LANE_BLOCK
#define LANE_BLOCK 32
#include "bezier_lanes_block.h"
#undef LANE_BLOCK
#pragma clang diagnostic pop

// The paths: baseline (128-bit vectors: SSE2 on x86-64, NEON on arm64), AVX2 and AVX-512.
static void bezier_lanes_baseline(const lanes_call *c) { lanes_run16(c); }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void bezier_lanes_avx2(const lanes_call *c) { lanes_run32(c); }

__attribute__((target("avx512f,avx512dq,avx512vl,avx2")))
static void bezier_lanes_avx512(const lanes_call *c) { lanes_run32(c); }
#endif

static void bezier_lanes(int path, const lanes_call *c) {
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX512 && kinetic_simd_has_avx512()) {
        bezier_lanes_avx512(c);
        return;
    }
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        bezier_lanes_avx2(c);
        return;
    }
#endif
    (void)path;
    bezier_lanes_baseline(c);
}

void kinetic_simd_bezier_lanes(int path, const double *x1, const double *y1, const double *x2, const double *y2,
                               const double *u, double *w, unsigned char *ok, long n) {
    const lanes_call c = {x1, y1, x2, y2, u, 0, 0, 0, 0, 0, 0, w, ok, n};
    bezier_lanes(path, &c);
}

void kinetic_simd_bezier_lanes_retry(int path, const double *x1, const double *y1, const double *x2, const double *y2,
                                     const double *u, double *w, unsigned char *ok, long n) {
    const lanes_call c = {x1, y1, x2, y2, u, 0, 0, 1, 0, 0, 0, w, ok, n};
    bezier_lanes(path, &c);
}

void kinetic_simd_bezier_lanes_shared(int path, const double *x1, const double *y1, const double *x2,
                                      const double *y2, double u, double *w, unsigned char *ok, long n) {
    const lanes_call c = {x1, y1, x2, y2, 0, u, 1, 0, 0, 0, 0, w, ok, n};
    bezier_lanes(path, &c);
}

// The t in [0, 1] where x(t) = target, for 0 < target < 1 (x rises from 0 to 1 on [0, 1],
// as x1 and x2 are in [0, 1]): Newton's method inside a bracket, with bisection where a step
// would leave it, until the bracket or the step stalls (to a few ulps where x' is not small;
// only a start where it is). For the knots that the lane solve does not certify.
static double lanes_knot_bracketed(double ax, double bx, double cx, double target) {
    double lo = 0, hi = 1, t = target;
    for (int k = 0; k < 200 && hi - lo > 0x1p-52; k++) {
        double f = ((ax * t + bx) * t + cx) * t - target;
        if (f == 0) return t;
        if (f < 0) lo = t; else hi = t;
        double next = t - f / ((3 * ax * t + 2 * bx) * t + cx);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        if (next == t) return t;
        t = next;
    }
    return t;
}

void kinetic_simd_bezier_lanes_prepare(int path, const double *x1, const double *y1, const double *x2,
                                       const double *y2, double *planes, long stride, long n) {
    if (n <= 0) return;
    // The inner knots first, knot by knot over all curves: the lane solve of t(j/N) (certified
    // to 1e-13), then the bracketed solve for the lanes it leaves. They are only a start, but
    // every path gives the lane solve's bits, and the rest is scalar, so the planes are the
    // same bits on every path.
    for (int j = 1; j < LANE_KNOTS; j++) {
        double *knot = planes + (LANE_KNOT_PLANE + 2 * j) * stride;
        unsigned char ok[256];
        for (long i = 0; i < n; i += 256) {
            long m = n - i < 256 ? n - i : 256;
            const lanes_call c = {x1 + i, 0, x2 + i, 0, 0, (double)j / LANE_KNOTS, 1, 0, 0, 1, 0, knot + i, ok, m};
            bezier_lanes(path, &c);
            for (long k = 0; k < m; k++) {
                if (ok[k]) continue;
                double cx = 3 * x1[i + k], bx = 3 * (x2[i + k] - x1[i + k]) - cx, ax = 1 - cx - bx;
                knot[i + k] = lanes_knot_bracketed(ax, bx, cx, (double)j / LANE_KNOTS);
            }
        }
    }
#define LANES_ABS(v) fabs(v)
    for (long i = 0; i < n; i++) {
        LANES_PREPARE(double, x1[i], y1[i], x2[i], y2[i])
        int identity = x1[i] == y1[i] && x2[i] == y2[i];
        planes[i] = ax;
        planes[stride + i] = bx;
        planes[2 * stride + i] = cx;
        planes[3 * stride + i] = ay;
        planes[4 * stride + i] = by;
        planes[5 * stride + i] = cy;
        planes[6 * stride + i] = xr;
        planes[7 * stride + i] = identity ? -yr : yr;
        // The knots of t(x) and its slopes there, in t per knot interval: dt/dx / N = 1 / (N·x'),
        // capped at 3 times either neighbouring interval's rise in t (infinite where x' = 0).
        double t[LANE_KNOTS + 1], m[LANE_KNOTS + 1];
        t[0] = 0;
        t[LANE_KNOTS] = 1;
        for (int j = 1; j < LANE_KNOTS; j++) t[j] = planes[(LANE_KNOT_PLANE + 2 * j) * stride + i];
        for (int j = 0; j <= LANE_KNOTS; j++) {
            double d = (3 * ax * t[j] + 2 * bx) * t[j] + cx;
            double cap = fmin(j > 0 ? 3 * (t[j] - t[j - 1]) : INFINITY, j < LANE_KNOTS ? 3 * (t[j + 1] - t[j]) : INFINITY);
            m[j] = d > 0 ? fmin(1 / (LANE_KNOTS * d), cap) : cap;
            planes[(LANE_KNOT_PLANE + 2 * j) * stride + i] = t[j];
            planes[(LANE_KNOT_PLANE + 2 * j + 1) * stride + i] = m[j];
        }
    }
#undef LANES_ABS
}

void kinetic_simd_bezier_lanes_shared_prepared(int path, const double *planes, long stride, double u, double *w,
                                               unsigned char *ok, long n) {
    const lanes_call c = {planes, 0, 0, 0, 0, u, 1, 0, 1, 0, stride, w, ok, n};
    bezier_lanes(path, &c);
}
