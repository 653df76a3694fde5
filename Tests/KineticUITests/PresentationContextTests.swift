import Kinetic
import KineticUI
import XCTest

/// `.currentContext` and `.overCurrentContext` with `definesPresentationContext` and
/// `providesPresentationContextTransitionStyle`, and a custom presentation controller whose
/// `shouldPresentInFullscreen` is false.
@MainActor
final class PresentationContextTests: EngineTestCase {
    private let journal = Journal()
    private var window: Window?

    override func tearDown() async throws {
        window = nil
        try await super.tearDown()
    }

    /// A root P split into two children, L (left half) and R (right half), in a 390 × 844 window.
    private func split() -> (parent: JournaledViewController, left: JournaledViewController, right: JournaledViewController) {
        let p = JournaledViewController("P", journal: journal)
        let l = JournaledViewController("L", journal: journal), r = JournaledViewController("R", journal: journal)
        let window = Window(engine: engine)
        window.rootViewController = p
        for (child, x) in [(l, 0.0), (r, 195.0)] {
            p.addChild(child)
            child.view.frame = Rect(x: x, y: 0, width: 195, height: 844)
            p.view.addSubview(child.view)
            child.didMove(toParent: p)
        }
        self.window = window
        journal.clear()
        return (p, l, r)
    }

    func testCurrentContextCoversTheContextOnly() async throws {
        let (p, l, r) = split()
        r.definesPresentationContext = true
        let x = JournaledViewController("X", journal: journal)
        x.modalPresentationStyle = .currentContext
        try r.present(x, animated: true)
        XCTAssertTrue(x.presentingViewController === r, "the context presents")
        try step(30)
        XCTAssertNil(window?.transitionInProgress)
        XCTAssertEqual(journal.entries, ["R.viewWillDisappear", "X.viewWillAppear", "X.viewDidAppear", "R.viewDidDisappear"],
                       "the context gets the presenter's callbacks, as with full screen")
        XCTAssertFalse(journal.entries.contains { $0.hasPrefix("L.") || $0.hasPrefix("P.") }, "only the context disappears")
        XCTAssertNil(r.view.superview, "the context's view is removed, as full screen removes the presenter's")
        XCTAssertTrue(l.view.superview === p.view)
        let frame = x.view.superview.map { Rect(x: $0.frame.origin.x + x.view.frame.origin.x, y: $0.frame.origin.y + x.view.frame.origin.y,
                                                width: x.view.frame.size.width, height: x.view.frame.size.height) }
        XCTAssertEqual(frame, Rect(x: 195, y: 0, width: 195, height: 844), "over the context's frame")
        journal.clear()
        try x.dismiss(animated: false)
        XCTAssertTrue(r.view.superview === p.view, "the context's view is back")
        XCTAssertTrue(journal.entries.contains("R.viewDidAppear"))
        XCTAssertNil(r.presentedViewController)
    }

    /// An animated dismissal puts the context's view back where it was, at its own frame, in
    /// its superview's subview order, under every built-in transition style.
    func testCurrentContextAnimatedDismissalRestoresTheContextView() async throws {
        for (style, animated) in [(ModalTransitionStyle.coverVertical, true), (.crossDissolve, true), (.coverVertical, false)] {
            let (p, l, r) = split()
            r.definesPresentationContext = true
            let x = JournaledViewController("X", journal: journal)
            x.modalPresentationStyle = .currentContext
            x.modalTransitionStyle = style
            try r.present(x, animated: true)
            try step(40)
            XCTAssertNil(r.view.superview)
            try x.dismiss(animated: animated)
            try step(40)
            XCTAssertNil(window?.transitionInProgress)
            XCTAssertTrue(r.view.superview === p.view, "\(style): the context's view is back")
            XCTAssertEqual(r.view.frame, Rect(x: 195, y: 0, width: 195, height: 844), "\(style)")
            XCTAssertEqual(r.view.presentation.frame, Rect(x: 195, y: 0, width: 195, height: 844), "\(style)")
            XCTAssertEqual(r.view.alpha, 1, "\(style)")
            XCTAssertEqual(p.view.subviews.map { $0 === l.view ? "L" : $0 === r.view ? "R" : "?" }, ["L", "R"], "\(style)")
            XCTAssertNil(x.view.superview, "\(style): the presented view is gone")
            XCTAssertNil(r.presentedViewController)
        }
    }

    /// A context view with a transform comes back at its own size (its centre and bounds are
    /// kept, not its frame, which the transform scales), and so does one whose presentation
    /// was cancelled.
    func testAContextViewWithATransformComesBackAtItsSize() async throws {
        let (_, _, r) = split()
        r.definesPresentationContext = true
        r.view.transform = Transform2D(scaleX: 0.9, y: 0.9)
        let bounds = r.view.bounds, center = r.view.center
        let x = JournaledViewController("X", journal: journal)
        x.modalPresentationStyle = .currentContext
        try r.present(x, animated: true)
        try step(40)
        try x.dismiss(animated: true)
        try step(40)
        XCTAssertEqual(r.view.bounds, bounds)
        XCTAssertEqual(r.view.center, center)
        XCTAssertEqual(r.view.transform, Transform2D(scaleX: 0.9, y: 0.9))
    }

    func testOverCurrentContextKeepsTheContextAndWithoutAContextTheRootIsUsed() async throws {
        let (p, _, r) = split()
        r.definesPresentationContext = true
        let x = JournaledViewController("X", journal: journal)
        x.modalPresentationStyle = .overCurrentContext
        try r.present(x, animated: false)
        XCTAssertTrue(r.view.superview === p.view, "over: the context's view stays")
        XCTAssertEqual(journal.entries, ["X.viewWillAppear", "X.viewDidAppear"], "no callbacks for the context")
        XCTAssertEqual(x.view.frame.size, Size(width: 195, height: 844))
        try x.dismiss(animated: false)

        // No controller defines a context: the top of the chain (P) is the context.
        r.definesPresentationContext = false
        let y = ViewController(name: "Y")
        y.modalPresentationStyle = .currentContext
        try r.present(y, animated: false)
        XCTAssertTrue(y.presentingViewController === p)
        XCTAssertEqual(y.view.frame.size, Size(width: 390, height: 844))
        try y.dismiss(animated: false)
    }

    /// The context's transition style replaces the presented controller's when the context
    /// provides it.
    func testProvidesPresentationContextTransitionStyle() async throws {
        let (_, _, r) = split()
        r.definesPresentationContext = true
        r.providesPresentationContextTransitionStyle = true
        r.modalTransitionStyle = .crossDissolve
        let x = ViewController(name: "X")
        x.modalPresentationStyle = .currentContext  // its own style: cover vertical
        let start = engine.clock.now
        try r.present(x, animated: true)
        try advance(to: start + 0.175)
        XCTAssertEqual(x.view.presentation.alpha, CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12, "cross-dissolves")
        XCTAssertEqual(x.view.presentation.frame.origin.y, 0, "does not slide")
        try advance(to: start + 0.4)
        XCTAssertNil(window?.transitionInProgress)
        // A presentation left in place keeps its controller and presentation controller
        // (they hold each other until the dismissal), past the window.
        try x.dismiss(animated: false)
    }

    /// A custom presentation controller that does not present in full screen is presented
    /// in the current context.
    func testCustomControllerNotInFullscreen() async throws {
        final class InContext: PresentationController {
            override var shouldPresentInFullscreen: Bool { false }
        }
        final class Delegate: ViewControllerTransitioningDelegate {
            func presentationController(forPresented presented: ViewController, presenting: ViewController?,
                                        source: ViewController) -> PresentationController? {
                InContext(presentedViewController: presented, presenting: presenting)
            }
        }
        let (_, _, r) = split()
        r.definesPresentationContext = true
        let x = ViewController(name: "X")
        x.modalPresentationStyle = .custom
        let delegate = Delegate()
        x.transitioningDelegate = delegate
        try r.present(x, animated: false)
        XCTAssertTrue(x.presentingViewController === r)
        XCTAssertEqual(x.view.frame.size, Size(width: 195, height: 844))
        XCTAssertFalse(PresentationController(presentedViewController: x, presenting: r).shouldPresentInFullscreen == false,
                       "the base class presents in full screen")
        try x.dismiss(animated: false)
        withExtendedLifetime(delegate) {}
    }
}
