import Kinetic
import KineticUI
import XCTest

/// `modalTransitionStyle`: the standard animation when the transitioning delegate vends none.
@MainActor
final class ModalTransitionStyleTests: EngineTestCase {
    func testCrossDissolveFadesInAndOutAtTheFinalFrame() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        b.modalTransitionStyle = .crossDissolve
        XCTAssertEqual(a.modalTransitionStyle, .coverVertical, "the default")
        try a.present(b, animated: true)
        XCTAssertEqual(b.view.frame, window.bounds, "at its final frame from the start")
        try advance(to: 0.175)
        XCTAssertEqual(b.view.presentation.alpha, CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-12)
        XCTAssertEqual(b.view.presentation.frame, window.bounds, "no slide")
        try advance(to: 0.35)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(b.view.alpha, 1)
        try b.dismiss(animated: true)
        try advance(to: 0.35 + 0.0875)
        XCTAssertEqual(b.view.presentation.alpha, 1 - CubicBezier.easeInOut.value(at: 0.25), accuracy: 1e-12)
        XCTAssertTrue(a.view.superview != nil, "the presenter is back underneath")
        try advance(to: 0.7)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertNil(a.presentedViewController)
        XCTAssertEqual(b.view.alpha, 1, "the alpha is back for the next presentation")
        XCTAssertEqual(ModalTransitionStyle(rawValue: 2), .crossDissolve, "UIKit's raw values")
    }

    /// The styles not modelled headless run the standard cover-vertical slide.
    func testFlipAndCurlRunTheCoverVerticalSlide() async throws {
        for style in [ModalTransitionStyle.flipHorizontal, .partialCurl] {
            let window = Window(engine: engine)
            let a = ViewController(name: "A"), b = ViewController(name: "B")
            window.rootViewController = a
            b.modalTransitionStyle = style
            let start = engine.clock.now
            try a.present(b, animated: true)
            try advance(to: start + 0.175)
            XCTAssertEqual(b.view.presentation.frame.origin.y, 844 * (1 - CubicBezier.easeInOut.value(at: 0.5)), accuracy: 1e-9,
                           "\(style)")
            try advance(to: start + 0.4)
            XCTAssertNil(window.transitionInProgress)
            try b.dismiss(animated: false)
        }
    }
}
