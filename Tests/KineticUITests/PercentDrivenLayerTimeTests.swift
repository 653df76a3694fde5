import Kinetic
import KineticUI
import XCTest

/// A percent-driven interactive transition of staggered block animations. UIKit drives the
/// block animations that `animateTransition` makes by the layer's time (`percentComplete ×
/// transitionDuration`), so each keeps its own delay, duration and curve within it.
@MainActor
final class PercentDrivenLayerTimeTests: EngineTestCase {
    /// The common custom-transition shape: the presented view slides out over the whole
    /// second, a badge fades over the second half (0.5 s after a 0.5 s delay), a dimming view
    /// fades over the first half, and a marker moves over the whole second along ease-in.
    @MainActor
    private final class StaggeredSlideOut: ViewControllerAnimatedTransitioning {
        let badge = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let dimming = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let marker = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 1 }
        func animateTransition(using context: any ViewControllerContextTransitioning) throws {
            let fromView = context.viewController(forKey: .from)!.view
            let engine = context.viewController(forKey: .from)!.engine
            let badge = self.badge, dimming = self.dimming, marker = self.marker
            try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
                fromView.center = Point(x: fromView.center.x, y: fromView.center.y + 844)
            }, completion: { _ in try? context.completeTransition(!context.transitionWasCancelled) })
            try View.animate(withDuration: 0.5, delay: 0.5, options: .curveLinear, engine: engine, animations: { badge.alpha = 0 })
            try View.animate(withDuration: 0.5, options: .curveLinear, engine: engine, animations: { dimming.alpha = 0 })
            try View.animate(withDuration: 1, options: .curveEaseIn, engine: engine, animations: { marker.center.x = 105 })
        }
    }

    @MainActor
    private final class Delegate: ViewControllerTransitioningDelegate {
        let slide = StaggeredSlideOut()
        let interaction = PercentDrivenInteractiveTransition()
        func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { slide }
        func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? { interaction }
    }

    private var window: Window?

    override func tearDown() async throws {
        window = nil
        try await super.tearDown()
    }

    private func dismissInteractively() throws -> (b: ViewController, delegate: Delegate) {
        let window = Window(engine: engine)
        self.window = window
        let a = ViewController(name: "A")
        window.rootViewController = a
        let b = ViewController(name: "B")
        let delegate = Delegate()
        b.transitioningDelegate = delegate
        try a.present(b, animated: false)
        try b.dismiss(animated: true)
        return (b, delegate)
    }

    /// At 25 % (0.25 s in) the badge, which waits 0.5 s, has not moved, and the 0.5 s dimming
    /// fade is half done; at 75 % the badge is half faded and the dimming fade is over. The
    /// ease-in marker shows ease-in of the time, not the percentage.
    func testUpdateScrubsBlockAnimationsByTransitionTimeHonouringTheirDelayAndDuration() async throws {
        let (b, delegate) = try dismissInteractively()
        let slide = delegate.slide
        delegate.interaction.update(0.25)
        XCTAssertEqual(b.view.presentation.center.y, 422 + 844 * 0.25, accuracy: 1e-6, "the whole-length slide")
        XCTAssertEqual(slide.badge.presentation.alpha, 1, accuracy: 1e-9, "0.25 s in: still in its 0.5 s delay")
        XCTAssertEqual(slide.dimming.presentation.alpha, 0.5, accuracy: 1e-9, "0.25 s into a 0.5 s fade")
        XCTAssertEqual(slide.marker.presentation.center.x, 5 + 100 * CubicBezier.easeIn.value(at: 0.25), accuracy: 1e-9,
                       "along its own curve")
        delegate.interaction.update(0.75)
        XCTAssertEqual(slide.badge.presentation.alpha, 0.5, accuracy: 1e-9, "0.25 s into its 0.5 s fade")
        XCTAssertEqual(slide.dimming.presentation.alpha, 0, accuracy: 1e-9, "its fade ended at 0.5 s")
        delegate.interaction.update(0.25)
        XCTAssertEqual(slide.badge.presentation.alpha, 1, accuracy: 1e-9, "back before the badge's part")

        // Finish from 25 %: the transition's time runs on at completion speed 1, so the badge
        // waits 0.25 s more before it fades, over 0.5 s, and everything ends by 0.75 s.
        // Each covers the rest of its part eased by the completion curve (ease in-out): the
        // dimming view its last 0.25 s from 0.5, the badge its 0.5 s from 0.25 s on.
        try delegate.interaction.finish()
        let eased = CubicBezier.easeInOut
        try advance(to: 0.2)
        XCTAssertEqual(slide.badge.presentation.alpha, 1, accuracy: 1e-9, "the badge still waits")
        XCTAssertEqual(slide.dimming.presentation.alpha, 0.5 - 0.5 * eased.value(at: 0.8), accuracy: 1e-9)
        try advance(to: 0.375)
        XCTAssertEqual(slide.badge.presentation.alpha, 1 - eased.value(at: 0.25), accuracy: 1e-9, "the badge's part has begun")
        try advance(to: 0.5)
        XCTAssertEqual(slide.badge.presentation.alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(slide.marker.presentation.center.x,
                       5 + 100 * (CubicBezier.easeIn.value(at: 0.25) + (1 - CubicBezier.easeIn.value(at: 0.25)) * eased.value(at: 0.5 / 0.75)),
                       accuracy: 1e-9, "the whole-length marker: the rest of its progress eased over 0.75 s")
        try advance(to: 0.8)
        XCTAssertEqual(slide.badge.presentation.alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(slide.dimming.presentation.alpha, 0, accuracy: 1e-9)
        XCTAssertNil(window?.transitionInProgress)
        XCTAssertNil(b.presentingViewController, "dismissed")
    }

    /// Cancelled from 75 %: the badge (its part from 0.5 s to 1 s, half faded) goes back
    /// first, the dimming view (0 to 0.5 s, done) only once the transition's time is back
    /// inside its part, and the transition is cancelled at the start.
    func testCancelRunsEachAnimationBackOverItsOwnPartOfTheTime() async throws {
        let (b, delegate) = try dismissInteractively()
        let slide = delegate.slide
        delegate.interaction.completionSpeed = 2
        delegate.interaction.update(0.75)
        try delegate.interaction.cancel()
        // 0.25 s of transition time back takes 0.125 s at speed 2: the dimming view waits.
        try advance(to: 0.1)
        XCTAssertEqual(slide.dimming.presentation.alpha, 0, accuracy: 1e-9, "the dimming view waits its turn")
        XCTAssertGreaterThan(slide.badge.presentation.alpha, 0.5, "the badge is on its way back")
        try advance(to: 0.2)
        XCTAssertGreaterThan(slide.dimming.presentation.alpha, 0, "its part has come")
        try advance(to: 0.5)
        XCTAssertEqual(slide.badge.presentation.alpha, 1, accuracy: 1e-9)
        XCTAssertEqual(slide.dimming.presentation.alpha, 1, accuracy: 1e-9)
        XCTAssertEqual(b.view.presentation.center.y, 422, accuracy: 1e-9)
        XCTAssertNil(window?.transitionInProgress)
        XCTAssertNotNil(b.presentingViewController, "the dismissal was cancelled")
    }

    /// Paused again during the finish, the percentage is read back in the transition's time.
    func testPauseDuringTheFinishReadsTheTransitionsTime() async throws {
        let (_, delegate) = try dismissInteractively()
        delegate.interaction.completionCurve = .linear
        delegate.interaction.update(0.25)
        try delegate.interaction.finish()
        try advance(to: 0.5)
        delegate.interaction.pause()
        XCTAssertEqual(delegate.interaction.percentComplete, 0.75, accuracy: 1e-9)
        delegate.interaction.update(0.6)
        XCTAssertEqual(delegate.slide.badge.presentation.alpha, 0.8, accuracy: 1e-9, "0.1 s into its 0.5 s fade")
        try delegate.interaction.finish()
        try advance(to: 2)
        XCTAssertNil(window?.transitionInProgress)
    }
}
