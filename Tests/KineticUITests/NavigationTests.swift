import Kinetic
import KineticUI
import XCTest

@MainActor
final class NavigationTests: EngineTestCase {
    func testPushAndPopSlideWithUIKitsCallbackOrder() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        window.clearTrace()
        try nav.pushViewController(b, animated: true)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
        XCTAssertEqual(window.transitionInProgress?.summary, "push from A to B")
        try advance(to: 0.175)
        let x = b.view.presentation.frame.origin.x
        XCTAssertEqual(x, 390 * (1 - CubicBezier.easeInOut.value(at: 0.5)), accuracy: 1e-9, "slides in from the right")
        XCTAssertEqual(a.view.presentation.frame.origin.x, -130 * CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-9)
        try advance(to: 0.35)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(window.trace, ["A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear",
                                      "B.viewDidLayoutSubviews", "B.viewDidAppear"], "push: from.DidDisappear before to.DidAppear")
        XCTAssertNil(a.view.superview)
        XCTAssertTrue(b.view.superview === nav.view)

        window.clearTrace()
        let popped = try nav.popViewController(animated: true)
        XCTAssertTrue(popped === b)
        try advance(to: 0.7)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear",
                                      "A.viewDidLayoutSubviews", "A.viewDidAppear"])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A"])
        XCTAssertEqual(a.view.presentation.frame, nav.view.bounds)
        XCTAssertNil(try nav.popViewController(animated: true), "the root is never popped")
    }

    func testDelegateAnimatorAndMisuse() async throws {
        final class Fade: ViewControllerAnimatedTransitioning {
            var used = 0
            func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.2 }
            func animateTransition(using context: any ViewControllerContextTransitioning) throws {
                used += 1
                let to = context.view(forKey: .to)!
                to.alpha = 0
                context.containerView.addSubview(to)
                try View.animate(withDuration: 0.2, engine: context.viewController(forKey: .to)!.engine,
                                 animations: { to.alpha = 1 }) { _ in try? context.completeTransition(true) }
            }
        }
        final class Delegate: NavigationControllerDelegate {
            let fade = Fade()
            var operations: [NavigationOperation] = []
            func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                      from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
                operations.append(operation)
                return fade
            }
        }
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B"), c = ViewController(name: "C")
        let nav = NavigationController(rootViewController: a)
        let delegate = Delegate()
        nav.delegate = delegate
        window.rootViewController = nav
        try nav.pushViewController(b, animated: true)
        XCTAssertThrowsError(try nav.pushViewController(c, animated: true)) {
            guard case .transitionInProgress? = $0 as? TransitionError else { return XCTFail("\($0)") }
        }
        try advance(to: 0.1)
        XCTAssertEqual(b.view.presentation.alpha, CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12)
        try advance(to: 0.2)
        XCTAssertThrowsError(try nav.pushViewController(b, animated: false)) { XCTAssertEqual($0 as? TransitionError, .alreadyShown("B")) }
        try nav.popViewController(animated: true)
        try advance(to: 0.4)
        XCTAssertEqual(delegate.operations, [.push, .pop])
        XCTAssertEqual(delegate.fade.used, 2)
        XCTAssertEqual(nav.topViewController?.name, "A")
    }
}

@MainActor
final class NavigationCancelTests: EngineTestCase {
    private final class Interactive: NavigationControllerDelegate {
        let interaction = PercentDrivenInteractiveTransition()
        // UIKit asks for an interaction controller only for an animator the delegate vends.
        func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                  from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            SlideTransition()
        }
        func navigationController(_ navigationController: NavigationController,
                                  interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? { interaction }
    }

    /// A cancelled interactive pop: cur.WillDisappear → new.WillAppear → (cancel) →
    /// new.WillDisappear → new.DidDisappear → cur.WillAppear → cur.DidAppear (§2.2).
    func testCancelledInteractivePopGivesUIKitsOrderAndKeepsTheStack() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        try nav.pushViewController(b, animated: false)
        let delegate = Interactive()
        nav.delegate = delegate
        window.clearTrace()
        try nav.popViewController(animated: true)
        let context = try XCTUnwrap(window.transitionInProgress)
        XCTAssertTrue(context.isInteractive)
        XCTAssertEqual(context.targetTransform, .identity)
        delegate.interaction.update(0.3)
        try step()
        XCTAssertEqual(b.view.presentation.frame.origin.x, 0.3 * 390, accuracy: 1e-9, "the standard slide, scrubbed linearly")
        try delegate.interaction.cancel()
        try step(40)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear",
                                      "B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
        XCTAssertEqual(b.view.presentation.frame.origin.x, 0, "back in place, exactly")
        XCTAssertTrue(b.view.superview === nav.view)
        XCTAssertNil(a.view.superview)
    }

    /// UIKit's `viewControllers` shows the stack a push or pop ends with from its start: a
    /// popped controller is no longer in it in its own `viewWillDisappear` (the usual "am I
    /// being popped?" test), and `topViewController` is the new top; the popped controller
    /// keeps its `navigationController` until the end. A cancelled pop puts the stack back
    /// before the cancellation's callbacks.
    func testTheStackShowsWhereATransitionEndsFromItsStart() async throws {
        final class Watching: ViewController {
            var seen: [String] = []
            private func note(_ callback: String) {
                let nav = navigationController
                seen.append("\(callback) \(nav?.viewControllers.map(\.name).joined() ?? "-") "
                    + "top \(nav?.topViewController?.name ?? "-")")
            }
            override func viewWillAppear(_ animated: Bool) { note("willAppear") }
            override func viewWillDisappear(_ animated: Bool) { note("willDisappear") }
            override func viewDidDisappear(_ animated: Bool) { note("didDisappear") }
        }
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = Watching(name: "B"), c = Watching(name: "C")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        try nav.pushViewController(b, animated: false)
        // An animated push: C is on the stack in its viewWillAppear, and B sees it too.
        try nav.pushViewController(c, animated: true)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B", "C"])
        XCTAssertEqual(c.seen, ["willAppear ABC top C"])
        XCTAssertEqual(b.seen.last, "willDisappear ABC top C")
        try step(40)
        // An animated pop: C is off the stack in its own viewWillDisappear, and still has its
        // navigation controller there and in viewDidDisappear.
        c.seen = []
        try nav.popViewController(animated: true)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
        XCTAssertTrue(nav.topViewController === b)
        XCTAssertTrue(c.parent === nav, "the popped controller leaves its parent at the end")
        try step(40)
        XCTAssertEqual(c.seen, ["willDisappear AB top B", "didDisappear AB top B"])
        XCTAssertNil(c.parent)
        // A cancelled interactive pop: the stack is back before the cancellation's callbacks.
        let delegate = Interactive()
        nav.delegate = delegate
        b.seen = []
        try nav.popViewController(animated: true)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A"])
        XCTAssertTrue(nav.topViewController === a)
        delegate.interaction.update(0.3)
        try step()
        try delegate.interaction.cancel()
        try step(40)
        XCTAssertEqual(b.seen, ["willDisappear A top A", "willAppear AB top B"])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
        XCTAssertTrue(nav.topViewController === b)
    }

    /// Over full screen, the presenting controller keeps its view and gets no callbacks.
    func testOverFullScreenPresentationLeavesThePresenterAlone() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        window.clearTrace()
        b.modalPresentationStyle = .overFullScreen
        try a.present(b, animated: true)
        try advance(to: 0.35)
        XCTAssertEqual(window.trace, ["B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"])
        XCTAssertTrue(a.view.superview === window)
        window.clearTrace()
        try b.dismiss(animated: true)
        try advance(to: 0.7)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "B.viewDidDisappear"])
        XCTAssertTrue(a.view.superview === window)
        XCTAssertNil(b.view.superview)
    }
}
