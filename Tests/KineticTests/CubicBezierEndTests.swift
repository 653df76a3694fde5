import XCTest
import Kinetic
import TestSupport

/// The curves within 2^-26 of either end, where x is solved directly (relative precision)
/// instead of through the table: monotone curves stay monotone and in range down to the
/// subnormals, in the scalar and batch paths, and the values follow the curve's first-order
/// behaviour at the end, an independent check of their relative precision.
final class CubicBezierEndTests: XCTestCase {
    /// x at every binary order of magnitude from 0 (three significands each, down to the
    /// smallest subnormal), the first 64 multiples of 2^-53, the same distances from 1, and
    /// 0, 1/2 and 1; sorted.
    static let endGrid: [Double] = {
        var near: [Double] = []
        for e in -1074 ... -2 {
            for m in [1.0, 1.3, 1.7] { near.append(m * Double(sign: .plus, exponent: e, significand: 1)) }
        }
        near += (1...64).map { Double($0) * 0x1p-53 }
        let all = Set([0, 0.5, 1] + near + near.map { 1 - $0 })
        return all.sorted()
    }()

    /// The named curves, the degenerate families and 400 random curves with y1 and
    /// y2 in `yRange`.
    static func curves(yRange: ClosedRange<Double>, seed: UInt64) throws -> [CubicBezier] {
        var rng = SeededRandom(seed: seed)
        let lo = yRange.lowerBound, hi = yRange.upperBound
        var points: [(Double, Double, Double, Double)] = [
            (0.42, 0, 0.58, 1), (0.25, 0.1, 0.25, 1), (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0, 0, 1, 1),
            (1.0 / 3, 0, 2.0 / 3, 1), (1, 0, 0, 1), (0.999, 0, 0.001, 1), (0, 1, 0, 1), (0, 0.3, 0, 1),
            (0.95, 0.05, 0.05, 0.95), (0.99, 0, 0.01, 1), (1e-9, 0.5, 0.5, 1), (0.5, 0, 1 - 1e-9, 0.5),
            (0.01726, 0.08148, 0.03137, 0.65353), (0, 0, 0, 1), (1, 0, 1, 1),
        ]
        points = points.filter { yRange.contains($0.1) && yRange.contains($0.3) }
        while points.count < 400 {
            // A third of the curves with an x control value at or within 1e-9 of an end.
            let x1 = rng.chance(0.15) ? 0 : rng.chance(0.15) ? rng.uniform(0, 1e-9) : rng.unit()
            let x2 = rng.chance(0.15) ? 1 : rng.chance(0.15) ? 1 - rng.uniform(0, 1e-9) : rng.unit()
            points.append((x1, rng.uniform(lo, hi), x2, rng.uniform(lo, hi)))
        }
        return try points.map { try CubicBezier($0.0, $0.1, $0.2, $0.3) }
    }

    /// The grid for the batch path, each x repeated (1,024 x in all), in order.
    static let batchGrid: [Double] = {
        let copies = (1024 + endGrid.count - 1) / endGrid.count
        return endGrid.flatMap { Array(repeating: $0, count: copies) }
    }()

    func testMonotoneCurvesNeverDecreaseNearTheEnds() throws {
        var failures: [String] = []
        for curve in try Self.curves(yRange: 0...1, seed: 0xE4D5) {
            let batches = curve.batchValuesInBothRegimes(Self.batchGrid).map { ("values(at:)", $0, Self.batchGrid) }
            for (name, ys, xs) in [("value(at:)", Self.endGrid.map(curve.value(at:)), Self.endGrid)] + batches {
                for i in 1..<ys.count where ys[i] < ys[i - 1] {
                    failures.append("\(curve) \(name): \(ys[i - 1]) at x = \(xs[i - 1]), then \(ys[i]) at x = \(xs[i])")
                    break
                }
                if let bad = zip(xs, ys).first(where: { !(0...1).contains($0.1) }) {
                    failures.append("\(curve) \(name): \(bad.1) at x = \(bad.0), outside [0, 1]")
                }
            }
        }
        XCTAssertEqual(failures.count, 0, failures.prefix(5).joined(separator: "\n"))
    }

    /// y1, y2 ≥ 0 keeps the values ≥ 0, y1, y2 ≤ 1 keeps them ≤ 1, each on its own (the
    /// curves here overshoot on the other side).
    func testOneSidedRangesHoldNearTheEnds() throws {
        for (range, inside) in [(0.0...2.0, { (y: Double) in y >= 0 }), (-1.0...1.0, { (y: Double) in y <= 1 })] {
            var outside = 0, example = ""
            for curve in try Self.curves(yRange: range, seed: 0x51DE).prefix(200) {
                let scalar = Self.endGrid.map(curve.value(at:))
                let batches = curve.batchValuesInBothRegimes(Self.batchGrid)
                let xs = Self.endGrid + batches.flatMap { _ in Self.batchGrid }
                for (x, y) in zip(xs, scalar + batches.flatMap { $0 }) where !inside(y) {
                    outside += 1
                    if example.isEmpty { example = "\(curve): \(y) at x = \(x)" }
                }
            }
            XCTAssertEqual(outside, 0, "y control values in \(range): \(example)")
        }
    }

    /// Near 0 the curve is y ≈ (y1/x1)·x when x1 > 0, and y ≈ y1·√(3x/x2) when x1 = 0 (x ≈ 3x2·t²,
    /// y ≈ 3y1·t); near 1 the mirrored statements hold. Where the neglected terms (of relative
    /// size t·(|bx|/cx + |by|/cy), or t·(|ax|/bx + |by|/cy) when x1 = 0, in the power form) are
    /// below 1e-14, the values must match to 1e-12 relative: a check of relative precision
    /// that shares nothing with the solver. Before the direct solve near the ends,
    /// (0.01726, 0.08148, 0.03137, 0.65353) gave 4.1e-112 at x = 1e-200 (slope 4.7).
    func testValuesFollowTheEndTangentsInRelativePrecision() throws {
        var rng = SeededRandom(seed: 0x7A46)
        var checked = 0, checkedNearOne = 0, worst = 0.0, worstAt = ""
        for curve in try Self.curves(yRange: 0.01...1, seed: 0x7A47) {
            let x1 = curve.x1, y1 = curve.y1, x2 = curve.x2, y2 = curve.y2
            let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
            let cy = 3 * y1, by = 3 * (y2 - y1) - cy
            for _ in 0..<8 {
                let d = rng.logUniform(1e-300, 1e-20)
                // Near 0: the leading term, where the neglected ones are small enough.
                var expected: Double?
                if x1 > 0 {
                    let t = d / cx
                    if t * (abs(bx) / cx + abs(by) / cy) <= 1e-14 { expected = (y1 / x1) * d }
                } else if bx > 0 {
                    let t = (d / bx).squareRoot()
                    if t * (abs(ax) / bx + abs(by) / cy) <= 1e-14 { expected = y1 * (3 * d / x2).squareRoot() }
                }
                if let expected, expected.isNormal {
                    let got = curve.value(at: d)
                    let error = abs(got - expected) / expected
                    if error > worst { worst = error; worstAt = "\(curve) at x = \(d): \(got), expected \(expected)" }
                    checked += 1
                }
                // Near 1 (the mirrored half): x = 1 − k·2^-53 is exact, and 1 − y(x) ≈
                // ((1 − y2)/(1 − x2))·k·2^-53, which y, a double near 1, resolves to 2^-53;
                // the neglected terms are below 1e-8 relative there.
                let k = Double(Int.random(in: 1...(1 << 24), using: &rng))
                if x2 < 1 - 1e-6 {
                    let e = k * 0x1p-53, slope = (1 - y2) / (1 - x2)
                    if e / (3 * (1 - x2)) * (abs(bx) + abs(by) + 3) / min(1 - x2, 1 - y2 + 1e-300) <= 1e-8 {
                        let got = 1 - curve.value(at: 1 - e)
                        XCTAssertEqual(got, slope * e, accuracy: 0x1p-53 + 1e-8 * slope * e, "\(curve) at 1 − \(e)")
                        checkedNearOne += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 1_000)
        XCTAssertGreaterThan(checkedNearOne, 500)
        XCTAssertLessThanOrEqual(worst, 1e-12, worstAt)
        print("[CubicBezier near the ends] \(checked) values at x in [1e-300, 1e-20], worst relative error \(worst) (\(worstAt))")
    }

    /// At the threshold the two paths meet: the direct solve just below 2^-26 and the table
    /// at it agree to within the table's own error (1e-12 absolute against the Float80
    /// reference, and to a few ulp relative), at both ends, and a monotone curve keeps its
    /// order across it at a spacing of 1e-9 relative (strict order between adjacent doubles
    /// is beyond any evaluation that is not correctly rounded).
    func testDirectSolveAndTableAgreeAcrossTheThreshold() throws {
        let threshold = 0x1p-26
        for curve in try Self.curves(yRange: 0...1, seed: 0x7A48).prefix(500) {
            let ref = BezierReference80(curve.x1, curve.y1, curve.x2, curve.y2)
            for x in [threshold.nextDown, threshold, 1 - threshold, (1 - threshold).nextUp] {
                XCTAssertEqual(curve.value(at: x), ref.value(at: x), accuracy: 1e-12, "\(curve) at \(x)")
            }
            let (below, at) = (curve.value(at: threshold.nextDown), curve.value(at: threshold))
            XCTAssertEqual(below, at, accuracy: 1e-14 * at + 1e-300, "\(curve) across 2^-26")
            let a = curve.value(at: threshold * (1 - 1e-9)), b = curve.value(at: threshold * (1 + 1e-9))
            XCTAssertLessThanOrEqual(a, b, "\(curve) across 2^-26")
            let c = curve.value(at: 1 - threshold * (1 + 1e-9)), d = curve.value(at: 1 - threshold * (1 - 1e-9))
            XCTAssertLessThanOrEqual(c, d, "\(curve) across 1 − 2^-26")
        }
    }
}
