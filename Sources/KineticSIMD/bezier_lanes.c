// The lane solver of KeyframeBatch segments whose easing differs between tracks
// (Curves/BezierLanes.swift): many distinct cubic-bezier curves, each at its own progress,
// solved side by side, compiled for the widest vector instruction set the processor has,
// chosen at run time (see spring_step.c for why this is C).
//
// Each lane solves x(t) = u by Halley's method from t = u (cubic convergence: three steps
// take a typical curve from an error of 0.1 to rounding), each step clamped to [0, 1], for
// a fixed number of steps with no test between them, then takes one Newton step and y there.
// The lane is certified when the error that last step can leave in y (its quadratic term
// from the curvature of x, plus the residual's rounding, times |y'|) plus the rounding of y
// itself is at most LANE_TOLERANCE; the test is multiplied through by x' (> 0), so it costs
// no division. Lanes that are not certified are reported; the caller gathers them for a
// second pass with LANE_RETRY_STEPS steps (kinetic_simd_bezier_lanes_retry) and solves the
// rest exactly.
//
// A caller that solves the same curves at many progresses (a keyframe batch at a shared
// progress, frame after frame) prepares each curve's coefficients, rounding bounds and
// identity mark once (kinetic_simd_bezier_lanes_prepare) and passes those planes instead
// (kinetic_simd_bezier_lanes_shared_prepared): the same solve from the same values, so the
// same bits, without recomputing them per lane and call.
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

// One call's arguments: the control-point planes, the progress (per lane, or `shared_u` for
// every lane when `shared`), and the outputs; or, when `prepared`, the eight prepared planes
// at x1, `stride` apart, with `shared_u` for every lane.
typedef struct {
    const double *x1, *y1, *x2, *y2, *u;
    double shared_u;
    int shared;
    // Whether this is the second pass (LANE_RETRY_STEPS; per-lane progress).
    int retry;
    int prepared;
    long stride;
    double *w;
    unsigned char *ok;
    long n;
} lanes_call;

// The prepared planes of a block from its control points (the block from control points computes them
// with LANES_ABS the vector absolute value; kinetic_simd_bezier_lanes_prepare, one lane at a
// time, with fabs: the same values).
#define LANES_PREPARE(V, x1, y1, x2, y2)                                                              \
    V cx = 3 * (x1), bx = 3 * ((x2) - (x1)) - cx, ax = 1 - cx - bx;                                   \
    V cy = 3 * (y1), by = 3 * ((y2) - (y1)) - cy, ay = 1 - cy - by;                                   \
    V xr = 0x1p-50 * (LANES_ABS(ax) + LANES_ABS(bx) + LANES_ABS(cx));                                 \
    V yr = 0x1p-50 * (LANES_ABS(ay) + LANES_ABS(by) + LANES_ABS(cy));


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
    const lanes_call c = {x1, y1, x2, y2, u, 0, 0, 0, 0, 0, w, ok, n};
    bezier_lanes(path, &c);
}

void kinetic_simd_bezier_lanes_retry(int path, const double *x1, const double *y1, const double *x2, const double *y2,
                                     const double *u, double *w, unsigned char *ok, long n) {
    const lanes_call c = {x1, y1, x2, y2, u, 0, 0, 1, 0, 0, w, ok, n};
    bezier_lanes(path, &c);
}

void kinetic_simd_bezier_lanes_shared(int path, const double *x1, const double *y1, const double *x2,
                                      const double *y2, double u, double *w, unsigned char *ok, long n) {
    const lanes_call c = {x1, y1, x2, y2, 0, u, 1, 0, 0, 0, w, ok, n};
    bezier_lanes(path, &c);
}

void kinetic_simd_bezier_lanes_prepare(const double *x1, const double *y1, const double *x2, const double *y2,
                                       double *planes, long stride, long n) {
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
    }
#undef LANES_ABS
}

void kinetic_simd_bezier_lanes_shared_prepared(int path, const double *planes, long stride, double u, double *w,
                                               unsigned char *ok, long n) {
    const lanes_call c = {planes, 0, 0, 0, 0, u, 1, 0, 1, stride, w, ok, n};
    bezier_lanes(path, &c);
}
