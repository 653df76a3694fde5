// What the batch kernels that read a curve's solve table (bezier_solve.c, bezier_newton.c)
// share: a half's constants, the look-up for one lane (Kinetic's BezierKernel.half, segment
// and variable) and the solve's value there (BezierKernel.solve), operation for operation.
// Inlined into each kernel's loop, which they leave vectorisable.
#ifndef KINETIC_BEZIER_LOCATE_H
#define KINETIC_BEZIER_LOCATE_H

#include "kinetic_simd.h"
#include <stdint.h>
#include <string.h>

// The bucket's rounding (estimate · scale + 1.5·2^52) must not fuse into one multiply-add:
// Kinetic's BezierKernel.bucket, from which the bucket map is built, rounds twice.
#pragma clang fp contract(off)

static inline __attribute__((always_inline)) double locate_magnitude(double v) { return v < 0 ? -v : v; }

static inline __attribute__((always_inline)) uint64_t locate_bits(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static inline __attribute__((always_inline)) double locate_double(uint64_t b) {
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

// Where one x falls in the table: its half, its position in the half (x, or 1 − x), whether
// the table's solve skips it (outside [0, 1], NaN, or within the end threshold; such a lane is
// located at 1/4 instead, so that its loads stay inside the table), its segment and its
// interpolation variable (x, or √x in a √x half).
typedef struct {
    int upper, skip;
    double xx, v;
    long base, segment;
} bezier_locus;

// `scale_*` and `root_*`: each half's bucket scale and √x mask. `compares`: nodes compared
// after the bucket's first segment (at least the table's step count; the map is exact, so any
// extra comparison reads a node of a later bucket or a sentinel, both above x, and counts
// nothing). `root`: whether either half interpolates in √x.
static inline __attribute__((always_inline))
bezier_locus bezier_locate(const double *d, const unsigned char *bytes, double x,
                           double scale_lo, double scale_hi, uint64_t root_lo, uint64_t root_hi,
                           const int compares, const int root) {
    bezier_locus l;
    int inside = (x >= 0) & (x <= 1);
    l.upper = x > 0.5;
    // x, or 1 − x (exact for x in [1/2, 1]).
    double xx = l.upper ? 1 - x : x;
    int near = xx < KINETIC_BEZIER_END_THRESHOLD;
    l.skip = !inside | near;
    xx = l.skip ? 0.25 : xx;
    double scale = l.upper ? scale_hi : scale_lo;
    // The bucket from x, or from the bit-trick estimate of √x in a √x half; the segment
    // from the nodes' progress; the variable (x or √x) only for the guess.
    double v = xx, estimate = xx;
    if (root) {
        uint64_t mask = l.upper ? root_hi : root_lo;
        // kinetic_simd_root_estimate's bit trick, written out: that helper's two-lane
        // vectors keep the loop from vectorising.
        uint64_t bits = locate_bits(xx);
        estimate = locate_double((((bits >> 1) + (uint64_t)KINETIC_BEZIER_ROOT_BIAS) & mask) | (bits & ~mask));
        double r = __builtin_elementwise_sqrt(xx);
        v = locate_double((locate_bits(r) & mask) | (bits & ~mask));
    }
    l.base = l.upper ? KINETIC_BEZIER_HALF_STRIDE : 0;
    double rounded = estimate * scale + 0x1.8p52;
    long j = (long)(locate_bits(rounded) & 0x3FF);
    j = j < KINETIC_BEZIER_BUCKETS - 1 ? j : KINETIC_BEZIER_BUCKETS - 1;
    long first = bytes[(l.upper ? KINETIC_BEZIER_BUCKETS : 0) + j];
    const double *nodes = d + l.base + KINETIC_BEZIER_NODES;
    long count = 0;
#pragma clang loop unroll(full)
    for (int k = 1; k <= compares; k++) count += nodes[first + k] <= xx;
    l.segment = first + count;
    l.xx = xx;
    l.v = v;
    return l;
}

// One half's constants, read once per call.
typedef struct {
    double ax, bx, cx, ax3, bx2, scale, offset, h;
    double kay, kby, kcy, ay3, by2, ax6, ay6, yfactor;
    uint64_t root, second;
} bezier_half;

static inline bezier_half bezier_read_half(const double *p, int scaled) {
    bezier_half h;
    h.ax = p[KINETIC_BEZIER_AX]; h.bx = p[KINETIC_BEZIER_BX]; h.cx = p[KINETIC_BEZIER_CX];
    h.ax3 = p[KINETIC_BEZIER_AX3]; h.bx2 = p[KINETIC_BEZIER_BX2]; h.scale = p[KINETIC_BEZIER_SCALE];
    h.offset = p[KINETIC_BEZIER_OFFSET]; h.h = p[KINETIC_BEZIER_H];
    h.kay = p[KINETIC_BEZIER_KAY]; h.kby = p[KINETIC_BEZIER_KBY]; h.kcy = p[KINETIC_BEZIER_KCY];
    h.ay3 = p[KINETIC_BEZIER_AY3]; h.by2 = p[KINETIC_BEZIER_BY2];
    h.ax6 = p[KINETIC_BEZIER_AX6]; h.ay6 = p[KINETIC_BEZIER_AY6];
    // Multiplying by 1 is exact: unscaled curves take the same formula.
    h.yfactor = scaled ? locate_magnitude(p[KINETIC_BEZIER_YSIGN]) : 1.0;
    h.root = locate_bits(p[KINETIC_BEZIER_ROOTMASK]);
    h.second = locate_bits(p[KINETIC_BEZIER_SECONDORDER]);
    return h;
}

// The solve at a located lane whose segment's record is at `c`: the segment's quintic guess
// by Estrin's scheme and one Newton step folded into y, with the second-order term where the
// segment's bit asks for it (`second`: whether any segment does). The result is y before the
// half's output factor and offset; it is not finite on a flagged segment (c5 is NaN there).
static inline __attribute__((always_inline))
double bezier_solve_value(const double *d, const bezier_locus l, const double *c, const bezier_half lo,
                          const bezier_half hi, const int second) {
    int upper = l.upper;
    double xx = l.xx;
    double ax = upper ? hi.ax : lo.ax, bx = upper ? hi.bx : lo.bx, cx = upper ? hi.cx : lo.cx;
    double ax3 = upper ? hi.ax3 : lo.ax3, bx2 = upper ? hi.bx2 : lo.bx2;
    double dd = l.v - d[l.base + KINETIC_BEZIER_VNODES + l.segment];
    double d2 = dd * dd;
    double s = ((c[0] + c[1] * dd) + d2 * (c[2] + c[3] * dd)) + (d2 * d2) * (c[4] + c[5] * dd);
    double dxds = (ax3 * s + bx2) * s + cx;
    double delta = ((cx * s - xx) + (s * s) * (ax * s + bx)) / dxds;
    double kay = upper ? hi.kay : lo.kay, kby = upper ? hi.kby : lo.kby, kcy = upper ? hi.kcy : lo.kcy;
    double ay3 = upper ? hi.ay3 : lo.ay3, by2 = upper ? hi.by2 : lo.by2;
    double dyds = (ay3 * s + by2) * s + kcy;
    double y = ((kay * s + kby) * s + kcy) * s - dyds * delta;
    if (second) {
        double ax6 = upper ? hi.ax6 : lo.ax6, ay6 = upper ? hi.ay6 : lo.ay6;
        uint64_t word = upper ? hi.second : lo.second;
        double bend = (ax6 * s + bx2) / dxds;
        double term = (delta * delta) * (0.5 * ((ay6 * s + by2) - dyds * bend));
        uint64_t mask = 0 - ((word >> (uint64_t)l.segment) & 1);
        y += locate_double(locate_bits(term) & mask);
    }
    return y;
}

// One call of a kernel that reads the solve table: the table's doubles and bucket maps, both
// halves' constants, the table's flags, and the call's arrays (`marks`: the lanes left).
typedef struct {
    const double *doubles;       // both halves' doubles
    const unsigned char *bytes;  // both halves' bucket maps
    bezier_half lo, hi;
    int compares, root, second;
    const double *x;
    double *y;
    unsigned char *marks;
    long n;
} bezier_call;

// Reads the table's header into `c`: 0, or -1 when its step count is above 4 (the kernels
// compare at most four nodes after the bucket's first segment).
static inline int bezier_open_call(bezier_call *c, const void *table, const double *x, double *y,
                                   unsigned char *marks, long n) {
    const unsigned char *t = (const unsigned char *)table;
    long steps;
    memcpy(&steps, t, sizeof steps);
    if (steps > 4) return -1;
    unsigned char flags = t[8];
    int scaled = (flags >> 2) & 1;
    c->root = flags & 1;
    c->second = (flags >> 1) & 1;
    c->compares = (int)steps;
    c->doubles = (const double *)(t + KINETIC_BEZIER_HEADER_BYTES);
    c->bytes = t + KINETIC_BEZIER_BYTES_OFFSET;
    c->lo = bezier_read_half(c->doubles, scaled);
    c->hi = bezier_read_half(c->doubles + KINETIC_BEZIER_HALF_STRIDE, scaled);
    c->x = x;
    c->y = y;
    c->marks = marks;
    c->n = n;
    return 0;
}

// Runs `run(c, compares, root, second)` with the call's flags as constants (each combination
// inlined, so the loops are compiled for it): at most 2 or 4 node comparisons, √x or not,
// the second-order term or not.
#define BEZIER_DISPATCH(run, c) \
    ((c)->compares <= 2 \
         ? ((c)->root ? ((c)->second ? run(c, 2, 1, 1) : run(c, 2, 1, 0)) \
                      : ((c)->second ? run(c, 2, 0, 1) : run(c, 2, 0, 0))) \
         : ((c)->root ? ((c)->second ? run(c, 4, 1, 1) : run(c, 4, 1, 0)) \
                      : ((c)->second ? run(c, 4, 0, 1) : run(c, 4, 0, 0))))

#endif
