import Kinetic
import KineticUI
import XCTest

/// Animations added with `animate(alongsideTransition:)` during a percent-driven interactive
/// transition sit at the same fraction as the transition's own animation at every update,
/// and continue or reverse with it on finish / cancel.
@MainActor
final class AlongsideScrubTests: EngineTestCase {
    private final class Badged: ViewController {
        let badge = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        var alongsideCompletions: [Bool] = []
        override func viewDidLoad() { view.addSubview(badge) }
        override func viewWillDisappear(_ animated: Bool) {
            transitionCoordinator?.animate(alongsideTransition: { _ in self.badge.alpha = 0 },
                                           completion: { self.alongsideCompletions.append($0.transitionWasCancelled) })
        }
    }

    var window: Window!
    private var a: ViewController!
    private var b: Badged!
    var delegate: ConfigurableDelegate!
    var interaction: PercentDrivenInteractiveTransition!

    /// Lets go of the fixture (XCTest keeps async test cases alive: see EngineTestCase).
    override func tearDown() async throws {
        window = nil
        a = nil
        b = nil
        delegate = nil
        interaction = nil
        try await super.tearDown()
    }

    override func setUp() async throws {
        try await super.setUp()
        a = ViewController(name: "A")
        b = Badged(name: "B")
        (window, delegate, interaction) = try interactiveDismissalFixture(engine: engine, presenting: a, presented: b)
    }

    /// The slide's progress, 0 to 1.
    var slideProgress: Double { b.view.presentation.frame.origin.y / 844 }
    /// The badge's fade progress, 0 to 1.
    var fadeProgress: Double { 1 - b.badge.presentation.alpha }

    /// With an interruptible animator, the alongside animations are added to it.
    func testAlongsideFollowsTheInterruptibleAnimatorThroughScrubAndFinish() async throws {
        let slide = InterruptibleSlideDown(timing: try SpringTimingParameters(dampingRatio: 1))
        delegate.dismissAnimator = slide
        // The finish's timing (without it the animator would keep its own spring).
        interaction.timingCurve = CubicTimingParameters(animationCurve: .easeInOut)
        try b.dismiss(animated: true)
        interaction.update(0.25)
        try step()
        XCTAssertEqual(slideProgress, 0.25, accuracy: 1e-12)
        XCTAssertEqual(b.badge.presentation.alpha, 0.75, accuracy: 1e-12, "at the same fraction")
        interaction.update(0.5)
        try step()
        XCTAssertEqual(b.badge.presentation.alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(slideProgress, 0.5, accuracy: 1e-12)

        try interaction.finish()  // 0.5 → 1 in 0.25 s, ease in-out (the timing curve)
        for k in 1 ... 15 {
            try step()
            let expected = 0.5 + 0.5 * CubicBezier.easeInOut.value(at: min(Double(k) / 60 / 0.25, 1))
            XCTAssertEqual(slideProgress, expected, accuracy: 1e-9, "frame \(k)")
            XCTAssertEqual(fadeProgress, slideProgress, accuracy: 1e-9, "frame \(k): together")
        }
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(b.badge.presentation.alpha, 0)
        XCTAssertEqual(b.alongsideCompletions, [false])
        XCTAssertEqual(slide.completeFlags, [true])
    }

    /// With block animations (the standard cover-vertical), the alongside animator is driven
    /// with them: scrubbed, then reversed by a cancel.
    func testAlongsideFollowsBlockAnimationsThroughScrubAndCancel() async throws {
        try b.dismiss(animated: true)
        interaction.update(0.4)
        try step()
        XCTAssertEqual(slideProgress, 0.4, accuracy: 1e-12, "the cover-vertical slide, scrubbed linearly")
        XCTAssertEqual(fadeProgress, 0.4, accuracy: 1e-12)
        try interaction.cancel()  // 0.4 → 0 in 0.4 × 0.35 s = 0.14 s, ease in-out
        for k in 1 ... 9 {
            try step()
            let expected = 0.4 - 0.4 * CubicBezier.easeInOut.value(at: min(Double(k) / 60 / 0.14, 1))
            XCTAssertEqual(slideProgress, expected, accuracy: 1e-9, "frame \(k)")
            XCTAssertEqual(fadeProgress, slideProgress, accuracy: 1e-9, "frame \(k): together")
        }
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(b.badge.alpha, 1, "the model is back at the start")
        XCTAssertEqual(b.badge.presentation.alpha, 1)
        XCTAssertEqual(b.alongsideCompletions, [true], "the completion sees the cancellation")
        XCTAssertEqual(window.trace, ["B.viewWillDisappear", "A.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear",
                                      "B.viewWillAppear", "B.viewDidLayoutSubviews", "B.viewDidAppear"])
    }

    /// Added in the middle of the interaction: starts at the current percentage.
    func testAlongsideAddedMidInteractionJoinsAtTheCurrentFraction() async throws {
        try b.dismiss(animated: true)
        interaction.update(0.3)
        try step()
        let marker = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        b.view.addSubview(marker)
        try XCTUnwrap(b.transitionCoordinator).animate(alongsideTransition: { _ in marker.alpha = 0 })
        try step()
        XCTAssertEqual(marker.presentation.alpha, 0.7, accuracy: 1e-12)
        interaction.update(0.5)
        try step()
        XCTAssertEqual(marker.presentation.alpha, 0.5, accuracy: 1e-12)
        try interaction.finish()
        for k in 1 ... 12 {
            try step()
            XCTAssertEqual(1 - marker.presentation.alpha, slideProgress, accuracy: 1e-9, "frame \(k)")
        }
        XCTAssertNil(window.transitionInProgress)
        XCTAssertEqual(marker.presentation.alpha, 0)
        XCTAssertNil(a.presentedViewController)
    }
}
