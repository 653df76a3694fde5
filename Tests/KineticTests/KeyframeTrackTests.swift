import XCTest
import Kinetic

/// Keyframe tracks: interpolation kinds, Core Animation calculation modes, the builder,
/// the cursor, and bad input. Expected values come from plain formulas in the tests.
final class KeyframeTrackTests: XCTestCase {

    // MARK: Hold / discrete

    func testHoldShowsStartValueUntilNextKey() throws {
        let track = try KeyframeTrack(keyTimes: [0, 0.5, 1], values: [1.0, 2, 3], interpolation: .hold)
        XCTAssertEqual(track.value(at: 0), 1)
        XCTAssertEqual(track.value(at: 0.25), 1)
        XCTAssertEqual(track.value(at: 0.5.nextDown), 1, "discontinuous: still the start value just before the key")
        XCTAssertEqual(track.value(at: 0.5), 2)
        XCTAssertEqual(track.value(at: 1.0.nextDown), 2)
        XCTAssertEqual(track.value(at: 1), 3)
        XCTAssertEqual(track.value(at: -0.5), 1)
        XCTAssertEqual(track.value(at: 1.5), 3)
    }

    func testDiscreteWithCoreAnimationKeyTimeCount() throws {
        // Core Animation: one more key time than values; value i holds on [kt_i, kt_{i+1}).
        let track = try KeyframeTrack(
            values: [10.0, 20, 30], keyTimes: [0, 0.25, 0.75, 1], calculationMode: .discrete)
        XCTAssertEqual(track.value(at: 0.1), 10)
        XCTAssertEqual(track.value(at: 0.25.nextDown), 10)
        XCTAssertEqual(track.value(at: 0.25), 20)
        XCTAssertEqual(track.value(at: 0.74), 20)
        XCTAssertEqual(track.value(at: 0.75), 30)
        XCTAssertEqual(track.value(at: 1), 30)
        // Without key times: value i on [i/n, (i+1)/n).
        let even = try KeyframeTrack(values: [10.0, 20, 30], calculationMode: .discrete)
        XCTAssertEqual(even.value(at: 1.0 / 3 - 1e-9), 10)
        XCTAssertEqual(even.value(at: 1.0 / 3 + 1e-9), 20)
        XCTAssertEqual(even.value(at: 2.0 / 3 + 1e-9), 30)
        // Timing functions are ignored by discrete mode.
        let eased = try KeyframeTrack(
            values: [10.0, 20], keyTimes: [0, 0.5], calculationMode: .discrete, timingFunctions: [.easeIn])
        XCTAssertEqual(eased.value(at: 0.49), 10)
    }

    // MARK: Linear, eased, continuity

    func testLinearAndPerKeyframeEasingAppliesToSegmentStartingThere() throws {
        let curve = CubicBezier.easeIn
        let track = try KeyframeTrack(
            keyTimes: [0, 0.5, 1], values: [10.0, 20, 40], interpolations: [.eased(curve), .linear])
        for p in stride(from: 0.0, through: 0.5, by: 0.05) {
            XCTAssertEqual(track.value(at: p), 10 + 10 * curve.value(at: p / 0.5), accuracy: 1e-12, "p = \(p)")
        }
        for p in stride(from: 0.5, through: 1.0, by: 0.05) {
            XCTAssertEqual(track.value(at: p), 20 + 20 * (p - 0.5) / 0.5, accuracy: 1e-12, "p = \(p)")
        }
    }

    func testContinuityAtSegmentBoundaries() throws {
        let times = [0, 0.2, 0.45, 0.7, 1.0]
        let values = [0.0, 5, -3, 8, 2]
        let h = 1e-10
        for interpolation in [KeyframeInterpolation.linear, .catmullRom, .eased(.easeInOut)] {
            let track = try KeyframeTrack(keyTimes: times, values: values, interpolation: interpolation)
            for (k, t) in times.enumerated() {
                XCTAssertEqual(track.value(at: t), values[k], "\(interpolation) passes through key \(k)")
                if k > 0 { XCTAssertEqual(track.value(at: t - h), values[k], accuracy: 1e-7) }
                if k < times.count - 1 { XCTAssertEqual(track.value(at: t + h), values[k], accuracy: 1e-7) }
            }
        }
        let hold = try KeyframeTrack(keyTimes: times, values: values, interpolation: .hold)
        for k in 1 ..< times.count {
            XCTAssertEqual(hold.value(at: times[k] - h), values[k - 1])
            XCTAssertEqual(hold.value(at: times[k]), values[k])
        }
    }

    // MARK: Hermite and Catmull-Rom

    /// Second-order one-sided derivative estimates at t (left and right).
    private func sideDerivatives(_ f: (Double) -> Double, at t: Double, h: Double = 1e-5) -> (left: Double, right: Double) {
        let right = (-3 * f(t) + 4 * f(t + h) - f(t + 2 * h)) / (2 * h)
        let left = (3 * f(t) - 4 * f(t - h) + f(t - 2 * h)) / (2 * h)
        return (left, right)
    }

    func testHermiteMatchesTangentsAndFormula() throws {
        let times = [0, 0.3, 1.0], values = [0.0, 1, -2], tangents = [2.0, -1, 5]
        let track = try KeyframeTrack(keyTimes: times, values: values, tangents: tangents)
        for k in 0 ..< 3 {
            XCTAssertEqual(track.value(at: times[k]), values[k])
            let d = sideDerivatives({ track.value(at: $0) }, at: times[k])
            if k > 0 { XCTAssertEqual(d.left, tangents[k], accuracy: 1e-6, "left derivative at key \(k)") }
            if k < 2 { XCTAssertEqual(d.right, tangents[k], accuracy: 1e-6, "right derivative at key \(k)") }
        }
        // Independent Hermite formula on the second segment.
        let p = 0.62, dt = 0.7, s = (p - 0.3) / dt
        let expected = (2 * s * s * s - 3 * s * s + 1) * 1 + (s * s * s - 2 * s * s + s) * dt * -1
            + (-2 * s * s * s + 3 * s * s) * -2 + (s * s * s - s * s) * dt * 5
        XCTAssertEqual(track.value(at: p), expected, accuracy: 1e-13)
    }

    func testCatmullRomPassesThroughKeysWithChordTangents() throws {
        let times = [0, 0.25, 0.4, 0.8, 1.0]
        let values = [Point(x: 0, y: 0), Point(x: 3, y: 1), Point(x: 4, y: 5), Point(x: -1, y: 2), Point(x: 0, y: 0)]
        let track = try KeyframeTrack(keyTimes: times, values: values, interpolation: .catmullRom)
        for k in 0 ..< times.count {
            XCTAssertEqual(track.value(at: times[k]), values[k])
        }
        for k in 1 ..< times.count - 1 {
            let span = times[k + 1] - times[k - 1]
            let expectedX = (values[k + 1].x - values[k - 1].x) / span
            let expectedY = (values[k + 1].y - values[k - 1].y) / span
            let dx = sideDerivatives({ track.value(at: $0).x }, at: times[k])
            let dy = sideDerivatives({ track.value(at: $0).y }, at: times[k])
            XCTAssertEqual(dx.left, expectedX, accuracy: 1e-6)
            XCTAssertEqual(dx.right, expectedX, accuracy: 1e-6)
            XCTAssertEqual(dy.left, expectedY, accuracy: 1e-6)
            XCTAssertEqual(dy.right, expectedY, accuracy: 1e-6)
        }
        // End tangent: one-sided secant.
        let d0 = sideDerivatives({ track.value(at: $0).x }, at: 0)
        XCTAssertEqual(d0.right, 3 / 0.25, accuracy: 1e-6)
    }

    func testCoreAnimationCubicTensionOneFlattensTangents() throws {
        let track = try KeyframeTrack(
            values: [0.0, 10, 0, 10], calculationMode: .cubic, tensionValues: [1, 1, 1, 1])
        for k in 0 ..< 4 {
            let t = Double(k) / 3
            XCTAssertEqual(track.value(at: t), [0.0, 10, 0, 10][k])
            let d = sideDerivatives({ track.value(at: $0) }, at: t)
            if k > 0 { XCTAssertEqual(d.left, 0, accuracy: 1e-6) }
            if k < 3 { XCTAssertEqual(d.right, 0, accuracy: 1e-6) }
        }
        // All zero: Catmull-Rom chord slope at key 1 = (0 − 0) / (2/3) = 0 and at key 2
        // (10 − 10) / (2/3) = 0; use uneven values instead.
        let plain = try KeyframeTrack(values: [0.0, 3, 9, 10], calculationMode: .cubic)
        let d1 = sideDerivatives({ plain.value(at: $0) }, at: 1.0 / 3)
        XCTAssertEqual(d1.right, (9 - 0) / (2.0 / 3), accuracy: 1e-6)
    }

    // MARK: Paced

    /// The point at arc length `s` along the polyline through `points`.
    private func polylinePoint(_ points: [Point], at s: Double) -> Point {
        var remaining = s
        for i in 0 ..< points.count - 1 {
            let dx = points[i + 1].x - points[i].x, dy = points[i + 1].y - points[i].y
            let length = (dx * dx + dy * dy).squareRoot()
            if remaining <= length || i == points.count - 2 {
                let f = remaining / length
                return Point(x: points[i].x + dx * f, y: points[i].y + dy * f)
            }
            remaining -= length
        }
        return points[points.count - 1]
    }

    func testPacedMovesAtConstantSpeedAlongThePath() throws {
        let points = [Point(x: 0, y: 0), Point(x: 3, y: 4), Point(x: 3, y: 10), Point(x: 0, y: 14)]  // 5 + 6 + 5
        let track = try KeyframeTrack(
            values: points, keyTimes: [0, 0.9, 0.95, 1], calculationMode: .paced, timingFunctions: [.easeIn, .easeIn, .easeIn])
        let expectedTimes = [0, 5.0 / 16, 11.0 / 16, 1]
        for (t, e) in zip(track.keyTimes, expectedTimes) { XCTAssertEqual(t, e, accuracy: 1e-15) }
        var previous = track.value(at: 0)
        for i in 1 ... 64 {
            let p = Double(i) / 64
            let value = track.value(at: p)
            let expected = polylinePoint(points, at: 16 * p)
            XCTAssertEqual(value.x, expected.x, accuracy: 1e-9, "p = \(p)")
            XCTAssertEqual(value.y, expected.y, accuracy: 1e-9, "p = \(p)")
            // Equal progress steps cover equal arc length (steps never straddle a corner
            // here: corners are at multiples of 1/16 = 4/64).
            let dx = value.x - previous.x, dy = value.y - previous.y
            XCTAssertEqual((dx * dx + dy * dy).squareRoot(), 16.0 / 64, accuracy: 1e-9)
            previous = value
        }
    }

    func testCubicPacedHasConstantSpeed() throws {
        let points = [Point(x: 0, y: 0), Point(x: 4, y: 1), Point(x: 5, y: 6), Point(x: 1, y: 8)]
        let track = try KeyframeTrack(values: points, calculationMode: .cubicPaced)
        for (k, t) in track.keyTimes.enumerated() {
            XCTAssertEqual(track.value(at: t).x, points[k].x, accuracy: 1e-12)
            XCTAssertEqual(track.value(at: t).y, points[k].y, accuracy: 1e-12)
        }
        // Arc length of each of 40 equal progress steps, by fine chords.
        var lengths: [Double] = []
        let steps = 40, fine = 400
        var previous = track.value(at: 0)
        for i in 0 ..< steps {
            var length = 0.0
            for j in 1 ... fine {
                let value = track.value(at: (Double(i) + Double(j) / Double(fine)) / Double(steps))
                let dx = value.x - previous.x, dy = value.y - previous.y
                length += (dx * dx + dy * dy).squareRoot()
                previous = value
            }
            lengths.append(length)
        }
        let mean = lengths.reduce(0, +) / Double(steps)
        for length in lengths { XCTAssertEqual(length, mean, accuracy: 1e-6 * mean) }
    }

    // MARK: Overlapping keys and out-of-range progress

    func testOverlappingKeysUseFirstBeforeAndLastAtOrAfter() throws {
        let track = try KeyframeTrack(keyTimes: [0, 0.5, 0.5, 1], values: [0.0, 10, 20, 30])
        XCTAssertEqual(track.value(at: 0.25), 5)
        XCTAssertEqual(track.value(at: 0.5.nextDown), 10, accuracy: 1e-12)
        XCTAssertEqual(track.value(at: 0.5), 20)
        XCTAssertEqual(track.value(at: 0.75), 25)

        let atZero = try KeyframeTrack(keyTimes: [0, 0, 1], values: [0.0, 5, 10])
        XCTAssertEqual(atZero.value(at: -0.1), 0, "several keys at 0: below 0 shows the first")
        XCTAssertEqual(atZero.value(at: 0), 5)
        XCTAssertEqual(atZero.value(at: 0.5), 7.5)

        let atOne = try KeyframeTrack(keyTimes: [0, 1, 1], values: [0.0, 10, 20])
        XCTAssertEqual(atOne.value(at: 0.5), 5)
        XCTAssertEqual(atOne.value(at: 1.0.nextDown), 10, accuracy: 1e-12)
        XCTAssertEqual(atOne.value(at: 1), 20)
        XCTAssertEqual(atOne.value(at: 1.2), 20, "several keys at 1: above 1 shows the last")
    }

    func testOvershootingEasingExtrapolatesAlongEndSegments() throws {
        let curve = try CubicBezier(0.3, -0.5, 0.7, 1.5)
        let track = try KeyframeTrack(keyTimes: [0, 0.5, 1], values: [10.0, 20, 40])
        var sawBelow = false, sawAbove = false
        for i in 0 ... 200 {
            let p = curve.value(at: Double(i) / 200)
            sawBelow = sawBelow || p < 0
            sawAbove = sawAbove || p > 1
            let expected = p < 0.5 ? 10 + 20 * p : 20 + 40 * (p - 0.5)
            XCTAssertEqual(track.value(at: p), expected, accuracy: 1e-12, "p = \(p)")
        }
        XCTAssertTrue(sawBelow && sawAbove)
        // An eased first segment extrapolates through its easing: interval distance p / 0.5.
        let eased = try KeyframeTrack(
            keyTimes: [0, 0.5, 1], values: [10.0, 20, 40], interpolations: [.eased(.easeIn), .eased(.easeOut)])
        XCTAssertEqual(eased.value(at: -0.2), 10 + 10 * CubicBezier.easeIn.value(at: -0.4), accuracy: 1e-12)
        XCTAssertEqual(eased.value(at: 1.1), 20 + 20 * CubicBezier.easeOut.value(at: 1.2), accuracy: 1e-12)
        // Keys not reaching 0 / 1: the end values hold.
        let inner = try KeyframeTrack(keyTimes: [0.2, 0.8], values: [1.0, 2])
        XCTAssertEqual(inner.value(at: -0.3), 1)
        XCTAssertEqual(inner.value(at: 0.1), 1)
        XCTAssertEqual(inner.value(at: 0.9), 2)
        XCTAssertEqual(inner.value(at: 1.3), 2)
    }

    // MARK: Builder

    func testBuilderRelativeStartTimes() throws {
        var builder = KeyframeSequenceBuilder(initialValue: 0.0)
        try builder.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.25, value: 10)
        try builder.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25, value: 4)
        try builder.addKeyframe(withRelativeStartTime: 0.75, relativeDuration: 0, value: 20)
        let track = try builder.makeTrack()
        XCTAssertEqual(track.value(at: 0), 0)
        XCTAssertEqual(track.value(at: 0.125), 2)
        XCTAssertEqual(track.value(at: 0.25), 4)
        XCTAssertEqual(track.value(at: 0.4), 4, "holds between keyframes")
        XCTAssertEqual(track.value(at: 0.625), 7, accuracy: 1e-12)
        XCTAssertEqual(track.value(at: 0.75.nextDown), 10, accuracy: 1e-12)
        XCTAssertEqual(track.value(at: 0.75), 20, "zero duration jumps")
        XCTAssertEqual(track.value(at: 1), 20)
        XCTAssertEqual(track.keyTimes, [0, 0.25, 0.5, 0.75, 0.75])
    }

    func testBuilderRejectsOverlapAndBadTimes() throws {
        var builder = KeyframeSequenceBuilder(initialValue: 0.0)
        try builder.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5, value: 1)
        try builder.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.5, value: 2)
        assertError(.outOfRange(parameter: "keyframes[1].relativeStartTime", value: 0.25,
                                expected: "≥ 0.5 (end of the previous keyframe)")) { _ = try builder.makeTrack() }
        assertError(.outOfRange(parameter: "relativeStartTime", value: 1.5, expected: "[0, 1]")) {
            try builder.addKeyframe(withRelativeStartTime: 1.5, relativeDuration: 0, value: 0)
        }
        assertError(.outOfRange(parameter: "relativeDuration", value: 0.6, expected: "[0, 0.5]")) {
            try builder.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.6, value: 0)
        }
        assertError(.outOfRange(parameter: "relativeDuration", value: -0.1, expected: "[0, 0.5]")) {
            try builder.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: -0.1, value: 0)
        }
        assertError(.notFinite(parameter: "relativeDuration", value: .infinity)) {
            try builder.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: .infinity, value: 0)
        }
    }

    // MARK: Helpers

    /// Asserts that `body` throws exactly `expected`.
    func assertError(_ expected: ParameterError, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected \(expected), nothing thrown", file: file, line: line)
        } catch let error as ParameterError {
            XCTAssertEqual(error, expected, file: file, line: line)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
    }
}
