import Kinetic
import KineticUI
import XCTest

/// `isBeingPresented`, `isBeingDismissed`, `isMovingToParent` and `isMovingFromParent`, read
/// inside each appearance callback, as UIKit documents them: true inside the callbacks of the
/// transition that presents, dismisses, pushes or pops the controller, false elsewhere.
@MainActor
final class TransitionFlagsTests: EngineTestCase {
    /// Journals each appearance callback with the four flags read inside it
    /// (P presented, D dismissed, T moving to parent, F moving from parent; - for false).
    private final class FlagsController: ViewController {
        let journal: Journal
        init(_ name: String, journal: Journal) {
            self.journal = journal
            super.init(name: name)
        }
        private func note(_ callback: String) {
            let flags = (isBeingPresented ? "P" : "-") + (isBeingDismissed ? "D" : "-")
                + (isMovingToParent ? "T" : "-") + (isMovingFromParent ? "F" : "-")
            journal.add("\(name).\(callback) \(flags)")
        }
        override func viewWillAppear(_ animated: Bool) { note("viewWillAppear") }
        override func viewDidAppear(_ animated: Bool) { note("viewDidAppear") }
        override func viewWillDisappear(_ animated: Bool) { note("viewWillDisappear") }
        override func viewDidDisappear(_ animated: Bool) { note("viewDidDisappear") }
    }

    private let journal = Journal()
    private var window: Window?

    override func tearDown() async throws {
        window = nil
        try await super.tearDown()
    }

    private func allClear(_ controllers: [ViewController], file: StaticString = #filePath, line: UInt = #line) {
        for c in controllers {
            XCTAssertFalse(c.isBeingPresented || c.isBeingDismissed || c.isMovingToParent || c.isMovingFromParent,
                           "\(c.name): flags set outside a transition", file: file, line: line)
        }
    }

    func testPresentAndDismiss() async throws {
        let window = Window(engine: engine)
        self.window = window
        let a = FlagsController("A", journal: journal), b = FlagsController("B", journal: journal)
        window.rootViewController = a
        journal.clear()
        try a.present(b, animated: true)
        XCTAssertTrue(b.isBeingPresented, "from the start of the presentation")
        try step(40)
        XCTAssertEqual(journal.entries.filter { $0.hasPrefix("B.") }, ["B.viewWillAppear P---", "B.viewDidAppear P---"])
        XCTAssertTrue(journal.entries.filter { $0.hasPrefix("A.") }.allSatisfy { $0.hasSuffix("----") },
                      "the presenter is neither presented nor dismissed: \(journal.entries)")
        allClear([a, b])
        journal.clear()
        try b.dismiss(animated: false)
        XCTAssertEqual(journal.entries.filter { $0.hasPrefix("B.") }, ["B.viewWillDisappear -D--", "B.viewDidDisappear -D--"])
        XCTAssertTrue(journal.entries.filter { $0.hasPrefix("A.") }.allSatisfy { $0.hasSuffix("----") })
        allClear([a, b])
    }

    func testPushAndPop() async throws {
        let window = Window(engine: engine)
        self.window = window
        let a = FlagsController("A", journal: journal), b = FlagsController("B", journal: journal)
        let nav = NavigationController(rootViewController: a)
        window.rootViewController = nav
        journal.clear()
        try nav.pushViewController(b, animated: true)
        XCTAssertTrue(b.isMovingToParent)
        try step(30)
        XCTAssertEqual(journal.entries, ["A.viewWillDisappear ----", "B.viewWillAppear --T-", "A.viewDidDisappear ----",
                                         "B.viewDidAppear --T-"])
        allClear([a, b])
        journal.clear()
        try nav.popViewController(animated: false)
        XCTAssertEqual(journal.entries, ["B.viewWillDisappear ---F", "A.viewWillAppear ----", "B.viewDidDisappear ---F",
                                         "A.viewDidAppear ----"])
        allClear([a, b])
    }

    /// A cancelled interactive dismissal: the flag holds through the callbacks that undo it.
    func testCancelledInteractiveDismissal() async throws {
        let a = FlagsController("A", journal: journal), b = FlagsController("B", journal: journal)
        let (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
        self.window = window
        defer { withExtendedLifetime(delegate) {} }  // held weakly by b
        journal.clear()
        try b.dismiss(animated: true)
        interaction.update(0.3)
        try step()
        try interaction.cancel()
        try step(40)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(journal.entries.filter { $0.hasPrefix("B.") },
                       ["B.viewWillDisappear -D--", "B.viewWillAppear -D--", "B.viewDidAppear -D--"])
        allClear([a, b])
        b.transitioningDelegate = nil
        try b.dismiss(animated: false)  // a presentation left in place outlives the window
    }
}
