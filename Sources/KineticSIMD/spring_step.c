// The spring step of SpringTransition.step(displacements:velocities:) and SpringGroup
// (Springs/SpringTransition.swift, Batch/SpringGroup.swift), compiled for the widest vector
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

int kinetic_simd_best_path(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) return KINETIC_SIMD_PATH_AVX2;
#endif
    return KINETIC_SIMD_PATH_BASELINE;
}

void kinetic_simd_spring_step(int path, double *x, double *v, long n,
                         double m11, double m12, double m21, double m22) {
#if defined(__x86_64__)
    if (path == KINETIC_SIMD_PATH_AVX2 && __builtin_cpu_supports("avx2")) {
        spring_step_avx2(x, v, n, m11, m12, m21, m22);
        return;
    }
#endif
    (void)path;
    spring_step_baseline(x, v, n, m11, m12, m21, m22);
}
