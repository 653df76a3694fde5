import Kinetic
import XCTest

/// Finite in, finite out (issue 16): spring steps (SpringTransition, SpringGroup, BatchStore
/// spring lanes) and keyframe lanes with huge but finite states and values (up to ±1.8e308)
/// give finite results, or a typed ``BatchStoreError/overflow(lane:quantity:)`` naming the lane
/// and the quantity, with nothing changed.
final class FiniteOverflowTests: XCTestCase {
    static let magnitudes: [Double] = [0, 1, 1e300, 1e307, 1e308, 1.7e308, .greatestFiniteMagnitude]
    static var signed: [Double] { magnitudes + magnitudes.filter { $0 != 0 }.map { -$0 } }

    static func springs() throws -> [Spring] {
        [
            try Spring(dampingRatio: 0.5, response: 0.5),
            try Spring(dampingRatio: 1, response: 0.05),    // stiff, critical
            try Spring(dampingRatio: 4, response: 0.5),     // overdamped
            try Spring(dampingRatio: 0, response: 10),      // undamped, soft
            try Spring(mass: 1, stiffness: 1e6, damping: 1), // very stiff, bouncy
            Spring.coreAnimationDefault,
        ]
    }

    private func isOverflow(_ error: Error, _ quantity: String? = nil, lane: Int? = nil) -> Bool {
        guard case .overflow(let l, let q)? = error as? BatchStoreError else { return false }
        return (quantity == nil || q == quantity) && (lane == nil || l == lane)
    }

    // MARK: SpringTransition

    func testAppliedIsFiniteOrCheckedThrowsNamingTheQuantity() throws {
        var overflows = 0, total = 0
        for spring in try Self.springs() {
            for dt in [1.0 / 120, 1.0 / 60, 0.5] {
                let phi = try spring.transition(over: dt)
                for x in Self.signed {
                    for v in Self.signed {
                        total += 1
                        let next = phi.applied(to: SpringState(displacement: x, velocity: v))
                        let label = "\(spring) dt \(dt) x \(x) v \(v): \(next)"
                        XCTAssertFalse(next.displacement.isNaN || next.velocity.isNaN, label)
                        if next.displacement.isFinite && next.velocity.isFinite {
                            XCTAssertEqual(try phi.checkedApplied(to: SpringState(displacement: x, velocity: v)), next, label)
                            // Bit for bit the plain formula wherever that is finite.
                            let plainX = phi.m11 * x + phi.m12 * v, plainV = phi.m21 * x + phi.m22 * v
                            if plainX.isFinite && plainV.isFinite {
                                XCTAssertEqual(next.displacement.bitPattern, plainX.bitPattern, label)
                                XCTAssertEqual(next.velocity.bitPattern, plainV.bitPattern, label)
                            }
                        } else {
                            overflows += 1
                            let quantity = next.displacement.isFinite ? "velocity" : "displacement"
                            XCTAssertThrowsError(try phi.checkedApplied(to: SpringState(displacement: x, velocity: v)), label) {
                                XCTAssertTrue(self.isOverflow($0, quantity), "\($0)")
                                XCTAssertTrue("\($0)".contains("beyond the range of Double"), "\($0)")
                            }
                        }
                    }
                }
            }
        }
        print("[Finite overflow] applied: \(total) (spring, dt, state) cases, \(overflows) beyond Double range (typed error)")
        XCTAssertGreaterThan(overflows, 0)
        XCTAssertLessThan(overflows, total)
    }

    /// The raw buffer step: the vector loop for bounded states, lane by lane (as `applied`)
    /// near ±1e308; an overflow names the first lane and changes nothing.
    func testRawStepMatchesAppliedOrThrowsWithNothingChanged() throws {
        for spring in try Self.springs() {
            let phi = try spring.transition(over: 1.0 / 60)
            var xs: [Double] = [], vs: [Double] = []
            for x in Self.signed { for v in Self.signed { xs.append(x); vs.append(v) } }
            let expected = zip(xs, vs).map { phi.applied(to: SpringState(displacement: $0, velocity: $1)) }
            let firstBad = expected.firstIndex { !$0.displacement.isFinite || !$0.velocity.isFinite }
            var x = xs, v = vs
            do {
                try x.withUnsafeMutableBufferPointer { xb in
                    try v.withUnsafeMutableBufferPointer { vb in try phi.step(displacements: xb, velocities: vb) }
                }
                XCTAssertNil(firstBad, "\(spring): no overflow reported")
                for i in xs.indices {
                    XCTAssertEqual(x[i].bitPattern, expected[i].displacement.bitPattern, "\(spring) lane \(i)")
                    XCTAssertEqual(v[i].bitPattern, expected[i].velocity.bitPattern, "\(spring) lane \(i)")
                }
            } catch {
                XCTAssertTrue(isOverflow(error, lane: firstBad), "\(spring): \(error), expected lane \(String(describing: firstBad))")
                XCTAssertEqual(x, xs, "\(spring): displacements changed")
                XCTAssertEqual(v, vs, "\(spring): velocities changed")
            }
            // Only the representable lanes: always stepped, finite, as `applied`.
            let good = xs.indices.filter { expected[$0].displacement.isFinite && expected[$0].velocity.isFinite }
            var gx = good.map { xs[$0] }, gv = good.map { vs[$0] }
            try gx.withUnsafeMutableBufferPointer { xb in
                try gv.withUnsafeMutableBufferPointer { vb in try phi.step(displacements: xb, velocities: vb) }
            }
            for (k, i) in good.enumerated() {
                XCTAssertEqual(gx[k].bitPattern, expected[i].displacement.bitPattern, "\(spring) lane \(i)")
                XCTAssertEqual(gv[k].bitPattern, expected[i].velocity.bitPattern, "\(spring) lane \(i)")
            }
        }
    }

    // MARK: SpringGroup

    func testGroupNearDoubleRangeStaysFiniteForThousandsOfSteps() throws {
        // Energy never grows: a state at ±1.7e308 on a soft spring stays representable.
        // ω0 = 2π/10 < 1: no velocity exceeds the largest displacement (energy ω0²x² + v²).
        let spring = try Spring(dampingRatio: 0.1, response: 10)
        let x0: [Double] = [1.7e308, -1.7e308, 1e308, -.greatestFiniteMagnitude, 1, 0]
        let group = try SpringGroup(spring: spring, displacements: x0, velocities: [0, 0, -1e307, 0, 1e308, -1e308])
        for _ in 0 ..< 5000 { try group.step(over: 1.0 / 60) }
        for lane in 0 ..< group.count {
            XCTAssertTrue(group.displacement(at: lane).isFinite && group.velocity(at: lane).isFinite, "lane \(lane)")
        }
        // The same states through the store: finite values throughout.
        let store = BatchStore()
        let h = try store.addSprings(spring, targets: [0, 0, 0, 0, 0, 0], displacements: x0)
        for _ in 0 ..< 600 { try store.tick(over: 1.0 / 60) }
        XCTAssertTrue(try store.values(of: h).allSatisfy(\.isFinite))
    }

    func testGroupOverflowThrowsNamingTheLaneWithNothingChanged() throws {
        // ω0² = 1e6: from x = 1e305 the velocity after 1/60 s is about −1.7e307·…; from
        // 1.7e308 it is beyond Double's range.
        let stiff = try Spring(mass: 1, stiffness: 1e6, damping: 1)
        let group = try SpringGroup(spring: stiff, displacements: [1, 1e300, 1.7e308], velocities: [0, 0, 0])
        XCTAssertThrowsError(try group.step(over: 1.0 / 60)) { XCTAssertTrue(self.isOverflow($0, "velocity", lane: 2), "\($0)") }
        XCTAssertEqual([group.displacement(at: 0), group.displacement(at: 1), group.displacement(at: 2)], [1, 1e300, 1.7e308])
        XCTAssertEqual([group.velocity(at: 0), group.velocity(at: 1), group.velocity(at: 2)], [0, 0, 0])
        // Once the lane is brought back into range, the group steps (the bounds follow setState).
        group.setState(SpringState(displacement: 1, velocity: 0), at: 2)
        XCTAssertNoThrow(try group.step(over: 1.0 / 60))
        XCTAssertTrue((0 ..< 3).allSatisfy { group.displacement(at: $0).isFinite && group.velocity(at: $0).isFinite })
        // State written through withState is measured again before the next step.
        group.withState { x, v in x[0] = .greatestFiniteMagnitude; v[0] = 0 }
        XCTAssertThrowsError(try group.step(over: 1.0 / 60)) { XCTAssertTrue(self.isOverflow($0, "velocity", lane: 0), "\($0)") }
        XCTAssertEqual(group.displacement(at: 0), .greatestFiniteMagnitude)
    }

    // MARK: BatchStore

    func testStoreSpringValueOverflowIsReportedWithTheOutputLane() throws {
        let store = BatchStore()
        let group = try store.addGroup(from: [0, 1], to: [2, 3], progress: 0.5)
        let spring = try Spring(dampingRatio: 0.8, response: 1)
        let ok = try store.addSprings(spring, targets: [1e308, -1e308], displacements: [-1e308, 1e308])
        try store.tick(over: 1.0 / 60)
        XCTAssertTrue(try store.values(of: ok).allSatisfy(\.isFinite))
        // target + displacement = 1.7e308 + 1.7e308: beyond the range.
        let bad = try store.addSprings(spring, targets: [0, 1.7e308], displacements: [0, 1.7e308])
        let before = store.withValues { Array($0) }
        let stateBefore = try store.springGroup(for: ok).displacement(at: 0)
        let lane = try store.range(of: bad).lowerBound + 1
        for call in [{ try store.tick(over: 1.0 / 60) }, { try store.evaluate() }] as [() throws -> Void] {
            XCTAssertThrowsError(try call()) { error in
                XCTAssertTrue(self.isOverflow(error, "value", lane: lane), "\(error)")
                XCTAssertTrue("\(error)".contains("lane \(lane)"), "\(error)")
            }
            XCTAssertEqual(store.withValues { Array($0) }.map(\.bitPattern), before.map(\.bitPattern), "output changed")
            XCTAssertEqual(try store.springGroup(for: ok).displacement(at: 0), stateBefore, "a spring moved")
        }
        try store.remove(bad)
        try store.tick(over: 1.0 / 60)
        XCTAssertEqual(try store.values(of: group), [1, 2])
    }

    func testStoreSpringStepOverflowIsReportedBeforeAnythingMoves() throws {
        let store = BatchStore()
        let soft = try store.addSprings(try Spring(dampingRatio: 0.5, response: 1), targets: [0], displacements: [10])
        let stiff = try Spring(mass: 1, stiffness: 1e6, damping: 1)
        let bad = try store.addSprings(stiff, targets: [0, 0], displacements: [0, 1e308])
        XCTAssertThrowsError(try store.tick(over: 1.0 / 60)) { error in
            XCTAssertTrue(self.isOverflow(error, "velocity", lane: 2), "\(error)")
        }
        XCTAssertEqual(try store.springGroup(for: soft).displacement(at: 0), 10, "an earlier entry moved")
        XCTAssertEqual(try store.springGroup(for: bad).displacement(at: 1), 1e308)
    }

    // MARK: Keyframes

    func testKeyframeLanesNearDoubleRangeAreFinite() throws {
        let big = Double.greatestFiniteMagnitude
        let tracks = [
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [-big, big]),
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [1e308, -1e308]),
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1]),
        ]
        let store = BatchStore()
        let h = try store.addKeyframes(tracks, progress: 0)
        for p in [0, 0.25, 0.5, 0.75, 1, 0.123456789] {
            try store.setProgress(p, for: h)
            try store.evaluate()
            let values = try store.values(of: h)
            XCTAssertTrue(values.allSatisfy(\.isFinite), "progress \(p): \(values)")
            let expected = [-big * (1 - p) + big * p, 1e308 * (1 - p) - 1e308 * p, p]
            for (value, want) in zip(values, expected) {
                XCTAssertEqual(value, want, accuracy: max(want.magnitude, 1e292) * 1e-15, "progress \(p)")
            }
            XCTAssertEqual(values[2], p, accuracy: 1e-16)
        }
        try store.setProgress(0, for: h)
        try store.evaluate()
        XCTAssertEqual(try store.values(of: h), [-big, 1e308, 0])
        try store.setProgress(1, for: h)
        try store.evaluate()
        XCTAssertEqual(try store.values(of: h), [big, -1e308, 1])
        // Cubic segments of values near 1e307 (coefficients up to 9 times the values: scaled).
        let cubic = try KeyframeTrack<Double>(keyTimes: [0, 0.5, 1], values: [-4e307, 4e307, -4e307], interpolation: .catmullRom)
        let batch = try KeyframeBatch(tracks: [cubic])
        var out = [0.0]
        for p in stride(from: 0.0, through: 1, by: 0.05) {
            try out.withUnsafeMutableBufferPointer { try batch.evaluate(at: p, into: $0) }
            XCTAssertTrue(out[0].isFinite, "progress \(p)")
            XCTAssertEqual(out[0], cubic.value(at: p), accuracy: 1e294, "progress \(p)")
        }
    }

    func testKeyframeValuesBeyondDoubleRangeThrowWithNothingWritten() throws {
        let store = BatchStore()
        let overshoot = try CubicBezier(0.3, 2, 0.7, 2)  // eased progress up to about 1.5
        let tracks = [
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1], interpolation: .eased(overshoot)),
            try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1.5e308], interpolation: .eased(overshoot)),
        ]
        let h = try store.addKeyframes(tracks, progress: 0)
        let lane = try store.range(of: h).lowerBound + 1
        try store.evaluate()
        try store.setProgress(0.5, for: h)
        XCTAssertThrowsError(try store.evaluate()) { XCTAssertTrue(self.isOverflow($0, "value", lane: lane), "\($0)") }
        XCTAssertEqual(try store.values(of: h), [0, 0], "nothing written")
        // Extrapolation past the last key: 1e308 · 2 is beyond; · 1 is not.
        let linear = BatchStore()
        let e = try linear.addKeyframes([try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1e308])], progress: 2)
        XCTAssertThrowsError(try linear.tick(over: 0)) { XCTAssertTrue(self.isOverflow($0, "value", lane: 0), "\($0)") }
        try linear.setProgress(-1, for: e)
        try linear.tick(over: 0)
        XCTAssertEqual(try linear.value(of: e), -1e308)
        // Per-track progress: every value written, the first overflow named.
        let batch = try KeyframeBatch(tracks: [try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1e308]),
                                                try KeyframeTrack<Double>(keyTimes: [0, 1], values: [0, 1e308])])
        var out = [0.0, 0.0]
        let progress = [0.5, 3.0]
        XCTAssertThrowsError(try progress.withUnsafeBufferPointer { p in
            try out.withUnsafeMutableBufferPointer { try batch.evaluate(progress: p, into: $0) }
        }) { XCTAssertTrue(self.isOverflow($0, "value", lane: 1), "\($0)") }
        XCTAssertEqual(out[0], 5e307)
    }

    func testKeyframeTangentOverflowIsRefusedAtInsertion() throws {
        // The track's own Catmull-Rom tangents overflow (differences of ±1.7e308).
        let track = try KeyframeTrack<Double>(keyTimes: [0, 0.5, 1], values: [-1.7e308, 1.7e308, -1.7e308],
                                              interpolation: .catmullRom)
        let small = try KeyframeTrack<Double>(keyTimes: [0, 0.5, 1], values: [0, 1, 0], interpolation: .catmullRom)
        XCTAssertThrowsError(try BatchStore().addKeyframes([small, track])) {
            XCTAssertTrue(self.isOverflow($0, lane: 1), "\($0)")
            XCTAssertTrue("\($0)".contains("tangent"), "\($0)")
        }
    }

    // MARK: Groups and lanes

    func testGroupAndLaneValuesNearDoubleRange() throws {
        let store = BatchStore()
        // to − from beyond the range: refused at insertion, naming the lane.
        XCTAssertThrowsError(try store.addGroup(from: [0, -1.7e308], to: [1, 1.7e308])) {
            XCTAssertTrue(self.isOverflow($0, "to − from", lane: 1), "\($0)")
        }
        XCTAssertThrowsError(try store.addLanes(from: [1.7e308], to: [-1.7e308], progress: [0])) {
            XCTAssertTrue(self.isOverflow($0, "to − from", lane: 0), "\($0)")
        }
        XCTAssertEqual(store.entryCount, 0)
        // Near the range but representable: finite values.
        let g = try store.addGroup(from: [1e308, 0], to: [-0.7e308, 1], progress: 0.5)
        let l = try store.addLanes(from: [1e308, 0], to: [-0.7e308, 1], progress: [0.5, 1])
        try store.evaluate()
        let half = 1e308 + 0.5 * (-0.7e308 - 1e308)  // 1.5e307 up to the rounding of to − from
        XCTAssertEqual(try store.values(of: g), [half, 0.5])
        XCTAssertEqual(try store.values(of: l), [half, 1])
        // Extrapolated beyond the range: 1e308 − 2 · 1.7e308; nothing written.
        let before = store.withValues { Array($0) }
        try store.setProgress(2, for: g)
        XCTAssertThrowsError(try store.tick(over: 1.0 / 60)) { XCTAssertTrue(self.isOverflow($0, "value", lane: 0), "\($0)") }
        XCTAssertEqual(store.withValues { Array($0) }, before)
        try store.setProgress(0.5, for: g)
        try store.setProgress([2, 1], for: l)
        XCTAssertThrowsError(try store.evaluate()) { XCTAssertTrue(self.isOverflow($0, "value", lane: 2), "\($0)") }
        XCTAssertEqual(store.withValues { Array($0) }, before)
        try store.setProgress([-0.25, 1], for: l)
        try store.evaluate()
        XCTAssertEqual(try store.values(of: l), [1e308 + -0.25 * (-0.7e308 - 1e308), 1])
    }
}
