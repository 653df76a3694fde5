#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Kinetic
import TestSupport
import XCTest

/// Gesture motion in the engine's store: decaying lanes stepped exactly per frame, and
/// running springs retargeted in place with position and velocity continuous.
final class StoreMotionEntriesTests: XCTestCase {
    /// 120 ticks of uneven frames land where the closed form says (Float80), within 1e-12
    /// relative: the per-frame step is exact, not an integration.
    func testDecayLanesStepExactlyPerFrame() throws {
        var random = SeededRandom(seed: 0x6465_6361_7973)
        for decay in [ExponentialDecay.normal, .fast, try ExponentialDecay(frictionMultiplier: 0.7)] {
            let store = BatchStore()
            let positions = (0 ..< 64).map { _ in random.uniform(-1000, 1000) }
            let velocities = (0 ..< 64).map { _ in random.uniform(-8000, 8000) }
            let handle = try store.addDecays(decay, positions: positions, velocities: velocities)
            try store.evaluate()
            XCTAssertEqual(try store.values(of: handle), positions, "value = position")
            var t = 0.0
            for _ in 0 ..< 120 {
                let dt = random.uniform(0.004, 0.02)
                try store.tick(over: dt)
                t += dt
            }
            let lambda = Float80(decay.decayConstant), e = expl(-lambda * Float80(t))
            let values = try store.values(of: handle), speeds = try store.decayVelocities(of: handle)
            for i in positions.indices {
                let x = Float80(positions[i]) + Float80(velocities[i]) * (1 - e) / lambda
                let v = Float80(velocities[i]) * e
                XCTAssertEqual(values[i], Double(x), accuracy: 1e-12 * max(1, abs(Double(x))), "lane \(i)")
                XCTAssertEqual(speeds[i], Double(v), accuracy: 1e-12 * abs(Double(velocities[i])), "lane \(i)")
            }
        }
    }

    /// Decays sit after the springs in the output; removing entries moves them; a tick whose
    /// decay step would leave the range of Double changes nothing and names the lane.
    func testDecaySectionOrderRemovalAndOverflow() throws {
        let store = BatchStore()
        let group = try store.addGroup(from: [0], to: [1], progress: 0.5)
        let decays = try store.addDecays(.normal, positions: [1, 2], velocities: [0, 0])
        let springs = try store.addSprings(try Spring(dampingRatio: 1, response: 0.3), targets: [5, 6, 7])
        XCTAssertEqual(try store.range(of: group), 0 ..< 1)
        XCTAssertEqual(try store.range(of: springs), 1 ..< 4)
        XCTAssertEqual(try store.range(of: decays), 4 ..< 6)
        try store.remove(springs)
        XCTAssertEqual(try store.range(of: decays), 1 ..< 3)
        try store.evaluate()
        XCTAssertEqual(try store.values(of: decays), [1, 2])
        XCTAssertThrowsError(try store.setProgress(0.5, for: decays)) {
            XCTAssertEqual($0 as? BatchStoreError, .wrongKind(expected: .group, actual: .decays))
        }
        let big = try store.addDecays(.fast, positions: [0, 1.7e308], velocities: [10, 1e308])
        XCTAssertThrowsError(try store.tick(over: 1)) {
            XCTAssertEqual($0 as? BatchStoreError, .overflow(lane: 4, quantity: "value"))
        }
        XCTAssertEqual(try store.decayVelocities(of: big), [10, 1e308], "nothing moved")
        XCTAssertThrowsError(try store.addDecays(.normal, positions: [1], velocities: [])) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "velocities")
        }
    }

    /// A decay lane's output value is its position from the moment it is added, and entries
    /// added after it (springs come before decays in the output) leave it where it is.
    func testDecayValuesAreTheirPositionsAndStayPutWhenSpringsAreAdded() throws {
        let store = BatchStore()
        let decays = try store.addDecays(.normal, positions: [3, -4], velocities: [100, 0])
        XCTAssertEqual(try store.values(of: decays), [3, -4], "no evaluation needed")
        let springs = try store.addSprings(try Spring(dampingRatio: 1, response: 0.3), targets: [5, 6])
        XCTAssertEqual(try store.values(of: decays), [3, -4], "moved with their section, not overwritten")
        XCTAssertEqual(try store.values(of: springs), [0, 0], "a new entry's lanes are 0 until evaluated")
        _ = try store.addGroup(from: [0], to: [1], progress: 0.5)
        XCTAssertEqual(try store.values(of: decays), [3, -4])
        try store.tick(over: 0.1)
        let c1 = ExponentialDecay.normal.offset(at: 0.1, initialVelocity: 1)
        XCTAssertEqual(try store.values(of: decays), [3 + 100 * c1, -4])
        XCTAssertEqual(try store.values(of: springs), [5, 6])
    }

    /// Retargeting keeps each spring's position and velocity and heads it for the new
    /// target: after the retarget the springs follow the Float80 solution from their state
    /// relative to the new target.
    func testRetargetedSpringsKeepPositionAndVelocity() throws {
        let spring = try Spring(dampingRatio: 0.7, response: 0.35)
        let reference = SpringReference80(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
        let store = BatchStore()
        let targets = [100.0, -50, 0, 3e5]
        let handle = try store.addSprings(spring, targets: targets, displacements: [-100, 50, 20, -1e5],
                                          velocities: [0, 300, -40, 2e4])
        for _ in 0 ..< 10 { try store.tick(over: 1.0 / 60) }
        let group = try store.springGroup(for: handle)
        let before = try store.values(of: handle)
        let velocities = (0 ..< 4).map { group.velocity(at: $0) }
        let newTargets = [250.0, -50, -1e4, 0]
        try store.retargetSprings(handle, targets: newTargets)
        try store.evaluate()
        let after = try store.values(of: handle)
        for i in 0 ..< 4 {
            XCTAssertEqual(after[i], before[i], accuracy: 1e-12 * max(1, abs(before[i])), "position continuous, lane \(i)")
            XCTAssertEqual(group.velocity(at: i), velocities[i], "velocity unchanged, lane \(i)")
        }
        for _ in 0 ..< 30 { try store.tick(over: 1.0 / 60) }
        let values = try store.values(of: handle)
        for i in 0 ..< 4 {
            let s = reference.state(at: 0.5, displacement: Float80(before[i] - newTargets[i]), velocity: Float80(velocities[i]))
            let expected = newTargets[i] + Double(s.x)
            XCTAssertEqual(values[i], expected, accuracy: 1e-9 * max(1, abs(before[i] - newTargets[i])), "lane \(i)")
        }
        // Refusals change nothing.
        XCTAssertThrowsError(try store.retargetSprings(handle, targets: [1, 2, 3])) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "targets")
        }
        XCTAssertThrowsError(try store.retargetSprings(handle, targets: [1, 2, .nan, 4]))
        let far = try store.addSprings(spring, targets: [1e308], displacements: [1e308])
        XCTAssertThrowsError(try store.retargetSprings(far, targets: [-1e308])) {
            guard case .overflow(_, let quantity)? = $0 as? BatchStoreError else { return XCTFail("\($0)") }
            XCTAssertEqual(quantity, "displacement")
        }
        XCTAssertEqual(try store.springGroup(for: far).displacement(at: 0), 1e308)
        // Empty entries: nothing to move, nothing to step (and nothing read past an array).
        let emptySprings = try store.addSprings(spring, targets: [])
        try store.retargetSprings(emptySprings, targets: [])
        let emptyStore = BatchStore()
        let noDecays = try emptyStore.addDecays(.fast, positions: [], velocities: [])
        let noSprings = try emptyStore.addSprings(spring, targets: [])
        try emptyStore.tick(over: 0.1)
        try emptyStore.retargetSprings(noSprings, targets: [])
        XCTAssertEqual(try emptyStore.values(of: noDecays), [])
        let group2 = try store.addGroup(from: [0], to: [1])
        XCTAssertThrowsError(try store.retargetSprings(group2, targets: [1])) {
            XCTAssertEqual($0 as? BatchStoreError, .wrongKind(expected: .springs, actual: .group))
        }
    }
}
