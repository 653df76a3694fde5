import Kinetic

/// An interaction controller driven by a percentage (`UIPercentDrivenInteractiveTransition`),
/// e.g. from a pan gesture: ``update(_:)`` scrubs the transition's animations, ``finish()``
/// and ``cancel()`` let them run to the end or back to the start.
///
/// With an animator that vends an ``ViewControllerAnimatedTransitioning/interruptibleAnimator(using:)``,
/// that animator is paused, scrubbed (linearly) and continued; otherwise every animator that
/// `animateTransition(using:)` creates (block animations included) is driven together, as
/// UIKit scrubs the layer time of its block animations. Either way the animations' completion
/// must call `completeTransition(!transitionWasCancelled)`.
@MainActor
open class PercentDrivenInteractiveTransition: ViewControllerInteractiveTransitioning {
    /// The transition's duration, seconds (captured at the start).
    public private(set) var duration: Double = 0
    /// The last ``update(_:)`` value, 0 to 1.
    public private(set) var percentComplete: Double = 0
    /// Speed of the non-interactive completion (> 0): the rest takes
    /// `(1 − percentComplete) · duration / completionSpeed` seconds (or `percentComplete ·
    /// duration / completionSpeed` when cancelled). Non-positive values are ignored.
    public var completionSpeed: Double = 1 {
        didSet { if !(completionSpeed > 0) || !completionSpeed.isFinite { completionSpeed = oldValue } }
    }
    /// The curve of the non-interactive completion (the interactive part is linear).
    public var completionCurve: AnimationCurve = .easeInOut
    /// Timing for continuing an interruptible animator (overrides `completionCurve`).
    public var timingCurve: (any TimingCurveProvider)?
    /// Whether the transition starts interactively (paused, waiting for updates).
    public var wantsInteractiveStart = true

    private var context: TransitionContext?
    private var animators: [any ViewImplicitlyAnimating] = []

    /// An interaction controller with the defaults above.
    public init() {}

    /// Starts the transition's animations and, when `wantsInteractiveStart`, pauses them for
    /// updates.
    open func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning) throws {
        guard let context = transitionContext as? TransitionContext, let controller = context.animationController else { return }
        self.context = context
        duration = controller.transitionDuration(using: context)
        percentComplete = 0
        if let animator = controller.interruptibleAnimator(using: context) {
            animators = [animator]
            try controller.animateTransition(using: context)
        } else {
            let engine = context.toController.engine
            engine.collector = []
            defer { engine.collector = nil }
            try controller.animateTransition(using: context)
            animators = engine.collector ?? []
        }
        if wantsInteractiveStart {
            for animator in animators where animator.state != .stopped { try animator.pauseAnimation() }
            context.pauseInteractiveTransition()
        }
    }

    /// Scrubs the transition to `percentComplete` (clamped to [0, 1]).
    open func update(_ percentComplete: Double) {
        guard percentComplete.isFinite else { return }
        let p = Swift.min(Swift.max(percentComplete, 0), 1)
        self.percentComplete = p
        context?.updateInteractiveTransition(p)
        for animator in animators where animator.state == .active && !animator.isRunning {
            animator.fractionComplete = p
        }
    }

    /// Pauses the animations (the interaction began again) at their current place.
    open func pause() {
        for animator in animators where animator.isRunning { try? animator.pauseAnimation() }
        if let context {
            percentComplete = animators.first?.fractionComplete ?? percentComplete
            context.pauseInteractiveTransition()
        }
    }

    /// Lets the transition finish from where it is.
    open func finish() throws {
        context?.finishInteractiveTransition()
        try complete(reversed: false)
    }

    /// Lets the transition run back to its start and cancel.
    open func cancel() throws {
        context?.cancelInteractiveTransition()
        try complete(reversed: true)
    }

    private func complete(reversed: Bool) throws {
        let remaining = reversed ? percentComplete : 1 - percentComplete
        let seconds = remaining * duration / completionSpeed
        for animator in animators where animator.state == .active {
            if animator.isRunning { try animator.pauseAnimation() }
            animator.isReversed = reversed
            let own = (animator as? PropertyAnimator)?.duration ?? duration
            let factor = own > 0 ? Swift.max(seconds / own, 1e-9) : 0
            let timing: any TimingCurveProvider = timingCurve ?? CubicTimingParameters(animationCurve: completionCurve)
            try animator.continueAnimation(withTimingParameters: timing, durationFactor: factor)
        }
    }
}
