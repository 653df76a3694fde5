import Kinetic

/// Runs animations alongside a view-controller transition
/// (`UIViewControllerTransitionCoordinator`). Get it from
/// ``ViewController/transitionCoordinator`` while a transition involving the controller is in
/// progress — typically in `viewWillAppear` / `viewWillDisappear`.
@MainActor
public final class TransitionCoordinator {
    /// The transition's context, kept alive by the coordinator (as UIKit's coordinator may be
    /// kept past its transition, and then reports how it ended). The context holds the
    /// coordinator's registrations (``CoordinatorRegistrations``) and the coordinator only
    /// weakly, so there is no cycle.
    let context: TransitionContext
    /// What this transition's coordinators registered (kept by the context).
    private var registrations: CoordinatorRegistrations { context.registrations }

    init(context: TransitionContext) {
        self.context = context
    }

    /// Whether the transition animates.
    public var isAnimated: Bool { context.isAnimated }
    /// Whether it is currently driven interactively.
    public var isInteractive: Bool { context.isInteractive }
    /// Whether it started interactively (never changes).
    public var initiallyInteractive: Bool { context.initiallyInteractive }
    /// Whether its animator is interruptible (the animation controller vends an
    /// ``ViewControllerAnimatedTransitioning/interruptibleAnimator(using:)``).
    public var isInterruptible: Bool { context.animationController?.interruptibleAnimator(using: context) != nil }
    /// Whether it was cancelled (interactive transitions only).
    public var isCancelled: Bool { context.transitionWasCancelled }
    /// The last interactive progress, 0 to 1.
    public var percentComplete: Double { context.percentComplete }
    /// How fast the non-interactive completion runs relative to the transition's own speed:
    /// the interaction controller's ``ViewControllerInteractiveTransitioning/completionSpeed``
    /// (a percent-driven one's is settable), and 1 for a transition that is not interactive.
    /// A value that is not positive and finite reads as 1.
    public var completionVelocity: Double {
        guard let speed = context.interactionController?.completionSpeed, speed > 0, speed.isFinite else { return 1 }
        return speed
    }
    /// The curve of the non-interactive completion: the interaction controller's
    /// ``ViewControllerInteractiveTransitioning/completionCurve``, and `.easeInOut` for a
    /// transition that is not interactive.
    public var completionCurve: AnimationCurve { context.interactionController?.completionCurve ?? .easeInOut }
    /// The transition's interaction controller when it is percent-driven.
    private var percentDriven: PercentDrivenInteractiveTransition? {
        context.interactionController as? PercentDrivenInteractiveTransition
    }
    /// The transition's duration, seconds: the animation controller's (0 without one; a
    /// `.custom` transition that does not animate still has its animator's).
    public var transitionDuration: Double {
        context.startDuration ?? context.animationController?.transitionDuration(using: context) ?? 0
    }
    /// The container view.
    public var containerView: View { context.containerView }
    /// The controller on either side.
    public func viewController(forKey key: TransitionContextKey) -> ViewController? { context.viewController(forKey: key) }

    /// Adds animations that run with the transition, and a completion called after the
    /// transition completes.
    ///
    /// The animations start just after `animateTransition(using:)` (or
    /// `startInteractiveTransition(_:)`) returns, or at once when added later:
    /// - when the animation controller vends an interruptible animator, they are added to
    ///   that animator (so they share its timing, its scrubbing, and its finish or cancel);
    /// - otherwise they run in one animator of the transition's duration (ease in-out); in a
    ///   transition driven by a ``PercentDrivenInteractiveTransition``, that animator is driven
    ///   with the transition's own animations: paused at the current `percentComplete`,
    ///   scrubbed by `update(_:)`, continued or reversed by `finish()` / `cancel()`;
    /// - in a transition that does not animate, they run at once, without animation (if its
    ///   animator completes it within its own call, as a `.custom` one may, at that
    ///   completion, before the completions).
    /// - Returns: true (the animations will run).
    @discardableResult
    public func animate(alongsideTransition animation: (@MainActor (any ViewControllerContextTransitioning) -> Void)?,
                        completion: (@MainActor (any ViewControllerContextTransitioning) -> Void)? = nil) -> Bool {
        if let completion { registrations.completions.append(completion) }
        guard let animation else { return true }
        registrations.pending.append(animation)
        if registrations.started { startPending() }
        return true
    }

    /// Adds animations of views outside the transition's container, that run with the
    /// transition (`animateAlongsideTransition(in:animation:completion:)`): the same as
    /// ``animate(alongsideTransition:completion:)`` (a headless tree animates any view the
    /// same way) once `view` is in a window.
    /// - Parameters:
    ///   - view: the view whose subtree the animations change (nil: any).
    ///   - animation: the changes, as for ``animate(alongsideTransition:completion:)``.
    ///   - completion: called after the transition completes.
    /// - Returns: false, and nothing is queued, when `view` is in no window; else true.
    @discardableResult
    public func animateAlongsideTransition(in view: View?,
                                           animation: (@MainActor (any ViewControllerContextTransitioning) -> Void)?,
                                           completion: (@MainActor (any ViewControllerContextTransitioning) -> Void)? = nil)
        -> Bool {
        if let view, view.window == nil { return false }
        return animate(alongsideTransition: animation, completion: completion)
    }

    /// Registers `handler` to be called each time the transition changes between interactive
    /// and non-interactive (`finish()` / `cancel()` end the interaction, `pause()` starts it
    /// again; an interruptible transition may change several times). For a cancellation it
    /// runs before the appearance callbacks that turn the controllers round (those come
    /// when `completeTransition(false)` arrives).
    public func notifyWhenInteractionChanges(_ handler: @escaping @MainActor (any ViewControllerContextTransitioning) -> Void) {
        registrations.interactionHandlers.append(handler)
    }

    /// Called once the animator's `animateTransition` returned (or, for a transition that
    /// does not animate, before it completes).
    func transitionDidStart() {
        registrations.started = true
        startPending()
    }

    /// Called by the context when `isInteractive` changes after the start.
    func interactionDidChange() {
        for handler in registrations.interactionHandlers { handler(context) }
    }

    private func startPending() {
        guard !registrations.pending.isEmpty, !context.isCompleted else { return }
        let blocks = registrations.pending
        registrations.pending = []
        let context = self.context
        let run: @MainActor () -> Void = { for block in blocks { block(context) } }
        guard context.isAnimated else { return run() }
        if let shared = context.animationController?.interruptibleAnimator(using: context), shared.state != .stopped {
            try? shared.addAnimations(run)
            return
        }
        let engine = context.toController.engine
        // The standard transitions' curve: linear while a gesture drives it, so that the
        // alongside animations stay with the transition's own.
        guard let animator = try? PropertyAnimator(duration: transitionDuration, curve: .standardTransition(context),
                                                   engine: engine) else { return }
        try? animator.addAnimations(run)
        if let percentDriven {
            percentDriven.adopt(animator)
        } else {
            try? animator.startAnimation()
        }
    }

    /// Called after `completeTransition`. Alongside animations that never started (the
    /// transition completed inside its animator's call, as a `.custom` transition that does
    /// not animate may) are applied now, without animation, unless it was cancelled.
    func transitionDidComplete() {
        if !registrations.pending.isEmpty {
            let blocks = registrations.pending
            registrations.pending = []
            if !context.transitionWasCancelled { for block in blocks { block(context) } }
        }
        let handlers = registrations.completions
        registrations.completions = []
        registrations.interactionHandlers = []
        for handler in handlers { handler(context) }
    }
}

/// What a transition's coordinators registered (alongside animations, completions, interaction
/// handlers), held by the transition's context so that they outlive any one coordinator object.
@MainActor
final class CoordinatorRegistrations {
    var pending: [@MainActor (any ViewControllerContextTransitioning) -> Void] = []
    var completions: [@MainActor (any ViewControllerContextTransitioning) -> Void] = []
    var interactionHandlers: [@MainActor (any ViewControllerContextTransitioning) -> Void] = []
    var started = false
}

extension ViewController {
    /// The coordinator of the transition in progress that involves this controller, if any:
    /// one from or to this controller or one of its ancestors, or one that this controller
    /// runs in its own view (a navigation controller's push or pop, as UIKit's
    /// `navigationController.transitionCoordinator` is the push's).
    public var transitionCoordinator: TransitionCoordinator? {
        guard let context = window?.transitionInProgress else { return nil }
        var node: ViewController? = self
        while let n = node {
            if n === context.fromController || n === context.toController { return context.coordinator }
            if n.isViewLoaded, context.containerView === n.view { return context.coordinator }
            node = n.parent
        }
        return nil
    }
}
