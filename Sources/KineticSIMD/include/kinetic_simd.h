// Vector operations Swift cannot express with a single instruction on every platform.
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

/// A 64-bucket look-up map from bucket indices: given `count` non-decreasing bucket indices
/// j_k (each in 0…64), writes map[j] = #{k : j_k ≤ j} for j in 0…63 and returns the largest
/// #{k : j_k = j} over j in 0…64. Writes up to 63 bytes past map[63]: the caller provides them.
int kn_bucket_map64(const unsigned char *indices, int count, unsigned char *map);

#endif
