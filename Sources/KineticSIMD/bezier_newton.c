// The lanes that a batch-table call leaves (Kinetic's Curves/BezierBatch.swift, redo): on a
// segment of the solve table that is not flagged, the solve kernel's value (bezier_solve.c's
// arithmetic, the same bits); on a flagged segment, Newton's method on x(t) from the
// segment's quintic guess without its last term, certified by Taylor's remainder. All lanes at once, compiled for the widest vector instruction set the processor
// has, chosen at run time (see spring_step.c for why this is C).
//
// Three passes over the lanes: the look-up, the solve's value and the guess; the Newton
// steps, one pass per step over every lane, until none is still stepping; the output. Each
// flagged lane's arithmetic is the one BezierBatch.swift describes (redo; it replaced a Swift
// loop over the lanes, step for step the same but for the convergence band's form, below),
// every operation correctly rounded, with contraction off (here and in the
// shared look-up), so every path gives the same bits.
#include "bezier_locate.h"

#pragma clang fp contract(off)

// Lanes per round of the three passes (their state lives on the stack).
enum { NEWTON_CHUNK = 256 };

// A lane's state: stepping, converged (its t is the result), solved (not flagged: its value
// is the solve's, written in the first pass), or left to the caller.
#define NEWTON_STEPPING 0.0
#define NEWTON_CONVERGED 1.0
#define NEWTON_LEFT 2.0
#define NEWTON_SOLVED 3.0

// Pass 1: each lane's half, its range [lo, hi] in the half's parameter (the segment's; the
// last segment ends at 1 exactly), its target and its start: the guess, or the middle of
// the range when the guess is outside it. A lane whose segment is not flagged (c5 is NaN on a
// flagged one) takes the solve's value instead, left where it is not finite; lanes the
// table's solve skips are left.
static inline __attribute__((always_inline))
void newton_start(const double *restrict d, const unsigned char *restrict bytes, const bezier_half lo,
                  const bezier_half hi, const double *restrict xs, double *restrict ys, double *restrict t,
                  double *restrict low, double *restrict high, double *restrict target, double *restrict upper,
                  double *restrict state, const long n, const int compares, const int root, const int second) {
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        bezier_locus l = bezier_locate(d, bytes, xs[i], lo.scale, hi.scale, lo.root, hi.root, compares, root);
        const double *c = d + l.base + KINETIC_BEZIER_COEF + KINETIC_BEZIER_COEF_STRIDE * l.segment;
        double solved = bezier_solve_value(d, l, c, lo, hi, second);
        int finite = locate_magnitude(solved) <= 0x1.fffffffffffffp1023;
        solved = solved * (l.upper ? hi.yfactor : lo.yfactor);
        ys[i] = (l.upper ? hi.offset : lo.offset) + solved;
        double h = l.upper ? hi.h : lo.h;
        double a = (double)l.segment * h;
        double b = l.segment == KINETIC_BEZIER_SEGMENTS - 1 ? 1.0 : (double)(l.segment + 1) * h;
        double dd = l.v - d[l.base + KINETIC_BEZIER_VNODES + l.segment];
        double guess = (((c[4] * dd + c[3]) * dd + c[2]) * dd + c[1]) * dd + c[0];
        int inside = (guess > a) & (guess < b);
        t[i] = inside ? guess : a + 0.5 * (b - a);
        low[i] = a;
        high[i] = b;
        target[i] = l.xx;
        upper[i] = l.upper ? 1.0 : 0.0;
        int flagged = c[5] != c[5];
        state[i] = l.skip ? NEWTON_LEFT : flagged ? NEWTON_STEPPING : finite ? NEWTON_SOLVED : NEWTON_LEFT;
    }
}

// Pass 2, one step: a stepping lane steps only where x′ ≥ 0.05 and the step stays in its
// range (otherwise it is left), and converges once Taylor's remainder bounds what the step
// leaves: x is a cubic, so after the step the residual is x″(t)·δ²/2 − ax·δ³ exactly, which
// moves the root by at most twice that over x′ while x′ stays above half its value within
// twice the step of the old t; taken once that is below 2^-51 of t, or of 1/x′. Returns the
// number of lanes still stepping.
static inline __attribute__((always_inline))
long newton_step(const bezier_half lo, const bezier_half hi, double *restrict t, const double *restrict low,
                 const double *restrict high, const double *restrict target, const double *restrict upper,
                 double *restrict state, const long n) {
    long stepping = 0;
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        int second = upper[i] != 0;
        double ax = second ? hi.ax : lo.ax, bx = second ? hi.bx : lo.bx, cx = second ? hi.cx : lo.cx;
        double ti = t[i], si = state[i];
        double slope = (3 * ax * ti + 2 * bx) * ti + cx;
        double delta = (((ax * ti + bx) * ti + cx) * ti - target[i]) / slope;
        double next = ti - delta;
        double size = locate_magnitude(delta), curvature = locate_magnitude(6 * ax * ti + 2 * bx);
        double cubic = locate_magnitude(ax);
        int steps = (si == NEWTON_STEPPING) & (slope >= 0.05) & (next >= low[i]) & (next <= high[i]);
        // 2^-52 · x′ · max(t, 1/x′), as 2^-52 · max(x′·t, 1): one division per step, not two
        // (x′ > 0 wherever the lane steps).
        double band = slope * next;
        band = band >= 1 ? band : 1.0;
        int converged = ((curvature + 6 * cubic * size) * (2 * size) <= 0.5 * slope)
                      & ((0.5 * curvature + cubic * size) * (size * size) <= 0x1p-52 * band);
        t[i] = steps ? next : ti;
        double now = steps ? (converged ? NEWTON_CONVERGED : NEWTON_STEPPING) : NEWTON_LEFT;
        state[i] = si == NEWTON_STEPPING ? now : si;
        stepping += state[i] == NEWTON_STEPPING;
    }
    return stepping;
}

// Pass 3: y at each converged lane's t (the kernel's y coefficients carry the half's output
// sign); a solved lane keeps the solve's value; every other lane is left.
static inline __attribute__((always_inline))
long newton_finish(const bezier_half lo, const bezier_half hi, const double *restrict t, const double *restrict upper,
                   const double *restrict state, double *restrict ys, unsigned char *restrict left, const long n) {
    long marked = 0;
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        int second = upper[i] != 0;
        double kay = second ? hi.kay : lo.kay, kby = second ? hi.kby : lo.kby, kcy = second ? hi.kcy : lo.kcy;
        double ti = t[i];
        double y = ((kay * ti + kby) * ti + kcy) * ti;
        y = y * (second ? hi.yfactor : lo.yfactor);
        y = (second ? hi.offset : lo.offset) + y;
        double si = state[i];
        ys[i] = si == NEWTON_CONVERGED ? y : ys[i];
        int out = (si != NEWTON_CONVERGED) & (si != NEWTON_SOLVED);
        left[i] = (unsigned char)out;
        marked += out;
    }
    return marked;
}

static inline __attribute__((always_inline))
long newton_run(const bezier_call *c, const int compares, const int root, const int second) {
    double t[NEWTON_CHUNK], low[NEWTON_CHUNK], high[NEWTON_CHUNK], target[NEWTON_CHUNK], upper[NEWTON_CHUNK],
        state[NEWTON_CHUNK];
    long marked = 0;
    for (long start = 0; start < c->n; start += NEWTON_CHUNK) {
        long n = c->n - start < NEWTON_CHUNK ? c->n - start : NEWTON_CHUNK;
        double *ys = c->y + start;
        newton_start(c->doubles, c->bytes, c->lo, c->hi, c->x + start, ys, t, low, high, target, upper, state, n,
                     compares, root, second);
        for (int step = 0; step < KINETIC_BEZIER_NEWTON_STEPS; step++) {
            if (newton_step(c->lo, c->hi, t, low, high, target, upper, state, n) == 0) break;
        }
        marked += newton_finish(c->lo, c->hi, t, upper, state, ys, c->marks + start, n);
    }
    return marked;
}

// The paths: baseline (128-bit vectors), AVX2 and AVX-512, each with every combination of the
// loops' constants inlined.
static long bezier_newton_baseline(const bezier_call *c) { return BEZIER_DISPATCH(newton_run, c); }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long bezier_newton_avx2(const bezier_call *c) { return BEZIER_DISPATCH(newton_run, c); }

__attribute__((target("avx512f,avx512dq,avx512vl,avx2")))
static long bezier_newton_avx512(const bezier_call *c) { return BEZIER_DISPATCH(newton_run, c); }
#endif

long kinetic_simd_bezier_newton(int path, const void *table, const double *x, double *y, unsigned char *left,
                               long n) {
    bezier_call c;
    if (bezier_open_call(&c, table, x, y, left, n) < 0) return -1;
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX512 && kinetic_simd_has_avx512()) return bezier_newton_avx512(&c);
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) return bezier_newton_avx2(&c);
#endif
    (void)path;
    return bezier_newton_baseline(&c);
}
