import Kinetic
import KineticUI
import XCTest

/// `View.animate`, springs and `runningPropertyAnimator` (the block-based API; keyframes are
/// in KeyframeAnimationTests.swift).
@MainActor
final class BlockAnimationTests: EngineTestCase {
    // MARK: Curves and completion

    func testCurveOptionsSelectUIKitCurvesAndCompletionIsTrueAtTheEnd() async throws {
        let cases: [(AnimationOptions, CubicBezier)] = [
            ([], .easeInOut), (.curveEaseInOut, .easeInOut), (.curveEaseIn, .easeIn),
            (.curveEaseOut, .easeOut), (.curveLinear, .linear),
        ]
        for (options, curve) in cases {
            engine = AnimationEngine()
            let v = box()
            var finished: [Bool] = []
            try View.animate(withDuration: 0.5, options: options, engine: engine, animations: {
                v.center = Point(x: 250, y: 150)
            }, completion: { finished.append($0) })
            XCTAssertEqual(v.center, Point(x: 250, y: 150), "the model changes at once")
            for k in 1 ..< 30 {
                try advance(to: Double(k) / 60)
                let p = curve.value(at: Double(k) / 60 / 0.5)
                XCTAssertEqual(v.presentation.center.x, 50 + 200 * p, accuracy: 1e-9, "\(options) frame \(k)")
                XCTAssertEqual(v.presentation.center.y, 50 + 100 * p, accuracy: 1e-9, "\(options) frame \(k)")
            }
            XCTAssertEqual(finished, [])
            try advance(to: 0.5)
            XCTAssertEqual(finished, [true], "\(options)")
            XCTAssertEqual(v.presentation, v.model)
            XCTAssertEqual(engine.activeAnimatorCount, 0)
        }
    }

    /// A block that writes many properties, some several times: each (view, property) is
    /// captured once, from the model value before its first write, on either side of the
    /// capture's switch from scanning its changes to indexing them (past 16 changes).
    func testABlockOfManyWritesCapturesEachPropertyOnceFromItsFirstValue() async throws {
        for count in [3, 8, 9, 30] {
            engine = AnimationEngine()
            let views = (0 ..< count).map { _ in box() }
            try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
                for (k, v) in views.enumerated() {
                    v.alpha = 0.2
                    v.center = Point(x: 10 * Double(k), y: 7)
                    v.alpha = 0.5  // a second write: still animates from 1
                }
                for v in views { v.center = Point(x: v.center.x, y: 9) }  // after the others
            })
            try advance(to: 0.25)
            for (k, v) in views.enumerated() {
                XCTAssertEqual(v.presentation.alpha, 1 + (0.5 - 1) * 0.25, accuracy: 1e-12, "\(count) views, view \(k)")
                XCTAssertEqual(v.presentation.center.x, 50 + (10 * Double(k) - 50) * 0.25, accuracy: 1e-9)
                XCTAssertEqual(v.presentation.center.y, 50 + (9 - 50) * 0.25, accuracy: 1e-9)
            }
            XCTAssertEqual(engine.activeAnimatorCount, 1)
            try advance(to: 1)
            XCTAssertEqual(views.map(\.presentation.alpha), views.map { _ in 0.5 })
        }
    }

    func testDelayHoldsTheStartValues() async throws {
        let v = box()
        var finished: Bool?
        try View.animate(withDuration: 1, delay: 0.5, options: .curveLinear, engine: engine, animations: { v.alpha = 0 },
                         completion: { finished = $0 })
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 1)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
        try advance(to: 1.49)
        XCTAssertNil(finished)
        try advance(to: 1.5)
        XCTAssertEqual(finished, true)
    }

    func testBadDurationOrDelayThrowsAndAnimatesNothing() async throws {
        let v = box()
        for (duration, delay, name) in [(-1.0, 0.0, "duration"), (.nan, 0, "duration"), (1, -0.5, "delay"), (1, .infinity, "delay")] {
            XCTAssertThrowsError(try View.animate(withDuration: duration, delay: delay, engine: engine, animations: {
                v.alpha = 0.5
            })) { error in
                guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
                XCTAssertEqual(p.parameter, name)
            }
        }
        XCTAssertEqual(engine.activeAnimatorCount, 0)
        XCTAssertEqual(engine.animatedLaneCount, 0)
    }

    /// UIKit calls the completion of an empty animation at once; Kinetic at the next tick,
    /// with `true`.
    func testBlockThatChangesNothingCompletesAtTheNextTickWithTrue() async throws {
        let v = box()
        var finished: [Bool] = []
        try View.animate(withDuration: 2, engine: engine, animations: { v.alpha = 1 }, completion: { finished.append($0) })
        try View.animate(withDuration: 2, delay: 1, engine: engine, animations: {}, completion: { finished.append($0) })
        XCTAssertEqual(finished, [], "not called synchronously")
        try step()
        XCTAssertEqual(finished, [true, true])
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    /// Nothing can stop a `View.animate` animation (the animator is not handed out): one that
    /// is superseded — additively, or with `.beginFromCurrentState` — still completes with
    /// `true` at its own end (UIKit also reports `true` for a superseded animation of the
    /// same value).
    func testSupersededBlockAnimationStillCompletesWithTrueAtItsEnd() async throws {
        for options in [AnimationOptions.curveLinear, [.curveLinear, .beginFromCurrentState]] {
            engine = AnimationEngine()
            let v = box()
            var log: [String] = []
            try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
                v.center = Point(x: 250, y: 50)
            }, completion: { log.append("first \($0)") })
            try advance(to: 0.5)
            try View.animate(withDuration: 1, options: options, engine: engine, animations: {
                v.center = Point(x: 50, y: 50)
            }, completion: { log.append("second \($0)") })
            try advance(to: 0.99)
            XCTAssertEqual(log, [])
            try advance(to: 1)
            XCTAssertEqual(log, ["first true"])
            try advance(to: 1.5)
            XCTAssertEqual(log, ["first true", "second true"])
            XCTAssertEqual(v.presentation.center.x, 50)
        }
    }

    // MARK: Options

    func testRepeatRunsForeverWithoutCompletion() async throws {
        let v = box()
        var finished: Bool?
        try View.animate(withDuration: 1, options: [.curveLinear, .repeat], engine: engine, animations: { v.alpha = 0 },
                         completion: { finished = $0 })
        try advance(to: 0.25)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)
        try advance(to: 1.25)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12, "second cycle starts over")
        try advance(to: 100.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-9, "a long jump lands in the right cycle")
        XCTAssertNil(finished)
        XCTAssertEqual(v.model.alpha, 0)
        XCTAssertEqual(engine.activeAnimatorCount, 1)
    }

    func testRepeatWithAutoreverseGoesBackAndForth() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: [.curveLinear, .repeat, .autoreverse], engine: engine,
                         animations: { v.alpha = 0 })
        for (t, alpha) in [(0.25, 0.75), (1.25, 0.25), (1.75, 0.75), (2.25, 0.75), (3.5, 0.5), (4, 1)] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.alpha, alpha, accuracy: 1e-9, "t = \(t)")
        }
    }

    /// Without `.repeat`, `.autoreverse` runs forward, back, then snaps to the model values
    /// and completes with true.
    func testAutoreverseWithoutRepeatEndsAtTheModelValuesAndCompletes() async throws {
        let v = box()
        var finished: Bool?
        try View.animate(withDuration: 1, options: [.curveEaseIn, .autoreverse], engine: engine, animations: { v.alpha = 0 },
                         completion: { finished = $0 })
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 1 - CubicBezier.easeIn.value(at: 0.5), accuracy: 1e-12)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.alpha, 0, accuracy: 1e-12)
        try advance(to: 1.75)
        XCTAssertEqual(v.presentation.alpha, 1 - CubicBezier.easeIn.value(at: 0.25), accuracy: 1e-12, "retraces the curve")
        XCTAssertNil(finished)
        try advance(to: 2)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(v.presentation.alpha, 0, "snaps to the model value")
        XCTAssertEqual(v.model.alpha, 0)
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    func testBeginFromCurrentStateStartsFromThePresentationWithoutAJump() async throws {
        // Additive (default): the second animation adds to the first.
        var v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.center.x = 250 })
        try advance(to: 0.5)
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.center.x = 50 })
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-12)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-12, "first at its end (+200), second halfway (−100)")

        // .beginFromCurrentState: from the value on screen (150) straight to the model (50).
        engine = AnimationEngine()
        v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.center.x = 250 })
        try advance(to: 0.5)
        try View.animate(withDuration: 1, options: [.curveLinear, .beginFromCurrentState], engine: engine,
                         animations: { v.center.x = 50 })
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-12, "no jump")
        var previous = 150.0
        for k in 1 ... 60 {
            try advance(to: 0.5 + Double(k) / 60)
            let x = v.presentation.center.x
            XCTAssertEqual(x, 150 - 100 * Double(k) / 60, accuracy: 1e-9, "frame \(k)")
            XCTAssertLessThanOrEqual(x, previous)
            previous = x
        }
        XCTAssertEqual(v.presentation.center.x, 50)
        XCTAssertEqual(v.model.center.x, 50)
    }

    // MARK: Nesting

    func testNestedAnimateInheritsDurationAndCurveUnlessOverridden() async throws {
        // (options of the inner call, its progress at t = 0.5 and t = 2 s)
        let cases: [(AnimationOptions, Double, Double)] = [
            ([.curveEaseIn], 0.5, 1),
            ([.curveEaseIn, .overrideInheritedDuration], 0.5 / 4, 2.0 / 4),
            ([.curveEaseIn, .overrideInheritedCurve], CubicBezier.easeIn.value(at: 0.5), 1),
            ([.curveEaseIn, .overrideInheritedDuration, .overrideInheritedCurve],
             CubicBezier.easeIn.value(at: 0.5 / 4), CubicBezier.easeIn.value(at: 0.5)),
        ]
        for (options, atHalf, atTwo) in cases {
            engine = AnimationEngine()
            let outer = box("outer"), inner = box("inner")
            var done: [String] = []
            let e = engine!
            try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
                outer.alpha = 0
                do {
                    try View.animate(withDuration: 4, options: options, engine: e, animations: {
                        inner.alpha = 0
                    }, completion: { _ in done.append("inner") })
                } catch { XCTFail("\(error)") }
            }, completion: { _ in done.append("outer") })
            try advance(to: 0.5)
            XCTAssertEqual(outer.presentation.alpha, 0.5, accuracy: 1e-12)
            XCTAssertEqual(inner.presentation.alpha, 1 - atHalf, accuracy: 1e-12, "\(options)")
            try advance(to: 2)
            XCTAssertEqual(inner.presentation.alpha, 1 - atTwo, accuracy: 1e-12, "\(options)")
            try advance(to: 4)
            XCTAssertEqual(Set(done), ["inner", "outer"])
        }
    }

    /// A nested call after the outer `animate` returned does not inherit anything.
    func testContextDoesNotLeakOutOfTheBlock() async throws {
        let a = box("a"), b = box("b")
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { a.alpha = 0 })
        try View.animate(withDuration: 2, options: .curveLinear, engine: engine, animations: { b.alpha = 0 })
        try advance(to: 1)
        XCTAssertEqual(b.presentation.alpha, 0.5, accuracy: 1e-12)
    }

    // MARK: Springs

    /// `usingSpringWithDamping` is a damping-ratio spring that settles at `duration`; its
    /// velocity is in units of the move per second, on both axes. The curve options are
    /// ignored.
    func testSpringAnimationFollowsADampingRatioSpringScaledToTheDuration() async throws {
        let v = box()
        var finished: Bool?
        try View.animate(withDuration: 0.8, usingSpringWithDamping: 0.4, initialSpringVelocity: 2,
                         options: .curveEaseIn, engine: engine, animations: {
                             v.center = Point(x: 250, y: 250)
                         }, completion: { finished = $0 })
        let reference = try Spring(settlingDuration: 0.8, dampingRatio: 0.4)
        var maxX = -Double.infinity
        for k in 1 ... 47 {
            let t = Double(k) / 60
            try advance(to: t)
            let p = reference.value(at: t, initialVelocity: 2)
            XCTAssertEqual(v.presentation.center.x, 50 + 200 * p, accuracy: 1e-9, "frame \(k)")
            XCTAssertEqual(v.presentation.center.y, 50 + 200 * p, accuracy: 1e-9, "frame \(k)")
            maxX = max(maxX, v.presentation.center.x)
        }
        XCTAssertGreaterThan(maxX, 250, "an underdamped spring overshoots")
        XCTAssertNil(finished)
        try advance(to: 0.8)
        XCTAssertEqual(finished, true, "completes at the duration")
        XCTAssertEqual(v.presentation.center, Point(x: 250, y: 250))
    }

    func testSpringAnimationRejectsBadDamping() async throws {
        let v = box()
        for bad in [0.0, -1, .nan] {
            XCTAssertThrowsError(try View.animate(withDuration: 1, usingSpringWithDamping: bad, initialSpringVelocity: 0,
                                                  engine: engine, animations: { v.alpha = 0 })) { error in
                guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
                XCTAssertEqual(p.parameter, "dampingRatio")
            }
        }
        XCTAssertEqual(v.alpha, 1)
    }

    // MARK: runningPropertyAnimator

    func testRunningPropertyAnimatorIsReturnedRunningWithTheOptionsCurve() async throws {
        let v = box()
        var positions: [ViewAnimatingPosition] = []
        let a = try PropertyAnimator.runningPropertyAnimator(withDuration: 1, delay: 0.25, options: .curveEaseOut,
                                                             engine: engine, animations: { v.alpha = 0 },
                                                             completion: { positions.append($0) })
        XCTAssertEqual(a.state, .active)
        XCTAssertTrue(a.isRunning)
        XCTAssertEqual(a.delay, 0.25)
        XCTAssertEqual(a.duration, 1)
        XCTAssertTrue(a.isInterruptible)
        XCTAssertEqual(a.timingParameters.cubicTimingParameters?.animationCurve, .easeOut)
        try advance(to: 0.25)
        XCTAssertEqual(v.presentation.alpha, 1)
        try advance(to: 0.75)
        XCTAssertEqual(v.presentation.alpha, 1 - CubicBezier.easeOut.value(at: 0.5), accuracy: 1e-12)
        try advance(to: 1.25)
        XCTAssertEqual(positions, [.end])
        XCTAssertEqual(a.state, .inactive)
    }

    /// Apple's documentation of the call: "transition-related options and options related to
    /// the animation direction are ignored". With `.repeat` and `.autoreverse` it runs once,
    /// forward, and completes at `.end` at its duration.
    func testRunningPropertyAnimatorIgnoresTheDirectionOptions() async throws {
        for options: AnimationOptions in [.autoreverse, .repeat, [.repeat, .autoreverse, .curveLinear]] {
            engine = AnimationEngine()
            let v = box()
            var positions: [ViewAnimatingPosition] = []
            let a = try PropertyAnimator.runningPropertyAnimator(withDuration: 1, delay: 0, options: options, engine: engine,
                                                                 animations: { v.alpha = 0 },
                                                                 completion: { positions.append($0) })
            try advance(to: 0.75)
            XCTAssertLessThan(v.presentation.alpha, 0.5, "\(options): still going forward at 0.75")
            try advance(to: 1.25)
            XCTAssertEqual(positions, [.end], "\(options)")
            XCTAssertEqual(a.state, .inactive)
            XCTAssertEqual(v.presentation.alpha, 0)
            XCTAssertEqual(v.model.alpha, 0)
        }
    }

    func testRunningPropertyAnimatorDefaultsToEaseInOutAndCanBeInterrupted() async throws {
        let v = box()
        var positions: [ViewAnimatingPosition] = []
        let a = try PropertyAnimator.runningPropertyAnimator(withDuration: 1, delay: 0, options: [], engine: engine,
                                                             animations: { v.alpha = 0 }, completion: { positions.append($0) })
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 1 - CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12)
        try a.pauseAnimation()
        a.fractionComplete = 0.2
        XCTAssertEqual(v.presentation.alpha, 0.8, accuracy: 1e-12)
        try a.stopAnimation(false)
        try a.finishAnimation(at: .current)
        XCTAssertEqual(positions, [.current])
        XCTAssertEqual(v.model.alpha, 0.8, accuracy: 1e-12)
    }

    /// The header: called within another animation's block, it inherits that animation's
    /// duration and characteristics unless override options are given, and it is then not
    /// interruptible.
    func testNestedRunningPropertyAnimatorInheritsAndIsNotInterruptible() async throws {
        let outer = box("outer"), inner = box("inner")
        var nested: [PropertyAnimator] = []
        let e = engine!
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            outer.alpha = 0
            if let a = try? PropertyAnimator.runningPropertyAnimator(withDuration: 4, delay: 0, options: .curveEaseIn,
                                                                     engine: e, animations: { inner.alpha = 0 }) {
                nested.append(a)
            }
            if let b = try? PropertyAnimator.runningPropertyAnimator(
                withDuration: 4, delay: 0, options: [.curveEaseIn, .overrideInheritedDuration, .overrideInheritedCurve],
                engine: e, animations: { inner.center.x = 450 }) {
                nested.append(b)
            }
        })
        XCTAssertEqual(nested.count, 2)
        XCTAssertEqual(nested.first?.duration, 1, "inherits the outer duration")
        XCTAssertEqual(nested.last?.duration, 4, "unless overridden")
        XCTAssertEqual(nested.first?.isInterruptible, false)
        try advance(to: 0.5)
        XCTAssertEqual(inner.presentation.alpha, 0.5, accuracy: 1e-12, "outer's duration and curve")
        XCTAssertEqual(inner.presentation.center.x, 50 + 400 * CubicBezier.easeIn.value(at: 0.125), accuracy: 1e-9)
        try advance(to: 4)
        XCTAssertEqual(nested.map(\.state), [.inactive, .inactive])
    }
}
