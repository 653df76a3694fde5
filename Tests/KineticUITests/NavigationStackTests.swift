import Kinetic
import KineticUI
import XCTest

/// The navigation delegate's `willShow` / `didShow`, and the calls that edit the stack:
/// `popToRootViewController(animated:)`, `popToViewController(_:animated:)` and
/// `setViewControllers(_:animated:)`, with UIKit's callbacks for the controllers that are
/// skipped (containment only, no appearance).
@MainActor
final class NavigationStackTests: EngineTestCase {
    /// Journals willShow / didShow into the controllers' journal.
    private final class Delegate: NavigationControllerDelegate {
        let journal: Journal
        var pushFromDidShow: (NavigationController, ViewController)?
        init(_ journal: Journal) { self.journal = journal }
        func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController,
                                  animated: Bool) {
            journal.add("willShow(\(viewController.name), \(animated))")
        }
        func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController,
                                  animated: Bool) {
            journal.add("didShow(\(viewController.name), \(animated))")
            if let (nav, next) = pushFromDidShow {
                pushFromDidShow = nil
                XCTAssertNoThrow(try nav.pushViewController(next, animated: false), "a push from didShow is allowed")
            }
        }
    }

    private var journal = Journal()
    /// Kept for the test's length: the window and the delegate are held weakly by the
    /// controllers.
    private var window: Window?
    private var delegate: Delegate?

    override func tearDown() async throws {
        window = nil
        delegate = nil
        try await super.tearDown()
    }

    private func stack(_ names: [String]) -> (Window, NavigationController, [JournaledViewController], Delegate) {
        let controllers = names.map { JournaledViewController($0, journal: journal) }
        let nav = NavigationController(rootViewController: controllers[0], name: "Nav")
        let delegate = Delegate(journal)
        nav.delegate = delegate
        let window = Window(engine: engine)
        window.rootViewController = nav
        for c in controllers.dropFirst() { XCTAssertNoThrow(try nav.pushViewController(c, animated: false)) }
        journal.clear()
        self.window = window
        self.delegate = delegate
        return (window, nav, controllers, delegate)
    }

    func testWillShowAndDidShowAroundPushAndPop() async throws {
        journal = Journal()
        let a = JournaledViewController("A", journal: journal), b = JournaledViewController("B", journal: journal)
        let nav = NavigationController(rootViewController: a, name: "Nav")
        let delegate = Delegate(journal)
        nav.delegate = delegate
        let window = Window(engine: engine)
        journal.clear()
        window.rootViewController = nav
        XCTAssertEqual(journal.entries, ["A.viewWillAppear", "willShow(A, false)", "A.viewDidAppear", "didShow(A, false)"],
                       "the navigation controller appearing shows its root")
        journal.clear()
        try nav.pushViewController(b, animated: true)
        XCTAssertEqual(journal.entries, ["B.willMove(Nav)", "A.viewWillDisappear", "B.viewWillAppear", "willShow(B, true)"])
        try advance(to: 0.35)
        XCTAssertEqual(journal.entries.suffix(4), ["A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)", "didShow(B, true)"])
        journal.clear()
        try nav.popViewController(animated: false)
        XCTAssertEqual(journal.entries, ["B.willMove(nil)", "B.viewWillDisappear", "A.viewWillAppear", "willShow(A, false)",
                                         "B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)", "didShow(A, false)"])
        // A push made from didShow runs at once (the transition has ended).
        let c = JournaledViewController("C", journal: journal)
        delegate.pushFromDidShow = (nav, c)
        try nav.pushViewController(b, animated: false)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B", "C"])
        _ = window
    }

    func testPopToRootSkipsTheMiddleWithContainmentOnly() async throws {
        let (window, nav, vcs, _) = stack(["A", "B", "C", "D"])
        let popped = try nav.popToRootViewController(animated: true)
        XCTAssertEqual(popped.map(\.name), ["D", "C", "B"], "top first")
        XCTAssertEqual(journal.entries, ["D.willMove(nil)", "C.willMove(nil)", "B.willMove(nil)",
                                         "D.viewWillDisappear", "A.viewWillAppear", "willShow(A, true)"])
        XCTAssertEqual(window.transitionInProgress?.summary, "pop from D to A")
        journal.clear()
        try advance(to: 0.35)
        XCTAssertEqual(journal.entries, ["D.viewDidDisappear", "A.viewDidAppear", "D.didMove(nil)", "C.didMove(nil)",
                                         "B.didMove(nil)", "didShow(A, true)"], "the skipped ones get no appearance callback")
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A"])
        XCTAssertTrue(vcs[0].view.superview === nav.view)
        for c in vcs.dropFirst() { XCTAssertNil(c.parent) }
        XCTAssertTrue(try nav.popToRootViewController(animated: true).isEmpty, "nothing above the root")
    }

    func testPopToViewControllerAndItsMisuse() async throws {
        let (_, nav, vcs, _) = stack(["A", "B", "C", "D"])
        let stranger = ViewController(name: "X")
        XCTAssertThrowsError(try nav.popToViewController(stranger, animated: false)) {
            XCTAssertEqual($0 as? TransitionError, .notInStack("X"))
        }
        XCTAssertTrue(journal.entries.isEmpty)
        let popped = try nav.popToViewController(vcs[1], animated: false)
        XCTAssertEqual(popped.map(\.name), ["D", "C"])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
        XCTAssertEqual(journal.entries, ["D.willMove(nil)", "C.willMove(nil)", "D.viewWillDisappear", "B.viewWillAppear",
                                         "willShow(B, false)", "D.viewDidDisappear", "B.viewDidAppear", "D.didMove(nil)",
                                         "C.didMove(nil)", "didShow(B, false)"])
    }

    /// A new top that was not in the stack is pushed; one that was is popped to; the others
    /// join or leave with containment callbacks only.
    func testSetViewControllersPushesOrPops() async throws {
        let (_, nav, vcs, _) = stack(["A", "B"])
        let c = JournaledViewController("C", journal: journal), d = JournaledViewController("D", journal: journal)
        try nav.setViewControllers([vcs[0], c, d], animated: true)
        XCTAssertEqual(journal.entries, ["C.willMove(Nav)", "D.willMove(Nav)", "B.willMove(nil)",
                                         "B.viewWillDisappear", "D.viewWillAppear", "willShow(D, true)"])
        journal.clear()
        try advance(to: 0.35)
        XCTAssertEqual(journal.entries, ["B.viewDidDisappear", "D.viewDidAppear", "C.didMove(Nav)", "D.didMove(Nav)",
                                         "B.didMove(nil)", "didShow(D, true)"])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "C", "D"])
        XCTAssertNil(vcs[1].parent)

        // Back to a controller in the stack, reordered: a pop to it.
        journal.clear()
        try nav.setViewControllers([c, vcs[0]], animated: false)
        XCTAssertEqual(journal.entries, ["D.willMove(nil)", "D.viewWillDisappear", "A.viewWillAppear", "willShow(A, false)",
                                         "D.viewDidDisappear", "A.viewDidAppear", "D.didMove(nil)", "didShow(A, false)"])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["C", "A"])

        // Same top: the stack changes at once, without appearance callbacks or a transition.
        journal.clear()
        let e = JournaledViewController("E", journal: journal)
        try nav.setViewControllers([e, vcs[0]], animated: true)
        XCTAssertEqual(journal.entries, ["C.willMove(nil)", "E.willMove(Nav)", "C.didMove(nil)", "E.didMove(Nav)"])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["E", "A"])
    }

    func testSetViewControllersRefusesBadStacks() async throws {
        let (_, nav, vcs, _) = stack(["A", "B"])
        XCTAssertThrowsError(try nav.setViewControllers([], animated: false)) {
            XCTAssertEqual($0 as? TransitionError, .invalidStack("the stack cannot be empty"))
        }
        XCTAssertThrowsError(try nav.setViewControllers([vcs[0], vcs[1], vcs[0]], animated: false)) {
            XCTAssertEqual($0 as? TransitionError, .invalidStack("A is listed twice"))
        }
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
        XCTAssertTrue(journal.entries.isEmpty, "nothing happened")
    }
}
