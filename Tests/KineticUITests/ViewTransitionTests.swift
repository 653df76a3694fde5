import Kinetic
import KineticUI
import XCTest

/// `View.transition(with:…)` and `View.transition(from:to:…)` with their options.
@MainActor
final class ViewTransitionTests: EngineTestCase {
    private func root() -> (Window, View) {
        let window = Window(engine: engine)
        let content = View(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.addSubview(content)
        return (window, content)
    }

    /// The new content shows at once beneath a snapshot of the old that dissolves away.
    func testCrossDissolveOfAContentChange() async throws {
        let (window, content) = root()
        let label = View(frame: Rect(x: 10, y: 10, width: 100, height: 40))
        label.name = "label"
        content.addSubview(label)
        var finished: Bool?
        try View.transition(with: label, duration: 0.4, options: [.transitionCrossDissolve, .curveLinear], engine: engine,
                            animations: { label.bounds = Rect(x: 0, y: 0, width: 200, height: 40) }, completion: { finished = $0 })
        XCTAssertEqual(label.presentation.bounds.size.width, 200, "the change applies at once")
        XCTAssertEqual(content.subviews.count, 2, "a snapshot above the view")
        let snapshot = content.subviews[1]
        XCTAssertEqual(snapshot.name, "snapshot of label")
        XCTAssertEqual(snapshot.presentation.bounds.size.width, 100, "the snapshot shows the old content")
        try step(12)
        XCTAssertEqual(snapshot.presentation.alpha, 0.5, accuracy: 1e-12)
        try step(12)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(content.subviews.count, 1, "the snapshot is gone")
        _ = window
    }

    func testAllowAnimatedContentAnimatesTheChangeToo() async throws {
        let (window, content) = root()
        let box = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        content.addSubview(box)
        try View.transition(with: box, duration: 1, options: [.transitionFlipFromLeft, .allowAnimatedContent, .curveLinear],
                            engine: engine, animations: { box.alpha = 0 })
        try step(30)
        XCTAssertEqual(box.presentation.alpha, 0.5, accuracy: 1e-12, "animated, not applied at once")
        XCTAssertEqual(content.subviews.count, 2, "the flip dissolves headless")
        _ = window
    }

    func testTransitionFromToReplacesOrShowsAndHides() async throws {
        let (window, content) = root()
        let a = View(frame: Rect(x: 0, y: 0, width: 100, height: 100)), b = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let other = View()
        content.addSubview(a)
        content.addSubview(other)
        var finished: Bool?
        try View.transition(from: a, to: b, duration: 0.3, options: .transitionCurlUp, engine: engine) { finished = $0 }
        XCTAssertNil(a.superview)
        XCTAssertTrue(b.superview === content)
        XCTAssertTrue(content.subviews.firstIndex { $0 === b } == 0, "in the old view's place")
        try step(18)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(content.subviews.count, 2, "snapshot removed")

        // Show / hide: both stay.
        content.addSubview(a)
        try View.transition(from: b, to: a, duration: 0.3, options: [.transitionCrossDissolve, .showHideTransitionViews],
                            engine: engine)
        XCTAssertTrue(b.isHidden)
        XCTAssertFalse(a.isHidden)
        XCTAssertTrue(b.superview === content)
        XCTAssertThrowsError(try View.transition(from: a, to: b, duration: .nan, engine: engine))
        _ = window
    }

    /// Without a transition option, `transition(with:)` is a plain block animation.
    func testNoTransitionOptionIsABlockAnimation() async throws {
        let (window, content) = root()
        let box = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        content.addSubview(box)
        try View.transition(with: box, duration: 1, options: .curveLinear, engine: engine, animations: { box.alpha = 0 })
        XCTAssertEqual(content.subviews.count, 1, "no snapshot")
        try step(15)
        XCTAssertEqual(box.presentation.alpha, 0.75, accuracy: 1e-12)
        _ = window
    }
}

/// `animateAlongsideTransition(in:animation:completion:)`: views outside the container.
@MainActor
final class AlongsideInViewTests: EngineTestCase {
    func testAnimatesAViewOutsideTheContainerAndRefusesOneInNoWindow() async throws {
        let window = Window(engine: engine)
        let a = ViewController(name: "A"), b = ViewController(name: "B")
        window.rootViewController = a
        let bar = View(frame: Rect(x: 0, y: 0, width: 390, height: 44))
        window.addSubview(bar)
        let stray = View()
        try a.present(b, animated: true)
        let coordinator = try XCTUnwrap(b.transitionCoordinator)
        var completed = 0
        XCTAssertTrue(coordinator.animateAlongsideTransition(in: bar, animation: { _ in bar.alpha = 0 }, completion: { _ in completed += 1 }))
        XCTAssertFalse(coordinator.animateAlongsideTransition(in: stray, animation: { _ in stray.alpha = 0 }),
                       "a view in no window is refused")
        XCTAssertTrue(coordinator.animateAlongsideTransition(in: nil, animation: nil, completion: { _ in completed += 1 }))
        try advance(to: 0.175)
        XCTAssertEqual(bar.presentation.alpha, 1 - CubicBezier.easeInOut.value(at: 0.5), accuracy: 1e-9, "alongside the slide")
        try advance(to: 0.4)
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(bar.alpha, 0)
        XCTAssertEqual(stray.alpha, 1, "never ran")
        XCTAssertEqual(completed, 2)
        XCTAssertTrue(bar.window === window)
        XCTAssertNil(stray.window)
        try b.dismiss(animated: false)  // a presentation left in place outlives the window
    }
}
