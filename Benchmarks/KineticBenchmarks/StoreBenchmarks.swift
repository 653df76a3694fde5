// BatchStore and KeyframeBatch (Sources/Kinetic/Engine/BatchStore*.swift, KeyframeBatch.swift).
//
// Run:   swift package --disable-sandbox benchmark --no-progress --filter "Store.*"
//
// Names: "Store <case> (<backend>) [<n> tracks|lanes]"; wallClock is ns per iteration (one
// frame), so ns per track (lane) per frame = wallClock / n (same conventions as
// KineticBenchmarks.swift). mallocCountTotal is per iteration: 0 means the frame allocated
// nothing. The bars:
//   - 100k keyframed scalar tracks (8 keys, every segment eased, time advancing by one 60 Hz
//     frame per iteration over a 2 s animation, then wrapping) ≤ 5 ns per track per frame;
//     native and BLAS side by side, with 100k KeyframeTrack.value(at:cursor:) calls (the
//     per-track scalar route) as the reference;
//   - a store tick over 100k lanes against Batch.interpolate directly over the same lanes
//     (one shared-progress group; one per-lane entry; 1,000 groups of 100 lanes), and a mixed
//     store with 25k lanes of each kind (groups, per-lane, keyframed, springs).

import Benchmark
import Kinetic

/// Frame counter shared by the iterations of one benchmark.
private final class FrameClock {
    var frame = 0
    /// Progress of a 2 s animation at 60 Hz, wrapping: 120 frames per cycle.
    func next() -> Double {
        frame += 1
        return Double(frame % 121) / 120
    }
}

func storeBenchmarks() {
    let n = 100_000, keys = 8
    var rng = SeededGenerator(seed: 0x5354_4F52_45)
    let config = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal])

    // MARK: Keyframes: 100k eased scalar tracks, 8 keys, one shared structure.
    let times = [0.0] + (1 ..< keys - 1).map { Double($0) / Double(keys - 1) + Double.random(in: -0.03...0.03, using: &rng) } + [1]
    let curves: [KeyframeInterpolation] = [.eased(.ease), .eased(.easeInOut), .eased(.easeIn), .eased(.easeOut),
                                           .eased(try! CubicBezier(0.34, 1.56, 0.64, 1)), .eased(.ease), .eased(.easeInOut)]
    let tracks = (0 ..< n).map { _ in
        try! KeyframeTrack(keyTimes: times, values: (0 ..< keys).map { _ in Double.random(in: -100...100, using: &rng) },
                           interpolations: curves)
    }
    let batch = try! KeyframeBatch(tracks: tracks)
    let out = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
    out.initialize(repeating: 0)
    for (name, backend) in [("native", Backend.native), ("blas", .blas), ("automatic", .automatic)] {
        let clock = FrameClock()
        Benchmark("Store keyframes 100k eased 8 keys (\(name)) [100000 tracks]", configuration: config) { _ in
            try batch.evaluate(at: clock.next(), into: out, backend: backend)
            blackHole(out[n - 1])
        }
    }
    do {
        let clock = FrameClock()
        var cursors = [KeyframeCursor](repeating: KeyframeCursor(), count: n)
        Benchmark("Store keyframes 100k eased 8 keys (KeyframeTrack.value with cursor) [100000 tracks]",
                  configuration: config) { _ in
            let p = clock.next()
            for t in 0 ..< n { out[t] = tracks[t].value(at: p, cursor: &cursors[t]) }
            blackHole(out[n - 1])
        }
    }
    do {
        let clock = FrameClock()
        let progress = UnsafeMutableBufferPointer<Double>.allocate(capacity: n)
        let offsets = (0 ..< n).map { _ in Double.random(in: -0.1...0.1, using: &rng) }
        Benchmark("Store keyframes 100k eased 8 keys per-track progress (native) [100000 tracks]",
                  configuration: config) { _ in
            let p = clock.next()
            for t in 0 ..< n { progress[t] = p + offsets[t] }
            try batch.evaluate(progress: UnsafeBufferPointer(progress), into: out)
            blackHole(out[n - 1])
        }
    }

    // MARK: Store tick against Batch.interpolate over the same 100k lanes.
    let from = (0 ..< n).map { _ in Double.random(in: -100...100, using: &rng) }
    let to = (0 ..< n).map { _ in Double.random(in: -100...100, using: &rng) }
    let progress = (0 ..< n).map { _ in Double.random(in: 0...1, using: &rng) }
    let delta = zip(to, from).map { $0 - $1 }
    let groupStore = BatchStore()
    let group = try! groupStore.addGroup(from: from, to: to)
    let laneStore = BatchStore()
    _ = try! laneStore.addLanes(from: from, to: to, progress: progress)
    let manyStore = BatchStore()
    let many = (0 ..< 1000).map { g in
        try! manyStore.addGroup(from: Array(from[g * 100 ..< g * 100 + 100]), to: Array(to[g * 100 ..< g * 100 + 100]))
    }
    for (name, backend) in [("native", Backend.native), ("blas", .blas)] {
        let clock = FrameClock()
        Benchmark("Store tick 100k lanes one group (\(name)) [100000 lanes]", configuration: config) { _ in
            try groupStore.setProgress(clock.next(), for: group)
            try groupStore.tick(over: 1.0 / 60, backend: backend)
            blackHole(try groupStore.value(of: group, lane: n - 1))
        }
        Benchmark("Store tick 100k lanes one group Batch.interpolate direct (\(name)) [100000 lanes]",
                  configuration: config) { _ in
            try from.withUnsafeBufferPointer { f in
                try delta.withUnsafeBufferPointer { d in
                    try Batch.interpolate(from: f, delta: d, progress: clock.next(), into: out, backend: backend)
                }
            }
            blackHole(out[n - 1])
        }
        Benchmark("Store tick 100k lanes per-lane (\(name)) [100000 lanes]", configuration: config) { _ in
            try laneStore.tick(over: 1.0 / 60, backend: backend)
            blackHole(laneStore.laneCount)
        }
        Benchmark("Store tick 100k lanes per-lane Batch.interpolate direct (\(name)) [100000 lanes]",
                  configuration: config) { _ in
            try from.withUnsafeBufferPointer { f in
                try delta.withUnsafeBufferPointer { d in
                    try progress.withUnsafeBufferPointer { p in
                        try Batch.interpolate(from: f, delta: d, progress: p, into: out, backend: backend)
                    }
                }
            }
            blackHole(out[n - 1])
        }
        Benchmark("Store tick 100k lanes 1000 groups (\(name)) [100000 lanes]", configuration: config) { _ in
            let p = clock.next()
            for h in many { try manyStore.setProgress(p, for: h) }
            try manyStore.tick(over: 1.0 / 60, backend: backend)
            blackHole(manyStore.laneCount)
        }
    }

    // MARK: A mixed store: 25k lanes of each kind (the malloc-free check over every kind).
    let q = n / 4
    let mixed = BatchStore()
    let mixedGroup = try! mixed.addGroup(from: Array(from[0 ..< q]), to: Array(to[0 ..< q]))
    _ = try! mixed.addLanes(from: Array(from[q ..< 2 * q]), to: Array(to[q ..< 2 * q]), progress: Array(progress[q ..< 2 * q]))
    let mixedKeys = try! mixed.addKeyframes(Array(tracks[0 ..< q]))
    _ = try! mixed.addSprings(try! Spring(dampingRatio: 0.9995, response: 1), targets: Array(to[3 * q ..< n]),
                              displacements: Array(from[3 * q ..< n]))
    for (name, backend) in [("native", Backend.native), ("blas", .blas)] {
        let clock = FrameClock()
        Benchmark("Store tick mixed 25k group + 25k per-lane + 25k keyframed + 25k springs (\(name)) [100000 lanes]",
                  configuration: config) { _ in
            let p = clock.next()
            try mixed.setProgress(p, for: mixedGroup)
            try mixed.setProgress(p, for: mixedKeys)
            try mixed.tick(over: 1.0 / 60, backend: backend)
            blackHole(mixed.laneCount)
        }
    }
}
