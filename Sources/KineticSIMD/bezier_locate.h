// The solve table's look-up for one lane, shared by the batch kernels that read the table
// (bezier_solve.c, bezier_newton.c): Kinetic's BezierKernel.half, segment and variable,
// operation for operation. Inlined into each kernel's loop, which it leaves vectorisable.
#ifndef KINETIC_BEZIER_LOCATE_H
#define KINETIC_BEZIER_LOCATE_H

#include "kinetic_simd.h"
#include <stdint.h>
#include <string.h>

// The bucket's rounding (estimate · scale + 1.5·2^52) must not fuse into one multiply-add:
// Kinetic's BezierKernel.bucket, from which the bucket map is built, rounds twice.
#pragma clang fp contract(off)

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

#endif
