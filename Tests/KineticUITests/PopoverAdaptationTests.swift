import Kinetic
import KineticUI
import XCTest

/// `.popover` as an iPhone shows it: adapted to full screen, with the same callbacks,
/// frames and removal of the presenter's view as `.fullScreen`.
@MainActor
final class PopoverAdaptationTests: EngineTestCase {
    private func run(_ style: ModalPresentationStyle) throws -> (trace: [String], frame: Rect, presenterInWindow: Bool,
                                                                after: [String]) {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        b.modalPresentationStyle = style
        window.clearTrace()
        try a.present(b, animated: true)
        try step(40)
        let trace = window.trace, frame = b.view.presentation.frame
        let presenterInWindow = a.view.superview != nil
        window.clearTrace()
        try b.dismiss(animated: true)
        try step(40)
        XCTAssertEqual(b.modalPresentationStyle, style, "the controller keeps its style")
        return (trace, frame, presenterInWindow, window.trace)
    }

    func testPopoverPresentsAsFullScreen() async throws {
        let popover = try run(.popover)
        let full = try run(.fullScreen)
        XCTAssertEqual(popover.trace, full.trace)
        XCTAssertEqual(popover.frame, full.frame)
        XCTAssertFalse(popover.presenterInWindow, "the presenter's view is removed, as for full screen")
        XCTAssertEqual(popover.after, full.after)
        XCTAssertTrue(popover.trace.contains("A.viewDidDisappear"))
        XCTAssertEqual(ModalPresentationStyle.popover.description, "popover")
    }
}
