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
//     (every completion handler runs), on a new engine with new views. Reported figure; it
//     includes growing the new engine's storage from empty to 10,000 runs.
//   - "Engine create, start and complete on a live engine [10000 animators]": the same
//     animators on an engine and 10,000 views that the host already has (made before the
//     first iteration, as UIKit's window and views exist before their animators): each
//     iteration animates every view's alpha to the other end. Issue 18's bar (1 µs each)
//     is read on this one: it is the animators' own cost.
//   - "Engine tick 10k runs x 10 lanes (C kn_engine) [100000 lanes]": the same 10,000 runs of
//     10 lanes (same curves, targets and time) through the C interface: one
//     kn_engine_advance_to per iteration. The C front is a call into the same engine, so this
//     is the bare engine's tick plus one call: the UIKit front's tick ÷ this one is what the
//     Swift front adds (issue 18: ≤ 1.1), and this ÷ the direct core is the engine against
//     the bare kernel pass (issue 18: ≤ 1.1).
//   - "Engine create, start and complete (C kn_engine) [10000 runs]": 10,000 runs created with
//     one lane animation each, started, advanced past their end and every event drained.
//   - "Engine interrupt one animator among <n> running [100 animators]": n running animators
//     (alpha and center, cycling the five curves); one iteration interrupts 100 of them in
//     turn, each once, between two ticks: pause, reverse, continue, stop, finish at .current,
//     a new animation, start. The figure for 10,000 ÷ the one for 100 is gated: a call on one
//     animator must not pass over the others.
//
// The engine is main-actor isolated: the closures hop to the main actor and start and stop
// the measurement inside it, so the hop is not measured (nor its allocations).

import Benchmark
import Kinetic
import KineticC
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

/// `count` running animators (one view's alpha and center each, a long duration), and the
/// calls that interrupt them one at a time between two ticks.
@MainActor
private final class InterruptFixture {
    let engine = AnimationEngine()
    var views: [View] = []
    var animators: [PropertyAnimator] = []
    var next = 0

    init(animators count: Int) {
        for i in 0 ..< count {
            let v = View(frame: Rect(x: Double(i % 100), y: Double(i / 100), width: 10, height: 10))
            let c = engineCurves[i % engineCurves.count]
            let a = try! PropertyAnimator(duration: 1_000_000, controlPoint1: Point(x: c.x1, y: c.y1),
                                          controlPoint2: Point(x: c.x2, y: c.y2), engine: engine) {
                v.alpha = 0.5
                v.center = Point(x: 300, y: 200)
            }
            try! a.startAnimation()
            views.append(v)
            animators.append(a)
        }
        try! engine.clock.advance(to: 1)
    }

    /// Interrupts the next `rounds` animators, each once: pause, reverse, continue; then stop,
    /// finish where it is, a new animation and a new start. Every animator runs afterwards.
    func interrupt(_ rounds: Int) {
        for _ in 0 ..< rounds {
            let a = animators[next], v = views[next]
            next = (next + 1) % animators.count
            try! a.pauseAnimation()
            a.isReversed.toggle()
            try! a.continueAnimation(withTimingParameters: nil, durationFactor: 1)
            try! a.stopAnimation(false)
            try! a.finishAnimation(at: .current)
            try! a.addAnimations { v.alpha = v.alpha == 0.5 ? 1 : 0.5 }
            try! a.startAnimation()
        }
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

/// The C-interface fixture: 10,000 runs of 10 lanes, as the UIKit one lays its views out.
private final class CEngineFixture {
    var engine: OpaquePointer?
    var frame = 0

    init(runs count: Int) {
        precondition(kn_engine_create(&engine) == 0)
        for i in 0 ..< count {
            let from = [Double(i % 100) + 5, Double(i / 100) + 5, 0, 0, 10, 10, 0.1, 0.2, 0.3, 1]
            let to = [Double(i % 100) + 215, Double(i / 100) + 70, 3, -2, 30, 40, 0.9, 0.5, 0.1, 0.5]
            var first: Int64 = 0
            precondition(kn_engine_add_lanes(engine, from, 10, &first) == 0)
            let c = engineCurves[i % engineCurves.count]
            var timing = cTiming(kind: 1, c.x1, c.y1, c.x2, c.y2)
            var run: UInt64 = 0
            precondition(kn_engine_run_create(engine, &timing, 1_000_000, &run) == 0)
            let lanes = (0 ..< 10).map { first + Int64($0) }
            let vertical: [Int32] = [0, 1, 0, 1, 0, 1, 0, 0, 0, 0]
            precondition(kn_engine_run_add_animations(engine, run, lanes, to, vertical, 10, 0) == 0)
            precondition(kn_engine_run_start(engine, run) == 0)
        }
        precondition(kn_engine_advance_to(engine, 250_000) == 0)
    }

    func tick() {
        frame += 1
        precondition(kn_engine_advance_to(engine, 250_000 + Double(frame) / 60) == 0)
    }

    deinit { kn_engine_destroy(engine) }
}

/// An engine and its views that outlive the benchmark's iterations: each round animates
/// every view's alpha with a new animator, to the other end of its range, and completes them.
@MainActor
private final class LiveEngineFixture {
    let engine = AnimationEngine()
    let views: [View]

    init(views count: Int) {
        views = (0 ..< count).map { View(frame: Rect(x: Double($0), y: 0, width: 10, height: 10)) }
    }

    /// Creates, starts and completes one animator per view; returns how many completed.
    func round() -> Int {
        var completed = 0
        for v in views {
            let target = v.alpha == 0 ? 1.0 : 0.0
            let a = try! PropertyAnimator(duration: 0.25, curve: .easeInOut, engine: engine) { v.alpha = target }
            a.addCompletion { _ in completed += 1 }
            try! a.startAnimation()
        }
        try! engine.clock.advance(by: 0.1)
        try! engine.clock.advance(by: 0.2)
        precondition(completed == views.count && engine.activeAnimatorCount == 0)
        return completed
    }
}

/// A `kn_timing` (72 bytes: kind, x1, y1, x2, y2, damping ratio, spring, velocities).
private func cTiming(kind: Int32, _ x1: Double = 0, _ y1: Double = 0, _ x2: Double = 0, _ y2: Double = 0) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 72)
    withUnsafeBytes(of: kind) { for (k, b) in $0.enumerated() { bytes[k] = b } }
    for (n, v) in [x1, y1, x2, y2].enumerated() {
        withUnsafeBytes(of: v) { for (k, b) in $0.enumerated() { bytes[8 + 8 * n + k] = b } }
    }
    return bytes
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
    // The same on the engine and views a host already has (UIKit's window and its views):
    // animators alone, without the cost of growing a new engine's storage from empty.
    nonisolated(unsafe) var liveFixture: LiveEngineFixture?
    Benchmark("Engine create, start and complete on a live engine [10000 animators]",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxIterations: 20)) { benchmark async in
        nonisolated(unsafe) let benchmark = benchmark
        await MainActor.run {
            if liveFixture == nil { liveFixture = LiveEngineFixture(views: animators) }
            let fixture = liveFixture!
            benchmark.startMeasurement()
            defer { benchmark.stopMeasurement() }
            blackHole(fixture.round())
        }
    }
    // One animator at a time among many: the cost of a call must not grow with the number
    // of other animators running (gated: the 10,000 figure ÷ the 100 one).
    nonisolated(unsafe) var interruptFixtures: [Int: InterruptFixture] = [:]
    for running in [100, 10_000] {
        Benchmark("Engine interrupt one animator among \(running) running [100 animators]",
                  configuration: .init(metrics: [.wallClock, .throughput])) { benchmark async in
            nonisolated(unsafe) let benchmark = benchmark
            await MainActor.run {
                if interruptFixtures[running] == nil { interruptFixtures[running] = InterruptFixture(animators: running) }
                let fixture = interruptFixtures[running]!
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { fixture.interrupt(100) }
                benchmark.stopMeasurement()
                blackHole(fixture.animators[0].fractionComplete)
            }
        }
    }
    nonisolated(unsafe) var cFixture: CEngineFixture?
    Benchmark("Engine tick 10k runs x 10 lanes (C kn_engine) [100000 lanes]",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal])) { benchmark in
        if cFixture == nil { cFixture = CEngineFixture(runs: animators) }
        let fixture = cFixture!
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { fixture.tick() }
        benchmark.stopMeasurement()
        var last = 0.0
        _ = kn_engine_read(fixture.engine, 99_999, 1, &last)
        blackHole(last)
    }
    Benchmark("Engine create, start and complete (C kn_engine) [10000 runs]",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxIterations: 20)) { benchmark in
        benchmark.startMeasurement()
        defer { benchmark.stopMeasurement() }
        var engine: OpaquePointer?
        precondition(kn_engine_create(&engine) == 0)
        defer { kn_engine_destroy(engine) }
        let values = [Double](repeating: 1, count: animators)
        var first: Int64 = 0
        precondition(kn_engine_add_lanes(engine, values, Int64(animators), &first) == 0)
        var timing = cTiming(kind: 1, 0.42, 0, 0.58, 1)
        var target = 0.0
        for i in 0 ..< animators {
            var run: UInt64 = 0
            precondition(kn_engine_run_create(engine, &timing, 0.25, &run) == 0)
            var lane = first + Int64(i)
            precondition(kn_engine_run_add_animations(engine, run, &lane, &target, nil, 1, 0) == 0)
            precondition(kn_engine_run_start(engine, run) == 0)
        }
        precondition(kn_engine_advance_to(engine, 0.1) == 0 && kn_engine_advance_to(engine, 0.3) == 0)
        var event = [UInt8](repeating: 0, count: 16), has: Int32 = 1, completed = 0
        while has != 0 {
            precondition(event.withUnsafeMutableBytes { kn_engine_next_event(engine, $0.baseAddress, &has) } == 0)
            if has != 0 { completed += 1 }
        }
        precondition(completed == animators)
        blackHole(completed)
    }
}
