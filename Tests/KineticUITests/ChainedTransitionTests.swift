import Kinetic
import KineticUI
import XCTest

/// A transition started from an appearance callback of the one that just ended (UIKit allows
/// this: presenting an onboarding screen from `viewDidAppear`, pushing the next step when one
/// appears, dismissing at once). The window must no longer wait for the ended transition, and
/// the stack and presentation links must already be final.
@MainActor
final class ChainedTransitionTests: EngineTestCase {
    /// A controller that runs `onDidAppear` (once per arming) and records what it threw.
    final class HookedViewController: JournaledViewController {
        var onDidAppear: (@MainActor (HookedViewController) throws -> Void)?
        var onDidDisappear: (@MainActor (HookedViewController) throws -> Void)?
        var errors: [String] = []

        override func viewDidAppear(_ animated: Bool) {
            super.viewDidAppear(animated)
            guard let hook = onDidAppear else { return }
            onDidAppear = nil
            do { try hook(self) } catch { errors.append("\(error)") }
        }

        override func viewDidDisappear(_ animated: Bool) {
            super.viewDidDisappear(animated)
            guard let hook = onDidDisappear else { return }
            onDidDisappear = nil
            do { try hook(self) } catch { errors.append("\(error)") }
        }
    }

    /// A window whose root is A, and B and a third controller, all writing into one journal
    /// (cleared after A appears).
    private func scene(third: String) -> (Journal, Window, HookedViewController, HookedViewController, HookedViewController) {
        let journal = Journal()
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        window.rootViewController = a
        journal.clear()
        return (journal, window, a, b, HookedViewController(third, journal: journal))
    }

    /// A window whose root is a navigation controller with A at the root, and B (not yet
    /// pushed), both writing into one journal.
    private func navigationScene() -> (Journal, Window, HookedViewController, HookedViewController, NavigationController) {
        let journal = Journal()
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        return (journal, window, a, b, nav)
    }

    func testPresentingFromTheNewlyPresentedControllersDidAppear() async throws {
        let (journal, window, a, b, c) = scene(third: "C")
        b.onDidAppear = { [unowned c] me in try me.present(c, animated: true) }
        try a.present(b, animated: true)
        try advance(to: 2)
        XCTAssertEqual(b.errors, [])
        XCTAssertNotNil(window.transitionInProgress, "B's presentation of C runs")
        XCTAssertTrue(b.presentedViewController === c)
        try advance(to: 4)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertTrue(c.presentingViewController === b)
        XCTAssertTrue(a.presentedViewController === b)
        XCTAssertNotNil(c.view.window)
        let order = journal.entries.filter { $0.hasSuffix("Appear") || $0.hasSuffix("Disappear") }
        XCTAssertEqual(order, ["A.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear",
                               "A.viewDidDisappear", "B.viewWillDisappear", "C.viewWillAppear",
                               "C.viewDidAppear", "B.viewDidDisappear"],
                       "C's transition begins inside B's viewDidAppear, after the rest of B's presentation ends")
        try b.dismiss(animated: false)
        try a.dismiss(animated: false)
    }

    func testPushingFromThePushedControllersDidAppear() async throws {
        let journal = Journal()
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        let c = HookedViewController("C", journal: journal)
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        b.onDidAppear = { [unowned c] me in
            XCTAssertEqual(me.navigationController?.viewControllers.map(\.name), ["A", "B"], "the stack is final")
            XCTAssertTrue(me.parent === me.navigationController)
            try me.navigationController?.pushViewController(c, animated: true)
        }
        try nav.pushViewController(b, animated: true)
        try advance(to: 2)
        XCTAssertEqual(b.errors, [])
        XCTAssertEqual(window.transitionInProgress?.summary, "push from B to C", "begun when B appeared")
        try advance(to: 4)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B", "C"])
        XCTAssertNil(window.transitionInProgress)
        XCTAssertTrue(c.parent === nav)
        XCTAssertTrue(c.view.superview === nav.view)
        XCTAssertNil(b.view.superview)
        XCTAssertEqual(nav.children.map(\.name), ["A", "B", "C"])
    }

    func testDismissingFromDidAppearAndPresentingAgainFromThePresentersDidAppear() async throws {
        let journal = Journal()
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        window.rootViewController = a
        b.onDidAppear = { me in try me.dismiss(animated: true) }
        try a.present(b, animated: true)
        try advance(to: 2)
        try advance(to: 4)
        XCTAssertEqual(b.errors, [])
        XCTAssertNil(a.presentedViewController, "B dismissed itself as soon as it appeared")
        XCTAssertNil(window.transitionInProgress)

        // A's viewDidAppear at the end of a dismissal presents again: the dismissal ends first.
        let c = HookedViewController("C", journal: journal)
        a.onDidAppear = { [unowned c] me in try me.present(c, animated: false) }
        try a.present(b, animated: true)
        try advance(to: 6)
        try a.dismiss(animated: true)
        try advance(to: 8)
        XCTAssertEqual(a.errors, [])
        XCTAssertTrue(a.presentedViewController === c, "presented from A's viewDidAppear")
        XCTAssertNil(b.presentingViewController, "B's links are cut after its own viewDidDisappear")
        XCTAssertNil(b.presentationController)
        XCTAssertNil(window.transitionInProgress)
        try a.dismiss(animated: false)
        XCTAssertNil(a.presentedViewController)
    }

    func testPushingBackThePoppedControllerFromTheRevealedOnesDidAppear() async throws {
        let (_, window, a, b, nav) = navigationScene()
        try nav.pushViewController(b, animated: false)
        a.onDidAppear = { [unowned b] me in try me.navigationController?.pushViewController(b, animated: true) }
        _ = try nav.popViewController(animated: true)
        try advance(to: 2)
        XCTAssertEqual(window.transitionInProgress?.summary, "push from A to B", "begun when A appeared")
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"], "the push's stack while it runs")
        try advance(to: 4)
        XCTAssertEqual(a.errors, [])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
        XCTAssertEqual(nav.children.map(\.name), ["A", "B"])
        XCTAssertTrue(b.parent === nav, "pushed back, it stays a child")
        XCTAssertTrue(b.view.superview === nav.view)
    }

    func testPoppingFromDidDisappearAfterAPush() async throws {
        let (_, window, a, b, nav) = navigationScene()
        a.onDidDisappear = { me in _ = try me.navigationController?.popViewController(animated: true) }
        try nav.pushViewController(b, animated: true)
        try advance(to: 2)
        try advance(to: 4)
        XCTAssertEqual(a.errors, [])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A"])
        XCTAssertNil(b.parent)
        XCTAssertTrue(a.view.superview === nav.view)
        XCTAssertNil(window.transitionInProgress)
    }

    /// A navigation controller that is in no window changes its stack at once, as UIKit's
    /// does: nothing animates, no appearance callbacks (only containment ones); shown later,
    /// its top appears.
    func testANavigationControllerOutsideAWindowChangesItsStackAtOnce() async throws {
        for loadsViewFirst in [false, true] {
            let journal = Journal()
            let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
            let c = HookedViewController("C", journal: journal)
            let nav = NavigationController(rootViewController: a)
            if loadsViewFirst { _ = nav.view }
            journal.clear()
            try nav.pushViewController(b, animated: true)
            try nav.pushViewController(c, animated: true)
            XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B", "C"], "at once")
            XCTAssertEqual(try nav.popViewController(animated: true)?.name, "C")
            XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B"])
            XCTAssertNil(c.parent)
            XCTAssertTrue(b.parent === nav)
            XCTAssertEqual(journal.entries, ["B.willMove(NavigationController)", "B.didMove(NavigationController)",
                                             "C.willMove(NavigationController)", "C.didMove(NavigationController)",
                                             "C.willMove(nil)", "C.didMove(nil)"], "loads view first: \(loadsViewFirst)")
            if loadsViewFirst {
                XCTAssertTrue(b.view.superview === nav.view)
                XCTAssertNil(a.view.superview)
                XCTAssertNil(c.view.superview)
            }
            journal.clear()
            let window = Window(engine: engine)
            window.rootViewController = nav
            XCTAssertEqual(journal.entries, ["B.viewWillAppear", "B.viewDidAppear"], "loads view first: \(loadsViewFirst)")
            XCTAssertTrue(b.view.superview === nav.view)
            XCTAssertEqual(nav.view.subviews.count, 1, "only the top's view")
            XCTAssertNil(window.transitionInProgress)
        }
    }


    /// The appearance and containment callbacks of the journal, in order.
    private func callbacks(_ journal: Journal) -> [String] {
        journal.entries.filter { $0.hasSuffix("Appear") || $0.hasSuffix("Disappear") || $0.contains("Move(") || $0.contains("didShow") }
    }

    func testEveryControllerGetsTheEndedTransitionsCallbacksBeforeTheNextOnes() async throws {
        // B dismisses itself as soon as it appears: A gets viewDidDisappear (the end of the
        // presentation) before viewWillAppear (the start of the dismissal).
        let journal = Journal()
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        window.rootViewController = a
        journal.clear()
        b.onDidAppear = { me in try me.dismiss(animated: true) }
        try a.present(b, animated: true)
        try advance(to: 2)
        try advance(to: 4)
        XCTAssertEqual(b.errors, [])
        XCTAssertEqual(callbacks(journal), ["A.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear", "A.viewDidDisappear",
                                           "B.viewWillDisappear", "A.viewWillAppear", "A.viewDidAppear", "B.viewDidDisappear"])
        XCTAssertNil(a.presentedViewController)
    }

    func testAPopFromTheOldTopsDidDisappearComesAfterThePushEnds() async throws {
        final class Delegate: NavigationControllerDelegate {
            let journal: Journal
            init(_ journal: Journal) { self.journal = journal }
            func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                      from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)? { nil }
            func navigationController(_ navigationController: NavigationController,
                                      interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
                -> (any ViewControllerInteractiveTransitioning)? { nil }
            func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController,
                                      animated: Bool) {}
            func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController,
                                      animated: Bool) { journal.add("didShow(\(viewController.name))") }
        }
        let journal = Journal()
        let delegate = Delegate(journal)
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        let nav = NavigationController(rootViewController: a)
        nav.delegate = delegate
        window.rootViewController = nav
        journal.clear()
        a.onDidDisappear = { me in _ = try me.navigationController?.popViewController(animated: true) }
        try nav.pushViewController(b, animated: true)
        try advance(to: 2)
        try advance(to: 4)
        XCTAssertEqual(a.errors, [])
        XCTAssertEqual(callbacks(journal), [
            "B.willMove(NavigationController)", "A.viewWillDisappear", "B.viewWillAppear",
            "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(NavigationController)", "didShow(B)",
            "B.willMove(nil)", "B.viewWillDisappear", "A.viewWillAppear",
            "B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)", "didShow(A)",
        ])
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A"])
        withExtendedLifetime(delegate) {}
    }

    func testPresentingFromADismissedControllersDidDisappearIsRefused() async throws {
        let (_, window, a, b, x) = scene(third: "X")
        try a.present(b, animated: false)
        b.onDidDisappear = { [unowned x] me in try me.present(x, animated: true) }
        try a.dismiss(animated: true)
        try advance(to: 2)
        XCTAssertEqual(b.errors, ["\(TransitionError.notInWindow("B"))"], "B is out of the window once dismissed")
        XCTAssertNil(x.presentingViewController)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(window.subviews.count, 1, "no container left behind")
    }

    func testAPoppedControllerPushedOntoAnotherStackKeepsItsNewParent() async throws {
        let journal = Journal()
        let window = Window(engine: engine)
        let root = ViewController(name: "Root")
        window.rootViewController = root
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        let other = ViewController(name: "Other")
        let nav1 = NavigationController(rootViewController: a, name: "Nav1")
        let nav2 = NavigationController(rootViewController: other, name: "Nav2")
        for nav in [nav1, nav2] {
            root.addChild(nav)
            root.view.addSubview(nav.view)
            nav.didMove(toParent: root)
        }
        try nav1.pushViewController(b, animated: false)
        a.onDidAppear = { [unowned b, unowned nav2] _ in try nav2.pushViewController(b, animated: true) }
        _ = try nav1.popViewController(animated: true)
        try advance(to: 2)
        try advance(to: 4)
        XCTAssertEqual(a.errors, [])
        XCTAssertTrue(b.parent === nav2)
        XCTAssertEqual(nav2.viewControllers.map(\.name), ["Other", "B"])
        XCTAssertEqual(nav1.viewControllers.map(\.name), ["A"])
        XCTAssertTrue(b.navigationController === nav2)
    }

    func testTheEndedTransitionsAnimatorAndCompletionRunBeforeTheNextBegins() async throws {
        final class Recorder: ViewControllerAnimatedTransitioning, ViewControllerTransitioningDelegate {
            let journal: Journal
            let fade = CrossDissolveTransition(duration: 0.2)
            init(_ journal: Journal) { self.journal = journal }
            func transitionDuration(using context: (any ViewControllerContextTransitioning)?) -> Double { 0.2 }
            func animateTransition(using context: any ViewControllerContextTransitioning) throws {
                journal.add("animateTransition")
                try fade.animateTransition(using: context)
            }
            func animationEnded(_ transitionCompleted: Bool) { journal.add("animationEnded") }
            func animationController(forPresented presented: ViewController, presenting: ViewController,
                                     source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { self }
            func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { self }
        }
        let journal = Journal()
        let recorder = Recorder(journal)
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        window.rootViewController = a
        b.transitioningDelegate = recorder
        b.onDidAppear = { me in try me.dismiss(animated: true) }
        journal.clear()
        try a.present(b, animated: true) { [unowned window] in
            journal.add("completion, in progress: \(window.transitionInProgress != nil)")
        }
        try advance(to: 2)
        try advance(to: 4)
        XCTAssertEqual(b.errors, [])
        XCTAssertEqual(journal.entries.filter { !$0.contains("Appear") && !$0.contains("Disappear") },
                       ["animateTransition", "animationEnded", "completion, in progress: false",
                        "animateTransition", "animationEnded"])
        withExtendedLifetime(recorder) {}
    }


    /// The push-with-completion idiom: the navigation controller's own transition coordinator
    /// is the push's.
    func testANavigationControllersCoordinatorIsItsPushes() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        XCTAssertNil(nav.transitionCoordinator)
        try nav.pushViewController(b, animated: true)
        var done: [Bool] = []
        let coordinator = try XCTUnwrap(nav.transitionCoordinator)
        XCTAssertTrue(coordinator === b.transitionCoordinator)
        coordinator.animate(alongsideTransition: nil) { context in done.append(!context.transitionWasCancelled) }
        XCTAssertEqual(done, [])
        try advance(to: 2)
        XCTAssertEqual(done, [true])
        XCTAssertNil(nav.transitionCoordinator)
        // A controller elsewhere in the window is not part of it.
        let other = ViewController(name: "Other")
        try a.navigationController?.pushViewController(other, animated: true)
        XCTAssertNil(ViewController(name: "Loose").transitionCoordinator)
        try advance(to: 4)
        XCTAssertEqual(nav.viewControllers.map(\.name), ["A", "B", "Other"])
    }


    /// A popped controller that its `viewDidDisappear` hands to another container stays
    /// there: the pop's bookkeeping after the callbacks leaves it alone.
    func testAPoppedControllerAdoptedFromItsDidDisappearKeepsItsNewParent() async throws {
        let journal = Journal()
        let window = Window(engine: engine)
        let a = HookedViewController("A", journal: journal), b = HookedViewController("B", journal: journal)
        let holder = ViewController(name: "Holder")
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        try nav.pushViewController(b, animated: false)
        b.onDidDisappear = { [unowned holder] me in holder.addChild(me) }
        _ = try nav.popViewController(animated: true)
        try advance(to: 2)
        XCTAssertTrue(b.parent === holder)
        XCTAssertEqual(holder.children.map(\.name), ["B"])
        XCTAssertEqual(nav.children.map(\.name), ["A"])
        XCTAssertEqual(journal.entries.filter { $0 == "B.didMove(nil)" }.count, 1,
                       "once, by addChild leaving the stack; not again from its new parent")
    }

}
