// The batch evaluation of one cubic-bezier curve through its batch table (Kinetic's
// Curves/BezierBatchTable.swift): the eased value as a piecewise polynomial in v = x or √x,
// a segment per lane found by arithmetic, compiled for the widest vector instruction set the
// processor has, chosen at run time (see spring_step.c for why this is C).
//
// Each lane takes its half (x ≤ 1/2, or x > 1/2 mirrored exactly as 1 − x), its variable,
// its segment ⌊v·scale⌋ and the position s in it by the 1.5·2^52 rounding trick, then the
// segment's polynomial by Horner's rule. Lanes left to the caller are marked in `redo`: x
// outside [0, 1] or NaN, the half's progress within the end threshold of an end (but not at
// it: the table gives the ends exactly), and flagged segments, whose NaN coefficient makes
// the result NaN. Contraction is off, so every path gives the same bits.
#include "kinetic_simd.h"
#include <stdint.h>
#include <string.h>

#pragma clang fp contract(off)

static inline __attribute__((always_inline)) uint64_t table_bits(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

typedef struct {
    const double *records;
    double scale;
    long upper_offset;
    const double *x;
    double *y;
    unsigned char *redo;
    long n;
} table_call;

static inline __attribute__((always_inline))
long table_lanes(const double *restrict records, const double scale, const long upper_offset,
                 const double *restrict xs, double *restrict ys, unsigned char *restrict redo, const long n,
                 const int root) {
    long marked = 0;
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        double x = xs[i];
        int inside = (x >= 0) & (x <= 1);
        int upper = x > 0.5;
        double xx = upper ? 1 - x : x;
        xx = inside ? xx : 0;
        double v = root ? __builtin_elementwise_sqrt(xx) : xx;
        double r = v * scale;
        // ⌊r⌋ by rounding r − 1/2 (an integer r may come out one lower, with s = 1: the
        // previous segment's end, which its polynomial covers too).
        double rounded = (r - 0.5) + 0x1.8p52;
        double s = r - (rounded - 0x1.8p52);
        long index = (long)(table_bits(rounded) & 0xFFFF) + (upper ? upper_offset : 0);
        const double *p = records + KINETIC_BEZIER_BATCH_STRIDE * index;
        double y = p[KINETIC_BEZIER_BATCH_DEGREE];
#pragma clang loop unroll(full)
        for (int k = KINETIC_BEZIER_BATCH_DEGREE - 1; k >= 0; k--) y = y * s + p[k];
        int near = (xx < KINETIC_BEZIER_END_THRESHOLD) & (xx != 0);
        ys[i] = y;
        int left = !inside | near | (y != y);
        redo[i] = (unsigned char)left;
        marked += left;
    }
    return marked;
}

static inline __attribute__((always_inline)) long table_run(const table_call *c, int root) {
    if (root) return table_lanes(c->records, c->scale, c->upper_offset, c->x, c->y, c->redo, c->n, 1);
    return table_lanes(c->records, c->scale, c->upper_offset, c->x, c->y, c->redo, c->n, 0);
}

// The paths: baseline (128-bit vectors: SSE2 on x86-64, NEON on arm64) and AVX2.
static long bezier_table_baseline(const table_call *c, int root) { return table_run(c, root); }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long bezier_table_avx2(const table_call *c, int root) { return table_run(c, root); }
#endif

long kinetic_simd_bezier_table(int path, const double *records, double scale, long upper_offset, int root,
                               const double *x, double *y, unsigned char *redo, long n) {
    const table_call c = {records, scale, upper_offset, x, y, redo, n};
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        return bezier_table_avx2(&c, root);
    }
#endif
    (void)path;
    return bezier_table_baseline(&c, root);
}
