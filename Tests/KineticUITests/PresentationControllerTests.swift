import Kinetic
import KineticUI
import XCTest

/// Golden traces of presentation controllers (`UIPresentationController`): hook order,
/// frames, the presenter's appearance under `.custom`, alongside animations, cancellation.
@MainActor
final class PresentationControllerTests: EngineTestCase {
    var window: Window!
    var journal: Journal!
    var a: JournaledViewController!
    var b: JournaledViewController!
    var delegate: ConfigurableDelegate!
    let half = CubicBezier.easeInOut.value(at: 0.5)

    /// Lets go of the fixture (XCTest keeps async test cases alive: see EngineTestCase).
    override func tearDown() async throws {
        window = nil
        journal = nil
        a = nil
        b = nil
        delegate = nil
        try await super.tearDown()
    }

    override func setUp() async throws {
        try await super.setUp()
        window = Window(engine: engine)
        journal = Journal()
        a = JournaledViewController("A", journal: journal)
        b = JournaledViewController("B", journal: journal)
        window.rootViewController = a
        window.clearTrace()
        journal.clear()
        delegate = ConfigurableDelegate(journal: journal)
        b.modalPresentationStyle = .custom
        b.transitioningDelegate = delegate
    }

    func testCustomPresentationControllerHooksFramesAndDimmingFollowTheTransition() async throws {
        try a.present(b, animated: true)
        let controller = try XCTUnwrap(delegate.presentationControllersVended.first)
        XCTAssertEqual(delegate.presentationControllersVended.count, 1)
        XCTAssertTrue(b.presentationController === controller)
        XCTAssertTrue(controller.presentingViewController === a)
        XCTAssertTrue(controller.presentedViewController === b)
        let context = try XCTUnwrap(window.transitionInProgress)
        XCTAssertTrue(controller.containerView === context.containerView)
        XCTAssertEqual(journal.entries, ["B.viewWillAppear", "PC.presentationTransitionWillBegin",
                                         "PC.containerViewWillLayoutSubviews", "PC.containerViewDidLayoutSubviews"],
                       "appearance will-calls, then willBegin (with a coordinator), then the container's layout pass")
        XCTAssertTrue(context.view(forKey: .to) === b.view, "the presented side is the presentedView")
        XCTAssertNil(context.view(forKey: .from), "a custom presentation keeps the presenter's view: nil")
        let inset = DimmingPresentationController.topInset
        XCTAssertEqual(context.finalFrame(for: b), Rect(x: 0, y: inset, width: 390, height: 844 - inset))
        XCTAssertEqual(context.finalFrame(for: a), a.view.frame)
        XCTAssertTrue(context.containerView.subviews.first === controller.dimmingView, "the dimming view sits underneath")

        try advance(to: 0.175)
        XCTAssertEqual(b.view.presentation.frame.origin.y, inset + 844 * (1 - half), accuracy: 1e-9, "slides up to the inset frame")
        XCTAssertEqual(controller.dimmingView.presentation.alpha, half, accuracy: 1e-12, "dims alongside, at the same progress")
        try advance(to: 0.35)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(journal.entries.suffix(2), ["PC.presentationTransitionDidEnd(true)", "B.viewDidAppear"])
        XCTAssertEqual(window.trace, ["B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"], "the presenter gets nothing")
        XCTAssertEqual(b.view.presentation.frame, Rect(x: 0, y: inset, width: 390, height: 844 - inset))
        XCTAssertEqual(controller.dimmingView.presentation.alpha, 1)
        XCTAssertTrue(a.view.superview === window)
        journal.clear()
        b.view.frame = .zero
        controller.containerView?.setNeedsLayout()
        controller.containerView?.layoutIfNeeded()
        XCTAssertEqual(journal.entries, ["PC.containerViewWillLayoutSubviews", "PC.containerViewDidLayoutSubviews"])
        XCTAssertEqual(b.view.frame, Rect(x: 0, y: inset, width: 390, height: 844 - inset), "laid out again by the override")

        journal.clear()
        window.clearTrace()
        try b.dismiss(animated: true)
        XCTAssertEqual(journal.entries, ["B.viewWillDisappear", "PC.dismissalTransitionWillBegin"], "no layout pass")
        let dismissal = try XCTUnwrap(window.transitionInProgress)
        XCTAssertTrue(dismissal.view(forKey: .from) === b.view)
        XCTAssertEqual(dismissal.initialFrame(for: b), Rect(x: 0, y: inset, width: 390, height: 844 - inset))
        XCTAssertEqual(dismissal.finalFrame(for: b), .zero, "its view is removed")
        try advance(to: 0.35 + 0.175)
        XCTAssertEqual(b.view.presentation.frame.origin.y, inset + 844 * half, accuracy: 1e-9)
        XCTAssertEqual(controller.dimmingView.presentation.alpha, 1 - half, accuracy: 1e-12)
        try advance(to: 0.7)
        XCTAssertEqual(journal.entries.suffix(2), ["PC.dismissalTransitionDidEnd(true)", "B.viewDidDisappear"])
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "B.viewDidDisappear"])
        XCTAssertNil(b.presentationController, "released after the dismissal")
        XCTAssertNil(controller.containerView)
        XCTAssertNil(controller.dimmingView.superview)
        XCTAssertEqual(window.subviews.count, 1, "the container left the window")
        XCTAssertTrue(window.subviews.first === a.view)
    }

    func testShouldRemovePresentersViewMakesCustomBehaveAsFullScreenForThePresenter() async throws {
        delegate.removesPresenter = true
        try a.present(b, animated: true)
        let context = try XCTUnwrap(window.transitionInProgress)
        XCTAssertTrue(context.view(forKey: .from) === a.view)
        XCTAssertEqual(context.finalFrame(for: a), .zero, "the presenter's view will be removed")
        try advance(to: 0.35)
        XCTAssertEqual(window.trace, ["A.viewWillDisappear", "B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear",
                                      "A.viewDidDisappear"])
        XCTAssertEqual(journal.entries, ["A.viewWillDisappear", "B.viewWillAppear", "PC.presentationTransitionWillBegin",
                                         "PC.containerViewWillLayoutSubviews", "PC.containerViewDidLayoutSubviews",
                                         "PC.presentationTransitionDidEnd(true)", "B.viewDidAppear", "A.viewDidDisappear"])
        XCTAssertNil(a.view.superview, "removed at the end")

        window.clearTrace()
        try b.dismiss(animated: true)
        XCTAssertEqual(window.transitionInProgress?.finalFrame(for: a), window.bounds)
        try advance(to: 0.7)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidLayoutSubviews", "A.viewDidAppear",
                                      "B.viewDidDisappear"])
        XCTAssertTrue(a.view.superview === window, "back in the window")
    }

    func testCancelledInteractivePresentationAndDismissalCallTheDidEndHooksWithFalse() async throws {
        let presentInteraction = PercentDrivenInteractiveTransition()
        delegate.presentInteraction = presentInteraction
        // UIKit asks for an interaction controller only for an animator the delegate vends.
        delegate.presentAnimator = CoverVerticalTransition()
        delegate.dismissAnimator = CoverVerticalTransition()
        try a.present(b, animated: true)
        let controller = try XCTUnwrap(delegate.presentationControllersVended.last)
        presentInteraction.update(0.5)
        try step()
        let inset = DimmingPresentationController.topInset
        XCTAssertEqual(b.view.presentation.frame.origin.y, inset + 844 * 0.5, accuracy: 1e-9, "scrubbed linearly")
        XCTAssertEqual(controller.dimmingView.presentation.alpha, 0.5, accuracy: 1e-12, "the dimming follows the scrub")
        journal.clear()
        try presentInteraction.cancel()
        try step(30)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(journal.entries, ["PC.presentationTransitionDidEnd(false)", "B.viewWillDisappear", "B.viewDidDisappear"])
        XCTAssertNil(a.presentedViewController)
        XCTAssertNil(b.presentingViewController)
        XCTAssertNil(b.presentationController)
        XCTAssertNil(controller.dimmingView.superview)
        XCTAssertEqual(window.subviews.count, 1)
        XCTAssertTrue(window.subviews.first === a.view)

        // Present for real, then cancel an interactive dismissal.
        delegate.presentInteraction = nil
        try a.present(b, animated: true)
        try step(30)
        let second = try XCTUnwrap(delegate.presentationControllersVended.last)
        XCTAssertFalse(second === controller, "a new presentation controller per presentation")
        XCTAssertTrue(b.presentationController === second)
        let dismissInteraction = PercentDrivenInteractiveTransition()
        delegate.dismissInteraction = dismissInteraction
        journal.clear()
        try b.dismiss(animated: true)
        dismissInteraction.update(0.25)
        try step()
        XCTAssertEqual(second.dimmingView.presentation.alpha, 0.75, accuracy: 1e-12)
        XCTAssertEqual(b.view.presentation.frame.origin.y, inset + 844 * 0.25, accuracy: 1e-9)
        try dismissInteraction.cancel()
        try step(30)
        XCTAssertEqual(journal.entries, ["B.viewWillDisappear", "PC.dismissalTransitionWillBegin",
                                         "PC.dismissalTransitionDidEnd(false)", "B.viewWillAppear", "B.viewDidAppear"])
        XCTAssertTrue(a.presentedViewController === b, "still presented")
        XCTAssertTrue(b.presentationController === second)
        XCTAssertTrue(second.dimmingView.superview === second.containerView, "the dimming view stays")
        XCTAssertEqual(second.dimmingView.presentation.alpha, 1, "and is back to fully dimmed")
        XCTAssertEqual(b.view.presentation.frame.origin.y, inset, accuracy: 1e-12)
    }

    func testBuiltInPresentationControllersPerStyle() async throws {
        let styles: [(ModalPresentationStyle, Bool)] = [(.fullScreen, true), (.overFullScreen, false), (.custom, false),
                                                        (.pageSheet, false), (.formSheet, false)]
        delegate.makesPresentationController = false
        for (style, removes) in styles {
            let c = ViewController(name: "C")
            c.modalPresentationStyle = style
            c.transitioningDelegate = delegate
            XCTAssertNil(c.presentationController, "none before the presentation")
            try a.present(c, animated: false)
            let controller = try XCTUnwrap(c.presentationController, "\(style)")
            XCTAssertEqual(controller.shouldRemovePresentersView, removes, "\(style)")
            XCTAssertTrue(controller.presentingViewController === a)
            XCTAssertTrue(controller.presentedView === c.view)
            XCTAssertEqual(a.view.superview === window, !removes, "\(style)")
            if style == .custom { XCTAssertTrue(type(of: controller) == PresentationController.self, "the base class") }
            try c.dismiss(animated: false)
            XCTAssertNil(c.presentationController)
            XCTAssertNil(controller.containerView)
        }
        XCTAssertEqual(delegate.presentationControllerRequests, 1, "asked for .custom only")
    }

    func testPresentedViewWrapperIsWhatTheAnimatorMovesAndTheContextReturns() async throws {
        final class Wrapping: PresentationController {
            let wrapper = View()
            override var presentedView: View? {
                if presentedViewController.view.superview !== wrapper { wrapper.addSubview(presentedViewController.view) }
                return wrapper
            }
        }
        final class Vendor: ViewControllerTransitioningDelegate {
            var made: Wrapping?
            func presentationController(forPresented presented: ViewController, presenting: ViewController?,
                                        source: ViewController) -> PresentationController? {
                let controller = Wrapping(presentedViewController: presented, presenting: presenting)
                made = controller
                return controller
            }
        }
        let vendor = Vendor()
        b.transitioningDelegate = vendor
        try a.present(b, animated: true)
        let wrapper = try XCTUnwrap(vendor.made?.wrapper)
        XCTAssertTrue(window.transitionInProgress?.view(forKey: .to) === wrapper)
        try advance(to: 0.175)
        XCTAssertEqual(wrapper.presentation.frame.origin.y, 844 * (1 - half), accuracy: 1e-9, "the wrapper slides up")
        XCTAssertTrue(b.view.superview === wrapper)
        try advance(to: 0.35)
        try b.dismiss(animated: false)
        XCTAssertNil(wrapper.superview)
        XCTAssertNil(b.view.superview)
    }

    /// Fixed bug: alongside animations of a transition that does not animate never ran.
    func testAlongsideAnimationsOfANonAnimatedPresentationRunAtOnce() async throws {
        try a.present(b, animated: false)
        let controller = try XCTUnwrap(delegate.presentationControllersVended.first)
        XCTAssertEqual(journal.entries, ["B.viewWillAppear", "PC.presentationTransitionWillBegin",
                                         "PC.containerViewWillLayoutSubviews", "PC.containerViewDidLayoutSubviews",
                                         "PC.presentationTransitionDidEnd(true)", "B.viewDidAppear"])
        XCTAssertEqual(controller.dimmingView.alpha, 1)
        XCTAssertEqual(controller.dimmingView.presentation.alpha, 1, "no animation")
        XCTAssertEqual(b.view.frame.origin.y, DimmingPresentationController.topInset)
        try b.dismiss(animated: false)
        XCTAssertEqual(controller.dimmingView.presentation.alpha, 0)
        XCTAssertNil(controller.dimmingView.superview)
    }
}
