import Kinetic
import KineticUI
import XCTest

/// The `UIViewPropertyAnimator` examples of the WWDC16 session "Advances in UIKit
/// Animations and Transitions" (seed document 003), ported with the `UI` prefix dropped
/// and `try` added, asserting what the document says happens.
@MainActor
final class SeedExampleTests: EngineTestCase {
    /// The session's `squareView`: a 100 × 100 square at (100, 100).
    func square() -> View { box("squareView", frame: Rect(x: 50, y: 50, width: 100, height: 100)) }

    /// "Basic usage": timing, animator, addAnimations, addCompletion, startAnimation.
    func basicUsage(_ squareView: View, log: @escaping @MainActor (ViewAnimatingPosition) -> Void = { _ in })
        throws -> PropertyAnimator {
        // define your timing function
        let timing = CubicTimingParameters(animationCurve: .easeInOut)
        // create the animator
        let animator = try PropertyAnimator(duration: 2.0, timingParameters: timing, engine: engine)
        // add your animations
        try animator.addAnimations {
            squareView.center = Point(x: 800.0, y: squareView.center.y)
            squareView.transform = Transform2D(rotationAngle: .pi / 2)
        }
        // add optional completion block to be called
        animator.addCompletion { position in
            squareView.backgroundColor = Color(red: 1, green: 0.5, blue: 0) // orange
            log(position)
        }
        // trigger the animation
        try animator.startAnimation()
        return animator
    }

    func testBasicUsageAnimatesAndCallsTheCompletionAtTheEnd() async throws {
        let squareView = square()
        var positions: [ViewAnimatingPosition] = []
        let animator = try basicUsage(squareView) { positions.append($0) }
        XCTAssertEqual(animator.duration, 2)
        XCTAssertEqual(animator.delay, 0)
        XCTAssertEqual(animator.timingParameters.cubicTimingParameters?.animationCurve, .easeInOut)
        XCTAssertEqual(animator.state, .active)
        XCTAssertTrue(animator.isRunning)
        for t in [0.5, 1.0, 1.5] {
            try advance(to: t)
            let p = CubicBezier.easeInOut.value(at: t / 2)
            XCTAssertEqual(squareView.presentation.center.x, 100 + 700 * p, accuracy: 1e-9)
            XCTAssertEqual(squareView.presentation.center.y, 100)
            let angle = atan2(squareView.presentation.transform.b, squareView.presentation.transform.a)
            XCTAssertEqual(angle, .pi / 2 * p, accuracy: 1e-9, "the square turns as it moves")
            XCTAssertNil(squareView.backgroundColor)
        }
        try advance(to: 2)
        XCTAssertEqual(positions, [.end])
        XCTAssertEqual(squareView.backgroundColor, Color(red: 1, green: 0.5, blue: 0), "set by the completion")
        XCTAssertEqual(squareView.presentation.center, Point(x: 800, y: 100))
        XCTAssertEqual(squareView.presentation.transform.b, 1, accuracy: 1e-12)
        XCTAssertEqual(animator.state, .inactive)
    }

    /// "Pausing and reversing": pause, `isReversed = true`, start → "will go backwards";
    /// the completion says where it ended.
    func testPauseReverseStartGoesBackwards() async throws {
        let squareView = square()
        var positions: [ViewAnimatingPosition] = []
        let animator = try basicUsage(squareView) { positions.append($0) }
        try advance(to: 1.2)
        try animator.pauseAnimation()
        let paused = squareView.presentation.center.x
        animator.isReversed = true
        try animator.startAnimation()
        var previous = paused
        var t = 1.2
        while positions.isEmpty, t < 5 {
            t += 1.0 / 60
            try advance(to: t)
            XCTAssertLessThanOrEqual(squareView.presentation.center.x, previous + 1e-9, "backwards")
            previous = squareView.presentation.center.x
        }
        XCTAssertEqual(t, 2.4, accuracy: 1.5 / 60, "the 1.2 s already run, run back")
        XCTAssertEqual(positions, [.start])
        XCTAssertEqual(squareView.center, Point(x: 100, y: 100))
        XCTAssertEqual(squareView.presentation.center, Point(x: 100, y: 100))
        XCTAssertEqual(squareView.transform, .identity)
    }

    /// "Stop animating": `stopAnimation(false)` writes the animating value into the model;
    /// `finishAnimation(at: .current)` then calls `completion(.current)`.
    func testStopWithoutFinishingThenFinishAtCurrent() async throws {
        let squareView = square()
        var positions: [ViewAnimatingPosition] = []
        let animator = try basicUsage(squareView) { positions.append($0) }
        try advance(to: 0.8)
        let shown = squareView.presentation
        try animator.stopAnimation(false)
        XCTAssertEqual(squareView.model.center, shown.center, "the model takes the value on screen at that instant")
        XCTAssertEqual(squareView.model.transform.b, shown.transform.b, accuracy: 1e-12)
        XCTAssertEqual(positions, [])
        XCTAssertEqual(animator.state, .stopped)
        try animator.finishAnimation(at: .current)
        XCTAssertEqual(positions, [.current])
        XCTAssertEqual(squareView.presentation.center, shown.center)
        XCTAssertEqual(animator.state, .inactive)
    }

    /// "calling finishAnimation(at:) will not have any animation".
    func testFinishAtEndSnapsWithoutAnimation() async throws {
        let squareView = square()
        let animator = try basicUsage(squareView)
        try advance(to: 0.8)
        try animator.stopAnimation(false)
        try animator.finishAnimation(at: .end)
        XCTAssertEqual(squareView.presentation.center, Point(x: 800, y: 100), "at once")
        try advance(to: 0.9)
        XCTAssertEqual(squareView.presentation.center, Point(x: 800, y: 100))
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    /// `stopAnimation(true)`: "the animation ends right there and the completion block is
    /// not called".
    func testStopWithoutFinishingTrueDoesNotCallTheCompletion() async throws {
        let squareView = square()
        var positions: [ViewAnimatingPosition] = []
        let animator = try basicUsage(squareView) { positions.append($0) }
        try advance(to: 0.8)
        let shown = squareView.presentation.center
        try animator.stopAnimation(true)
        try advance(to: 5)
        XCTAssertEqual(positions, [])
        XCTAssertNil(squareView.backgroundColor)
        XCTAssertEqual(squareView.presentation.center, shown)
        XCTAssertEqual(animator.state, .inactive)
    }

    /// "Reversing", second way: flip `isReversed` while the animation runs.
    func testReverseWhileRunning() async throws {
        let squareView = square()
        var positions: [ViewAnimatingPosition] = []
        let animator = try basicUsage(squareView) { positions.append($0) }
        try advance(to: 1)
        let atFlip = squareView.presentation.center.x
        animator.isReversed = true
        XCTAssertTrue(animator.isRunning)
        try advance(to: 1.5)
        XCTAssertLessThan(squareView.presentation.center.x, atFlip)
        try advance(to: 2)
        XCTAssertEqual(positions, [.start])
        XCTAssertEqual(squareView.presentation.center, Point(x: 100, y: 100))
    }

    /// "Reversing", third (preferred) way: add an animation back to the original values —
    /// fluid (no jump), and the completion reports `.end`.
    func testAddAnimationsBackToTheStartCompletesAtEnd() async throws {
        let squareView = square()
        var positions: [ViewAnimatingPosition] = []
        let animator = try basicUsage(squareView) { positions.append($0) }
        try advance(to: 1)
        let before = squareView.presentation
        try animator.addAnimations {
            // go back to initial state
            squareView.center.x = 100.0
            squareView.transform = .identity
        }
        XCTAssertEqual(squareView.presentation.center.x, before.center.x, accuracy: 1e-9, "no jump")
        var previous = before.center.x
        var t = 1.0
        while positions.isEmpty, t < 3 {
            t += 1.0 / 60
            try advance(to: t)
            XCTAssertLessThan(abs(squareView.presentation.center.x - previous), 40, "fluid: no large step between frames")
            previous = squareView.presentation.center.x
        }
        XCTAssertEqual(positions, [.end])
        XCTAssertEqual(squareView.presentation.center, Point(x: 100, y: 100))
        XCTAssertEqual(squareView.transform, .identity)
    }

    /// The protocols: everything above is reachable through `UIViewImplicitlyAnimating`,
    /// and `continueAnimation` "allows you to proceed from a paused animation with a
    /// completely different finish duration, and possibly even a different timing
    /// function".
    func testContinueWithADifferentDurationAndTimingFunction() async throws {
        // A different finish duration: the remaining half of a 2 s run in 0.25 × 2 s.
        var squareView = square()
        var positions: [ViewAnimatingPosition] = []
        var animator: any ViewImplicitlyAnimating = try basicUsage(squareView) { positions.append($0) }
        try advance(to: 1)
        try animator.pauseAnimation()
        try animator.continueAnimation(withTimingParameters: nil, durationFactor: 0.25)
        try advance(to: 1.49)
        XCTAssertEqual(positions, [])
        try advance(to: 1.5)
        XCTAssertEqual(positions, [.end])
        XCTAssertEqual(squareView.presentation.center.x, 800)

        // A different timing function: a bouncy spring over the rest of the run.
        engine = AnimationEngine()
        squareView = square()
        positions = []
        animator = try basicUsage(squareView) { positions.append($0) }
        try advance(to: 1)
        try animator.pauseAnimation()
        let paused = squareView.presentation.center.x
        try animator.continueAnimation(withTimingParameters: SpringTimingParameters(dampingRatio: 0.2), durationFactor: 1)
        XCTAssertEqual(squareView.presentation.center.x, paused, "no jump")
        var maxX = paused
        for k in 1 ... 120 {
            try advance(to: 1 + Double(k) / 60)
            maxX = max(maxX, squareView.presentation.center.x)
        }
        XCTAssertGreaterThan(maxX, 800, "the spring overshoots the end, the ease-in-out curve never does")
        XCTAssertEqual(positions, [.end])
    }

    /// `runningPropertyAnimator(withDuration:delay:options:animations:completion:)` returns
    /// a running animator; the other properties of the class are there.
    func testRunningPropertyAnimatorAndClassProperties() async throws {
        let squareView = square()
        var positions: [ViewAnimatingPosition] = []
        let animator = try PropertyAnimator.runningPropertyAnimator(withDuration: 1, delay: 0.5, options: [],
                                                                    engine: engine, animations: {
                                                                        squareView.alpha = 0
                                                                    }, completion: { positions.append($0) })
        XCTAssertTrue(animator.isRunning)
        XCTAssertEqual(animator.delay, 0.5)
        XCTAssertFalse(animator.isUserInteractionEnabled, "no .allowUserInteraction in the options")
        XCTAssertTrue(try PropertyAnimator(duration: 1, curve: .linear, engine: engine).isUserInteractionEnabled,
                      "the class default")
        XCTAssertFalse(animator.isManualHitTestingEnabled)
        XCTAssertTrue(animator.isInterruptible)
        animator.isManualHitTestingEnabled = true
        XCTAssertTrue(animator.isManualHitTestingEnabled)
        try advance(to: 1.5)
        XCTAssertEqual(positions, [.end])
        XCTAssertEqual(squareView.presentation.alpha, 0)
    }
}
