// Gesture motion (Sources/Kinetic/Motion): the velocity tracker's cost per estimate.
//
// Run:   swift package --disable-sandbox benchmark --no-progress --filter "Motion.*"
//
// Names end with "[<n> estimates]"; wallClock is ns per iteration, so ns per estimate =
// wallClock / n.
//   - "Motion tracker add and estimate, 20 samples (<strategy>) [1000 estimates]": a tracker
//     holding 20 samples 5 ms apart (all within the 100 ms horizon, so every estimate uses
//     20); one estimate = add the next sample of a random stroke, then the release velocity.
//     LSQ2 and impulse side by side. Bar (issue 20): an estimate from 20 samples ≤ 1 µs;
//     mallocCountTotal 0 (no allocation per sample or estimate).
//   - "Motion decay 100k lanes, one store tick (native) [100000 lanes]": a BatchStore holding
//     one decays entry of 100,000 lanes; one iteration = one 60 Hz tick (every lane stepped
//     exactly and written). The decay constant is 0.001 per second, so that the lanes stay in
//     motion however many iterations run (UIScrollView's rate would bring the velocities to
//     subnormal numbers, which real content never reaches: it stops); the cost per lane does
//     not depend on the constant. Bar: ≤ 0.4 ns per lane, like spring lanes.
//   - "Motion retarget 10k springs [10000 lanes]" against "Motion spring tick 10k (store)
//     [10000 lanes]": moving the targets of 10,000 running springs of one entry (alternating
//     between two target sets) against one store tick of those springs. Bar: ≤ 2×.

import Benchmark
import Kinetic

func motionBenchmarks() {
    let config = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal])
    var rng = SeededGenerator(seed: 0x4d4f_5449_4f4e)
    let stroke = (0 ..< 4096).map { _ in Double.random(in: -3...3, using: &rng) }
    for (name, strategy) in [("LSQ2", VelocityStrategy.leastSquares), ("impulse", .impulse)] {
        var tracker = try! VelocityTracker(strategy: strategy)
        var time = 0.0, position = 0.0, k = 0
        func next() {
            time += 0.005
            position += 4 + stroke[k & 4095]
            k += 1
            try! tracker.add(time: time, position: position)
        }
        for _ in 0 ..< 20 { next() }
        Benchmark("Motion tracker add and estimate, 20 samples (\(name)) [1000 estimates]", configuration: config) { _ in
            var sum = 0.0
            for _ in 0 ..< 1000 {
                next()
                sum += tracker.velocity()
            }
            blackHole(sum)
        }
    }

    // MARK: Decaying lanes and retargeting in the engine's store.
    do {
        let n = 100_000
        let store = BatchStore()
        let x = (0 ..< n).map { _ in Double.random(in: -1000 ... 1000, using: &rng) }
        let v = (0 ..< n).map { _ in Double.random(in: -8000 ... 8000, using: &rng) }
        _ = try! store.addDecays(try! ExponentialDecay(decayConstant: 0.001), positions: x, velocities: v)
        try! store.tick(over: 1.0 / 60)
        Benchmark("Motion decay 100k lanes, one store tick (native) [100000 lanes]", configuration: config) { _ in
            try store.tick(over: 1.0 / 60, backend: .native)
        }
    }
    do {
        let n = 10_000
        let spring = try! Spring(dampingRatio: 0.8, response: 0.4)
        let first = (0 ..< n).map { _ in Double.random(in: -500 ... 500, using: &rng) }
        let second = first.map { $0 + 100 }
        let store = BatchStore()
        let handle = try! store.addSprings(spring, targets: first,
                                           displacements: first.map { _ in Double.random(in: -300 ... 300, using: &rng) })
        try! store.tick(over: 1.0 / 60)
        var flip = false
        Benchmark("Motion retarget 10k springs [10000 lanes]", configuration: config) { _ in
            flip.toggle()
            try (flip ? second : first).withUnsafeBufferPointer { try store.retargetSprings(handle, targets: $0) }
        }
        let stepped = BatchStore()
        _ = try! stepped.addSprings(spring, targets: first,
                                    displacements: first.map { _ in Double.random(in: -300 ... 300, using: &rng) })
        Benchmark("Motion spring tick 10k (store) [10000 lanes]", configuration: config) { _ in
            try stepped.tick(over: 1.0 / 60, backend: .native)
        }
    }
}
