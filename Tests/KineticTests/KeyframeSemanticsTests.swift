import XCTest
import Kinetic
import TestSupport

/// Value types (transforms, colour, rect), the cursor against an independent scan, and
/// every bad-input case with its exact error.
final class KeyframeSemanticsTests: XCTestCase {
    private let degree = Double.pi / 180

    private func rotation2D(_ angle: Double, scale: Double = 1) -> Transform2D {
        Transform2D(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle), d: scale * cos(angle), tx: 0, ty: 0)
    }

    // MARK: Transform2D

    func testAffineRotationTakesShortestPathThroughZero() throws {
        let track = try KeyframeTrack(
            keyTimes: [0, 1], values: [rotation2D(350 * degree, scale: 2), rotation2D(10 * degree, scale: 1)])
        for i in 0 ... 20 {
            let p = Double(i) / 20
            let m = track.value(at: p)
            let angle = (-10 + 20 * p) * degree       // 350° ≡ −10° → 10°, through 0°
            let scale = 2 - p
            XCTAssertEqual(m.a, scale * cos(angle), accuracy: 1e-12, "p = \(p)")
            XCTAssertEqual(m.b, scale * sin(angle), accuracy: 1e-12)
            // Stays a rotation times a uniform scale.
            XCTAssertEqual(m.d, m.a, accuracy: 1e-12)
            XCTAssertEqual(m.c, -m.b, accuracy: 1e-12)
        }
        let middle = track.value(at: 0.5)
        XCTAssertEqual(middle.a, 1.5, accuracy: 1e-12)
        XCTAssertEqual(middle.b, 0, accuracy: 1e-12)

        // 170° → −170° goes through 180°, not 0°.
        let wrap = try KeyframeTrack(keyTimes: [0, 1], values: [rotation2D(170 * degree), rotation2D(-170 * degree)])
        XCTAssertEqual(wrap.value(at: 0.5).a, -1, accuracy: 1e-12)
        XCTAssertEqual(wrap.value(at: 0.5).b, 0, accuracy: 1e-12)
        // Three keys keep unwrapping: 0° → 170° → 340° (= −20°) turns forward all the way.
        let forward = try KeyframeTrack(
            keyTimes: [0, 0.5, 1], values: [rotation2D(0), rotation2D(170 * degree), rotation2D(340 * degree)])
        XCTAssertEqual(forward.value(at: 0.75).a, cos(255 * degree), accuracy: 1e-12)
        XCTAssertEqual(forward.value(at: 0.75).b, sin(255 * degree), accuracy: 1e-12)
    }

    func testAffineDecompositionRoundTripsShearReflectionAndDegenerate() {
        let cases = [
            Transform2D(a: 1.2, b: -0.4, c: 0.7, d: 2.1, tx: 3, ty: -5),
            Transform2D(a: -1, b: 0, c: 0, d: 1, tx: 0, ty: 0),      // reflection
            Transform2D(a: 0, b: 0, c: 2, d: 1, tx: 1, ty: 1),       // x axis collapsed
            Transform2D(a: 0, b: 0, c: 0, d: 0, tx: 4, ty: 2),       // everything collapsed
        ]
        for m in cases {
            var lanes = [Double](repeating: 0, count: 6)
            lanes.withUnsafeMutableBufferPointer { m.writeLanes(into: $0) }
            let back = lanes.withUnsafeBufferPointer { Transform2D(lanes: $0) }
            for (x, y) in [(m.a, back.a), (m.b, back.b), (m.c, back.c), (m.d, back.d), (m.tx, back.tx), (m.ty, back.ty)] {
                XCTAssertEqual(x, y, accuracy: 1e-14, "\(m)")
            }
        }
    }

    // MARK: Transform3D

    /// Rodrigues rotation by `angle` about the unit axis, in CATransform3D's row form.
    private func rodrigues(_ angle: Double, _ axis: (Double, Double, Double)) -> [[Double]] {
        let (x, y, z) = axis, c = cos(angle), s = sin(angle), t = 1 - c
        // Column-vector matrix R; CATransform3D stores its transpose.
        let r = [[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                 [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                 [t * x * z - s * y, t * y * z + s * x, t * z * z + c]]
        return [[r[0][0], r[1][0], r[2][0]], [r[0][1], r[1][1], r[2][1]], [r[0][2], r[1][2], r[2][2]]]
    }

    private func assertLinearPart(_ m: Transform3D, equals expected: [[Double]], scale: Double = 1, accuracy: Double = 1e-12,
                                  file: StaticString = #filePath, line: UInt = #line) {
        let rows = m.rows
        for i in 0 ..< 3 {
            for j in 0 ..< 3 {
                XCTAssertEqual(rows[i][j], scale * expected[i][j], accuracy: accuracy, "m\(i + 1)\(j + 1)", file: file, line: line)
            }
        }
    }

    func testTransform3DSlerpsAtConstantAngularSpeed() throws {
        let s3 = 1 / 3.0.squareRoot()
        let axis = (s3, s3, s3)
        let end = Transform3D(rotationAngle: 120 * degree, x: 1, y: 1, z: 1)
        assertLinearPart(end, equals: rodrigues(120 * degree, axis))
        let track = try KeyframeTrack(keyTimes: [0, 1], values: [Transform3D.identity, end])
        for p in [0.1, 0.25, 0.5, 0.8] {
            assertLinearPart(track.value(at: p), equals: rodrigues(120 * degree * p, axis))
        }
        // Shortest way: 170° → −170° about z passes 180°.
        let wrap = try KeyframeTrack(keyTimes: [0, 1], values: [
            Transform3D(rotationAngle: 170 * degree, x: 0, y: 0, z: 1),
            Transform3D(rotationAngle: -170 * degree, x: 0, y: 0, z: 1)])
        assertLinearPart(wrap.value(at: 0.5), equals: rodrigues(180 * degree, (0, 0, 1)))
        // Translation and scale interpolate linearly alongside.
        let moved = Transform3D(scaleX: 3, y: 3, z: 3).concatenating(Transform3D(translationX: 10, y: -4, z: 2))
        let both = try KeyframeTrack(keyTimes: [0, 1], values: [Transform3D.identity, moved])
        let middle = both.value(at: 0.5)
        assertLinearPart(middle, equals: rodrigues(0, (0, 0, 1)), scale: 2)
        XCTAssertEqual(middle.m41, 5, accuracy: 1e-12)
        XCTAssertEqual(middle.m42, -2, accuracy: 1e-12)
        XCTAssertEqual(middle.m43, 1, accuracy: 1e-12)
    }

    func testTransform3DDecompositionRoundTrips() {
        let general = Transform3D(
            m11: 1.1, m12: 0.3, m13: -0.2, m14: 0.001,
            m21: -0.4, m22: 0.9, m23: 0.5, m24: -0.002,
            m31: 0.25, m32: -0.6, m33: -1.3, m34: -1.0 / 500,
            m41: 7, m42: -3, m43: 2, m44: 1.5)
        let cases = [general, Transform3D(scaleX: -1, y: 1, z: 1), Transform3D(scaleX: 0, y: 2, z: 1),
                     Transform3D(rotationAngle: 179.9 * degree, x: 0.3, y: -1, z: 0.2)]
        for m in cases {
            var lanes = [Double](repeating: 0, count: 17)
            lanes.withUnsafeMutableBufferPointer { m.writeLanes(into: $0) }
            let back = lanes.withUnsafeBufferPointer { Transform3D(lanes: $0) }
            for (r0, r1) in zip(m.rows, back.rows) {
                for (x, y) in zip(r0, r1) { XCTAssertEqual(x, y, accuracy: 1e-13, "\(m)") }
            }
        }
    }

    /// Decomposition at magnitudes whose squares overflow or underflow a double: the lanes
    /// are finite and the transform comes back (to relative precision), in 2-D and 3-D; a
    /// rotation axis of any finite length is an axis.
    func testARotationAxisOfAnyFiniteLengthIsAnAxis() {
        let unit = Transform3D(rotationAngle: 0.7, x: 1, y: 1, z: 0)
        for scale in [1.5e308, 1e300, 1e-300, 5e-324] {
            let axis = Transform3D(rotationAngle: 0.7, x: scale, y: scale, z: 0)
            for (r0, r1) in zip(axis.rows, unit.rows) {
                for (x, y) in zip(r0, r1) { XCTAssertEqual(x, y, accuracy: 1e-15, "axis (\(scale), \(scale), 0)") }
            }
        }
    }

    func testDecompositionAtExtremeMagnitudes() {
        for scale in [1e200, 1e-200, 1.7e308, 4e-320] {
            let t2 = Transform2D(a: 0.6 * scale, b: 0.8 * scale, c: -0.8 * scale, d: 0.6 * scale, tx: 1, ty: 2)
            var lanes2 = [Double](repeating: 0, count: Transform2D.laneCount)
            lanes2.withUnsafeMutableBufferPointer { t2.writeLanes(into: $0) }
            XCTAssertTrue(lanes2.allSatisfy(\.isFinite), "\(scale): \(lanes2)")
            XCTAssertEqual(lanes2[2], Double.atan2(y: t2.b, x: t2.a), accuracy: 1e-15, "the angle at \(scale)")
            XCTAssertEqual(lanes2[3] / scale, 1, accuracy: 1e-12, "sx at \(scale)")
            let back2 = lanes2.withUnsafeBufferPointer { Transform2D(lanes: $0) }
            for (x, y) in [(back2.a, t2.a), (back2.b, t2.b), (back2.c, t2.c), (back2.d, t2.d)] {
                XCTAssertEqual(x / scale, y / scale, accuracy: 1e-12, "2-D at \(scale)")
            }
            let t3 = Transform3D(scaleX: scale, y: scale, z: scale)
            var lanes3 = [Double](repeating: 0, count: 17)
            lanes3.withUnsafeMutableBufferPointer { t3.writeLanes(into: $0) }
            XCTAssertTrue(lanes3.allSatisfy(\.isFinite), "\(scale): \(lanes3)")
            let back3 = lanes3.withUnsafeBufferPointer { Transform3D(lanes: $0) }
            for (r0, r1) in zip(t3.rows, back3.rows) {
                for (x, y) in zip(r0, r1) { XCTAssertEqual(x / scale, y / scale, accuracy: 1e-12, "3-D at \(scale)") }
            }
            let axis = Transform3D(rotationAngle: 0.7, x: scale, y: 0, z: 0)
            let unit = Transform3D(rotationAngle: 0.7, x: 1, y: 0, z: 0)
            for (r0, r1) in zip(axis.rows, unit.rows) {
                for (x, y) in zip(r0, r1) { XCTAssertEqual(x, y, accuracy: 1e-15, "axis of length \(scale)") }
            }
        }
    }

    // MARK: Colour, rect

    func testColorAndRectInterpolatePerComponent() throws {
        let colors = try KeyframeTrack(
            keyTimes: [0, 1], values: [Color(red: 1, green: 0, blue: 0, alpha: 1), Color(red: 0, green: 0.5, blue: 1, alpha: 0.5)])
        let c = colors.value(at: 0.25)
        XCTAssertEqual(c.red, 0.75, accuracy: 1e-15)
        XCTAssertEqual(c.green, 0.125, accuracy: 1e-15)
        XCTAssertEqual(c.blue, 0.25, accuracy: 1e-15)
        XCTAssertEqual(c.alpha, 0.875, accuracy: 1e-15)

        let rects = try KeyframeTrack(
            keyTimes: [0, 0.5, 1],
            values: [Rect(x: 0, y: 0, width: 10, height: 20), Rect(x: 10, y: 20, width: 30, height: 60), Rect.zero],
            interpolation: .linear)
        XCTAssertEqual(rects.value(at: 0.25), Rect(x: 5, y: 10, width: 20, height: 40))
        XCTAssertEqual(rects.value(at: 0.75), Rect(x: 5, y: 10, width: 15, height: 30))
        let sizes = try KeyframeTrack(keyTimes: [0, 1], values: [Size(width: 2, height: 4), Size(width: 4, height: 0)])
        XCTAssertEqual(sizes.value(at: 0.5), Size(width: 3, height: 2))
    }

    // MARK: Cursor


    func testCursorAgreesWithBinarySearchAndAnIndependentScan() throws {
        var rng = SeededRandom(seed: 42)
        var times = (0 ..< 60).map { _ in Double.random(in: 0 ... 1, using: &rng) }.sorted()
        times[0] = 0; times[59] = 1
        times[20] = times[19]                 // a jump
        times[41] = times[40]; times[42] = times[40]
        let values = (0 ..< 60).map { _ in Double.random(in: -10 ... 10, using: &rng) }
        let track = try KeyframeTrack(keyTimes: times, values: values)

        func scan(_ p: Double) -> Double {
            if p < 0 { return values[0] + (values[1] - values[0]) * p / times[1] }
            if p >= 1 {
                return p == 1 ? values[59] : values[58] + (values[59] - values[58]) * (p - times[58]) / (1 - times[58])
            }
            var i = 0
            for k in 0 ..< 59 where times[k] <= p { i = k }
            return values[i] + (values[i + 1] - values[i]) * (p - times[i]) / (times[i + 1] - times[i])
        }

        var sequences: [[Double]] = []
        sequences.append((0 ... 3000).map { Double($0) / 3000 })                // forward, small steps
        sequences.append((0 ... 3000).reversed().map { Double($0) / 3000 })     // backward
        sequences.append((0 ..< 3000).map { _ in Double.random(in: -0.2 ... 1.2, using: &rng) })  // jumps
        var walk = 0.5
        sequences.append((0 ..< 3000).map { _ in
            walk = min(max(walk + Double.random(in: -0.03 ... 0.03, using: &rng), 0), 1); return walk
        })
        sequences.append(times + times.reversed())                              // exactly on keys
        for sequence in sequences {
            var cursor = KeyframeCursor()
            for p in sequence {
                let withCursor = track.value(at: p, cursor: &cursor)
                XCTAssertEqual(withCursor, track.value(at: p), "p = \(p)")
                XCTAssertEqual(withCursor, scan(p), accuracy: 1e-9, "p = \(p)")
            }
        }
    }

    // MARK: Bad input

    private func assertError(_ expected: ParameterError, file: StaticString = #filePath, line: UInt = #line,
                             _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected \(expected), nothing thrown", file: file, line: line)
        } catch let error as ParameterError {
            XCTAssertEqual(error, expected, file: file, line: line)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
    }

    /// NaN payloads never compare equal, so match the case and name and check NaN.
    private func assertNaNError(_ parameter: String, file: StaticString = #filePath, line: UInt = #line,
                                _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected notFinite(\(parameter), nan)", file: file, line: line)
        } catch let error as ParameterError {
            guard case .notFinite(let name, let value) = error else {
                return XCTFail("got \(error)", file: file, line: line)
            }
            XCTAssertEqual(name, parameter, file: file, line: line)
            XCTAssertTrue(value.isNaN, file: file, line: line)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
    }

    func testEveryBadInputThrowsTheExactError() {
        assertError(.countMismatch(parameter: "values", expected: 1, actual: 0)) {
            _ = try KeyframeTrack<Double>(keyTimes: [], values: [])
        }
        assertError(.countMismatch(parameter: "values", expected: 1, actual: 0)) {
            _ = try KeyframeTrack<Double>(values: [], calculationMode: .paced)
        }
        assertError(.countMismatch(parameter: "keyTimes", expected: 1, actual: 2)) {
            _ = try KeyframeTrack(keyTimes: [0, 1], values: [1.0])
        }
        assertError(.outOfRange(parameter: "keyTimes[2]", value: 0.5, expected: "≥ keyTimes[1] = 0.6")) {
            _ = try KeyframeTrack(keyTimes: [0, 0.6, 0.5], values: [1.0, 2, 3])
        }
        assertError(.outOfRange(parameter: "keyTimes[1]", value: 1.5, expected: "[0, 1]")) {
            _ = try KeyframeTrack(keyTimes: [0, 1.5], values: [1.0, 2])
        }
        assertError(.outOfRange(parameter: "keyTimes[0]", value: -0.1, expected: "[0, 1]")) {
            _ = try KeyframeTrack(keyTimes: [-0.1, 1], values: [1.0, 2])
        }
        assertNaNError("keyTimes[1]") { _ = try KeyframeTrack(keyTimes: [0, .nan], values: [1.0, 2]) }
        assertNaNError("values[1]") { _ = try KeyframeTrack(keyTimes: [0, 1], values: [1.0, .nan]) }
        assertError(.notFinite(parameter: "values[1]", value: .infinity)) {
            _ = try KeyframeTrack(keyTimes: [0, 1], values: [Point.zero, Point(x: 0, y: .infinity)])
        }
        assertError(.countMismatch(parameter: "interpolations", expected: 2, actual: 1)) {
            _ = try KeyframeTrack(keyTimes: [0, 0.5, 1], values: [1.0, 2, 3], interpolations: [.hold])
        }
        assertError(.countMismatch(parameter: "tangents", expected: 2, actual: 1)) {
            _ = try KeyframeTrack(keyTimes: [0, 1], values: [1.0, 2], tangents: [0])
        }
        assertNaNError("tangents[0]") { _ = try KeyframeTrack(keyTimes: [0, 1], values: [1.0, 2], tangents: [.nan, 0]) }
        assertError(.countMismatch(parameter: "easings", expected: 1, actual: 2)) {
            _ = try KeyframeTrack(keyTimes: [0, 1], values: [1.0, 2], tangents: [0, 0], easings: [nil, nil])
        }
        assertError(.countMismatch(parameter: "timingFunctions", expected: 2, actual: 1)) {
            _ = try KeyframeTrack(values: [1.0, 2, 3], calculationMode: .linear, timingFunctions: [.ease])
        }
        assertError(.countMismatch(parameter: "tensionValues", expected: 2, actual: 3)) {
            _ = try KeyframeTrack(values: [1.0, 2], calculationMode: .cubic, tensionValues: [0, 0, 0])
        }
        assertError(.notFinite(parameter: "biasValues[1]", value: -.infinity)) {
            _ = try KeyframeTrack(values: [1.0, 2], calculationMode: .cubic, biasValues: [0, -.infinity])
        }
        assertError(.countMismatch(parameter: "keyTimes", expected: 3, actual: 4)) {
            _ = try KeyframeTrack(values: [1.0, 2], keyTimes: [0, 0.2, 0.5, 1], calculationMode: .discrete)
        }
        assertError(.outOfRange(parameter: "keyTimes[1]", value: 0.1, expected: "≥ keyTimes[0] = 0.2")) {
            _ = try KeyframeTrack(values: [1.0, 2], keyTimes: [0.2, 0.1], calculationMode: .cubic)
        }
    }

    /// Extrapolated far enough that the Hermite basis overflows (progress beyond about
    /// ±1e100), a cubic segment saturates with the sign of its leading term, as it does at
    /// 1e50 where nothing overflows: never +max by default (∞ − ∞ was NaN).
    func testFarExtrapolationKeepsTheCubicsSign() throws {
        let tracks = [
            try KeyframeTrack(keyTimes: [0, 0.5, 1], values: [0.0, 1, 3], interpolation: .catmullRom),
            try KeyframeTrack(keyTimes: [0, 0.4, 1], values: [5.0, -2, 4], interpolation: .catmullRom),
            try KeyframeTrack(values: [1.0, 3, -7, 2], calculationMode: .cubic),
            try KeyframeTrack(values: [-1e300, 1e300, -1e300], calculationMode: .cubic),
        ]
        for (index, track) in tracks.enumerated() {
            for sign in [1.0, -1.0] {
                let reference = track.value(at: sign * 1e50)
                XCTAssertTrue(reference.isFinite && reference != 0, "track \(index) at \(sign * 1e50): \(reference)")
                for far in [1e103, 1e150, 1e250, Double.greatestFiniteMagnitude] {
                    let value = track.value(at: sign * far)
                    XCTAssertEqual(value, reference < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude,
                                   "track \(index) at \(sign * far)")
                    // The batch refuses a value beyond the range (its documented overflow error).
                    var batched = [Double.nan]
                    XCTAssertThrowsError(try batched.withUnsafeMutableBufferPointer {
                        try KeyframeBatch(tracks: [track]).evaluate(at: sign * far, into: $0)
                    }, "KeyframeBatch, track \(index) at \(sign * far)") { error in
                        guard case .overflow? = error as? BatchStoreError else { return XCTFail("\(error)") }
                    }
                }
            }
        }
    }

    /// Where the basis overflows, a value that is representable comes out right: a constant
    /// track stays constant out to ±1.8e308 (where the segment parameter is infinite), and
    /// tiny lanes keep their precision (no fixed scale flushes them to zero).
    func testFarExtrapolationOfRepresentableValues() throws {
        let constant = try KeyframeTrack(values: [5.0, 5, 5], calculationMode: .cubic)
        for p in [1e103, -1e103, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude] {
            XCTAssertEqual(constant.value(at: p), 5, "at \(p)")
        }
        let tiny = try KeyframeTrack(keyTimes: [0, 0.5, 1], values: [0.0, 1e-160, 3e-160], interpolation: .catmullRom)
        for sign in [1.0, -1.0] {
            // The cubic's leading term dominates both: the value grows as the cube of progress.
            let near = tiny.value(at: sign * 1e50), far = tiny.value(at: sign * 1e103)
            XCTAssertTrue(near.isFinite && near != 0, "\(near)")
            XCTAssertEqual(far / (near * 1e159), 1, accuracy: 1e-9, "at \(sign * 1e103): \(far)")
        }
    }

    func testSingleKeyframeIsConstantAndEqualValuesPaceEvenly() throws {
        let single = try KeyframeTrack(keyTimes: [0.3], values: [7.0], interpolation: .catmullRom)
        for p in [-1.0, 0, 0.3, 0.9, 2] { XCTAssertEqual(single.value(at: p), 7) }
        let flat = try KeyframeTrack(values: [2.0, 2, 2], calculationMode: .paced)
        XCTAssertEqual(flat.keyTimes, [0, 0.5, 1])
        XCTAssertEqual(flat.value(at: 0.3), 2)
    }
}
