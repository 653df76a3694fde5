import Foundation
import Kinetic
import TestSupport
import XCTest

/// `VelocityTracker` against Android's and Flutter's published test vectors
/// (`Tests/Fixtures/velocity-tracker-vectors.txt` says where each comes from), an
/// independent Float80 least-squares reference, and its rules (horizon, history, stop gap,
/// bad samples).
final class VelocityTrackerTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/velocity-tracker-vectors.txt")

    private struct AndroidCase {
        var name = "", unit = 1.0, delta = false
        var rows: [(kind: String, time: Double, x: Double, y: Double)] = []
        var expects: [(strategy: String, axis: String, value: Double?, quadratic: Bool)] = []
    }

    private func loadFixture() throws -> (android: [AndroidCase], flutter: [String]) {
        let text = try String(contentsOf: Self.fixture, encoding: .utf8)
        var cases: [AndroidCase] = [], current: AndroidCase?, flutter: [String] = [], inFlutter = false
        for line in text.split(separator: "\n").map(String.init) where !line.hasPrefix("#") && !line.isEmpty {
            let f = line.split(separator: " ").map(String.init)
            if inFlutter {
                if line == "end" { inFlutter = false } else { flutter.append(line) }
                continue
            }
            switch f[0] {
            case "flutter": inFlutter = true
            case "test:": current = AndroidCase(name: f[1])
            case "unit:": current?.unit = ["ms": 1e-3, "us": 1e-6, "ns": 1e-9][f[1]]!
            case "mode:": current?.delta = f[1] == "delta"
            case "S", "UP", "R", "CANCEL":
                current?.rows.append((f[0], Double(f[1])!, Double(f[2])!, Double(f[3])!))
            case "D": current?.rows.append(("D", Double(f[1])!, Double(f[2])!, 0))
            case "expect":
                current?.expects.append((f[1], f[2], f[3] == "none" ? nil : Double(f[3])!, f.count > 4 && f[4] == "quadratic"))
            case "end":
                if let c = current { cases.append(c) }
                current = nil
            default: XCTFail("unknown row \(line)")
            }
        }
        return (cases, flutter)
    }

    /// Android's `VelocityTracker_test.cpp` cases (single pointer), both strategies, within
    /// the test's tolerances. The lift-off is not a sample: asked at its time, a tracker
    /// whose last sample is more than 40 ms older answers 0 (Android: no velocity).
    func testAndroidVelocityTrackerVectors() throws {
        let cases = try loadFixture().android
        XCTAssertGreaterThanOrEqual(cases.filter { !$0.expects.isEmpty }.count, 35)
        var checked = 0
        var worst: [VelocityStrategy: Double] = [:]
        for c in cases where !c.expects.isEmpty {
            for expect in c.expects {
                let strategy: VelocityStrategy = expect.strategy == "IMPULSE" || expect.axis == "SCROLL" ? .impulse : .leastSquares
                var tracker = try VelocityTracker(strategy: strategy)
                // Times relative to the first row (exact in the test's unit), then seconds.
                let t0 = c.rows[0].time
                var position = 0.0, upTime: Double?
                for row in c.rows {
                    let t = (row.time - t0) * c.unit
                    switch row.kind {
                    case "S": try tracker.add(time: t, position: expect.axis == "Y" ? row.y : row.x)
                    case "D":
                        position += row.x
                        try tracker.add(time: t, position: position)
                    case "UP": upTime = t
                    case "CANCEL": tracker.reset()
                    default: break  // resampled rows are skipped
                    }
                }
                let velocity = try upTime.map { try tracker.velocity(at: $0) } ?? tracker.velocity()
                let target = expect.value ?? 0
                let tolerance = target == 0 ? 1e-6 : (expect.quadratic ? 1e-5 : 0.2) * target.magnitude
                XCTAssertEqual(velocity, target, accuracy: tolerance, "\(c.name) \(expect.strategy) \(expect.axis)")
                if target != 0 { worst[strategy, default: 0] = max(worst[strategy, default: 0], (velocity - target).magnitude / target.magnitude) }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 60)
        print("Android vectors: \(checked) checks; largest relative difference from Android's float results:", worst)
    }

    /// Flutter's velocity tracker test: one tracker through 13 recorded gestures (the 40 ms
    /// gaps and the 100 ms horizon keep the earlier gestures out), least squares, within
    /// 0.1 % per axis.
    func testFlutterVelocityTrackerVectors() throws {
        let rows = try loadFixture().flutter
        var expected: [(Double, Double)] = []
        for row in rows where row.hasPrefix("expect-flutter") {
            let f = row.split(separator: " ")
            expected.append((Double(f[2])!, Double(f[3])!))
        }
        var tracker = VelocityTracker(for: Point.self, strategy: .leastSquares)
        var checked = 0, worst = 0.0
        for row in rows where !row.hasPrefix("expect-flutter") && !row.hasPrefix("gesture") {
            let f = row.split(separator: " ")
            let t = Double(f[1])! / 1000, p = Point(x: Double(f[2])!, y: Double(f[3])!)
            if f[0] == "UP" {
                let v = try tracker.velocity(of: Point.self)
                let (dx, dy) = expected[checked]
                XCTAssertEqual(v.x, dx, accuracy: 1e-3 * dx.magnitude, "gesture \(checked + 1) x")
                XCTAssertEqual(v.y, dy, accuracy: 1e-3 * dy.magnitude, "gesture \(checked + 1) y")
                worst = max(worst, (v.x - dx).magnitude / dx.magnitude, (v.y - dy).magnitude / dy.magnitude)
                checked += 1
            } else {
                try tracker.add(time: t, value: p)
            }
        }
        XCTAssertEqual(checked, 13)
        print("Flutter vectors: \(checked) gestures; largest relative difference:", worst)
    }

    /// Least squares against an independent Float80 solve of the normal equations (Cramer's
    /// rule on the 3 × 3 system), on random strokes of 3 to 20 samples.
    func testLeastSquaresMatchesAFloat80Fit() throws {
        var random = SeededRandom(seed: 0x6c73_7132)
        for _ in 0 ..< 500 {
            var tracker = try VelocityTracker(strategy: .leastSquares)
            let n = Int(random.uniform(3, 21))
            var t = random.uniform(0, 1000), samples: [(Float80, Float80)] = []
            for _ in 0 ..< n {
                t += random.uniform(0.002, 0.0049)
                let x = random.uniform(-500, 500)
                try tracker.add(time: t, position: x)
                samples.append((Float80(t), Float80(x)))
            }
            let newest = samples.last!.0
            var s = [Float80](repeating: 0, count: 5), r = [Float80](repeating: 0, count: 3)
            for (ti, xi) in samples {
                let u = ti - newest
                var p: Float80 = 1
                for k in 0 ..< 5 {
                    s[k] += p
                    if k < 3 { r[k] += p * xi }
                    p *= u
                }
            }
            // | s0 s1 s2 | |b0|   |r0|
            // | s1 s2 s3 | |b1| = |r1|
            // | s2 s3 s4 | |b2|   |r2|
            func det(_ m: [[Float80]]) -> Float80 {
                m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                    + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
            }
            let a = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
            var a1 = a
            for i in 0 ..< 3 { a1[i][1] = r[i] }
            let expected = Double(det(a1) / det(a))
            XCTAssertEqual(tracker.velocity(), expected, accuracy: 1e-7 * max(1, expected.magnitude), "n = \(n)")
        }
    }

    /// Two samples give their slope with either strategy; one gives 0.
    func testFewSamples() throws {
        for strategy in VelocityStrategy.allCases {
            var tracker = try VelocityTracker(strategy: strategy)
            XCTAssertEqual(tracker.velocity(), 0)
            try tracker.add(time: 1, position: 10)
            XCTAssertEqual(tracker.velocity(), 0)
            try tracker.add(time: 1.01, position: 12)
            XCTAssertEqual(tracker.velocity(), 200, accuracy: 1e-9, "\(strategy)")
        }
    }

    /// Only the newest 20 samples, those within 100 ms of the newest and after the last gap
    /// longer than 40 ms count; a query more than 40 ms after the newest sample gives 0.
    func testHorizonHistoryAndStopGap() throws {
        var tracker = try VelocityTracker(strategy: .leastSquares)
        // A fast stroke, a 50 ms pause, then a slow one: only the slow one counts.
        for k in 0 ..< 5 { try tracker.add(time: Double(k) * 0.01, position: Double(k) * 100) }
        let resume = 0.04 + 0.05
        for k in 0 ..< 4 { try tracker.add(time: resume + Double(k) * 0.01, position: 400 + Double(k) * 1) }
        XCTAssertEqual(tracker.velocity(), 100, accuracy: 1e-9)
        XCTAssertEqual(try tracker.velocity(at: resume + 0.03 + 0.04), 100, accuracy: 1e-9, "40 ms after: still moving")
        XCTAssertEqual(try tracker.velocity(at: resume + 0.03 + 0.0401), 0, "more than 40 ms after: stopped")
        // Over 100 ms of samples 8 ms apart: only those within 100 ms of the newest count.
        var long = try VelocityTracker(strategy: .leastSquares)
        for k in 0 ..< 30 {
            let t = Double(k) * 0.008
            // Slow for the first 15 samples, then 1,000 units/s.
            try long.add(time: t, position: k < 15 ? Double(k) : 15 + (t - 0.112) * 1000)
        }
        XCTAssertEqual(long.sampleCount, 20)
        XCTAssertEqual(long.velocity(), 1000, accuracy: 1e-6, "the slow samples are past the horizon")
    }

    /// Positions near the ends of the range of `Double` and samples a nanosecond apart give
    /// a finite velocity (saturated where the true one is beyond the range: a difference of
    /// positions beyond the range within the 40 ms gap is always a velocity beyond it),
    /// never NaN.
    func testExtremeSamplesGiveFiniteVelocities() throws {
        for strategy in VelocityStrategy.allCases {
            var tracker = try VelocityTracker(strategy: strategy)
            for (k, x) in [1e308, -1e308, 1.7e308, -1.7e308, 1e308].enumerated() {
                try tracker.add(time: Double(k) * 1e-9, position: x)
                let v = tracker.velocity()
                XCTAssertTrue(v.isFinite, "\(strategy) after \(k + 1) samples: \(v)")
            }
            var slow = try VelocityTracker(strategy: strategy)
            let second = -1.7e308 + 1e300
            try slow.add(time: 0, position: 1.7e308)
            try slow.add(time: 0.01, position: second)
            // The difference is beyond the range of Double; the velocity is beyond it too.
            XCTAssertEqual(slow.velocity(), -.greatestFiniteMagnitude, "\(strategy) saturates")

            // Samples very close in time (their squared and fourth-power times underflow):
            // the velocity of a steady motion, and of an accelerating one at the newest sample.
            for gap in [1e-170, 1e-250, 1e-300] {
                var close = try VelocityTracker(strategy: strategy)
                for k in 0 ..< 5 { try close.add(time: 1 + Double(k) * gap, position: 5 * Double(k) * gap) }
                // The times 1 + k·gap all round to 1: one time, no velocity.
                XCTAssertEqual(close.velocity(), 0, "\(strategy), gap \(gap) lost in the time")
                var near = try VelocityTracker(strategy: strategy)
                for k in 0 ..< 5 { try near.add(time: Double(k) * gap, position: 5 * Double(k) * gap) }
                XCTAssertEqual(near.velocity(), 5, accuracy: 1e-12, "\(strategy), gap \(gap)")
            }
        }
        // Least squares through x = 3t + t² (per unit of the gap) at the newest sample, t = 4.
        for gap in [1e-170, 1e-250] {
            var curved = try VelocityTracker(strategy: .leastSquares)
            for k in 0 ..< 5 {
                let t = Double(k)
                try curved.add(time: t * gap, position: (3 * t + t * t) * gap)
            }
            XCTAssertEqual(curved.velocity(), 3 + 2 * 4, accuracy: 1e-9, "gap \(gap)")
        }
    }

    /// Bad samples are refused, naming the value, and change nothing.
    func testBadSamplesLeaveTheTrackerUnchanged() throws {
        var tracker = try VelocityTracker(strategy: .impulse)
        try tracker.add(time: 0, position: 0)
        try tracker.add(time: 0.01, position: 5)
        let before = tracker.velocity()
        for (time, position, name) in [(0.02, Double.nan, "position"), (.infinity, 1, "time"), (0.005, 1, "time")] {
            XCTAssertThrowsError(try tracker.add(time: time, position: position)) {
                XCTAssertEqual(($0 as? ParameterError)?.parameter, name)
            }
            XCTAssertEqual(tracker.velocity(), before)
            XCTAssertEqual(tracker.sampleCount, 2)
            XCTAssertEqual(tracker.lastTime, 0.01)
        }
        XCTAssertThrowsError(try tracker.velocity(at: .nan))
        XCTAssertThrowsError(try VelocityTracker(laneCount: 0))
        var points = VelocityTracker(for: Point.self)
        XCTAssertThrowsError(try points.add(time: 0, position: 1)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "position")
        }
        XCTAssertThrowsError(try points.add(time: 0, value: Point(x: 1, y: .infinity)))
        XCTAssertEqual(points.sampleCount, 0)
    }
}
