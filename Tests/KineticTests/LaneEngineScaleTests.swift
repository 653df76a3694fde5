import Kinetic
import TestSupport
import XCTest

/// The core engine with many runs at once. Calls on one run between two ticks work on that
/// run's segments alone (its segment list, the records marked since the last progress
/// update), ended segments wait for an amortised compaction, and record slots are reused
/// while ended segments of their previous runs are still stored. None of that may change what
/// any run does: groups of runs on lanes of their own are independent, so each group must
/// behave in a crowd exactly as it does alone, in an engine that recomputes every run's
/// progress on every update (the behaviour the marking replaces).
final class LaneEngineScaleTests: XCTestCase {
    /// A group of runs that share one block of lanes, in the crowd, and its twin: the same
    /// runs alone in an engine of their own.
    private struct Group {
        var crowdRuns: [RunHandle]
        let crowdLane: Int
        let solo: LaneEngine
        var soloRuns: [RunHandle]
        let soloLane: Int
        let lanes: Int
    }

    private func timing(_ rng: inout SeededRandom) -> RunTiming {
        switch Int(rng.unit() * 5) {
        case 0: return .linear
        case 1: return .cubic(.easeInOut)
        case 2: return .cubic(try! CubicBezier(rng.unit(), rng.uniform(-0.5, 1.5), rng.unit(), rng.uniform(-0.5, 1.5)))
        case 3: return .dampedSpring(dampingRatio: rng.uniform(0.3, 1.2), vx: rng.uniform(-2, 2), vy: rng.uniform(-2, 2))
        default: return .cubic(.easeIn)
        }
    }

    /// Seeded random calls on random runs of a crowd of 200 groups (every run animating at
    /// first) (1 to 3 runs each, on 1 to
    /// 3 shared lanes), with clock advances between them. After every call and advance, every
    /// group's lanes hold the same bits as its twin's; calls succeed or fail alike, and each
    /// run's events are its twin's, in order. The calls cover the state machine, additive and
    /// begin-from-current animations, keyframes in every calculation mode, vertical lanes,
    /// repeats, autoreversing and pausing on completion, and runs released and made again.
    func testRunsInACrowdBehaveAsTheyDoAlone() throws {
        var rng = SeededRandom(seed: 0x5CA1E)
        let crowd = LaneEngine()
        var groups: [Group] = []
        for _ in 0 ..< 200 {
            let lanes = 1 + Int(rng.unit() * 3)
            let values = (0 ..< lanes).map { _ in rng.uniform(-50, 50) }
            let solo = LaneEngine()
            solo.recomputesAllProgress = true
            let soloLane = solo.firstLane(of: solo.allocateBlock(values))
            let crowdLane = crowd.firstLane(of: crowd.allocateBlock(values))
            var group = Group(crowdRuns: [], crowdLane: crowdLane, solo: solo, soloRuns: [], soloLane: soloLane, lanes: lanes)
            for _ in 0 ..< 1 + Int(rng.unit() * 3) {
                let t = timing(&rng), duration = rng.uniform(0.2, 2)
                group.crowdRuns.append(try crowd.makeRun(timing: t, duration: duration))
                group.soloRuns.append(try solo.makeRun(timing: t, duration: duration))
            }
            groups.append(group)
        }
        // Every run starts animating its group's lanes (the crowd is busy from the first tick).
        for g in groups.indices {
            for r in groups[g].crowdRuns.indices {
                let values = (0 ..< groups[g].lanes).map { _ in rng.uniform(-100, 100) }
                for (engine, run, lane) in [(crowd, groups[g].crowdRuns[r], groups[g].crowdLane),
                                            (groups[g].solo, groups[g].soloRuns[r], groups[g].soloLane)] {
                    try engine.addAnimations(run, targets: values.indices.map { LaneTarget(lane: Int32(lane + $0), value: values[$0]) },
                                             delayFactor: 0)
                    try engine.startAnimation(run)
                }
            }
        }
        var now = 0.0
        var crowdEvents: [[EngineEvent]] = Array(repeating: [], count: groups.count)
        var soloEvents: [[EngineEvent]] = Array(repeating: [], count: groups.count)
        var calls = [0, 0]

        func both(_ g: Int, _ r: Int, _ call: (LaneEngine, RunHandle, Int) throws -> Void) {
            let group = groups[g]
            var outcomes: [String] = []
            for (engine, run, lane) in [(crowd, group.crowdRuns[r], group.crowdLane),
                                        (group.solo, group.soloRuns[r], group.soloLane)] {
                do {
                    try call(engine, run, lane)
                    outcomes.append("ok")
                } catch {
                    outcomes.append("\(error)")
                }
            }
            XCTAssertEqual(outcomes[0], outcomes[1], "group \(g) run \(r)")
            calls[outcomes[0] == "ok" ? 0 : 1] += 1
        }

        var mismatches = 0, busiest = 0, movingScrubs = 0
        func compareAll(_ context: String) {
            crowd.flush()
            busiest = max(busiest, crowd.contributionCount)
            for g in groups.indices {
                let group = groups[g]
                group.solo.flush()
                for j in 0 ..< group.lanes {
                    let a = crowd.output[group.crowdLane + j], b = group.solo.output[group.soloLane + j]
                    let ma = crowd.model[group.crowdLane + j], mb = group.solo.model[group.soloLane + j]
                    if a.bitPattern != b.bitPattern || ma.bitPattern != mb.bitPattern {
                        mismatches += 1
                        if mismatches <= 5 {
                            XCTFail("group \(g) lane \(j) after \(context): \(a) (model \(ma)) in the crowd, \(b) (model \(mb)) alone")
                        }
                    }
                }
            }
        }

        struct UnknownRun: Error {}
        func owner(_ run: RunHandle) throws -> (Int, Int) {
            for (g, group) in groups.enumerated() {
                if let r = group.crowdRuns.firstIndex(of: run) { return (g, r) }
            }
            XCTFail("an event names a run that no group holds: \(run)")
            throw UnknownRun()
        }

        for step in 0 ..< 5_000 {
            if rng.chance(0.08) {
                now += rng.uniform(0, 0.05)
                crowd.advance(to: now)
                for e in crowd.events {
                    switch e {
                    case .finished(let run, let position):
                        let (g, r) = try owner(run)
                        crowdEvents[g].append(.finished(groups[g].soloRuns[r], position))
                    case .pausedAtEnd(let run):
                        let (g, r) = try owner(run)
                        crowdEvents[g].append(.pausedAtEnd(groups[g].soloRuns[r]))
                    }
                }
                crowd.events.removeAll()
                for g in groups.indices {
                    groups[g].solo.advance(to: now)
                    soloEvents[g] += groups[g].solo.events
                    groups[g].solo.events.removeAll()
                }
                compareAll("advance \(step)")
                continue
            }
            let g = Int(rng.unit() * Double(groups.count)) % groups.count
            let r = Int(rng.unit() * Double(groups[g].crowdRuns.count)) % groups[g].crowdRuns.count
            let lanes = groups[g].lanes
            let targets = (0 ..< lanes).map { _ in rng.uniform(-100, 100) }
            let vertical = (0 ..< lanes).map { _ in rng.chance(0.3) }
            let fraction = rng.unit(), factor = rng.uniform(0, 1), delay = rng.uniform(0, 0.1)
            let reverse = rng.chance(0.5), position = [RunPosition.end, .start, .current][Int(rng.unit() * 3) % 3]
            let newTiming: RunTiming? = rng.chance(0.5) ? timing(&rng) : nil
            let delayFactor = rng.chance(0.7) ? 0 : factor, startDelay: Double? = rng.chance(0.8) ? nil : delay
            let flags = (rng.chance(0.15), rng.chance(0.15), rng.chance(0.3), rng.chance(0.15))
            let keyCount = 1 + Int(rng.unit() * 4)
            let keyTimes = (0 ..< keyCount).map { _ in rng.unit() }.sorted()
            let keyValues = (0 ..< keyCount * lanes).map { _ in rng.uniform(-100, 100) }
            let mode = KeyframeCalculationMode.allCases[Int(rng.unit() * 100) % KeyframeCalculationMode.allCases.count]
            let op = Int(rng.unit() * 17)
            switch op {
            case 0, 1:
                both(g, r) { e, run, lane in
                    try e.addAnimations(run, targets: targets.indices.map {
                        LaneTarget(lane: Int32(lane + $0), value: targets[$0], vertical: vertical[$0])
                    }, delayFactor: delayFactor)
                }
            case 2: both(g, r) { e, run, _ in try e.startAnimation(run, afterDelay: startDelay) }
            case 3, 12: both(g, r) { e, run, _ in try e.pauseAnimation(run) }
            case 4, 13:
                // (13: a running run paused first, as a finger catching it would.)
                if op == 13 { both(g, r) { e, run, _ in try e.pauseAnimation(run) } }
                let before = groups[g].solo.output[groups[g].soloLane]
                both(g, r) { e, run, _ in try e.setFractionComplete(run, fraction) }
                groups[g].solo.flush()
                if groups[g].solo.output[groups[g].soloLane] != before { movingScrubs += 1 }
            case 5: both(g, r) { e, run, _ in try e.setReversed(reverse, of: run) }
            case 6: both(g, r) { e, run, _ in try e.continueAnimation(run, timing: newTiming, durationFactor: factor) }
            case 7:
                var stopped: [[StoppedLaneValues]] = []
                let withoutFinishing = rng.chance(0.3)
                both(g, r) { e, run, _ in stopped.append(try e.stopAnimation(run, withoutFinishing: withoutFinishing)) }
                if stopped.count == 2 {
                    XCTAssertEqual(stopped[0].map { [$0.start, $0.end] }, stopped[1].map { [$0.start, $0.end] }, "group \(g)")
                }
            case 8: both(g, r) { e, run, _ in try e.finishAnimation(run, at: position) }
            case 9:
                // Inactive runs only, as the fronts allow.
                both(g, r) { e, run, _ in
                    guard e.state(of: run) == .inactive else { return }
                    e.configure(run, repeats: flags.0, autoreverses: flags.1, beginsFromCurrentState: flags.2)
                    e.setPausesOnCompletion(flags.3, of: run)
                }
            case 10:
                both(g, r) { e, run, lane in
                    try e.addKeyframes(run, lanes: (0 ..< lanes).map { Int32(lane + $0) }, values: keyValues,
                                       keyTimes: keyTimes, calculationMode: mode)
                }
            case 11:
                // Several runs released, then made again: record slots change hands.
                var released: [(Int, Int)] = []
                for _ in 0 ..< 1 + Int(rng.unit() * 4) {
                    let h = Int(rng.unit() * Double(groups.count)) % groups.count
                    let s = Int(rng.unit() * Double(groups[h].crowdRuns.count)) % groups[h].crowdRuns.count
                    guard !released.contains(where: { $0 == (h, s) }) else { continue }
                    crowd.releaseRunAndAnimations(groups[h].crowdRuns[s])
                    groups[h].solo.releaseRunAndAnimations(groups[h].soloRuns[s])
                    released.append((h, s))
                }
                for (h, s) in released.reversed() {
                    let t = timing(&rng), duration = rng.uniform(0.2, 2)
                    groups[h].crowdRuns[s] = try crowd.makeRun(timing: t, duration: duration)
                    groups[h].soloRuns[s] = try groups[h].solo.makeRun(timing: t, duration: duration)
                }
            case 14, 15:
                // An inactive run animates again (most runs end within a few ticks).
                both(g, r) { e, run, lane in
                    guard e.state(of: run) == .inactive else { return }
                    try e.addAnimations(run, targets: targets.indices.map {
                        LaneTarget(lane: Int32(lane + $0), value: targets[$0], vertical: vertical[$0])
                    }, delayFactor: delayFactor)
                    try e.startAnimation(run, afterDelay: startDelay)
                }
            default:
                // Many runs started one after another between two ticks (more than the marks
                // the engine keeps before it falls back to one pass over every segment).
                for j in 0 ..< 80 {
                    let h = (g + j * 7) % groups.count
                    for s in groups[h].crowdRuns.indices { both(h, s) { e, run, _ in try e.startAnimation(run) } }
                }
            }
            compareAll("call \(step)")
        }
        XCTAssertEqual(mismatches, 0)
        for g in groups.indices {
            XCTAssertEqual(crowdEvents[g], soloEvents[g], "group \(g)'s events")
        }
        // The sequence exercised both outcomes, a busy crowd, scrubs that moved lanes, and
        // runs that ended.
        XCTAssertGreaterThan(busiest, 300)
        XCTAssertGreaterThan(movingScrubs, 30)
        XCTAssertGreaterThan(calls[0], 2_000)
        XCTAssertGreaterThan(calls[1], 500)
        XCTAssertGreaterThan(soloEvents.map(\.count).reduce(0, +), 300)
    }
}
