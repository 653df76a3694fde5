import Kinetic
import XCTest

/// Springs at the edges of what double precision can represent: rejected with a typed error
/// when the rates are not computable, and never NaN (or a hang) when accepted.
final class SpringRangeTests: XCTestCase {
    func testUnrepresentableRatesAreRejected() {
        let cases: [(Double, Double, Double, String)] = [
            (1e-300, 1e300, 1, "stiffness / mass"),      // ω0² = 1e600
            (Double.leastNormalMagnitude / 64, 1, 1, "stiffness / mass"), // subnormal mass
            (1, 1e10, 1e308, "damping / (2·mass)"),
            (1, 1, 1e300, "damping / (2·mass)"),         // α² overflows
            (1e300, 1e-300, 1e-300, "stiffness / mass"), // ω0² = 1e-600
        ]
        for (m, k, c, name) in cases {
            XCTAssertThrowsError(try Spring(mass: m, stiffness: k, damping: c), "\(m), \(k), \(c)") { error in
                XCTAssertEqual((error as? ParameterError)?.parameter, name, "\(m), \(k), \(c)")
            }
        }
        XCTAssertThrowsError(try Spring(dampingRatio: 0.5, response: 1e-200))
    }

    func testEdgeSpringsNeverReturnNaNAndSettlingTerminates() throws {
        let springs = [
            try Spring(mass: 1, stiffness: 1e300, damping: 0),
            try Spring(mass: 1, stiffness: 1e300, damping: 2e150),
            try Spring(mass: 1, stiffness: 1e-300, damping: 2e150),
            try Spring(mass: 1, stiffness: 1e-300, damping: 0),
            try Spring(mass: 1e-3, stiffness: 1e6, damping: 1e-3),
        ]
        for spring in springs {
            for t in [0, 1e-300, 1e-9, 0.5, 1, 100, 1e300, .greatestFiniteMagnitude] {
                for v0 in [-100.0, 0, 3] {
                    XCTAssertFalse(spring.value(at: t, initialVelocity: v0).isNaN, "\(spring) value at \(t), v0 \(v0)")
                    XCTAssertFalse(spring.velocity(at: t, initialVelocity: v0).isNaN, "\(spring) velocity at \(t), v0 \(v0)")
                }
            }
            XCTAssertFalse(spring.settlingDuration().isNaN, "\(spring)")
        }
    }

    /// A spring of mass above about 9e307: 2·mass overflowed, its decay rate read 0, and it
    /// moved undamped (0.46 at t = 1e149, never settling). Heavily overdamped here (ζ ≈ 5e140),
    /// with its slow rate ω0²/2α = 1e-290 per second.
    func testAHeavySpringKeepsItsDamping() throws {
        let s = try Spring(mass: 1e308, stiffness: 1e10, damping: 1e300)
        XCTAssertGreaterThan(s.dampingRatio, 1e140)
        XCTAssertLessThan(abs(s.value(at: 1e149)), 1e-100, "barely moved: 1 − e^(−1e-141)")
        let settle = s.settlingDuration()
        XCTAssertTrue(settle.isFinite)
        // 1 − e^(−r·t) reaches 1 − 0.001 at t = ln(1000)/r, r = 1e-290.
        XCTAssertEqual(settle / (6.907755278982137 / 1e-290), 1, accuracy: 1e-6)
        let group = try SpringGroup(spring: s, count: 3)
        XCTAssertEqual(group.count, 3)
    }

    /// A group's count is bounded before its sizes are computed: Int.max overflowed the
    /// padded stride and trapped.
    func testASpringGroupOfTooManySpringsIsATypedError() {
        for count in [Int.max, 1 << 61, SpringGroup.maximumCount + 1, -1] {
            XCTAssertThrowsError(try SpringGroup(spring: .coreAnimationDefault, count: count), "\(count)") { error in
                XCTAssertEqual((error as? ParameterError)?.parameter, "count")
            }
        }
    }
}

