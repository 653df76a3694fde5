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

/// The presentation controller's order of calls against the process Apple documents.
///
/// Sources (the order is tested as a subsequence of the whole trace, so that only what
/// they state is asserted):
/// - *View Controller Programming Guide for iOS*, "Creating Custom Presentations", section
///   "The Custom Presentation Process": during a presentation UIKit (1) calls the transitioning
///   delegate's `presentationController(forPresented:presenting:source:)`, (2) asks it for the
///   animator and interactive animator objects, (3) calls `presentationTransitionWillBegin`,
///   (4) gets `presentedView`, (5) performs the transition animations, calling
///   `containerViewWillLayoutSubviews` / `containerViewDidLayoutSubviews` during them, and
///   (6) calls `presentationTransitionDidEnd(_:)` when they finish. A dismissal gets the
///   presentation controller from the presented controller (no new one), asks for the
///   animators, calls `dismissalTransitionWillBegin`, gets `presentedView`, performs the
///   animations and calls `dismissalTransitionDidEnd(_:)`.
/// - Apple's sample code *Custom View Controller Presentations and Transitions*
///   (`AAPLAdaptivePresentationController`): `presentationTransitionWillBegin` "is one of
///   the first methods invoked on the presentation controller at the start of a
///   presentation. By the time this method is called, the containerView has been created
///   and the view hierarchy set up for the presentation. However, the -presentedView has
///   not yet been retrieved."
/// - The same guide, "Customizing the Transition Animations": UIKit calls the animator's
///   `transitionDuration(using:)`, then `animateTransition(using:)`; the animator's
///   `completeTransition(_:)` ends the transition and lets UIKit call the completion handler
///   of `present(_:animated:completion:)` and the animator's `animationEnded(_:)`.
///
/// Where the appearance callbacks fall relative to these hooks is not documented; the
/// order Kinetic chose is on ``PresentationController`` and pinned by the tests above.
@MainActor
final class DocumentedPresentationProcessTests: EngineTestCase {
    /// A transitioning delegate, presentation controller and animator that write every
    /// call UIKit's documentation orders into one journal.
    final class Delegate: ViewControllerTransitioningDelegate {
        let journal: Journal
        var vended: Tracer?
        var animator: Fade
        init(journal: Journal) {
            self.journal = journal
            animator = Fade(journal: journal)
        }
        func presentationController(forPresented presented: ViewController, presenting: ViewController?,
                                    source: ViewController) -> PresentationController? {
            journal.add("TD.presentationController")
            let controller = Tracer(presentedViewController: presented, presenting: presenting)
            controller.journal = journal
            vended = controller
            return controller
        }
        func animationController(forPresented presented: ViewController, presenting: ViewController,
                                 source: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            journal.add("TD.animationController(forPresented)")
            return animator
        }
        func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            journal.add("TD.animationController(forDismissed)")
            return animator
        }
        func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? {
            journal.add("TD.interactionControllerForPresentation")
            return nil
        }
        func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? {
            journal.add("TD.interactionControllerForDismissal")
            return nil
        }
    }

    final class Tracer: PresentationController {
        var journal: Journal?
        /// What `presentationTransitionWillBegin` found: the container, in the window.
        var containerAtWillBegin: View?
        var containerInWindowAtWillBegin = false
        override var presentedView: View? {
            journal?.add("PC.presentedView")
            return super.presentedView
        }
        override func presentationTransitionWillBegin() {
            journal?.add("PC.presentationTransitionWillBegin")
            containerAtWillBegin = containerView
            containerInWindowAtWillBegin = containerView?.window != nil
        }
        override func presentationTransitionDidEnd(_ completed: Bool) {
            journal?.add("PC.presentationTransitionDidEnd(\(completed))")
        }
        override func dismissalTransitionWillBegin() { journal?.add("PC.dismissalTransitionWillBegin") }
        override func dismissalTransitionDidEnd(_ completed: Bool) {
            journal?.add("PC.dismissalTransitionDidEnd(\(completed))")
        }
        override func containerViewWillLayoutSubviews() { journal?.add("PC.containerViewWillLayoutSubviews") }
        override func containerViewDidLayoutSubviews() { journal?.add("PC.containerViewDidLayoutSubviews") }
    }

    /// Fades the presented side in (or out) over 0.3 s, ease-in-out.
    final class Fade: ViewControllerAnimatedTransitioning {
        let journal: Journal
        init(journal: Journal) { self.journal = journal }
        func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double {
            journal.add("A.transitionDuration")
            return 0.3
        }
        func animateTransition(using context: any ViewControllerContextTransitioning) throws {
            journal.add("A.animateTransition")
            let presenting = context.view(forKey: .to) != nil
            guard let view = context.view(forKey: presenting ? .to : .from),
                  let to = context.viewController(forKey: .to) else { return }
            if presenting {
                context.containerView.addSubview(view)
                view.frame = context.finalFrame(for: to)
                view.alpha = 0
            }
            let animator = try PropertyAnimator(duration: 0.3, curve: .easeInOut, engine: to.engine) {
                view.alpha = presenting ? 1 : 0
            }
            animator.addCompletion { [journal] _ in
                journal.add("A.completeTransition")
                try? context.completeTransition(!context.transitionWasCancelled)
            }
            try animator.startAnimation()
        }
        func animationEnded(_ transitionCompleted: Bool) { journal.add("A.animationEnded(\(transitionCompleted))") }
    }

    /// `expected` occurs in `entries` in this order (other entries may lie between).
    func assertSubsequence(_ entries: [String], _ expected: [String], _ message: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        var index = entries.startIndex
        for name in expected {
            guard let found = entries[index...].firstIndex(of: name) else {
                return XCTFail("\(message): \(name) missing or out of order in \(entries)", file: file, line: line)
            }
            index = found + 1
        }
    }

    /// The end of a transition as documented: the animator's `completeTransition` ends it,
    /// then the presentation controller's `…DidEnd` hook; `animationEnded` and the completion
    /// handler also come after `completeTransition`.
    func assertEnded(_ entries: [String], didEnd: String, completion: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        assertSubsequence(entries, ["A.animateTransition", "A.completeTransition", didEnd], "end", file: file, line: line)
        assertSubsequence(entries, ["A.completeTransition", completion], "completion handler", file: file, line: line)
        assertSubsequence(entries, ["A.completeTransition", "A.animationEnded(true)"], "animationEnded",
                          file: file, line: line)
    }

    func testPresentationAndDismissalFollowTheDocumentedProcess() async throws {
        let window = Window(engine: engine)
        let journal = Journal()
        let a = JournaledViewController("A", journal: journal)
        let b = JournaledViewController("B", journal: journal)
        window.rootViewController = a
        journal.clear()
        let delegate = Delegate(journal: journal)
        b.modalPresentationStyle = .custom
        b.transitioningDelegate = delegate

        try a.present(b, animated: true) { journal.add("present.completion") }
        let controller = try XCTUnwrap(delegate.vended)
        XCTAssertNotNil(controller.containerAtWillBegin, "the container exists at willBegin")
        XCTAssertTrue(controller.containerAtWillBegin === controller.containerView)
        XCTAssertTrue(controller.containerInWindowAtWillBegin, "and the view hierarchy is set up")
        let started = journal.entries
        let willBegin = try XCTUnwrap(started.firstIndex(of: "PC.presentationTransitionWillBegin"))
        XCTAssertFalse(started[..<willBegin].contains("PC.presentedView"), "presentedView not yet retrieved: \(started)")
        assertSubsequence(started, ["TD.presentationController", "TD.animationController(forPresented)",
                                    "TD.interactionControllerForPresentation", "PC.presentationTransitionWillBegin",
                                    "PC.presentedView", "A.transitionDuration", "A.animateTransition"],
                          "presentation start")
        XCTAssertEqual(started.filter { $0.hasPrefix("TD.") }, ["TD.presentationController",
                                                                  "TD.animationController(forPresented)",
                                                                  "TD.interactionControllerForPresentation"])
        let animationStart = try XCTUnwrap(started.firstIndex(of: "A.animateTransition"))
        XCTAssertFalse(started.contains("PC.presentationTransitionDidEnd(true)"), "not before the animations finish")
        // The layout pass falls while the animations run (after they start, before they end).
        XCTAssertTrue(started[animationStart...].contains("PC.containerViewWillLayoutSubviews"), "\(started)")

        try advance(to: 0.15)
        XCTAssertEqual(b.view.presentation.alpha, CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12, "mid-fade")
        XCTAssertFalse(journal.entries.contains("PC.presentationTransitionDidEnd(true)"))
        try advance(to: 0.3)
        XCTAssertNil(window.transitionInProgress)
        assertEnded(journal.entries, didEnd: "PC.presentationTransitionDidEnd(true)", completion: "present.completion")
        XCTAssertTrue(b.presentationController === controller, "kept while presented")

        journal.clear()
        try b.dismiss(animated: true) { journal.add("dismiss.completion") }
        let dismissing = journal.entries
        XCTAssertFalse(dismissing.contains("TD.presentationController"), "the dismissal reuses the presentation controller")
        assertSubsequence(dismissing, ["TD.animationController(forDismissed)", "TD.interactionControllerForDismissal",
                                       "PC.dismissalTransitionWillBegin", "PC.presentedView", "A.transitionDuration",
                                       "A.animateTransition"], "dismissal start")
        XCTAssertFalse(dismissing.contains("PC.dismissalTransitionDidEnd(true)"))
        try advance(to: 0.45)
        XCTAssertEqual(b.view.presentation.alpha, 1 - CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12)
        try advance(to: 0.6)
        XCTAssertNil(window.transitionInProgress)
        assertEnded(journal.entries, didEnd: "PC.dismissalTransitionDidEnd(true)", completion: "dismiss.completion")
        XCTAssertNil(b.presentationController)
        XCTAssertNil(controller.containerView)
    }
}
