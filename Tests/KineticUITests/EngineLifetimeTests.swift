import Dispatch
import Foundation
import Kinetic
import KineticUI
import XCTest

/// An engine dropped while its animators run frees itself, its animators and its views (it
/// used to be kept alive forever by a cycle with its running animators); running animators
/// end inactive without their completion handlers (see `AnimationEngine`'s "Lifetime").
@MainActor
final class EngineLifetimeTests: XCTestCase {
    /// An object that another thread can drop (the test hands it over and waits).
    private final class Holder<Object: AnyObject>: @unchecked Sendable {
        var object: Object?
        init(_ object: Object) { self.object = object }
    }

    /// Drops `holder`'s object on another thread while the main actor stays busy: anything
    /// the release defers to the main actor waits until the test yields.
    private func dropOffTheMainActor<Object>(_ holder: Holder<Object>) {
        let released = DispatchSemaphore(value: 0)
        Task.detached {
            holder.object = nil
            released.signal()
        }
        released.wait()
    }

    private final class WeakBox {
        weak var object: AnyObject?
        let label: String
        init(_ object: AnyObject, _ label: String) { self.object = object; self.label = label }
    }

    func testEngineDroppedWithRunningAnimatorsFreesEverything() async throws {
        let savedHandler = Diagnostics.handler
        Diagnostics.handler = { _ in }  // released paused animators are reported; not printed here
        defer { Diagnostics.handler = savedHandler }
        let sharedClock = ManualClock()
        var completionsRun = 0
        for round in 0 ..< 1000 {
            var weak: [WeakBox] = []
            do {
                let clock = round % 2 == 0 ? ManualClock() : sharedClock
                let engine = AnimationEngine(clock: clock)
                let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
                let a = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
                let b = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
                let c = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
                for v in [a, b, c] { root.addSubview(v) }
                let running = try PropertyAnimator(duration: 1, curve: .easeInOut, engine: engine) {
                    a.center = Point(x: 300, y: 200)
                }
                running.addCompletion { _ in a.alpha = 0.5; completionsRun += 1 }
                try running.startAnimation()
                let spring = try PropertyAnimator(duration: 2, dampingRatio: 0.3, engine: engine) {
                    b.alpha = 0
                    a.bounds = Rect(x: 0, y: 0, width: 50, height: 50)
                }
                spring.addCompletion { _ in b.alpha = 1; completionsRun += 1 }
                try spring.startAnimation(afterDelay: 0.05)
                let paused = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
                    c.center = Point(x: -50, y: 10)
                }
                paused.addCompletion { _ in completionsRun += 1 }
                try paused.startAnimation()
                try View.animate(withDuration: 0.5, engine: engine, animations: { c.alpha = 0.2 },
                                 completion: { _ in completionsRun += 1 })
                try clock.advance(by: 1.0 / 60)
                try paused.pauseAnimation()
                try clock.advance(by: 1.0 / 60)
                XCTAssertNotEqual(a.presentation.center, a.model.center)
                weak = [WeakBox(engine, "engine"), WeakBox(root, "root"), WeakBox(a, "a"), WeakBox(b, "b"),
                        WeakBox(c, "c"), WeakBox(running, "running"), WeakBox(spring, "spring"),
                        WeakBox(paused, "paused")]
                if round % 2 == 0 { weak.append(WeakBox(clock, "clock")) }
            }
            for box in weak { XCTAssertNil(box.object, "round \(round): \(box.label) was not freed") }
            if weak.contains(where: { $0.object != nil }) { break }
        }
        XCTAssertEqual(completionsRun, 0, "completion handlers must not run when their engine goes away")
        // The shared clock holds no entry for the 500 engines that were attached to it.
        XCTAssertLessThanOrEqual(sharedClock.attachedEngineCount, 1)
        try sharedClock.advance(by: 1)
        XCTAssertEqual(sharedClock.attachedEngineCount, 0)
        XCTAssertLessThanOrEqual(Diagnostics.recent.count, 100)
    }

    func testAnimatorOutlivingItsEngineIsInactiveAndUsable() async throws {
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var completed: [ViewAnimatingPosition] = []
        let animator: PropertyAnimator
        weak var weakEngine: AnimationEngine?
        do {
            let engine = AnimationEngine()
            weakEngine = engine
            animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
                view.center = Point(x: 100, y: 0)
            }
            animator.addCompletion { completed.append($0) }
            try animator.startAnimation()
            try engine.clock.advance(by: 0.5)
            XCTAssertEqual(view.presentation.center.x, 52.5, accuracy: 1e-9)
        }
        // The host let go of the engine: it is gone although the (running) animator is held.
        XCTAssertNil(weakEngine)
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertFalse(animator.isRunning)
        XCTAssertEqual(completed, [])
        XCTAssertEqual(view.presentation, view.model)  // the model (end) values
        // Still usable, on the shared engine; the view can animate again.
        try animator.addAnimations { view.center = Point(x: 0, y: 0) }
        animator.addCompletion { completed.append($0) }
        try animator.startAnimation()
        let engine = animator.engine
        XCTAssertTrue(engine === AnimationEngine.shared)
        try engine.clock.advance(by: 0.5)
        XCTAssertEqual(view.presentation.center.x, 50, accuracy: 1e-9)
        try engine.clock.advance(by: 0.6)
        XCTAssertEqual(completed, [.end])
        XCTAssertEqual(view.presentation.center.x, 0)
    }

    /// A paused (or inactive) animator keeps its engine alive, as before; a running one does not.
    func testHeldPausedAnimatorKeepsItsEngine() async throws {
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let animator: PropertyAnimator
        weak var weakEngine: AnimationEngine?
        do {
            let engine = AnimationEngine()
            weakEngine = engine
            animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
                view.center = Point(x: 100, y: 0)
            }
            try animator.startAnimation()
            try engine.clock.advance(by: 0.25)
            try animator.pauseAnimation()
        }
        XCTAssertNotNil(weakEngine)
        XCTAssertTrue(animator.engine === weakEngine)
        XCTAssertEqual(animator.state, .active)
        // Running again, it is the engine's to keep, and nothing else holds the engine: both
        // the engine and the run end when the call returns (not in the middle of it).
        try animator.continueAnimation(withTimingParameters: nil, durationFactor: 0)
        XCTAssertNil(weakEngine)
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertThrowsError(try animator.stopAnimation(false))
    }

    /// The host's last reference to an engine goes away off the main actor while the main
    /// actor is busy: the engine's isolated deinit runs later, on the main actor. Until then
    /// the engine must be gone for everything on the main actor (the clock does not tick it,
    /// its animator does not complete), as a weak reference sees it; an unmanaged reference
    /// handed out the dying engine here, and the runtime aborted when its deinit ran.
    func testEngineReleasedOffTheMainActorIsGoneBeforeItsDeinitRuns() async throws {
        let clock = ManualClock()
        let holder = Holder(AnimationEngine(clock: clock))
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var completed = false
        let animator = try PropertyAnimator(duration: 0.25, curve: .linear, engine: holder.object!) {
            view.alpha = 0
        }
        animator.addCompletion { _ in completed = true }
        try animator.startAnimation()
        try clock.advance(by: 0.1)
        dropOffTheMainActor(holder)  // the deinit cannot run yet
        XCTAssertEqual(clock.attachedEngineCount, 1)
        try clock.advance(by: 1)  // past the run's end
        XCTAssertFalse(completed, "a dying engine must not complete its animators")
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertEqual(clock.attachedEngineCount, 0)
        try await Task.sleep(nanoseconds: 20_000_000)  // the isolated deinit runs
        XCTAssertFalse(completed)
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertEqual(view.presentation, view.model)
        // The animator is usable again, on the shared engine.
        try animator.addAnimations { view.alpha = 1 }
        try animator.startAnimation()
        XCTAssertTrue(animator.engine === AnimationEngine.shared)
        try animator.stopAnimation(true)
    }

    /// A paused animator whose last reference goes away off the main actor: its run is
    /// released later, on the main actor (the animator's deinit does main-actor work only on
    /// the main thread), and the release is reported as UIKit's crash would be.
    func testAnimatorReleasedOffTheMainActorReleasesItsRunOnTheMainActor() async throws {
        var reported: [Diagnostic] = []
        let savedHandler = Diagnostics.handler
        Diagnostics.handler = { reported.append($0) }
        defer { Diagnostics.handler = savedHandler }
        let engine = AnimationEngine()
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let holder = Holder(try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            view.center = Point(x: 105, y: 5)
        })
        try holder.object!.startAnimation()
        try engine.clock.advance(by: 0.5)
        try holder.object!.pauseAnimation()
        dropOffTheMainActor(holder)  // the run's release waits for the main actor
        XCTAssertEqual(engine.activeAnimatorCount, 1)
        XCTAssertEqual(reported, [])
        try await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(engine.activeAnimatorCount, 0)
        XCTAssertEqual(reported, [.illegalCall(.releasedWhilePausedOrStopped)])
        // Its animation stays where it was (as `finishAnimation(at: .current)`).
        XCTAssertEqual(view.presentation.center.x, 55, accuracy: 1e-9)
        XCTAssertEqual(view.model.center.x, 55, accuracy: 1e-9)
        XCTAssertEqual(engine.animatedLaneCount, 0)
    }

    /// Calls on a running animator while its engine's deinit waits for the main actor: the
    /// animator reads as one whose engine went away, its calls do not reach the shared engine,
    /// and once the deinit ran it is a fresh inactive animator on the shared engine.
    func testCallsWhileTheEngineWaitsForItsDeinit() async throws {
        let savedHandler = Diagnostics.handler
        Diagnostics.handler = { _ in }
        defer { Diagnostics.handler = savedHandler }
        let holder = Holder(AnimationEngine())
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: holder.object!) {
            view.alpha = 0
        }
        try animator.startAnimation()
        try holder.object!.clock.advance(by: 0.5)
        let sharedActive = AnimationEngine.shared.activeAnimatorCount
        dropOffTheMainActor(holder)
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertFalse(animator.isRunning)
        XCTAssertEqual(animator.fractionComplete, 0)
        try animator.pauseAnimation()
        try animator.startAnimation()
        XCTAssertEqual(AnimationEngine.shared.activeAnimatorCount, sharedActive)
        try await Task.sleep(nanoseconds: 20_000_000)  // the isolated deinit runs
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertEqual(view.presentation, view.model)
        try animator.addAnimations { view.alpha = 0.5 }
        try animator.startAnimation()
        XCTAssertTrue(animator.engine === AnimationEngine.shared)
        XCTAssertEqual(animator.state, .active)
        try animator.stopAnimation(true)
        XCTAssertEqual(AnimationEngine.shared.activeAnimatorCount, sharedActive)
    }

    /// Code that a call on a running animator runs (its animations block, a dropped
    /// completion's captures) may let go of the last reference to the engine: the engine stays
    /// until the call returns, then goes away and ends the animator if it still runs (the
    /// call used to continue on an engine whose deinitialisation had emptied its arrays, and
    /// trap).
    func testCallThatLetsGoOfTheEngineFinishesFirst() throws {
        final class Owner {
            var engine: AnimationEngine?
            init(_ engine: AnimationEngine) { self.engine = engine }
        }
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        // An animations block added while running drops the engine.
        let owner = Owner(AnimationEngine())
        weak var weakEngine = owner.engine
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: owner.engine!) { view.alpha = 0.5 }
        try animator.startAnimation()
        try owner.engine!.clock.advance(by: 0.25)
        try animator.addAnimations {
            owner.engine = nil
            view.center = Point(x: 30, y: 5)
        }
        XCTAssertNil(weakEngine)
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertEqual(view.presentation, view.model)
        XCTAssertEqual(view.model.center.x, 30)
        // Stopping drops a completion handler that holds the engine's only owner.
        var holder: Owner? = Owner(AnimationEngine())
        weak var weakSecond = holder!.engine
        let second = try PropertyAnimator(duration: 1, curve: .linear, engine: holder!.engine!) { view.alpha = 1 }
        second.addCompletion { [holder] _ in _ = holder }
        holder = nil
        try second.startAnimation()
        try weakSecond!.clock.advance(by: 0.25)
        XCTAssertNotNil(weakSecond, "the completion keeps the engine's owner")
        try second.stopAnimation(true)
        // Inactive now, the animator keeps its engine (the call kept it until then).
        XCTAssertEqual(second.state, .inactive)
        XCTAssertTrue(second.engine === weakSecond)
        XCTAssertEqual(view.presentation, view.model)
        try second.addAnimations { view.alpha = 0.25 }
        try second.startAnimation()
        XCTAssertNil(weakSecond, "running, the animator no longer keeps the engine")
        XCTAssertEqual(second.state, .inactive)
    }

    /// An animator released off the main actor hands what it held to the main actor: its
    /// handlers' captures are let go of there, and when it held the last reference to its
    /// engine, the release of its run is reported before the engine goes.
    func testAnimatorReleasedOffTheMainActorLetsGoOfItsCapturesOnTheMainActor() async throws {
        final class Capture: @unchecked Sendable {
            let onDeinit: @Sendable (Bool) -> Void
            init(_ onDeinit: @escaping @Sendable (Bool) -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit(Thread.isMainThread) }
        }
        final class Flags: @unchecked Sendable {
            var capturedOnMain: Bool?
        }
        var reported: [Diagnostic] = []
        let savedHandler = Diagnostics.handler
        Diagnostics.handler = { reported.append($0) }
        defer { Diagnostics.handler = savedHandler }
        let flags = Flags()
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        weak var weakEngine: AnimationEngine?
        let holder: Holder<PropertyAnimator>
        do {
            let engine = AnimationEngine()  // held by the paused animator alone
            weakEngine = engine
            let capture = Capture { flags.capturedOnMain = $0 }
            let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { view.alpha = 0 }
            animator.addCompletion { _ in _ = capture }
            try animator.startAnimation()
            try engine.clock.advance(by: 0.5)
            try animator.pauseAnimation()
            holder = Holder(animator)
        }
        XCTAssertNotNil(weakEngine)
        dropOffTheMainActor(holder)
        XCTAssertNil(flags.capturedOnMain, "nothing the animator held is let go of off the main actor")
        XCTAssertNotNil(weakEngine)
        try await Task.sleep(nanoseconds: 20_000_000)
        XCTAssertEqual(flags.capturedOnMain, true)
        XCTAssertEqual(reported, [.illegalCall(.releasedWhilePausedOrStopped)])
        XCTAssertNil(weakEngine)
        XCTAssertEqual(view.presentation, view.model)
        XCTAssertEqual(view.model.alpha, 0.5, accuracy: 1e-12)
    }

    // MARK: Transitions (found by LeakSanitizer, make test-sanitize)

    /// A window released while a presentation is showing frees the presenter, the presented
    /// controller and its presentation controller (they hold each other until a dismissal).
    func testWindowReleasedMidPresentationFreesItsControllers() async throws {
        var weak: [WeakBox] = []
        do {
            let engine = AnimationEngine(clock: ManualClock())
            let window = Window(engine: engine)
            let a = ViewController(name: "A"), b = ViewController(name: "B")
            window.rootViewController = a
            b.modalPresentationStyle = .pageSheet
            try a.present(b, animated: false)
            let controller = try XCTUnwrap(b.presentationController)
            weak = [WeakBox(window, "window"), WeakBox(a, "presenter"), WeakBox(b, "presented"),
                    WeakBox(controller, "presentation controller"), WeakBox(engine, "engine")]
        }
        for box in weak { XCTAssertNil(box.object, "\(box.label) outlived its window") }
    }

    /// An interactive transition, once completed, frees its context, its controllers and its
    /// interaction controller (the context used to keep the interaction controller, which keeps
    /// the context).
    func testCompletedInteractiveTransitionFreesItsContext() async throws {
        var weak: [WeakBox] = []
        do {
            let clock = ManualClock()
            let engine = AnimationEngine(clock: clock)
            let window = Window(engine: engine)
            let a = ViewController(name: "A"), b = ViewController(name: "B")
            window.rootViewController = a
            try a.present(b, animated: false)
            let interaction = PercentDrivenInteractiveTransition()
            let delegate = InteractiveDelegate(interaction)
            b.transitioningDelegate = delegate
            try b.dismiss(animated: true)
            let context = try XCTUnwrap(window.transitionInProgress)
            interaction.update(0.4)
            try interaction.finish()
            try clock.advance(to: 2)
            XCTAssertTrue(context.isCompleted)
            weak = [WeakBox(context, "context"), WeakBox(interaction, "interaction controller"),
                    WeakBox(b, "dismissed controller"), WeakBox(window, "window")]
        }
        for box in weak { XCTAssertNil(box.object, "\(box.label) outlived the transition") }
    }

    private final class InteractiveDelegate: ViewControllerTransitioningDelegate {
        let interaction: PercentDrivenInteractiveTransition
        init(_ interaction: PercentDrivenInteractiveTransition) { self.interaction = interaction }
        func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
            CoverVerticalTransition()
        }
        func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
            -> (any ViewControllerInteractiveTransitioning)? { interaction }
    }
}
