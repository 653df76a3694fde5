// Vector operations Swift cannot express with a single instruction on every platform, the
// table build's bucket map (kinetic_simd.c), and the spring step compiled for a wider vector
// instruction set chosen at run time (spring_step.c).
//
// Swift's `squareRoot()` on a SIMD vector goes lane by lane through the C library's `sqrt`
// (with its errno check), so it never becomes one vector square root. These inline helpers
// use clang's element-wise builtins, which lower to one instruction (sqrtpd on baseline
// x86-64, fsqrt on arm64) with no flags and no runtime dispatch. Swift imports the vector
// types as SIMD2<Double>.
#ifndef KINETIC_SIMD_H
#define KINETIC_SIMD_H

typedef double kinetic_simd_double2 __attribute__((ext_vector_type(2)));

/// The correctly rounded square root of each lane (IEEE 754; NaN for negative lanes).
static inline __attribute__((always_inline)) kinetic_simd_double2 kinetic_simd_sqrt2(kinetic_simd_double2 x) {
    return __builtin_elementwise_sqrt(x);
}

/// Asks the processor to start loading the cache line at `p` (a hint: no fault, no effect
/// on any value), for the scalar bezier solve's dependent table loads.
static inline __attribute__((always_inline)) void kinetic_simd_prefetch(const void *p) {
    __builtin_prefetch(p, 0, 3);
}

/// √x where `mask`'s bits are all ones, x where they are all zeros (`mask` is a bit pattern
/// held in a double): the scalar bezier solve's interpolation variable. Written with vector
/// operations so that the select stays in floating-point registers (a select through integer
/// registers costs two register moves on the solve's critical path) and the square root has
/// no errno branch.
static inline __attribute__((always_inline)) double kinetic_simd_root_select(double x, double mask) {
    typedef long long kinetic_simd_bits2 __attribute__((ext_vector_type(2)));
    kinetic_simd_double2 v = {x, x};
    kinetic_simd_bits2 m = (kinetic_simd_bits2)(kinetic_simd_double2){mask, mask};
    kinetic_simd_bits2 r = ((kinetic_simd_bits2)kinetic_simd_sqrt2(v) & m) | ((kinetic_simd_bits2)v & ~m);
    return ((kinetic_simd_double2)r).x;
}

/// The offset of `kinetic_simd_root_estimate`'s bit trick: half the bit pattern of 1.0, so
/// that the estimate of 1 is 1.
#define KINETIC_BEZIER_ROOT_BIAS 0x1FF8000000000000LL

/// An estimate of √x (x = +0 or more; −0 is not an input) where `mask`'s bits are all ones,
/// x itself where they are all zeros: the bucket variable of the scalar bezier solve's
/// look-up (bezier_solve.c writes the same bit trick out in its vector loop). The estimate halves x's bit pattern and
/// adds `KINETIC_BEZIER_ROOT_BIAS`: two integer operations, no square root, within about 6 %
/// of √x, and non-decreasing in x, which is all the bucket map needs (it is built from the
/// same estimate at the nodes). The exact √x, which only the segment's guess needs, is then
/// taken beside the look-up instead of before it.
static inline __attribute__((always_inline)) double kinetic_simd_root_estimate(double x, double mask) {
    typedef unsigned long long kinetic_simd_ubits2 __attribute__((ext_vector_type(2)));
    kinetic_simd_ubits2 b = (kinetic_simd_ubits2)(kinetic_simd_double2){x, x};
    kinetic_simd_ubits2 m = (kinetic_simd_ubits2)(kinetic_simd_double2){mask, mask};
    kinetic_simd_ubits2 e = (b >> 1) + (unsigned long long)KINETIC_BEZIER_ROOT_BIAS;
    kinetic_simd_ubits2 r = (e & m) | (b & ~m);
    return ((kinetic_simd_double2)r).x;
}

/// A 64-bucket look-up map from bucket indices: given `count` non-decreasing bucket indices
/// j_k (each in 0…64), writes map[j] = #{k : j_k ≤ j} for j in 0…63 and returns the largest
/// #{k : j_k = j} over j in 0…64. Writes up to 63 bytes past map[63]: the caller provides them.
int kinetic_simd_bucket_map64(const unsigned char *indices, int count, unsigned char *map);

/// Vector paths of the kernels compiled for more than one instruction set.
/// The baseline: 128-bit vectors (SSE2 on x86-64, NEON on arm64); every processor runs it.
#define KINETIC_SIMD_PATH_BASELINE 0
/// 256-bit AVX2 vectors (x86-64 processors that have AVX2, checked at run time).
#define KINETIC_SIMD_PATH_AVX2 1
/// 512-bit AVX-512 vectors (x86-64 processors with AVX-512 F, DQ and VL, checked at run time).
/// Only the lane solver (kinetic_simd_bezier_lanes) has code of its own for it; the other
/// kernels run their AVX2 code on this path. Each path value includes the ones below it.
#define KINETIC_SIMD_PATH_AVX512 2

/// The widest path this processor runs: a KINETIC_SIMD_PATH_* value. Every value from
/// KINETIC_SIMD_PATH_BASELINE up to it runs here too.
int kinetic_simd_best_path(void);

/// Whether this processor (and its operating system) runs AVX-512 F, DQ and VL.
int kinetic_simd_has_avx512(void);

/// One exact spring step for n ≥ 0 springs that share Φ = [m11 m12; m21 m22]:
/// (x_i, v_i) ← (m11·x_i + m12·v_i, m21·x_i + m22·v_i) for i in 0..<n, in place.
/// Every path gives the scalar formula's result bit for bit (two rounded products and a
/// rounded sum; no fused multiply-add). `path` is a KINETIC_SIMD_PATH_* value; a path this
/// processor cannot run is replaced by the baseline. x and v must not overlap; any 8-byte
/// alignment works, 32-byte aligned rows are fastest.
void kinetic_simd_spring_step(int path, double *x, double *v, long n,
                         double m11, double m12, double m21, double m22);

/// Cubic-bezier easing curves lane by lane (control points (x1[i], y1[i]), (x2[i], y2[i]),
/// x in [0, 1]) at progress u[i]: w[i] = the eased progress and ok[i] = 1 where the lane is
/// certified within 1e-13 of the exact value, ok[i] = 0 (w[i] unspecified) where it is not
/// (progress outside [0, 1], a few steps short next to a steep stretch, next to a vertical
/// tangent or a triple root): the caller gives those a second pass
/// (kinetic_simd_bezier_lanes_retry) and solves the rest exactly. Clamped Halley steps, a fixed number of them, then one Newton step and a
/// per-lane error bound (see bezier_lanes.c). Every path gives the same bits. No pointer may overlap w or ok.
void kinetic_simd_bezier_lanes(int path, const double *x1, const double *y1, const double *x2, const double *y2,
                               const double *u, double *w, unsigned char *ok, long n);

/// kinetic_simd_bezier_lanes with one progress u for every lane.
void kinetic_simd_bezier_lanes_shared(int path, const double *x1, const double *y1, const double *x2,
                                      const double *y2, double u, double *w, unsigned char *ok, long n);

/// kinetic_simd_bezier_lanes with more Halley steps: the second pass over the lanes that the
/// first did not certify (gathered by the caller), so that few of them need the exact solve.
/// The same certificate; every path gives the same bits.
void kinetic_simd_bezier_lanes_retry(int path, const double *x1, const double *y1, const double *x2,
                                     const double *y2, const double *u, double *w, unsigned char *ok, long n);

/// The number of prepared planes per curve (kinetic_simd_bezier_lanes_prepare).
#define KINETIC_SIMD_BEZIER_LANES_PREPARED_PLANES 18

/// The KINETIC_SIMD_BEZIER_LANES_PREPARED_PLANES prepared planes of n lanes, `stride` doubles
/// apart (stride ≥ n), from their control points: the power-form coefficients ax, bx, cx, ay,
/// by, cy; xr = 2^-50·(|ax| + |bx| + |cx|); ±2^-50·(|ay| + |by| + |cy|), negative where the
/// curve is the identity (x1 = y1 and x2 = y2); then, for x = j/4 (j = 0 … 4), the t in [0, 1]
/// where x(t) = x and the slope of t(x) there times 1/4, capped so that the cubic Hermite
/// interpolant between knots is monotone. They are per curve, so a caller that solves the same
/// curves at many progresses prepares them once.
/// The knots are solved on `path` (the same bits on every path).
void kinetic_simd_bezier_lanes_prepare(int path, const double *x1, const double *y1, const double *x2,
                                       const double *y2, double *planes, long stride, long n);
/// kinetic_simd_bezier_lanes_shared from prepared planes (kinetic_simd_bezier_lanes_prepare):
/// without computing the coefficients and rounding bounds on every call, and from the Hermite
/// start of the knots, with fewer steps. The same certificate (so the same accuracy where
/// certified) and the same bits on every path, but not the same bits as
/// kinetic_simd_bezier_lanes_shared: the steps start elsewhere.
void kinetic_simd_bezier_lanes_shared_prepared(int path, const double *planes, long stride, double u, double *w,
                                               unsigned char *ok, long n);

/// The layout of a cubic-bezier curve's solve table (Kinetic's BezierTable and BezierKernel
/// read these names; see BezierTable.swift for what each field holds). The table: a
/// 64-byte header (the step count as a 64-bit integer, then a flags byte: 1 √x, 2 second
/// order, 4 scaled y), both halves' doubles (KINETIC_BEZIER_HALF_STRIDE each), then both
/// halves' bucket maps (KINETIC_BEZIER_BUCKETS bytes each).
enum {
    KINETIC_BEZIER_AX = 0, KINETIC_BEZIER_BX = 1, KINETIC_BEZIER_CX = 2, KINETIC_BEZIER_AX3 = 3,
    KINETIC_BEZIER_BX2 = 4, KINETIC_BEZIER_SCALE = 5, KINETIC_BEZIER_ROOTMASK = 6, KINETIC_BEZIER_OFFSET = 7,
    KINETIC_BEZIER_KAY = 8, KINETIC_BEZIER_KBY = 9, KINETIC_BEZIER_KCY = 10, KINETIC_BEZIER_AY3 = 11,
    KINETIC_BEZIER_BY2 = 12, KINETIC_BEZIER_AX6 = 13, KINETIC_BEZIER_AY6 = 14, KINETIC_BEZIER_YSIGN = 15,
    KINETIC_BEZIER_SECONDORDER = 16, KINETIC_BEZIER_AY = 17, KINETIC_BEZIER_BY = 18, KINETIC_BEZIER_CY = 19,
    KINETIC_BEZIER_SEND = 20, KINETIC_BEZIER_H = 21, KINETIC_BEZIER_X1HI = 22, KINETIC_BEZIER_X1LO = 23,
    KINETIC_BEZIER_X2HI = 24, KINETIC_BEZIER_X2LO = 25,
    /// Segments per half. The nodes' progress x (then sentinels, +infinity, up to twice as
    /// many), which the look-up compares, start at KINETIC_BEZIER_NODES; the nodes'
    /// interpolation variable v (x or √x), from which each segment's quintic is taken, at
    /// KINETIC_BEZIER_VNODES; the segments' six quintic coefficients at KINETIC_BEZIER_COEF.
    KINETIC_BEZIER_SEGMENTS = 16,
    KINETIC_BEZIER_NODES = 32,
    KINETIC_BEZIER_VNODES = KINETIC_BEZIER_NODES + 2 * KINETIC_BEZIER_SEGMENTS,
    KINETIC_BEZIER_COEF = KINETIC_BEZIER_VNODES + KINETIC_BEZIER_SEGMENTS,
    KINETIC_BEZIER_COEF_STRIDE = 6,
    /// Doubles per half: a whole number of 64-byte lines.
    KINETIC_BEZIER_HALF_STRIDE = (KINETIC_BEZIER_COEF + KINETIC_BEZIER_COEF_STRIDE * KINETIC_BEZIER_SEGMENTS + 7) & ~7,
    KINETIC_BEZIER_BUCKETS = 64,
    KINETIC_BEZIER_HEADER_BYTES = 64,
    KINETIC_BEZIER_BYTES_OFFSET = KINETIC_BEZIER_HEADER_BYTES + 2 * KINETIC_BEZIER_HALF_STRIDE * 8,
};

/// Progress within this distance of either end (2^-26) is solved exactly, not through a
/// segment of the solve table.
#define KINETIC_BEZIER_END_THRESHOLD 0x1p-26

/// One cubic-bezier curve over n values of x through its solve table (layout above): y[i]
/// = the curve at x[i], the scalar kernel's value bit for bit, and redo[i] = 1 where the lane
/// is left to the caller (y[i] unspecified): x[i] outside [0, 1] or NaN, within the end
/// threshold of either end, or on a flagged segment. Returns the number of lanes marked, or
/// -1, writing nothing, when the table's step count is above 4 (the caller then takes one x
/// at a time). Every path gives the same bits. y and redo must not overlap x or each other.
long kinetic_simd_bezier_solve(int path, const void *table, const double *x, double *y, unsigned char *redo,
                              long n);

/// The most Newton steps kinetic_simd_bezier_newton takes for a lane before it leaves it.
#define KINETIC_BEZIER_NEWTON_STEPS 6

/// The lanes that a batch-table call leaves, through the solve table (layout above): on a
/// segment that is not flagged, kinetic_simd_bezier_solve's value, bit for bit; on a flagged
/// segment, Newton's method on x(t) from the segment's quintic guess without its last term,
/// each step taken only inside the segment's parameter range and only while x′ ≥ 0.05, and
/// the result taken once Taylor's remainder bounds what the last step leaves by 2^-51 of t
/// (or of 1/x′): within about 1e-13 · max(1, |y1|, |y2|) of the curve there. left[i] = 1
/// where the lane is left to the caller (y[i] unspecified): x[i] outside [0, 1] or NaN,
/// within the end threshold of either end, a value that is not finite, a small x′, or no
/// convergence in KINETIC_BEZIER_NEWTON_STEPS steps. Returns the number of lanes left, or
/// -1, writing nothing, when the table's step count is above 4. Every path gives the same
/// bits. y and left must not overlap x or each other.
long kinetic_simd_bezier_newton(int path, const void *table, const double *x, double *y, unsigned char *left,
                               long n);

/// A curve's batch table (Kinetic's BezierBatchTable): records of KINETIC_BEZIER_BATCH_STRIDE
/// doubles, each a polynomial of degree KINETIC_BEZIER_BATCH_DEGREE in the position within
/// its segment.
enum { KINETIC_BEZIER_BATCH_DEGREE = 7, KINETIC_BEZIER_BATCH_STRIDE = 8 };

/// One cubic-bezier curve over n values of x through its batch table (`records`, segments
/// per half ÷ the half's largest v in `scale`, the upper half's first record at
/// `upper_offset`, v = √x when `root`): y[i] = the curve at x[i] within the table's
/// tolerance, and redo[i] = 1 where the lane is left to the caller (y[i] unspecified): x[i]
/// outside [0, 1] or NaN, within the end threshold of an end but not at it, or on a flagged
/// segment. Returns the number of lanes marked. Every path gives the same bits. y and redo
/// must not overlap x or each other.
long kinetic_simd_bezier_table(int path, const double *records, double scale, long upper_offset, int root,
                               const double *x, double *y, unsigned char *redo, long n);

/// The largest |x_i| into *mx and the largest |v_i| into *mv over i in 0..<n (0 when n = 0;
/// lanes holding NaN are skipped). A read-only pass, vectorised on x86-64 (SSE2, or AVX2
/// where the processor has it); x and v may be any 8-byte aligned arrays.
void kinetic_simd_max_magnitudes(int path, const double *x, const double *v, long n, double *mx, double *mv);

/// The largest |x_i| over i in 0..<n (0 when n = 0), NaN when any x_i is NaN (+infinity
/// when one is infinite): a read-only pass that both bounds and checks new spring targets.
double kinetic_simd_max_magnitude_checked(int path, const double *x, long n);

/// Moves n springs to new targets keeping their positions: x[i] += old[i] − target[i], then
/// old[i] = target[i]. The three arrays must not overlap; every path gives the same bits.
void kinetic_simd_spring_retarget(int path, double *x, double *old, const double *target, long n);

#endif
