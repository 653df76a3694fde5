import Kinetic
import KineticUI
import XCTest

/// `View.modifyAnimations(withRepeatCount:autoreverses:animations:)`.
@MainActor
final class ModifyAnimationsTests: EngineTestCase {
    /// Two cycles forward and back, then the new value; the completion waits for them.
    func testRepeatsForwardAndBackThenShowsTheNewValue() async throws {
        let v = box()
        var finished: Bool?
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            try? View.modifyAnimations(withRepeatCount: 2, autoreverses: true) { v.alpha = 0 }
        }, completion: { finished = $0 })
        XCTAssertEqual(v.alpha, 0, "the model takes the new value")
        let expected: [(Double, Double)] = [(0.5, 0.5), (1, 0), (1.5, 0.5), (2.25, 0.75), (3.5, 0.5)]
        for (t, alpha) in expected {
            try advance(to: t)
            XCTAssertEqual(v.presentation.alpha, alpha, accuracy: 1e-12, "at \(t) s")
        }
        XCTAssertNil(finished)
        try advance(to: 3.99)
        XCTAssertNil(finished)
        try advance(to: 4)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(v.presentation.alpha, 0, "the new value at the end")
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    /// A fractional count stops part-way through a cycle and snaps to the new value; the
    /// other animations of the block are not repeated, and the completion comes last.
    func testFractionalCountBesideUnmodifiedAnimations() async throws {
        let v = box()
        var finished: Bool?
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.center = Point(x: 150, y: 50)
            try? View.modifyAnimations(withRepeatCount: 1.5, autoreverses: false) { v.alpha = 0 }
        }, completion: { finished = $0 })
        try advance(to: 1.25)
        XCTAssertEqual(v.presentation.center.x, 150, "not repeated")
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12, "second cycle, a quarter in")
        XCTAssertNil(finished, "waits for the repeating animations")
        try advance(to: 1.5)
        XCTAssertEqual(v.presentation.alpha, 0)
        XCTAssertEqual(finished, true)
    }

    func testOutsideABlockAnimationIsRefused() async throws {
        let v = box()
        XCTAssertThrowsError(try View.modifyAnimations(withRepeatCount: 2, autoreverses: false) { v.alpha = 0 }) {
            XCTAssertEqual($0 as? AnimatorError, .modifyAnimationsOutsideAnimationBlock)
        }
        XCTAssertEqual(v.alpha, 1)
        var thrown: (any Error)?
        try View.animate(withDuration: 1, engine: engine, animations: {
            do { try View.modifyAnimations(withRepeatCount: .infinity, autoreverses: false) { v.alpha = 0 } } catch { thrown = error }
        })
        XCTAssertNotNil(thrown, "an infinite count is refused")
    }
}
