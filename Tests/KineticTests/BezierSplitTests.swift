import XCTest
import Kinetic
import TestSupport

/// Each half of a curve's solver is solved on a parameter range that must reach the parameter
/// t* where x(t*) = 1/2 (the lower half on [0, lower], the mirrored upper half on [0, upper]):
/// a range that falls short would leave the x next to 1/2 to an extrapolated segment. The ends
/// come from an interpolated estimate widened by a margin, or from t* itself where the widened
/// estimate does not bracket 1/2. These tests check the ends against t* from the independent
/// Float80 reference, on random and degenerate curves.
final class BezierSplitTests: XCTestCase {
    /// The margin the ends may add beyond t* (twice `SplitGrid.margin`, 2^-8: the estimate
    /// can sit a margin to the other side).
    static let widest = 2 * 0x1p-8

    /// t* in Float80 (the reference's bracket for x = 1/2).
    static func split(_ x1: Double, _ x2: Double) -> Float80 {
        let (lo, hi) = BezierReference80(x1, 0, x2, 1).parameter(for: 0.5)
        return (lo + hi) / 2
    }

    /// Checks one curve's ends; returns whether they are t* itself (lower + upper = 1).
    @discardableResult
    static func check(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                      file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let curve = try CubicBezier(x1, y1, x2, y2)
        guard let ends = curve.table.halfEnds else { return false }
        let t = split(x1, x2)
        let label = "cubic-bezier(\(x1), \(y1), \(x2), \(y2)): ends \(ends), t* \(t)"
        // Reaching t*: x(lower) ≥ 1/2 and x(1 − upper) ≤ 1/2, within 2^-44 in x (the exact
        // split is solved to 2^-45 in x, which next to the triple root is far more in t).
        let reference = BezierReference80(x1, 0, x2, 1)
        XCTAssertGreaterThanOrEqual(reference.signOfXMinus(0.5 - 0x1p-44, at: Float80(ends.lower)), 0, label,
                                    file: file, line: line)
        XCTAssertLessThanOrEqual(reference.signOfXMinus(0.5 + 0x1p-44, at: 1 - Float80(ends.upper)), 0, label,
                                 file: file, line: line)
        // Not much beyond it: the segments stay as narrow as the exact split's, within the margin.
        XCTAssertLessThanOrEqual(Float80(ends.lower), t + Float80(widest), label, file: file, line: line)
        XCTAssertLessThanOrEqual(Float80(ends.upper), 1 - t + Float80(widest), label, file: file, line: line)
        XCTAssertLessThanOrEqual(ends.lower, 1, label, file: file, line: line)
        XCTAssertLessThanOrEqual(ends.upper, 1, label, file: file, line: line)
        return abs(ends.lower + ends.upper - 1) < 0x1p-40
    }

    func testEndsReachTheSplitOnRandomCurves() throws {
        var rng = SeededRandom(seed: 0x5350_4C49_54)
        var exact = 0
        let count = 20_000
        for _ in 0 ..< count {
            let x1 = rng.unit(), x2 = rng.unit()
            if try Self.check(x1, rng.uniform(-1, 2), x2, rng.uniform(-1, 2)) { exact += 1 }
        }
        // The interpolated estimate serves almost every curve (the rest take the exact split).
        XCTAssertLessThan(exact, count / 20, "\(exact) of \(count) random curves took the exact split")
    }

    func testEndsReachTheSplitOnDegenerateAndGridCurves() throws {
        var xs: [Double] = [0, 1, 1e-9, 1 - 1e-9, 1e-300, 0.5, 1.0 / 3, 2.0 / 3, 0.95, 0.99, 0.999, 0.05, 0.01, 0.001]
        // The grid's points and their neighbours, where the interpolation changes cell.
        for k in 0 ... 32 {
            let g = Double(k) / 32
            xs += [g, g.nextUp, g.nextDown].filter { $0 >= 0 && $0 <= 1 }
        }
        for x1 in xs {
            for x2 in xs { try Self.check(x1, 0.3, x2, 0.8) }
        }
        // Symmetric curves (x1 + x2 = 1) split at 1/2 exactly, their inflection point.
        for x1 in [0.42, 0.9, 0.95, 0.99, 0.999, 1, 0.25, 0.5, 1e-9] {
            let x2 = 1 - x1
            guard x1 + x2 == 1 else { continue }
            try Self.check(x1, 0.1, x2, 0.9)
            let ends = try XCTUnwrap(CubicBezier(x1, 0.1, x2, 0.9).table.halfEnds)
            XCTAssertEqual(ends.lower, 0.5, "x1 \(x1)")
            XCTAssertEqual(ends.upper, 0.5, "x1 \(x1)")
        }
        // Towards the triple root (1, 0, 0, 1), where t* moves fastest with the control points.
        var d = 0.1
        while d >= 1e-15 {
            try Self.check(1 - d, 0, 0, 1)
            try Self.check(1, 0, d, 1)
            try Self.check(1 - d / 2, 0, d / 2, 1)
            try Self.check(1 - d, 0.2, d / 3, 0.9)
            d /= 3
        }
    }

    /// Values against the Float80 reference at x, within 1e-12 · max(1, |y1|, |y2|), with the
    /// solve table and without it (a fresh curve evaluates each x before its table exists).
    static func checkValues(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at xs: [Double],
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = BezierReference80(x1, y1, x2, y2)
        let bound = 1e-12 * max(1, abs(y1), abs(y2))
        let hot = try CubicBezier(x1, y1, x2, y2)
        for _ in 0 ..< 70 { _ = hot.value(at: 0.3) }
        XCTAssertTrue(hot.table.hasSolveTable)
        for x in xs {
            let fresh = try CubicBezier(x1, y1, x2, y2).value(at: x)
            let expected = reference.value(at: x)
            for value in [fresh, hot.value(at: x)] {
                XCTAssertLessThanOrEqual(abs(value - expected), bound,
                                         "cubic-bezier(\(x1), \(y1), \(x2), \(y2)) at \(x): \(value), expected \(expected)",
                                         file: file, line: line)
            }
        }
    }

    /// x at and next to 1/2, where a half's range ends.
    static let aroundHalf: [Double] = {
        var xs: [Double] = [0.5]
        var up = 0.5, down = 0.5
        for _ in 0 ..< 4 { up = up.nextUp; down = down.nextDown; xs += [up, down] }
        for d in [1e-15, 1e-13, 1e-11, 1e-9, 1e-7, 1e-5, 1e-3, 1e-2] { xs += [0.5 + d, 0.5 - d] }
        return xs
    }()

    /// Symmetric curves whose x1 + x2 only rounds to 1: their ends are 1/2, a hair off the
    /// split, which the Newton step covers.
    func testSymmetricCurvesWithAnInexactSumAreExactAroundTheSplit() throws {
        var rng = SeededRandom(seed: 0x5359_4D)
        var curves: [(Double, Double)] = [(1.0.nextDown, 0x1p-53 - 0x1p-60), (0.7, 0.3), (0.95, 0.05), (0.99, 0.01)]
        while curves.count < 24 {
            let x1 = rng.uniform(0.5, 1)
            for x2 in [(1 - x1).nextDown, (1 - x1).nextUp] where x1 + x2 == 1 && x2 >= 0 { curves.append((x1, x2)) }
        }
        var inexact = 0
        for (x1, x2) in curves where x1 + x2 == 1 {
            if (Float80(x1) + Float80(x2)) != 1 { inexact += 1 }
            XCTAssertEqual(try CubicBezier(x1, 0, x2, 1).table.halfEnds?.lower, 0.5)
            try Self.checkValues(x1, 0, x2, 1, at: Self.aroundHalf)
            try Self.checkValues(x1, 0.2, x2, 0.7, at: Self.aroundHalf)
        }
        XCTAssertGreaterThan(inexact, 10, "the set must hold curves whose sum is not exactly 1")
    }

    /// Steep curves that are not symmetric: their halves reach past the split (or take it
    /// exactly), and the last segments, next to the steepest point, are flagged.
    func testSteepAsymmetricCurvesAreExactAroundTheSplit() throws {
        let curves: [(Double, Double, Double, Double)] = [
            (0.95, 0.05, 0.06, 0.95), (0.9, 0, 0.12, 1), (0.99, 0.2, 0.02, 0.8), (0.97, 0, 0.01, 1),
            (0.999, 0.1, 0.003, 0.9), (0.8, 0.3, 0.25, 0.6), (0.6, -0.5, 0.45, 1.5),
        ]
        var xs = Self.aroundHalf
        for k in 0 ... 200 { xs.append(0.45 + 0.1 * Double(k) / 200) }
        for (x1, y1, x2, y2) in curves { try Self.checkValues(x1, y1, x2, y2, at: xs) }
    }

    /// No inner node of a half passes x = 1/2: the look-up's segments stay as they were.
    func testInnerNodesStayOnTheirSideOfOneHalf() throws {
        var rng = SeededRandom(seed: 0x4E_4F44)
        for _ in 0 ..< 5_000 {
            let curve = try CubicBezier(rng.unit(), rng.uniform(-1, 2), rng.unit(), rng.uniform(-1, 2))
            let nodes = curve.table.nodeXs
            guard !nodes.isEmpty else { continue }
            let half = nodes.count / 2
            XCTAssertTrue(nodes[..<half].allSatisfy { $0 < 0.5 }, "\(curve): \(nodes)")
            XCTAssertTrue(nodes[half...].allSatisfy { $0 > 0.5 }, "\(curve): \(nodes)")
        }
    }
}
