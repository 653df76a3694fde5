// The C interface (Sources/KineticC): batch cubic-bezier evaluation through the C entry point
// `kn_bezier_values` against the Swift call it wraps, `CubicBezier.values(at:into:)`, in the
// same run on the same input. The bar: the C route costs within 10 % of the Swift call for
// 1,024 values and more.
//
// Run:   swift package --disable-sandbox benchmark --no-progress --filter "C .*"
//
// Names: "C bezier batch ease n=<N> (<route>) [<N> values]"; wallClock is ns per iteration, so
// ns per value = wallClock / N (conventions of KineticBenchmarks.swift). The C route calls the
// exported function by its Swift declaration: the same body a C caller reaches through the
// `@_cdecl` thunk (handle look-up, NULL and count checks, status return), minus that thunk's
// one jump. (Taking it as a `@convention(c)` pointer makes the compiler emit a second
// definition of the C symbol in this module, which fails to link; the benchmark executable
// links KineticC statically and exports no symbol for dlsym.)

import Benchmark
import Kinetic
import KineticC

func cInterfaceBenchmarks() {
    let curve = CubicBezier.ease
    var handle: OpaquePointer?
    precondition(kn_bezier_create_preset(1, &handle) == 0, "kn_bezier_create_preset(KN_BEZIER_EASE) failed")
    let cHandle = handle

    // A shared input pool twice the largest size; iteration k reads window k mod (pool / n).
    let poolCount = 2 * 65_536
    var rng = SeededGenerator(seed: 0x4B4E_4320)
    let pool = UnsafeMutableBufferPointer<Double>.allocate(capacity: poolCount)
    for i in 0 ..< poolCount { pool[i] = Double.random(in: 0...1, using: &rng) }

    for n in [1024, 65_536] {
        let output = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
        output.initialize(repeating: 0)
        Benchmark("C bezier batch ease n=\(n) (C kn_bezier_values) [\(n) values]") { benchmark in
            let start = (benchmark.currentIteration &* n) & (poolCount - 1)
            let status = kn_bezier_values(cHandle, pool.baseAddress! + start, output.baseAddress, Int64(n))
            precondition(status == 0)
            blackHole(output[n - 1])
        }
        Benchmark("C bezier batch ease n=\(n) (Swift values(at:into:)) [\(n) values]") { benchmark in
            let start = (benchmark.currentIteration &* n) & (poolCount - 1)
            try curve.values(at: UnsafeBufferPointer(rebasing: pool[start ..< start + n]), into: output)
            blackHole(output[n - 1])
        }
    }
}
