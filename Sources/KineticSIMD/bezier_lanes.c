// The lane solver of KeyframeBatch segments whose easing differs between tracks
// (Curves/BezierLanes.swift): many distinct cubic-bezier curves, each at its own progress,
// solved side by side, compiled for the widest vector instruction set the processor has,
// chosen at run time (see spring_step.c for why this is C).
//
// Each lane solves x(t) = u by Newton's method from t = u, safeguarded by a bracket (a step
// that leaves the bracket bisects it instead), for a fixed number of steps, then takes one
// more Newton step and y there. The lane is certified when the error that last step can
// leave in y (its quadratic term from the curvature of x, plus the residual's rounding, times
// |y'|) plus the rounding of y itself is at most LANE_TOLERANCE. Every operation is a select or a correctly rounded operation
// with contraction off, so the paths give the same bits whatever the vector width.
#include "kinetic_simd.h"

#pragma clang fp contract(off)

#define LANE_STEPS 5
#define LANE_TOLERANCE 1e-13

static inline __attribute__((always_inline))
double lane_magnitude(double v) { return v < 0 ? -v : v; }

static inline __attribute__((always_inline))
void bezier_lanes_loop(const double *restrict x1s, const double *restrict y1s,
                       const double *restrict x2s, const double *restrict y2s,
                       const double *restrict us, double shared_u, int shared,
                       double *restrict ws, unsigned char *restrict oks, long n) {
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        double x1 = x1s[i], y1 = y1s[i], x2 = x2s[i], y2 = y2s[i], u = shared ? shared_u : us[i];
        double cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx;
        double cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by;
        double ax3 = 3 * ax, bx2 = 2 * bx;
        int inside = (u >= 0) & (u <= 1);
        // Outside [0, 1] the lane is reported; it runs inside so that nothing overflows.
        double target = inside ? u : 0.5;
        double lo = 0, hi = 1, t = target;
#pragma clang loop unroll(full)
        for (int k = 0; k < LANE_STEPS; k++) {
            double f = ((ax * t + bx) * t + cx) * t - target;
            double d = (ax3 * t + bx2) * t + cx;
            lo = f < 0 ? t : lo;
            hi = f > 0 ? t : hi;
            double next = t - f / d;
            // Where the step leaves the bracket (or is NaN: x' = 0), bisect; where the
            // residual is 0, stay.
            double moved = ((next >= lo) & (next <= hi)) ? next : 0.5 * (lo + hi);
            t = f == 0 ? t : moved;
        }
        double f = ((ax * t + bx) * t + cx) * t - target;
        double d = (ax3 * t + bx2) * t + cx;
        double delta = f / d;
        double s = t - delta;
        double w = ((ay * s + by) * s + cy) * s;
        double bend = lane_magnitude(2 * ax3 * t + bx2);
        double rounding = 0x1p-50 * (lane_magnitude(ax) + lane_magnitude(bx) + lane_magnitude(cx) + target);
        double errorT = (bend * delta * delta * 0.5 + rounding) / d;
        double dy = lane_magnitude((3 * ay * s + 2 * by) * s + cy);
        // The rounding of y itself (Horner's rule in the power form, whose terms can cancel
        // where the y control values are large).
        double yRounding = 0x1p-50 * (lane_magnitude(ay) + lane_magnitude(by) + lane_magnitude(cy));
        int ok = inside & (d > 0) & (lane_magnitude(delta) <= 0x1p-20) & (dy * errorT + yRounding <= LANE_TOLERANCE);
        // Exact ends and the identity.
        int identity = (x1 == y1) & (x2 == y2);
        w = identity ? u : w;
        w = u == 0 ? 0 : w;
        w = u == 1 ? 1 : w;
        ok = ok | (identity & inside) | (u == 0) | (u == 1);
        ws[i] = w;
        oks[i] = (unsigned char)ok;
    }
}

// One call's arguments: the control-point planes, the progress (per lane, or `shared_u` for
// every lane when `shared`), and the outputs.
typedef struct {
    const double *x1, *y1, *x2, *y2, *u;
    double shared_u;
    int shared;
    double *w;
    unsigned char *ok;
    long n;
} lanes_call;

// The loop for either kind of progress, inlined into each path below, where `shared` is
// split so that each copy of the loop vectorises with its progress fixed.
static inline __attribute__((always_inline))
void lanes_run(const lanes_call *c) {
    if (c->shared) bezier_lanes_loop(c->x1, c->y1, c->x2, c->y2, c->u, c->shared_u, 1, c->w, c->ok, c->n);
    else bezier_lanes_loop(c->x1, c->y1, c->x2, c->y2, c->u, 0, 0, c->w, c->ok, c->n);
}

// The paths: baseline (128-bit vectors: SSE2 on x86-64, NEON on arm64) and AVX2.
static void bezier_lanes_baseline(const lanes_call *c) { lanes_run(c); }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void bezier_lanes_avx2(const lanes_call *c) { lanes_run(c); }
#endif

static void bezier_lanes(int path, const lanes_call *c) {
#if defined(__x86_64__)
    if (path == KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        bezier_lanes_avx2(c);
        return;
    }
#endif
    (void)path;
    bezier_lanes_baseline(c);
}

void kinetic_simd_bezier_lanes(int path, const double *x1, const double *y1, const double *x2, const double *y2,
                               const double *u, double *w, unsigned char *ok, long n) {
    const lanes_call c = {x1, y1, x2, y2, u, 0, 0, w, ok, n};
    bezier_lanes(path, &c);
}

void kinetic_simd_bezier_lanes_shared(int path, const double *x1, const double *y1, const double *x2,
                                      const double *y2, double u, double *w, unsigned char *ok, long n) {
    const lanes_call c = {x1, y1, x2, y2, 0, u, 1, w, ok, n};
    bezier_lanes(path, &c);
}
