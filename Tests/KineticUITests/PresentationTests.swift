import Kinetic
import KineticUI
import XCTest

/// A fade-in animator as in the first seed: the presented view fades in over `duration`.
@MainActor
private final class FadeIn: ViewControllerAnimatedTransitioning {
    var ended: [Bool] = []
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.5 }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        guard let toView = context.view(forKey: .to), let to = context.viewController(forKey: .to) else { return }
        toView.alpha = 0
        toView.frame = context.finalFrame(for: to)
        context.containerView.addSubview(toView)
        try View.animate(withDuration: transitionDuration(using: context), engine: to.engine, animations: { toView.alpha = 1 }) { _ in
            try? context.completeTransition(true)
        }
    }
    func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
}

/// An animator that never calls completeTransition.
@MainActor
private final class Forgetful: ViewControllerAnimatedTransitioning {
    /// Weak: the context keeps its animator, so a strong reference back would keep the
    /// transition (which never completes here) alive after the test (LeakSanitizer).
    weak var context: (any ViewControllerContextTransitioning)?
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.3 }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        self.context = context
        if let v = context.view(forKey: .to) { context.containerView.addSubview(v) }
    }
}

@MainActor
private final class Delegate: ViewControllerTransitioningDelegate {
    let present: (any ViewControllerAnimatedTransitioning)?
    let dismiss: (any ViewControllerAnimatedTransitioning)?
    init(present: (any ViewControllerAnimatedTransitioning)?, dismiss: (any ViewControllerAnimatedTransitioning)? = nil) {
        self.present = present
        self.dismiss = dismiss
    }
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { present }
    func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { dismiss }
}

/// A zoom-out presentation animator that moves the presenter's view into the container (as
/// custom animators often do, to animate both sides), and does not put it back.
@MainActor
private final class ZoomBoth: ViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.3 }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        guard let fromView = context.view(forKey: .from) ?? context.viewController(forKey: .from)?.view,
              let toView = context.view(forKey: .to), let to = context.viewController(forKey: .to) else { return }
        context.containerView.addSubview(fromView)
        toView.frame = context.finalFrame(for: to)
        context.containerView.addSubview(toView)
        try View.animate(withDuration: 0.3, engine: to.engine, animations: { fromView.alpha = 0.5 }) { _ in
            try? context.completeTransition(!context.transitionWasCancelled)
        }
    }
}

@MainActor
final class PresentationTests: EngineTestCase {
    var window: Window!

    /// A presentation animator that moved the presenter's view into the container: the view
    /// was recorded as living in the container, so the dismissal put it back there and then
    /// removed the container, and the presenter's view vanished. It goes back to the window.
    func testThePresentersViewReturnsToTheWindowWhenTheAnimatorMovedIt() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        let delegate = Delegate(present: ZoomBoth())
        b.transitioningDelegate = delegate
        b.modalPresentationStyle = .fullScreen
        try a.present(b, animated: true)
        try step(30)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertNil(a.view.superview, "a full-screen presentation takes the presenter's view out")
        try b.dismiss(animated: false)
        XCTAssertTrue(a.view.superview === window, "back in the window")
        XCTAssertTrue(window.subviews.contains { $0 === a.view })
    }
    var main: ViewController!

    /// Lets go of the fixture (XCTest keeps async test cases alive: see EngineTestCase).
    override func tearDown() async throws {
        window = nil
        main = nil
        try await super.tearDown()
    }

    override func setUp() async throws {
        try await super.setUp()
        window = Window(engine: engine)
        main = ViewController(name: "A")
        window.rootViewController = main
        window.clearTrace()
    }

    func testDefaultFullScreenPresentAndDismissCoverVerticallyWithUIKitsCallbackOrder() async throws {
        let b = ViewController(name: "B")
        var presented = false
        try main.present(b, animated: true) { presented = true }
        XCTAssertNotNil(window.transitionInProgress)
        XCTAssertEqual(window.trace, ["A.viewWillDisappear", "B.viewWillAppear"])
        try advance(to: 0.175)
        let y = b.view.presentation.frame.origin.y
        XCTAssertGreaterThan(y, 0)
        XCTAssertLessThan(y, 844, "halfway up from the bottom edge")
        XCTAssertEqual(y, 844 * (1 - CubicBezier.easeInOut.value(at: 0.5)), accuracy: 1e-9)
        try advance(to: 0.35)
        XCTAssertTrue(presented)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(window.trace, ["A.viewWillDisappear", "B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear",
                                      "A.viewDidDisappear"], "present: the new DidAppear comes before the old DidDisappear")
        XCTAssertTrue(main.presentedViewController === b)
        XCTAssertTrue(b.presentingViewController === main)
        XCTAssertNil(main.view.superview, "full screen removes the presenting view")
        XCTAssertEqual(b.view.presentation.frame, window.bounds)

        window.clearTrace()
        try b.dismiss(animated: true)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear"])
        try advance(to: 0.35 + 0.35)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidLayoutSubviews", "A.viewDidAppear",
                                      "B.viewDidDisappear"])
        XCTAssertNil(main.presentedViewController)
        XCTAssertNil(b.presentingViewController)
        XCTAssertTrue(main.view.superview === window, "the presenter's view is back in the window")
        XCTAssertNil(b.view.superview)
    }

    func testCustomStyleFadeInGivesThePresenterNoCallbacks() async throws {
        let b = ViewController(name: "B")
        b.modalPresentationStyle = .custom
        let fade = FadeIn()
        let delegate = Delegate(present: fade)
        b.transitioningDelegate = delegate
        try main.present(b, animated: true)
        try advance(to: 0.25)
        XCTAssertEqual(b.view.presentation.alpha, CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12)
        try advance(to: 0.5)
        XCTAssertEqual(window.trace, ["B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"])
        XCTAssertEqual(fade.ended, [true])
        XCTAssertTrue(main.view.superview === window, "the presenting view stays under a custom presentation")
    }

    func testCompleteTransitionNeverCalledKeepsTheTransitionAndRefusesANewOne() async throws {
        let b = ViewController(name: "B"), c = ViewController(name: "C")
        let forgetful = Forgetful()
        let delegate = Delegate(present: forgetful)
        b.transitioningDelegate = delegate
        try main.present(b, animated: true)
        try advance(to: 10)
        XCTAssertEqual(window.transitionInProgress?.summary, "present B over A")
        XCTAssertEqual(window.transitionInProgress?.isCompleted, false)
        XCTAssertThrowsError(try b.present(c, animated: true)) {
            guard case .transitionInProgress(let requested, let running)? = $0 as? TransitionError else { return XCTFail("\($0)") }
            XCTAssertEqual(requested, "present C")
            XCTAssertEqual(running, "present B over A")
        }
        XCTAssertThrowsError(try b.dismiss(animated: false))
        // Completing it late ends it; a second call is an error with no effect.
        let context = try XCTUnwrap(forgetful.context)
        try context.completeTransition(true)
        XCTAssertNil(window.transitionInProgress)
        let trace = window.trace
        XCTAssertThrowsError(try context.completeTransition(false)) {
            XCTAssertEqual($0 as? TransitionError, .completedTwice)
        }
        XCTAssertEqual(window.trace, trace, "the second call changed nothing")
        XCTAssertTrue(main.presentedViewController === b)
    }

    func testNonAnimatedPresentationRunsTheCallbacksAtOnce() async throws {
        let b = ViewController(name: "B")
        var done = false
        try main.present(b, animated: false) { done = true }
        XCTAssertTrue(done)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(window.trace.first, "A.viewWillDisappear")
        XCTAssertEqual(window.trace.last, "A.viewDidDisappear")
        XCTAssertEqual(b.view.frame, window.bounds)
        try main.dismiss(animated: false)
        XCTAssertNil(main.presentedViewController)
        XCTAssertTrue(main.view.superview === window)
    }

    func testMisuseIsRefusedWithClearErrors() async throws {
        let b = ViewController(name: "B"), c = ViewController(name: "C")
        let orphan = ViewController(name: "orphan")
        XCTAssertThrowsError(try orphan.present(b, animated: false)) { XCTAssertEqual($0 as? TransitionError, .notInWindow("orphan")) }
        XCTAssertThrowsError(try main.dismiss(animated: false)) { XCTAssertEqual($0 as? TransitionError, .nothingToDismiss("A")) }
        try main.present(b, animated: false)
        XCTAssertThrowsError(try main.present(c, animated: false)) {
            XCTAssertEqual($0 as? TransitionError, .alreadyPresenting(presenter: "A", presented: "B"))
        }
        XCTAssertThrowsError(try b.present(main, animated: false)) { XCTAssertEqual($0 as? TransitionError, .alreadyShown("A")) }
        XCTAssertTrue(TransitionError.completedTwice.description.contains("twice"))
    }
}

/// Interactive dismissal through PercentDrivenInteractiveTransition.
@MainActor
final class InteractiveTransitionTests: EngineTestCase {
    @MainActor
    private final class SlideDown: ViewControllerAnimatedTransitioning {
        var animator: PropertyAnimator?
        func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.5 }
        func animateTransition(using context: any ViewControllerContextTransitioning) throws {
            try (interruptibleAnimator(using: context) as? PropertyAnimator)?.startAnimation()
        }
        func interruptibleAnimator(using context: any ViewControllerContextTransitioning) -> (any ViewImplicitlyAnimating)? {
            if let animator { return animator }
            let from = context.viewController(forKey: .from)!
            let made = try! PropertyAnimator(duration: 0.5, curve: .linear, engine: from.engine)
            let fromView = from.view
            try! made.addAnimations { fromView.center = Point(x: fromView.center.x, y: fromView.center.y + 844) }
            made.addCompletion { _ in try? context.completeTransition(!context.transitionWasCancelled) }
            animator = made
            return made
        }
    }

    @MainActor
    private final class Delegate: ViewControllerTransitioningDelegate {
        let slide = SlideDown()
        let interaction = PercentDrivenInteractiveTransition()
        func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { slide }
        func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? { interaction }
    }

    /// A transition manager that is the delegate, the animator and the interaction
    /// controller's owner, kept by the controller it presents (the common set-up): once the
    /// interactive dismissal completes nothing keeps the controller, its views or animators
    /// (the interaction controller lets go of the finished transition, as UIKit's does).
    func testATransitionManagerOwnedByThePresentedControllerLeaksNothing() async throws {
        @MainActor final class CardTransition: ViewControllerTransitioningDelegate, ViewControllerAnimatedTransitioning {
            let interaction = PercentDrivenInteractiveTransition()
            let slide = CoverVerticalTransition()
            func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { self }
            func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
                -> (any ViewControllerInteractiveTransitioning)? { interaction }
            func transitionDuration(using context: (any ViewControllerContextTransitioning)?) -> Double {
                slide.transitionDuration(using: context)
            }
            func animateTransition(using context: any ViewControllerContextTransitioning) throws {
                try slide.animateTransition(using: context)
            }
        }
        final class Card: ViewController {
            let transition = CardTransition()
        }
        for finishes in [true, false] {
            weak var weakCard: Card?
            weak var weakTransition: CardTransition?
            do {
                let window = Window(engine: engine)
                let a = ViewController(name: "A")
                window.rootViewController = a
                let card = Card(name: "Card")
                card.transitioningDelegate = card.transition
                weakCard = card
                weakTransition = card.transition
                try a.present(card, animated: false)
                try card.dismiss(animated: true)
                card.transition.interaction.update(0.5)
                try step()
                if finishes { try card.transition.interaction.finish() } else { try card.transition.interaction.cancel() }
                try step(60)
                XCTAssertNil(window.transitionInProgress)
                XCTAssertEqual(a.presentedViewController === card, !finishes)
                if !finishes { try card.dismiss(animated: false) }
            }
            XCTAssertNil(weakCard, "finishes \(finishes): the dismissed controller is freed")
            XCTAssertNil(weakTransition, "finishes \(finishes)")
        }
    }

    func testCancelledThenFinishedInteractiveDismissal() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        try a.present(b, animated: false)
        window.clearTrace()
        var delegate = Delegate()
        b.transitioningDelegate = delegate
        try b.dismiss(animated: true)
        let context = try XCTUnwrap(window.transitionInProgress)
        XCTAssertTrue(context.isInteractive)
        delegate.interaction.update(0.4)
        try step()
        XCTAssertEqual(b.view.presentation.center.y, 422 + 0.4 * 844, accuracy: 1e-9, "scrubbed linearly to 40 %")
        XCTAssertEqual(delegate.interaction.duration, 0.5)
        try delegate.interaction.cancel()
        XCTAssertTrue(context.transitionWasCancelled)
        try step(30)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear",
                                      "B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"])
        XCTAssertTrue(a.presentedViewController === b, "still presented after the cancel")
        XCTAssertEqual(b.view.presentation.center.y, 422, "back where it started, exactly")

        window.clearTrace()
        delegate = Delegate()
        b.transitioningDelegate = delegate
        try b.dismiss(animated: true)
        delegate.interaction.update(0.7)
        try step()
        try delegate.interaction.finish()
        try step(30)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertNil(a.presentedViewController)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidLayoutSubviews", "A.viewDidAppear",
                                      "B.viewDidDisappear"])
    }
}

@MainActor
final class TransitionCoordinatorTests: EngineTestCase {
    private final class Badged: ViewController {
        let badge = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        var completedAlongside = false
        override func viewDidLoad() { view.addSubview(badge) }
        override func viewWillAppear(_ animated: Bool) {
            badge.alpha = 0
            transitionCoordinator?.animate(alongsideTransition: { _ in self.badge.alpha = 1 },
                                           completion: { context in self.completedAlongside = !context.transitionWasCancelled })
        }
    }

    func testAlongsideAnimationsRunWithTheTransitionAndCompleteAfterIt() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = Badged(name: "B")
        window.rootViewController = a
        try a.present(b, animated: true)
        XCTAssertNotNil(b.transitionCoordinator)
        XCTAssertEqual(b.transitionCoordinator?.transitionDuration, 0.35)
        XCTAssertNil(ViewController(name: "other").transitionCoordinator)
        try advance(to: 0.175)
        XCTAssertEqual(b.badge.presentation.alpha, CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12)
        XCTAssertFalse(b.completedAlongside)
        try advance(to: 0.35)
        XCTAssertTrue(b.completedAlongside)
        XCTAssertEqual(b.badge.presentation.alpha, 1)
        XCTAssertNil(b.transitionCoordinator)
    }
}
