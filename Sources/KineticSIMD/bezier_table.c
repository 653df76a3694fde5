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

// Blocks of four lanes, with their records transposed instead of gathered: each lane's record
// is one 64-byte line (its eight coefficients), loaded as two vectors; two 4 × 4 transposes
// give the vectors of coefficient k over the four lanes, and Horner's rule runs on them in
// the loop's order, so the bits are table_lanes' own. Gathers (eight per four lanes) cost
// several times more than these loads and shuffles.
typedef double table_v4 __attribute__((ext_vector_type(4)));
typedef double table_v4u __attribute__((ext_vector_type(4), aligned(8)));
typedef __typeof__((table_v4)0 < (table_v4)0) table_m4;
typedef unsigned char table_b4 __attribute__((ext_vector_type(4)));

#define TABLE_TRANSPOSE(a, b, c, d, c0, c1, c2, c3) do { \
        table_v4 t0 = __builtin_shufflevector(a, b, 0, 4, 2, 6); \
        table_v4 t1 = __builtin_shufflevector(a, b, 1, 5, 3, 7); \
        table_v4 t2 = __builtin_shufflevector(c, d, 0, 4, 2, 6); \
        table_v4 t3 = __builtin_shufflevector(c, d, 1, 5, 3, 7); \
        c0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5); \
        c1 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5); \
        c2 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7); \
        c3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7); \
    } while (0)

_Static_assert(KINETIC_BEZIER_BATCH_DEGREE == 7 && KINETIC_BEZIER_BATCH_STRIDE == 8,
               "the transposed block reads a record as two vectors of four coefficients");

// One block of four lanes up to Horner's rule: the lanes' flags, position s and the
// transposed coefficients c[0..7] of their records.
typedef struct {
    table_v4 xx, s, c[8];
    table_m4 inside;
} table_block;

static inline __attribute__((always_inline))
void table_load(table_block *restrict out, const double *restrict records, const double scale,
                const long upper_offset, const double *restrict xs, const int root) {
    table_block b;
    table_v4 x = *(const table_v4u *)xs;
    b.inside = (x >= 0) & (x <= 1);
    table_m4 upper = x > 0.5;
    table_v4 xx = upper ? 1 - x : x;
    b.xx = b.inside ? xx : (table_v4)0;
    table_v4 v = root ? __builtin_elementwise_sqrt(b.xx) : b.xx;
    table_v4 r = v * scale;
    table_v4 rounded = (r - 0.5) + 0x1.8p52;
    b.s = r - (rounded - 0x1.8p52);
    table_m4 index = (((table_m4)rounded) & 0xFFFF) + (upper & upper_offset);
    const double *p0 = records + KINETIC_BEZIER_BATCH_STRIDE * index[0];
    const double *p1 = records + KINETIC_BEZIER_BATCH_STRIDE * index[1];
    const double *p2 = records + KINETIC_BEZIER_BATCH_STRIDE * index[2];
    const double *p3 = records + KINETIC_BEZIER_BATCH_STRIDE * index[3];
    TABLE_TRANSPOSE(*(const table_v4u *)p0, *(const table_v4u *)p1, *(const table_v4u *)p2,
                    *(const table_v4u *)p3, b.c[0], b.c[1], b.c[2], b.c[3]);
    TABLE_TRANSPOSE(*(const table_v4u *)(p0 + 4), *(const table_v4u *)(p1 + 4), *(const table_v4u *)(p2 + 4),
                    *(const table_v4u *)(p3 + 4), b.c[4], b.c[5], b.c[6], b.c[7]);
    *out = b;
}

// Stores a block's values and redo marks; returns the number marked.
static inline __attribute__((always_inline))
long table_store(const table_block *b, const table_v4 *yp, double *restrict ys, unsigned char *restrict redo) {
    table_v4 y = *yp;
    table_m4 near = (b->xx < KINETIC_BEZIER_END_THRESHOLD) & (b->xx != 0);
    *(table_v4u *)ys = y;
    table_m4 left = ~b->inside | near | (y != y);
    table_b4 bytes = __builtin_convertvector(left & 1, table_b4);
    memcpy(redo, &bytes, sizeof bytes);
    return -(left[0] + left[1] + left[2] + left[3]);
}

static inline __attribute__((always_inline))
long table_blocks(const double *restrict records, const double scale, const long upper_offset,
                  const double *restrict xs, double *restrict ys, unsigned char *restrict redo, const long n,
                  const int root, const int blocks) {
    long marked = 0;
    // `blocks` blocks (at most eight) at a time, their Horner chains interleaved (one chain alone waits on
    // each multiply and add's latency).
    const long width = 4L * blocks;
    for (long i = 0; i + width <= n; i += width) {
        table_block b[8];
        table_v4 y[8];
#pragma clang loop unroll(full)
        for (int j = 0; j < blocks; j++) {
            table_load(&b[j], records, scale, upper_offset, xs + i + 4 * j, root);
            y[j] = b[j].c[7];
        }
        for (int k = KINETIC_BEZIER_BATCH_DEGREE - 1; k >= 0; k--) {
#pragma clang loop unroll(full)
            for (int j = 0; j < blocks; j++) y[j] = y[j] * b[j].s + b[j].c[k];
        }
#pragma clang loop unroll(full)
        for (int j = 0; j < blocks; j++) marked += table_store(&b[j], &y[j], ys + i + 4 * j, redo + i + 4 * j);
    }
    long done = n - n % width;
    return marked + table_lanes(records, scale, upper_offset, xs + done, ys + done, redo + done, n - done, root);
}

static inline __attribute__((always_inline)) long table_run(const table_call *c, int root, const int blocks) {
    if (root) return table_blocks(c->records, c->scale, c->upper_offset, c->x, c->y, c->redo, c->n, 1, blocks);
    return table_blocks(c->records, c->scale, c->upper_offset, c->x, c->y, c->redo, c->n, 0, blocks);
}

// The paths: baseline (128-bit vectors: SSE2 on x86-64, NEON on arm64), AVX2 and AVX-512.
// All three run blocks of four lanes; the AVX-512 path interleaves eight of them (its 32
// vector registers hold their Horner chains; AVX2's 16 would spill), which hides more of each
// chain's latency. The lanes' arithmetic is the same, so the bits are too.
static long bezier_table_baseline(const table_call *c, int root) { return table_run(c, root, 4); }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long bezier_table_avx2(const table_call *c, int root) { return table_run(c, root, 4); }

__attribute__((target("avx512f,avx512dq,avx512vl,avx2")))
static long bezier_table_avx512(const table_call *c, int root) { return table_run(c, root, 8); }
#endif

long kinetic_simd_bezier_table(int path, const double *records, double scale, long upper_offset, int root,
                               const double *x, double *y, unsigned char *redo, long n) {
    const table_call c = {records, scale, upper_offset, x, y, redo, n};
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX512 && kinetic_simd_has_avx512()) return bezier_table_avx512(&c, root);
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        return bezier_table_avx2(&c, root);
    }
#endif
    (void)path;
    return bezier_table_baseline(&c, root);
}
