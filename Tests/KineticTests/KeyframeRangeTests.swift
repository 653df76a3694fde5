import XCTest
import Kinetic
import TestSupport

/// Keyframe tracks over the whole range of `Double`: finite keys give finite values at every
/// progress (an overshoot or extrapolation beyond the range saturates at
/// ±greatestFiniteMagnitude), and values that are representable are the right ones, checked
/// against an independent Float80 evaluation (whose range reaches 1e4932, so nothing in it
/// overflows).
final class KeyframeRangeTests: XCTestCase {
    private let big = Double.greatestFiniteMagnitude

    /// A value of random sign and magnitude, log-uniform up to the top of the range, with the
    /// extremes and zero mixed in.
    private func extreme(_ rng: inout SeededRandom) -> Double {
        let sign: Double = rng.chance(0.5) ? -1 : 1
        if rng.chance(0.1) { return sign * big }
        if rng.chance(0.05) { return 0 }
        return sign * rng.logUniform(1, 1.7e308)
    }

    /// The Float80 value rounded and clamped as the track promises.
    private func expected(_ v: Float80) -> Double {
        Double(max(-Float80(big), min(Float80(big), v)))
    }

    private var progresses: [Double] {
        (0 ... 40).map { Double($0) / 40 } + [1e-300, 0.5.nextDown, 0.5.nextUp, 1 - 0x1p-53, -0.5, -3, 1.5, 4]
    }

    func testLinearSegmentsAcrossTheWholeRange() throws {
        var rng = SeededRandom(seed: 0x11AE_A7)
        for _ in 0 ..< 400 {
            let a = extreme(&rng), b = extreme(&rng)
            let track = try KeyframeTrack<Double>(keyTimes: [0, 1], values: [a, b])
            let point = try KeyframeTrack<Point>(keyTimes: [0, 1], values: [Point(x: a, y: b), Point(x: b, y: a)])
            let scale = max(abs(a), abs(b))
            for p in progresses {
                let v = track.value(at: p)
                let want = expected(Float80(a) + (Float80(b) - Float80(a)) * Float80(p))
                XCTAssertTrue(v.isFinite, "[\(a), \(b)] at \(p): \(v)")
                XCTAssertEqual(v, want, accuracy: scale * max(1, abs(p)) * 0x1p-50, "[\(a), \(b)] at \(p)")
                let q = point.value(at: p)
                XCTAssertEqual(q.x, v, "Point lanes follow the same rule")
                XCTAssertTrue(q.y.isFinite, "[\(b), \(a)] at \(p): \(q.y)")
            }
            XCTAssertEqual(track.value(at: 0), a)
            XCTAssertEqual(track.value(at: 1), b)
        }
    }

    /// The Catmull-Rom value in Float80: tangents (v[k+1] − v[k−1]) / (t[k+1] − t[k−1]) inside,
    /// the one-sided secant at the ends, each times the segment's duration, then the Hermite
    /// basis.
    private func catmullRom(_ times: [Double], _ values: [Double], at p: Double) -> Float80 {
        let t = times.map(Float80.init), v = values.map(Float80.init), n = times.count
        var s = 0
        while s < n - 2 && Float80(p) >= t[s + 1] { s += 1 }
        let duration = t[s + 1] - t[s]
        func slope(_ k: Int) -> Float80 {
            if k == 0 { return (v[1] - v[0]) / (t[1] - t[0]) }
            if k == n - 1 { return (v[k] - v[k - 1]) / (t[k] - t[k - 1]) }
            return (v[k + 1] - v[k - 1]) / (t[k + 1] - t[k - 1])
        }
        let m0 = slope(s) * duration, m1 = slope(s + 1) * duration
        let u = (Float80(p) - t[s]) / duration
        let u2 = u * u, u3 = u2 * u
        return (2 * u3 - 3 * u2 + 1) * v[s] + (u3 - 2 * u2 + u) * m0 + (3 * u2 - 2 * u3) * v[s + 1] + (u3 - u2) * m1
    }

    func testCatmullRomAcrossTheWholeRange() throws {
        var rng = SeededRandom(seed: 0xCA7_4011)
        for trial in 0 ..< 300 {
            let n = 3 + trial % 4
            let values = (0 ..< n).map { _ in extreme(&rng) }
            // Random spacing, some of it tiny (a small span used to overflow the slope).
            var times = [0.0]
            for _ in 1 ..< n { times.append(times.last! + (rng.chance(0.2) ? rng.logUniform(1e-12, 1e-6) : rng.unit())) }
            times = times.map { $0 / times.last! }
            times[n - 1] = 1
            guard zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else { continue }
            let track = try KeyframeTrack<Double>(keyTimes: times, values: values, interpolation: .catmullRom)
            let scale = values.reduce(0) { max($0, abs($1)) }
            for p in (0 ... 40).map({ Double($0) / 40 }) + times {
                let v = track.value(at: p)
                XCTAssertTrue(v.isFinite, "\(values) at \(times) at \(p): \(v)")
                XCTAssertEqual(v, expected(catmullRom(times, values, at: p)), accuracy: scale * 1e-14,
                               "\(values) at \(times), p = \(p)")
            }
            for (k, t) in times.enumerated() where k == n - 1 || times[k + 1] > t {
                XCTAssertEqual(track.value(at: t), values[k], accuracy: scale * 1e-15, "key \(k) of \(values)")
            }
        }
    }

    func testCubicModesWithValuesNearTheEndsOfTheRange() throws {
        let values: [Double] = [-1.7e308, 1.7e308, -1.7e308, 1.2e308]
        let small = values.map { $0 * 0x1p-600 }
        for mode in [KeyframeCalculationMode.cubic, .cubicPaced, .paced] {
            let track = try KeyframeTrack<Double>(values: values, calculationMode: mode)
            let reference = try KeyframeTrack<Double>(values: small, calculationMode: mode)
            // The shape does not depend on the scale: the same times, and the values scaled.
            for (a, b) in zip(track.keyTimes, reference.keyTimes) { XCTAssertEqual(a, b, accuracy: 1e-15, "\(mode)") }
            for p in progresses {
                let v = track.value(at: p)
                XCTAssertTrue(v.isFinite, "\(mode) at \(p): \(v)")
                let want = reference.value(at: p) * 0x1p600
                if want.isFinite {
                    XCTAssertEqual(v, want, accuracy: 1.7e308 * 1e-12, "\(mode) at \(p)")
                } else {
                    XCTAssertEqual(v, want > 0 ? big : -big, "\(mode) at \(p): saturated")
                }
            }
        }
    }

    /// Track value at `p` in [0, 1] in Float80, segment by segment: hold, linear, eased (the
    /// curve solved by the Float80 reference) and Catmull-Rom (tangents as in `catmullRom`).
    private func reference(_ times: [Double], _ values: [Double], _ kinds: [(kind: Int, curve: CubicBezier?)],
                           at p: Double) -> Float80 {
        var s = 0
        while s < times.count - 2 && p >= times[s + 1] { s += 1 }
        let a = Float80(values[s]), b = Float80(values[s + 1])
        let u = (Float80(p) - Float80(times[s])) / (Float80(times[s + 1]) - Float80(times[s]))
        switch kinds[s].kind {
        case 0: return a + (b - a) * u
        case 1: return catmullRom(times, values, at: p)
        case 2: return u < 1 ? a : b
        default:
            let c = kinds[s].curve!
            return a + (b - a) * BezierReference80(c.x1, c.y1, c.x2, c.y2).value80(at: Double(u))
        }
    }

    func testMixedTracksAgainstFloat80() throws {
        var rng = SeededRandom(seed: 0xF1_2173)
        var outside = 0
        for _ in 0 ..< 300 {
            let n = 2 + Int(rng.unit() * 5)
            var times = (0 ..< n).map { _ in rng.unit() }.sorted()
            times[0] = 0
            times[n - 1] = 1
            guard zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else { continue }
            let values = (0 ..< n).map { _ in extreme(&rng) }
            let kinds: [(kind: Int, curve: CubicBezier?)] = try (0 ..< n - 1).map { _ in
                let kind = Int(rng.unit() * 4)
                return (kind, kind == 3 ? try CubicBezier(rng.unit(), rng.uniform(-1, 3), rng.unit(), rng.uniform(-1, 3)) : nil)
            }
            let interpolations: [KeyframeInterpolation] = kinds.map { k in
                [.linear, .catmullRom, .hold][min(k.kind, 2)] as KeyframeInterpolation
            }.enumerated().map { i, interpolation in kinds[i].curve.map { .eased($0) } ?? interpolation }
            let track = try KeyframeTrack<Double>(keyTimes: times, values: values, interpolations: interpolations)
            let scale = values.reduce(0) { max($0, abs($1)) }
            for _ in 0 ..< 40 {
                let p = rng.unit()
                let want = reference(times, values, kinds, at: p)
                let v = track.value(at: p)
                // Within 1e-12 of the scale (the eased curves are solved to about 1e-12, their
                // y control values up to 3); a value beyond the range saturates.
                XCTAssertEqual(v, expected(want), accuracy: 1e-12 * 3 * scale, "\(values) \(interpolations) at \(p)")
                if abs(want) > Float80(big) { outside += 1 }
            }
        }
        // The sweep reaches past the range: overshooting easings and Catmull-Rom bulges.
        XCTAssertGreaterThan(outside, 20)
    }

    func testTangentFactorsBeyondAnyScaleAreATypedError() {
        XCTAssertThrowsError(try KeyframeTrack<Double>(
            values: [0, 1e300, 0], calculationMode: .cubic, continuityValues: [0, 1e200, 0], biasValues: [0, 1e200, 0])
        ) { error in
            guard case ParameterError.outOfRange(let parameter, let value, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(parameter, "values")
            XCTAssertEqual(value, 1e300)
        }
        // Large but representable factors are accepted, and the track stays finite.
        let track = try? KeyframeTrack<Double>(values: [0, 1e300, 0], calculationMode: .cubic, tensionValues: [0, -1e10, 0])
        XCTAssertNotNil(track)
        for p in progresses { XCTAssertTrue(track?.value(at: p).isFinite ?? false, "at \(p)") }
    }
}
