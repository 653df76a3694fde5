import Kinetic
import KineticUI
import XCTest

/// `performWithoutAnimation`, `setAnimationsEnabled` / `areAnimationsEnabled` and
/// `inheritedAnimationDuration`, as UIKit documents them.
@MainActor
final class AnimationControlTests: EngineTestCase {
    override func tearDown() async throws {
        View.setAnimationsEnabled(true)  // a failing test must not leave animations off
        try await super.tearDown()
    }

    /// Inside an animations block, changes made in `performWithoutAnimation` apply at once;
    /// the others animate.
    func testPerformWithoutAnimationInsideAnAnimationsBlock() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.center = Point(x: 250, y: 50)
            View.performWithoutAnimation { v.alpha = 0.25 }
        })
        try step(30)
        XCTAssertEqual(v.presentation.alpha, 0.25, "applied at once")
        XCTAssertEqual(v.presentation.center.x, 50 + 200 * 0.5, accuracy: 1e-12, "animated")
        XCTAssertTrue(View.areAnimationsEnabled, "restored after the block")
    }

    /// With animations disabled, blocks still run and their changes show at once; the
    /// completion is called (finished) at the next tick; running animations go on.
    func testDisabledAnimationsApplyAtOnce() async throws {
        let running = box("running"), v = box("v")
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            running.center = Point(x: 150, y: 50)
        })
        try step(6)
        View.setAnimationsEnabled(false)
        XCTAssertFalse(View.areAnimationsEnabled)
        var finished: Bool?
        try View.animate(withDuration: 1, engine: engine, animations: { v.alpha = 0.5 }, completion: { finished = $0 })
        XCTAssertEqual(v.presentation.alpha, 0.5)
        XCTAssertNil(finished)
        try step()
        XCTAssertEqual(finished, true)
        XCTAssertEqual(running.presentation.center.x, 50 + 100 * 7.0 / 60, accuracy: 1e-9, "the running one goes on")
        // A property animator's blocks also apply at once.
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.center = Point(x: 0, y: 0) }
        try a.startAnimation()
        XCTAssertEqual(v.presentation.center, Point(x: 0, y: 0))
        View.setAnimationsEnabled(true)
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.alpha = 1 })
        try step(30)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-12, "animated again once enabled")
    }

    /// A change under a running animation made without animation moves the animation with
    /// it (the additive rule), rather than being captured.
    func testPerformWithoutAnimationShiftsARunningAnimation() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.alpha = 0 })
        try step(30)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-12)
        try View.animate(withDuration: 1, engine: engine, animations: {
            View.performWithoutAnimation { v.alpha = 0.2 }
        })
        XCTAssertEqual(v.presentation.alpha, 0.7, accuracy: 1e-12, "shifted by the model's change")
        try step(30)
        XCTAssertEqual(v.presentation.alpha, 0.2, accuracy: 1e-12)
    }

    func testPerformWithoutAnimationRestoresTheSettingWhenItThrows() async {
        struct Failure: Error {}
        XCTAssertThrowsError(try View.performWithoutAnimation { throw Failure() })
        XCTAssertTrue(View.areAnimationsEnabled)
        View.setAnimationsEnabled(false)
        View.performWithoutAnimation { XCTAssertFalse(View.areAnimationsEnabled) }
        XCTAssertFalse(View.areAnimationsEnabled, "nested: the outer setting comes back")
    }

    /// The duration of the animation whose block is running; 0 outside one and without
    /// animation; nested calls inherit the outer duration unless they override it.
    func testInheritedAnimationDuration() async throws {
        var seen: [Double] = []
        XCTAssertEqual(View.inheritedAnimationDuration, 0)
        let v = box()
        try View.animate(withDuration: 0.7, engine: engine, animations: {
            seen.append(View.inheritedAnimationDuration)
            try? View.animate(withDuration: 3, engine: self.engine, animations: {
                seen.append(View.inheritedAnimationDuration)
                v.alpha = 0.1
            })
            try? View.animate(withDuration: 3, options: .overrideInheritedDuration, engine: self.engine, animations: {
                seen.append(View.inheritedAnimationDuration)
                v.alpha = 0.2
            })
            View.performWithoutAnimation { seen.append(View.inheritedAnimationDuration) }
        })
        let a = try PropertyAnimator(duration: 2.5, curve: .easeIn, engine: engine) {
            seen.append(View.inheritedAnimationDuration)
        }
        try a.startAnimation()
        try View.animateKeyframes(withDuration: 1.25, engine: engine, animations: {
            seen.append(View.inheritedAnimationDuration)
            try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
                seen.append(View.inheritedAnimationDuration)
            }
        })
        XCTAssertEqual(seen, [0.7, 0.7, 3, 0, 2.5, 1.25, 1.25])
        XCTAssertEqual(View.inheritedAnimationDuration, 0)
    }
}

/// iOS 17's `UIView.animate(springDuration:bounce:initialSpringVelocity:…)`.
@MainActor
final class SpringDurationAnimationTests: EngineTestCase {
    /// The property follows the physical spring of that perceptual duration and bounce
    /// (against `Spring(duration:bounce:)` itself), and completes, finished, when it settles.
    func testFollowsTheSpringAndCompletesWhenItSettles() async throws {
        for (duration, bounce, velocity) in [(0.5, 0.0, 0.0), (0.4, 0.3, 2.0), (0.8, -0.4, -1.0)] {
            let v = box()
            var finished: Bool?
            try View.animate(springDuration: duration, bounce: bounce, initialSpringVelocity: velocity, engine: engine,
                             animations: { v.center = Point(x: 250, y: 50) }, completion: { finished = $0 })
            let spring = try Spring(duration: duration, bounce: bounce)
            let settle = spring.settlingDuration(initialVelocity: velocity)
            let start = engine.clock.now
            try advance(to: start + 0.2)
            XCTAssertEqual(v.presentation.center.x, 50 + 200 * spring.value(at: 0.2, initialVelocity: velocity), accuracy: 1e-9)
            try advance(to: start + settle * 0.999)
            XCTAssertNil(finished, "still running just before it settles (\(duration), \(bounce))")
            try advance(to: start + settle + 1e-6)
            XCTAssertEqual(finished, true)
            XCTAssertEqual(v.presentation.center.x, 250)
        }
    }

    func testBadArgumentsAreNamed() async throws {
        let v = box()
        XCTAssertThrowsError(try View.animate(springDuration: 0, engine: engine, animations: { v.alpha = 0 })) { error in
            XCTAssertTrue("\(error)".contains("duration"), "\(error)")
        }
        XCTAssertThrowsError(try View.animate(springDuration: 0.5, bounce: 1, engine: engine, animations: { v.alpha = 0 })) { error in
            XCTAssertTrue("\(error)".contains("bounce"), "\(error)")
        }
        XCTAssertEqual(v.alpha, 1, "nothing ran")
    }
}
