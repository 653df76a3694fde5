import Kinetic
import KineticUI
import XCTest

/// `.pageSheet` / `.formSheet` as far as they differ headless: the presenter keeps its view
/// and gets no appearance calls; the presented view is inset from the container's top (a
/// form sheet on a regular-width container is a centred 540 × 620 card).
@MainActor
final class SheetPresentationTests: EngineTestCase {
    let half = CubicBezier.easeInOut.value(at: 0.5)

    func testPageSheetInsetsThePresentedViewAndLeavesThePresenterAlone() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        window.clearTrace()
        b.modalPresentationStyle = .pageSheet
        try a.present(b, animated: true)
        let context = try XCTUnwrap(window.transitionInProgress)
        let sheet = Rect(x: 0, y: 10, width: 390, height: 834)
        XCTAssertEqual(ModalPresentationStyle.sheetTopInset, 10)
        XCTAssertEqual(context.finalFrame(for: b), sheet)
        XCTAssertEqual(b.presentationController?.frameOfPresentedViewInContainerView, sheet)
        XCTAssertEqual(b.presentationController?.shouldRemovePresentersView, false)
        XCTAssertNil(context.view(forKey: .from), "the presenter's view is not the animator's")
        try advance(to: 0.175)
        XCTAssertEqual(b.view.presentation.frame.origin.y, 10 + 844 * (1 - half), accuracy: 1e-9, "covers vertically up to the inset")
        try advance(to: 0.35)
        XCTAssertEqual(window.trace, ["B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"], "no disappear calls")
        XCTAssertEqual(b.view.presentation.frame, sheet)
        XCTAssertTrue(a.view.superview === window, "the presenter keeps its view")

        window.clearTrace()
        try b.dismiss(animated: true)
        try advance(to: 0.35 + 0.175)
        XCTAssertEqual(b.view.presentation.frame.origin.y, 10 + 844 * half, accuracy: 1e-9)
        try advance(to: 0.7)
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "B.viewDidDisappear"])
        XCTAssertTrue(a.view.superview === window)
        XCTAssertNil(b.view.superview)
        XCTAssertNil(a.presentedViewController)
    }

    func testFormSheetIsAPageSheetWhenCompactAndACentredCardWhenRegular() async throws {
        func presentedFrame(_ style: ModalPresentationStyle, window size: Size) throws -> Rect {
            let window = Window(size: size, engine: engine)
            let a = ViewController(name: "A"), b = ViewController(name: "B")
            window.rootViewController = a
            b.modalPresentationStyle = style
            try a.present(b, animated: false)
            XCTAssertTrue(a.view.superview === window, "\(style): the presenter keeps its view")
            XCTAssertEqual(window.trace.filter { $0.hasPrefix("A.") && $0.contains("Disappear") }, [], "\(style)")
            return b.view.frame
        }
        let phone = Size(width: 390, height: 844), pad = Size(width: 1024, height: 768)
        XCTAssertEqual(try presentedFrame(.formSheet, window: phone), Rect(x: 0, y: 10, width: 390, height: 834))
        XCTAssertEqual(try presentedFrame(.pageSheet, window: pad), Rect(x: 0, y: 10, width: 1024, height: 758))
        XCTAssertEqual(try presentedFrame(.formSheet, window: pad), Rect(x: 242, y: 74, width: 540, height: 620))
        XCTAssertEqual(ModalPresentationStyle.regularWidth, 768)
        XCTAssertEqual(try presentedFrame(.formSheet, window: Size(width: 768, height: 500)),
                       Rect(x: 114, y: 0, width: 540, height: 500), "clamped to the container")
        XCTAssertEqual(try presentedFrame(.formSheet, window: Size(width: 767, height: 500)),
                       Rect(x: 0, y: 10, width: 767, height: 490), "just below regular width: compact")
    }
}
