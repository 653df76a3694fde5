import Kinetic
import KineticUI
import XCTest

/// Re-grabbing an interactive transition while it finishes or cancels (percent-driven, with
/// scene 5's interruptible spring animator): callback order, the context's flags at each
/// step, view values at given ticks, and exactly one completion.
@MainActor
final class InterruptibleTransitionTests: EngineTestCase {
    var window: Window!
    var a: ViewController!
    var b: ViewController!
    var delegate: ConfigurableDelegate!
    var slide: InterruptibleSlideDown!
    var interaction: PercentDrivenInteractiveTransition!
    /// Interaction changes as "isInteractive/transitionWasCancelled@trace count".
    var changes: [String] = []

    /// Lets go of the fixture (XCTest keeps async test cases alive: see EngineTestCase).
    override func tearDown() async throws {
        window = nil
        a = nil
        b = nil
        delegate = nil
        slide = nil
        interaction = nil
        try await super.tearDown()
    }

    override func setUp() async throws {
        try await super.setUp()
        a = ViewController(name: "A")
        b = ViewController(name: "B")
        (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
        slide = InterruptibleSlideDown(timing: try SpringTimingParameters(dampingRatio: 1))
        delegate.dismissAnimator = slide
        changes = []
    }

    /// Starts the interactive dismissal and watches its interaction changes.
    func startDismissal() throws -> TransitionContext {
        try b.dismiss(animated: true)
        let context = try XCTUnwrap(window.transitionInProgress)
        let coordinator = try XCTUnwrap(b.transitionCoordinator)
        XCTAssertTrue(coordinator.isInterruptible)
        XCTAssertEqual(coordinator.initiallyInteractive, interaction.wantsInteractiveStart)
        // The hand-off to the non-interactive phase reads the interaction's settings.
        XCTAssertEqual(coordinator.completionVelocity, interaction.completionSpeed)
        XCTAssertEqual(coordinator.completionCurve, interaction.completionCurve)
        coordinator.notifyWhenInteractionChanges { [unowned self] context in
            changes.append("\(context.isInteractive)/\(context.transitionWasCancelled)@\(window.trace.count)")
        }
        return context
    }

    var y: Double { b.view.presentation.frame.origin.y }

    func assertFlags(_ context: TransitionContext, interactive: Bool, cancelled: Bool, _ step: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(context.isInteractive, interactive, "isInteractive \(step)", file: file, line: line)
        XCTAssertEqual(context.transitionWasCancelled, cancelled, "transitionWasCancelled \(step)", file: file, line: line)
    }

    let cancelledTrace = ["B.viewWillDisappear", "A.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear",
                          "B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"]
    let finishedTrace = ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidLayoutSubviews", "A.viewDidAppear", "B.viewDidDisappear"]

    /// With `timingCurve` nil (the default), finishing or cancelling continues the
    /// interruptible animator with its own timing (UIKit starts it again; `completionCurve`
    /// times only block animations): at speed 1 over the time left, at speed 2 in half of it.
    func testTheInterruptibleAnimatorKeepsItsOwnTimingByDefault() async throws {
        let easeIn = CubicBezier.easeIn
        for (speed, finishing) in [(1.0, true), (2.0, true), (1.0, false)] {
            engine = AnimationEngine()
            frame = 0
            a = ViewController(name: "A")
            b = ViewController(name: "B")
            (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
            slide = InterruptibleSlideDown(timing: CubicTimingParameters(animationCurve: .easeIn))
            delegate.dismissAnimator = slide
            XCTAssertNil(interaction.timingCurve)
            interaction.completionSpeed = speed
            _ = try startDismissal()
            interaction.update(0.4)
            try step()
            XCTAssertEqual(y, 0.4 * 844, accuracy: 1e-9, "scrubbed linearly")
            if finishing { try interaction.finish() } else { try interaction.cancel() }
            let start = engine.clock.now
            let length = (finishing ? 0.6 : 0.4) * 0.5 / speed
            for share in [0.25, 0.5, 0.75] {
                try engine.clock.advance(to: start + share * length)
                // The run's own ease-in carries it from 40 % to the end it heads for.
                let fraction = finishing ? 0.4 + 0.6 * easeIn.value(at: share) : 0.4 - 0.4 * easeIn.value(at: share)
                XCTAssertEqual(y, fraction * 844, accuracy: 1e-6, "speed \(speed), finishing \(finishing), at \(share)")
            }
            try engine.clock.advance(to: start + length + 0.05)
            XCTAssertNil(window.transitionInProgress)
            XCTAssertEqual(a.presentedViewController === b, !finishing)
            if !finishing { try b.dismiss(animated: false) }
        }
    }

    /// Released with a velocity, the transition continues with a spring that starts at the
    /// finger's speed: the card's velocity just after the release (Richardson extrapolation
    /// of two forward differences, O(h²)) is the gesture's, both finishing and cancelling.
    func testReleaseVelocityCarriesIntoTheSpring() async throws {
        for (finishing, velocity) in [(true, 2.0), (false, -1.5), (true, 0.25)] {
            engine = AnimationEngine()
            frame = 0
            a = ViewController(name: "A")
            b = ViewController(name: "B")
            (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
            delegate.dismissAnimator = InterruptibleSlideDown(timing: try SpringTimingParameters(dampingRatio: 1))
            interaction.timingCurve = try SpringTimingParameters(dampingRatio: 0.8)
            _ = try startDismissal()
            interaction.update(0.4)
            try step()
            XCTAssertEqual(y, 0.4 * 844, accuracy: 1e-9)
            let t0 = engine.clock.now, y0 = y
            if finishing { try interaction.finish(velocity: velocity) } else { try interaction.cancel(velocity: velocity) }
            // The engine's exact velocity of the dragged view, at once: the gesture's.
            let exact = b.view.presentationVelocity(of: .center)[1]
            XCTAssertEqual(exact, 844 * velocity, accuracy: 1e-12 * 844 * abs(velocity), "finishing \(finishing)")
            XCTAssertEqual(b.view.presentationVelocity(of: .center)[0], 0)
            XCTAssertEqual(b.view.presentationVelocity(of: .alpha), [0])
            let h = 1e-5
            try advance(to: t0 + h)
            let d1 = (y - y0) / h
            try advance(to: t0 + 2 * h)
            let d2 = (y - y0) / (2 * h)
            let measured = 2 * d1 - d2
            XCTAssertEqual(measured, 844 * velocity, accuracy: 1e-5 * 844 * abs(velocity), "finishing \(finishing)")
            try advance(to: t0 + 3)
            XCTAssertNil(window.transitionInProgress)
        }
        XCTAssertThrowsError(try PercentDrivenInteractiveTransition().finish(velocity: .nan))
    }

    /// update 0.3 → finish → (mid-finish) pause + update 0.6 → cancel. Linear completion
    /// timing, so every value is exact.
    func testFinishThenRegrabThenCancel() async throws {
        interaction.timingCurve = CubicTimingParameters(animationCurve: .linear)
        let context = try startDismissal()
        assertFlags(context, interactive: true, cancelled: false, "at the start")
        interaction.update(0.3)
        try step()  // frame 1
        XCTAssertEqual(y, 0.3 * 844, accuracy: 1e-9)

        try interaction.finish()  // 0.3 → 1 in 0.7 × 0.5 s = 0.35 s, linearly
        assertFlags(context, interactive: false, cancelled: false, "after finish")
        try step(6)  // frame 7: 0.1 s into the finish
        XCTAssertEqual(y, (0.3 + 0.7 * 0.1 / 0.35) * 844, accuracy: 1e-9)

        interaction.pause()
        assertFlags(context, interactive: true, cancelled: false, "after the re-grab")
        let animator = try XCTUnwrap(slide.animator)
        XCTAssertFalse(animator.isRunning)
        XCTAssertEqual(interaction.percentComplete, 0.5, accuracy: 1e-9, "takes the animator's fraction")
        XCTAssertEqual(context.percentComplete, 0.5, accuracy: 1e-9)
        try step()  // frame 8
        XCTAssertEqual(y, 0.5 * 844, accuracy: 1e-9, "pausing does not move the view")
        interaction.update(0.6)
        try step()  // frame 9
        XCTAssertEqual(animator.fractionComplete, 0.6, accuracy: 1e-12, "the same animator follows the updates")
        XCTAssertEqual(y, 0.6 * 844, accuracy: 1e-9)

        try interaction.cancel()  // 0.6 → 0 in 0.6 × 0.5 s = 0.3 s
        assertFlags(context, interactive: false, cancelled: true, "after cancel")
        XCTAssertTrue(animator.isReversed)
        try step(9)  // frame 18: halfway back
        XCTAssertEqual(y, 0.3 * 844, accuracy: 1e-9)
        XCTAssertEqual(slide.completeFlags, [], "not yet")
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear"])
        try step(8)  // frame 26: 1/60 s before the end
        XCTAssertNotNil(window.transitionInProgress)
        try step()  // frame 27: 0.3 s after the cancel
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(y, 0, "exactly back")
        try step(10)
        XCTAssertEqual(slide.completeFlags, [false], "completeTransition once, cancelled")
        XCTAssertEqual(slide.positions, [.start])
        XCTAssertEqual(slide.ended, [false], "animationEnded once")
        XCTAssertEqual(slide.vendCount, 1, "one animator for the whole transition")
        XCTAssertEqual(window.trace, cancelledTrace)
        XCTAssertEqual(changes, ["false/false@2", "true/false@2", "false/true@2"],
                       "each change notified, all before the cancellation's appearance calls")
        XCTAssertTrue(a.presentedViewController === b)
        assertFlags(context, interactive: false, cancelled: true, "at the end")
        XCTAssertTrue(context.isCompleted)
    }

    /// update 0.3 → cancel → (mid-cancel) pause + update 0.6 → finish, with scene 5's
    /// spring completion (damping ratio 0.85).
    func testCancelThenRegrabThenFinish() async throws {
        interaction.timingCurve = try SpringTimingParameters(dampingRatio: 0.85)
        let context = try startDismissal()
        interaction.update(0.3)
        try step()
        XCTAssertEqual(y, 0.3 * 844, accuracy: 1e-9)

        try interaction.cancel()  // 0.3 → 0 over 0.15 s
        assertFlags(context, interactive: false, cancelled: true, "after cancel")
        var previous = y
        for _ in 0 ..< 3 {
            try step()
            XCTAssertLessThan(y, previous, "going back")
            XCTAssertGreaterThan(y, 0)
            previous = y
        }
        interaction.pause()  // 0.05 s into the cancel: the time fraction is 0.2
        assertFlags(context, interactive: true, cancelled: false, "after the re-grab: not cancelled any more")
        XCTAssertEqual(interaction.percentComplete, 0.2, accuracy: 1e-9)
        try step()
        XCTAssertEqual(y, previous, "pausing does not move the view")
        interaction.update(0.6)
        try step()
        XCTAssertEqual(y, 0.6 * 844, accuracy: 1e-9)
        XCTAssertEqual(slide.animator?.fractionComplete ?? -1, 0.6, accuracy: 1e-12)

        try interaction.finish()
        assertFlags(context, interactive: false, cancelled: false, "after finish")
        var frames = 0
        while window.transitionInProgress != nil, frames < 120 {
            try step()
            frames += 1
            XCTAssertGreaterThanOrEqual(y, 0.6 * 844 - 1e-9, "runs on towards the end")
        }
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(slide.completeFlags, [true])
        XCTAssertEqual(slide.positions, [.end])
        XCTAssertEqual(slide.ended, [true])
        XCTAssertEqual(window.trace, finishedTrace)
        XCTAssertEqual(changes, ["false/true@2", "true/false@2", "false/false@2"])
        XCTAssertNil(a.presentedViewController)
        XCTAssertNil(b.view.superview)
        XCTAssertEqual(b.view.frame.origin.y, 844)
    }

    /// After the transition completed, the interaction controller's calls change nothing.
    func testCallsAfterCompletionAreIgnored() async throws {
        let context = try startDismissal()
        interaction.update(0.5)
        try step()
        try interaction.finish()
        try step(60)
        XCTAssertTrue(context.isCompleted)
        interaction.pause()
        interaction.update(0.2)
        try interaction.cancel()
        try interaction.finish()
        try step(10)
        assertFlags(context, interactive: false, cancelled: false, "after late calls")
        XCTAssertEqual(slide.completeFlags, [true])
        XCTAssertEqual(slide.ended, [true])
        XCTAssertEqual(changes, ["false/false@2"])
        XCTAssertEqual(window.trace, finishedTrace)
    }

    /// The coordinator's completion velocity and curve are the interaction's settings.
    func testCoordinatorCompletionSettings() async throws {
        interaction.completionSpeed = 2.5
        interaction.completionCurve = .linear
        let context = try startDismissal()
        let coordinator = try XCTUnwrap(b.transitionCoordinator)
        XCTAssertEqual(coordinator.completionVelocity, 2.5)
        XCTAssertEqual(coordinator.completionCurve, .linear)
        interaction.update(0.4)
        try step()
        try interaction.finish()
        try step(60)
        XCTAssertTrue(context.isCompleted)
        XCTAssertEqual(slide.completeFlags, [true])
    }

    /// `wantsInteractiveStart = false`: the transition runs on its own until `pause()` grabs it.
    func testNonInteractiveStartGrabbedLater() async throws {
        interaction.wantsInteractiveStart = false
        interaction.timingCurve = CubicTimingParameters(animationCurve: .linear)
        let context = try startDismissal()
        XCTAssertFalse(context.isInteractive)
        XCTAssertFalse(b.transitionCoordinator?.initiallyInteractive ?? true)
        try step(6)
        XCTAssertGreaterThan(y, 0, "running by itself")
        interaction.pause()  // 0.1 s of 0.5 s
        XCTAssertTrue(context.isInteractive)
        XCTAssertEqual(interaction.percentComplete, 0.2, accuracy: 1e-9)
        interaction.update(0.25)
        try step()
        XCTAssertEqual(y, 0.25 * 844, accuracy: 1e-9)
        try interaction.finish()  // 0.75 × 0.5 s = 0.375 s, linearly
        try step(9)
        XCTAssertEqual(y, (0.25 + 0.75 * 0.15 / 0.375) * 844, accuracy: 1e-9)
        try step(20)
        XCTAssertEqual(slide.completeFlags, [true])
        XCTAssertEqual(changes, ["true/false@2", "false/false@2"])
        XCTAssertEqual(window.trace, finishedTrace)
    }
}
