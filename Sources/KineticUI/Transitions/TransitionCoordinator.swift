import Kinetic

/// Runs animations alongside a view-controller transition
/// (`UIViewControllerTransitionCoordinator`). Get it from
/// ``ViewController/transitionCoordinator`` while a transition involving the controller is in
/// progress — typically in `viewWillAppear` / `viewWillDisappear`.
@MainActor
public final class TransitionCoordinator {
    unowned let context: TransitionContext
    private var pending: [@MainActor (any ViewControllerContextTransitioning) -> Void] = []
    private var completions: [@MainActor (any ViewControllerContextTransitioning) -> Void] = []
    private var started = false

    init(context: TransitionContext) {
        self.context = context
    }

    /// Whether the transition animates.
    public var isAnimated: Bool { context.isAnimated }
    /// Whether it is currently driven interactively.
    public var isInteractive: Bool { context.isInteractive }
    /// Whether it was cancelled (interactive transitions only).
    public var isCancelled: Bool { context.transitionWasCancelled }
    /// The transition's duration, seconds (0 when not animated).
    public var transitionDuration: Double { context.animationController?.transitionDuration(using: context) ?? 0 }
    /// The container view.
    public var containerView: View { context.containerView }
    /// The controller on either side.
    public func viewController(forKey key: TransitionContextKey) -> ViewController? { context.viewController(forKey: key) }

    /// Adds animations that run with the transition — in one animator of the transition's
    /// duration (ease in-out) started just after `animateTransition(using:)` returns (at once
    /// when added later) — and a completion called after the transition completes.
    /// - Returns: true (the animations will run).
    @discardableResult
    public func animate(alongsideTransition animation: (@MainActor (any ViewControllerContextTransitioning) -> Void)?,
                        completion: (@MainActor (any ViewControllerContextTransitioning) -> Void)? = nil) -> Bool {
        if let completion { completions.append(completion) }
        guard let animation else { return true }
        pending.append(animation)
        if started { startPending() }
        return true
    }

    /// Called once the animator's `animateTransition` returned.
    func transitionDidStart() {
        started = true
        startPending()
    }

    private func startPending() {
        guard !pending.isEmpty, !context.isCompleted else { return }
        let blocks = pending
        pending = []
        let context = self.context
        let engine = context.toController.engine
        guard let animator = try? PropertyAnimator(duration: context.isAnimated ? transitionDuration : 0, curve: .easeInOut,
                                                   engine: engine) else { return }
        try? animator.addAnimations { for block in blocks { block(context) } }
        try? animator.startAnimation()
    }

    /// Called after `completeTransition`.
    func transitionDidComplete() {
        let handlers = completions
        completions = []
        for handler in handlers { handler(context) }
    }
}

extension ViewController {
    /// The coordinator of the transition in progress that involves this controller, if any.
    public var transitionCoordinator: TransitionCoordinator? {
        guard let context = window?.transitionInProgress else { return nil }
        var node: ViewController? = self
        while let n = node {
            if n === context.fromController || n === context.toController { return context.coordinator }
            node = n.parent
        }
        return nil
    }
}
