import Kinetic
import KineticUI
import XCTest

/// `View.presentationVelocity(of:)`: the exact rate of the presentation values.
@MainActor
final class PresentationVelocityTests: EngineTestCase {
    func testBlockAnimationsMoveAtTheirCurvesSlope() async throws {
        let v = box()
        XCTAssertEqual(v.presentationVelocity(of: .center), [0, 0], "nothing animates it")
        try View.animate(withDuration: 0.5, options: .curveLinear, engine: engine, animations: {
            v.center = Point(x: 250, y: 150)
            v.alpha = 0
        })
        try advance(to: 0.25)
        XCTAssertEqual(v.presentationVelocity(of: .center), [400, 200])
        XCTAssertEqual(v.presentationVelocity(of: .alpha), [-2])
        XCTAssertEqual(v.presentationVelocity(of: .bounds), [0, 0, 0, 0])
        try View.animate(withDuration: 1, options: .curveEaseIn, engine: engine, animations: { v.bounds.size.width = 300 })
        // ease-in (0.42, 0, 1, 1) starts with slope 0: nothing yet from the second animation;
        // the first still moves the centre.
        XCTAssertEqual(v.presentationVelocity(of: .bounds)[2], 0)
        try advance(to: 0.75)
        let slope = CubicBezier.easeIn.slope(at: 0.5)
        XCTAssertEqual(v.presentationVelocity(of: .bounds)[2], 200 * slope, accuracy: 1e-9)
        XCTAssertEqual(v.presentationVelocity(of: .center), [0, 0], "the first animation has ended")
        try advance(to: 2)
        XCTAssertEqual(v.presentationVelocity(of: .bounds), [0, 0, 0, 0])
    }

    func testAPausedAnimatorDoesNotMoveAndASpringStartsAtItsVelocity() async throws {
        let v = box()
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.center.x = 150 }
        try animator.startAnimation()
        try advance(to: 0.5)
        XCTAssertEqual(v.presentationVelocity(of: .center)[0], 100)
        try animator.pauseAnimation()
        XCTAssertEqual(v.presentationVelocity(of: .center)[0], 0, "paused")
        // 50 points left; an initial velocity of 3 (of the remaining distance per second) is
        // 150 points per second at once.
        let spring = try SpringTimingParameters(dampingRatio: 0.7, initialVelocity: Vector(dx: 3, dy: 0))
        try animator.continueAnimation(withTimingParameters: spring, durationFactor: 1)
        XCTAssertEqual(v.presentationVelocity(of: .center)[0], 150, accuracy: 1e-9)
    }
}
