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
import CLoops
import Kinetic
import KineticC

func cInterfaceBenchmarks() {
    cScalarBenchmarks()
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

// MARK: - Scalar calls from C
//
// One evaluation per call, called from C (Benchmarks/CLoops, compiled -O2 into this program):
// `kn_bezier_value` against the Swift `value(at:)` on the same curve and x, and against a
// browser-style solver written in C (the method of Baseline.swift) in the same program, on the
// five CSS presets and on 64 random curves (x1, x2 in [0, 1], y1, y2 in [-1, 2]) taken in turn;
// `kn_spring_value` against the Swift `Spring.value(at:initialVelocity:)`. The bars: the C call
// within 1.1x of the Swift call, and at most 0.8x of the C browser-style solver on the presets.
// The critical spring also runs through a plain C function with the same closed form and
// checks (CLoops/reference_spring.c): what any C call around libm's exp costs, against which
// kn_spring_value's own call boundary is judged.
//
// Names: "C scalar <case> (<route>) [1000 evals]": wallClock in ns is picoseconds per call.
// Every route of a case reads the same x (iteration k: pool[(k*1000 + i) mod 65536]).

private let scalarCount = 1000
private let scalarPoolCount = 65_536

private func cScalarBenchmarks() {
    var rng = SeededGenerator(seed: 0x4B4E_5343_414C)
    let xs = UnsafeMutableBufferPointer<Double>.allocate(capacity: scalarPoolCount)
    let times = UnsafeMutableBufferPointer<Double>.allocate(capacity: scalarPoolCount)
    for i in 0 ..< scalarPoolCount {
        xs[i] = Double.random(in: 0...1, using: &rng)
        times[i] = Double.random(in: 0...2, using: &rng)
    }
    let mask = scalarPoolCount - 1
    let x = UnsafePointer(xs.baseAddress!)

    for (index, preset) in CubicBezier.presets.enumerated() {
        let curve = preset.curve
        var handle: OpaquePointer?
        precondition(kn_bezier_create_preset(Int32(index), &handle) == 0, "kn_bezier_create_preset(\(index)) failed")
        let cHandle = UnsafeRawPointer(handle!)
        let browser = UnsafeMutablePointer<cl_browser_bezier>.allocate(capacity: 1)
        cl_browser_init(browser, curve.x1, curve.y1, curve.x2, curve.y2)
        let name = "C scalar \(preset.name)"
        Benchmark("\(name) (C kn_bezier_value) [\(scalarCount) evals]") { benchmark in
            blackHole(cl_sum_kn_bezier(cHandle, x, mask, benchmark.currentIteration &* scalarCount, scalarCount))
        }
        Benchmark("\(name) (C browser-style) [\(scalarCount) evals]") { benchmark in
            blackHole(cl_sum_browser(browser, x, mask, benchmark.currentIteration &* scalarCount, scalarCount))
        }
        Benchmark("\(name) (Swift value(at:)) [\(scalarCount) evals]") { benchmark in
            let start = benchmark.currentIteration &* scalarCount
            var sum = 0.0
            for i in 0 ..< scalarCount { sum += curve.value(at: x[(start &+ i) & mask]) }
            blackHole(sum)
        }
    }

    // 64 random curves, element i on curve i mod 64.
    let curveCount = 64
    var curves: [CubicBezier] = []
    let handles = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: curveCount)
    let browsers = UnsafeMutablePointer<cl_browser_bezier>.allocate(capacity: curveCount)
    for i in 0 ..< curveCount {
        let (x1, y1) = (Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng))
        let (x2, y2) = (Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng))
        curves.append(try! CubicBezier(x1, y1, x2, y2))
        var handle: OpaquePointer?
        precondition(kn_bezier_create(x1, y1, x2, y2, &handle) == 0, "kn_bezier_create failed")
        handles[i] = UnsafeRawPointer(handle!)
        cl_browser_init(browsers + i, x1, y1, x2, y2)
    }
    let randomName = "C scalar random \(curveCount) curves"
    let curveMask = curveCount - 1
    Benchmark("\(randomName) (C kn_bezier_value) [\(scalarCount) evals]") { benchmark in
        blackHole(cl_sum_kn_bezier_many(handles, curveMask, x, mask, benchmark.currentIteration &* scalarCount, scalarCount))
    }
    Benchmark("\(randomName) (C browser-style) [\(scalarCount) evals]") { benchmark in
        blackHole(cl_sum_browser_many(browsers, curveMask, x, mask, benchmark.currentIteration &* scalarCount, scalarCount))
    }
    Benchmark("\(randomName) (Swift value(at:)) [\(scalarCount) evals]") { benchmark in
        let start = benchmark.currentIteration &* scalarCount
        var sum = 0.0
        curves.withUnsafeBufferPointer { c in
            for i in 0 ..< scalarCount { sum += c[i & curveMask].value(at: x[(start &+ i) & mask]) }
        }
        blackHole(sum)
    }

    // Springs: the closed form at random times in [0, 2] s, initial velocity 0.5.
    let t = UnsafePointer(times.baseAddress!)
    let springs: [(name: String, zeta: Double)] = [("underdamped zeta=0.5", 0.5), ("critical zeta=1", 1),
                                                   ("overdamped zeta=2.5", 2.5)]
    for s in springs {
        let spring = try! Spring(mass: 1, stiffness: 100, damping: 20 * s.zeta)
        var handle: OpaquePointer?
        precondition(kn_spring_create(1, 100, 20 * s.zeta, &handle) == 0, "kn_spring_create failed")
        let cHandle = UnsafeRawPointer(handle!)
        let name = "C scalar spring \(s.name)"
        Benchmark("\(name) (C kn_spring_value) [\(scalarCount) evals]") { benchmark in
            blackHole(cl_sum_kn_spring(cHandle, t, 0.5, mask, benchmark.currentIteration &* scalarCount, scalarCount))
        }
        Benchmark("\(name) (Swift value(at:)) [\(scalarCount) evals]") { benchmark in
            let start = benchmark.currentIteration &* scalarCount
            var sum = 0.0
            for i in 0 ..< scalarCount { sum += spring.value(at: t[(start &+ i) & mask], initialVelocity: 0.5) }
            blackHole(sum)
        }
        if s.zeta == 1 {
            let reference = UnsafeMutablePointer<cl_reference_critical>.allocate(capacity: 1)
            reference.initialize(to: cl_reference_critical(alpha: spring.damping / (2 * spring.mass)))
            for probe in [0.01, 0.3, 1.7] {  // it evaluates the same spring
                var y = 0.0
                precondition(cl_reference_critical_value(reference, probe, 0.5, &y) == 0
                    && abs(y - spring.value(at: probe, initialVelocity: 0.5)) <= 1e-15, "reference spring differs")
            }
            Benchmark("\(name) (plain C reference) [\(scalarCount) evals]") { benchmark in
                blackHole(cl_sum_reference_critical(reference, t, 0.5, mask, benchmark.currentIteration &* scalarCount,
                                                    scalarCount))
            }
        }
    }
}
