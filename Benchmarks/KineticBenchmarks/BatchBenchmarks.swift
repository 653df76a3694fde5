// Batch kernels (Sources/Kinetic/Backends): native SIMD loops against OpenBLAS, with a plain
// memory copy of the same output bytes as the speed-of-memory baseline, all in one run.
//
// Run:   swift package --disable-sandbox benchmark --no-progress --filter "Batch.*"
//
// Names: "Batch <case> (<backend>) [<lanes> lanes]"; wallClock is ns per iteration, so
// ns per lane = wallClock / lanes (same conventions as KineticBenchmarks.swift). The bars:
//   - shared progress (reads 2 arrays, writes 1) ≤ 1.5 × the copy of N doubles (reads 1, writes 1);
//   - per-lane progress (reads 3, writes 1) ≤ 2 × that copy;
//   - spring step ≤ 0.4 ns per spring per frame;
//   - 1M lanes over two cores ≥ 1.7 × one core, or within 1.2 × of a two-core copy;
//   - automatic within 10 % of the faster backend.
//
// "Batch calibrate …" runs each kernel at 16 … 65,536 lanes; every iteration repeats the call
// 65,536 / n times, so that every size does the same total work ([65536 lanes]) and the figure
// per lane is comparable across sizes. These are the figures BatchCalibration.swift is built from.
//
// Every buffer is allocated once, before any benchmark runs; the kernels themselves allocate
// nothing. Spring groups use a very lightly damped spring (α = 5e-4 /s) so that states stay far
// from subnormal numbers however many iterations run.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Benchmark
import Dispatch
import Kinetic

/// Doubles filled from a fixed seed, allocated for the life of the process.
private func randomBuffer(_ n: Int, _ range: ClosedRange<Double>, _ rng: inout SeededGenerator) -> UnsafeMutableBufferPointer<Double> {
    let b = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
    for i in 0..<n { b.initializeElement(at: i, to: Double.random(in: range, using: &rng)) }
    return b
}

/// Copies `n` doubles, on one thread or split in two halves over two threads.
private func copy(_ src: UnsafeMutableBufferPointer<Double>, _ dst: UnsafeMutableBufferPointer<Double>, _ n: Int, twoCores: Bool) {
    let s = UnsafeRawPointer(src.baseAddress!), d = UnsafeMutableRawPointer(dst.baseAddress!)
    if !twoCores {
        d.copyMemory(from: s, byteCount: n * 8)
        return
    }
    let half = (n / 2) & ~7
    let sBits = Int(bitPattern: s), dBits = Int(bitPattern: d)
    DispatchQueue.concurrentPerform(iterations: 2) { part in
        let lo = part == 0 ? 0 : half, hi = part == 0 ? half : n
        let s = UnsafeRawPointer(bitPattern: sBits)!, d = UnsafeMutableRawPointer(bitPattern: dBits)!
        (d + lo * 8).copyMemory(from: s + lo * 8, byteCount: (hi - lo) * 8)
    }
}

/// A benchmark that copies `n` doubles from `src` to `dst` (the speed-of-memory baselines).
private func copyBenchmark(_ name: String, _ src: UnsafeMutableBufferPointer<Double>,
                           _ dst: UnsafeMutableBufferPointer<Double>, _ n: Int, twoCores: Bool = false) {
    Benchmark(name) { _ in
        copy(src, dst, n, twoCores: twoCores)
        blackHole(dst[n - 1])
    }
}

func batchBenchmarks() {
    let big = 1_000_000, n = 100_000
    var rng = SeededGenerator(seed: 0x4241_5443_48)
    let from = randomBuffer(big, -100...100, &rng)
    let delta = randomBuffer(big, -100...100, &rng)
    let progress = randomBuffer(big, 0...1, &rng)
    let out = UnsafeMutableBufferPointer<Double>.allocate(capacity: big)
    out.initialize(repeating: 0)
    let f100 = UnsafeBufferPointer(rebasing: from[0..<n]), d100 = UnsafeBufferPointer(rebasing: delta[0..<n])
    let p100 = UnsafeBufferPointer(rebasing: progress[0..<n]), o100 = UnsafeMutableBufferPointer(rebasing: out[0..<n])
    let named: [(String, Backend)] = [("native", .native), ("blas", .blas), ("automatic", .automatic)]

    // MARK: 100k lanes
    copyBenchmark("Batch 100k memcpy baseline [100000 lanes]", from, out, n)
    // The same number of bytes as the kernels move: shared progress moves 3 doubles per lane
    // (a copy of 1.5 N doubles moves as many), per-lane progress and a spring step 4 (2 N).
    copyBenchmark("Batch 100k memcpy same traffic as shared (1.5N doubles) [100000 lanes]", from, out, n + n / 2)
    copyBenchmark("Batch 100k memcpy same traffic as per-lane and spring (2N doubles) [100000 lanes]", from, out, 2 * n)
    for (name, backend) in named {
        Benchmark("Batch 100k shared progress (\(name)) [100000 lanes]") { benchmark in
            try Batch.interpolate(from: f100, delta: d100, progress: 0.37, into: o100, backend: backend)
            blackHole(out[n - 1])
        }
        Benchmark("Batch 100k per-lane progress (\(name)) [100000 lanes]") { benchmark in
            try Batch.interpolate(from: f100, delta: d100, progress: p100, into: o100, backend: backend)
            blackHole(out[n - 1])
        }
    }

    // Spring groups: 100k springs, one 1/60 s step per iteration.
    let lightSpring = try! Spring(mass: 1, stiffness: 100, damping: 0.001)
    for (name, backend) in named {
        let group = try! SpringGroup(spring: lightSpring, count: n)
        group.withState { x, v in
            for i in 0..<n { x[i] = from[i]; v[i] = delta[i] }
        }
        Benchmark("Batch 100k spring step (\(name)) [100000 springs]") { _ in
            try group.step(over: 1.0 / 60, backend: backend)
            blackHole(group.displacement(at: n - 1))
        }
    }

    // Composition: 4 animations summed, and weighted.
    let k = 4
    let contributions = randomBuffer(k * n, -1...1, &rng)
    let weights = randomBuffer(k, 0...1, &rng)
    for (name, backend) in named {
        Benchmark("Batch 100k compose 4 sum (\(name)) [100000 lanes]") { _ in
            try Batch.compose(UnsafeBufferPointer(contributions), contributionCount: k, into: o100, backend: backend)
            blackHole(out[n - 1])
        }
        Benchmark("Batch 100k compose 4 weighted (\(name)) [100000 lanes]") { _ in
            try Batch.compose(UnsafeBufferPointer(contributions), contributionCount: k, weights: UnsafeBufferPointer(weights),
                              into: o100, backend: backend)
            blackHole(out[n - 1])
        }
    }

    // Bake: 10 frames × 100k lanes = 1M outputs (8 MB) per iteration.
    let frames = 10
    let keys = UnsafeBufferPointer(rebasing: from[0..<(2 * n)])
    let frameProgress = randomBuffer(frames, 0...1, &rng)
    let baked = UnsafeMutableBufferPointer<Double>.allocate(capacity: frames * n)
    baked.initialize(repeating: 0)
    copyBenchmark("Batch 100k bake 10 frames memcpy baseline [1000000 values]", from, baked, frames * n)
    for (name, backend) in named {
        Benchmark("Batch 100k bake 10 frames (\(name)) [1000000 values]") { _ in
            try Batch.bake(progress: UnsafeBufferPointer(frameProgress), keys: keys, into: baked, backend: backend)
            blackHole(baked[frames * n - 1])
        }
    }

    // MARK: 1M lanes, one core against two
    // The alternative to the 1.7× speed-up where memory bandwidth is the limit: within
    // 1.2× of a two-core copy of the same bytes (1.5 N doubles for shared progress, 2 N for
    // per-lane progress and springs), from buffers of their own (2 M doubles each way).
    let copySource = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2 * big)
    copySource.initialize(repeating: 0.5)
    let copyTarget = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2 * big)
    copyTarget.initialize(repeating: 0)
    copyBenchmark("Batch 1M memcpy same traffic as shared 2 cores (1.5N doubles) [1000000 lanes]",
                  copySource, copyTarget, big + big / 2, twoCores: true)
    copyBenchmark("Batch 1M memcpy same traffic as per-lane and spring 2 cores (2N doubles) [1000000 lanes]",
                  copySource, copyTarget, 2 * big, twoCores: true)
    for twoCores in [false, true] {
        let cores = twoCores ? "2 cores" : "1 core"
        copyBenchmark("Batch 1M memcpy baseline \(cores) [1000000 lanes]", from, out, big, twoCores: twoCores)
        for (name, backend) in named.prefix(2) {
            Benchmark("Batch 1M shared progress \(cores) (\(name)) [1000000 lanes]") { _ in
                try Batch.interpolate(from: UnsafeBufferPointer(from), delta: UnsafeBufferPointer(delta), progress: 0.37,
                                      into: out, backend: backend, parallel: twoCores)
                blackHole(out[big - 1])
            }
            Benchmark("Batch 1M per-lane progress \(cores) (\(name)) [1000000 lanes]") { _ in
                try Batch.interpolate(from: UnsafeBufferPointer(from), delta: UnsafeBufferPointer(delta),
                                      progress: UnsafeBufferPointer(progress), into: out, backend: backend, parallel: twoCores)
                blackHole(out[big - 1])
            }
            let group = try! SpringGroup(spring: lightSpring, count: big)
            group.withState { x, v in
                for i in 0..<big { x[i] = from[i]; v[i] = delta[i] }
            }
            Benchmark("Batch 1M spring step \(cores) (\(name)) [1000000 springs]") { _ in
                try group.step(over: 1.0 / 60, backend: backend, parallel: twoCores)
                blackHole(group.displacement(at: big - 1))
            }
        }
    }

    // MARK: Calibration sweep: same total work (65,536 lanes) per iteration at every size.
    let total = 65_536
    for size in [16, 256, 4096, 65_536] {
        let reps = total / size
        let label = String(repeating: "0", count: 5 - String(size).count) + String(size)
        let f = UnsafeBufferPointer(rebasing: from[0..<size]), d = UnsafeBufferPointer(rebasing: delta[0..<size])
        let p = UnsafeBufferPointer(rebasing: progress[0..<size]), o = UnsafeMutableBufferPointer(rebasing: out[0..<size])
        let c = UnsafeBufferPointer(rebasing: contributions[0..<(k * size)])
        let bakeLanes = max(1, size / frames)
        let bakeKeys = UnsafeBufferPointer(rebasing: from[0..<(2 * bakeLanes)])
        let bakeOut = UnsafeMutableBufferPointer(rebasing: baked[0..<(frames * bakeLanes)])
        for (name, backend) in named.prefix(2) {
            Benchmark("Batch calibrate n=\(label) shared (\(name)) [65536 lanes]") { _ in
                for _ in 0..<reps { try Batch.interpolate(from: f, delta: d, progress: 0.37, into: o, backend: backend) }
                blackHole(o[size - 1])
            }
            Benchmark("Batch calibrate n=\(label) per-lane (\(name)) [65536 lanes]") { _ in
                for _ in 0..<reps { try Batch.interpolate(from: f, delta: d, progress: p, into: o, backend: backend) }
                blackHole(o[size - 1])
            }
            let group = try! SpringGroup(spring: lightSpring, count: size)
            group.withState { x, v in
                for i in 0..<size { x[i] = from[i]; v[i] = delta[i] }
            }
            Benchmark("Batch calibrate n=\(label) spring (\(name)) [65536 lanes]") { _ in
                for _ in 0..<reps { try group.step(over: 1.0 / 60, backend: backend) }
                blackHole(group.displacement(at: size - 1))
            }
            Benchmark("Batch calibrate n=\(label) compose 4 (\(name)) [65536 lanes]") { _ in
                for _ in 0..<reps { try Batch.compose(c, contributionCount: k, into: o, backend: backend) }
                blackHole(o[size - 1])
            }
            Benchmark("Batch calibrate n=\(label) bake 10 frames (\(name)) [\(reps * frames * bakeLanes) values]") { _ in
                for _ in 0..<reps {
                    try Batch.bake(progress: UnsafeBufferPointer(frameProgress), keys: bakeKeys, into: bakeOut, backend: backend)
                }
                blackHole(bakeOut[0])
            }
        }
    }
}
