import Kinetic
import KineticUI
import XCTest

/// The rest of the call × state table (isReversed, addAnimations, addCompletion,
/// continueAnimation, configuration flags, release), calls from completion handlers, and
/// non-interruptible animators. Fixture: ``LegalityTestCase``.
@MainActor
final class LegalityTableMoreTests: LegalityTestCase {
    // MARK: isReversed

    func testSetIsReversedInEveryState() async throws {
        // inactive → used at the next start. Scrubbed to 0.5 first (activates, paused),
        // then started: it goes back to the start.
        var completions: [ViewAnimatingPosition] = []
        var (a, v) = try make(.inactive) { completions.append($0) }
        a.isReversed = true
        XCTAssertEqual(a.state, .inactive)
        XCTAssertTrue(a.isReversed)
        a.fractionComplete = 0.5
        try a.startAnimation()
        let t0 = engine.clock.now
        try advance(to: t0 + 0.25)
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)
        try advance(to: t0 + 0.5)
        XCTAssertEqual(completions, [.start])
        XCTAssertEqual(v.model.alpha, 1)

        // running → reverses at once (both directions, the documented decision).
        (a, v) = try make(.running)
        let t1 = engine.clock.now
        a.isReversed = true
        XCTAssertTrue(a.isRunning)
        try advance(to: t1 + 0.125)
        XCTAssertEqual(a.fractionComplete, 0.125, accuracy: 1e-12)
        a.isReversed = false
        try advance(to: t1 + 0.25)
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)

        // paused → direction for the next start: nothing moves until then.
        (a, v) = try make(.paused)
        let before = snapshot(a, v)
        a.isReversed = true
        try frames(10)
        var after = snapshot(a, v)
        after.isReversed = false
        XCTAssertEqual(after, before)
        let t2 = engine.clock.now
        try a.startAnimation()
        try advance(to: t2 + 0.125)
        XCTAssertEqual(a.fractionComplete, 0.125, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.alpha, 0.875, accuracy: 1e-12)

        // stopped → ignored: values stay, finishing still works from the stopped values.
        (a, v) = try make(.stopped)
        let stopped = snapshot(a, v)
        a.isReversed = true
        try frames(10)
        XCTAssertEqual(a.state, .stopped)
        XCTAssertEqual(v.model, stopped.model)
        XCTAssertEqual(v.presentation, stopped.presentation)
        try a.finishAnimation(at: .end)
        XCTAssertEqual(v.model.alpha, 0)
        XCTAssertEqual(v.model.center.x, 250)
        XCTAssertEqual(reported, [])
    }

    /// A fresh animator reversed before it starts has nothing to run back through
    /// (fraction 0): it completes at `.start` at the next tick, the model back at its start.
    func testReversedStartFromZeroCompletesAtStart() async throws {
        var completions: [ViewAnimatingPosition] = []
        let (a, v) = try make(.inactive) { completions.append($0) }
        a.isReversed = true
        try a.startAnimation()
        try frames()
        XCTAssertEqual(completions, [.start])
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(v.model.alpha, 1)
        XCTAssertEqual(v.presentation.alpha, 1)
    }

    // MARK: addAnimations

    func testAddAnimationsInEveryState() async throws {
        for delayFactor in [0.0, 0.5] {
            // inactive → runs over [delayFactor, 1] of the run when started.
            var (a, v) = try make(.inactive)
            let w = box("w")
            try a.addAnimations({ w.alpha = 0 }, delayFactor: delayFactor)
            XCTAssertEqual(w.alpha, 1, "queued, not run")
            XCTAssertEqual(a.state, .inactive)
            try a.startAnimation()
            let t0 = engine.clock.now
            try advance(to: t0 + 0.75)
            XCTAssertEqual(w.presentation.alpha, delayFactor == 0 ? 0.25 : 0.5, accuracy: 1e-12, "delayFactor \(delayFactor)")

            // running → starts at once, over the remaining time (minus the delay).
            (a, v) = try make(.running)
            let t1 = engine.clock.now
            let x = box("x")
            try a.addAnimations({ x.alpha = 0 }, delayFactor: delayFactor)
            XCTAssertEqual(x.model.alpha, 0, "run now")
            XCTAssertEqual(x.presentation.alpha, 1)
            try advance(to: t1 + 0.5)
            // Window [0.25 + d, 1]: d = 0 → 2/3 through; d = 0.5 → 0 through.
            XCTAssertEqual(x.presentation.alpha, delayFactor == 0 ? 1.0 / 3 : 1, accuracy: 1e-12)
            try advance(to: t1 + 0.75)
            XCTAssertEqual(x.presentation.alpha, 0)
            XCTAssertEqual(a.state, .inactive)

            // paused → queued into the remaining time: nothing moves until resumed.
            (a, v) = try make(.paused)
            let y = box("y")
            try a.addAnimations({ y.alpha = 0 }, delayFactor: delayFactor)
            try frames(30)
            XCTAssertEqual(y.presentation.alpha, 1)
            XCTAssertEqual(y.model.alpha, 0)
            let t2 = engine.clock.now
            try a.startAnimation()
            try advance(to: t2 + 0.5)
            XCTAssertEqual(y.presentation.alpha, delayFactor == 0 ? 1.0 / 3 : 1, accuracy: 1e-12)

            // stopped → programmer error; the block is not run.
            (a, v) = try make(.stopped)
            var ran = false
            try assertIllegal(a, v, .addAnimationsWhileStopped, message: "addAnimations") {
                try a.addAnimations({ ran = true; v.alpha = 0.3 }, delayFactor: delayFactor)
            }
            try assertIllegal(a, v, .addAnimationsWhileStopped, message: "addAnimations") {
                try a.addAnimations { ran = true; v.alpha = 0.3 }
            }
            XCTAssertFalse(ran)
            _ = v
        }
        // Bad delay factors.
        let (a, v) = try make(.running)
        for bad in [-0.1, 1.1, .nan] {
            try assertIllegal(a, v, .invalidParameter(.outOfRange(parameter: "delayFactor", value: bad, expected: "[0, 1]")),
                              message: "delayFactor") { try a.addAnimations({ v.alpha = 0.5 }, delayFactor: bad) }
        }
    }

    // MARK: addCompletion

    func testAddCompletionInEveryState() async throws {
        for situation in Situation.allCases {
            var got: [ViewAnimatingPosition] = []
            let (a, _) = try make(situation)
            let before = (a.state, a.isRunning)
            a.addCompletion { got.append($0) }
            XCTAssertEqual(a.state, before.0, "\(situation)")
            XCTAssertEqual(a.isRunning, before.1, "\(situation)")
            switch situation {
            case .inactive: try a.startAnimation()
            case .paused: try a.startAnimation()
            case .running: break
            case .stopped: try a.finishAnimation(at: .current)
            }
            try advance(to: engine.clock.now + 1)
            XCTAssertEqual(got, [situation == .stopped ? .current : .end], "\(situation)")
        }
    }

    // MARK: continueAnimation

    func testContinueAnimationInEveryState() async throws {
        let spring = try SpringTimingParameters(dampingRatio: 1)
        for params in [nil, spring] as [(any TimingCurveProvider)?] {
            var (a, v) = try make(.inactive)
            try assertIllegal(a, v, .continueRequiresPaused(state: .inactive, isRunning: false),
                              message: "continueAnimationWithTimingParameters:") {
                try a.continueAnimation(withTimingParameters: params, durationFactor: 1)
            }
            XCTAssertEqual(v.model.alpha, 1, "pending blocks were not run")

            (a, v) = try make(.running)
            try assertIllegal(a, v, .continueRequiresPaused(state: .active, isRunning: true),
                              message: "continueAnimationWithTimingParameters:") {
                try a.continueAnimation(withTimingParameters: params, durationFactor: 1)
            }

            (a, v) = try make(.stopped)
            try assertIllegal(a, v, .continueRequiresPaused(state: .stopped, isRunning: false),
                              message: "continueAnimationWithTimingParameters:") {
                try a.continueAnimation(withTimingParameters: params, durationFactor: 1)
            }

            // paused → runs the rest in durationFactor × duration.
            var completions: [ViewAnimatingPosition] = []
            (a, v) = try make(.paused) { completions.append($0) }
            let t0 = engine.clock.now
            try a.continueAnimation(withTimingParameters: params, durationFactor: 0.5)
            XCTAssertEqual(a.state, .active)
            XCTAssertTrue(a.isRunning)
            XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12, "no jump")
            try advance(to: t0 + 0.49)
            XCTAssertEqual(completions, [])
            try advance(to: t0 + 0.5)
            XCTAssertEqual(completions, [.end])
            XCTAssertEqual(v.presentation.alpha, 0)
        }
        // Bad factors.
        let (a, v) = try make(.paused)
        for bad in [-1.0, .nan, .infinity] {
            XCTAssertThrowsError(try a.continueAnimation(withTimingParameters: nil, durationFactor: bad)) {
                XCTAssertEqual(($0 as? AnimatorError).flatMap { if case .invalidParameter(let p) = $0 { p.parameter } else { nil } },
                               "durationFactor")
            }
        }
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)
    }

    // MARK: isInterruptible / isUserInteractionEnabled

    func testConfigurationFlagsOnlyChangeWhileInactive() async throws {
        for situation in Situation.allCases {
            let (a, v) = try make(situation)
            let before = snapshot(a, v)
            reported = []
            a.isInterruptible = false
            a.isUserInteractionEnabled = false
            if situation == .inactive {
                XCTAssertFalse(a.isInterruptible)
                XCTAssertFalse(a.isUserInteractionEnabled)
                XCTAssertEqual(reported, [])
                XCTAssertNoThrow(try a.setInterruptible(true))
                XCTAssertNoThrow(try a.setUserInteractionEnabled(true))
                XCTAssertTrue(a.isInterruptible)
                XCTAssertTrue(a.isUserInteractionEnabled)
            } else {
                XCTAssertTrue(a.isInterruptible, "\(situation)")
                XCTAssertTrue(a.isUserInteractionEnabled, "\(situation)")
                XCTAssertEqual(reported, [.illegalCall(.setWhileActive(property: "isInterruptible")),
                                          .illegalCall(.setWhileActive(property: "isUserInteractionEnabled"))],
                               "\(situation)")
                XCTAssertTrue(reported[0].description.contains("isInterruptible may only be set on an inactive animator"))
                try assertIllegal(a, v, .setWhileActive(property: "isInterruptible"), message: "isInterruptible") {
                    try a.setInterruptible(false)
                }
                try assertIllegal(a, v, .setWhileActive(property: "isUserInteractionEnabled"),
                                  message: "isUserInteractionEnabled") { try a.setUserInteractionEnabled(false) }
            }
            XCTAssertEqual(a.state, before.state)
        }
    }

    // MARK: Release

    func testReleaseInEveryState() async throws {
        for situation in Situation.allCases {
            reported = []
            let v = box()
            do {
                let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
                if situation != .inactive {
                    try a.startAnimation()
                    try advance(to: engine.clock.now + 0.25)
                }
                if situation == .paused { try a.pauseAnimation() }
                if situation == .stopped { try a.stopAnimation(false) }
            }
            switch situation {
            case .inactive:
                XCTAssertEqual(reported, [])
                XCTAssertEqual(v.model.alpha, 1, "an inactive animator's blocks never ran")
            case .running:
                XCTAssertEqual(reported, [], "a running animator may be released; it keeps going")
                try advance(to: engine.clock.now + 0.25)
                XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
                try advance(to: engine.clock.now + 1)
                XCTAssertEqual(v.presentation.alpha, 0)
            case .paused, .stopped:
                XCTAssertEqual(reported, [.illegalCall(.releasedWhilePausedOrStopped)], "\(situation)")
                XCTAssertEqual(reported.first?.description,
                               "It is an error to release a paused or stopped property animator. Property animators must "
                                   + "either finish animating or be explicitly stopped and finished before they can be released.")
                XCTAssertEqual(v.model.alpha, 0.75, accuracy: 1e-12, "left where it was")
                XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)
                try frames(30)
                XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)
            }
            XCTAssertEqual(engine.activeAnimatorCount, 0, "\(situation)")
        }
    }

    // MARK: Calls from completion handlers

    func testCallsFromACompletionHandlerThrowCallDuringCompletion() async throws {
        var errors: [AnimatorError] = []
        var seen: (state: ViewAnimatingState, running: Bool, completing: Bool)?
        let v = box()
        let a = try PropertyAnimator(duration: 0.5, curve: .linear, engine: engine) { v.alpha = 0 }
        a.addCompletion { [unowned a] _ in
            seen = (a.state, a.isRunning, a.isCompleting)
            let calls: [() throws -> Void] = [
                { try a.startAnimation() },
                { try a.startAnimation(afterDelay: 0.1) },
                { try a.pauseAnimation() },
                { try a.stopAnimation(true) },
                { try a.stopAnimation(false) },
                { try a.finishAnimation(at: .end) },
                { try a.addAnimations { v.alpha = 1 } },
                { try a.addAnimations({ v.alpha = 1 }, delayFactor: 0.5) },
                { try a.continueAnimation(withTimingParameters: nil, durationFactor: 0) },
                { try a.setFractionComplete(0.5) },
            ]
            for call in calls {
                do { try call() } catch let error as AnimatorError { errors.append(error) } catch {}
            }
        }
        try a.startAnimation()
        try advance(to: 0.5)
        XCTAssertEqual(seen?.state, .active)
        XCTAssertEqual(seen?.running, true)
        XCTAssertEqual(seen?.completing, true)
        XCTAssertEqual(errors.count, 10)
        let names = errors.compactMap { error -> String? in
            if case .callDuringCompletion(let call) = error { return call }
            return nil
        }
        XCTAssertEqual(names, ["startAnimation", "startAnimation(afterDelay:)", "pauseAnimation", "stopAnimation",
                               "stopAnimation", "finishAnimation(at:)", "addAnimations", "addAnimations",
                               "continueAnimation", "fractionComplete"])
        XCTAssertTrue(errors[5].description.contains("not allowed while the animator is calling its completion handlers"))
        // Nothing the handler tried took effect.
        XCTAssertEqual(a.state, .inactive)
        XCTAssertFalse(a.isRunning)
        XCTAssertFalse(a.isCompleting)
        XCTAssertEqual(v.model.alpha, 0)
        try frames(60)
        XCTAssertEqual(v.presentation.alpha, 0)
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    /// The same rule applies when the handlers run from `finishAnimation(at:)`, and the
    /// animator is usable again once they return.
    func testFinishFromInsideFinishCompletionThrows() async throws {
        var inner: AnimatorError?
        let (a, v) = try make(.stopped)
        a.addCompletion { [unowned a] _ in
            do { try a.finishAnimation(at: .start) } catch let error as AnimatorError { inner = error } catch {}
            a.fractionComplete = 0.5 // reported, ignored
        }
        try a.finishAnimation(at: .end)
        XCTAssertEqual(inner, .callDuringCompletion(call: "finishAnimation(at:)"))
        XCTAssertEqual(reported, [.illegalCall(.callDuringCompletion(call: "fractionComplete"))])
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(v.model.alpha, 0)
        try a.addAnimations { v.alpha = 1 }
        try a.startAnimation()
        XCTAssertTrue(a.isRunning)
        try advance(to: engine.clock.now + 1)
        XCTAssertEqual(v.presentation.alpha, 1)
    }

    // MARK: isInterruptible = false

    func testNonInterruptibleAnimatorRejectsInterruptionsWhileRunning() async throws {
        let v = box()
        var completions: [ViewAnimatingPosition] = []
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        live.append(a)
        a.isInterruptible = false
        a.addCompletion { completions.append($0) }
        try a.startAnimation()
        try advance(to: 0.25)
        try assertIllegal(a, v, .notInterruptible(call: "pauseAnimation"), message: "not interruptible") {
            try a.pauseAnimation()
        }
        for flag in [true, false] {
            try assertIllegal(a, v, .notInterruptible(call: "stopAnimation"), message: "not interruptible") {
                try a.stopAnimation(flag)
            }
        }
        try assertIllegal(a, v, .continueRequiresPaused(state: .active, isRunning: true), message: "must be paused") {
            try a.continueAnimation(withTimingParameters: nil, durationFactor: 1)
        }
        // Reversing while running: reported, ignored.
        a.isReversed = true
        XCTAssertFalse(a.isReversed)
        XCTAssertEqual(reported, [.illegalCall(.notInterruptible(call: "isReversed"))])
        // Scrubbing while running is ignored anyway.
        a.fractionComplete = 0.9
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12, "runs on, uninterrupted")
        try advance(to: 1)
        XCTAssertEqual(completions, [.end])
        XCTAssertEqual(v.model.alpha, 0)
    }

    /// A non-interruptible animator that was paused before it ever ran (pausing an inactive
    /// animator is not an interruption) still cannot be continued.
    func testNonInterruptiblePausedAnimatorCannotBeContinued() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        live.append(a)
        try a.setInterruptible(false)
        try a.pauseAnimation()
        XCTAssertEqual(a.state, .active)
        try assertIllegal(a, v, .notInterruptible(call: "continueAnimation"), message: "continueAnimation") {
            try a.continueAnimation(withTimingParameters: nil, durationFactor: 0.5)
        }
        // Paused (not running): isReversed is a plain direction change, not an interruption.
        a.isReversed = true
        XCTAssertTrue(a.isReversed)
        XCTAssertEqual(reported, [])
        a.isReversed = false
        // Starting it is allowed, and it then runs to the end.
        try a.startAnimation()
        try advance(to: engine.clock.now + 1.5)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(v.presentation.alpha, 0)
    }
}
