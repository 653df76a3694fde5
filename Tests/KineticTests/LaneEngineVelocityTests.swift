import Kinetic
import KineticPlatform
import TestSupport
import XCTest

/// The engine's lane velocities: closed forms, the Float80 references of the curves and
/// springs, and central differences of the engine's own output over random scenarios.
final class LaneEngineVelocityTests: XCTestCase {
    private func engine(_ values: [Double], timing: RunTiming = .linear, duration: Double = 1)
        throws -> (LaneEngine, RunHandle, Int) {
        try engineWithRun(values, timing: timing, duration: duration)
    }

    func testLinearRunMovesAtItsSpanOverItsDuration() throws {
        let (e, run, a) = try engine([0, 5], duration: 2)
        try e.addAnimations(run, targets: [LaneTarget(lane: Int32(a), value: 100), LaneTarget(lane: Int32(a + 1), value: -15)],
                            delayFactor: 0)
        XCTAssertEqual(e.velocity(ofLane: a), 0, "not started")
        try e.startAnimation(run)
        XCTAssertEqual(e.velocity(ofLane: a), 50, "at the start it moves already")
        e.advance(to: 0.5)
        XCTAssertEqual(e.velocity(ofLane: a), 50)
        XCTAssertEqual(e.velocity(ofLane: a + 1), -10)
        try e.pauseAnimation(run)
        XCTAssertEqual(e.velocity(ofLane: a), 0, "paused")
        try e.setReversed(true, of: run)
        try e.startAnimation(run)
        XCTAssertEqual(e.velocity(ofLane: a), -50, "reversed")
        e.advance(to: 0.75)
        XCTAssertEqual(e.velocity(ofLane: a), -50)
        e.advance(to: 10)
        XCTAssertEqual(e.velocity(ofLane: a), 0, "ended")
        XCTAssertEqual(e.velocity(ofLane: a + 1), 0)
    }

    func testDelayAndDelayFactorWindows() throws {
        let (e, run, a) = try engine([0, 0], duration: 1)
        try e.addAnimations(run, targets: [LaneTarget(lane: Int32(a), value: 10)], delayFactor: 0)
        try e.addAnimations(run, targets: [LaneTarget(lane: Int32(a + 1), value: 10)], delayFactor: 0.5)
        try e.startAnimation(run, afterDelay: 0.25)
        XCTAssertEqual(e.velocity(ofLane: a), 0, "in its delay")
        e.advance(to: 0.5)
        XCTAssertEqual(e.velocity(ofLane: a), 10)
        XCTAssertEqual(e.velocity(ofLane: a + 1), 0, "its window has not begun")
        e.advance(to: 1)
        XCTAssertEqual(e.velocity(ofLane: a + 1), 20, "a window of half the run: twice the rate")
        var both = [Double](repeating: .nan, count: 2)
        both.withUnsafeMutableBufferPointer { e.velocities(ofLanes: a ..< a + 2, into: $0.baseAddress!) }
        XCTAssertEqual(both, [10, 20])
    }

    func testAdditiveRunsAddTheirVelocities() throws {
        let (e, first, a) = try engine([0], duration: 1)
        try e.addAnimations(first, targets: [LaneTarget(lane: Int32(a), value: 10)], delayFactor: 0)
        try e.startAnimation(first)
        e.advance(to: 0.5)
        let second = try e.makeRun(timing: .linear, duration: 2)
        try e.addAnimations(second, targets: [LaneTarget(lane: Int32(a), value: 30)], delayFactor: 0)
        try e.startAnimation(second)
        XCTAssertEqual(e.velocity(ofLane: a), 10 + 20 / 2)
    }

    func testCubicRunMatchesTheFloat80Slope() throws {
        var rng = SeededRandom(seed: 0x5E1_0C17)
        for _ in 0 ..< 200 {
            let (x1, x2) = (rng.uniform(0.02, 0.98), rng.uniform(0.02, 0.98))
            let (y1, y2) = (rng.uniform(-1, 2), rng.uniform(-1, 2))
            let duration = rng.uniform(0.1, 3), span = rng.uniform(-500, 500)
            let (e, run, a) = try engine([7], timing: .cubic(try CubicBezier(x1, y1, x2, y2)), duration: duration)
            try e.addAnimations(run, targets: [LaneTarget(lane: Int32(a), value: 7 + span)], delayFactor: 0)
            try e.startAnimation(run)
            let t = rng.uniform(0.01, 0.99) * duration
            e.advance(to: t)
            // dy/dx = y'(s)/x'(s) at the parameter s with x(s) = g, in Float80.
            let ref = BezierReference80(x1, y1, x2, y2)
            let g = t / duration
            let s = ref.parameter(for: g).lo
            func d(_ p1: Float80, _ p2: Float80) -> Float80 {
                let u = 1 - s
                return 3 * p1 * u * u + 6 * (p2 - p1) * s * u + 3 * (1 - p2) * s * s
            }
            let expected = Double(Float80(span) * d(ref.y1, ref.y2) / d(ref.x1, ref.x2) / Float80(duration))
            XCTAssertEqual(e.velocity(ofLane: a), expected, accuracy: 1e-9 * max(1, abs(expected)),
                           "(\(x1), \(y1), \(x2), \(y2)) at g = \(g)")
        }
    }

    func testPhysicalSpringRunMatchesTheFloat80Spring() throws {
        var rng = SeededRandom(seed: 0x5E1_5B1)
        for _ in 0 ..< 200 {
            let zeta = rng.logUniform(0.1, 4), stiffness = rng.logUniform(20, 800)
            let spring = try Spring(mass: 1, stiffness: stiffness, damping: 2 * zeta * stiffness.squareRoot())
            let v0 = rng.uniform(-8, 8), span = rng.uniform(-300, 300)
            let (e, run, a) = try engine([0], timing: .physicalSpring(spring, vx: v0, vy: v0), duration: 1)
            try e.addAnimations(run, targets: [LaneTarget(lane: Int32(a), value: span)], delayFactor: 0)
            try e.startAnimation(run)
            let settle = spring.settlingDuration(initialVelocity: v0)
            let t = rng.uniform(0, 0.9) * settle
            e.advance(to: t)
            let ref = SpringReference80(mass: 1, stiffness: stiffness, damping: 2 * zeta * stiffness.squareRoot())
            let expected = Double(Float80(span) * ref.unitMove(at: t, initialVelocity: v0).velocity)
            XCTAssertEqual(e.velocity(ofLane: a), expected, accuracy: 1e-9 * max(1, abs(span) * (1 + abs(v0))),
                           "ζ = \(zeta), k = \(stiffness), v0 = \(v0), t = \(t)")
        }
    }

    /// A curve with a vertical tangent (x1 = 0) has an infinite slope at its start: the
    /// velocity is the largest finite value, never infinity or NaN, also where two such
    /// contributions oppose on one lane, and where one of them is frozen (span 0).
    func testVerticalTangentsGiveFiniteVelocities() throws {
        let curve = try CubicBezier(0, 0.55, 0.45, 1)
        XCTAssertEqual(curve.slope(at: 0), .infinity, "the premise: a vertical tangent at 0")
        let (e, up, a) = try engine([0], timing: .cubic(curve), duration: 1)
        try e.addAnimations(up, targets: [LaneTarget(lane: Int32(a), value: 10)], delayFactor: 0)
        try e.startAnimation(up)
        XCTAssertEqual(e.velocity(ofLane: a), .greatestFiniteMagnitude)
        let down = try e.makeRun(timing: .cubic(curve), duration: 1)
        try e.addAnimations(down, targets: [LaneTarget(lane: Int32(a), value: -30)], delayFactor: 0)
        try e.startAnimation(down)
        let opposed = e.velocity(ofLane: a)
        XCTAssertTrue(opposed.isFinite, "\(opposed)")
        // From the current state: the earlier contributions freeze (span 0) while the new
        // run starts on its own vertical tangent.
        let fresh = try e.makeRun(timing: .cubic(curve), duration: 1)
        e.configure(fresh, repeats: false, autoreverses: false, beginsFromCurrentState: true)
        try e.addAnimations(fresh, targets: [LaneTarget(lane: Int32(a), value: 5)], delayFactor: 0)
        try e.startAnimation(fresh)
        XCTAssertTrue(e.velocity(ofLane: a).isFinite)
        e.advance(to: 0.5)
        XCTAssertTrue(e.velocity(ofLane: a).isFinite)
        XCTAssertLessThan(abs(e.velocity(ofLane: a)), 1e3, "past the tangent, an ordinary rate")
    }

    /// UIKit's hand-off: a run paused part-way continues with a spring whose normalised
    /// initial velocity is the finger's velocity over the remaining distance; the lane then
    /// moves at the finger's velocity at once.
    func testContinuationWithASpringStartsAtItsInitialVelocity() throws {
        for (fraction, finger) in [(0.4, 900.0), (0.7, -350), (0.1, 0), (0.55, 2500)] {
            let (e, run, a) = try engine([100], duration: 0.5)
            try e.addAnimations(run, targets: [LaneTarget(lane: Int32(a), value: 900)], delayFactor: 0)
            try e.pauseAnimation(run)
            try e.setFractionComplete(run, fraction)
            let remaining = 800 * (1 - fraction)
            let v = finger / remaining
            try e.continueAnimation(run, timing: .dampedSpring(dampingRatio: 0.85, vx: v, vy: v), durationFactor: 1)
            XCTAssertEqual(e.velocity(ofLane: a), finger, accuracy: 1e-9 * max(1, abs(finger)), "fraction \(fraction)")
        }
    }

    /// A keyframe animation added during a continuation leg shows its keyframes where the
    /// run's fraction is, then goes on along the leg's curve from there (forward and
    /// reversed); its velocity is the derivative of what it shows.
    func testKeyframesJoinedDuringAContinuationStartWhereTheRunIs() throws {
        let ease = CubicBezier.easeIn
        for reversed in [false, true] {
            let (e, run, a) = try engine([0, 0], duration: 1)
            try e.addAnimations(run, targets: [LaneTarget(lane: Int32(a), value: 10)], delayFactor: 0)
            try e.startAnimation(run)
            e.advance(to: 0.2)
            try e.pauseAnimation(run)
            if reversed { try e.setReversed(true, of: run) }
            try e.continueAnimation(run, timing: .cubic(ease), durationFactor: 1)
            // The leg runs the fraction from 0.2 to 1 (or 0) over 1 s, linearly in time.
            let end = reversed ? 0.0 : 1.0
            func fraction(at t: Double) -> Double { 0.2 + (end - 0.2) * (t - 0.2) }
            e.advance(to: 0.7)
            let joined = fraction(at: 0.7)
            try e.addKeyframes(run, lanes: [Int32(a + 1)], values: [100], keyTimes: [1], calculationMode: .linear)
            e.advance(to: 0.7)
            XCTAssertEqual(e.output[a + 1], 100 * joined, accuracy: 1e-9, "reversed \(reversed): where the run is")
            for t in [0.8, 0.95, 1.1] {
                e.advance(to: t)
                let share = (fraction(at: t) - joined) / (end - joined)
                let argument = joined + (end - joined) * ease.value(at: share)
                XCTAssertEqual(e.output[a + 1], 100 * argument, accuracy: 1e-9, "reversed \(reversed), at \(t)")
                let h = 1e-6
                let here = e.output[a + 1]
                let v = e.velocity(ofLane: a + 1)
                e.advance(to: t + h)
                XCTAssertEqual(v, (e.output[a + 1] - here) / h, accuracy: 1e-3 * max(1, abs(v)), "velocity at \(t)")
            }
        }
    }

    /// Random runs of every timing, windows, additive runs, reversals, continuations and
    /// keyframes of every calculation mode: each lane's velocity against the central
    /// difference of the engine's output (three engines built alike, read at t − h, t, t + h).
    func testVelocityIsTheDerivativeOfTheOutput() throws {
        var rng = SeededRandom(seed: 0xDE_21_7A)
        var checked = 0, moving = 0
        for scenario in 0 ..< 300 {
            let seed = rng.next()
            let t = rng.uniform(0.05, 1.9)
            let h = 1e-6
            let engines = try [t - h, t, t + h].map { time -> LaneEngine in
                var r = SeededRandom(seed: seed)
                return try Self.scenario(&r, at: time)
            }
            let lanes = engines[1].laneCount
            for lane in 0 ..< lanes {
                let v = engines[1].velocity(ofLane: lane)
                let fd = (engines[2].output[lane] - engines[0].output[lane]) / (2 * h)
                let forward = (engines[2].output[lane] - engines[1].output[lane]) / h
                let backward = (engines[1].output[lane] - engines[0].output[lane]) / h
                let tolerance = 2e-4 * max(1, abs(v))
                // A kink (a key time, a window's edge, a run's end) within h of t leaves one
                // one-sided difference right.
                let close = abs(v - fd) <= tolerance || abs(v - forward) <= 4 * tolerance || abs(v - backward) <= 4 * tolerance
                XCTAssertTrue(close, "scenario \(scenario), lane \(lane), t = \(t): velocity \(v), difference \(fd)")
                checked += 1
                if v != 0 { moving += 1 }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertGreaterThan(moving, checked / 3, "most lanes move at the times drawn")
    }

    /// A random scenario from `rng`, advanced to `time` (runs are made and changed at fixed
    /// times drawn from `rng`, so the same seed builds the same scenario).
    private static func scenario(_ rng: inout SeededRandom, at time: Double) throws -> LaneEngine {
        let e = LaneEngine()
        let block = e.allocateBlock((0 ..< 4).map { _ in rng.uniform(-100, 100) })
        let first = Int32(e.firstLane(of: block))
        func timing() throws -> RunTiming {
            switch rng.next() % 4 {
            case 0: return .linear
            case 1: return .cubic(try CubicBezier(rng.uniform(0.05, 0.95), rng.uniform(-0.5, 1.5),
                                                  rng.uniform(0.05, 0.95), rng.uniform(-0.5, 1.5)))
            case 2: return .dampedSpring(dampingRatio: rng.uniform(0.3, 1.5), vx: rng.uniform(-3, 3), vy: rng.uniform(-3, 3))
            default:
                let spring = try Spring(dampingRatio: rng.uniform(0.4, 1.2), response: rng.uniform(0.2, 0.6))
                return .physicalSpring(spring, vx: rng.uniform(-2, 2), vy: rng.uniform(-2, 2))
            }
        }
        func targets() -> [LaneTarget] {
            (0 ..< 4).compactMap { k in
                rng.chance(0.7) ? LaneTarget(lane: first + Int32(k), value: rng.uniform(-200, 200), vertical: k % 2 == 1) : nil
            }
        }
        // Events at fixed times; the engine is advanced to each before it happens.
        var clock = 0.0
        func advance(to t: Double) {
            clock = min(t, time)
            e.advance(to: clock)
        }
        let runCount = 1 + Int(rng.next() % 3)
        for _ in 0 ..< runCount {
            let start = rng.uniform(0, 0.8)
            let run = try e.makeRun(timing: try timing(), duration: rng.uniform(0.3, 1.5))
            let kind = rng.next() % 3
            let keyCount = 2 + Int(rng.next() % 4)
            let modes = KeyframeCalculationMode.allCases
            let mode = modes[Int(rng.next() % UInt64(modes.count))]
            let keyValues = (0 ..< keyCount * 2).map { _ in rng.uniform(-150, 150) }
            var keyTimes = (0 ..< keyCount).map { _ in rng.unit() }.sorted()
            keyTimes[0] = 0
            let delayFactor = rng.uniform(0, 0.6)
            let pauseAt = rng.uniform(0, 1.6), continueAt = pauseAt + rng.uniform(0, 0.3)
            let reverses = rng.chance(0.3), continues = rng.chance(0.4)
            let continuation = try timing(), durationFactor = rng.uniform(0.5, 1.5)
            let startTargets = targets(), laterTargets = targets()
            guard start <= time else { continue }
            advance(to: start)
            switch kind {
            case 0:
                try e.addAnimations(run, targets: startTargets, delayFactor: 0)
            case 1:
                try e.addAnimations(run, targets: startTargets, delayFactor: 0)
                try e.addAnimations(run, targets: laterTargets, delayFactor: delayFactor)
            default:
                try e.addKeyframes(run, lanes: [first, first + 2], values: keyValues, keyTimes: keyTimes, calculationMode: mode)
            }
            try e.startAnimation(run)
            if reverses, start + pauseAt <= time, e.isRunning(run) {
                advance(to: start + pauseAt)
                if e.isRunning(run) { try e.setReversed(true, of: run) }
            } else if continues, start + pauseAt <= time, e.isRunning(run) {
                advance(to: start + pauseAt)
                if e.isRunning(run) {
                    try e.pauseAnimation(run)
                    advance(to: start + continueAt)
                    if start + continueAt <= time {
                        try e.continueAnimation(run, timing: continuation, durationFactor: durationFactor)
                    }
                }
            }
        }
        e.advance(to: time)
        e.flush()
        return e
    }
}
