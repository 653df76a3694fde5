import Kinetic
import TestSupport
import XCTest

/// A timing record refers to its curves without reference counting (`CurveRef`); the engine
/// keeps every curve alive while a record refers to it. These runs' curves have no other
/// owner: more distinct cubic curves than the engine's intern cache keeps (1,024), springs,
/// and continuation legs (along springs made afresh, along the run's own curve, resumed after
/// a pause, and after a linear scrub), with records released and reused while others run.
/// A curve freed too early reads as a wrong value here, and as a use after free under
/// AddressSanitizer (CI runs this class sanitized).
final class LaneEngineCurveLifetimeTests: XCTestCase {
    /// A run's timing as parameters, so that the test can make it again with solvers of its
    /// own (the engine's are then referenced by the engine alone).
    private enum Timing {
        case cubic(Double, Double, Double, Double)
        case spring(dampingRatio: Double, vx: Double, vy: Double)

        func make() throws -> RunTiming {
            switch self {
            case let .cubic(x1, y1, x2, y2): return .cubic(try CubicBezier(x1, y1, x2, y2))
            case let .spring(ratio, vx, vy): return .dampedSpring(dampingRatio: ratio, vx: vx, vy: vy)
            }
        }

        /// The progress curve for a run of `duration` seconds, made afresh (its own solver).
        func curve(forDuration duration: Double) throws -> ProgressCurve {
            try make().curve(forDuration: duration).curve
        }
    }

    private struct Probe {
        let run: RunHandle
        let lane: Int
        let timing: Timing
        let duration: Double
        /// The run's curve, made afresh: the expected progress on a direct leg.
        let reference: ProgressCurve
        let vertical: Bool
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
        let timing: Timing
        if random.chance(0.7) {
            timing = .cubic(random.unit(), random.uniform(-1, 2), random.unit(), random.uniform(-1, 2))
        } else {
            // Different velocities on the two axes: vertical lanes take their own solve.
            timing = .spring(dampingRatio: random.uniform(0.3, 1.5), vx: random.uniform(-4, 4), vy: random.uniform(-4, 4))
        }
        let run = try engine.makeRun(timing: try timing.make(), duration: duration)
        try engine.addAnimations(run, targets: [LaneTarget(lane: Int32(lane), value: 1, vertical: vertical)], delayFactor: 0)
        try engine.startAnimation(run)
        return Probe(run: run, lane: lane, timing: timing, duration: duration,
                     reference: try timing.curve(forDuration: duration), vertical: vertical)
    }

    /// Checks every running probe: on a direct leg the curve at the fraction, on a
    /// continuation leg base + (1 − base) · the leg's curve at the leg's fraction. Returns how
    /// many it checked on each kind of leg.
    private func check(_ engine: LaneEngine, _ probes: [Probe], legs: [Int: Leg],
                       file: StaticString = #filePath, line: UInt = #line) -> (direct: Int, continuation: Int) {
        engine.flush()
        var checked = (direct: 0, continuation: 0)
        for p in probes where engine.isRunning(p.run) {
            let record = engine.timing(of: p.run)
            let expected: Double
            if record.continuation {
                guard let leg = legs[p.lane] else { XCTFail("lane \(p.lane): a leg not made here"); continue }
                checked.continuation += 1
                expected = leg.base + (1 - leg.base) * (p.vertical ? leg.reference.y(record.u) : leg.reference.x(record.u))
            } else {
                checked.direct += 1
                expected = p.vertical ? p.reference.y(record.f) : p.reference.x(record.f)
            }
            XCTAssertEqual(engine.output[p.lane], expected, accuracy: 1e-12 * max(1, abs(expected)),
                           "lane \(p.lane) at f = \(record.f), u = \(record.u)", file: file, line: line)
        }
        return checked
    }

    func testRecordsKeepTheirCurvesAliveWithoutOtherOwners() throws {
        var random = SeededRandom(seed: 0x5EED_C0DE)
        let engine = LaneEngine()
        var probes = try (0 ..< 1_500).map { _ in try addRun(engine, &random, duration: 10) }
        var legs: [Int: Leg] = [:]
        var now = 0.0
        var continuationChecks = 0
        for round in 0 ..< 6 {
            now += 0.7
            engine.advance(to: now)
            let before = check(engine, probes, legs: legs)
            XCTAssertGreaterThan(before.direct, 800)
            continuationChecks += before.continuation
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
            // Interrupt some: each leg's curve is held by the engine alone.
            for (k, p) in probes.suffix(200).enumerated() where engine.isRunning(p.run) {
                let inContinuation = engine.timing(of: p.run).continuation
                try engine.pauseAnimation(p.run)
                engine.flush()
                let base = engine.output[p.lane]
                switch k % 4 {
                case 0:
                    // Continue along a spring made here.
                    let spring = RunTiming.dampedSpring(dampingRatio: random.uniform(0.5, 1), vx: 1, vy: -2)
                    let factor = random.uniform(0.2, 1)
                    try engine.continueAnimation(p.run, timing: spring, durationFactor: factor)
                    legs[p.lane] = Leg(base: base, reference: try spring.curve(forDuration: factor * p.duration).curve)
                case 1:
                    // Continue with the run's own timing over a new duration (a cubic run's
                    // own curve; a spring run's timing made again for that duration).
                    let factor = random.uniform(0.2, 1)
                    try engine.continueAnimation(p.run, timing: nil, durationFactor: factor)
                    let reference: ProgressCurve
                    switch p.timing {
                    case .cubic: reference = try p.timing.curve(forDuration: p.duration)
                    case .spring: reference = try p.timing.curve(forDuration: factor * p.duration)
                    }
                    legs[p.lane] = Leg(base: base, reference: reference)
                case 2 where inContinuation:
                    // Resume a paused continuation: a new leg along the same leg curve.
                    try engine.startAnimation(p.run)
                    guard let leg = legs[p.lane] else { XCTFail("lane \(p.lane): a leg not made here"); continue }
                    legs[p.lane] = Leg(base: base, reference: leg.reference)
                default:
                    // Scrub linearly, then resume: a leg along the run's own curve from there.
                    try engine.setFractionComplete(p.run, random.unit())
                    engine.flush()
                    let scrubbed = engine.output[p.lane]
                    try engine.startAnimation(p.run)
                    legs[p.lane] = Leg(base: scrubbed, reference: p.reference)
                }
            }
            now += 0.1
            engine.advance(to: now)
            let after = check(engine, probes, legs: legs)
            XCTAssertGreaterThan(after.direct, 800)
            XCTAssertGreaterThan(after.continuation, 100)
            continuationChecks += after.continuation
        }
        XCTAssertGreaterThan(continuationChecks, 1_000)
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
