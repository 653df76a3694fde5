// Vector operations Swift cannot express with a single instruction on every platform, and
// kernels compiled for a wider instruction set chosen at run time (kinetic_simd.c).
//
// Swift's `squareRoot()` on a SIMD vector goes lane by lane through the C library's `sqrt`
// (with its errno check), so it never becomes one vector square root. These inline helpers
// use clang's element-wise builtins, which lower to one instruction (sqrtpd on baseline
// x86-64, fsqrt on arm64) with no flags and no runtime dispatch. Swift imports the vector
// types as SIMD2<Double>.
#ifndef KINETIC_SIMD_H
#define KINETIC_SIMD_H

typedef double kn_simd_double2 __attribute__((ext_vector_type(2)));

/// The correctly rounded square root of each lane (IEEE 754; NaN for negative lanes).
static inline __attribute__((always_inline)) kn_simd_double2 kn_simd_sqrt2(kn_simd_double2 x) {
    return __builtin_elementwise_sqrt(x);
}

/// One exact spring step for n springs that share Φ: (x, v) ← (m11·x + m12·v, m21·x + m22·v),
/// in place, with a 256-bit vector loop when the CPU has AVX2 (chosen at run time). Returns 1
/// when it ran, 0 when this CPU has no such path (the caller then runs its own loop). The
/// results equal the scalar formula bit for bit (no fused multiply-add). x and v must not
/// overlap.
int kn_simd_spring_step(double *x, double *v, long n, double m11, double m12, double m21, double m22);

#endif
