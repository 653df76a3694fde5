import Kinetic
import XCTest

/// The core engine's `UIViewAnimating` state machine, driven without views: lanes owned by
/// the test (as a C host owns them), animations as lane targets.
final class LaneEngineRunTests: XCTestCase {
    private func setUp(_ values: [Double], timing: RunTiming = .linear, duration: Double = 1)
        throws -> (LaneEngine, RunHandle, Int) {
        try engineWithRun(values, timing: timing, duration: duration)
    }

    private func targets(_ lane: Int, _ values: [Double]) -> [LaneTarget] {
        values.enumerated().map { LaneTarget(lane: Int32(lane + $0.offset), value: $0.element) }
    }

    /// What a failing call must leave as it was.
    private func snapshot(_ engine: LaneEngine, _ run: RunHandle) -> [Double] {
        engine.flush()
        return engine.output + engine.model + engine.anchor
            + [Double(engine.state(of: run).rawValue), engine.fractionComplete(of: run), engine.isRunning(run) ? 1 : 0,
               engine.isReversed(run) ? 1 : 0, Double(engine.contributionCount)]
    }

    private func expect(_ expected: RunError, _ engine: LaneEngine, _ run: RunHandle, _ call: () throws -> Void,
                        file: StaticString = #filePath, line: UInt = #line) {
        let before = snapshot(engine, run)
        XCTAssertThrowsError(try call(), file: file, line: line) { error in
            XCTAssertEqual(error as? RunError, expected, file: file, line: line)
        }
        XCTAssertEqual(snapshot(engine, run), before, "a refused call leaves the engine unchanged", file: file, line: line)
    }

    func testTargetsAddedWhileInactiveMoveFromTheValuesAtTheStart() throws {
        let (engine, run, a) = try setUp([0, 0])
        try engine.addAnimations(run, targets: targets(a, [10, 20]), delayFactor: 0)
        XCTAssertEqual(engine.state(of: run), .inactive)
        XCTAssertEqual(engine.model[a], 0, "nothing moves before the start")
        engine.setModel(lane: a, to: 4)  // the host moves the lane before starting
        try engine.startAnimation(run)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.output[a], 4 + (10 - 4) * 0.5)
        XCTAssertEqual(engine.output[a + 1], 10)
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.finished(run, .end)])
        XCTAssertEqual(engine.output[a], 10)
        XCTAssertEqual(engine.output[a + 1], 20)
        XCTAssertEqual(engine.state(of: run), .inactive)
        XCTAssertEqual(engine.fractionComplete(of: run), 0)
    }

    /// Several animations added while inactive are applied at the start in the order they
    /// were added, each with its own delay: the second on a lane animates from the first's
    /// target, additively, as UIKit's second `addAnimations` does.
    func testSeveralAnimationsAddedWhileInactiveApplyInOrder() throws {
        let (engine, run, a) = try setUp([0, 0, 0])
        try engine.addAnimations(run, targets: targets(a, [10, 20]), delayFactor: 0)
        try engine.addAnimations(run, targets: targets(a + 1, [30, 40]), delayFactor: 0.5)
        try engine.addAnimations(run, targets: targets(a, [6]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 0.25)
        // Lane a: 0 → 10 then 10 → 6 over the whole run (linear): 2.5 − 1 = 1.5.
        let expectedA: Double = 10 * 0.25 - 4 * 0.25
        XCTAssertEqual(engine.output[a], expectedA, accuracy: 1e-12)
        // Lane a + 1: 0 → 20 over the run, then 20 → 30 in the second half only.
        XCTAssertEqual(engine.output[a + 1], 20 * 0.25, accuracy: 1e-12)
        XCTAssertEqual(engine.output[a + 2], 0, "the delayed animation waits for its half")
        engine.advance(to: 0.75)
        let expectedB: Double = 20 * 0.75 + 10 * 0.5
        XCTAssertEqual(engine.output[a + 1], expectedB, accuracy: 1e-12)
        XCTAssertEqual(engine.output[a + 2], 40 * 0.5, accuracy: 1e-12)
        engine.advance(to: 1)
        XCTAssertEqual(Array(engine.output[a ... a + 2]), [6, 30, 40])
        XCTAssertEqual(Array(engine.model[a ... a + 2]), [6, 30, 40])
        // Released, a fresh run on the same record starts with nothing pending.
        engine.releaseRunAndAnimations(run)
        let next = try engine.makeRun(timing: .linear, duration: 1)
        try engine.startAnimation(next)
        XCTAssertTrue(engine.isWaitingForAnimations(next))
    }

    /// Animations kept for several inactive runs at once, added in turns (the engine holds
    /// the last run's inline and the others by record): each run starts with its own, in
    /// the order added, and a released run's are dropped with it.
    func testAnimationsKeptForSeveralInactiveRunsStayWithTheirRun() throws {
        let engine = LaneEngine()
        let block = engine.allocateBlock([0, 0, 0, 0])
        let lane = engine.firstLane(of: block)
        let runs = try (0 ..< 4).map { _ in try engine.makeRun(timing: .linear, duration: 1) }
        let adds: [(run: Int, target: Double)] = [(0, 10), (1, 20), (0, 5), (2, 30), (1, 25), (2, 35), (0, 7), (3, 1),
                                                  (3, 2), (1, 26)]
        for (k, add) in adds.enumerated() {
            try engine.addAnimations(runs[add.run], targets: [LaneTarget(lane: Int32(lane + add.run), value: add.target)],
                                     delayFactor: 0)
            XCTAssertEqual(engine.state(of: runs[add.run]), .inactive, "add \(k)")
        }
        engine.releaseRunAndAnimations(runs[1])
        try engine.startAnimation(runs[2])
        try engine.startAnimation(runs[0])
        engine.advance(to: 0.5)
        // Each lane moves from 0 to its run's last target, through the chain of the others.
        XCTAssertEqual(engine.output[lane], 3.5, accuracy: 1e-12)
        XCTAssertEqual(engine.output[lane + 1], 0, "the released run's animations are dropped")
        XCTAssertEqual(engine.output[lane + 2], 17.5, accuracy: 1e-12)
        XCTAssertEqual(engine.output[lane + 3], 0, "not started")
        try engine.startAnimation(runs[3])
        engine.advance(to: 1.25)
        XCTAssertEqual(Array(engine.output[lane ..< lane + 4]), [7, 0, 35, 2 * 0.75])
        engine.advance(to: 2)
        XCTAssertEqual(Array(engine.model[lane ..< lane + 4]), [7, 0, 35, 2])
        // A run made on the released record has nothing pending.
        let next = try engine.makeRun(timing: .linear, duration: 1)
        try engine.startAnimation(next)
        XCTAssertTrue(engine.isWaitingForAnimations(next))
    }

    /// Runs with equal cubic timing share one curve, including a run made after the curve
    /// cache starts over; their values are the curve's.
    func testEqualCubicTimingsShareTheirCurve() throws {
        let engine = LaneEngine()
        let first = engine.firstLane(of: engine.allocateBlock([0, 0, 0]))
        let curve = try CubicBezier(0.3, 0.1, 0.6, 0.9)
        var runs: [RunHandle] = []
        for k in 0 ..< 3 {
            let run = try engine.makeRun(timing: .cubic(curve), duration: 1)
            try engine.addAnimations(run, targets: [LaneTarget(lane: Int32(first + k), value: 1)], delayFactor: 0)
            try engine.startAnimation(run)
            runs.append(run)
            // Other curves in between: the one-entry cache then misses and the dictionary answers.
            _ = try engine.makeRun(timing: .cubic(try CubicBezier(0.1 * Double(k + 1), 0, 0.9, 1)), duration: 1)
        }
        engine.advance(to: 0.4)
        for k in 0 ..< 3 { XCTAssertEqual(engine.output[first + k], curve.value(at: 0.4)) }
    }

    func testStartWithoutAnimationsWaitsForTheFirst() throws {
        let (engine, run, a) = try setUp([1])
        try engine.startAnimation(run)
        XCTAssertEqual(engine.state(of: run), .active)
        XCTAssertFalse(engine.isRunning(run))
        XCTAssertTrue(engine.isWaitingForAnimations(run))
        engine.advance(to: 5)
        try engine.addAnimations(run, targets: targets(a, [3]), delayFactor: 0)
        XCTAssertTrue(engine.isRunning(run), "the first animations start it")
        engine.advance(to: 5.25)
        XCTAssertEqual(engine.output[a], 1.5)
    }

    func testIllegalCallsThrowUIKitsErrorsAndChangeNothing() throws {
        let (engine, run, a) = try setUp([0])
        expect(.stopWhileInactive, engine, run) { try engine.stopAnimation(run, withoutFinishing: true) }
        expect(.finishRequiresStopped(state: .inactive), engine, run) { try engine.finishAnimation(run, at: .end) }
        expect(.continueRequiresPaused(state: .inactive, isRunning: false), engine, run) {
            try engine.continueAnimation(run, timing: nil, durationFactor: 0)
        }
        expect(.invalidParameter(.outOfRange(parameter: "delayFactor", value: 1.5, expected: "[0, 1]")), engine, run) {
            try engine.addAnimations(run, targets: targets(a, [1]), delayFactor: 1.5)
        }
        try engine.addAnimations(run, targets: targets(a, [1]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 0.25)
        expect(.finishRequiresStopped(state: .active), engine, run) { try engine.finishAnimation(run, at: .end) }
        expect(.continueRequiresPaused(state: .active, isRunning: true), engine, run) {
            try engine.continueAnimation(run, timing: nil, durationFactor: 0)
        }
        expect(.setWhileActive(property: "isInterruptible"), engine, run) { try engine.setInterruptible(false, of: run) }
        expect(.invalidParameter(.outOfRange(parameter: "fractionComplete", value: -0.5, expected: "[0, 1]")), engine, run) {
            try engine.setFractionComplete(run, -0.5)
        }
        try engine.pauseAnimation(run)
        expect(.startAfterDelayWhilePaused, engine, run) { try engine.startAnimation(run, afterDelay: 1) }
        expect(.invalidParameter(.outOfRange(parameter: "durationFactor", value: -1, expected: "[0, ∞)")), engine, run) {
            try engine.continueAnimation(run, timing: nil, durationFactor: -1)
        }
        try engine.stopAnimation(run, withoutFinishing: false)
        expect(.stopWhileStopped, engine, run) { try engine.stopAnimation(run, withoutFinishing: false) }
        expect(.startWhileStopped, engine, run) { try engine.startAnimation(run) }
        expect(.pauseWhileStopped, engine, run) { try engine.pauseAnimation(run) }
        expect(.addAnimationsWhileStopped, engine, run) { try engine.addAnimations(run, targets: targets(a, [2]), delayFactor: 0) }
    }

    func testAnUninterruptibleRunRefusesInterruptions() throws {
        let (engine, run, a) = try setUp([0])
        try engine.setInterruptible(false, of: run)
        try engine.addAnimations(run, targets: targets(a, [1]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 0.5)
        expect(.notInterruptible(call: "pauseAnimation"), engine, run) { try engine.pauseAnimation(run) }
        expect(.notInterruptible(call: "stopAnimation"), engine, run) { try engine.stopAnimation(run, withoutFinishing: true) }
        expect(.notInterruptible(call: "isReversed"), engine, run) { try engine.setReversed(true, of: run) }
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.finished(run, .end)])
    }

    /// Stopping keeps the values last shown; finishing then puts the lanes at the end, the
    /// start or leaves them, for lanes the host owns.
    func testStopThenFinishAtEachPosition() throws {
        for position in [RunPosition.end, .start, .current] {
            let (engine, run, a) = try setUp([2], timing: .cubic(.easeInOut))
            try engine.addAnimations(run, targets: targets(a, [12]), delayFactor: 0)
            try engine.startAnimation(run)
            engine.advance(to: 0.5)
            let shown = engine.output[a]
            let values = try engine.stopAnimation(run, withoutFinishing: false)
            XCTAssertEqual(values, [StoppedLaneValues(lane: Int32(a), start: 2, end: 12)])
            XCTAssertEqual(engine.state(of: run), .stopped)
            XCTAssertEqual(engine.fractionComplete(of: run), 0.5)
            XCTAssertEqual(engine.model[a], shown, "the model takes the value last shown")
            try engine.finishAnimation(run, at: position)
            engine.flush()
            let expected = position == .end ? 12 : position == .start ? 2 : shown
            XCTAssertEqual(engine.model[a], expected, "\(position)")
            XCTAssertEqual(engine.output[a], expected, "\(position)")
            XCTAssertEqual(engine.state(of: run), .inactive)
        }
    }

    /// Reversing while running turns the run round at once; it then ends at `.start` with
    /// the start values exactly.
    func testReversingWhileRunning() throws {
        let (engine, run, a) = try setUp([5], timing: .cubic(.easeIn), duration: 2)
        try engine.addAnimations(run, targets: targets(a, [-3]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 0.5)
        try engine.setReversed(true, of: run)
        XCTAssertEqual(engine.fractionComplete(of: run), 0.25)
        engine.advance(to: 0.75)
        XCTAssertEqual(engine.fractionComplete(of: run), 0.125, accuracy: 1e-15)
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.finished(run, .start)])
        XCTAssertEqual(engine.model[a], 5)
        XCTAssertEqual(engine.output[a], 5)
    }

    /// A paused run continued with a spring moves from where it is to the end along the
    /// spring, over `durationFactor × duration`.
    func testContinueWithASpring() throws {
        let (engine, run, a) = try setUp([0], duration: 2)
        try engine.addAnimations(run, targets: targets(a, [100]), delayFactor: 0)
        try engine.pauseAnimation(run)
        try engine.setFractionComplete(run, 0.4)
        engine.flush()
        XCTAssertEqual(engine.output[a], 40)
        try engine.continueAnimation(run, timing: .dampedSpring(dampingRatio: 0.5, vx: 0, vy: 0), durationFactor: 0.25)
        XCTAssertTrue(engine.isRunning(run))
        let spring = try Spring(settlingDuration: 1, dampingRatio: 0.5)
        engine.advance(to: 0.2)
        XCTAssertEqual(engine.output[a], 40 + 60 * spring.value(at: 0.4, initialVelocity: 0), accuracy: 1e-12)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.events, [.finished(run, .end)])
        XCTAssertEqual(engine.output[a], 100)
    }

    func testPausesOnCompletionStaysActiveAtTheEnd() throws {
        let (engine, run, a) = try setUp([0])
        engine.setPausesOnCompletion(true, of: run)
        try engine.addAnimations(run, targets: targets(a, [1]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.pausedAtEnd(run)])
        XCTAssertEqual(engine.state(of: run), .active)
        XCTAssertFalse(engine.isRunning(run))
        XCTAssertEqual(engine.fractionComplete(of: run), 1)
        try engine.setReversed(true, of: run)
        try engine.startAnimation(run)
        engine.advance(to: 2)
        XCTAssertEqual(engine.events.last, .pausedAtEnd(run))
        XCTAssertEqual(engine.output[a], 0)
    }

    /// Animations added while running with a delay factor start later and end with the run.
    func testDelayFactorWhileRunning() throws {
        let (engine, run, a) = try setUp([0, 0], duration: 2)
        try engine.addAnimations(run, targets: targets(a, [1]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 0.5)
        try engine.addAnimations(run, targets: [LaneTarget(lane: Int32(a + 1), value: 8)], delayFactor: 0.25)
        engine.advance(to: 1)
        XCTAssertEqual(engine.output[a + 1], 0, "starts at fraction 0.5")
        engine.advance(to: 1.5)
        XCTAssertEqual(engine.output[a + 1], 4)
        engine.advance(to: 2)
        XCTAssertEqual(engine.output[a + 1], 8)
    }

    /// A released run ends its animations where they are and its handle goes stale.
    func testReleasingARunningRun() throws {
        let (engine, run, a) = try setUp([0])
        try engine.addAnimations(run, targets: targets(a, [10]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 0.3)
        engine.releaseRunAndAnimations(run)
        engine.flush()
        XCTAssertEqual(engine.model[a], 3, accuracy: 1e-15)
        XCTAssertEqual(engine.output[a], engine.model[a])
        XCTAssertFalse(engine.isLive(run))
        XCTAssertEqual(engine.liveRunCount, 0)
    }

    /// Animations added during a continuation leg begun with no animations at all start
    /// from 0 along the leg (a crash before: the leg had captured no starting progress).
    func testAnimationsAddedDuringAContinuationLegThatHadNone() throws {
        let (engine, run, a) = try setUp([0], duration: 1)
        try engine.pauseAnimation(run)
        try engine.continueAnimation(run, timing: .cubic(.easeOut), durationFactor: 1)
        XCTAssertTrue(engine.isRunning(run))
        try engine.addAnimations(run, targets: targets(a, [8]), delayFactor: 0)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.output[a], 8 * CubicBezier.easeOut.value(at: 0.5))
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.finished(run, .end)])
        XCTAssertEqual(engine.output[a], 8)
    }

    /// A finite repeat count ends a repeating run part-way through a cycle, at `.end`.
    func testFiniteRepeatCountEndsTheRun() throws {
        let (engine, run, a) = try setUp([0], duration: 1)
        engine.configure(run, repeats: true, autoreverses: true, beginsFromCurrentState: false)
        engine.setRepeatCount(1.25, of: run)
        try engine.addAnimations(run, targets: targets(a, [4]), delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 1.5)
        XCTAssertEqual(engine.output[a], 2, "halfway back in the first cycle")
        engine.advance(to: 2.4)
        XCTAssertTrue(engine.events.isEmpty)
        XCTAssertTrue(engine.isRunning(run))
        engine.advance(to: 2.5)  // 1.25 cycles of 2 s
        XCTAssertEqual(engine.events, [.finished(run, .end)])
        XCTAssertEqual(engine.output[a], 4, "the new value")
        XCTAssertEqual(engine.state(of: run), .inactive)
    }

    /// A run made from a progress curve alone (no timing description) can be continued: its
    /// own curve and duration stand in (it used to trap on the missing description).
    func testContinuingARunMadeFromACurveAlone() throws {
        let engine = LaneEngine()
        let block = engine.allocateBlock([0])
        let a = engine.firstLane(of: block)
        let run = engine.makeRun(curve: .linear, duration: 2, repeats: false, autoreverses: false)
        try engine.addAnimations(run, targets: targets(a, [10]), delayFactor: 0)
        try engine.pauseAnimation(run)
        try engine.setFractionComplete(run, 0.5)
        try engine.continueAnimation(run, timing: nil, durationFactor: 0.5)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.output[a], 7.5, "half of the remaining 5 over 0.5 × 2 s, linearly")
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.finished(run, .end)])
        XCTAssertEqual(engine.output[a], 10)
    }
}
