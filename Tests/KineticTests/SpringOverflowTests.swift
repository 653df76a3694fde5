import Kinetic
import XCTest

/// Finite in, never infinite (or NaN) out: huge finite velocities (up to ±1.8e308), subnormal
/// ones, on soft, stiff, bouncy, critical and overdamped springs. Where the true position or
/// velocity is beyond the range of Double, the checked forms throw a typed error naming
/// `initialVelocity`, and `sample` refuses.
final class SpringOverflowTests: XCTestCase {
    static let velocities: [Double] = [0, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                       1e308, -1e308, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                                       .leastNormalMagnitude, Double.leastNormalMagnitude / 16]
    static let times: [Double] = [0, 1e-300, 1e-9, 0.01, 0.5, 1, 10, 1e6, 1e300, .greatestFiniteMagnitude]

    static func springs() throws -> [Spring] {
        [
            try Spring(dampingRatio: 0.5, response: 0.5),
            try Spring(dampingRatio: 1, response: 0.5),
            try Spring(dampingRatio: 3, response: 0.5),
            try Spring(dampingRatio: 1 - 1e-12, response: 0.5),
            try Spring(dampingRatio: 1 + 1e-12, response: 0.5),
            try Spring(dampingRatio: 1e-12, response: 100),
            try Spring(mass: 1, stiffness: 1e-300, damping: 1e-100),  // very soft
            try Spring(mass: 1, stiffness: 1e300, damping: 2e150),   // very stiff, critical
            try Spring(mass: 1, stiffness: 1e-300, damping: 2e150),  // extremely overdamped: see below
            try Spring(mass: 1, stiffness: 1e300, damping: 1e-300),
            Spring.coreAnimationDefault,
        ]
    }

    func testHugeFiniteVelocitiesNeverGiveInfinityWithoutATypedError() throws {
        var thrown = 0, total = 0
        for spring in try Self.springs() {
            for v0 in Self.velocities {
                let settle = spring.settlingDuration(initialVelocity: v0)
                // Its slow rate ω0²/2α = 5e-451 is below Double range: it settles after more
                // than 1e450 s, which the contract reports as +infinity.
                let beyondRange = spring.stiffness == 1e-300 && spring.damping == 2e150
                XCTAssertTrue(beyondRange ? settle == .infinity : settle.isFinite && settle >= 0,
                              "\(spring) v0 \(v0): settling \(settle)")
                for t in Self.times {
                    total += 1
                    let label = "\(spring) v0 \(v0) t \(t)"
                    let x = spring.value(at: t, initialVelocity: v0)
                    let v = spring.velocity(at: t, initialVelocity: v0)
                    XCTAssertFalse(x.isNaN, label)
                    XCTAssertFalse(v.isNaN, label)
                    for (result, checked) in [(x, { try spring.checkedValue(at: t, initialVelocity: v0) }),
                                              (v, { try spring.checkedVelocity(at: t, initialVelocity: v0) })]
                        as [(Double, () throws -> Double)] {
                        if result.isFinite {
                            XCTAssertEqual(try checked().bitPattern, result.bitPattern, label)
                        } else {
                            thrown += 1
                            XCTAssertThrowsError(try checked(), label) { error in
                                XCTAssertEqual((error as? ParameterError)?.parameter, "initialVelocity", label)
                                XCTAssertTrue("\(error)".contains("\(v0)"), "\(error)")
                            }
                        }
                    }
                }
                let phi = try spring.transition(over: 0.01)
                XCTAssertTrue([phi.m11, phi.m12, phi.m21, phi.m22].allSatisfy(\.isFinite), "\(spring)")
            }
        }
        print("[Spring overflow] \(total) (spring, v0, t) cases, \(thrown) value/velocity results beyond Double range (typed error)")
        XCTAssertGreaterThan(thrown, 0)  // the sweep does reach the unrepresentable cases
    }

    func testSamplingRefusesAMotionBeyondDoubleRange() throws {
        let soft = try Spring(mass: 1, stiffness: 1e-2, damping: 0.5)
        XCTAssertThrowsError(try sample(soft, initialVelocity: .greatestFiniteMagnitude, rate: 1)) { error in
            XCTAssertEqual((error as? ParameterError)?.parameter, "initialVelocity", "\(error)")
        }
        // A large velocity whose motion stays representable still samples.
        let table = try sample(Spring.coreAnimationDefault, initialVelocity: 1e300, rate: 1)
        XCTAssertEqual(table.column(named: "value")?.allSatisfy(\.isFinite), true)
    }
}
