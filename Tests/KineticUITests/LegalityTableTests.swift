import Kinetic
import KineticUI
import XCTest

/// The call × state table of UIKit's `UIViewPropertyAnimator` (reference §1.3), cell by
/// cell: one test per call, each covering inactive, active running, active paused and
/// stopped. This file: the fixture, and the start, pause, stop, finish and
/// fractionComplete rows; LegalityTableMoreTests.swift has the other rows and the
/// completion-handler and `isInterruptible` rules.
///
/// Fixture: a box animated from alpha 1 / centre x 50 to alpha 0 / centre x 250, linear,
/// 1 s. "running", "paused" and "stopped" are taken at 0.25 s (alpha 0.75, centre x 100).
@MainActor
class LegalityTestCase: ReportingEngineTestCase {
    enum Situation: String, CaseIterable {
        case inactive, running, paused, stopped
    }

    /// Everything an illegal call must leave as it was.
    struct Snapshot: Equatable {
        var state: ViewAnimatingState
        var isRunning: Bool
        var fraction: Double
        var isReversed: Bool
        var model: ViewValues
        var presentation: ViewValues
    }

    var live: [PropertyAnimator] = []

    override func setUp() async throws {
        try await super.setUp()
        live = []
    }

    override func tearDown() async throws {
        // Paused and stopped animators must be finished before release (§1.3 dealloc).
        for a in live {
            if a.state == .active, !a.isRunning { try? a.stopAnimation(false) }
            if a.state == .stopped { try? a.finishAnimation(at: .current) }
        }
        live = []
        try await super.tearDown()
    }

    /// An animator of `v` in `situation`, at t = 0.25 s for the active and stopped ones.
    func make(_ situation: Situation, completions: (@MainActor (ViewAnimatingPosition) -> Void)? = nil)
        throws -> (PropertyAnimator, View) {
        engine = AnimationEngine() // a clock at 0: the fixture's times are exact
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.alpha = 0
            v.center = Point(x: 250, y: 50)
        }
        if let completions { a.addCompletion(completions) }
        live.append(a)
        guard situation != .inactive else { return (a, v) }
        try a.startAnimation()
        try advance(to: engine.clock.now + 0.25)
        switch situation {
        case .paused: try a.pauseAnimation()
        case .stopped: try a.stopAnimation(false)
        default: break
        }
        return (a, v)
    }

    /// Advances `n` frames of 1/60 s from the current time.
    func frames(_ n: Int = 1) throws {
        for _ in 0 ..< n { try engine.clock.advance(by: 1.0 / 60) }
    }

    func snapshot(_ a: PropertyAnimator, _ v: View) -> Snapshot {
        Snapshot(state: a.state, isRunning: a.isRunning, fraction: a.fractionComplete, isReversed: a.isReversed,
                 model: v.model, presentation: v.presentation)
    }

    /// Asserts `call` throws `expected`, whose description contains `message`, and changes
    /// nothing (also one frame later for animators that are not running).
    func assertIllegal(_ a: PropertyAnimator, _ v: View, _ expected: AnimatorError, message: String,
                       _ call: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = snapshot(a, v)
        XCTAssertThrowsError(try call(), file: file, line: line) { error in
            // Compared by description too, as NaN payloads are never equal.
            let got = error as? AnimatorError
            XCTAssertTrue(got == expected || (got != nil && got?.description == expected.description),
                          "\(error) is not \(expected)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(message), "\(error)", file: file, line: line)
        }
        XCTAssertEqual(snapshot(a, v), before, "an illegal call changed something", file: file, line: line)
        if !before.isRunning {
            try frames()
            XCTAssertEqual(snapshot(a, v), before, "an illegal call changed something later", file: file, line: line)
        }
    }
}

/// Start, pause, stop, finish and fractionComplete in every state.
@MainActor
final class LegalityTableTests: LegalityTestCase {
    // MARK: startAnimation()

    func testStartAnimationInEveryState() async throws {
        // inactive → active, running; the blocks run now.
        var (a, v) = try make(.inactive)
        try a.startAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertTrue(a.isRunning)
        XCTAssertEqual(v.model.alpha, 0)
        XCTAssertEqual(v.presentation.alpha, 1)
        try advance(to: engine.clock.now + 0.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)

        // running → no-op: time keeps its course.
        (a, v) = try make(.running)
        let t0 = engine.clock.now
        try a.startAnimation()
        XCTAssertTrue(a.isRunning)
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        try advance(to: t0 + 0.25)
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9)

        // paused → resumes from fractionComplete.
        (a, v) = try make(.paused)
        try advance(to: engine.clock.now + 3)
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        let t1 = engine.clock.now
        try a.startAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertTrue(a.isRunning)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12, "no jump on resume")
        try advance(to: t1 + 0.5)
        XCTAssertEqual(a.fractionComplete, 0.75, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.alpha, 0.25, accuracy: 1e-12)

        // stopped → programmer error.
        (a, v) = try make(.stopped)
        try assertIllegal(a, v, .startWhileStopped, message: "startAnimation") { try a.startAnimation() }
    }

    // MARK: startAnimation(afterDelay:)

    func testStartAnimationAfterDelayInEveryState() async throws {
        // inactive → active, running (waiting); sets delay.
        var (a, v) = try make(.inactive)
        let t0 = engine.clock.now
        try a.startAnimation(afterDelay: 0.5)
        XCTAssertEqual(a.delay, 0.5)
        XCTAssertEqual(a.state, .active)
        XCTAssertTrue(a.isRunning)
        try advance(to: t0 + 0.5)
        XCTAssertEqual(v.presentation.alpha, 1, "nothing moves during the delay")
        XCTAssertEqual(a.fractionComplete, 0)
        try advance(to: t0 + 0.75)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)

        // running → no effect (delay unchanged, no restart).
        (a, v) = try make(.running)
        let t1 = engine.clock.now
        try a.startAnimation(afterDelay: 5)
        XCTAssertEqual(a.delay, 0)
        XCTAssertTrue(a.isRunning)
        try advance(to: t1 + 0.25)
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)

        // paused → error (observed on device).
        (a, v) = try make(.paused)
        try assertIllegal(a, v, .startAfterDelayWhilePaused, message: "startAnimation(afterDelay:)") {
            try a.startAnimation(afterDelay: 0.1)
        }
        XCTAssertEqual(a.delay, 0)

        // stopped → programmer error.
        (a, v) = try make(.stopped)
        try assertIllegal(a, v, .startWhileStopped, message: "startAnimation") { try a.startAnimation(afterDelay: 0.1) }

        // Bad delays are rejected before anything happens.
        (a, v) = try make(.inactive)
        for bad in [-0.1, .nan, .infinity] {
            try assertIllegal(a, v, .invalidParameter(bad.isNaN || bad.isInfinite
                    ? .notFinite(parameter: "delay", value: bad)
                    : .outOfRange(parameter: "delay", value: bad, expected: "[0, ∞)")),
                message: "delay") { try a.startAnimation(afterDelay: bad) }
        }
    }

    // MARK: pauseAnimation()

    func testPauseAnimationInEveryState() async throws {
        // inactive → active, paused at 0 right away; the blocks have run (model set).
        var (a, v) = try make(.inactive)
        try a.pauseAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(a.fractionComplete, 0)
        XCTAssertEqual(v.model.alpha, 0)
        try frames(10)
        XCTAssertEqual(v.presentation.alpha, 1)

        // running → paused where it is.
        (a, v) = try make(.running)
        try a.pauseAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        try advance(to: engine.clock.now + 0.5)
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)

        // paused → does nothing.
        (a, v) = try make(.paused)
        let before = snapshot(a, v)
        try a.pauseAnimation()
        XCTAssertEqual(snapshot(a, v), before)

        // stopped → programmer error.
        (a, v) = try make(.stopped)
        try assertIllegal(a, v, .pauseWhileStopped, message: "pauseAnimation") { try a.pauseAnimation() }
    }

    // MARK: stopAnimation(_:)

    func testStopAnimationInEveryState() async throws {
        for withoutFinishing in [true, false] {
            var completions: [ViewAnimatingPosition] = []
            // inactive → error (UIKit crashes).
            var (a, v) = try make(.inactive) { completions.append($0) }
            try assertIllegal(a, v, .stopWhileInactive, message: "must be in the active state") {
                try a.stopAnimation(withoutFinishing)
            }

            // running and paused → inactive (true) or stopped (false); the model takes the
            // values last shown.
            for situation in [Situation.running, .paused] {
                (a, v) = try make(situation) { completions.append($0) }
                try a.stopAnimation(withoutFinishing)
                XCTAssertEqual(a.state, withoutFinishing ? .inactive : .stopped, "\(situation)")
                XCTAssertFalse(a.isRunning)
                XCTAssertEqual(v.model.alpha, 0.75, accuracy: 1e-12)
                XCTAssertEqual(v.model.center.x, 100, accuracy: 1e-9)
                XCTAssertEqual(v.presentation, v.model)
                try frames(30)
                XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12, "nothing animates after a stop")
                XCTAssertEqual(completions, [], "no completion at a stop")
                XCTAssertEqual(engine.activeAnimatorCount, 0)
            }

            // stopped → error when called again.
            (a, v) = try make(.stopped)
            try assertIllegal(a, v, .stopWhileStopped, message: "already stopped") { try a.stopAnimation(withoutFinishing) }
        }
    }

    func testStopWithoutFinishingDropsCompletionsAndAllowsReuse() async throws {
        var completions: [ViewAnimatingPosition] = []
        let (a, v) = try make(.running) { completions.append($0) }
        try a.stopAnimation(true)
        try frames(120)
        XCTAssertEqual(completions, [])
        // Inactive again: can be reconfigured and started with new blocks.
        try a.setInterruptible(false)
        try a.addAnimations { v.alpha = 1 }
        try a.startAnimation()
        try advance(to: engine.clock.now + 1.5)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(v.presentation.alpha, 1)
        XCTAssertEqual(completions, [], "dropped completions stay dropped")
    }

    // MARK: finishAnimation(at:)

    func testFinishAnimationInEveryState() async throws {
        for situation in [Situation.inactive, .running, .paused] {
            let (a, v) = try make(situation)
            let state = a.state
            for position in [ViewAnimatingPosition.end, .start, .current] {
                try assertIllegal(a, v, .finishRequiresStopped(state: state),
                                  message: "finishAnimationAtPosition: should only be called on a stopped animator!") {
                    try a.finishAnimation(at: position)
                }
            }
        }
        let message = AnimatorError.finishRequiresStopped(state: .inactive).description
        XCTAssertTrue(message.hasPrefix("finishAnimationAtPosition: should only be called on a stopped animator!"), message)

        // stopped → inactive, completion(position); .end/.start snap, .current stays.
        let expected: [ViewAnimatingPosition: (alpha: Double, x: Double)] =
            [.end: (0, 250), .start: (1, 50), .current: (0.75, 100)]
        for (position, values) in expected {
            var completions: [ViewAnimatingPosition] = []
            var stateInHandler: ViewAnimatingState?
            let (a, v) = try make(.stopped) { completions.append($0) }
            a.addCompletion { _ in stateInHandler = a.state }
            try a.finishAnimation(at: position)
            XCTAssertEqual(a.state, .inactive)
            XCTAssertFalse(a.isRunning)
            XCTAssertEqual(completions, [position])
            XCTAssertEqual(stateInHandler, .active, "UIKit's private completing state reads as active")
            XCTAssertEqual(v.model.alpha, values.alpha, accuracy: 1e-12, "\(position)")
            XCTAssertEqual(v.model.center.x, values.x, accuracy: 1e-9, "\(position)")
            XCTAssertEqual(v.presentation, v.model, "no animation at a finish")
        }
    }

    // MARK: fractionComplete

    func testSetFractionCompleteInEveryState() async throws {
        // inactive → active, paused at the fraction (linear scrub).
        var (a, v) = try make(.inactive)
        a.fractionComplete = 0.4
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(a.fractionComplete, 0.4, accuracy: 1e-15)
        XCTAssertEqual(v.presentation.alpha, 0.6, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.center.x, 130, accuracy: 1e-9)
        XCTAssertEqual(v.model.alpha, 0)

        // running → ignored (no pause, no jump, nothing reported).
        (a, v) = try make(.running)
        let t0 = engine.clock.now
        a.fractionComplete = 0.9
        XCTAssertTrue(a.isRunning)
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12)
        try advance(to: t0 + 0.25)
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)

        // paused → scrubs, both ways.
        (a, v) = try make(.paused)
        a.fractionComplete = 0.8
        XCTAssertEqual(v.presentation.alpha, 0.2, accuracy: 1e-12)
        a.fractionComplete = 0.1
        XCTAssertEqual(v.presentation.alpha, 0.9, accuracy: 1e-12)
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)

        // stopped → ignored.
        (a, v) = try make(.stopped)
        let before = snapshot(a, v)
        a.fractionComplete = 0.9
        XCTAssertEqual(snapshot(a, v), before)
        XCTAssertNoThrow(try a.setFractionComplete(0.9))
        XCTAssertEqual(snapshot(a, v), before)
        XCTAssertEqual(reported, [])

        // Bad values: the setter reports, setFractionComplete throws; nothing changes.
        (a, v) = try make(.paused)
        for bad in [-0.5, 1.5, .nan] {
            let before = snapshot(a, v)
            a.fractionComplete = bad
            XCTAssertEqual(snapshot(a, v), before)
            XCTAssertThrowsError(try a.setFractionComplete(bad)) { error in
                guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
                XCTAssertEqual(p.parameter, "fractionComplete")
            }
        }
        XCTAssertEqual(reported.count, 3)
    }
}
