import Kinetic
import XCTest

/// The non-throwing `Spring.value(at:initialVelocity:)` and `velocity(at:initialVelocity:)`
/// (issue 16): ±infinity only where the true result of finite input is beyond the range of
/// `Double`, never NaN. The motion is linear in the initial velocity, so the true result is
/// base + 2^k·(r(v0/2^k) − base) with base = r(0): where r(v0) is infinite, that true result
/// (from the smallest k ≥ 2 with r(v0/2^k) finite) must be beyond ±1.8e308, with the same
/// sign; where r(v0) is finite it must agree with the same linear combination.
final class SpringRepresentableTests: XCTestCase {
    private func check(_ name: String, _ r: (Double) -> Double, _ v0: Double, _ label: String) -> Bool {
        let full = r(v0), base = r(0)
        XCTAssertFalse(full.isNaN, "\(name) \(label)")
        XCTAssertTrue(base.isFinite, "\(name) \(label): base \(base)")
        // The smallest k ≥ 2 with r(v0 / 2^k) finite: d = r(v0 / 2^k) − base is 2^−k of the
        // velocity's contribution.
        var k = 2, part = r(v0 / 4)
        while !part.isFinite && k < 1100 {
            k += 1
            part = r(v0 * Double(sign: .plus, exponent: -k, significand: 1))
        }
        XCTAssertTrue(part.isFinite, "\(name) \(label): no finite fraction of v0")
        let d = part - base, scale = Double(sign: .plus, exponent: k, significand: 1)
        guard full.isInfinite else {
            // Finite: the linear combination agrees (to rounding of the larger terms).
            let combined = base + scale * d
            if combined.isFinite {
                XCTAssertEqual(full, combined, accuracy: 1e-12 * max(1, combined.magnitude, (scale * d).magnitude),
                               "\(name) \(label)")
            }
            return false
        }
        // Infinite: the true value base + 2^k·d is beyond the range, with full's sign.
        let headroom = (Double.greatestFiniteMagnitude - base.magnitude) / scale
        XCTAssertGreaterThan(d.magnitude, headroom * (1 - 1e-12), "\(name) \(label): \(full) but 2^\(k)·\(d) + \(base) fits")
        XCTAssertEqual(full.sign, d.sign, "\(name) \(label)")
        return true
    }

    func testInfinityOnlyWhereTheTrueResultIsBeyondDoubleRange() throws {
        var infinite = 0, total = 0
        for spring in try SpringOverflowTests.springs() {
            for v0 in SpringOverflowTests.velocities {
                for t in SpringOverflowTests.times {
                    let label = "\(spring) v0 \(v0) t \(t)"
                    total += 2
                    if check("value", { spring.value(at: t, initialVelocity: $0) }, v0, label) { infinite += 1 }
                    if check("velocity", { spring.velocity(at: t, initialVelocity: $0) }, v0, label) { infinite += 1 }
                }
            }
        }
        print("[Spring representable] \(total) value/velocity results, \(infinite) infinite, each beyond Double range")
        XCTAssertGreaterThan(infinite, 0)
    }

    /// The documented ends: before time 0, the start (0, initialVelocity); at +infinity, the
    /// rest position 1 with velocity 0 for every damped spring.
    func testTimeLimits() throws {
        for spring in try SpringOverflowTests.springs() where spring.damping > 0 {
            for v0 in [0, 1, -1e300, .greatestFiniteMagnitude] {
                XCTAssertEqual(spring.value(at: -1, initialVelocity: v0), 0, "\(spring)")
                XCTAssertEqual(spring.velocity(at: -1, initialVelocity: v0), v0, "\(spring)")
                XCTAssertEqual(spring.value(at: .infinity, initialVelocity: v0), 1, "\(spring) v0 \(v0)")
                XCTAssertEqual(spring.velocity(at: .infinity, initialVelocity: v0), 0, "\(spring) v0 \(v0)")
            }
        }
    }
}
