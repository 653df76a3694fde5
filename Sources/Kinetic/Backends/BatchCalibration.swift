/// The `.automatic` backend's choice per kernel and size, from measurement.
///
/// Source: `swift package --disable-sandbox benchmark --no-progress --filter "Batch.*"`
/// (Benchmarks/KineticBenchmarks/BatchBenchmarks.swift, the "Batch calibrate …" and
/// "Batch 100k / 1M …" benchmarks), run 2026-11-22 on the reference machine: 2-core Intel
/// Xeon VM (AVX-512 capable; Kinetic's native loops are baseline x86-64 SSE2, except the
/// spring step's AVX2 loop, chosen at run time), 2 × 2 MiB L2, Debian 12, Swift 6.3.1
/// release build, OpenBLAS 0.3.21 (pthread variant, set to 1 thread).
/// Figures are ns per lane (per output value for bake), p0 / p50 of wallClock; calibrate rows
/// repeat the call 65,536 / n times per iteration. Bake rows: 10 frames × n/10 lanes (n =
/// output values; the 1M row is 100k lanes × 10 frames). The table is the first run; a second
/// run the same day reproduced every row within about ±15 % and the same winner everywhere.
/// The spring-step rows are from 2026-11-23 (`make bench-ci`), after the native step became
/// KineticSIMD's AVX2 loop over 64-byte aligned rows.
///
/// | kernel          |     n | native p0 / p50 | blas p0 / p50 | faster |
/// |-----------------|------:|----------------:|--------------:|--------|
/// | shared progress |    16 |   0.384 / 0.440 | 1.110 / 1.233 | native |
/// | shared progress |   256 |   0.187 / 0.191 | 0.274 / 0.279 | native |
/// | shared progress |  4096 |   0.255 / 0.257 | 0.431 / 0.447 | native |
/// | shared progress | 65536 |   0.338 / 0.421 | 0.457 / 0.616 | native |
/// | shared progress |  100k |   0.513 / 0.552 | 0.616 / 0.664 | native |
/// | shared progress |    1M |   0.837 / 0.913 | 1.118 / 1.245 | native |
/// | per-lane        |    16 |   0.429 / 0.429 | 8.467 / 9.125 | native |
/// | per-lane        |   256 |   0.217 / 0.230 | 5.854 / 6.633 | native |
/// | per-lane        |  4096 |   0.356 / 0.358 | 5.606 / 8.469 | native |
/// | per-lane        | 65536 |   0.608 / 0.741 | 5.628 / 7.891 | native |
/// | per-lane        |  100k |   0.929 / 1.099 | 5.776 / 9.262 | native |
/// | per-lane        |    1M |   1.129 / 1.256 | 6.818 / 12.40 | native |
/// | spring step     |    16 |   1.576 / 1.672 | 7.161 / 14.12 | native |
/// | spring step     |   256 |   0.263 / 0.266 | 2.238 / 2.252 | native |
/// | spring step     |  4096 |   0.291 / 0.386 | 2.162 / 3.137 | native |
/// | spring step     | 65536 |   0.351 / 0.354 | 2.119 / 2.146 | native |
/// | spring step     |  100k |   0.344 / 0.357 | 2.214 / 2.236 | native |
/// | spring step     |    1M |   0.612 / 0.645 | 2.374 / 2.494 | native |
/// | compose (K = 4) |    16 |   1.220 / 1.320 | 2.338 / 2.398 | native |
/// | compose (K = 4) |   256 |   0.523 / 0.566 | 1.040 / 1.044 | native |
/// | compose (K = 4) |  4096 |   0.669 / 0.695 | 1.132 / 1.152 | native |
/// | compose (K = 4) | 65536 |   1.191 / 1.574 | 1.752 / 1.853 | native |
/// | compose (K = 4) |  100k |   1.428 / 1.800 | 2.126 / 2.500 | native |
/// | bake (10 fr.)   |    16 |   2.126 / 2.128 | 11.72 / 12.15 | native |
/// | bake (10 fr.)   |   256 |   0.288 / 0.289 | 1.169 / 1.177 | native |
/// | bake (10 fr.)   |  4096 |   0.230 / 0.272 | 0.826 / 0.843 | native |
/// | bake (10 fr.)   | 65536 |   0.502 / 0.510 | 0.816 / 0.830 | native |
/// | bake (10 fr.)   |   1M |   0.775 / 0.936 | 0.882 / 1.491 | native |
///
/// Result: on this machine there is NO crossover in 16 … 1,000,000 lanes; the single-pass
/// native loops beat OpenBLAS for every kernel and size (BLAS makes two passes for shared and
/// per-lane progress, `dsbmv` with K = 0 runs a generic banded loop, and `dgemm` with M = 2 or
/// K = 2 spends its time packing). So `.automatic` runs the native path everywhere. The table
/// stays a table (a threshold per kernel, `Int.max` = never) so that a re-measurement on other
/// hardware changes numbers, not code: BLAS is chosen for `lanes >= blasFrom`.
enum BatchCalibration {
    /// Smallest batch (lanes; output values for bake) from which `.automatic` runs BLAS.
    static func blasFrom(_ kernel: BatchKernel) -> Int {
        switch kernel {
        case .sharedProgress: return .max
        case .perLaneProgress: return .max
        case .springStep: return .max
        case .composition: return .max
        case .bake: return .max
        case .keyframes: return .max
        }
    }

    /// Whether `.automatic` runs BLAS for `kernel` over `lanes` lanes.
    @inline(__always)
    static func prefersBLAS(_ kernel: BatchKernel, lanes: Int) -> Bool {
        lanes >= blasFrom(kernel)
    }
}
