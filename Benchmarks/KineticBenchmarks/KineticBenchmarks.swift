// Kinetic's package-benchmark suite: cubic-bezier solves (Kinetic against a browser-style
// baseline, see Baseline.swift), curve set-up, and springs.
//
// Run:   swift package --disable-sandbox benchmark
//        (--filter takes a regular expression that must match the WHOLE name, e.g.
//         --filter "Bezier scalar.*" or --filter ".*ease-out.*")
//
// HOW TO READ THE NUMBERS
// Names put the case first and "(ours)" / "(baseline)" after it, so that package-benchmark
// (which runs benchmarks sorted by name) runs each pair back to back, under the same machine load.
// Every benchmark name ends with the amount of work one iteration does, in brackets, e.g.
// "[1000 evals]" or "[1024 x]". Time units are fixed to nanoseconds and no scalingFactor is
// used, so the wallClock column is nanoseconds per iteration and:
//
//     ns per operation = wallClock (ns) / the count in brackets
//
// For the "[1000 …]" benchmarks that means the wallClock figure in ns is, read directly,
// PICOSECONDS per operation (e.g. 19 500 → 19.5 ns per evaluation). throughput is iterations
// per second; multiply by the bracketed count for operations per second. Compare p50; on a
// busy machine p0 (the fastest iteration) is the steadier figure. mallocCountTotal (set-up
// benchmarks only) is per iteration, so divide it by the count too.
//
// Duration: every benchmark stops after 1 s (or 1,000,000 iterations; CurveScaleBenchmarks.swift
// sets shorter durations for its own); the whole suite takes about 30 s plus the build.
// package-benchmark 1.38.1 has no command-line flag to change that (there
// is no --max-duration or --max-iterations); change `maxDuration` below instead.
//
// Ours and the baseline always run on the same input arrays (built once, from a fixed seed,
// before any benchmark runs), in the same process and run. Results are summed into an
// accumulator that goes through `blackHole` once per iteration, so no evaluation can be
// optimised away while the loop itself carries no extra call per evaluation.

import Benchmark
import Kinetic

/// SplitMix64: a small, seeded generator so that every run measures the same inputs.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The curves of the scalar benchmarks: CSS names plus a steep and an overshooting one.
let benchmarkCurves: [(name: String, x1: Double, y1: Double, x2: Double, y2: Double)] = [
    ("ease", 0.25, 0.1, 0.25, 1),
    ("ease-in-out", 0.42, 0, 0.58, 1),
    ("ease-out", 0, 0, 0.58, 1),
    ("steep (0.9,0.1,0.1,0.9)", 0.9, 0.1, 0.1, 0.9),
    ("overshoot (0.34,1.56,0.64,1)", 0.34, 1.56, 0.64, 1),
]

/// Operations per iteration for the "[1000 …]" benchmarks.
let opsPerIteration = 1000
/// Length of the shared random input arrays (a power of two; iterations walk through them).
///
/// Deliberately large (512 KiB of x). With a small array that repeats every few iterations
/// (4,096 x were tried) the CPU's branch predictor learns the sequence, and the baseline, whose
/// branches depend on x, measured 40–60 % faster than on fresh random input (about 15 ns
/// instead of 23–28 ns per x on the CSS curves); 65,536 and 262,144 x give the same figures.
/// Kinetic's solve has no data-dependent branch and measures the same either way.
let inputCount = 65_536

let benchmarks: @Sendable () -> Void = {
    #if os(Linux)
    // The BLAS-against-native benchmarks run `.blas`: Benchmarks/Package.swift enables Kinetic's
    // OpenBLAS trait for them.
    precondition(BLASRuntime.isAvailable, "no BLAS backend: Kinetic built without the OpenBLAS trait, or libopenblas.so.0 cannot be loaded")
    #endif
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(1),
        maxIterations: 1_000_000
    )
    batchBenchmarks() // Batch kernels: BatchBenchmarks.swift
    storeBenchmarks() // BatchStore and KeyframeBatch: StoreBenchmarks.swift
    engineBenchmarks() // The KineticUI engine against the core: EngineBenchmarks.swift
    motionBenchmarks() // Gesture motion (velocity tracker): MotionBenchmarks.swift
    cInterfaceBenchmarks() // The C interface against the Swift call: CInterfaceBenchmarks.swift
    curveScaleBenchmarks() // Many distinct curves (issue 17): CurveScaleBenchmarks.swift

    var rng = SeededGenerator(seed: 0x4B49_4E45_5449_43)
    // Random progress values in [0, 1], shared by every bezier benchmark.
    let xs = (0..<inputCount).map { _ in Double.random(in: 0...1, using: &rng) }
    // Random control points for the set-up benchmarks (x in [0, 1], y may overshoot).
    let controlPoints = (0..<inputCount).map { _ in
        (Double.random(in: 0...1, using: &rng), Double.random(in: -0.5...1.5, using: &rng),
         Double.random(in: 0...1, using: &rng), Double.random(in: -0.5...1.5, using: &rng))
    }
    // Random times in [0, 2] s for the spring closed form.
    let times = (0..<inputCount).map { _ in Double.random(in: 0...2, using: &rng) }

    // MARK: 1–2. Bezier scalar: one x at a time, ours against the baseline, per curve.
    // Iteration k evaluates xs[(k·1000 + i) mod 65536] for i in 0..<1000.

    for c in benchmarkCurves {
        let ours = try! CubicBezier(c.x1, c.y1, c.x2, c.y2)
        Benchmark("Bezier scalar \(c.name) (ours) [1000 evals]") { benchmark in
            let start = benchmark.currentIteration &* opsPerIteration
            var sum = 0.0
            xs.withUnsafeBufferPointer { p in
                for i in 0..<opsPerIteration {
                    sum += ours.value(at: p[(start &+ i) & (inputCount - 1)])
                }
            }
            blackHole(sum)
        }
    }
    for c in benchmarkCurves {
        let baseline = BrowserCubicBezier(c.x1, c.y1, c.x2, c.y2)
        Benchmark("Bezier scalar \(c.name) (baseline) [1000 evals]") { benchmark in
            let start = benchmark.currentIteration &* opsPerIteration
            var sum = 0.0
            xs.withUnsafeBufferPointer { p in
                for i in 0..<opsPerIteration {
                    sum += baseline.value(at: p[(start &+ i) & (inputCount - 1)])
                }
            }
            blackHole(sum)
        }
    }

    // MARK: 3. Bezier batch: one curve (ease) over 1,024 and 16,384 x per iteration.
    // Ours goes through `values(at:into:)`; the baseline loops its scalar solver over the same
    // input into the same kind of output buffer. Iteration k reads the window
    // pool[(k·n) mod 65536 ..< + n] of a shared input pool (fresh x every iteration, as in an
    // animation frame, and too many for the branch predictor to learn).

    let batchCurve = CubicBezier.ease
    let batchBaseline = BrowserCubicBezier(0.25, 0.1, 0.25, 1)
    // The pool and the output buffers live as long as the process (one suite per process).
    let pool = UnsafeMutableBufferPointer<Double>.allocate(capacity: inputCount)
    _ = pool.initialize(from: xs)
    for n in [1024, 16_384] {
        let output = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
        output.initialize(repeating: 0)
        Benchmark("Bezier batch ease n=\(n) (ours) [\(n) x]") { benchmark in
            let start = (benchmark.currentIteration &* n) & (inputCount - 1)
            let input = UnsafeBufferPointer(rebasing: pool[start..<(start + n)])
            try batchCurve.values(at: input, into: output)
            blackHole(output[n - 1])
        }
        Benchmark("Bezier batch ease n=\(n) (baseline) [\(n) x]") { benchmark in
            let start = (benchmark.currentIteration &* n) & (inputCount - 1)
            let input = UnsafeBufferPointer(rebasing: pool[start..<(start + n)])
            for i in 0..<n {
                output[i] = batchBaseline.value(at: input[i])
            }
            blackHole(output[n - 1])
        }
    }

    // Batch over 1,024 x for the other benchmark curves (ease-out and ease-in take the √x
    // variable; steep has a near-vertical tangent at x = 1/2, where segments fall back to the
    // scalar solve), and the one-time cost of the batch table: a fresh curve per iteration
    // (control points varied so nothing is cached), evaluated once over 1,024 x.
    let output1024 = UnsafeMutableBufferPointer<Double>.allocate(capacity: 1024)
    output1024.initialize(repeating: 0)
    for c in benchmarkCurves where c.name != "ease" {
        let curve = try! CubicBezier(c.x1, c.y1, c.x2, c.y2)
        let baseline = BrowserCubicBezier(c.x1, c.y1, c.x2, c.y2)
        Benchmark("Bezier batch \(c.name) n=1024 (ours) [1024 x]") { benchmark in
            let start = (benchmark.currentIteration &* 1024) & (inputCount - 1)
            try curve.values(at: UnsafeBufferPointer(rebasing: pool[start..<(start + 1024)]), into: output1024)
            blackHole(output1024[1023])
        }
        Benchmark("Bezier batch \(c.name) n=1024 (baseline) [1024 x]") { benchmark in
            let start = (benchmark.currentIteration &* 1024) & (inputCount - 1)
            for i in 0..<1024 { output1024[i] = baseline.value(at: pool[start + i]) }
            blackHole(output1024[1023])
        }
    }
    Benchmark("Bezier batch first call, table build included (ours) [1024 x]") { benchmark in
        let k = Double(benchmark.currentIteration & 1023)
        let curve = try CubicBezier(0.25, 0.1 + k * 1e-6, 0.25, 1)
        try curve.values(at: UnsafeBufferPointer(rebasing: pool[0..<1024]), into: output1024)
        blackHole(output1024[1023])
    }

    // MARK: 4. Curve set-up: construct with varying control points, evaluate once.
    // Iteration k builds the curves of controlPoints[(k·1000 + i) mod 65536], i in 0..<1000, and
    // evaluates each once at the matching x; nothing can be hoisted out of the loop.

    let setupConfiguration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal])
    Benchmark("Curve set-up construct+eval (ours) [1000 curves]", configuration: setupConfiguration) { benchmark in
        let start = benchmark.currentIteration &* opsPerIteration
        var sum = 0.0
        for i in 0..<opsPerIteration {
            let k = (start &+ i) & (inputCount - 1)
            let (x1, y1, x2, y2) = controlPoints[k]
            let curve = try CubicBezier(x1, y1, x2, y2)
            sum += curve.value(at: xs[k])
        }
        blackHole(sum)
    }
    Benchmark("Curve set-up construct+eval (baseline) [1000 curves]", configuration: setupConfiguration) { benchmark in
        let start = benchmark.currentIteration &* opsPerIteration
        var sum = 0.0
        for i in 0..<opsPerIteration {
            let k = (start &+ i) & (inputCount - 1)
            let (x1, y1, x2, y2) = controlPoints[k]
            let curve = makeBaseline(x1, y1, x2, y2)
            sum += curve.value(at: xs[k])
        }
        blackHole(sum)
    }

    // MARK: 5. Spring closed form: Spring.value(at:initialVelocity:) at many times.

    let springs: [(name: String, spring: Spring)] = [
        ("underdamped zeta=0.5", try! Spring(mass: 1, stiffness: 100, damping: 10)),
        ("critical zeta=1", try! Spring(mass: 1, stiffness: 100, damping: 20)),
        ("overdamped zeta=2.5", try! Spring(mass: 1, stiffness: 100, damping: 50)),
    ]
    for s in springs {
        let spring = s.spring
        Benchmark("Spring closed form \(s.name) [1000 samples]") { benchmark in
            let start = benchmark.currentIteration &* opsPerIteration
            var sum = 0.0
            times.withUnsafeBufferPointer { p in
                for i in 0..<opsPerIteration {
                    sum += spring.value(at: p[(start &+ i) & (inputCount - 1)], initialVelocity: 0.5)
                }
            }
            blackHole(sum)
        }
    }

    // MARK: 6. Spring Φ step: one exact step per spring, AoS through applied(to:) and SoA
    // through step(displacements:velocities:). The states are reset before the measured part of
    // each iteration (a damped spring stepped forever would decay into subnormal numbers).

    let phi = try! Spring(mass: 1, stiffness: 100, damping: 10).transition(over: 1.0 / 60)
    let initialStates = (0..<opsPerIteration).map { i in
        SpringState(displacement: xs[i] - 1, velocity: 4 * xs[inputCount - 1 - i] - 2)
    }
    let states = UnsafeMutableBufferPointer<SpringState>.allocate(capacity: opsPerIteration)
    _ = states.initialize(from: initialStates)
    Benchmark("Spring Phi step applied(to:) [1000 springs]") { benchmark in
        _ = states.update(from: initialStates)
        benchmark.startMeasurement()
        for i in 0..<opsPerIteration {
            states[i] = phi.applied(to: states[i])
        }
        blackHole(states[opsPerIteration - 1])
    }

    let springCount = 1024
    let initialDisplacements = (0..<springCount).map { xs[$0] - 1 }
    let initialVelocities = (0..<springCount).map { 4 * xs[inputCount - 1 - $0] - 2 }
    let displacements = UnsafeMutableBufferPointer<Double>.allocate(capacity: springCount)
    let velocities = UnsafeMutableBufferPointer<Double>.allocate(capacity: springCount)
    _ = displacements.initialize(from: initialDisplacements)
    _ = velocities.initialize(from: initialVelocities)
    Benchmark("Spring Phi step SoA step(displacements:velocities:) [1024 springs]") { benchmark in
        _ = displacements.update(from: initialDisplacements)
        _ = velocities.update(from: initialVelocities)
        benchmark.startMeasurement()
        try phi.step(displacements: displacements, velocities: velocities)
        blackHole(displacements[springCount - 1] + velocities[springCount - 1])
    }
}

/// Builds a baseline curve behind a call the optimiser cannot see through, as `CubicBezier.init`
/// (in another module) is for ours.
@inline(never)
private func makeBaseline(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> BrowserCubicBezier {
    BrowserCubicBezier(x1, y1, x2, y2)
}
