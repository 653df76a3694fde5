// The spring step of SpringTransition.step(displacements:velocities:) and SpringGroup
// (Springs/SpringTransition.swift, Engine/SpringGroup.swift), compiled for the widest vector
// instruction set the processor has, chosen at run time.
//
// Swift cannot compile one function for AVX2 and pick it at run time; clang can, with a
// per-function `target` attribute and `__builtin_cpu_supports`. No compiler flag is needed
// (the package stays free of unsafeFlags).
//
// Every path gives the scalar formula's result bit for bit: contraction into fused
// multiply-adds is off, so each lane does the same two products and one sum, each correctly
// rounded, whatever the vector width. The paths differ only in speed. Measured at 100k springs
// on the development VM (standalone C loop, fastest of 3,000 runs): the 256-bit loop over
// 64-byte aligned rows 0.36 ns per spring, the 128-bit loop 0.43 to 0.46; the 256-bit loop
// over rows 16 bytes off a 32-byte boundary 0.43, which is why SpringGroup aligns its rows
// (an earlier AVX2 loop over Swift's 16-byte aligned allocation was withdrawn for showing no
// gain).
#include "kinetic_simd.h"

#pragma clang fp contract(off)

// The loop every path runs. `restrict`: x and v do not overlap, so the compiler vectorises it
// with no run-time alias check, to the vector width of the function it is inlined into.
static inline __attribute__((always_inline))
void spring_loop(double *restrict x, double *restrict v, long n,
                 double m11, double m12, double m21, double m22) {
    for (long i = 0; i < n; i++) {
        double xi = x[i], vi = v[i];
        x[i] = m11 * xi + m12 * vi;
        v[i] = m21 * xi + m22 * vi;
    }
}

// The baseline path: 128-bit vectors (SSE2 on x86-64, NEON on arm64).
static void spring_step_baseline(double *restrict x, double *restrict v, long n,
                                 double m11, double m12, double m21, double m22) {
    spring_loop(x, v, n, m11, m12, m21, m22);
}

#if defined(__x86_64__)
// The AVX2 path: the same loop, vectorised to 256 bits.
__attribute__((target("avx2")))
static void spring_step_avx2(double *restrict x, double *restrict v, long n,
                             double m11, double m12, double m21, double m22) {
    spring_loop(x, v, n, m11, m12, m21, m22);
}
#endif

int kinetic_simd_has_avx512(void) {
#if defined(__x86_64__)
    // __builtin_cpu_supports also checks that the operating system saves the vector state.
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")
           && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

int kinetic_simd_best_path(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        return kinetic_simd_has_avx512() ? KINETIC_SIMD_PATH_AVX512 : KINETIC_SIMD_PATH_AVX2;
    }
#endif
    return KINETIC_SIMD_PATH_BASELINE;
}

void kinetic_simd_spring_step(int path, double *x, double *v, long n,
                         double m11, double m12, double m21, double m22) {
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        spring_step_avx2(x, v, n, m11, m12, m21, m22);
        return;
    }
#endif
    (void)path;
    spring_step_baseline(x, v, n, m11, m12, m21, m22);
}

// The largest magnitudes of n ≥ 0 displacements and velocities (0 for n = 0; lanes holding
// NaN are skipped): the read-only pass before SpringTransition.step(displacements:velocities:)
// that bounds every product of the step. A max reduction written as a scalar select does not
// vectorise without fast-math (NaN ordering), so the x86-64 paths use max instructions with
// four independent accumulators per array (max(new, acc) keeps acc when new is NaN).
static void magnitudes_scalar(const double *x, const double *v, long n, double *mx, double *mv) {
    double a = 0, b = 0;
    for (long i = 0; i < n; i++) {
        double ex = __builtin_fabs(x[i]), ev = __builtin_fabs(v[i]);
        a = ex > a ? ex : a;
        b = ev > b ? ev : b;
    }
    *mx = a > *mx ? a : *mx;
    *mv = b > *mv ? b : *mv;
}

#if defined(__x86_64__)
#include <immintrin.h>

static void magnitudes_sse2(const double *x, const double *v, long n, double *mx, double *mv) {
    const __m128d mask = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
    __m128d a0 = _mm_setzero_pd(), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        a0 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(x + i), mask), a0);
        a1 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(x + i + 2), mask), a1);
        a2 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(x + i + 4), mask), a2);
        a3 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(x + i + 6), mask), a3);
        b0 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(v + i), mask), b0);
        b1 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(v + i + 2), mask), b1);
        b2 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(v + i + 4), mask), b2);
        b3 = _mm_max_pd(_mm_and_pd(_mm_loadu_pd(v + i + 6), mask), b3);
    }
    double ra[2], rb[2];
    _mm_storeu_pd(ra, _mm_max_pd(_mm_max_pd(a0, a1), _mm_max_pd(a2, a3)));
    _mm_storeu_pd(rb, _mm_max_pd(_mm_max_pd(b0, b1), _mm_max_pd(b2, b3)));
    *mx = ra[0] > ra[1] ? ra[0] : ra[1];
    *mv = rb[0] > rb[1] ? rb[0] : rb[1];
    magnitudes_scalar(x + i, v + i, n - i, mx, mv);
}

__attribute__((target("avx2")))
static void magnitudes_avx2(const double *x, const double *v, long n, double *mx, double *mv) {
    const __m256d mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    long i = 0;
    for (; i + 16 <= n; i += 16) {
        a0 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(x + i), mask), a0);
        a1 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(x + i + 4), mask), a1);
        a2 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(x + i + 8), mask), a2);
        a3 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(x + i + 12), mask), a3);
        b0 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(v + i), mask), b0);
        b1 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(v + i + 4), mask), b1);
        b2 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(v + i + 8), mask), b2);
        b3 = _mm256_max_pd(_mm256_and_pd(_mm256_loadu_pd(v + i + 12), mask), b3);
    }
    double ra[4], rb[4];
    _mm256_storeu_pd(ra, _mm256_max_pd(_mm256_max_pd(a0, a1), _mm256_max_pd(a2, a3)));
    _mm256_storeu_pd(rb, _mm256_max_pd(_mm256_max_pd(b0, b1), _mm256_max_pd(b2, b3)));
    double a = 0, b = 0;
    for (int k = 0; k < 4; k++) {
        a = ra[k] > a ? ra[k] : a;
        b = rb[k] > b ? rb[k] : b;
    }
    *mx = a;
    *mv = b;
    magnitudes_scalar(x + i, v + i, n - i, mx, mv);
}
#endif

// The largest magnitude of n values with NaN propagated (a NaN anywhere makes the result
// NaN): the bound of new spring targets, taken before anything moves. max instructions skip a
// NaN, so an unordered compare is OR-ed into a second accumulator alongside.
static double magnitude_checked_scalar(const double *x, long n, double m, int nan) {
    for (long i = 0; i < n; i++) {
        double a = __builtin_fabs(x[i]);
        nan |= a != a;
        m = a > m ? a : m;
    }
    return nan ? __builtin_nan("") : m;
}

// Eight lanes at a time in clang's vector extension, one body for every path (two
// independent chains of four on AVX2, four of two on SSE2 and NEON): a NaN lane fails the
// comparison and leaves the maximum as it is, as the max instructions do, and is OR-ed into
// the NaN flag.
typedef double checked_v8 __attribute__((ext_vector_type(8)));
typedef double checked_v8u __attribute__((ext_vector_type(8), aligned(8)));
typedef __typeof__((checked_v8)0 < (checked_v8)0) checked_m8;

static inline __attribute__((always_inline)) double magnitude_checked_run(const double *x, long n) {
    checked_v8 m = 0;
    checked_m8 nan = 0;
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        checked_v8 a = __builtin_elementwise_abs(*(const checked_v8u *)(x + i));
        nan |= a != a;
        m = a > m ? a : m;
    }
    double top = 0;
    int any = 0;
    for (int k = 0; k < 8; k++) {
        top = m[k] > top ? m[k] : top;
        any |= nan[k] != 0;
    }
    return magnitude_checked_scalar(x + i, n - i, top, any);
}

static double magnitude_checked_baseline(const double *x, long n) { return magnitude_checked_run(x, n); }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static double magnitude_checked_avx2(const double *x, long n) { return magnitude_checked_run(x, n); }
#endif

double kinetic_simd_max_magnitude_checked(int path, const double *x, long n) {
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) return magnitude_checked_avx2(x, n);
#endif
    (void)path;
    return magnitude_checked_baseline(x, n);
}

// Moves n springs to new targets keeping their positions: x[i] += old[i] − new[i], then
// old[i] = new[i] (the three arrays do not overlap). One rounding per lane, as the scalar
// formula, whatever the vector width.
static inline __attribute__((always_inline))
void retarget_loop(double *restrict x, double *restrict old, const double *restrict target, long n) {
    for (long i = 0; i < n; i++) {
        double t = target[i];
        x[i] += old[i] - t;
        old[i] = t;
    }
}

static void retarget_baseline(double *restrict x, double *restrict old, const double *restrict target, long n) {
    retarget_loop(x, old, target, n);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void retarget_avx2(double *restrict x, double *restrict old, const double *restrict target, long n) {
    retarget_loop(x, old, target, n);
}
#endif

void kinetic_simd_spring_retarget(int path, double *x, double *old, const double *target, long n) {
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        retarget_avx2(x, old, target, n);
        return;
    }
#endif
    (void)path;
    retarget_baseline(x, old, target, n);
}

void kinetic_simd_max_magnitudes(int path, const double *x, const double *v, long n, double *mx, double *mv) {
#if defined(__x86_64__)
    if (path >= KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        magnitudes_avx2(x, v, n, mx, mv);
    } else {
        magnitudes_sse2(x, v, n, mx, mv);
    }
#else
    (void)path;
    *mx = 0;
    *mv = 0;
    magnitudes_scalar(x, v, n, mx, mv);
#endif
}
