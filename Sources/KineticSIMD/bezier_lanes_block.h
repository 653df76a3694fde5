// The lane solver's block and loops for one block size (bezier_lanes.c), included once per
// size with LANE_BLOCK defined: every name here carries the size as a suffix. It uses what
// bezier_lanes.c defines before including it (lanes_call, LANES_PREPARE, lanes_knot_weights,
// LANE_STEPS, LANE_RETRY_STEPS, LANE_TOLERANCE, LANE_KNOTS, LANE_KNOT_PLANE, LANE_KNOT_STEPS,
// <string.h>) and undefines its own macros at the end.
#ifndef LANE_BLOCK
#error "define LANE_BLOCK before including bezier_lanes_block.h"
#endif

#define LANES_CAT_(a, b) a##b
#define LANES_CAT(a, b) LANES_CAT_(a, b)
// Each name below becomes itself with the block size appended (lanes_block16, lanes_vd32).
#define lanes_vd LANES_CAT(lanes_vd, LANE_BLOCK)
#define lanes_vdu LANES_CAT(lanes_vdu, LANE_BLOCK)
#define lanes_vm LANES_CAT(lanes_vm, LANE_BLOCK)
#define lanes_vb LANES_CAT(lanes_vb, LANE_BLOCK)
#define lanes_block LANES_CAT(lanes_block, LANE_BLOCK)
#define lanes_solve LANES_CAT(lanes_solve, LANE_BLOCK)
#define lanes_block_prepared LANES_CAT(lanes_block_prepared, LANE_BLOCK)
#define lanes_loop_prepared LANES_CAT(lanes_loop_prepared, LANE_BLOCK)
#define lanes_loop LANES_CAT(lanes_loop, LANE_BLOCK)
#define lanes_block_inverse LANES_CAT(lanes_block_inverse, LANE_BLOCK)
#define lanes_loop_inverse LANES_CAT(lanes_loop_inverse, LANE_BLOCK)
#define lanes_run LANES_CAT(lanes_run, LANE_BLOCK)

typedef double lanes_vd __attribute__((ext_vector_type(LANE_BLOCK)));
// The same vector at 8-byte alignment, for loads and stores at any lane.
typedef double lanes_vdu __attribute__((ext_vector_type(LANE_BLOCK), aligned(8)));
typedef __typeof__((lanes_vd)0 < (lanes_vd)0) lanes_vm;
typedef unsigned char lanes_vb __attribute__((ext_vector_type(LANE_BLOCK)));

// The solve of one block of LANE_BLOCK lanes from the power-form coefficients, xr = 2^-50·(|ax| +
// |bx| + |cx|), and yrs = ±2^-50·(|ay| + |by| + |cy|), negative for the identity curve (whose
// sum is > 0, as y(1) = 1 for it, so the sign is never that of a zero): `steps` Halley steps
// from t = `guess` (for lanes with u in [0, 1]), then the certified Newton step. Control
// points are in [0, 1] for x (CubicBezier checks), so no coefficient overflows.
static inline __attribute__((always_inline))
void lanes_solve(lanes_vd ax, lanes_vd bx, lanes_vd cx, lanes_vd ay, lanes_vd by, lanes_vd cy, lanes_vd xr,
                 lanes_vd yrs, lanes_vd u, lanes_vd guess, int steps, double *wp, unsigned char *okp) {
    lanes_vd ax3 = 3 * ax, bx2 = 2 * bx;
    lanes_vm inside = (u >= 0) & (u <= 1);
    // Outside [0, 1] the lane is reported; it runs inside so that nothing overflows.
    lanes_vd target = inside ? u : (lanes_vd)0.5;
    lanes_vd t = inside ? guess : target;
#pragma clang loop unroll(full)
    for (int k = 0; k < steps; k++) {
        lanes_vd f = ((ax * t + bx) * t + cx) * t - target;
        lanes_vd d = (ax3 * t + bx2) * t + cx;
        lanes_vd half = ax3 * t + bx;  // x''/2
        // t − f·x' / (x'² − f·x''/2). A NaN step (x' = 0 at a root) falls to the clamp's
        // lower end and the lane is left to the certificate.
        lanes_vd next = t - (f * d) / (d * d - f * half);
        next = next > 0 ? next : (lanes_vd)0;
        t = next < 1 ? next : (lanes_vd)1;
    }
    lanes_vd f = ((ax * t + bx) * t + cx) * t - target;
    lanes_vd d = (ax3 * t + bx2) * t + cx;
    lanes_vd delta = f / d;
    lanes_vd s = t - delta;
    lanes_vd w = ((ay * s + by) * s + cy) * s;
    lanes_vd bend = __builtin_elementwise_abs(2 * ax3 * t + bx2);
    lanes_vd rounding = xr + 0x1p-50 * target;
    // The error in t that the step can leave, times x' (= d > 0 where certified).
    lanes_vd errorTd = bend * delta * delta * 0.5 + rounding;
    lanes_vd dy = __builtin_elementwise_abs((3 * ay * s + 2 * by) * s + cy);
    // The rounding of y itself (Horner's rule in the power form, whose terms can cancel where
    // the y control values are large).
    lanes_vd yRounding = __builtin_elementwise_abs(yrs);
    lanes_vm ok = inside & (d > 0) & (__builtin_elementwise_abs(delta) <= 0x1p-20)
                  & (dy * errorTd + yRounding * d <= LANE_TOLERANCE * d);
    // Exact ends and the identity.
    lanes_vm identity = yrs < 0;
    w = identity ? u : w;
    w = u == 0 ? (lanes_vd)0 : w;
    w = u == 1 ? (lanes_vd)1 : w;
    ok = ok | (identity & inside) | (u == 0) | (u == 1);
    *(lanes_vdu *)wp = w;
    lanes_vb okb = __builtin_convertvector(ok & 1, lanes_vb);
    memcpy(okp, &okb, sizeof okb);
}

// One block of LANE_BLOCK lanes from control-point planes at pointers that may be unaligned;
// u is `shared_u` for every lane when `shared`.
static inline __attribute__((always_inline))
void lanes_block(const double *x1p, const double *y1p, const double *x2p, const double *y2p,
                 const double *up, double shared_u, int shared, int steps, double *wp, unsigned char *okp) {
    lanes_vd x1 = *(const lanes_vdu *)x1p, y1 = *(const lanes_vdu *)y1p;
    lanes_vd x2 = *(const lanes_vdu *)x2p, y2 = *(const lanes_vdu *)y2p;
    lanes_vd u = shared ? (lanes_vd)shared_u : *(const lanes_vdu *)up;
#define LANES_ABS(v) __builtin_elementwise_abs(v)
    LANES_PREPARE(lanes_vd, x1, y1, x2, y2)
#undef LANES_ABS
    lanes_vm identity = (x1 == y1) & (x2 == y2);
    lanes_vd yrs = identity ? -yr : yr;
    lanes_solve(ax, bx, cx, ay, by, cy, xr, yrs, u, u, steps, wp, okp);
}

// One block of t(u) (x(t) = u) from the x control points, every lane at `u`: the solve with
// y(t) = t (power form 0, 0, 1), LANE_RETRY_STEPS steps from t = u. For the prepared knots.
static inline __attribute__((always_inline))
void lanes_block_inverse(const double *x1p, const double *x2p, double u, double *wp, unsigned char *okp) {
    lanes_vd x1 = *(const lanes_vdu *)x1p, x2 = *(const lanes_vdu *)x2p, y1 = 0, y2 = 0;
#define LANES_ABS(v) __builtin_elementwise_abs(v)
    LANES_PREPARE(lanes_vd, x1, y1, x2, y2)
#undef LANES_ABS
    (void)ay; (void)by; (void)cy; (void)yr;
    lanes_solve(ax, bx, cx, (lanes_vd)0, (lanes_vd)0, (lanes_vd)1, xr, (lanes_vd)0x1p-50, (lanes_vd)u, (lanes_vd)u,
                LANE_RETRY_STEPS, wp, okp);
}

// lanes_block_inverse over n lanes, the remainder padded with x(t) = t.
static inline __attribute__((always_inline))
void lanes_loop_inverse(const double *x1, const double *x2, double u, double *w, unsigned char *ok, long n) {
    long i = 0;
    for (; i + LANE_BLOCK <= n; i += LANE_BLOCK) lanes_block_inverse(x1 + i, x2 + i, u, w + i, ok + i);
    long rest = n - i;
    if (rest <= 0) return;
    double px1[LANE_BLOCK], px2[LANE_BLOCK], pw[LANE_BLOCK];
    unsigned char pok[LANE_BLOCK];
    for (int k = 0; k < LANE_BLOCK; k++) { px1[k] = 1.0 / 3; px2[k] = 2.0 / 3; }
    memcpy(px1, x1 + i, (size_t)rest * sizeof(double));
    memcpy(px2, x2 + i, (size_t)rest * sizeof(double));
    lanes_block_inverse(px1, px2, u, pw, pok);
    memcpy(w + i, pw, (size_t)rest * sizeof(double));
    memcpy(ok + i, pok, (size_t)rest);
}

// One block from the prepared planes at `p` (`stride` apart), every lane at `u`, which lies in
// knot interval `knot` with Hermite basis weights `h` (lanes_loop_prepared): the start is each
// curve's cubic Hermite interpolant of t(x) there, from its knots' t and slopes.
static inline __attribute__((always_inline))
void lanes_block_prepared(const double *p, long stride, double u, long knot, const double h[4], double *wp,
                          unsigned char *okp) {
    const double *k = p + (LANE_KNOT_PLANE + 2 * knot) * stride;
    lanes_vd t0 = *(const lanes_vdu *)k, m0 = *(const lanes_vdu *)(k + stride);
    lanes_vd t1 = *(const lanes_vdu *)(k + 2 * stride), m1 = *(const lanes_vdu *)(k + 3 * stride);
    lanes_vd guess = (h[0] * t0 + h[1] * m0) + (h[2] * t1 + h[3] * m1);
    lanes_solve(*(const lanes_vdu *)p, *(const lanes_vdu *)(p + stride), *(const lanes_vdu *)(p + 2 * stride),
                *(const lanes_vdu *)(p + 3 * stride), *(const lanes_vdu *)(p + 4 * stride),
                *(const lanes_vdu *)(p + 5 * stride), *(const lanes_vdu *)(p + 6 * stride),
                *(const lanes_vdu *)(p + 7 * stride), (lanes_vd)u, guess, LANE_KNOT_STEPS, wp, okp);
}

// The prepared planes' loop: full blocks, then the remainder padded with the linear curve.
static inline __attribute__((always_inline))
void lanes_loop_prepared(const double *p, long stride, double u, double *w, unsigned char *ok, long n) {
    long knot;
    double h[4];
    lanes_knot_weights(u, &knot, h);
    long i = 0;
    for (; i + LANE_BLOCK <= n; i += LANE_BLOCK) lanes_block_prepared(p + i, stride, u, knot, h, w + i, ok + i);
    long rest = n - i;
    if (rest <= 0) return;
    double pad[KINETIC_SIMD_BEZIER_LANES_PREPARED_PLANES * LANE_BLOCK] = {0}, pw[LANE_BLOCK];
    unsigned char pok[LANE_BLOCK];
    for (int k = 0; k < LANE_BLOCK; k++) {
        pad[2 * LANE_BLOCK + k] = 1;                // cx
        pad[5 * LANE_BLOCK + k] = 1;                // cy
        pad[6 * LANE_BLOCK + k] = 0x1p-50;          // xr
        pad[7 * LANE_BLOCK + k] = -0x1p-50;         // yrs: the identity
        for (int j = 0; j <= LANE_KNOTS; j++) {     // x(t) = t: knots at j/N, slopes 1/N
            pad[(LANE_KNOT_PLANE + 2 * j) * LANE_BLOCK + k] = (double)j / LANE_KNOTS;
            pad[(LANE_KNOT_PLANE + 2 * j + 1) * LANE_BLOCK + k] = 1.0 / LANE_KNOTS;
        }
    }
    for (int plane = 0; plane < KINETIC_SIMD_BEZIER_LANES_PREPARED_PLANES; plane++) {
        memcpy(pad + plane * LANE_BLOCK, p + plane * stride + i, (size_t)rest * sizeof(double));
    }
    lanes_block_prepared(pad, LANE_BLOCK, u, knot, h, pw, pok);
    memcpy(w + i, pw, (size_t)rest * sizeof(double));
    memcpy(ok + i, pok, (size_t)rest);
}

static inline __attribute__((always_inline))
void lanes_loop(const double *x1, const double *y1, const double *x2, const double *y2, const double *u,
                double shared_u, int shared, int steps, double *w, unsigned char *ok, long n) {
    long i = 0;
    for (; i + LANE_BLOCK <= n; i += LANE_BLOCK) {
        lanes_block(x1 + i, y1 + i, x2 + i, y2 + i, shared ? u : u + i, shared_u, shared, steps, w + i, ok + i);
    }
    long rest = n - i;
    if (rest <= 0) return;
    // The remainder as one block, padded with the linear curve at u = 0 (lanes are
    // independent, so the real ones get the bits they would get in a full block).
    double px1[LANE_BLOCK] = {0}, py1[LANE_BLOCK] = {0}, px2[LANE_BLOCK], py2[LANE_BLOCK];
    double pu[LANE_BLOCK] = {0}, pw[LANE_BLOCK];
    unsigned char pok[LANE_BLOCK];
    for (int k = 0; k < LANE_BLOCK; k++) { px2[k] = 1; py2[k] = 1; }
    memcpy(px1, x1 + i, (size_t)rest * sizeof(double));
    memcpy(py1, y1 + i, (size_t)rest * sizeof(double));
    memcpy(px2, x2 + i, (size_t)rest * sizeof(double));
    memcpy(py2, y2 + i, (size_t)rest * sizeof(double));
    if (!shared) memcpy(pu, u + i, (size_t)rest * sizeof(double));
    lanes_block(px1, py1, px2, py2, pu, shared_u, shared, steps, pw, pok);
    memcpy(w + i, pw, (size_t)rest * sizeof(double));
    memcpy(ok + i, pok, (size_t)rest);
}

// The loop for either kind of progress, inlined into each path below, where `shared` is
// split so that each copy of the loop has its progress fixed.
static inline __attribute__((always_inline))
void lanes_run(const lanes_call *c) {
    if (c->inverse) lanes_loop_inverse(c->x1, c->x2, c->shared_u, c->w, c->ok, c->n);
    else if (c->prepared) lanes_loop_prepared(c->x1, c->stride, c->shared_u, c->w, c->ok, c->n);
    else if (c->retry) lanes_loop(c->x1, c->y1, c->x2, c->y2, c->u, 0, 0, LANE_RETRY_STEPS, c->w, c->ok, c->n);
    else if (c->shared) lanes_loop(c->x1, c->y1, c->x2, c->y2, c->u, c->shared_u, 1, LANE_STEPS, c->w, c->ok, c->n);
    else lanes_loop(c->x1, c->y1, c->x2, c->y2, c->u, 0, 0, LANE_STEPS, c->w, c->ok, c->n);
}

#undef lanes_vd
#undef lanes_vdu
#undef lanes_vm
#undef lanes_vb
#undef lanes_block
#undef lanes_solve
#undef lanes_block_prepared
#undef lanes_loop_prepared
#undef lanes_loop
#undef lanes_block_inverse
#undef lanes_loop_inverse
#undef lanes_run
#undef LANES_CAT
#undef LANES_CAT_
