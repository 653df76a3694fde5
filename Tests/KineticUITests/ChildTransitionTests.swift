import Kinetic
import KineticUI
import XCTest

/// The container transition between two children
/// (`transition(from:to:duration:options:animations:completion:)`), with UIKit's containment
/// pattern around it.
@MainActor
final class ChildTransitionTests: EngineTestCase {
    private let journal = Journal()
    private var window: Window?

    override func tearDown() async throws {
        window = nil
        try await super.tearDown()
    }

    /// A container showing child A, in a window.
    private func container() -> (JournaledViewController, JournaledViewController, JournaledViewController) {
        let parent = JournaledViewController("P", journal: journal)
        let a = JournaledViewController("A", journal: journal)
        parent.addChild(a)
        parent.view.addSubview(a.view)
        a.didMove(toParent: parent)
        let window = Window(engine: engine)
        window.rootViewController = parent
        self.window = window
        journal.clear()
        return (parent, a, JournaledViewController("B", journal: journal))
    }

    func testCrossfadeBetweenChildrenWithUIKitsCallbacks() async throws {
        let (parent, a, b) = container()
        b.view.alpha = 0
        var finished: Bool?
        a.willMove(toParent: nil)
        parent.addChild(b)
        try parent.transition(from: a, to: b, duration: 0.5, options: .curveLinear, animations: {
            a.view.alpha = 0
            b.view.alpha = 1
        }) { done in
            finished = done
            a.removeFromParent()
            b.didMove(toParent: parent)
        }
        XCTAssertEqual(journal.entries, ["A.willMove(nil)", "B.willMove(P)", "A.viewWillDisappear", "B.viewWillAppear"])
        XCTAssertTrue(b.view.superview === parent.view, "added on top")
        try step(15)
        XCTAssertEqual(b.view.presentation.alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(a.view.presentation.alpha, 0.5, accuracy: 1e-12)
        XCTAssertNil(finished)
        try step(15)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(journal.entries, ["A.willMove(nil)", "B.willMove(P)", "A.viewWillDisappear", "B.viewWillAppear",
                                         "A.viewDidDisappear", "B.viewDidAppear", "A.didMove(nil)", "B.didMove(P)"])
        XCTAssertNil(a.view.superview, "the old child's view is removed")
        XCTAssertEqual(parent.children.map(\.name), ["B"])
    }

    func testMisuseIsRefusedAndChangesNothing() async throws {
        let (parent, a, b) = container()
        XCTAssertThrowsError(try parent.transition(from: a, to: b, duration: 0.3, animations: nil)) {
            XCTAssertEqual($0 as? TransitionError, .notAChild(child: "B", parent: "P"))
        }
        parent.addChild(b)
        XCTAssertThrowsError(try parent.transition(from: a, to: a, duration: 0.3, animations: nil))
        XCTAssertThrowsError(try parent.transition(from: b, to: a, duration: 0.3, animations: nil)) {
            XCTAssertEqual($0 as? TransitionError, .notInWindow("B"), "B's view is in no hierarchy")
        }
        XCTAssertThrowsError(try parent.transition(from: a, to: b, duration: -1, animations: nil))
        XCTAssertEqual(journal.entries, ["B.willMove(P)"], "no appearance callback")
        XCTAssertNil(b.view.superview)
    }
}
