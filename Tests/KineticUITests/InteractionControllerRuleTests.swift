// The interaction-controller rule (issue 19): UIKit asks a delegate for an interaction
// controller only for an animation controller that the delegate itself vended. Apple's
// documentation says so in the argument it passes:
// - UINavigationControllerDelegate.navigationController(_:interactionControllerFor:):
//   `animationController` is "the noninteractive animator object provided by the delegate's
//   navigationController(_:animationControllerFor:from:to:) method";
// - UIViewControllerTransitioningDelegate.interactionControllerForPresentation(using:) and
//   interactionControllerForDismissal(using:): `animator` is the transition animator object
//   returned by animationController(forPresented:presenting:source:) /
//   animationController(forDismissed:).
// So when the delegate vends no animation controller, the standard transition runs and is not
// interactive, even if the delegate would return an interaction controller: a delegate that
// returns its interaction controller unconditionally (a common pattern) must not turn the
// standard push, pop, presentation or dismissal into one that never finishes by itself.

import Kinetic
import KineticUI
import XCTest

@MainActor
final class InteractionControllerRuleTests: EngineTestCase {
    /// Returns `animator` (nil: the standard slide) and, whenever asked, its interaction
    /// controller; records every question.
    private final class NavigationDelegate: NavigationControllerDelegate {
        var animator: (any ViewControllerAnimatedTransitioning)?
        let interaction = PercentDrivenInteractiveTransition()
        var asked: [String] = []
        func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                  from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            asked.append("animationController(\(operation))")
            return animator
        }
        func navigationController(_ navigationController: NavigationController,
                                  interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? {
            asked.append("interactionController")
            return interaction
        }
    }

    /// Records the questions a transitioning delegate is asked; vends `presentAnimator` and
    /// `dismissAnimator` (nil: the standard transition) and always an interaction controller
    /// (a new one for each question, kept in `interaction`).
    private final class ModalDelegate: ViewControllerTransitioningDelegate {
        var presentAnimator: (any ViewControllerAnimatedTransitioning)?
        var dismissAnimator: (any ViewControllerAnimatedTransitioning)?
        var interaction = PercentDrivenInteractiveTransition()
        var asked: [String] = []
        func animationController(forPresented presented: ViewController, presenting: ViewController,
                                 source: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            asked.append("animationController(forPresented:)")
            return presentAnimator
        }
        func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            asked.append("animationController(forDismissed:)")
            return dismissAnimator
        }
        func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? {
            asked.append("interactionControllerForPresentation")
            interaction = PercentDrivenInteractiveTransition()
            return interaction
        }
        func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? {
            asked.append("interactionControllerForDismissal")
            interaction = PercentDrivenInteractiveTransition()
            return interaction
        }
    }

    func testStandardPushAndPopAreNotInteractiveWhateverTheDelegateReturns() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let nav = NavigationController(rootViewController: a)
        let delegate = NavigationDelegate()
        nav.delegate = delegate
        window.rootViewController = nav
        window.clearTrace()

        try nav.pushViewController(b, animated: true)
        let push = try XCTUnwrap(window.transitionInProgress)
        XCTAssertFalse(push.isInteractive, "the standard slide")
        try advance(to: 0.175)
        XCTAssertEqual(b.view.presentation.frame.origin.x, 390 * (1 - CubicBezier.easeInOut.value(at: 0.5)), accuracy: 1e-9,
                       "the standard slide runs on its own clock")
        try advance(to: 0.35)
        XCTAssertNil(window.transitionInProgress, "finished by itself at the slide's 0.35 s")
        XCTAssertEqual(window.trace, ["A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear",
                                      "B.viewDidLayoutSubviews", "B.viewDidAppear"])

        window.clearTrace()
        try nav.popViewController(animated: true)
        XCTAssertEqual(window.transitionInProgress?.isInteractive, false)
        try advance(to: 0.7)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A"])
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear",
                                      "A.viewDidLayoutSubviews", "A.viewDidAppear"])
        XCTAssertEqual(delegate.asked, ["animationController(push)", "animationController(pop)"],
                       "never asked for an interaction controller")
    }

    func testAVendedNavigationAnimatorIsAskedForItsInteractionController() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let nav = NavigationController(rootViewController: a)
        let delegate = NavigationDelegate()
        delegate.animator = SlideTransition(duration: 0.5)
        nav.delegate = delegate
        window.rootViewController = nav
        try nav.pushViewController(b, animated: true)
        XCTAssertEqual(delegate.asked, ["animationController(push)", "interactionController"])
        let context = try XCTUnwrap(window.transitionInProgress)
        XCTAssertTrue(context.isInteractive)
        delegate.interaction.update(0.5)
        try advance(to: 2)
        XCTAssertNotNil(window.transitionInProgress, "an interactive transition waits for its interaction")
        try delegate.interaction.finish()
        try advance(to: 3)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(nav.topViewController?.name, "B")
    }

    func testStandardPresentationAndDismissalAreNotInteractiveWhateverTheDelegateReturns() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        window.clearTrace()
        let delegate = ModalDelegate()
        b.transitioningDelegate = delegate

        var presented = false
        try a.present(b, animated: true) { presented = true }
        XCTAssertEqual(window.transitionInProgress?.isInteractive, false, "the standard cover-vertical")
        try advance(to: 0.175)
        XCTAssertEqual(b.view.presentation.frame.origin.y, 844 * (1 - CubicBezier.easeInOut.value(at: 0.5)), accuracy: 1e-9)
        try advance(to: 0.35)
        XCTAssertTrue(presented, "finished by itself at 0.35 s")
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(window.trace, ["A.viewWillDisappear", "B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear",
                                      "A.viewDidDisappear"])

        window.clearTrace()
        try b.dismiss(animated: true)
        XCTAssertEqual(window.transitionInProgress?.isInteractive, false)
        try advance(to: 0.7)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertNil(a.presentedViewController)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidLayoutSubviews", "A.viewDidAppear",
                                      "B.viewDidDisappear"])
        XCTAssertEqual(delegate.asked, ["animationController(forPresented:)", "animationController(forDismissed:)"],
                       "never asked for an interaction controller")
    }

    func testVendedModalAnimatorsAreAskedForTheirInteractionControllers() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        let delegate = ModalDelegate()
        delegate.presentAnimator = CoverVerticalTransition(duration: 0.5)
        delegate.dismissAnimator = CoverVerticalTransition(duration: 0.5)
        b.transitioningDelegate = delegate

        try a.present(b, animated: true)
        XCTAssertEqual(window.transitionInProgress?.isInteractive, true)
        try advance(to: 2)
        XCTAssertNotNil(window.transitionInProgress, "waits for its interaction")
        try delegate.interaction.finish()
        try advance(to: 3)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertTrue(a.presentedViewController === b)

        // The dismissal asks again (a new interaction controller); cancelling it leaves B
        // presented.
        try b.dismiss(animated: true)
        XCTAssertEqual(window.transitionInProgress?.isInteractive, true)
        delegate.interaction.update(0.3)
        try advance(to: 3.1)
        try delegate.interaction.cancel()
        try advance(to: 5)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertTrue(a.presentedViewController === b, "a cancelled dismissal leaves B presented")
        XCTAssertEqual(delegate.asked, ["animationController(forPresented:)", "interactionControllerForPresentation",
                                        "animationController(forDismissed:)", "interactionControllerForDismissal"])
    }
}

/// `completionSpeed` and `completionCurve` on the interaction-controller protocol (issue 19):
/// a custom interaction controller supplies them to the transition coordinator, as
/// `UIViewControllerInteractiveTransitioning`'s optional properties do; one that does not gets
/// UIKit's defaults (1, ease-in-out).
@MainActor
final class InteractionCompletionSettingsTests: EngineTestCase {
    /// A hand-written interaction controller: it keeps the context and lets the test end it.
    private protocol Interaction: ViewControllerInteractiveTransitioning {
        var context: (any ViewControllerContextTransitioning)? { get set }
    }

    /// Says nothing about its completion (UIKit's optional properties left out).
    private final class PlainInteraction: Interaction {
        var context: (any ViewControllerContextTransitioning)?
        var wantsInteractiveStart: Bool { true }
        func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning) throws {
            context = transitionContext
            transitionContext.updateInteractiveTransition(0.3)
        }
    }

    /// Completes three times as fast, linearly.
    private final class FastLinearInteraction: Interaction {
        var context: (any ViewControllerContextTransitioning)?
        var wantsInteractiveStart: Bool { true }
        var completionSpeed: Double { 3 }
        var completionCurve: AnimationCurve { .linear }
        func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning) throws {
            context = transitionContext
            transitionContext.updateInteractiveTransition(0.3)
        }
    }

    private final class Delegate: ViewControllerTransitioningDelegate {
        let interaction: any Interaction
        init(_ interaction: any Interaction) { self.interaction = interaction }
        func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            CoverVerticalTransition()
        }
        func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? { interaction }
    }

    private func coordinatorSettings(_ interaction: any Interaction) throws -> (Double, AnimationCurve) {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        try a.present(b, animated: false)
        let delegate = Delegate(interaction)
        b.transitioningDelegate = delegate
        try b.dismiss(animated: true)
        let coordinator = try XCTUnwrap(b.transitionCoordinator)
        XCTAssertTrue(coordinator.isInteractive)
        XCTAssertEqual(coordinator.percentComplete, 0.3)
        let settings = (coordinator.completionVelocity, coordinator.completionCurve)
        let context = try XCTUnwrap(interaction.context)
        context.finishInteractiveTransition()
        try context.completeTransition(true)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertNil(a.presentedViewController)
        return settings
    }

    func testACustomInteractionControllerSuppliesItsCompletionSettings() async throws {
        let (speed, curve) = try coordinatorSettings(FastLinearInteraction())
        XCTAssertEqual(speed, 3)
        XCTAssertEqual(curve, .linear)
    }

    func testDefaultsWhenTheInteractionControllerSaysNothing() async throws {
        let (speed, curve) = try coordinatorSettings(PlainInteraction())
        XCTAssertEqual(speed, 1)
        XCTAssertEqual(curve, .easeInOut)
    }
}
