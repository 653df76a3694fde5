// The lanes that a batch-table call leaves on a flagged segment of the solve table (Kinetic's
// Curves/BezierBatch.swift, flaggedBatchValues): Newton's method on x(t) from the segment's
// quintic guess without its last term, certified by Taylor's remainder, for all of them at
// once, compiled for the widest vector instruction set the processor has, chosen at run time
// (see spring_step.c for why this is C).
//
// Three passes over the lanes: the look-up and the guess; the Newton steps, one pass per step
// over every lane, until none is still stepping; the output. Each lane's arithmetic is the
// one BezierBatch.swift describes (flaggedBatchValues; it replaced a Swift loop over the
// lanes, step for step the same but for the convergence band's form, below), every operation
// correctly rounded, with contraction off (here and in the look-up), so every path gives the
// same bits.
#include "bezier_locate.h"

#pragma clang fp contract(off)

static inline __attribute__((always_inline)) double newton_magnitude(double v) { return v < 0 ? -v : v; }

// One half's constants.
typedef struct {
    double ax, bx, cx, h, scale, offset, kay, kby, kcy, yfactor;
    uint64_t root;
} newton_half;

static newton_half newton_read_half(const double *p, int scaled) {
    newton_half h;
    h.ax = p[KINETIC_BEZIER_AX]; h.bx = p[KINETIC_BEZIER_BX]; h.cx = p[KINETIC_BEZIER_CX];
    h.h = p[KINETIC_BEZIER_H]; h.scale = p[KINETIC_BEZIER_SCALE]; h.offset = p[KINETIC_BEZIER_OFFSET];
    h.kay = p[KINETIC_BEZIER_KAY]; h.kby = p[KINETIC_BEZIER_KBY]; h.kcy = p[KINETIC_BEZIER_KCY];
    // Multiplying by 1 is exact: unscaled curves take the same formula.
    h.yfactor = scaled ? newton_magnitude(p[KINETIC_BEZIER_YSIGN]) : 1.0;
    memcpy(&h.root, &p[KINETIC_BEZIER_ROOTMASK], sizeof h.root);
    return h;
}

// Lanes per round of the three passes (their state lives on the stack).
enum { NEWTON_CHUNK = 256 };

// A lane's state: stepping, converged (its t is the result), or left to the caller.
#define NEWTON_STEPPING 0.0
#define NEWTON_CONVERGED 1.0
#define NEWTON_LEFT 2.0

typedef struct {
    const double *doubles;
    const unsigned char *bytes;
    newton_half lo, hi;
    const double *x;
    double *y;
    unsigned char *left;
    long n;
} newton_call;

// Pass 1: each lane's half, its range [lo, hi] in the half's parameter (the segment's; the
// last segment ends at 1 exactly), its target and its start: the guess, or the middle of
// the range when the guess is outside it. Lanes the table's solve skips, and lanes whose
// segment is not flagged (c5 is NaN on a flagged one), are left.
static inline __attribute__((always_inline))
void newton_start(const double *restrict d, const unsigned char *restrict bytes, const newton_half lo,
                  const newton_half hi, const double *restrict xs, double *restrict t, double *restrict low,
                  double *restrict high, double *restrict target, double *restrict upper, double *restrict state,
                  const long n, const int compares, const int root) {
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        bezier_locus l = bezier_locate(d, bytes, xs[i], lo.scale, hi.scale, lo.root, hi.root, compares, root);
        const double *c = d + l.base + KINETIC_BEZIER_COEF + KINETIC_BEZIER_COEF_STRIDE * l.segment;
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
        state[i] = (l.skip | !flagged) ? NEWTON_LEFT : NEWTON_STEPPING;
    }
}

// Pass 2, one step: a stepping lane steps only where x′ ≥ 0.05 and the step stays in its
// range (otherwise it is left), and converges once Taylor's remainder bounds what the step
// leaves: x is a cubic, so after the step the residual is x″(t)·δ²/2 − ax·δ³ exactly, which
// moves the root by at most twice that over x′ while x′ stays above half its value within
// twice the step of the old t; taken once that is below 2^-51 of t, or of 1/x′. Returns the
// number of lanes still stepping.
static inline __attribute__((always_inline))
long newton_step(const newton_half lo, const newton_half hi, double *restrict t, const double *restrict low,
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
        double size = newton_magnitude(delta), curvature = newton_magnitude(6 * ax * ti + 2 * bx);
        double cubic = newton_magnitude(ax);
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
// sign); every other lane is left.
static inline __attribute__((always_inline))
long newton_finish(const newton_half lo, const newton_half hi, const double *restrict t, const double *restrict upper,
                   const double *restrict state, double *restrict ys, unsigned char *restrict left, const long n) {
    long marked = 0;
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        int second = upper[i] != 0;
        double kay = second ? hi.kay : lo.kay, kby = second ? hi.kby : lo.kby, kcy = second ? hi.kcy : lo.kcy;
        double ti = t[i];
        double y = ((kay * ti + kby) * ti + kcy) * ti;
        y = y * (second ? hi.yfactor : lo.yfactor);
        ys[i] = (second ? hi.offset : lo.offset) + y;
        int out = state[i] != NEWTON_CONVERGED;
        left[i] = (unsigned char)out;
        marked += out;
    }
    return marked;
}

static inline __attribute__((always_inline))
long newton_run(const newton_call *c, const int compares, const int root) {
    double t[NEWTON_CHUNK], low[NEWTON_CHUNK], high[NEWTON_CHUNK], target[NEWTON_CHUNK], upper[NEWTON_CHUNK],
        state[NEWTON_CHUNK];
    long marked = 0;
    for (long start = 0; start < c->n; start += NEWTON_CHUNK) {
        long n = c->n - start < NEWTON_CHUNK ? c->n - start : NEWTON_CHUNK;
        newton_start(c->doubles, c->bytes, c->lo, c->hi, c->x + start, t, low, high, target, upper, state, n,
                     compares, root);
        for (int step = 0; step < KINETIC_BEZIER_NEWTON_STEPS; step++) {
            if (newton_step(c->lo, c->hi, t, low, high, target, upper, state, n) == 0) break;
        }
        marked += newton_finish(c->lo, c->hi, t, upper, state, c->y + start, c->left + start, n);
    }
    return marked;
}

static inline __attribute__((always_inline)) long newton_dispatch(const newton_call *c, int compares, int root) {
    if (compares <= 2) return root ? newton_run(c, 2, 1) : newton_run(c, 2, 0);
    return root ? newton_run(c, 4, 1) : newton_run(c, 4, 0);
}

// The paths: baseline (128-bit vectors), AVX2 and AVX-512.
static long bezier_newton_baseline(const newton_call *c, int compares, int root) {
    return newton_dispatch(c, compares, root);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long bezier_newton_avx2(const newton_call *c, int compares, int root) {
    return newton_dispatch(c, compares, root);
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx2")))
static long bezier_newton_avx512(const newton_call *c, int compares, int root) {
    return newton_dispatch(c, compares, root);
}
#endif

long kinetic_simd_bezier_newton(int path, const void *table, const double *x, double *y, unsigned char *left,
                               long n) {
    const unsigned char *t = (const unsigned char *)table;
    long steps;
    memcpy(&steps, t, sizeof steps);
    if (steps > 4) return -1;
    unsigned char flags = t[8];
    int root = flags & 1, scaled = (flags >> 2) & 1;
    newton_call c;
    c.doubles = (const double *)(t + KINETIC_BEZIER_HEADER_BYTES);
    c.bytes = t + KINETIC_BEZIER_BYTES_OFFSET;
    c.lo = newton_read_half(c.doubles, scaled);
    c.hi = newton_read_half(c.doubles + KINETIC_BEZIER_HALF_STRIDE, scaled);
    c.x = x;
    c.y = y;
    c.left = left;
    c.n = n;
    int compares = (int)steps;
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX512 && kinetic_simd_has_avx512()) return bezier_newton_avx512(&c, compares, root);
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) return bezier_newton_avx2(&c, compares, root);
#endif
    (void)path;
    return bezier_newton_baseline(&c, compares, root);
}
