import Kinetic
import KineticUI
import XCTest

/// `View.animateKeyframes` and `View.addKeyframe(withRelativeStartTime:relativeDuration:animations:)`.
@MainActor
final class KeyframeAnimationTests: EngineTestCase {
    /// x: 50 → 100 over [0, 0.25], → 200 over [0.25, 0.5], → 0 over [0.5, 1]; alpha set
    /// directly spans the whole second.
    func animateThreeKeyframes(_ v: View, options: KeyframeAnimationOptions,
                               completion: (@MainActor (Bool) -> Void)? = nil) throws {
        try View.animateKeyframes(withDuration: 1, options: options, engine: engine, animations: {
            v.alpha = 0
            try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) { v.center.x = 100 }
            try View.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.25) { v.center.x = 200 }
            try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { v.center.x = 0 }
        }, completion: completion)
    }

    func testLinearKeyframesAreContinuousAndLinearInsideEachWindow() async throws {
        let v = box()
        var finished: Bool?
        try animateThreeKeyframes(v, options: .curveLinear) { finished = $0 }
        XCTAssertEqual(v.model.center.x, 0)
        func expected(_ t: Double) -> Double {
            if t <= 0.25 { return 50 + 50 * t / 0.25 }
            if t <= 0.5 { return 100 + 100 * (t - 0.25) / 0.25 }
            return 200 - 200 * (t - 0.5) / 0.5
        }
        for k in 1 ... 59 {
            let t = Double(k) / 60
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, expected(t), accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(v.presentation.alpha, 1 - t, accuracy: 1e-12, "direct changes span the whole duration")
        }
        // Continuity at the boundaries (and exact values on them).
        engine = AnimationEngine()
        let w = box()
        try animateThreeKeyframes(w, options: .curveLinear)
        for boundary in [0.25, 0.5] {
            try advance(to: boundary - 1e-9)
            let before = w.presentation.center.x
            try advance(to: boundary)
            XCTAssertEqual(w.presentation.center.x, expected(boundary), accuracy: 1e-9)
            try advance(to: boundary + 1e-9)
            let after = w.presentation.center.x
            XCTAssertEqual(before, after, accuracy: 1e-5, "continuous at \(boundary)")
        }
        XCTAssertNil(finished)
        try advance(to: 1)
        XCTAssertEqual(w.presentation.center.x, 0)
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    func testDiscreteKeyframesHoldThenJump() async throws {
        let v = box()
        var finished: Bool?
        try animateThreeKeyframes(v, options: [.calculationModeDiscrete, .curveLinear]) { finished = $0 }
        for (t, x) in [(0.1, 50.0), (0.24, 50), (0.25, 100), (0.3, 100), (0.49, 100), (0.5, 200), (0.99, 200)] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, x, "t = \(t)")
        }
        XCTAssertEqual(v.presentation.alpha, 0.01, accuracy: 1e-12, "direct changes stay linear")
        XCTAssertNil(finished)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.center.x, 0)
        XCTAssertEqual(finished, true)
    }

    /// `.beginFromCurrentState` keyframes start from the value on screen and still pass
    /// through every keyframe.
    func testKeyframesFromCurrentStatePassThroughEveryKeyframe() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.center.x = 250 })
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-12)
        try View.animateKeyframes(withDuration: 1, options: [.beginFromCurrentState, .curveLinear], engine: engine, animations: {
            try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { v.center.x = 300 }
            try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { v.center.x = 0 }
        })
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-12, "no jump")
        for (t, x) in [(0.75, 225.0), (1.0, 300), (1.25, 150), (1.5, 0)] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, x, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertEqual(v.model.center.x, 0)
    }

    func testAddKeyframeOutsideAnimateKeyframesThrows() async throws {
        let v = box()
        XCTAssertThrowsError(try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { v.alpha = 0 }) {
            XCTAssertEqual($0 as? AnimatorError, .keyframeOutsideAnimateKeyframes)
            XCTAssertTrue("\($0)".contains("animateKeyframes"))
        }
        XCTAssertEqual(v.alpha, 1, "the block is not run")
        // Inside a plain animate block it is still outside animateKeyframes.
        var inner: Error?
        try View.animate(withDuration: 1, engine: engine, animations: {
            do { try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { v.alpha = 0 } } catch { inner = error }
        })
        XCTAssertEqual(inner as? AnimatorError, .keyframeOutsideAnimateKeyframes)
        XCTAssertEqual(v.alpha, 1)
    }

    func testBadRelativeTimesThrow() async throws {
        let cases: [(Double, Double, String)] = [
            (-0.1, 0.5, "relativeStartTime"), (1.1, 0, "relativeStartTime"), (.nan, 0.5, "relativeStartTime"),
            (0.5, -0.1, "relativeDuration"), (0, 1.2, "relativeDuration"), (0, .nan, "relativeDuration"),
            (0.6, 0.6, "relativeStartTime + relativeDuration"),
        ]
        for (start, length, name) in cases {
            let v = box()
            XCTAssertThrowsError(try View.animateKeyframes(withDuration: 1, engine: engine, animations: {
                try View.addKeyframe(withRelativeStartTime: start, relativeDuration: length) { v.alpha = 0 }
            })) { error in
                guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
                XCTAssertEqual(p.parameter, name, "\(start), \(length)")
            }
            XCTAssertEqual(v.alpha, 1, "the bad keyframe's block is not run")
        }
        XCTAssertEqual(engine.activeAnimatorCount, 0)
        XCTAssertEqual(engine.animatedLaneCount, 0)
    }
}
