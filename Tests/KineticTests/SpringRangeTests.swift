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
}
