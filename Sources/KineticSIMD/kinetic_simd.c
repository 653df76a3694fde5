// Kernels that need a wider vector instruction set than the baseline build targets.
//
// Swift cannot compile one function for AVX2 and pick it at run time; clang can, with a
// per-function `target` attribute and `__builtin_cpu_supports`. No compiler flag is needed
// (the package stays free of unsafeFlags), and a CPU without AVX2 gets 0 back and runs the
// caller's own loop.
//
// Results are bit-identical to the scalar formula on every path: contraction into fused
// multiply-adds is off, so each lane does the same two products and one sum, correctly
// rounded, whatever the vector width.
#include "kinetic_simd.h"

#pragma clang fp contract(off)

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void spring_step_avx2(double *restrict x, double *restrict v, long n,
                             double m11, double m12, double m21, double m22) {
    for (long i = 0; i < n; i++) {
        double xi = x[i], vi = v[i];
        x[i] = m11 * xi + m12 * vi;
        v[i] = m21 * xi + m22 * vi;
    }
}
#endif

int kn_simd_spring_step(double *x, double *v, long n, double m11, double m12, double m21, double m22) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        spring_step_avx2(x, v, n, m11, m12, m21, m22);
        return 1;
    }
#endif
    (void)x; (void)v; (void)n; (void)m11; (void)m12; (void)m21; (void)m22;
    return 0;
}
