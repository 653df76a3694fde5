import Kinetic
import KineticUI
import XCTest

/// An audit of UIKit's documented behaviour against the other suites: the behaviours they did
/// not pin yet, one test each, every expectation taken from UIKit's documentation (headers,
/// reference pages, WWDC sessions) rather than from what Kinetic happens to do.
@MainActor
final class SemanticsAuditTests: ReportingEngineTestCase {
    /// Advances the clock `dt` seconds from now.
    func later(_ dt: Double) throws {
        try engine.clock.advance(to: engine.clock.now + dt)
    }

    // MARK: - Types

    /// `UIViewAnimatingState { inactive = 0, active = 1, stopped = 2 }` and
    /// `UIViewAnimatingPosition { end = 0, start = 1, current = 2 }`.
    func testAnimatingStateAndPositionHaveUIKitsRawValues() async throws {
        XCTAssertEqual(ViewAnimatingState.inactive.rawValue, 0)
        XCTAssertEqual(ViewAnimatingState.active.rawValue, 1)
        XCTAssertEqual(ViewAnimatingState.stopped.rawValue, 2)
        XCTAssertEqual(ViewAnimatingPosition.end.rawValue, 0)
        XCTAssertEqual(ViewAnimatingPosition.start.rawValue, 1)
        XCTAssertEqual(ViewAnimatingPosition.current.rawValue, 2)
    }

    // MARK: - Creating

    /// Every initialiser returns an animator that is not running; the designated one starts
    /// inactive. Its blocks have not run, and nothing moves while time passes.
    func testEveryInitialiserReturnsAnInactiveAnimatorThatHasNotRunItsBlocks() async throws {
        let engine = self.engine!
        let v = box()
        let makers: [(String, () throws -> PropertyAnimator)] = [
            ("timingParameters", {
                let a = try PropertyAnimator(duration: 1, timingParameters: CubicTimingParameters(), engine: engine)
                try a.addAnimations { v.alpha = 0 }
                return a
            }),
            ("curve", { try PropertyAnimator(duration: 1, curve: .easeIn, engine: engine) { v.alpha = 0 } }),
            ("controlPoints", {
                try PropertyAnimator(duration: 1, controlPoint1: Point(x: 0.1, y: 0.2), controlPoint2: Point(x: 0.3, y: 1),
                                     engine: engine) { v.alpha = 0 }
            }),
            ("dampingRatio", { try PropertyAnimator(duration: 1, dampingRatio: 0.5, engine: engine) { v.alpha = 0 } }),
            ("spring provider", {
                let a = try PropertyAnimator(duration: 1, timingParameters: SpringTimingParameters(), engine: engine)
                try a.addAnimations { v.alpha = 0 }
                return a
            }),
        ]
        for (name, make) in makers {
            let a = try make()
            XCTAssertEqual(a.state, .inactive, name)
            XCTAssertFalse(a.isRunning, name)
            XCTAssertEqual(a.fractionComplete, 0, name)
            XCTAssertEqual(v.model.alpha, 1, "\(name): the blocks run when the animator starts, not before")
            try later(0.5)
            XCTAssertEqual(v.presentation.alpha, 1, name)
            XCTAssertEqual(a.state, .inactive, name)
        }
    }

    /// The documented defaults: `isInterruptible` true, `isUserInteractionEnabled` true,
    /// `isManualHitTestingEnabled` false, `pausesOnCompletion` false, `scrubsLinearly` true,
    /// not reversed, no delay; `duration` is the duration given.
    func testPropertyDefaultsAreUIKits() async throws {
        let a = try PropertyAnimator(duration: 0.7, curve: .easeOut, engine: engine)
        XCTAssertTrue(a.isInterruptible)
        XCTAssertTrue(a.isUserInteractionEnabled)
        XCTAssertFalse(a.isManualHitTestingEnabled)
        XCTAssertFalse(a.pausesOnCompletion)
        XCTAssertTrue(a.scrubsLinearly)
        XCTAssertFalse(a.isReversed)
        XCTAssertEqual(a.delay, 0)
        XCTAssertEqual(a.duration, 0.7)
        XCTAssertEqual(a.timingParameters.cubicTimingParameters, CubicTimingParameters(animationCurve: .easeOut))
    }

    // MARK: - State machine

    /// active → inactive at the natural end, after which "the animator can be reconfigured";
    /// and "any animation blocks and completion handlers are invalidated": starting it again
    /// neither re-runs the old block nor calls the old handler — with no blocks it waits,
    /// paused, for the first new one.
    func testNaturalCompletionReturnsToInactiveAndInvalidatesBlocksAndCompletions() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 0.5, curve: .linear, engine: engine) {
            v.center = Point(x: v.center.x + 100, y: v.center.y)
        }
        var ended: [ViewAnimatingPosition] = []
        a.addCompletion { ended.append($0) }
        try a.startAnimation()
        try later(0.5)
        XCTAssertEqual(ended, [.end])
        XCTAssertEqual(a.state, .inactive)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(v.model.center.x, 150)

        // Reconfigurable.
        XCTAssertNoThrow(try a.setInterruptible(false))
        XCTAssertNoThrow(try a.setUserInteractionEnabled(false))
        XCTAssertFalse(a.isInterruptible)
        XCTAssertFalse(a.isUserInteractionEnabled)
        XCTAssertEqual(reported, [])

        // The spent block does not run again: the animator has no blocks and waits.
        try a.startAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        try later(1)
        XCTAssertEqual(v.model.center.x, 150, "the first run's block did not run again")
        XCTAssertEqual(v.presentation.center.x, 150)
        XCTAssertEqual(ended, [.end])

        // Submitting a block starts it.
        try a.addAnimations { v.alpha = 0.5 }
        XCTAssertTrue(a.isRunning)
        try later(0.25)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)
        try later(0.25)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(ended, [.end], "the first run's completion handler was spent")
        XCTAssertEqual(v.model.center.x, 150)
    }

    // MARK: - Scrubbing

    /// `scrubsLinearly` (default true): while paused, `fractionComplete` maps linearly to the
    /// properties' progress; false: scrubbing follows the timing curve. Both for a paused
    /// animator and for an inactive one that the assignment activates.
    func testScrubsLinearlyFalseScrubsAlongTheTimingCurve() async throws {
        let curve = CubicBezier.easeIn
        for linear in [true, false] {
            engine = AnimationEngine()
            let v = box()
            let a = try PropertyAnimator(duration: 1, curve: .easeIn, engine: engine) { v.center = Point(x: 250, y: 50) }
            XCTAssertTrue(a.scrubsLinearly, "UIKit's default")
            a.scrubsLinearly = linear
            XCTAssertEqual(a.scrubsLinearly, linear)
            try a.startAnimation()
            try later(0.5)
            try a.pauseAnimation()
            for f in [0.3, 0.8, 0.1] {
                a.fractionComplete = f
                XCTAssertEqual(a.fractionComplete, f, accuracy: 1e-12)
                let p = linear ? f : curve.value(at: f)
                XCTAssertEqual(v.presentation.center.x, 50 + 200 * p, accuracy: 1e-9, "linear \(linear), f \(f)")
            }
            try a.stopAnimation(false)
            try a.finishAnimation(at: .end)

            // An inactive animator activated by the assignment.
            let w = box("w")
            let b = try PropertyAnimator(duration: 1, curve: .easeIn, engine: engine) { w.center = Point(x: 250, y: 50) }
            b.scrubsLinearly = linear
            b.fractionComplete = 0.3
            XCTAssertEqual(b.state, .active)
            XCTAssertFalse(b.isRunning)
            XCTAssertEqual(w.presentation.center.x, 50 + 200 * (linear ? 0.3 : curve.value(at: 0.3)), accuracy: 1e-9,
                           "inactive, linear \(linear)")
            try b.stopAnimation(false)
            try b.finishAnimation(at: .end)
        }
        XCTAssertEqual(reported, [])
    }

    // MARK: - Reversing

    /// `isReversed`: "view properties animate back to their original values", the same curve
    /// traversed backward in time, so the values retrace the forward path: with a non-linear
    /// curve, the value at time fraction f going back equals the value at f going forward.
    /// Both ways of reversing: pause, flip, start; and flipping while running.
    func testReversedRunRetracesTheForwardCurve() async throws {
        let curve = CubicBezier.easeIn
        for whileRunning in [false, true] {
            engine = AnimationEngine()
            let v = box()
            var ended: [ViewAnimatingPosition] = []
            let a = try PropertyAnimator(duration: 1, curve: .easeIn, engine: engine) { v.center = Point(x: 250, y: 50) }
            a.addCompletion { ended.append($0) }
            try a.startAnimation()
            try later(0.6)
            if whileRunning {
                a.isReversed = true
            } else {
                try a.pauseAnimation()
                a.isReversed = true
                try a.startAnimation()
            }
            XCTAssertEqual(v.presentation.center.x, 50 + 200 * curve.value(at: 0.6), accuracy: 1e-9, "no jump")
            for (dt, f) in [(0.2, 0.4), (0.2, 0.2), (0.1, 0.1)] {
                try later(dt)
                XCTAssertEqual(a.fractionComplete, f, accuracy: 1e-9, "running \(whileRunning)")
                XCTAssertEqual(v.presentation.center.x, 50 + 200 * curve.value(at: f), accuracy: 1e-9,
                               "running \(whileRunning), f \(f)")
            }
            XCTAssertEqual(ended, [])
            try later(0.1)
            XCTAssertEqual(ended, [.start], "the 0.6 s run back")
            XCTAssertEqual(v.presentation.center.x, 50)
        }
    }

    /// Setting `isReversed` on a stopped animator: UIKit lets an animator ignore it ("you can
    /// ignore changes"), and `PropertyAnimator.isReversed` says it is ignored while stopped.
    /// So the flag must not change, and must not carry into the animator's next run.
    func testIsReversedSetWhileStoppedIsIgnored() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        try a.startAnimation()
        try later(0.25)
        try a.stopAnimation(false)
        a.isReversed = true
        XCTAssertFalse(a.isReversed, "ignored while stopped")
        try a.finishAnimation(at: .end)
        XCTAssertFalse(a.isReversed)

        var ended: [ViewAnimatingPosition] = []
        try a.addAnimations { v.alpha = 1 }
        a.addCompletion { ended.append($0) }
        try a.startAnimation()
        try later(0.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12, "the next run goes forward")
        try later(0.5)
        XCTAssertEqual(ended, [.end])
        XCTAssertEqual(v.model.alpha, 1)
    }

    // MARK: - continueAnimation

    /// `durationFactor = 0` with `nil` parameters: "pick up the original timing curve … and
    /// continue using the remaining time needed … based on its original duration" — the
    /// values are the original curve's at each time fraction, and it ends after the time the
    /// run had left, however long it was paused.
    func testContinueWithFactorZeroAndNoParametersResumesTheOriginalCurveAndRemainingTime() async throws {
        let curve = CubicBezier.easeInOut
        let v = box()
        var ended: [ViewAnimatingPosition] = []
        let a = try PropertyAnimator(duration: 2, curve: .easeInOut, engine: engine) { v.center = Point(x: 250, y: 50) }
        a.addCompletion { ended.append($0) }
        try a.startAnimation()
        try later(0.6)  // fraction 0.3
        try a.pauseAnimation()
        try later(0.4)  // paused: no time passes for the animator
        XCTAssertEqual(a.fractionComplete, 0.3, accuracy: 1e-12)
        try a.continueAnimation(withTimingParameters: nil, durationFactor: 0)
        XCTAssertTrue(a.isRunning)
        try later(0.8)  // fraction 0.7
        XCTAssertEqual(a.fractionComplete, 0.7, accuracy: 1e-9)
        XCTAssertEqual(v.presentation.center.x, 50 + 200 * curve.value(at: 0.7), accuracy: 1e-9)
        try later(0.6 - 1e-6)
        XCTAssertEqual(ended, [], "1.4 s remained")
        try later(2e-6)
        XCTAssertEqual(ended, [.end])
        XCTAssertEqual(v.presentation.center.x, 250)
    }

    /// "behaves as if the animation was started from its current position with a new
    /// duration and timing parameters": the rest takes `durationFactor × duration` along the
    /// new curve from where the properties are; `nil` parameters keep the original curve.
    func testContinueRunsTheRestAsANewAnimationFromTheCurrentPosition() async throws {
        // New curve: a linear run paused halfway, continued along ease-in over 2 × 1 s.
        let v = box()
        var ended: [ViewAnimatingPosition] = []
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.center = Point(x: 250, y: 50) }
        a.addCompletion { ended.append($0) }
        try a.startAnimation()
        try later(0.5)
        try a.pauseAnimation()
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9)
        try a.continueAnimation(withTimingParameters: CubicTimingParameters(animationCurve: .easeIn), durationFactor: 2)
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9, "no jump")
        try later(1)
        XCTAssertEqual(v.presentation.center.x, 150 + 100 * CubicBezier.easeIn.value(at: 0.5), accuracy: 1e-9)
        try later(1 - 1e-6)
        XCTAssertEqual(ended, [])
        try later(2e-6)
        XCTAssertEqual(ended, [.end])

        // nil parameters with a factor: the original curve, started afresh from the current
        // position, over the new duration.
        let w = box("w")
        let b = try PropertyAnimator(duration: 1, curve: .easeInOut, engine: engine) { w.center = Point(x: 250, y: 50) }
        try b.startAnimation()
        try later(0.5)
        try b.pauseAnimation()
        let p0 = CubicBezier.easeInOut.value(at: 0.5)
        XCTAssertEqual(w.presentation.center.x, 50 + 200 * p0, accuracy: 1e-9)
        try b.continueAnimation(withTimingParameters: nil, durationFactor: 0.5)
        try later(0.125)  // a quarter of the new 0.5 s
        let p = p0 + (1 - p0) * CubicBezier.easeInOut.value(at: 0.25)
        XCTAssertEqual(w.presentation.center.x, 50 + 200 * p, accuracy: 1e-9)
        try later(0.375)
        XCTAssertEqual(b.state, .inactive)
        XCTAssertEqual(w.presentation.center.x, 250)
    }

    /// The timing given to `continueAnimation` is temporary: "original timing and duration
    /// values are restored when the animator transitions back to the inactive state".
    func testContinueTimingIsRestoredWhenTheAnimatorBecomesInactive() async throws {
        let v = box()
        var ended: [ViewAnimatingPosition] = []
        let a = try PropertyAnimator(duration: 1, curve: .easeInOut, engine: engine) { v.alpha = 0 }
        try a.startAnimation()
        try later(0.5)
        try a.pauseAnimation()
        try a.continueAnimation(withTimingParameters: CubicTimingParameters(animationCurve: .linear), durationFactor: 3)
        try later(3)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(a.duration, 1, "the original duration")
        XCTAssertEqual(a.timingParameters.cubicTimingParameters, CubicTimingParameters(animationCurve: .easeInOut))

        // The next run has the original curve and duration again.
        try a.addAnimations { v.alpha = 1 }
        a.addCompletion { ended.append($0) }
        try a.startAnimation()
        try later(0.25)
        XCTAssertEqual(v.presentation.alpha, CubicBezier.easeInOut.value(at: 0.25), accuracy: 1e-9, "ease in-out, 1 s")
        try later(0.75 - 1e-6)
        XCTAssertEqual(ended, [])
        try later(2e-6)
        XCTAssertEqual(ended, [.end])
    }

    // MARK: - Springs

    /// `init(mass:stiffness:damping:)`: ratio = damping / (2·√(stiffness·mass)).
    func testPhysicalSpringDampingRatioIsDampingOverTwiceRootOfStiffnessTimesMass() async throws {
        for (m, k, c) in [(2.0, 50.0, 5.0), (0.5, 200, 40), (1, 100, 20), (3, 1000, 500)] {
            let p = try SpringTimingParameters(mass: m, stiffness: k, damping: c)
            XCTAssertEqual(p.dampingRatio, c / (2 * (k * m).squareRoot()), accuracy: 1e-12, "m \(m) k \(k) c \(c)")
        }
    }

    /// Damping ratio 1 = no oscillation, < 1 oscillates; `init(duration:bounce:)`: bounce 0 =
    /// no bounce, towards 1 bouncier, negative = overdamped. Checked on the values an
    /// animator shows (overshoot of the target) and on the ratio.
    func testSpringOscillatesOnlyBelowRatioOneAndBounceMapsToIt() async throws {
        func overshoots(_ timing: SpringTimingParameters) throws -> Bool {
            engine = AnimationEngine()
            let v = box()
            let a = try PropertyAnimator(duration: 1, timingParameters: timing, engine: engine)
            try a.addAnimations { v.center = Point(x: 250, y: 50) }
            try a.startAnimation()
            var maxX = 50.0
            var n = 0
            while a.state != .inactive, n < 600 {
                try later(1.0 / 120)
                maxX = max(maxX, v.presentation.center.x)
                n += 1
            }
            XCTAssertEqual(a.state, .inactive, "settles")
            return maxX > 250 + 1e-9
        }
        XCTAssertFalse(try overshoots(SpringTimingParameters(dampingRatio: 1)), "ratio 1: no oscillation")
        XCTAssertTrue(try overshoots(SpringTimingParameters(dampingRatio: 0.3)), "ratio < 1 oscillates")

        let none = try SpringTimingParameters(duration: 0.5, bounce: 0)
        let bouncy = try SpringTimingParameters(duration: 0.5, bounce: 0.5)
        let overdamped = try SpringTimingParameters(duration: 0.5, bounce: -0.5)
        XCTAssertEqual(none.dampingRatio, 1, accuracy: 1e-12, "bounce 0: no bounce, not overdamped")
        XCTAssertLessThan(bouncy.dampingRatio, 1)
        XCTAssertGreaterThan(overdamped.dampingRatio, 1, "negative bounce: overdamped")
        XCTAssertLessThan(try SpringTimingParameters(duration: 0.5, bounce: 0.8).dampingRatio, bouncy.dampingRatio,
                          "towards 1: bouncier")
        XCTAssertFalse(try overshoots(none))
        XCTAssertFalse(try overshoots(overdamped))
        XCTAssertTrue(try overshoots(bouncy))
    }

    // MARK: - Block animations

    /// A one-second animator of `curve` whose block is a keyframe animation of `v`: alpha to
    /// 0 over the first half, center.x to 250 over the second.
    private func keyframedAnimator(_ v: View, curve: AnimationCurve) throws -> PropertyAnimator {
        let e = engine!
        return try PropertyAnimator(duration: 1, curve: curve, engine: engine) {
            try? View.animateKeyframes(withDuration: 0, engine: e, animations: {
                try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { v.alpha = 0 }
                try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { v.center = Point(x: 250, y: 50) }
            })
        }
    }

    /// Per-keyframe timing inside a property animator (WWDC 2017, "Advanced Animations with
    /// UIKit"): `UIView.animateKeyframes` called in an animator's animations block (with
    /// duration 0, inheriting the animator's) makes keyframes the animator runs, pauses and
    /// scrubs.
    func testKeyframesNestedInAPropertyAnimatorAreScrubbedWithIt() async throws {
        let v = box()
        let animator = try keyframedAnimator(v, curve: .linear)
        try animator.pauseAnimation()
        animator.fractionComplete = 0.25
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-9, "halfway through the first keyframe")
        XCTAssertEqual(v.presentation.center.x, 50, accuracy: 1e-9)
        animator.fractionComplete = 0.75
        XCTAssertEqual(v.presentation.alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9, "halfway through the second keyframe")
        try animator.startAnimation()
        try later(0.25)
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertEqual(v.presentation.center.x, 250)
    }

    /// Pausing and resuming (or reversing) during a continuation leg does not move a delayed
    /// animation or a keyframe: each leg starts where the lanes are.
    func testAPauseDuringAContinuationMovesNothing() async throws {
        for reverses in [false, true] {
            let v = box(), w = box("w")
            let animator = try keyframedAnimator(v, curve: .easeInOut)
            try animator.addAnimations({ w.center = Point(x: 250, y: 50) }, delayFactor: 0.5)
            try animator.pauseAnimation()
            animator.fractionComplete = 0.25
            try animator.startAnimation()
            // After 0.35 s the run's time is at 0.6 (the delayed animation and the second
            // keyframe part-way); reversed, 0.05 s later still inside their windows.
            for elapsed in [0.35, 0.05] {
                try advance(to: engine.clock.now + elapsed)
                XCTAssertTrue(animator.isRunning, "reverses \(reverses), after \(elapsed)")
                XCTAssertNotEqual(w.presentation.center.x, 50, "part-way through its window")
                XCTAssertNotEqual(w.presentation.center.x, 250, "part-way through its window")
                let shown = (v.presentation.alpha, v.presentation.center.x, w.presentation.center.x)
                try animator.pauseAnimation()
                if reverses { animator.isReversed.toggle() }
                try animator.startAnimation()
                XCTAssertEqual(v.presentation.alpha, shown.0, accuracy: 1e-12, "reverses \(reverses), after \(elapsed)")
                XCTAssertEqual(v.presentation.center.x, shown.1, accuracy: 1e-9, "reverses \(reverses), after \(elapsed)")
                XCTAssertEqual(w.presentation.center.x, shown.2, accuracy: 1e-9, "reverses \(reverses), after \(elapsed)")
                try advance(to: engine.clock.now + 1.0 / 60)
            }
            try advance(to: engine.clock.now + 3)
            XCTAssertEqual(animator.state, .inactive)
        }
    }

    /// `finishAnimation(at: .start)` after `stopAnimation(false)` puts back "the values of
    /// the properties before you applied any animations" (Apple's `.start`), also when the
    /// animator animated a property twice (two blocks, or the steps of a keyframe animation);
    /// `.end` gives the values the blocks set last.
    func testFinishingAtTheStartRestoresThePropertyBeforeAllOfTheAnimatorsAnimations() async throws {
        for position in [ViewAnimatingPosition.start, .end, .current] {
            let v = box(), w = box("w")
            let e = engine!
            let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
                v.alpha = 0.5
                try? View.animateKeyframes(withDuration: 0, engine: e, animations: {
                    try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { w.center = Point(x: 150, y: 50) }
                    try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { w.center = Point(x: 100, y: 50) }
                })
            }
            try animator.addAnimations { v.alpha = 0 }
            try animator.startAnimation()
            try advance(to: engine.clock.now + 0.75)
            let shownAlpha = v.presentation.alpha, shownX = w.presentation.center.x
            try animator.stopAnimation(false)
            try animator.finishAnimation(at: position)
            switch position {
            case .start:
                XCTAssertEqual(v.model.alpha, 1, "before both blocks")
                XCTAssertEqual(w.model.center.x, 50, "before the first keyframe")
            case .end:
                XCTAssertEqual(v.model.alpha, 0)
                XCTAssertEqual(w.model.center.x, 100)
            case .current:
                XCTAssertEqual(v.model.alpha, shownAlpha, accuracy: 1e-12)
                XCTAssertEqual(w.model.center.x, shownX, accuracy: 1e-12)
            }
            XCTAssertEqual(v.presentation, v.model)
            XCTAssertEqual(w.presentation, w.model)
        }
    }

    /// An animation added while the animator runs reversed keeps its value at the start and
    /// is undone at the end (as a natural finish at `.start` leaves it): finishing a stopped
    /// animator at either position agrees.
    func testFinishingAStoppedAnimatorWithAnAnimationAddedWhileReversed() async throws {
        for (position, alpha) in [(ViewAnimatingPosition.start, 0.7), (.end, 0.5)] {
            let v = box()
            let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0.5 }
            try animator.startAnimation()
            try advance(to: engine.clock.now + 0.25)
            animator.isReversed = true
            try animator.addAnimations { v.alpha = 0.2 }
            try advance(to: engine.clock.now + 0.1)
            try animator.stopAnimation(false)
            try animator.finishAnimation(at: position)
            XCTAssertEqual(v.model.alpha, alpha, accuracy: 1e-12, "\(position)")
            XCTAssertEqual(v.presentation, v.model)
        }
    }

    /// Resuming after a scrub, or continuing with new timing, re-times the rest of the run:
    /// a keyframe (or an animation with a delay) that had not begun still waits for its part
    /// of the run, along the run's eased time, instead of starting at once.
    func testKeyframesKeepTheirTimesWhenTheAnimatorResumesOrContinues() async throws {
        let ease = CubicBezier.easeInOut
        for continues in [false, true] {
            let v = box()
            let animator = try keyframedAnimator(v, curve: .easeInOut)
            try animator.pauseAnimation()
            animator.scrubsLinearly = !continues
            animator.fractionComplete = 0.25
            // Linearly scrubbed, the keyframes divide the time itself; otherwise its ease.
            let argument0 = continues ? ease.value(at: 0.25) : 0.25
            XCTAssertEqual(v.presentation.alpha, 1 - 2 * argument0, accuracy: 1e-9)
            XCTAssertEqual(v.presentation.center.x, 50, accuracy: 1e-9)
            // The run's time from 0.25 to 1 along the leg's curve: the animator's own ease when
            // it resumes, linear when it continues with linear timing (over 1 s).
            let length = continues ? 1.0 : 0.75
            if continues {
                try animator.continueAnimation(withTimingParameters: CubicTimingParameters(animationCurve: .linear), durationFactor: 1)
            } else {
                try animator.startAnimation()
            }
            let start = engine.clock.now
            func argument(at elapsed: Double) -> Double {
                let u = elapsed / length
                let time = 0.25 + 0.75 * (continues ? u : ease.value(at: u))
                // The share of the rest of the run covered, applied to where the keyframes were.
                return argument0 + (1 - argument0) * (time - 0.25) / 0.75
            }
            for elapsed in [0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.7] where elapsed < length {
                try advance(to: start + elapsed)
                let a = argument(at: elapsed)
                XCTAssertEqual(v.presentation.alpha, max(0, 1 - 2 * a), accuracy: 1e-9, "continues \(continues), at \(elapsed)")
                XCTAssertEqual(v.presentation.center.x, 50 + 200 * max(0, 2 * a - 1), accuracy: 1e-9,
                               "continues \(continues), at \(elapsed): the second keyframe waits for its time")
            }
            try advance(to: start + length + 0.01)
            XCTAssertEqual(animator.state, .inactive)
            XCTAssertEqual(v.presentation.center.x, 250)
            XCTAssertEqual(v.presentation.alpha, 0)
        }
    }

    func testADelayedAnimationWaitsForItsPartWhenTheAnimatorResumes() async throws {
        let v = box(), w = box("w")
        let animator = try PropertyAnimator(duration: 1, curve: .easeInOut, engine: engine) { v.alpha = 0 }
        try animator.addAnimations({ w.center = Point(x: 250, y: 50) }, delayFactor: 0.5)
        try animator.pauseAnimation()
        animator.fractionComplete = 0.25
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-9)
        XCTAssertEqual(w.presentation.center.x, 50, accuracy: 1e-9)
        try animator.startAnimation()
        let start = engine.clock.now
        let ease = CubicBezier.easeInOut
        for elapsed in [0.05, 0.15, 0.3, 0.5, 0.7] {
            try advance(to: start + elapsed)
            // The whole-run animation eases from where it was over the time left.
            XCTAssertEqual(v.presentation.alpha, 1 - (0.25 + 0.75 * ease.value(at: elapsed / 0.75)), accuracy: 1e-9,
                           "at \(elapsed)")
            // The delayed one waits for the run's second half (the run's time moves on
            // linearly, 0.25 + elapsed), then eases over it, as it would have without the scrub.
            let window = max(0, (0.25 + elapsed - 0.5) / 0.5)
            XCTAssertEqual(w.presentation.center.x, 50 + 200 * ease.value(at: window), accuracy: 1e-9, "at \(elapsed)")
        }
        try advance(to: start + 0.8)
        XCTAssertEqual(w.presentation.center.x, 250)
        XCTAssertEqual(animator.state, .inactive)
    }

    /// The keyframes join the property animator's run: reversing it runs them back and it
    /// completes at `.start`, with the keyframe animation's completion called with `false`;
    /// a cubic-mode track joins too. Not inside a non-interruptible animator, nor with a
    /// delay or an override option: there the call is a keyframe animation of its own.
    func testKeyframesNestedInAPropertyAnimatorReverseWithItAndOnlyWhereItTracksThem() async throws {
        let v = box(), w = box("w")
        let e = engine!
        var keyframesEnded: [Bool] = []
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            try? View.animateKeyframes(withDuration: 0, options: .calculationModeCubic, engine: e, animations: {
                try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { v.alpha = 0 }
            }, completion: { keyframesEnded.append($0) })
        }
        var ended: [ViewAnimatingPosition] = []
        animator.addCompletion { ended.append($0) }
        try animator.startAnimation()
        try later(0.5)
        let halfway = v.presentation.alpha
        XCTAssertTrue(halfway > 0 && halfway < 1, "moving with the animator: \(halfway)")
        animator.isReversed = true
        try later(0.25)
        XCTAssertTrue(v.presentation.alpha > halfway, "running back")
        try later(0.5)
        XCTAssertEqual(ended, [.start])
        XCTAssertEqual(keyframesEnded, [false])
        XCTAssertEqual(v.presentation.alpha, 1)
        XCTAssertEqual(v.model.alpha, 1)

        // A non-interruptible animator does not track them: the keyframe animation is one of
        // its own, which inherits the animator's 1 s and linear timing (its own 0 s is
        // overridden by the in-flight animation's, as UIKit's nested animations inherit).
        let plain = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            try? View.animateKeyframes(withDuration: 0, engine: e, animations: {
                try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { w.alpha = 0 }
            })
        }
        try plain.setInterruptible(false)
        try plain.startAnimation()
        try later(1.0 / 60)
        XCTAssertEqual(w.presentation.alpha, 1 - 1.0 / 60, accuracy: 1e-9, "a keyframe animation of its own, over 1 s")
        XCTAssertTrue(plain.isRunning)
        try later(1)
        XCTAssertEqual(w.presentation.alpha, 0)

        // An override of the inherited duration: its own animation, of its own duration.
        w.alpha = 1
        let overriding = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            try? View.animateKeyframes(withDuration: 4, options: [.overrideInheritedDuration, .curveLinear], engine: e,
                                       animations: {
                try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { w.alpha = 0 }
            })
        }
        try overriding.pauseAnimation()
        overriding.fractionComplete = 0.5
        try later(1)
        XCTAssertEqual(w.presentation.alpha, 0.75, accuracy: 1e-9, "1 s of its own 4 s, not the paused animator's")
    }

    /// `UIView.animate` inside an interruptible property animator's block: "the implicit
    /// animations defined by this call will be tracked by the outer propertyAnimator" — it
    /// inherits the animator's duration and curve, pauses and scrubs with it, and its
    /// completion comes with the animator's. A `.overrideInheritedDuration` call, or one with a
    /// delay, is an animation of its own.
    func testBlockAnimationNestedInAPropertyAnimatorIsTrackedByIt() async throws {
        let v = box(), w = box("w")
        let e = engine!
        var nestedEnded: [Bool] = []
        let outer = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.alpha = 0
            try? View.animate(withDuration: 4, engine: e, animations: { w.alpha = 0 },
                              completion: { nestedEnded.append($0) })
        }
        try outer.startAnimation()
        try later(0.25)
        XCTAssertEqual(w.presentation.alpha, 0.75, accuracy: 1e-9, "the outer duration and (linear) curve")
        try outer.pauseAnimation()
        try later(0.5)
        XCTAssertEqual(w.presentation.alpha, 0.75, accuracy: 1e-9, "paused with the outer animator")
        outer.fractionComplete = 0.6
        XCTAssertEqual(w.presentation.alpha, 0.4, accuracy: 1e-9, "scrubbed with the outer animator")
        XCTAssertEqual(nestedEnded, [])
        try outer.startAnimation()
        try later(0.5)
        XCTAssertEqual(outer.state, .inactive)
        XCTAssertEqual(nestedEnded, [true])
        XCTAssertEqual(w.presentation.alpha, 0)

        // Its own duration (override): not the paused outer animator's.
        w.alpha = 1
        let paused = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            try? View.animate(withDuration: 4, options: [.overrideInheritedDuration, .curveLinear], engine: e,
                              animations: { w.alpha = 0 })
        }
        try paused.pauseAnimation()
        try later(1)
        XCTAssertEqual(w.presentation.alpha, 0.75, accuracy: 1e-9, "1 s of its own 4 s")
        try paused.stopAnimation(true)
    }

    /// A block added to a running animator B from inside animator A's block runs at once as
    /// B's, not A's: a `View.animate` made in it is not tracked by A (pausing A leaves it
    /// running). (Kinetic runs it as an animation of its own; see UIKitMapping's "Missing".)
    func testBlockAnimationInAnotherAnimatorsAddedBlockIsNotTrackedByTheOuterOne() async throws {
        let v = box(), w = box("w"), u = box("u")
        let e = engine!
        let b = try PropertyAnimator(duration: 2, curve: .linear, engine: engine) { u.alpha = 0 }
        try b.startAnimation()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.alpha = 0
            try? b.addAnimations {
                try? View.animate(withDuration: 1, options: .curveLinear, engine: e, animations: { w.alpha = 0 })
            }
        }
        try a.startAnimation()
        try a.pauseAnimation()
        try later(0.5)
        XCTAssertEqual(v.presentation.alpha, 1, accuracy: 1e-12, "A is paused")
        XCTAssertEqual(w.presentation.alpha, 0.75, accuracy: 1e-9,
                       "not A's: runs on while A is paused, over B's 2 s left (inherited), linear")
        try a.stopAnimation(true)
    }

    /// A keyframe animation that does not join the property animator whose block makes it
    /// (here: its own duration) is its own animation: a `View.animate` made in its block
    /// completes with it, not with the (paused) property animator.
    func testAnimationsInsideAKeyframeAnimationOfItsOwnDoNotJoinTheOuterAnimator() async throws {
        let w = box("w")
        let e = engine!
        var log: [String] = []
        let outer = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            try? View.animateKeyframes(withDuration: 0.5, options: [.overrideInheritedDuration, .curveLinear], engine: e,
                                       animations: {
                try? View.animate(withDuration: 0.5, options: .curveLinear, engine: e, animations: { w.alpha = 0 },
                                  completion: { log.append("nested \($0)") })
            }, completion: { log.append("keyframes \($0)") })
        }
        try outer.pauseAnimation()
        try later(0.25)
        XCTAssertEqual(w.presentation.alpha, 0.5, accuracy: 1e-9, "runs while the outer animator is paused")
        try later(0.5)
        XCTAssertEqual(log.sorted(), ["keyframes true", "nested true"])
        try outer.stopAnimation(true)
    }

    /// Block animations started inside keyframe animations nested in one another, inside a
    /// property animator's block, each start with their own captures: the captures of the
    /// keyframe blocks deepen the capture stack past the pool of reused captures, which the
    /// innermost start once indexed out of range (a crash when no earlier test had nested as
    /// deep). Nested deeper than any other test, so that this one fails without the fix.
    func testBlockAnimationsDeepInsideNestedKeyframeAnimationsStart() async throws {
        let w = box("w")
        let e = engine!
        var log: [String] = []
        func nest(_ level: Int) {
            if level == 0 {
                try? View.animate(withDuration: 0.5, options: .curveLinear, engine: e, animations: { w.alpha = 0 },
                                  completion: { log.append("innermost \($0)") })
                return
            }
            try? View.animateKeyframes(withDuration: 0.5, options: [.overrideInheritedDuration, .curveLinear], engine: e,
                                       animations: { nest(level - 1) }, completion: { _ in log.append("keyframes") })
        }
        let outer = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { nest(12) }
        try outer.pauseAnimation()
        try later(0.25)
        XCTAssertEqual(w.presentation.alpha, 0.5, accuracy: 1e-9)
        try later(0.5)
        XCTAssertEqual(log.filter { $0 == "keyframes" }.count, 12)
        XCTAssertEqual(log.last, "innermost true")
        try outer.stopAnimation(true)
    }

    /// A keyframe animation that joins a property animator still checks its duration.
    func testJoinedKeyframeAnimationRejectsABadDuration() async throws {
        let e = engine!
        var errors: [AnimatorError] = []
        let outer = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            for bad in [Double.nan, -1] {
                do {
                    try View.animateKeyframes(withDuration: bad, engine: e, animations: {})
                } catch let error as AnimatorError {
                    errors.append(error)
                } catch {}
            }
        }
        try outer.pauseAnimation()
        XCTAssertEqual(errors.count, 2)
        for error in errors {
            guard case .invalidParameter(let parameter) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(parameter.parameter, "duration")
        }
        try outer.stopAnimation(true)
    }

    // MARK: - Percent-driven interaction

    /// `UIPercentDrivenInteractiveTransition`'s defaults: `completionSpeed` 1, `completionCurve`
    /// ease-in-out, `wantsInteractiveStart` true, no `timingCurve`; `completionSpeed` must be
    /// greater than 0.
    func testPercentDrivenDefaultsAndCompletionSpeedMustBePositive() async throws {
        let interaction = PercentDrivenInteractiveTransition()
        XCTAssertEqual(interaction.completionSpeed, 1)
        XCTAssertEqual(interaction.completionCurve, .easeInOut)
        XCTAssertTrue(interaction.wantsInteractiveStart)
        XCTAssertNil(interaction.timingCurve)
        XCTAssertEqual(interaction.percentComplete, 0)
        interaction.completionSpeed = 2
        for bad in [0.0, -1, .nan, .infinity] {
            interaction.completionSpeed = bad
            XCTAssertEqual(interaction.completionSpeed, 2, "\(bad) is refused")
        }
    }

    /// The completion after the interaction takes `(1 − percentComplete) · duration /
    /// completionSpeed` along `completionCurve`; `timingCurve` applies only to interruptible
    /// animators and is ignored for the block animations of a standard transition.
    func testCompletionSpeedAndCurveTimeTheFinishAndTimingCurveIsIgnoredForBlockAnimations() async throws {
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
        defer { withExtendedLifetime(delegate) {} }  // held weakly by b
        interaction.completionSpeed = 2
        interaction.completionCurve = .linear
        interaction.timingCurve = try SpringTimingParameters(dampingRatio: 0.2)
        try b.dismiss(animated: true)
        XCTAssertEqual(b.transitionCoordinator?.isInterruptible, false, "the standard slide: block animations")
        interaction.update(0.4)
        try later(1.0 / 60)
        XCTAssertEqual(b.view.presentation.frame.origin.y, 0.4 * 844, accuracy: 1e-9, "linear while interactive")
        try interaction.finish()
        // (1 − 0.4) × 0.35 s / 2 = 0.105 s, linearly from 0.4 to 1.
        try later(0.0525)
        XCTAssertEqual(b.view.presentation.frame.origin.y, 0.7 * 844, accuracy: 1e-6, "the completion curve, not the spring")
        try later(0.0525 - 1e-6)
        XCTAssertNotNil(window.transitionInProgress)
        try later(2e-6)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertNil(a.presentedViewController)
    }

    /// `update` after `finish()` or `cancel()` (the animations run) changes nothing: not
    /// `percentComplete`, not the context's, not the views; after `pause()` it scrubs again.
    func testUpdateWhileTheCompletionRunsIsIgnored() async throws {
        for cancels in [false, true] {
            let a = ViewController(name: "A"), b = ViewController(name: "B")
            let (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
            defer { withExtendedLifetime(delegate) {} }  // held weakly by b
            try b.dismiss(animated: true)
            let context = try XCTUnwrap(window.transitionInProgress)
            interaction.update(0.4)
            try later(1.0 / 60)
            if cancels { try interaction.cancel() } else { try interaction.finish() }
            try later(0.02)
            let y = b.view.presentation.frame.origin.y
            interaction.update(0.9)
            interaction.update(0.05)
            XCTAssertEqual(interaction.percentComplete, 0.4, "cancels \(cancels)")
            XCTAssertEqual(context.percentComplete, 0.4, "cancels \(cancels)")
            XCTAssertEqual(b.view.presentation.frame.origin.y, y, "cancels \(cancels)")
            // A pause makes it interactive again: updates scrub.
            interaction.pause()
            XCTAssertTrue(context.isInteractive)
            interaction.update(0.25)
            XCTAssertEqual(interaction.percentComplete, 0.25)
            XCTAssertEqual(context.percentComplete, 0.25)
            try later(1.0 / 60)
            XCTAssertEqual(b.view.presentation.frame.origin.y, 0.25 * 844, accuracy: 1e-6, "scrubbed to 25 %")
            if cancels { try interaction.cancel() } else { try interaction.finish() }
            try later(2)
            XCTAssertNil(window.transitionInProgress)
            interaction.update(0.5)
            XCTAssertEqual(interaction.percentComplete, 0.25, "after the end")
            if cancels { try b.dismiss(animated: false) }
        }
    }

    // MARK: - Transition coordinator

    /// `initiallyInteractive` never changes; `isCancelled` is true only for an interactive
    /// cancellation (and, for an interruptible transition, only while that decision stands).
    func testInitiallyInteractiveNeverChangesAndIsCancelledOnlyForInteractiveCancellation() async throws {
        // Not interactive: never cancelled.
        let window = Window(engine: engine)
        let root = ViewController(name: "Root"), modal = ViewController(name: "Modal")
        window.rootViewController = root
        try root.present(modal, animated: true)
        let plain = try XCTUnwrap(modal.transitionCoordinator)
        XCTAssertFalse(plain.initiallyInteractive)
        XCTAssertFalse(plain.isInteractive)
        XCTAssertFalse(plain.isCancelled)
        try later(0.35)
        XCTAssertNil(window.transitionInProgress)

        // Interactive and interruptible: the flags through cancel, re-grab and finish.
        engine = AnimationEngine()
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let (dismissWindow, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
        let slide = InterruptibleSlideDown(timing: try SpringTimingParameters(dampingRatio: 1))
        delegate.dismissAnimator = slide
        try b.dismiss(animated: true)
        let coordinator = try XCTUnwrap(b.transitionCoordinator)
        XCTAssertTrue(coordinator.initiallyInteractive)
        XCTAssertTrue(coordinator.isInteractive)
        XCTAssertFalse(coordinator.isCancelled)
        interaction.update(0.3)
        try later(1.0 / 60)
        try interaction.cancel()
        XCTAssertTrue(coordinator.isCancelled)
        XCTAssertFalse(coordinator.isInteractive)
        XCTAssertTrue(coordinator.initiallyInteractive, "never changes")
        try later(0.02)
        interaction.pause()
        XCTAssertTrue(coordinator.isInteractive)
        XCTAssertFalse(coordinator.isCancelled)
        XCTAssertTrue(coordinator.initiallyInteractive, "never changes")
        try interaction.finish()
        XCTAssertFalse(coordinator.isInteractive)
        XCTAssertFalse(coordinator.isCancelled)
        XCTAssertTrue(coordinator.initiallyInteractive, "never changes")
        try later(2)
        XCTAssertNil(dismissWindow.transitionInProgress)
        XCTAssertEqual(slide.completeFlags, [true])
        XCTAssertNil(a.presentedViewController)
    }

    /// "If initiallyInteractive is NO, isInteractive can only become YES when isInterruptible":
    /// a transition that starts non-interactively and whose animations are not interruptible
    /// stays non-interactive when its interaction controller pauses.
    func testNonInteractiveStartOfANonInterruptibleTransitionNeverBecomesInteractive() async throws {
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
        defer { withExtendedLifetime(delegate) {} }
        interaction.wantsInteractiveStart = false
        try b.dismiss(animated: true)
        let coordinator = try XCTUnwrap(b.transitionCoordinator)
        XCTAssertFalse(coordinator.initiallyInteractive)
        XCTAssertFalse(coordinator.isInterruptible)
        try later(0.1)
        interaction.pause()
        XCTAssertFalse(coordinator.isInteractive, "not interruptible: it cannot become interactive")
        try later(1)
        XCTAssertNil(window.transitionInProgress, "it runs to its end by itself")
    }

    // MARK: - Transition context

    /// `isAnimated` is true for animated transitions of every style (always, for the styles
    /// other than `.custom`); `presentationStyle` is the presented controller's style.
    func testAnimatedTransitionsReportIsAnimatedAndTheirPresentationStyle() async throws {
        final class Fade: ViewControllerAnimatedTransitioning {
            func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.2 }
            func animateTransition(using context: any ViewControllerContextTransitioning) throws {
                guard let to = context.viewController(forKey: .to), let view = context.view(forKey: .to) else {
                    return try context.completeTransition(true)
                }
                view.frame = context.finalFrame(for: to)
                context.containerView.addSubview(view)
                try View.animate(withDuration: 0.2, engine: to.engine, animations: { view.alpha = 1 }) { _ in
                    try? context.completeTransition(!context.transitionWasCancelled)
                }
            }
        }
        final class Delegate: ViewControllerTransitioningDelegate {
            let fade = Fade()
            func animationController(forPresented presented: ViewController, presenting: ViewController,
                                     source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { fade }
        }
        let delegate = Delegate()
        for style in [ModalPresentationStyle.fullScreen, .overFullScreen, .custom, .pageSheet] {
            engine = AnimationEngine()
            let window = Window(engine: engine)
            let a = ViewController(name: "A"), b = ViewController(name: "B")
            window.rootViewController = a
            b.modalPresentationStyle = style
            if style == .custom { b.transitioningDelegate = delegate }
            try a.present(b, animated: true)
            let context = try XCTUnwrap(window.transitionInProgress)
            XCTAssertTrue(context.isAnimated, "\(style)")
            XCTAssertEqual(context.presentationStyle, style)
            try later(1)
            XCTAssertNil(window.transitionInProgress, "\(style)")
        }
        // A push too.
        engine = AnimationEngine()
        let window = Window(engine: engine)
        let nav = NavigationController(rootViewController: ViewController(name: "Root"))
        window.rootViewController = nav
        try nav.pushViewController(ViewController(name: "Next"), animated: true)
        XCTAssertEqual(window.transitionInProgress?.isAnimated, true)
        try later(1)
        XCTAssertNil(window.transitionInProgress)
    }

    /// For `.custom`, `isAnimated` "is true if the transition should be animated or false if
    /// it should not … determine whether you need to animate a custom transition into place,
    /// or whether you should install the final views into the container without animating":
    /// a non-animated custom presentation still calls the animator, with `isAnimated` false.
    func testNonAnimatedCustomPresentationCallsTheAnimatorWithIsAnimatedFalse() async throws {
        final class Installer: ViewControllerAnimatedTransitioning {
            var seen: [Bool] = []
            func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.3 }
            func animateTransition(using context: any ViewControllerContextTransitioning) throws {
                seen.append(context.isAnimated)
                if let from = context.view(forKey: .from), context.viewController(forKey: .from)?.name == "B" {
                    from.removeFromSuperview()  // the dismissal: take the presented view out
                } else if let to = context.viewController(forKey: .to), let view = context.view(forKey: .to) {
                    view.frame = context.finalFrame(for: to)
                    context.containerView.addSubview(view)
                }
                try context.completeTransition(true)
            }
        }
        final class Delegate: ViewControllerTransitioningDelegate {
            let installer = Installer()
            var interactionAsked = 0
            func animationController(forPresented presented: ViewController, presenting: ViewController,
                                     source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { installer }
            func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
                installer
            }
            func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning)
                -> (any ViewControllerInteractiveTransitioning)? {
                interactionAsked += 1
                return nil
            }
        }
        final class Recording: ViewController {
            var willAppear: [Bool] = []
            var alongside: [String] = []
            override func viewWillAppear(_ animated: Bool) {
                willAppear.append(animated)
                // Alongside animations of a transition whose animator completes it within its
                // own call still run (without animation), before their completions.
                transitionCoordinator?.animate(alongsideTransition: { [unowned self] in
                    alongside.append("animation \($0.isAnimated)")
                }, completion: { [unowned self] _ in alongside.append("completion") })
            }
        }
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = Recording(name: "B")
        window.rootViewController = a
        let delegate = Delegate()
        b.modalPresentationStyle = .custom
        b.transitioningDelegate = delegate
        try a.present(b, animated: false)
        let appeared = b.willAppear
        XCTAssertEqual(b.alongside, ["animation false", "completion"])
        XCTAssertEqual(delegate.installer.seen, [false], "called once, told not to animate")
        XCTAssertEqual(appeared, [false], "viewWillAppear(false)")
        XCTAssertEqual(delegate.interactionAsked, 0, "a transition that does not animate is not interactive")
        XCTAssertTrue(a.presentedViewController === b)
        XCTAssertTrue(b.view.superview != nil)
        XCTAssertNil(window.transitionInProgress)

        // The dismissal, not animated, too.
        try b.dismiss(animated: false)
        XCTAssertEqual(delegate.installer.seen, [false, false])
        XCTAssertNil(a.presentedViewController)
        XCTAssertNil(b.view.superview)
        XCTAssertNil(window.transitionInProgress)

        // Animated, the same animator sees true.
        try a.present(b, animated: true)
        XCTAssertEqual(delegate.installer.seen, [false, false, true])
        XCTAssertEqual(delegate.interactionAsked, 1)
    }

    /// Navigation frames: `initialFrame` is `.zero` when unknown (the incoming controller);
    /// the outgoing controller's `finalFrame` is `.zero` because its view is removed; a
    /// non-zero final frame (the incoming one's) is where its view ends.
    func testNavigationFramesAreZeroWhenUnknownOrRemovedAndTheFinalFrameIsRespected() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        let start = a.view.frame
        try nav.pushViewController(b, animated: true)
        let push = try XCTUnwrap(window.transitionInProgress)
        XCTAssertEqual(push.initialFrame(for: a), start)
        XCTAssertEqual(push.initialFrame(for: b), .zero)
        XCTAssertEqual(push.finalFrame(for: a), .zero, "its view is removed")
        XCTAssertEqual(push.finalFrame(for: b), nav.view.bounds)
        XCTAssertTrue(push.viewController(forKey: .from) === a)
        XCTAssertTrue(push.viewController(forKey: .to) === b)
        try later(0.35)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(b.view.frame, push.finalFrame(for: b))
        XCTAssertNil(a.view.superview)

        try nav.popViewController(animated: true)
        let pop = try XCTUnwrap(window.transitionInProgress)
        XCTAssertEqual(pop.finalFrame(for: b), .zero, "the popped view is removed")
        XCTAssertEqual(pop.finalFrame(for: a), nav.view.bounds)
        XCTAssertEqual(pop.initialFrame(for: a), .zero)
        try later(0.35)
        XCTAssertEqual(a.view.frame, nav.view.bounds)
        XCTAssertNil(b.view.superview)
    }

    // MARK: - Lifetimes and edges of transitions

    /// A window released while its presentation animates: the transition's end, which the
    /// engine's animator still runs, read the window through an unowned reference and trapped.
    /// It now finds nothing to finish for the window, and the controllers get their calls.
    func testAWindowReleasedMidPresentationDoesNotTrap() async throws {
        var window: Window? = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window!.rootViewController = a
        var completed = false
        try a.present(b, animated: true, completion: { completed = true })
        weak var released = window
        window = nil
        XCTAssertNil(released, "the window is gone while its presentation runs")
        try later(1)
        XCTAssertTrue(completed, "the presentation's completion still runs")
    }

    /// The same for a navigation controller released while it pushes.
    func testANavigationControllerReleasedMidPushDoesNotTrap() async throws {
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        var nav: NavigationController? = NavigationController(rootViewController: a)
        try nav!.pushViewController(b, animated: true)
        weak var released = nav
        nav = nil
        XCTAssertNil(released)
        try later(1)
    }

    /// A window whose root is replaced while its navigation controller pushes: the push's end
    /// looked for the navigation controller's window (none by then), so the window kept
    /// waiting for the transition for good and refused every later one.
    func testReplacingTheRootMidPushDoesNotBlockTheWindow() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let c = ViewController(name: "C"), d = ViewController(name: "D")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        try nav.pushViewController(b, animated: true)
        window.rootViewController = c
        try later(1)
        XCTAssertNil(window.transitionInProgress)
        try c.present(d, animated: false)
        XCTAssertTrue(c.presentedViewController === d)
    }

    /// UIKit's coordinator is an ordinary object: one kept past its transition reports how the
    /// transition went (it held the context unowned, and trapped).
    func testACoordinatorKeptPastItsTransitionStillAnswers() async throws {
        final class Keeping: ViewController {
            var kept: TransitionCoordinator?
            override func viewWillAppear(_ animated: Bool) { kept = transitionCoordinator }
        }
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = Keeping(name: "B")
        window.rootViewController = a
        var alongside = 0
        try a.present(b, animated: true)
        _ = b.kept?.animate(alongsideTransition: { _ in alongside += 1 }, completion: nil)
        try later(1)
        XCTAssertNil(window.transitionInProgress)
        let coordinator = try XCTUnwrap(b.kept)
        XCTAssertTrue(coordinator.isAnimated)
        XCTAssertFalse(coordinator.isCancelled)
        XCTAssertFalse(coordinator.isInteractive)
        XCTAssertEqual(alongside, 1)
        // Registered after the end: nothing runs, nothing traps.
        _ = coordinator.animate(alongsideTransition: { _ in alongside += 1 }, completion: nil)
        XCTAssertEqual(alongside, 1)
        // A controller that keeps the coordinator keeps the transition (and so itself) alive,
        // as in UIKit: let go of it, or the three leak together.
        b.kept = nil
    }

    /// A navigation controller whose root was removed with `removeFromParent()` has an empty
    /// stack: a push makes the pushed controller the root (it trapped on the missing top), and
    /// popping to the root returns nothing.
    func testAnEmptyNavigationStackTakesANewRoot() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B"), c = ViewController(name: "C")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        a.removeFromParent()
        XCTAssertTrue(nav.viewControllers.isEmpty)
        XCTAssertTrue(try nav.popToRootViewController(animated: true).isEmpty)
        XCTAssertNil(try nav.popViewController(animated: true))
        try nav.pushViewController(b, animated: true)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["B"])
        XCTAssertTrue(b.view.superview === nav.view)
        try nav.pushViewController(c, animated: false)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["B", "C"])
    }

    /// `viewDidAppear(_:)` and `viewDidDisappear(_:)` get the flag their transition began with
    /// (Apple: "If true, the view was added to the window using an animation"); they always
    /// got true.
    func testDidAppearAndDidDisappearGetTheTransitionsAnimatedFlag() async throws {
        final class Flags: ViewController {
            var seen: [String] = []
            override func viewWillAppear(_ animated: Bool) { seen.append("willAppear \(animated)") }
            override func viewDidAppear(_ animated: Bool) { seen.append("didAppear \(animated)") }
            override func viewWillDisappear(_ animated: Bool) { seen.append("willDisappear \(animated)") }
            override func viewDidDisappear(_ animated: Bool) { seen.append("didDisappear \(animated)") }
        }
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = Flags(name: "B")
        window.rootViewController = a
        try a.present(b, animated: false)
        try b.dismiss(animated: true)
        try later(1)
        XCTAssertEqual(b.seen, ["willAppear false", "didAppear false", "willDisappear true", "didDisappear true"])
    }


    /// A second `completeTransition` has no effect (the first wins) and `animationEnded(_:)`
    /// fires exactly once, with the first call's argument.
    func testCompleteTransitionTwiceKeepsTheFirstAndEndsTheAnimationOnce() async throws {
        final class Twice: ViewControllerAnimatedTransitioning {
            var ended: [Bool] = []
            var second: (any Error)?
            func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.1 }
            func animateTransition(using context: any ViewControllerContextTransitioning) throws {
                guard let to = context.viewController(forKey: .to), let view = context.view(forKey: .to) else { return }
                view.frame = context.finalFrame(for: to)
                context.containerView.addSubview(view)
                try context.completeTransition(true)
                do { try context.completeTransition(false) } catch { second = error }
            }
            func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
        }
        final class Delegate: ViewControllerTransitioningDelegate {
            let twice = Twice()
            func animationController(forPresented presented: ViewController, presenting: ViewController,
                                     source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { twice }
        }
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        let delegate = Delegate()
        b.modalPresentationStyle = .custom
        b.transitioningDelegate = delegate
        var completions = 0
        try a.present(b, animated: true) { completions += 1 }
        XCTAssertEqual(delegate.twice.ended, [true])
        XCTAssertEqual(delegate.twice.second as? TransitionError, .completedTwice)
        XCTAssertEqual(completions, 1)
        XCTAssertTrue(a.presentedViewController === b, "the first call (completed) stands")
        XCTAssertNil(window.transitionInProgress)
        XCTAssertTrue(window.trace.contains("B.viewDidAppear"))
    }

    // MARK: - Interactive call protocol

    /// "If an interaction controller is vended, startInteractiveTransition: is called first and
    /// it must call animateTransition: if needed": the system does not call `animateTransition`
    /// itself for an interactive transition.
    func testStartInteractiveTransitionIsCalledAndTheSystemDoesNotCallAnimateTransition() async throws {
        final class Animator: ViewControllerAnimatedTransitioning {
            let journal: Journal
            init(journal: Journal) { self.journal = journal }
            func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.3 }
            func animateTransition(using context: any ViewControllerContextTransitioning) throws {
                journal.add("animateTransition")
                guard let to = context.viewController(forKey: .to), let view = context.view(forKey: .to) else { return }
                view.frame = context.finalFrame(for: to)
                context.containerView.addSubview(view)
            }
        }
        final class Interaction: ViewControllerInteractiveTransitioning {
            let journal: Journal
            var context: (any ViewControllerContextTransitioning)?
            init(journal: Journal) { self.journal = journal }
            var wantsInteractiveStart: Bool { true }
            func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning) throws {
                journal.add("startInteractiveTransition(interactive: \(transitionContext.isInteractive))")
                context = transitionContext
            }
        }
        final class Delegate: ViewControllerTransitioningDelegate {
            let animator: Animator
            let interaction: Interaction
            var askedWith: (any ViewControllerAnimatedTransitioning)?
            init(journal: Journal) {
                animator = Animator(journal: journal)
                interaction = Interaction(journal: journal)
            }
            func animationController(forPresented presented: ViewController, presenting: ViewController,
                                     source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { animator }
            func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning)
                -> (any ViewControllerInteractiveTransitioning)? {
                askedWith = animator
                return interaction
            }
        }
        let journal = Journal()
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        let delegate = Delegate(journal: journal)
        b.modalPresentationStyle = .custom
        b.transitioningDelegate = delegate
        try a.present(b, animated: true)
        XCTAssertTrue(delegate.askedWith === delegate.animator, "asked with the vended animator")
        XCTAssertEqual(journal.entries, ["startInteractiveTransition(interactive: true)"])
        try later(1)
        XCTAssertEqual(journal.entries.count, 1, "the system never calls animateTransition itself")
        XCTAssertNotNil(window.transitionInProgress, "an interactive transition waits for its interaction controller")

        // The interaction controller starts the animations, then ends the transition.
        let context = try XCTUnwrap(delegate.interaction.context)
        try delegate.animator.animateTransition(using: context)
        XCTAssertEqual(journal.entries, ["startInteractiveTransition(interactive: true)", "animateTransition"])
        context.finishInteractiveTransition()
        XCTAssertFalse(context.isInteractive)
        try context.completeTransition(true)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertTrue(a.presentedViewController === b)
    }

    /// `navigationController(_:interactionControllerFor:)` receives the animation controller
    /// the delegate vended; an interactive transition needs both.
    func testNavigationInteractionControllerIsAskedWithTheVendedAnimator() async throws {
        final class Delegate: NavigationControllerDelegate {
            let slide = SlideTransition(duration: 0.4)
            let interaction = PercentDrivenInteractiveTransition()
            var askedWith: [any ViewControllerAnimatedTransitioning] = []
            func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                      from fromVC: ViewController, to toVC: ViewController)
                -> (any ViewControllerAnimatedTransitioning)? { slide }
            func navigationController(_ navigationController: NavigationController,
                                      interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
                -> (any ViewControllerInteractiveTransitioning)? {
                askedWith.append(animationController)
                return interaction
            }
        }
        let window = Window(engine: engine)
        let nav = NavigationController(rootViewController: ViewController(name: "A"))
        let delegate = Delegate()
        nav.delegate = delegate
        window.rootViewController = nav
        try nav.pushViewController(ViewController(name: "B"), animated: true)
        XCTAssertEqual(delegate.askedWith.count, 1)
        XCTAssertTrue(delegate.askedWith.first === delegate.slide)
        XCTAssertEqual(window.transitionInProgress?.isInteractive, true)
        XCTAssertEqual(delegate.interaction.duration, 0.4, "the animator's transitionDuration, captured at the start")
        delegate.interaction.update(0.5)
        try later(0.1)
        try delegate.interaction.finish()
        try later(1)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(nav.topViewController?.name, "B")
    }

    // MARK: - Segues

    /// `UIStoryboardSegue.perform()`: the default presents the destination modally (animated);
    /// a subclass animates from `source` to `destination` and installs the destination at the
    /// end, e.g. by presenting it without animation.
    func testStoryboardSegueDefaultPresentsAndASubclassInstallsTheDestinationAtTheEnd() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        let segue = StoryboardSegue(identifier: "show", source: a, destination: b)
        XCTAssertEqual(segue.identifier, "show")
        XCTAssertTrue(segue.source === a)
        XCTAssertTrue(segue.destination === b)
        try segue.perform()
        XCTAssertEqual(window.transitionInProgress?.summary, "present B over A")
        XCTAssertEqual(window.transitionInProgress?.isAnimated, true)
        try later(0.35)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertTrue(a.presentedViewController === b)
        try b.dismiss(animated: false)

        final class FadeSegue: StoryboardSegue {
            override func perform() throws {
                let source = self.source, destination = self.destination
                let view = destination.view
                view.frame = source.view.bounds
                view.alpha = 0
                source.view.addSubview(view)
                try View.animate(withDuration: 0.2, options: .curveLinear, engine: source.engine, animations: { view.alpha = 1 }) { _ in
                    view.removeFromSuperview()
                    try? source.present(destination, animated: false)
                }
            }
        }
        let c = ViewController(name: "C")
        try FadeSegue(identifier: nil, source: a, destination: c).perform()
        try later(0.1)
        XCTAssertEqual(c.view.presentation.alpha, 0.5, accuracy: 1e-9, "the segue's own animation")
        XCTAssertNil(a.presentedViewController)
        try later(0.1)
        XCTAssertTrue(a.presentedViewController === c, "installed at the end")
        XCTAssertTrue(c.view.window === window)
        try c.dismiss(animated: false)
    }

    // MARK: - Appearance transitions

    /// `beginAppearanceTransition(true)` ⇒ `viewWillAppear`, `(false)` ⇒ `viewWillDisappear`,
    /// `endAppearanceTransition()` ⇒ the matching "did"; to cancel, begin again with the
    /// opposite flag, then end. An end without a begin calls nothing (UIKit logs "Unbalanced
    /// calls to begin/end appearance transitions"; Kinetic documents that it ignores them).
    func testBeginAndEndAppearanceTransitionAndCancellingWithTheOppositeFlag() async throws {
        let journal = Journal()
        let c = JournaledViewController("C", journal: journal)
        c.beginAppearanceTransition(true, animated: true)
        XCTAssertEqual(journal.entries, ["C.viewWillAppear"])
        c.endAppearanceTransition()
        XCTAssertEqual(journal.entries, ["C.viewWillAppear", "C.viewDidAppear"])

        journal.clear()
        c.beginAppearanceTransition(false, animated: false)
        c.endAppearanceTransition()
        XCTAssertEqual(journal.entries, ["C.viewWillDisappear", "C.viewDidDisappear"])

        journal.clear()
        c.beginAppearanceTransition(true, animated: true)
        c.beginAppearanceTransition(false, animated: true)  // cancels the appearance
        c.endAppearanceTransition()
        XCTAssertEqual(journal.entries, ["C.viewWillAppear", "C.viewWillDisappear", "C.viewDidDisappear"])

        journal.clear()
        c.endAppearanceTransition()
        XCTAssertEqual(journal.entries, [], "unbalanced: nothing is called")
    }
}
