// The batch evaluation of one cubic-bezier curve through its solve table
// (Kinetic's Curves/BezierKernel.swift and Curves/BezierBatch.swift): the scalar kernel's
// arithmetic, operation for operation, over many x at once, compiled for the widest vector
// instruction set the processor has, chosen at run time (see spring_step.c for why this is C).
//
// Each lane takes its half (x ≤ 1/2, or x > 1/2 mirrored as 1 − x), its bucket (from x, or
// from the estimate of √x), its segment (the bucket's first one plus the nodes whose progress
// is at or below x among the next few), its variable (x or √x), the segment's quintic guess
// by Estrin's scheme, and one Newton step folded into y, with the second-order term where
// the segment's bit asks for it. The per-half constants are
// selected by the lane's half, the nodes and coefficients gathered. Every operation is the
// scalar kernel's, correctly rounded, with contraction off, so each lane's value is
// BezierKernel.solve's to the bit, whatever the vector width. Lanes that the scalar kernel
// sends elsewhere (x outside [0, 1] or NaN, the half's progress below the end threshold, a
// result that is not finite: a flagged segment) are marked in `redo` and left to the caller.
#include "bezier_locate.h"

#pragma clang fp contract(off)

// `compares`: nodes compared after the bucket's first segment (at least the table's step
// count; the map is exact, so any extra comparison reads a node of a later bucket or a
// sentinel, both above x, and counts nothing). `root`: whether either half
// interpolates in √x. `second`: whether any segment takes the second-order term.
static inline __attribute__((always_inline))
long solve_lanes(const double *restrict d, const unsigned char *restrict bytes, const bezier_half lo,
                 const bezier_half hi, const double *restrict xs, double *restrict ys,
                 unsigned char *restrict redo, const long n, const int compares, const int root,
                 const int second) {
    long marked = 0;
#pragma clang loop vectorize(enable) interleave(enable)
    for (long i = 0; i < n; i++) {
        bezier_locus l = bezier_locate(d, bytes, xs[i], lo.scale, hi.scale, lo.root, hi.root, compares, root);
        const double *c = d + l.base + KINETIC_BEZIER_COEF + KINETIC_BEZIER_COEF_STRIDE * l.segment;
        double y = bezier_solve_value(d, l, c, lo, hi, second);
        int finite = locate_magnitude(y) <= 0x1.fffffffffffffp1023;
        y = y * (l.upper ? hi.yfactor : lo.yfactor);
        ys[i] = (l.upper ? hi.offset : lo.offset) + y;
        int left = l.skip | !finite;
        redo[i] = (unsigned char)left;
        marked += left;
    }
    return marked;
}

static inline __attribute__((always_inline))
long solve_loop(const bezier_call *c, const int compares, const int root, const int second) {
    return solve_lanes(c->doubles, c->bytes, c->lo, c->hi, c->x, c->y, c->marks, c->n, compares, root, second);
}

// The paths: baseline (128-bit vectors: SSE2 on x86-64, NEON on arm64), AVX2 and AVX-512,
// each with every combination of the loop's constants inlined.
static long bezier_solve_baseline(const bezier_call *c) { return BEZIER_DISPATCH(solve_loop, c); }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long bezier_solve_avx2(const bezier_call *c) { return BEZIER_DISPATCH(solve_loop, c); }

// AVX-512: the same loop at twice the width, with masked gathers (the look-up's loads).
__attribute__((target("avx512f,avx512dq,avx512vl,avx2")))
static long bezier_solve_avx512(const bezier_call *c) { return BEZIER_DISPATCH(solve_loop, c); }
#endif

long kinetic_simd_bezier_solve(int path, const void *table, const double *x, double *y, unsigned char *redo,
                              long n) {
    bezier_call c;
    if (bezier_open_call(&c, table, x, y, redo, n) < 0) return -1;
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX512 && kinetic_simd_has_avx512()) return bezier_solve_avx512(&c);
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) return bezier_solve_avx2(&c);
#endif
    (void)path;
    return bezier_solve_baseline(&c);
}
