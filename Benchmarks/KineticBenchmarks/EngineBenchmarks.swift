// The KineticUI engine (Sources/KineticUI/Engine): one tick over many running animators,
// against the same work done directly through the Kinetic core.
//
// Run:   swift package --disable-sandbox benchmark --no-progress --filter "Engine.*"
//
// Names end with "[<n> lanes]" or "[<n> animators]"; wallClock is ns per iteration.
//   - "Engine tick 10k animators x 10 lanes (engine)": 10,000 running PropertyAnimators, each
//     animating one view's center (2 lanes), bounds (4: origin and size) and backgroundColor (4) with one of
//     five cubic curves; one iteration = one 60 Hz clock advance = one engine tick (timing of
//     every animator, every lane written). Bars: ≤ 1 ms per tick, ≤ 2× the direct figure;
//     mallocCountTotal 0 (no allocation per tick); the custom metric "engine bytes per lane"
//     ≤ 64.
//   - "Engine tick 10k animators x 10 lanes (direct core)": the same work through the core:
//     per animator one CubicBezier solve at the same time fraction, then a BatchStore of
//     10,000 shared-progress groups of 10 lanes evaluated once.
//   - "Engine create, start and complete [10000 animators]": one iteration creates 10,000
//     animators (one alpha change each), starts them and advances the clock past their end
//     (every completion handler runs). Reported figure, no bar.
//
// The engine is main-actor isolated: the closures hop to the main actor and start and stop
// the measurement inside it, so the hop is not measured (nor its allocations).

import Benchmark
import Kinetic
import KineticUI

/// The five curves the animators cycle through.
private let engineCurves: [CubicBezier] = [.ease, .easeIn, .easeOut, .easeInOut, try! CubicBezier(0.34, 1.56, 0.64, 1)]

@MainActor
private final class EngineFixture {
    let engine = AnimationEngine()
    var frame = 0
    var views: [View] = []
    var animators: [PropertyAnimator] = []

    init(animators count: Int) {
        for i in 0 ..< count {
            let v = View(frame: Rect(x: Double(i % 100), y: Double(i / 100), width: 10, height: 10))
            v.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3)
            let c = engineCurves[i % engineCurves.count]
            let a = try! PropertyAnimator(duration: 1_000_000, timingParameters: try! CubicTimingParameters(
                controlPoint1: Point(x: c.x1, y: c.y1), controlPoint2: Point(x: c.x2, y: c.y2)), engine: engine)
            try! a.addAnimations {
                v.center = Point(x: Double(i % 100) + 215, y: Double(i / 100) + 70)
                v.bounds = Rect(x: 3, y: -2, width: 30, height: 40)
                v.backgroundColor = Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.5)
            }
            try! a.startAnimation()
            views.append(v)
            animators.append(a)
        }
        // Jump to the middle of the runs, where every curve has work to do.
        try! engine.clock.advance(to: 250_000)
    }

    func tick() {
        frame += 1
        try! engine.clock.advance(to: 250_000 + Double(frame) / 60)
    }
}

/// The same work through the core: one solve per animator, one BatchStore evaluation.
private final class DirectFixture {
    let store = BatchStore()
    var handles: [BatchStore.Handle] = []
    var frame = 0
    let count: Int

    init(animators count: Int) {
        self.count = count
        for i in 0 ..< count {
            let from = [Double(i % 100) + 5, Double(i / 100) + 5, 0, 0, 10, 10, 0.1, 0.2, 0.3, 1]
            let to = [Double(i % 100) + 215, Double(i / 100) + 70, 3, -2, 30, 40, 0.9, 0.5, 0.1, 0.5]
            handles.append(try! store.addGroup(from: from, to: to))
        }
    }

    func tick() {
        frame += 1
        let f = (250_000 + Double(frame) / 60) / 1_000_000
        for i in 0 ..< count {
            try! store.setProgress(engineCurves[i % engineCurves.count].value(at: f), for: handles[i])
        }
        try! store.evaluate(backend: .native)
    }
}

func engineBenchmarks() {
    let animators = 10_000
    let config = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal,
                                                   .custom("engine bytes per lane", useScalingFactor: false)])
    nonisolated(unsafe) var engineFixture: EngineFixture?
    Benchmark("Engine tick 10k animators x 10 lanes (engine) [100000 lanes]", configuration: config) { benchmark async in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            if engineFixture == nil { engineFixture = EngineFixture(animators: animators) }
            let fixture = engineFixture!
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { fixture.tick() }
            benchmark.stopMeasurement()
            let lanes = fixture.engine.animatedLaneCount
            benchmark.measurement(.custom("engine bytes per lane", useScalingFactor: false),
                                  fixture.engine.storageBytes / max(lanes, 1))
            blackHole(fixture.views[animators - 1].presentation.center.x)
        }
    }
    nonisolated(unsafe) var directFixture: DirectFixture?
    Benchmark("Engine tick 10k animators x 10 lanes (direct core) [100000 lanes]",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal])) { benchmark in
        if directFixture == nil { directFixture = DirectFixture(animators: animators) }
        let fixture = directFixture!
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { fixture.tick() }
        benchmark.stopMeasurement()
        blackHole(try! fixture.store.value(of: fixture.handles[animators - 1]))
    }
    Benchmark("Engine create, start and complete [10000 animators]",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxIterations: 20)) { benchmark async in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            benchmark.startMeasurement()
            defer { benchmark.stopMeasurement() }
            let engine = AnimationEngine()
            var completed = 0
            for i in 0 ..< animators {
                let v = View(frame: Rect(x: Double(i), y: 0, width: 10, height: 10))
                let a = try! PropertyAnimator(duration: 0.25, curve: .easeInOut, engine: engine) { v.alpha = 0 }
                a.addCompletion { _ in completed += 1 }
                try! a.startAnimation()
            }
            try! engine.clock.advance(to: 0.1)
            try! engine.clock.advance(to: 0.3)
            precondition(completed == animators)
            blackHole(completed)
        }
    }
}
