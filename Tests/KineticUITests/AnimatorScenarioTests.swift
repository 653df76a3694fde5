import Kinetic
import KineticUI
import XCTest

/// A fresh engine, a 60 Hz frame stepper and a recorder, shared by the KineticUI tests.
@MainActor
class EngineTestCase: XCTestCase {
    var engine: AnimationEngine!
    var frame = 0

    override func setUp() async throws {
        engine = AnimationEngine()
        frame = 0
        Diagnostics.clear()
    }

    /// Lets go of the engine: swift-corelibs-xctest never frees the instances of async test
    /// cases (LeakSanitizer, make test-sanitize), so whatever a test keeps here would outlive it.
    override func tearDown() async throws {
        engine = nil
    }

    /// Advances the clock by `n` frames at 60 Hz (frame k at exactly k / 60 s).
    func step(_ n: Int = 1) throws {
        for _ in 0 ..< n {
            frame += 1
            try engine.clock.advance(to: Double(frame) / 60)
        }
    }

    /// Advances the clock to `t` seconds.
    func advance(to t: Double) throws {
        try engine.clock.advance(to: t)
    }

    func box(_ name: String = "box", frame: Rect = Rect(x: 0, y: 0, width: 100, height: 100)) -> View {
        let v = View(frame: frame)
        v.name = name
        return v
    }
}

/// An ``EngineTestCase`` that collects what ``Diagnostics`` reports during each test.
@MainActor
class ReportingEngineTestCase: EngineTestCase {
    var reported: [Diagnostic] = []

    override func setUp() async throws {
        try await super.setUp()
        reported = []
        Diagnostics.handler = { [unowned self] in self.reported.append($0) }
    }

    override func tearDown() async throws {
        Diagnostics.handler = nil
        try await super.tearDown()
    }
}

@MainActor
final class AnimatorScenarioTests: EngineTestCase {
    func testLinearRunSetsModelAtOnceAndPresentationFollowsTime() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        XCTAssertEqual(v.alpha, 1, "blocks run when the animator starts, not before")
        try a.startAnimation()
        XCTAssertEqual(v.alpha, 0, "the model takes the new value at once")
        XCTAssertEqual(v.presentation.alpha, 1)
        try advance(to: 0.25)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-15)
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-15)
        XCTAssertTrue(a.isRunning)
        var ended: ViewAnimatingPosition?
        a.addCompletion { ended = $0 }
        try advance(to: 1)
        XCTAssertEqual(ended, .end)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(v.presentation, v.model)
        XCTAssertEqual(engine.activeAnimatorCount, 0)
        XCTAssertEqual(engine.animatedLaneCount, 0)
    }

    func testEasedProgressFollowsTheCubicCurve() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 0.5, curve: .easeInOut, engine: engine) { v.center = Point(x: 250, y: 50) }
        try a.startAnimation()
        for k in 1 ..< 30 {
            try step()
            let t = Double(k) / 60 / 0.5
            let p = CubicBezier.easeInOut.value(at: t)
            XCTAssertEqual(v.presentation.center.x, 50 + 200 * p, accuracy: 1e-12, "frame \(k)")
            XCTAssertEqual(v.presentation.center.y, 50)
        }
    }

    func testForwardThenReversedBackReproducesStartValuesExactly() async throws {
        let v = box(frame: Rect(x: 10.1, y: 20.3, width: 33.3, height: 44.7))
        v.alpha = 0.7
        v.transform = Transform2D(rotationAngle: 0.3)
        let start = v.presentation
        let a = try PropertyAnimator(duration: 0.8, curve: .easeIn, engine: engine) {
            v.frame = Rect(x: 200.9, y: -13.1, width: 71.1, height: 12.9)
            v.alpha = 0.05
            v.transform = Transform2D(scaleX: 1.7, y: 0.3).concatenating(Transform2D(rotationAngle: 2))
            v.backgroundColor = Color(red: 0.3, green: 0.2, blue: 0.9)
        }
        try a.startAnimation()
        try step(29)
        XCTAssertNotEqual(v.presentation.alpha, start.alpha)
        a.isReversed = true
        var ended: ViewAnimatingPosition?
        a.addCompletion { ended = $0 }
        for _ in 0 ..< 60 where ended == nil { try step() }
        let back = v.presentation
        XCTAssertEqual(back.center, start.center)
        XCTAssertEqual(back.bounds, start.bounds)
        XCTAssertEqual(back.alpha, start.alpha)
        XCTAssertEqual(back.transform, start.transform)
        XCTAssertEqual(ended, .start)
        XCTAssertEqual(v.model.center, start.center, "a reversed finish puts the start values back into the model")
        XCTAssertEqual(v.model.alpha, start.alpha)
        XCTAssertEqual(v.model.transform, start.transform)
    }

    func testSameCallsAndTicksGiveBitIdenticalValues() async throws {
        func run() throws -> [Double] {
            let engine = AnimationEngine()
            let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            let a = try PropertyAnimator(duration: 0.7, dampingRatio: 0.4, engine: engine) { v.center = Point(x: 300, y: -40) }
            try a.startAnimation()
            var values: [Double] = []
            for k in 1 ... 50 {
                try engine.clock.advance(to: Double(k) / 60)
                if k == 20 { try a.pauseAnimation(); a.fractionComplete = 0.3 }
                if k == 25 { try a.continueAnimation(withTimingParameters: SpringTimingParameters(dampingRatio: 0.7), durationFactor: 0.5) }
                values.append(v.presentation.center.x)
                values.append(v.presentation.center.y)
            }
            return values
        }
        let first = try run(), second = try run()
        XCTAssertEqual(first.map(\.bitPattern), second.map(\.bitPattern))
    }

    /// The scenario: start, pause at 40 %, scrub, reverse, continue with a spring,
    /// finish at `.current`.
    func testPauseScrubReverseContinueWithSpringFinishAtCurrent() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .easeInOut, engine: engine) { v.center = Point(x: 450, y: 50) }
        var positions: [ViewAnimatingPosition] = []
        a.addCompletion { positions.append($0) }
        try a.startAnimation()
        try advance(to: 0.4)
        try a.pauseAnimation()
        XCTAssertEqual(a.fractionComplete, 0.4, accuracy: 1e-15)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(a.state, .active)
        let atPause = v.presentation.center.x
        XCTAssertEqual(atPause, 50 + 400 * CubicBezier.easeInOut.value(at: 0.4), accuracy: 1e-12)
        try advance(to: 0.6)
        XCTAssertEqual(v.presentation.center.x, atPause, "a paused animator does not move")
        // Scrub (linearly, the default).
        a.fractionComplete = 0.25
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-12)
        a.fractionComplete = 0.5
        XCTAssertEqual(v.presentation.center.x, 250, accuracy: 1e-12)
        // Reverse and continue with a spring: back towards the start.
        a.isReversed = true
        try a.continueAnimation(withTimingParameters: SpringTimingParameters(dampingRatio: 1), durationFactor: 0.5)
        XCTAssertTrue(a.isRunning)
        try advance(to: 0.8)
        let mid = v.presentation.center.x
        XCTAssertLessThan(mid, 250)
        XCTAssertGreaterThan(mid, 50)
        // The spring over 0.5 s from 250 back to 50 (progress 0.5 → 0).
        let spring = try Spring(settlingDuration: 1, dampingRatio: 1)
        let expected = 50 + 400 * (0.5 - 0.5 * spring.value(at: 0.2 / 0.5))
        XCTAssertEqual(mid, expected, accuracy: 1e-9)
        try a.pauseAnimation()
        try a.stopAnimation(false)
        XCTAssertEqual(a.state, .stopped)
        XCTAssertEqual(v.model.center.x, mid, "stopping writes the shown values into the model")
        try a.finishAnimation(at: .current)
        XCTAssertEqual(positions, [.current])
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(v.presentation.center.x, mid)
    }

    /// A continuation paused mid-leg and started again goes on along its curve from where its
    /// time stopped (UIKit resumes the paused layer time), with no second start from rest or
    /// from the continuation's initial velocity: after the pause, the view is where a twin
    /// that never paused was that much earlier.
    func testContinuationPausedMidLegResumesAlongItsCurve() async throws {
        let timings: [any TimingCurveProvider] = try [
            CubicTimingParameters(animationCurve: .easeInOut),
            SpringTimingParameters(dampingRatio: 0.4, initialVelocity: Vector(dx: 3, dy: 0)),
            SpringTimingParameters(mass: 1, stiffness: 120, damping: 9, initialVelocity: Vector(dx: -2, dy: 1)),
        ]
        for (n, timing) in timings.enumerated() {
            let engine = AnimationEngine()
            let twin = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            let paused = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            var animators: [PropertyAnimator] = []
            for v in [twin, paused] {
                let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
                    v.center = Point(x: 450, y: 250)
                }
                try a.startAnimation()
                animators.append(a)
            }
            // Frame k at k / 60 s: continue at frame 15, pause the second at 27, resume at 42.
            var twinPath: [Point] = [], pausedPath: [Point] = []
            for k in 1 ... 120 {
                try engine.clock.advance(to: Double(k) / 60)
                if k == 15 {
                    for a in animators {
                        try a.pauseAnimation()
                        try a.continueAnimation(withTimingParameters: timing, durationFactor: 0.8)
                    }
                }
                if k == 27 { try animators[1].pauseAnimation() }
                if k == 42 { try animators[1].startAnimation() }
                twinPath.append(twin.presentation.center)
                pausedPath.append(paused.presentation.center)
            }
            for k in 27 ..< 42 { XCTAssertEqual(pausedPath[k - 1], pausedPath[27 - 1], "timing \(n): paused") }
            for k in 42 ... 120 {
                let expected = twinPath[k - 15 - 1], actual = pausedPath[k - 1]
                XCTAssertEqual(actual.x, expected.x, accuracy: 1e-9, "timing \(n), frame \(k)")
                XCTAssertEqual(actual.y, expected.y, accuracy: 1e-9, "timing \(n), frame \(k)")
                if abs(actual.x - expected.x) > 1e-9 || abs(actual.y - expected.y) > 1e-9 { break }
            }
            for a in animators where a.state == .active { try a.stopAnimation(true) }
        }
    }

    func testPausesOnCompletionStaysActiveAtTheEndWithoutCompletion() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 0.5, curve: .linear, engine: engine) { v.alpha = 0 }
        a.pausesOnCompletion = true
        var completed = false
        var runningChanges: [Bool] = []
        a.addCompletion { _ in completed = true }
        a.isRunningDidChange = { runningChanges.append($0.isRunning) }
        try a.startAnimation()
        try advance(to: 0.75)
        XCTAssertFalse(completed)
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(a.fractionComplete, 1)
        XCTAssertEqual(runningChanges, [true, false])
        XCTAssertEqual(v.presentation.alpha, 0)
        // It can be reversed and started again from the end.
        a.isReversed = true
        try a.startAnimation()
        try advance(to: 1.0)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
    }

    /// The documentation's worked example: duration 2 s, delayFactor 0.25, added at
    /// fractionComplete 0.25 → the block starts 0.5 s later and runs for 1.0 s.
    func testAddAnimationsWhileRunningUsesDelayFactorOfTheOriginalDuration() async throws {
        let v = box(), w = box("w")
        let a = try PropertyAnimator(duration: 2, curve: .linear, engine: engine) { v.alpha = 0 }
        try a.startAnimation()
        try advance(to: 0.5)
        try a.addAnimations({ w.center = Point(x: 150, y: 50) }, delayFactor: 0.25)
        try advance(to: 0.9)
        XCTAssertEqual(w.presentation.center.x, 50, "not started before its delay")
        try advance(to: 1.0)
        XCTAssertEqual(w.presentation.center.x, 50)
        try advance(to: 1.5)
        XCTAssertEqual(w.presentation.center.x, 100, accuracy: 1e-12, "halfway through its 1.0 s")
        try advance(to: 2.0)
        XCTAssertEqual(w.presentation.center.x, 150)
        XCTAssertEqual(a.state, .inactive)
    }

    func testTwoAnimatorsOnOnePropertyAddUp() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.center = Point(x: 150, y: 50) }
        try a.startAnimation()
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.center.x, 100, accuracy: 1e-12)
        let b = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.center = Point(x: 350, y: 50) }
        try b.startAnimation()
        XCTAssertEqual(v.presentation.center.x, 100, accuracy: 1e-12, "no jump when the second starts")
        try advance(to: 1.0)
        // a at its end (+100), b halfway (+100): 50 + 100 + 100.
        XCTAssertEqual(v.presentation.center.x, 250, accuracy: 1e-12)
        XCTAssertEqual(a.state, .inactive)
        try advance(to: 1.5)
        XCTAssertEqual(v.presentation.center.x, 350)
        XCTAssertEqual(v.model.center.x, 350)
    }

    func testAnimatorWithoutBlocksWaitsThenStartsWithTheFirstBlock() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine)
        try a.startAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        try advance(to: 5)
        try a.addAnimations { v.alpha = 0 }
        XCTAssertTrue(a.isRunning)
        try advance(to: 5.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
    }

    /// UIKit's `delay`: "the start of any animations is delayed by the specified amount of
    /// time", also for an animator started with no blocks: the first block, added during the
    /// delay, begins when the delay ends (it used to begin at once); one added after the
    /// delay begins at once.
    func testAnimatorWithoutBlocksStartedAfterADelayKeepsTheDelayForTheFirstBlock() async throws {
        let v = box("v"), w = box("w")
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine)
        try a.startAnimation(afterDelay: 1)
        XCTAssertEqual(a.delay, 1)
        try advance(to: 0.25)
        try a.addAnimations { v.alpha = 0 }
        try advance(to: 0.75)
        XCTAssertEqual(v.presentation.alpha, 1, "still in the delay")
        try advance(to: 1.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
        try advance(to: 2.5)
        XCTAssertEqual(a.state, .inactive)
        // Past the delay, the first block begins when it is added.
        let b = try PropertyAnimator(duration: 1, curve: .linear, engine: engine)
        try b.startAnimation(afterDelay: 0.5)
        try advance(to: 4)
        try b.addAnimations { w.alpha = 0 }
        try advance(to: 4.5)
        XCTAssertEqual(w.presentation.alpha, 0.5, accuracy: 1e-12)
    }

    /// A move whose span is beyond the range of Double (a frame from −1e308 to 1e308) would
    /// show ±infinity mid-way: the animator refuses it when it adds the block, naming the
    /// value, and the view keeps its model value.
    func testAMoveBeyondTheRangeOfDoubleIsRefused() async throws {
        let v = View(frame: Rect(x: -1e308, y: 0, width: 10, height: 10))
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.frame.origin.x = 1e308 }
        XCTAssertThrowsError(try a.startAnimation()) { error in
            guard case AnimatorError.invalidParameter(let p) = error,
                  case .outOfRange(_, let value, _) = p else { return XCTFail("\(error)") }
            XCTAssertEqual(value, 1e308)
        }
        try advance(to: 0.5)
        XCTAssertTrue(v.presentation.frame.origin.x.isFinite)
        // Half the way is taken, and stays finite.
        let b = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.frame.origin.x = 0 }
        try b.startAnimation()
        try advance(to: 1)
        XCTAssertTrue(v.presentation.frame.origin.x.isFinite)
    }

    func testStartAfterDelay() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        try a.startAnimation(afterDelay: 0.5)
        XCTAssertEqual(a.delay, 0.5)
        XCTAssertTrue(a.isRunning)
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 1)
        try advance(to: 1.0)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
    }

    func testCompletionOrderIsStartOrderThenAddOrder() async throws {
        let v = box(), w = box("w")
        var log: [String] = []
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        let b = try PropertyAnimator(duration: 0.5, curve: .linear, engine: engine) { w.alpha = 0 }
        a.addCompletion { _ in log.append("a1") }
        a.addCompletion { _ in log.append("a2") }
        b.addCompletion { _ in log.append("b1") }
        try a.startAnimation()
        try advance(to: 0.5)
        try b.startAnimation()
        try advance(to: 2)
        XCTAssertEqual(log, ["a1", "a2", "b1"], "both end in the same tick: start order, then add order")
    }

    func testReleasingAPausedAnimatorIsReportedNotACrash() async throws {
        let v = box()
        var reported: [Diagnostic] = []
        Diagnostics.handler = { reported.append($0) }
        defer { Diagnostics.handler = nil }
        do {
            let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
            try a.startAnimation()
            try advance(to: 0.5)
            try a.pauseAnimation()
        }
        XCTAssertEqual(reported, [.illegalCall(.releasedWhilePausedOrStopped)])
        XCTAssertTrue(reported[0].description.hasPrefix("It is an error to release a paused or stopped property animator."))
        XCTAssertEqual(v.model.alpha, 0.5, accuracy: 1e-12, "left where it was")
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    func testRunningAnimatorKeepsGoingWhenReleased() async throws {
        let v = box()
        var done = false
        do {
            let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
            a.addCompletion { _ in done = true }
            try a.startAnimation()
        }
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
        try advance(to: 1)
        XCTAssertTrue(done)
        XCTAssertTrue(Diagnostics.recent.isEmpty)
    }
}
