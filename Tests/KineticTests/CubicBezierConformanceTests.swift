import Kinetic
import XCTest
import TestSupport

/// Public conformance vectors for `CubicBezier` (data and provenance in `ConformanceVectors.swift`):
/// Chromium's `cubic_bezier_unittest.cc`, the web-platform-tests cubic-bezier easing tests, and the
/// properties asserted by gre/bezier-easing's test suite. Each vector is checked at its source's
/// tolerance and, in [0, 1], also against an independent 50-digit mpmath value to 1e-12.
final class CubicBezierConformanceTests: XCTestCase {
    typealias V = ConformanceVectors

    /// Kinetic's accuracy contract in [0, 1] (absolute).
    static let exactTolerance = 1e-12

    private func make(_ c: V.Curve, file: StaticString = #filePath, line: UInt = #line) throws -> CubicBezier {
        do {
            return try CubicBezier(c.x1, c.y1, c.x2, c.y2)
        } catch {
            XCTFail("construction of \(c) threw \(error)", file: file, line: line)
            throw error
        }
    }

    /// Asserts `|actual - expected| <= tolerance` with a message naming curve and input.
    private func assertClose(_ actual: Double, _ expected: Double, _ tolerance: Double, _ what: @autoclosure () -> String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let ok = abs(actual - expected) <= tolerance
        if !ok {
            XCTFail("\(what()): expected \(expected) ± \(tolerance), got \(actual) (error \(abs(actual - expected)))",
                    file: file, line: line)
        }
    }

    // MARK: - Chromium ui/gfx/geometry/cubic_bezier_unittest.cc

    /// CubicBezierTest.Basic: (0.25, 0, 0.75, 1) at 20 inputs, EXPECT_NEAR 0.00015.
    func testChromiumBasic() throws {
        let curve = try make(V.chromiumBasicCurve)
        XCTAssertEqual(V.chromiumBasic.count, 20)
        for s in V.chromiumBasic {
            let y = curve.value(at: s.x)
            assertClose(y, s.source, 0.00015, "Chromium Basic \(V.chromiumBasicCurve) at x = \(s.x)")
            assertClose(y, s.exact, Self.exactTolerance, "exact \(V.chromiumBasicCurve) at x = \(s.x)")
        }
    }

    /// CubicBezierTest.UnclampedYValues: (0.5, -1, 0.5, 2) at 21 inputs, EXPECT_NEAR 0.00015.
    func testChromiumUnclampedYValues() throws {
        let curve = try make(V.chromiumUnclampedCurve)
        XCTAssertEqual(V.chromiumUnclamped.count, 21)
        for s in V.chromiumUnclamped {
            let y = curve.value(at: s.x)
            assertClose(y, s.source, 0.00015, "Chromium UnclampedYValues \(V.chromiumUnclampedCurve) at x = \(s.x)")
            assertClose(y, s.exact, Self.exactTolerance, "exact \(V.chromiumUnclampedCurve) at x = \(s.x)")
        }
    }

    /// CubicBezierTest.Basic (basic_use, overshoot, undershoot at 0.5) and CubicBezierTest.InputOutOfRange
    /// (13 curves including SolveWithEpsilon, which has no counterpart here): EXPECT_EQ, exact.
    func testChromiumExactSolvesAndInputOutOfRange() throws {
        XCTAssertEqual(V.chromiumExact.count, 25)
        for v in V.chromiumExact {
            let curve = try make(v.curve)
            XCTAssertEqual(curve.value(at: v.x), v.expected, "Chromium \(v.name) \(v.curve) at x = \(v.x)")
        }
    }

    /// CubicBezierTest.Slope: dy/dx of (0.25, 0, 0.75, 1) at 23 inputs (two outside [0, 1]), EXPECT_NEAR 0.00015.
    func testChromiumSlope() throws {
        let curve = try make(V.chromiumBasicCurve)
        XCTAssertEqual(V.chromiumSlope.count, 23)
        for s in V.chromiumSlope {
            let m = curve.slope(at: s.x)
            assertClose(m, s.source, 0.00015, "Chromium Slope \(V.chromiumBasicCurve) at x = \(s.x)")
            assertClose(m, s.exact, Self.exactTolerance, "exact slope \(V.chromiumBasicCurve) at x = \(s.x)")
        }
    }

    /// CubicBezierTest.Range: the y-range of the curve over [0, 1]. There is no range API here, so the range
    /// is measured by sampling `value(at:)` on a fine grid (error O(h²) at a smooth extremum), and each
    /// interior extremum is checked exactly at its own x.
    func testChromiumRange() throws {
        XCTAssertEqual(V.chromiumRange.count, 11)
        let n = 8192
        for r in V.chromiumRange {
            let curve = try make(r.curve)
            var lo = Double.infinity, hi = -Double.infinity
            for i in 0...n {
                let y = curve.value(at: Double(i) / Double(n))
                lo = min(lo, y); hi = max(hi, y)
            }
            // Chromium: EXPECT_EQ for 0 / 1 (no excursion), EXPECT_NEAR 0.00015 otherwise.
            assertClose(lo, r.chromiumMin, r.chromiumMin == 0 ? Self.exactTolerance : 0.00015, "Chromium range_min \(r.curve)")
            assertClose(hi, r.chromiumMax, r.chromiumMax == 1 ? Self.exactTolerance : 0.00015, "Chromium range_max \(r.curve)")
            // No sample may leave the exact range.
            XCTAssertGreaterThanOrEqual(lo, r.exactMin - Self.exactTolerance, "sample below exact minimum of \(r.curve)")
            XCTAssertLessThanOrEqual(hi, r.exactMax + Self.exactTolerance, "sample above exact maximum of \(r.curve)")
            for e in r.extrema {
                assertClose(curve.value(at: e.x), e.y, Self.exactTolerance, "extremum of \(r.curve) at x = \(e.x)")
            }
        }
    }

    /// CubicBezierTest.GetPoints: control points read back unchanged; Chromium's out-of-range `cubic_oor`
    /// (-0.5, -1.5, 1.5, -1.6) is rejected here at construction, naming x1.
    func testChromiumGetPoints() throws {
        for c in [V.C(0.1, 0.2, 0.8, 0.9), V.C(0, 0, 0, 0), V.C(1, 1, 1, 1)] {
            let curve = try make(c)
            XCTAssertEqual(curve.x1, c.x1); XCTAssertEqual(curve.y1, c.y1)
            XCTAssertEqual(curve.x2, c.x2); XCTAssertEqual(curve.y2, c.y2)
        }
        XCTAssertThrowsError(try CubicBezier(-0.5, -1.5, 1.5, -1.6)) { error in
            XCTAssertEqual(error as? ParameterError, .outOfRange(parameter: "x1", value: -0.5, expected: "[0, 1]"))
        }
    }

    /// CubicBezierTest.ClampInfinityEvaluation: 16 curves with y1, y2 at ±greatestFiniteMagnitude evaluated at
    /// x = 0, 0.05, … accumulated in double as the C++ loop does (21 points; the last is 1.0000000000000002, just
    /// outside [0, 1]). Chromium asserts Solve and Slope are finite. Here `value(at:)` must be finite, as the exact
    /// value is: inside [0, 1] it is a convex combination of 0, y1, y2, 1, and at 1.0000000000000002 it is
    /// 1 + gradient · 2.2e-16 even where the gradient itself overflows a double (Chromium clamps with ToFinite);
    /// `slope(at:)` is documented to return ±infinity where the tangent is vertical or dy/dx overflows, so only
    /// "not NaN" is asserted for it.
    func testChromiumClampInfinityEvaluation() throws {
        let big = Double.greatestFiniteMagnitude, low = -Double.greatestFiniteMagnitude
        let curves: [V.Curve] = [
            V.C(0.5, big, 0.5, big), V.C(0.5, low, 0.5, big), V.C(0.5, big, 0.5, low), V.C(0.5, low, 0.5, low),
            V.C(0, big, 0, big), V.C(0, low, 0, big), V.C(0, big, 0, low), V.C(0, low, 0, low),
            V.C(1, big, 1, big), V.C(1, low, 1, big), V.C(1, big, 1, low), V.C(1, low, 1, low),
            V.C(0, 0, 0, big), V.C(0, low, 0, 0), V.C(1, 0, 0, low), V.C(0, low, 1, 1),
        ]
        var xs: [Double] = []
        var i = 0.0
        while i <= 1.01 { xs.append(i); i += 0.05 }
        XCTAssertEqual(xs.count, 21)
        XCTAssertEqual(xs.last, 1.0000000000000002)
        for c in curves {
            let curve = try make(c)
            XCTAssertEqual(curve.y1, c.y1); XCTAssertEqual(curve.y2, c.y2)
            // One message per curve (not per point) so a failure stays readable.
            let badValues = xs.filter { !curve.value(at: $0).isFinite }
            let nanSlopes = xs.filter { curve.slope(at: $0).isNaN }
            if let x = badValues.first {
                XCTFail("value(at:) of \(c) is not finite at \(badValues.count) of \(xs.count) inputs; "
                        + "e.g. value(at: \(x)) = \(curve.value(at: x))")
            }
            if let x = nanSlopes.first {
                XCTFail("slope(at:) of \(c) is NaN at \(nanSlopes.count) of \(xs.count) inputs, e.g. x = \(x)")
            }
        }
    }

    /// Companion to ClampInfinityEvaluation: finite is not enough, the values must be right. Exact (mpmath) values
    /// for curves with |y1|, |y2| up to greatestFiniteMagnitude; tolerance 1e-12 relative to the control values'
    /// scale (at x = 0.5 on (0.5, -max, 0.5, max) the exact 0.125 is the difference of two ±6.7e307 terms).
    func testHugeControlValuesAreExact() throws {
        for entry in V.hugeY {
            let c = entry.curve
            let curve = try make(c)
            let tolerance = Self.exactTolerance * max(1, abs(c.y1), abs(c.y2))
            let wrong = entry.rows.compactMap { row -> String? in
                let y = curve.value(at: row.x)
                return abs(y - row.y) <= tolerance ? nil : "x = \(row.x): expected \(row.y), got \(y)"
            }
            if !wrong.isEmpty {
                XCTFail("\(c) (tolerance \(tolerance)): " + wrong.joined(separator: "; "))
            }
        }
    }

    /// validateSolver (CommonEasingFunctions, LinearEquivalentBeziers, ControlPointsOutsideUnitSquare):
    /// Chromium solves x = Bx(t) back for t within 1e-5. With no access to t here, the same round trip is
    /// checked on y: |value(at: x) − By(t)| ≤ 1e-5 · L, L = 3·max(|y1|, |y2 − y1|, |1 − y2|) bounding |dy/dt|;
    /// and exactly against y at the (rounded) x.
    func testChromiumValidateSolver() throws {
        XCTAssertEqual(V.chromiumValidateSolver.count, 10)
        for entry in V.chromiumValidateSolver {
            let c = entry.curve
            let curve = try make(c)
            let lipschitz = 3 * max(abs(c.y1), abs(c.y2 - c.y1), abs(1 - c.y2))
            XCTAssertEqual(entry.rows.count, 20)
            for row in entry.rows {
                let y = curve.value(at: row.x)
                assertClose(y, row.yOfT, 1e-5 * lipschitz + 1e-15, "Chromium \(entry.name) \(c) at t = \(row.t)")
                assertClose(y, row.y, Self.exactTolerance, "exact \(entry.name) \(c) at x = \(row.x)")
            }
        }
    }

    /// Extrapolation with Chromium semantics (InitGradients + Solve/Slope outside [0, 1]) on 38 curves at
    /// 11 inputs each, including the coincident-control-point, vertical-tangent and linear-equivalent cases.
    func testChromiumExtrapolationSemantics() throws {
        XCTAssertEqual(V.extrapolation.count, 38)
        for e in V.extrapolation {
            let curve = try make(e.curve)
            XCTAssertEqual(curve.slope(at: -0.5), e.startGradient, accuracy: 1e-15 * max(1, abs(e.startGradient)),
                           "start gradient of \(e.curve)")
            XCTAssertEqual(curve.slope(at: 1.5), e.endGradient, accuracy: 1e-15 * max(1, abs(e.endGradient)),
                           "end gradient of \(e.curve)")
            for (x, expected) in zip(V.extrapolationXs, e.ys) {
                let y = curve.value(at: x)
                // Two roundings (gradient, then product) against one: a few ulps.
                assertClose(y, expected, 1e-15 * max(1, abs(expected)), "extrapolated \(e.curve) at x = \(x)")
            }
        }
    }

    // MARK: - web-platform-tests

    /// gEasingTests (easing-tests.js) cubic-bezier entries sampled as transformed-progress.html (0.01) and
    /// effect-value-transformed-distance.html (2e-4) do; expected values exact (WPT uses its JS oracle).
    func testWPTEasingTests() throws {
        XCTAssertEqual(V.wptEasingTests.count, 7)
        for entry in V.wptEasingTests {
            let curve = try make(entry.curve)
            for row in entry.rows {
                let y = curve.value(at: row.x)
                assertClose(y, row.y, row.tolerance, "WPT \(entry.name) at \(row.x)")
                assertClose(y, row.y, Self.exactTolerance, "exact \(entry.name) at \(row.x)")
            }
        }
    }

    /// easing-tests.js names the CSS keywords' curves; the presets must be exactly those.
    func testWPTKeywordCurvesMatchPresets() throws {
        let expected: [(String, V.Curve)] = [
            ("linear", V.C(0, 0, 1, 1)), ("ease", V.C(0.25, 0.1, 0.25, 1)), ("ease-in", V.C(0.42, 0, 1, 1)),
            ("ease-out", V.C(0, 0, 0.58, 1)), ("ease-in-out", V.C(0.42, 0, 0.58, 1)),
        ]
        let presets = Dictionary(uniqueKeysWithValues: CubicBezier.presets.map { ($0.name, $0.curve) })
        XCTAssertEqual(presets.count, 5)
        for (name, c) in expected {
            let p = try XCTUnwrap(presets[name], "preset \(name)")
            XCTAssertEqual([p.x1, p.y1, p.x2, p.y2], [c.x1, c.y1, c.x2, c.y2], name)
        }
        XCTAssertEqual(CubicBezier.linear, presets["linear"])
        XCTAssertEqual(CubicBezier.ease, presets["ease"])
        XCTAssertEqual(CubicBezier.easeIn, presets["ease-in"])
        XCTAssertEqual(CubicBezier.easeOut, presets["ease-out"])
        XCTAssertEqual(CubicBezier.easeInOut, presets["ease-in-out"])
    }

    /// A curve made with a preset's control points (as UIKit's timing parameters, a JSON
    /// file or a C caller spell them) shares the preset's table, and a copy shares its
    /// curve's; a near-miss by one ulp builds its own.
    func testCurvesEqualToAPresetShareItsTable() throws {
        for (name, preset) in CubicBezier.presets {
            let made = try CubicBezier(preset.x1, preset.y1, preset.x2, preset.y2)
            XCTAssertTrue(made.table === preset.table, name)
            let parsed = try CubicBezier(parsing: "\(preset.x1), \(preset.y1), \(preset.x2), \(preset.y2)")
            XCTAssertTrue(parsed.table === preset.table, "\(name) parsed from numbers")
            let near = try CubicBezier(preset.x1, preset.y1.nextUp, preset.x2, preset.y2)
            XCTAssertFalse(near.table === preset.table, name)
            XCTAssertEqual(near.value(at: 0.3), preset.value(at: 0.3), accuracy: 1e-12, name)
        }
        let negativeZero = try CubicBezier(0.42, -0.0, 1, 1)
        XCTAssertTrue(negativeZero.table === CubicBezier.easeIn.table)
        XCTAssertEqual(negativeZero.y1.sign, .minus)
        let custom = try CubicBezier(0.3, 0.1, 0.3, 1)
        let copy = custom
        XCTAssertTrue(copy.table === custom.table)
    }

    /// effect-value-transformed-distance.html: the linear-equivalent keyframe easings cubic-bezier(0, 0, 0, 0)
    /// and cubic-bezier(1, 1, 1, 1) applied on top of every gEasingTests curve at 0, 250, 500, 750, 1000 ms must
    /// not alter (or clamp) the result: assert_equals, so bit-exact here, including outputs outside [0, 1].
    func testWPTLinearEquivalentEasingsDoNotAlter() throws {
        let equivalents = [try make(V.C(0, 0, 0, 0)), try make(V.C(1, 1, 1, 1))]
        for entry in V.wptEasingTests {
            let curve = try make(entry.curve)
            for p in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let progress = curve.value(at: p)
                for eq in equivalents {
                    XCTAssertEqual(eq.value(at: progress).bitPattern, progress.bitPattern,
                                   "\(eq) applied to \(entry.name)(\(p)) = \(progress)")
                }
            }
        }
    }

    /// cubic-bezier-timing-functions-output.html: keyframe easing applied to an effect easing's output outside
    /// [0, 1] extrapolates along the keyframe curve's end tangent (flat where it is vertical).
    /// WPT tolerance: 0.01 px of 100 px.
    func testWPTCompositeExtrapolation() throws {
        XCTAssertEqual(V.wptComposite.count, 4)
        for entry in V.wptComposite {
            let effect = try make(entry.effect), keyframe = try make(entry.keyframe)
            for row in entry.rows {
                let y = keyframe.value(at: effect.value(at: row.x))
                assertClose(y, row.y, 1e-4, "WPT \(entry.name) at \(row.x)")
                // The inner error (≤ 1e-12) is scaled by the outer slope (≤ 2 here, 0 when flat).
                assertClose(y, row.y, 3 * Self.exactTolerance, "exact \(entry.name) at \(row.x)")
            }
        }
    }

    /// The crossing points stated in the WPT comments: (0, 1.5, 1, 1.5) exceeds 1 on (0.23368794, 1) and
    /// (0, -0.5, 1, -0.5) is negative on (0, 0.766312060).
    func testWPTCrossingPoints() throws {
        for c in V.wptCrossings {
            XCTAssertEqual(c.x, c.wptX, accuracy: 1e-8, "vector agrees with the WPT comment")
            let curve = try make(c.curve)
            assertClose(curve.value(at: c.x), c.level, Self.exactTolerance, "\(c.curve) at its crossing \(c.x)")
            let before = curve.value(at: c.x - 1e-6), after = curve.value(at: c.x + 1e-6)
            if c.level == 1 {
                XCTAssertLessThan(before, 1, "\(c.curve) just before \(c.x)")
                XCTAssertGreaterThan(after, 1, "\(c.curve) just after \(c.x)")
                XCTAssertGreaterThan(curve.value(at: 0.999), 1, "\(c.curve) stays above 1 until 1")
            } else {
                XCTAssertLessThan(before, 0, "\(c.curve) just before \(c.x)")
                XCTAssertGreaterThan(after, 0, "\(c.curve) just after \(c.x)")
                XCTAssertLessThan(curve.value(at: 0.001), 0, "\(c.curve) is negative from 0")
            }
        }
    }

    /// gInvalidEasings (cubic-bezier entries) are rejected naming the offending x; gRoundtripEasings'
    /// cubic-bezier(0.1, 5, 0.23, 0) is valid (y may leave [0, 1]).
    func testWPTInvalidAndRoundtripEasings() throws {
        let invalid: [(V.Curve, String, Double)] = [
            (V.C(1.1, 0, 1, 1), "x1", 1.1), (V.C(0, 0, 1.1, 1), "x2", 1.1), (V.C(-0.1, 0, 1, 1), "x1", -0.1),
            (V.C(0, 0, -0.1, 1), "x2", -0.1), (V.C(0.1, 0, 4, 0.4), "x2", 4),
        ]
        for (c, name, value) in invalid {
            XCTAssertThrowsError(try CubicBezier(c.x1, c.y1, c.x2, c.y2), "\(c)") { error in
                XCTAssertEqual(error as? ParameterError, .outOfRange(parameter: name, value: value, expected: "[0, 1]"))
            }
        }
        let roundtrip = try make(V.C(0.1, 5, 0.23, 0))
        XCTAssertEqual(roundtrip.y1, 5)
        XCTAssertEqual(roundtrip.value(at: 0), 0)
        XCTAssertEqual(roundtrip.value(at: 1), 1)
    }

    // MARK: - gre/bezier-easing test/test.js properties

    /// "should fail with wrong arguments": x outside [0, 1] (both old and new suites) and NaN / Infinity.
    func testBezierEasingRejectsWrongArguments() {
        let outOfRange: [(V.Curve, String, Double)] = [
            (V.C(0.5, 0.5, -5, 0.5), "x2", -5), (V.C(0.5, 0.5, 5, 0.5), "x2", 5),
            (V.C(-2, 0.5, 0.5, 0.5), "x1", -2), (V.C(2, 0.5, 0.5, 0.5), "x1", 2),
        ]
        for (c, name, value) in outOfRange {
            XCTAssertThrowsError(try CubicBezier(c.x1, c.y1, c.x2, c.y2), "\(c)") { error in
                XCTAssertEqual(error as? ParameterError, .outOfRange(parameter: name, value: value, expected: "[0, 1]"))
            }
        }
        XCTAssertThrowsError(try CubicBezier(1, 0, 1, .nan)) { error in
            guard case .notFinite(let name, let value)? = error as? ParameterError else {
                return XCTFail("expected notFinite, got \(error)")
            }
            XCTAssertEqual(name, "y2"); XCTAssertTrue(value.isNaN)
        }
        XCTAssertThrowsError(try CubicBezier(1, 0, 1, .infinity)) { error in
            XCTAssertEqual(error as? ParameterError, .notFinite(parameter: "y2", value: .infinity))
        }
    }

    /// "should be linear": (0, 0, 1, 1) and (1, 1, 0, 0) equal the identity at i/100 (to 1e-6 there; bit-exact here).
    func testBezierEasingLinearCurves() throws {
        for c in [V.C(0, 0, 1, 1), V.C(1, 1, 0, 0)] {
            let curve = try make(c)
            for i in 0...100 {
                let x = Double(i) / 100
                let y = curve.value(at: x)
                assertClose(y, x, 1e-6, "bezier-easing linear \(c) at \(x)")
                XCTAssertEqual(y.bitPattern, x.bitPattern, "\(c) is the identity at \(x)")
            }
        }
    }

    /// "should be the right value at extremes": 1000 random curves, x1, x2 in [0, 1), y1, y2 in [-0.5, 1.5):
    /// value(0) == 0 and value(1) == 1 exactly.
    func testBezierEasingExtremes() throws {
        var rng = SeededRandom(seed: 0xB321E5)
        for _ in 0..<1000 {
            let c = V.C(rng.unit(), 2 * rng.unit() - 0.5, rng.unit(), 2 * rng.unit() - 0.5)
            let curve = try make(c)
            XCTAssertEqual(curve.value(at: 0), 0, "\(c) at 0")
            XCTAssertEqual(curve.value(at: 1), 1, "\(c) at 1")
        }
    }

    /// "should approach the projected value of its x=y projected curve": for control points in [0, 1] the curve
    /// (y1, x1, y2, x2) is the inverse function, so projected(easing(x)) = x. bezier-easing allows 0.05 (its
    /// FIXME admits imprecision at extreme slopes); here the error may only be the 1e-12 value error amplified
    /// by the inverse's slope, which is bounded by measuring it with a finite difference of the inverse.
    func testBezierEasingProjectedInverse() throws {
        var rng = SeededRandom(seed: 0x1DE517)
        var worst = 0.0
        for _ in 0..<1000 {
            let (a, b, c, d) = (rng.unit(), rng.unit(), rng.unit(), rng.unit())
            let easing = try make(V.C(a, b, c, d)), projected = try make(V.C(b, a, d, c))
            for i in 0...100 {
                let x = Double(i) / 100
                let y = easing.value(at: x)
                let back = projected.value(at: y)
                assertClose(back, x, 0.05, "bezier-easing projected \(easing) at \(x)")
                // Local slope of the inverse near y (secant over ±1e-6, clamped to [0, 1]).
                let lo = max(0, y - 1e-6), hi = min(1, y + 1e-6)
                let secant = hi > lo ? abs(projected.value(at: hi) - projected.value(at: lo)) / (hi - lo) : 1
                let bound = Self.exactTolerance * (2 + 2 * secant)
                worst = max(worst, abs(back - x) / bound)
                assertClose(back, x, bound, "inverse \(projected) of \(easing) at \(x)")
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// "symetric curves": (a, b, 1 − a, 1 − b) has value 0.5 at 0.5 (5e-4 there) and easing(x) = 1 − easing(1 − x)
    /// at i/100 (1e-6 there). 1 − a and 1 − x round, so the tight check allows that rounding times the slope.
    func testBezierEasingSymmetricCurves() throws {
        var rng = SeededRandom(seed: 0x5E7713)
        for _ in 0..<100 {
            let a = rng.unit(), b = 2 * rng.unit() - 0.5
            let easing = try make(V.C(a, b, 1 - a, 1 - b))
            assertClose(easing.value(at: 0.5), 0.5, 0.0005, "bezier-easing symmetric \(easing) at 0.5")
            assertClose(easing.value(at: 0.5), 0.5, 1e-10, "symmetric \(easing) at 0.5")
            for i in 0...100 {
                let x = Double(i) / 100
                let y = easing.value(at: x), mirrored = 1 - easing.value(at: 1 - x)
                assertClose(y, mirrored, 1e-6, "bezier-easing symmetric \(easing) at \(x)")
                assertClose(y, mirrored, 1e-10, "symmetric \(easing) at \(x)")
            }
        }
    }

    // MARK: - Construction, exact ends, identity, batch API

    /// Any non-finite coordinate throws notFinite naming it (even where the value would also be out of range).
    func testConstructionRejectsNonFinite() {
        let names = ["x1", "y1", "x2", "y2"]
        for index in 0..<4 {
            for bad in [Double.nan, .infinity, -.infinity, -Double.signalingNaN] {
                var p = [0.25, 0.1, 0.25, 1.0]
                p[index] = bad
                XCTAssertThrowsError(try CubicBezier(p[0], p[1], p[2], p[3]), "\(p)") { error in
                    guard case .notFinite(let name, let value)? = error as? ParameterError else {
                        return XCTFail("\(p): expected notFinite, got \(error)")
                    }
                    XCTAssertEqual(name, names[index], "\(p)")
                    XCTAssertEqual(value.isNaN, bad.isNaN, "\(p)")
                    if !bad.isNaN { XCTAssertEqual(value, bad, "\(p)") }
                }
            }
        }
    }

    /// x1 and x2 must lie in [0, 1] (inclusive, -0.0 counts as 0); y1, y2 may be any finite value.
    func testConstructionRangeOfX() throws {
        let outside = [-1e-300, -Double.leastNonzeroMagnitude, -0.1, 1.0000000000000002, 1.5, 1e300,
                       -Double.greatestFiniteMagnitude]
        for v in outside {
            XCTAssertThrowsError(try CubicBezier(v, 0, 1, 1)) { error in
                XCTAssertEqual(error as? ParameterError, .outOfRange(parameter: "x1", value: v, expected: "[0, 1]"))
            }
            XCTAssertThrowsError(try CubicBezier(0, 0, v, 1)) { error in
                XCTAssertEqual(error as? ParameterError, .outOfRange(parameter: "x2", value: v, expected: "[0, 1]"))
            }
        }
        XCTAssertThrowsError(try CubicBezier(1.5, 0, 1.5, 1)) { error in
            XCTAssertEqual((error as? ParameterError)?.parameter, "x1", "x1 is checked first")
        }
        for v in [0.0, -0.0, Double.leastNonzeroMagnitude, 0.5, 1.0.nextDown, 1.0] {
            XCTAssertNoThrow(try CubicBezier(v, -1e300, v, 1e300), "x = \(v)")
        }
        let error = ParameterError.outOfRange(parameter: "x1", value: 1.5, expected: "[0, 1]")
        XCTAssertEqual(error.description, "x1 = 1.5 is outside [0, 1]")
    }

    /// y(0) == 0 and y(1) == 1 exactly for every curve in the tables and 2000 random ones (y up to ±10).
    func testExactEndPoints() throws {
        var curves: [V.Curve] = V.extrapolation.map(\.curve)
        curves += V.chromiumValidateSolver.map(\.curve) + V.chromiumRange.map(\.curve)
        curves += [V.C(1, 0, 0, 1), V.C(0, 1, 1, 0), V.C(1e-300, 5, 1 - 1e-16, -5), V.C(0.5, 1e10, 0.5, -1e10)]
        var rng = SeededRandom(seed: 0xE0D5)
        for _ in 0..<2000 {
            curves.append(V.C(rng.unit(), 20 * rng.unit() - 10, rng.unit(), 20 * rng.unit() - 10))
        }
        for c in curves {
            let curve = try make(c)
            XCTAssertEqual(curve.value(at: 0), 0, "\(c) at 0")
            XCTAssertEqual(curve.value(at: 1), 1, "\(c) at 1")
            XCTAssertEqual(curve.value(at: -0.0), 0, "\(c) at -0")
        }
    }

    /// The linear curve (and any curve with x1 == y1, x2 == y2) is the identity bit for bit, inside and outside
    /// [0, 1].
    func testLinearIsIdentityBitExact() throws {
        var xs: [Double] = (0...4096).map { Double($0) / 4096 }
        xs += [1e-300, Double.leastNonzeroMagnitude, 0.1, 0.2, 0.3, 1.0.nextDown, 0.5.nextUp, 1.0 / 3.0]
        xs += [-0.5, -1, -1e-3, -123.456, 1.0.nextUp, 1.001, 1.5, 2, 3.75, 1e6]
        var rng = SeededRandom(seed: 0x1D)
        for _ in 0..<2000 { xs.append(rng.unit()) }
        let identities = [CubicBezier.linear, try make(V.C(0, 0, 0, 0)), try make(V.C(1, 1, 1, 1)),
                          try make(V.C(0.3, 0.3, 0.7, 0.7)), try make(V.C(1, 1, 0, 0)), try make(V.C(0.9, 0.9, 0.2, 0.2))]
        for curve in identities {
            for x in xs {
                XCTAssertEqual(curve.value(at: x).bitPattern, x.bitPattern, "\(curve) at \(x)")
            }
            XCTAssertEqual(curve.values(at: xs).map(\.bitPattern), xs.map(\.bitPattern), "\(curve) batch")
        }
    }

    /// `values(at:)`, `values(at:into:)` and `evaluate(inPlace:)` agree with each other and with `value(at:)`:
    /// bit for bit while the curve has no batch table (one x at a time below 16 x, the solve table's
    /// vectorised kernel above) and outside [0, 1] (the same extrapolation), within 2e-13 · max(1, |y1|, |y2|)
    /// once the curve's batch calls have built its batch table (both are within 1e-12 · max(1, |y1|, |y2|) of the exact value, which
    /// CubicBezierAccuracyTests checks against Float80), exactly at 0 and 1. Lengths cover the SIMD tails and
    /// the 64-lane blocks; the calls run past the batch table's rule, so both regimes are covered.
    func testBatchAgreesWithScalar() throws {
        var rng = SeededRandom(seed: 0xBA7C4)
        let curves: [CubicBezier] = CubicBezier.presets.map(\.curve) + [
            try make(V.chromiumUnclampedCurve), try make(V.C(0, 4, 1, -3)), try make(V.C(1, 0, 0, 1)),
            try make(V.C(0, 1.5, 1, 1.5)), try make(V.C(0.5, 1, 0.5, 0)), try make(V.C(1, 0.5, 1, 1)),
            // Steep: its batch table flags segments near x = 1/2, whose lanes the solve kernel redoes.
            try make(V.C(0.9, 0.1, 0.1, 0.9)), try make(V.C(0.99, 0, 0.01, 1)),
        ]
        for curve in curves {
            var usedTable = false
            for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 64, 1000, 1023, 1024, 1025, 1027, 1087, 4099] {
                var xs: [Double] = (0..<count).map { _ in 1.4 * rng.unit() - 0.2 }
                if count >= 6 { xs[0] = 0; xs[1] = 1; xs[2] = -0.0; xs[3] = 0.5; xs[4] = .nan; xs[5] = 1e-300 }
                let scalar = xs.map { curve.value(at: $0) }
                let hadTable = curve.table.hasBatchTable
                let batch = curve.values(at: xs)
                var out = [Double](repeating: .nan, count: count)
                try xs.withUnsafeBufferPointer { src in
                    try out.withUnsafeMutableBufferPointer { dst in try curve.values(at: src, into: dst) }
                }
                var inPlace = xs
                inPlace.withUnsafeMutableBufferPointer { curve.evaluate(inPlace: $0) }
                let hasTable = curve.table.hasBatchTable
                let tableUsed = hasTable && count >= 16
                usedTable = usedTable || tableUsed
                if hadTable == hasTable {
                    XCTAssertEqual(out.map(\.bitPattern), batch.map(\.bitPattern), "\(curve) values(at:into:) n = \(count)")
                    XCTAssertEqual(inPlace.map(\.bitPattern), batch.map(\.bitPattern),
                                   "\(curve) evaluate(inPlace:) n = \(count)")
                }
                for (i, x) in xs.enumerated() {
                    for (name, got) in [("values(at:)", batch[i]), ("into", out[i]), ("in place", inPlace[i])] {
                        if !tableUsed || !(x >= 0 && x <= 1) || x == 0 || x == 1 || x.isNaN {
                            XCTAssertEqual(got.bitPattern, scalar[i].bitPattern, "\(curve) \(name) at \(x), n = \(count)")
                        } else {
                            XCTAssertLessThanOrEqual(abs(got - scalar[i]), 2e-13 * max(1, abs(curve.y1), abs(curve.y2)),
                                                     "\(curve) \(name) at \(x), n = \(count)")
                        }
                    }
                }
            }
            if curve == .ease || curve.x1 == 0.9 {
                XCTAssertTrue(usedTable, "\(curve): the batch table is built after 8,192 batch x")
            }
        }
    }

    /// `values(at:into:)` throws countMismatch naming the output when the lengths differ, and writes nothing.
    func testBatchCountMismatch() throws {
        let curve = CubicBezier.ease
        for (n, m) in [(3, 2), (2, 3), (0, 1), (1, 0), (17, 16)] {
            let xs = [Double](repeating: 0.5, count: n)
            var out = [Double](repeating: -7, count: m)
            var thrown: (any Error)?
            do {
                try xs.withUnsafeBufferPointer { src in
                    try out.withUnsafeMutableBufferPointer { dst in try curve.values(at: src, into: dst) }
                }
            } catch {
                thrown = error
            }
            XCTAssertEqual(thrown as? ParameterError, .countMismatch(parameter: "output", expected: n, actual: m),
                           "\(n) → \(m)")
            XCTAssertEqual(out, [Double](repeating: -7, count: m), "nothing written for \(n) → \(m)")
        }
    }
}

