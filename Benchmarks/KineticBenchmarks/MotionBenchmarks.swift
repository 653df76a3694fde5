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
}
