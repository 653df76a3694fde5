import Kinetic
import KineticUI
import XCTest

/// Appearance forwarding from containers to their children, and the containment calls
/// (`addChild`, `removeFromParent`, `willMove` / `didMove`).
@MainActor
final class ContainerAppearanceTests: EngineTestCase {
    var window: Window!
    var journal: Journal!

    /// Lets go of the fixture (XCTest keeps async test cases alive: see EngineTestCase).
    override func tearDown() async throws {
        window = nil
        journal = nil
        try await super.tearDown()
    }

    override func setUp() async throws {
        try await super.setUp()
        window = Window(engine: engine)
        journal = Journal()
    }

    func testNavigationControllerAsRootForwardsToItsTopChildNestedInsideItsOwnCalls() async throws {
        let a = JournaledViewController("A", journal: journal)
        let nav = NavigationController(rootViewController: a, name: "Nav")
        XCTAssertEqual(journal.entries, ["A.willMove(Nav)", "A.didMove(Nav)"])
        XCTAssertTrue(a.parent === nav)
        XCTAssertEqual(nav.children.map(\.name), ["A"])
        window.rootViewController = nav
        XCTAssertEqual(window.trace, ["Nav.viewWillAppear", "A.viewWillAppear", "Nav.viewDidLayoutSubviews",
                                      "A.viewDidLayoutSubviews", "A.viewDidAppear", "Nav.viewDidAppear"])
        window.clearTrace()
        window.rootViewController = nil
        XCTAssertEqual(window.trace, ["Nav.viewWillDisappear", "A.viewWillDisappear", "A.viewDidDisappear", "Nav.viewDidDisappear"])
        XCTAssertEqual(journal.entries.suffix(2), ["A.viewWillDisappear", "A.viewDidDisappear"])
    }

    func testFullScreenPresentationOverANavigationControllerCoversItsTopChild() async throws {
        let a = JournaledViewController("A", journal: journal), b = JournaledViewController("B", journal: journal)
        let nav = NavigationController(rootViewController: a, name: "Nav")
        window.rootViewController = nav
        window.clearTrace()
        // Presented from the child: carried out by the top of its parent chain.
        try a.present(b, animated: true)
        XCTAssertTrue(b.presentingViewController === nav)
        XCTAssertTrue(nav.presentedViewController === b)
        XCTAssertTrue(a.presentedViewController === b, "a child sees its ancestor's presentation")
        XCTAssertEqual(window.trace, ["Nav.viewWillDisappear", "A.viewWillDisappear", "B.viewWillAppear"])
        try advance(to: 0.35)
        XCTAssertEqual(window.trace, ["Nav.viewWillDisappear", "A.viewWillDisappear", "B.viewWillAppear", "B.viewDidLayoutSubviews",
                                      "B.viewDidAppear", "A.viewDidDisappear", "Nav.viewDidDisappear"])
        XCTAssertNil(nav.view.superview)
        XCTAssertTrue(a.view.superview === nav.view, "the child's view stays inside the container")
        XCTAssertThrowsError(try a.present(ViewController(name: "C"), animated: false)) {
            XCTAssertEqual($0 as? TransitionError, .alreadyPresenting(presenter: "Nav", presented: "B"))
        }

        window.clearTrace()
        try a.dismiss(animated: true)
        try advance(to: 0.7)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "Nav.viewWillAppear", "A.viewWillAppear", "Nav.viewDidLayoutSubviews",
                                      "A.viewDidLayoutSubviews", "A.viewDidAppear", "Nav.viewDidAppear", "B.viewDidDisappear"])
        XCTAssertNil(nav.presentedViewController)
        XCTAssertNil(a.presentedViewController)
        XCTAssertTrue(nav.view.superview === window)
    }

    func testPresentedNavigationControllerPushesAndIsDismissedFromItsTopChild() async throws {
        let root = JournaledViewController("R", journal: journal)
        let a = JournaledViewController("A", journal: journal), c = JournaledViewController("C", journal: journal)
        window.rootViewController = root
        window.clearTrace()
        let nav = NavigationController(rootViewController: a, name: "Nav")
        try root.present(nav, animated: true)
        try advance(to: 0.35)
        XCTAssertEqual(window.trace, ["R.viewWillDisappear", "Nav.viewWillAppear", "A.viewWillAppear", "Nav.viewDidLayoutSubviews",
                                      "A.viewDidLayoutSubviews", "A.viewDidAppear", "Nav.viewDidAppear", "R.viewDidDisappear"])
        XCTAssertTrue(a.presentingViewController === root, "a child's presenting controller is its parent's")
        XCTAssertThrowsError(try nav.present(a, animated: false), "a child cannot be presented") {
            XCTAssertEqual($0 as? TransitionError, .alreadyShown("A"))
        }

        window.clearTrace()
        journal.clear()
        try nav.pushViewController(c, animated: true)
        try advance(to: 0.7)
        XCTAssertEqual(window.trace, ["A.viewWillDisappear", "C.viewWillAppear", "A.viewDidDisappear", "C.viewDidLayoutSubviews",
                                      "C.viewDidAppear"])
        XCTAssertEqual(journal.entries, ["C.willMove(Nav)", "A.viewWillDisappear", "C.viewWillAppear", "A.viewDidDisappear",
                                         "C.viewDidAppear", "C.didMove(Nav)"])

        window.clearTrace()
        try c.dismiss(animated: true)  // the presented controller is C's parent
        XCTAssertEqual(window.transitionInProgress?.summary, "dismiss Nav to R")
        try advance(to: 1.05)
        XCTAssertEqual(window.trace, ["Nav.viewWillDisappear", "C.viewWillDisappear", "R.viewWillAppear", "R.viewDidLayoutSubviews",
                                      "R.viewDidAppear", "C.viewDidDisappear", "Nav.viewDidDisappear"])
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(c.presentingViewController)
    }

    func testCancelledInteractiveDismissalOfANavigationControllerTurnsItsChildRoundToo() async throws {
        final class Interactive: ViewControllerTransitioningDelegate {
            let interaction = PercentDrivenInteractiveTransition()
            // UIKit asks for an interaction controller only for an animator the delegate vends.
            func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
                CoverVerticalTransition()
            }
            func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
                -> (any ViewControllerInteractiveTransitioning)? { interaction }
        }
        let root = ViewController(name: "R"), a = ViewController(name: "A")
        window.rootViewController = root
        let nav = NavigationController(rootViewController: a, name: "Nav")
        try root.present(nav, animated: false)
        let delegate = Interactive()
        nav.transitioningDelegate = delegate
        window.clearTrace()
        try nav.dismiss(animated: true)
        delegate.interaction.update(0.3)
        try step()
        XCTAssertEqual(nav.view.presentation.frame.origin.y, 0.3 * 844, accuracy: 1e-9)
        try delegate.interaction.cancel()
        try step(30)
        XCTAssertEqual(window.trace, ["Nav.viewWillDisappear", "A.viewWillDisappear", "R.viewWillAppear",
                                      "R.viewWillDisappear", "R.viewDidDisappear",
                                      "Nav.viewWillAppear", "A.viewWillAppear", "Nav.viewDidLayoutSubviews", "A.viewDidLayoutSubviews",
                                      "A.viewDidAppear", "Nav.viewDidAppear"])
        XCTAssertTrue(root.presentedViewController === nav)
        XCTAssertNil(root.view.superview)
    }

    func testContainerThatDoesNotForwardAutomaticallyForwardsByHand() async throws {
        final class Manual: ViewController {
            let child: ViewController
            let forwards: Bool
            init(name: String, child: ViewController, forwards: Bool) {
                self.child = child
                self.forwards = forwards
                super.init(name: name)
            }
            override var shouldAutomaticallyForwardAppearanceMethods: Bool { false }
            override func viewDidLoad() {
                addChild(child)
                view.addSubview(child.view)
                child.didMove(toParent: self)
            }
            override func viewWillAppear(_ animated: Bool) { if forwards { child.beginAppearanceTransition(true, animated: animated) } }
            override func viewDidAppear(_ animated: Bool) { if forwards { child.endAppearanceTransition() } }
        }
        let manual = Manual(name: "Manual", child: ViewController(name: "Child"), forwards: true)
        window.rootViewController = manual
        XCTAssertEqual(window.trace, ["Manual.viewWillAppear", "Child.viewWillAppear", "Manual.viewDidLayoutSubviews",
                                      "Manual.viewDidAppear", "Child.viewDidLayoutSubviews", "Child.viewDidAppear"],
                       "the child's calls come exactly where the container makes them")
        window.clearTrace()
        let silent = Manual(name: "Silent", child: ViewController(name: "Quiet"), forwards: false)
        window.rootViewController = silent
        XCTAssertEqual(window.trace, ["Manual.viewWillDisappear", "Manual.viewDidDisappear",
                                      "Silent.viewWillAppear", "Silent.viewDidLayoutSubviews", "Silent.viewDidAppear"],
                       "nothing reaches a child its container does not forward to")
    }

    func testContainmentCallsAndWhichChildrenGetForwardedCalls() async throws {
        let parent = JournaledViewController("P", journal: journal), other = JournaledViewController("Q", journal: journal)
        let shown = JournaledViewController("Shown", journal: journal), hidden = JournaledViewController("Hidden", journal: journal)
        parent.addChild(shown)
        parent.view.addSubview(shown.view)
        shown.didMove(toParent: parent)
        parent.addChild(hidden)  // its view is never added: it gets no appearance calls
        hidden.didMove(toParent: parent)
        XCTAssertEqual(parent.children.map(\.name), ["Shown", "Hidden"])
        parent.addChild(shown)
        XCTAssertEqual(parent.children.count, 2, "adding a child twice does nothing")
        window.rootViewController = parent
        XCTAssertEqual(window.trace, ["P.viewWillAppear", "Shown.viewWillAppear", "P.viewDidLayoutSubviews",
                                      "Shown.viewDidLayoutSubviews", "Shown.viewDidAppear", "P.viewDidAppear"])
        XCTAssertTrue(hidden.window === window, "found through the parent")

        journal.clear()
        other.addChild(hidden)  // moves it: removed from P first
        XCTAssertEqual(journal.entries, ["Hidden.didMove(nil)", "Hidden.willMove(Q)"])
        XCTAssertTrue(hidden.parent === other)
        XCTAssertEqual(parent.children.map(\.name), ["Shown"])
        journal.clear()
        shown.willMove(toParent: nil)
        shown.view.removeFromSuperview()
        shown.removeFromParent()
        XCTAssertEqual(journal.entries, ["Shown.willMove(nil)", "Shown.didMove(nil)"])
        XCTAssertNil(shown.parent)
        XCTAssertEqual(parent.children.count, 0)
        shown.removeFromParent()
        XCTAssertEqual(journal.entries.count, 2, "removing an orphan does nothing")
    }

    func testNavigationContainmentCallsAroundPushPopAndCancelledPop() async throws {
        final class Interactive: NavigationControllerDelegate {
            var interaction: PercentDrivenInteractiveTransition?
            // UIKit asks for an interaction controller only for an animator the delegate vends.
            func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                      from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
                SlideTransition()
            }
            func navigationController(_ navigationController: NavigationController,
                                      interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
                -> (any ViewControllerInteractiveTransitioning)? { interaction }
        }
        let a = JournaledViewController("A", journal: journal), b = JournaledViewController("B", journal: journal)
        let nav = NavigationController(rootViewController: a, name: "Nav")
        let delegate = Interactive()
        nav.delegate = delegate
        window.rootViewController = nav
        try nav.pushViewController(b, animated: false)
        journal.clear()
        delegate.interaction = PercentDrivenInteractiveTransition()
        try nav.popViewController(animated: true)
        delegate.interaction?.update(0.5)
        try step()
        try delegate.interaction?.cancel()
        try step(30)
        XCTAssertEqual(journal.entries, ["B.willMove(nil)", "B.viewWillDisappear", "A.viewWillAppear", "A.viewWillDisappear",
                                         "A.viewDidDisappear", "B.viewWillAppear", "B.viewDidAppear", "B.didMove(Nav)"])
        XCTAssertTrue(b.parent === nav)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])

        journal.clear()
        delegate.interaction = nil
        try nav.popViewController(animated: true)
        try step(30)
        XCTAssertEqual(journal.entries, ["B.willMove(nil)", "B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear",
                                         "A.viewDidAppear", "B.didMove(nil)"])
        XCTAssertNil(b.parent)
        XCTAssertEqual(nav.children.map(\.name), ["A"])
    }
}
