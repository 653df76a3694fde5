import Kinetic
import TestSupport
import XCTest

/// A timing record refers to its curves without reference counting (`CurveRef`); the engine
/// keeps every curve alive while a record refers to it. These runs' curves have no other
/// owner: more distinct cubic curves than the engine's intern cache keeps (1,024), springs,
/// and continuation legs along springs, with records released and reused while others run.
/// A curve freed too early reads as a wrong value here, and as a use after free under
/// AddressSanitizer (CI runs this class sanitized).
final class LaneEngineCurveLifetimeTests: XCTestCase {
    private struct Probe {
        let run: RunHandle
        let lane: Int
        /// The same timing, made afresh (its own solver): the expected progress.
        let reference: ProgressCurve
        let vertical: Bool
        let duration: Double
    }

    /// A continuation leg: the progress it started from and its curve, made afresh.
    private struct Leg {
        let base: Double
        let reference: ProgressCurve
    }

    /// A run on its own lane (0 → 1, so the lane shows the progress itself) whose timing is
    /// made inside this call: when it returns, the engine holds the only reference.
    private func addRun(_ engine: LaneEngine, _ random: inout SeededRandom, duration: Double) throws -> Probe {
        let lane = engine.firstLane(of: engine.allocateBlock([0]))
        let vertical = random.chance(0.5)
        let timing: RunTiming
        if random.chance(0.7) {
            timing = .cubic(try CubicBezier(random.unit(), random.uniform(-1, 2), random.unit(), random.uniform(-1, 2)))
        } else {
            // Different velocities on the two axes: vertical lanes take their own solve.
            timing = .dampedSpring(dampingRatio: random.uniform(0.3, 1.5), vx: random.uniform(-4, 4), vy: random.uniform(-4, 4))
        }
        let run = try engine.makeRun(timing: timing, duration: duration)
        try engine.addAnimations(run, targets: [LaneTarget(lane: Int32(lane), value: 1, vertical: vertical)], delayFactor: 0)
        try engine.startAnimation(run)
        return Probe(run: run, lane: lane, reference: try timing.curve(forDuration: duration).curve, vertical: vertical,
                     duration: duration)
    }

    /// Checks every running probe: on a direct leg the curve at the fraction, on a
    /// continuation leg base + (1 − base) · the leg's curve at the leg's fraction. Returns how
    /// many it checked.
    @discardableResult
    private func check(_ engine: LaneEngine, _ probes: [Probe], legs: [Int: Leg],
                       file: StaticString = #filePath, line: UInt = #line) -> Int {
        engine.flush()
        var checked = 0
        for p in probes where engine.isRunning(p.run) {
            checked += 1
            let record = engine.timing(of: p.run)
            let expected: Double
            if record.continuation {
                guard let leg = legs[p.lane] else { XCTFail("lane \(p.lane): a leg not made here"); continue }
                expected = leg.base + (1 - leg.base) * (p.vertical ? leg.reference.y(record.u) : leg.reference.x(record.u))
            } else {
                expected = p.vertical ? p.reference.y(record.f) : p.reference.x(record.f)
            }
            let f = record.f
            XCTAssertEqual(engine.output[p.lane], expected, accuracy: 1e-12 * max(1, abs(expected)),
                           "lane \(p.lane) at f = \(f)", file: file, line: line)
        }
        return checked
    }

    func testRecordsKeepTheirCurvesAliveWithoutOtherOwners() throws {
        var random = SeededRandom(seed: 0x5EED_C0DE)
        let engine = LaneEngine()
        var probes = try (0 ..< 1_500).map { _ in try addRun(engine, &random, duration: 10) }
        var legs: [Int: Leg] = [:]
        var now = 0.0
        for round in 0 ..< 6 {
            now += 0.7
            engine.advance(to: now)
            XCTAssertGreaterThan(check(engine, probes, legs: legs), 1_000)
            // Release a third of the runs (their records and curves go) and start new ones,
            // which take the freed records.
            var kept: [Probe] = []
            for p in probes {
                if random.chance(1.0 / 3) {
                    engine.releaseRunAndAnimations(p.run)
                } else {
                    kept.append(p)
                }
            }
            probes = kept
            for _ in 0 ..< 500 { probes.append(try addRun(engine, &random, duration: 10 - Double(round))) }
            // Continue some along a spring made here (a continuation leg: its curve is the
            // record's leg curve, held by the engine alone).
            for p in probes.suffix(100) where engine.isRunning(p.run) && !engine.timing(of: p.run).continuation {
                try engine.pauseAnimation(p.run)
                engine.flush()
                let timing = RunTiming.dampedSpring(dampingRatio: random.uniform(0.5, 1), vx: 1, vy: -2)
                let factor = random.uniform(0.2, 1)
                try engine.continueAnimation(p.run, timing: timing, durationFactor: factor)
                legs[p.lane] = Leg(base: engine.output[p.lane], reference: try timing.curve(forDuration: factor * p.duration).curve)
            }
            now += 0.1
            engine.advance(to: now)
            XCTAssertGreaterThan(check(engine, probes, legs: legs), 1_000)
        }
        // Every run ends at its target, continuation legs included.
        engine.advance(to: now + 1_000)
        for p in probes where engine.isLive(p.run) {
            XCTAssertFalse(engine.isRunning(p.run))
            XCTAssertEqual(engine.output[p.lane], 1, "lane \(p.lane) ends at its target")
        }
        for p in probes {
            XCTAssertEqual(engine.events.filter { $0 == .finished(p.run, .end) }.count, 1, "run of lane \(p.lane) finished once")
        }
    }
}
