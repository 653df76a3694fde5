import Kinetic
import TestSupport
import XCTest

/// `KeyframeBasis` (the step weights of a Core Animation keyframe track) and the engine's
/// keyframe animations built on it.
final class KeyframeBasisTests: XCTestCase {
    static let modes: [KeyframeCalculationMode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]

    /// Random 2-D keyframes with holds (repeated values), repeated times and a zero-length
    /// first segment among them.
    private func randomKeyframes(_ random: inout SeededRandom) -> (points: [Point], times: [Double]) {
        let n = Int(random.uniform(2, 8))
        var points: [Point] = []
        for k in 0 ..< n {
            if k > 0, random.chance(0.25) {
                points.append(points[k - 1])
            } else {
                points.append(Point(x: random.uniform(-300, 300), y: random.uniform(-300, 300)))
            }
        }
        var times = (0 ..< n).map { _ in random.uniform(0, 1) }.sorted()
        times[0] = 0
        times[n - 1] = 1
        if n > 3, random.chance(0.3) { times[2] = times[1] }
        return (points, times)
    }

    /// v₀ + Σ (vₖ − vₖ₋₁)·Wₖ(p) rebuilds the track Core Animation's rules give (the
    /// `KeyframeTrack` of the same values, times and mode) in every mode, both lanes, at
    /// progress inside and outside [0, 1].
    func testStepWeightsRebuildTheTrackInEveryMode() throws {
        var random = SeededRandom(seed: 0x6b65_7966)
        for _ in 0 ..< 300 {
            let (points, times) = randomKeyframes(&random)
            for mode in Self.modes {
                let track = try KeyframeTrack(values: points, keyTimes: times, calculationMode: mode)
                let basis = try KeyframeBasis(values: points.flatMap { [$0.x, $0.y] }, laneCount: 2, keyTimes: times,
                                              calculationMode: mode)
                XCTAssertEqual(basis.keyTimes, track.keyTimes, "\(mode)")
                for j in -4 ... 104 {
                    let p = Double(j) / 100
                    var x = points[0].x, y = points[0].y
                    for k in 1 ..< points.count {
                        let w = basis.weight(ofStep: k, at: p)
                        x += (points[k].x - points[k - 1].x) * w
                        y += (points[k].y - points[k - 1].y) * w
                    }
                    let expected = track.value(at: p)
                    XCTAssertEqual(x, expected.x, accuracy: 1e-9, "\(mode) \(points) \(times) at \(p)")
                    XCTAssertEqual(y, expected.y, accuracy: 1e-9, "\(mode) at \(p)")
                }
            }
        }
    }

    /// Paced: at progress p the point is p of the polyline's length along it (an
    /// independent Float80 walk along the polyline), whatever the key times.
    func testPacedWeightsMoveAtConstantSpeedAlongThePolyline() throws {
        var random = SeededRandom(seed: 0x7061_6365)
        for _ in 0 ..< 200 {
            let (points, times) = randomKeyframes(&random)
            let lengths = zip(points, points.dropFirst()).map { a, b in
                (Float80(b.x - a.x) * Float80(b.x - a.x) + Float80(b.y - a.y) * Float80(b.y - a.y)).squareRoot()
            }
            let total = lengths.reduce(0, +)
            guard total > 0 else { continue }
            let basis = try KeyframeBasis(values: points.flatMap { [$0.x, $0.y] }, laneCount: 2, keyTimes: times,
                                          calculationMode: .paced)
            for j in 0 ... 50 {
                let p = Double(j) / 50
                // Independent: walk p·total along the segments.
                var remaining = Float80(p) * total, k = 0
                while k < lengths.count - 1 && remaining > lengths[k] {
                    remaining -= lengths[k]
                    k += 1
                }
                let f = lengths[k] > 0 ? min(remaining / lengths[k], 1) : 0
                let ex = Float80(points[k].x) + (Float80(points[k + 1].x) - Float80(points[k].x)) * f
                let ey = Float80(points[k].y) + (Float80(points[k + 1].y) - Float80(points[k].y)) * f
                var x = points[0].x, y = points[0].y
                for s in 1 ..< points.count {
                    let w = basis.weight(ofStep: s, at: p)
                    x += (points[s].x - points[s - 1].x) * w
                    y += (points[s].y - points[s - 1].y) * w
                }
                XCTAssertEqual(x, Double(ex), accuracy: 1e-9, "\(points) at \(p)")
                XCTAssertEqual(y, Double(ey), accuracy: 1e-9, "\(points) at \(p)")
            }
        }
    }

    /// Cubic: a Catmull-Rom spline through the keyframes at their times, with Core
    /// Animation's time-scaled tangents, computed independently in Float80: the tangent at
    /// an inner key is the chord (vₖ₊₁ − vₖ₋₁) scaled by the adjacent segment's share of
    /// tₖ₊₁ − tₖ₋₁, at an end key the one-sided difference.
    func testCubicWeightsFollowTheTimeScaledCatmullRomSpline() throws {
        var random = SeededRandom(seed: 0x6375_6269)
        for _ in 0 ..< 200 {
            let n = Int(random.uniform(2, 7))
            let values = (0 ..< n).map { _ in random.uniform(-100, 100) }
            var times = (0 ..< n).map { _ in random.uniform(0, 1) }.sorted()
            times[0] = 0
            times[n - 1] = 1
            let basis = try KeyframeBasis(values: values, laneCount: 1, keyTimes: times, calculationMode: .cubic)
            let v = values.map { Float80($0) }, t = times.map { Float80($0) }
            func tangent(_ k: Int, outgoing: Bool) -> Float80 {
                let d = outgoing ? t[k + 1] - t[k] : t[k] - t[k - 1]
                if k == 0 { return v[1] - v[0] }
                if k == n - 1 { return v[n - 1] - v[n - 2] }
                return (v[k + 1] - v[k - 1]) * d / (t[k + 1] - t[k - 1])
            }
            for j in 0 ... 64 {
                let p = Double(j) / 64
                var s = 0
                while s < n - 2 && Float80(p) >= t[s + 1] { s += 1 }
                let u = (Float80(p) - t[s]) / (t[s + 1] - t[s])
                let h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u
                let h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u
                let expected = h00 * v[s] + h10 * tangent(s, outgoing: true) + h01 * v[s + 1]
                    + h11 * tangent(s + 1, outgoing: false)
                var value = values[0]
                for k in 1 ..< n { value += (values[k] - values[k - 1]) * basis.weight(ofStep: k, at: p) }
                XCTAssertEqual(value, Double(expected), accuracy: 1e-9, "\(values) \(times) at \(p)")
            }
        }
    }

    func testBadKeyframesThrowNamingTheValue() {
        XCTAssertThrowsError(try KeyframeBasis(values: [0, 1, 2], laneCount: 2, keyTimes: [0, 1],
                                               calculationMode: .linear)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "values")
        }
        XCTAssertThrowsError(try KeyframeBasis(values: [0, .nan], laneCount: 1, keyTimes: [0, 1],
                                               calculationMode: .cubic)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "values[1]", "names the bad value")
        }
        XCTAssertThrowsError(try KeyframeBasis(values: [0, 1], laneCount: 1, keyTimes: [0.5, 0.2],
                                               calculationMode: .linear)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "keyTimes[1]")
        }
    }

    // MARK: In the engine

    /// Runs a keyframe animation of two lanes on `curve` and returns the engine, the run and
    /// the first lane.
    private func keyframeRun(_ points: [Point], _ times: [Double], _ mode: KeyframeCalculationMode,
                             curve: ProgressCurve = .linear) throws -> (LaneEngine, RunHandle, Int) {
        let engine = LaneEngine()
        let block = engine.allocateBlock([points[0].x, points[0].y], releasesWhenIdle: true)
        let a = engine.firstLane(of: block)
        let run = engine.makeRun(curve: curve, duration: 2, repeats: false, autoreverses: false)
        try engine.addKeyframeAnimation(run, lanes: [Int32(a), Int32(a + 1)], values: points.flatMap { [$0.x, $0.y] },
                                        keyTimes: times, calculationMode: mode)
        engine.startLeg(run, to: 1, length: 2, startTime: 0)
        return (engine, run, a)
    }

    /// A run's lanes follow the track at the run's eased fraction, end exactly at the last
    /// keyframe, and the model is the last keyframe from the start.
    func testEngineLanesFollowTheTrackAtTheEasedFraction() throws {
        let points = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 50), Point(x: -20, y: 80)]
        let times = [0, 0.2, 0.7, 1.0]
        let ease = CubicBezier.easeInOut
        for mode in Self.modes {
            let track = try KeyframeTrack(values: points, keyTimes: times, calculationMode: mode)
            let (engine, run, a) = try keyframeRun(points, times, mode, curve: .cubic(ease))
            XCTAssertEqual(engine.model[a], -20)
            XCTAssertEqual(engine.model[a + 1], 80)
            for j in 1 ..< 40 {
                let t = Double(j) / 20
                engine.advance(to: t)
                let expected = track.value(at: ease.value(at: t / 2))
                XCTAssertEqual(engine.output[a], expected.x, accuracy: 1e-9, "\(mode) at \(t)")
                XCTAssertEqual(engine.output[a + 1], expected.y, accuracy: 1e-9, "\(mode) at \(t)")
            }
            engine.advance(to: 2)
            XCTAssertEqual(engine.events, [.finished(run, .end)])
            XCTAssertEqual(engine.output[a], -20, "\(mode) ends exactly")
            XCTAssertEqual(engine.output[a + 1], 80)
            XCTAssertEqual(engine.contributionCount, 0)
        }
    }

    /// A keyframe animation adds to another animation of the same lanes (UIKit's additive
    /// model); from the current state it starts where the lanes are, holds there until its
    /// first keyframe, and the other animation no longer moves them.
    func testKeyframesAddToOtherAnimationsOrStartFromTheCurrentState() throws {
        for fromCurrent in [false, true] {
            let engine = LaneEngine()
            let block = engine.allocateBlock([0], releasesWhenIdle: true)
            let lane = engine.firstLane(of: block)
            let other = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
            engine.addSegment(other, changes: [LaneChange(lane: Int32(lane), old: 0, new: 100, vertical: false)],
                              windowStart: 0, windowLength: 1)
            engine.startLeg(other, to: 1, length: 1, startTime: 0)
            engine.advance(to: 0.5)
            XCTAssertEqual(engine.output[lane], 50)
            let run = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
            let values = [100.0, 100, 200, 150]
            let times = [0, 0.5, 0.75, 1]
            try engine.addKeyframeAnimation(run, lanes: [Int32(lane)], values: values, keyTimes: times,
                                            calculationMode: .linear, fromCurrentState: fromCurrent)
            engine.startLeg(run, to: 1, length: 1, startTime: 0.5)
            engine.advance(to: 0.75)
            if fromCurrent {
                XCTAssertEqual(engine.output[lane], 50, "holds where it was until its first keyframe")
            } else {
                XCTAssertEqual(engine.output[lane], 75, "the other animation goes on beneath")
            }
            engine.advance(to: 1.125)
            XCTAssertEqual(engine.output[lane], fromCurrent ? 125 : 150, accuracy: 1e-12)
            engine.advance(to: 1.5)
            XCTAssertEqual(engine.output[lane], 150)
            XCTAssertEqual(engine.model[lane], 150)
        }
    }

    /// Bad keyframes leave the engine as it was.
    func testBadKeyframesLeaveTheEngineUnchanged() {
        let engine = LaneEngine()
        let block = engine.allocateBlock([1, 2], releasesWhenIdle: false)
        let a = Int32(engine.firstLane(of: block))
        let run = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
        for (values, times) in [([1.0, 2, 3], [0.0, 1]), ([1.0, 2, .infinity, 4], [0.0, 1]), ([1.0, 2, 3, 4], [0.7, 0.1])] {
            XCTAssertThrowsError(try engine.addKeyframeAnimation(run, lanes: [a, a + 1], values: values, keyTimes: times,
                                                                 calculationMode: .cubic))
            XCTAssertEqual(engine.contributionCount, 0)
            XCTAssertEqual(engine.model[Int(a)], 1)
            XCTAssertEqual(engine.model[Int(a) + 1], 2)
        }
    }
}
