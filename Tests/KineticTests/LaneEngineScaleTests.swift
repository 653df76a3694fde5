import Kinetic
import TestSupport
import XCTest

/// The core engine with many runs at once. Calls on one run between two ticks work on that
/// run's segments alone (its segment list, the records marked since the last progress
/// update), ended segments wait for an amortised compaction, and record slots are reused
/// while ended segments of their previous runs are still stored. None of that may change what
/// any run does: runs on lanes of their own are independent, so each must behave in a crowd
/// exactly as it does alone.
final class LaneEngineScaleTests: XCTestCase {
    /// One run of the crowd and its twin, the same run alone in an engine of its own.
    private struct Twin {
        var crowdRun: RunHandle
        let crowdLane: Int
        let solo: LaneEngine
        var soloRun: RunHandle
        let soloLane: Int
        let lanes: Int
    }

    private func timing(_ rng: inout SeededRandom) -> RunTiming {
        switch Int(rng.unit() * 5) {
        case 0: return .linear
        case 1: return .cubic(.easeInOut)
        case 2: return .cubic(try! CubicBezier(rng.unit(), rng.uniform(-0.5, 1.5), rng.unit(), rng.uniform(-0.5, 1.5)))
        case 3: return .dampedSpring(dampingRatio: rng.uniform(0.3, 1.2), vx: rng.uniform(-2, 2), vy: 0)
        default: return .cubic(.easeIn)
        }
    }

    /// Seeded random calls on random runs of a crowd of 300, with clock advances between
    /// them; after every call and advance each run's lanes hold the same bits as its twin's,
    /// calls succeed or fail alike, and each run's events are its twin's, in order.
    func testRunsInACrowdBehaveAsTheyDoAlone() throws {
        var rng = SeededRandom(seed: 0x5CA1E)
        let crowd = LaneEngine()
        let runCount = 300
        var twins: [Twin] = []
        for _ in 0 ..< runCount {
            let lanes = 1 + Int(rng.unit() * 3)
            let values = (0 ..< lanes).map { _ in rng.uniform(-50, 50) }
            let solo = LaneEngine()
            let t = timing(&rng), duration = rng.uniform(0.05, 0.6)
            let soloLane = solo.firstLane(of: solo.allocateBlock(values))
            let crowdLane = crowd.firstLane(of: crowd.allocateBlock(values))
            twins.append(Twin(crowdRun: try crowd.makeRun(timing: t, duration: duration), crowdLane: crowdLane,
                              solo: solo, soloRun: try solo.makeRun(timing: t, duration: duration),
                              soloLane: soloLane, lanes: lanes))
        }
        var now = 0.0
        var crowdEvents: [[EngineEvent]] = Array(repeating: [], count: runCount)
        var soloEvents: [[EngineEvent]] = Array(repeating: [], count: runCount)
        var calls = [0, 0]

        func both(_ k: Int, _ call: (LaneEngine, RunHandle, Int) throws -> Void) {
            let twin = twins[k]
            var outcomes: [String] = []
            for (engine, run, lane) in [(crowd, twin.crowdRun, twin.crowdLane), (twin.solo, twin.soloRun, twin.soloLane)] {
                do {
                    try call(engine, run, lane)
                    outcomes.append("ok")
                } catch {
                    outcomes.append("\(error)")
                }
            }
            XCTAssertEqual(outcomes[0], outcomes[1], "run \(k)")
            calls[outcomes[0] == "ok" ? 0 : 1] += 1
        }

        func compare(_ k: Int, _ context: String) {
            let twin = twins[k]
            for j in 0 ..< twin.lanes {
                let a = crowd.output[twin.crowdLane + j], b = twin.solo.output[twin.soloLane + j]
                if a.bitPattern != b.bitPattern {
                    XCTFail("run \(k) lane \(j) after \(context): \(a) in the crowd, \(b) alone")
                    return
                }
                XCTAssertEqual(crowd.model[twin.crowdLane + j].bitPattern, twin.solo.model[twin.soloLane + j].bitPattern,
                               "run \(k) lane \(j) model after \(context)")
            }
        }

        for step in 0 ..< 6_000 {
            if rng.chance(0.08) {
                now += rng.uniform(0, 0.05)
                crowd.advance(to: now)
                for e in crowd.events {
                    switch e {
                    case .finished(let run, let position):
                        let k = try XCTUnwrap(twins.firstIndex { $0.crowdRun == run })
                        crowdEvents[k].append(.finished(twins[k].soloRun, position))
                    case .pausedAtEnd(let run):
                        let k = try XCTUnwrap(twins.firstIndex { $0.crowdRun == run })
                        crowdEvents[k].append(.pausedAtEnd(twins[k].soloRun))
                    }
                }
                crowd.events.removeAll()
                for k in twins.indices {
                    twins[k].solo.advance(to: now)
                    soloEvents[k] += twins[k].solo.events
                    twins[k].solo.events.removeAll()
                }
                for k in twins.indices { compare(k, "advance \(step)") }
                continue
            }
            let k = Int(rng.unit() * Double(runCount)) % runCount
            let lanes = twins[k].lanes
            let targets = (0 ..< lanes).map { _ in rng.uniform(-100, 100) }
            let fraction = rng.unit(), factor = rng.uniform(0, 1), delay = rng.uniform(0, 0.1)
            let reverse = rng.chance(0.5), position = [RunPosition.end, .start, .current][Int(rng.unit() * 3) % 3]
            let newTiming: RunTiming? = rng.chance(0.5) ? timing(&rng) : nil
            let delayFactor = rng.chance(0.7) ? 0 : factor, startDelay: Double? = rng.chance(0.8) ? nil : delay
            switch Int(rng.unit() * 11) {
            case 0, 1:
                both(k) { e, run, lane in
                    try e.addAnimations(run, targets: targets.enumerated().map { LaneTarget(lane: Int32(lane + $0.offset), value: $0.element) },
                                        delayFactor: delayFactor)
                }
            case 2: both(k) { e, run, _ in try e.startAnimation(run, afterDelay: startDelay) }
            case 3: both(k) { e, run, _ in try e.pauseAnimation(run) }
            case 4: both(k) { e, run, _ in try e.setFractionComplete(run, fraction) }
            case 5: both(k) { e, run, _ in try e.setReversed(reverse, of: run) }
            case 6: both(k) { e, run, _ in try e.continueAnimation(run, timing: newTiming, durationFactor: factor) }
            case 7:
                var stopped: [[StoppedLaneValues]] = []
                let withoutFinishing = rng.chance(0.3)
                both(k) { e, run, _ in stopped.append(try e.stopAnimation(run, withoutFinishing: withoutFinishing)) }
                if stopped.count == 2 {
                    XCTAssertEqual(stopped[0].map { [$0.start, $0.end] }, stopped[1].map { [$0.start, $0.end] }, "run \(k)")
                }
            case 8: both(k) { e, run, _ in try e.finishAnimation(run, at: position) }
            case 9:
                // Released and replaced by a fresh run (its record slot reused in the crowd).
                let t = timing(&rng), duration = rng.uniform(0.05, 0.6)
                crowd.releaseRunAndAnimations(twins[k].crowdRun)
                twins[k].solo.releaseRunAndAnimations(twins[k].soloRun)
                twins[k].crowdRun = try crowd.makeRun(timing: t, duration: duration)
                twins[k].soloRun = try twins[k].solo.makeRun(timing: t, duration: duration)
            default:
                // Start many runs one after another between two ticks (more than the marks
                // the engine keeps before it falls back to one pass over every segment).
                for j in 0 ..< 80 {
                    let m = (k + j * 7) % runCount
                    both(m) { e, run, _ in try e.startAnimation(run) }
                }
            }
            crowd.flush()
            twins[k].solo.flush()
            compare(k, "call \(step)")
        }
        for k in twins.indices {
            XCTAssertEqual(crowdEvents[k], soloEvents[k], "run \(k)'s events")
        }
        // The sequence exercised both outcomes, and runs ended and were replaced.
        XCTAssertGreaterThan(calls[0], 2_000)
        XCTAssertGreaterThan(calls[1], 500)
        XCTAssertGreaterThan(soloEvents.map(\.count).reduce(0, +), 300)
    }
}
