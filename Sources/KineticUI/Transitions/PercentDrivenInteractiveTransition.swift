import Kinetic

/// An interaction controller driven by a percentage (`UIPercentDrivenInteractiveTransition`),
/// e.g. from a pan gesture: ``update(_:)`` scrubs the transition's animations, ``finish()``
/// and ``cancel()`` let them run to the end or back to the start.
///
/// With an animator that vends an ``ViewControllerAnimatedTransitioning/interruptibleAnimator(using:)``,
/// that animator is paused, scrubbed (linearly) and continued; otherwise every animator that
/// `animateTransition(using:)` creates (block animations included) is driven by the
/// transition's time, as UIKit scrubs the layer time of its block animations: at
/// ``percentComplete`` p the transition is `p · duration` seconds in, and each animation shows
/// that time of its own, within its delay and duration, along its own curve (an animation
/// with a 0.5 s delay in a 1 s transition waits until p = 0.5). Either way the animations' completion
/// must call `completeTransition(!transitionWasCancelled)`. Animations added through the
/// transition coordinator's `animate(alongsideTransition:completion:)` are driven with them.
///
/// ## Interrupting the finish or the cancel
/// While the animations run to the end (after ``finish()``) or back (after ``cancel()``),
/// ``pause()`` grabs them again where they are: the transition becomes interactive again,
/// `transitionWasCancelled` goes back to false, ``percentComplete`` takes where the animations
/// are (an interruptible animator's `fractionComplete`; for block animations, the transition's
/// time read back from the longest one part-way through its own part of it), and
/// ``update(_:)``, ``finish()`` and ``cancel()`` work as before. The
/// animators are the same objects throughout, so their completion — and
/// `completeTransition(_:)` — happens once, with the last decision.
@MainActor
open class PercentDrivenInteractiveTransition: ViewControllerInteractiveTransitioning {
    /// The transition's duration, seconds (captured at the start).
    public private(set) var duration: Double = 0
    /// The last ``update(_:)`` value (or, after ``pause()``, where the animations are: see the
    /// type's discussion), 0 to 1.
    public private(set) var percentComplete: Double = 0
    /// Speed of the non-interactive completion (> 0): the rest takes
    /// `(1 − percentComplete) · duration / completionSpeed` seconds (or `percentComplete ·
    /// duration / completionSpeed` when cancelled). Non-positive values are ignored.
    public var completionSpeed: Double = 1 {
        didSet { if !(completionSpeed > 0) || !completionSpeed.isFinite { completionSpeed = oldValue } }
    }
    /// The curve of the non-interactive completion of block animations: each covers the rest of
    /// its own part of the transition's time eased by it. (The interactive part maps the
    /// percentage to the transition's time linearly; each animation then shows that time along
    /// its own curve.) An interruptible animator keeps its own timing instead (see
    /// ``timingCurve``).
    public var completionCurve: AnimationCurve = .easeInOut
    /// Timing for continuing an interruptible animator; nil (the default) keeps the
    /// animator's own (its initial velocity included), over the share of `duration` left
    /// (the rest toward the end it heads for) ÷ ``completionSpeed``; a physical spring takes
    /// its own settling time. Ignored for block animations, as in UIKit.
    public var timingCurve: (any TimingCurveProvider)?
    /// Whether the transition starts interactively (paused, waiting for updates).
    public var wantsInteractiveStart = true

    private var context: TransitionContext?
    private var animators: [any ViewImplicitlyAnimating] = []
    /// Each animator's part of the transition's time, seconds (its delay and duration; the
    /// whole transition for an interruptible animator and alongside animations).
    private var windows: [(start: Double, length: Double)] = []
    private var drivesInterruptibleAnimator = false
    /// The transition it drove has completed (and been let go of).
    private var ended = false

    /// Whether the transition is over: completed, or let go of after it completed.
    private var isOver: Bool { ended || context?.isCompleted == true }

    /// Lets go of the transition `context` once it completed, with its animators: the
    /// context holds the animation controller, which often holds this interaction controller
    /// (a transition-manager object is both), and that cycle would keep the whole transition
    /// (controllers, views, animators) alive. ``percentComplete`` keeps its last value.
    func transitionDidEnd(_ context: TransitionContext) {
        guard self.context === context else { return }
        self.context = nil
        animators = []
        windows = []
        ended = true
    }

    /// An interaction controller with the defaults above.
    public init() {}

    /// Starts the transition's animations and, when `wantsInteractiveStart`, pauses them for
    /// updates.
    open func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning) throws {
        guard let context = transitionContext as? TransitionContext, let controller = context.animationController else { return }
        self.context = context
        ended = false
        duration = controller.transitionDuration(using: context)
        percentComplete = 0
        if let animator = controller.interruptibleAnimator(using: context) {
            animators = [animator]
            windows = [(0, duration)]
            drivesInterruptibleAnimator = true
            try controller.animateTransition(using: context)
        } else {
            let engine = context.toController.engine
            engine.front.collector = []
            defer { engine.front.collector = nil }
            try controller.animateTransition(using: context)
            let collected = engine.front.collector ?? []
            animators = collected
            // Layer time: each animation keeps its delay and duration within the transition's
            // time, and its curve applies to its own part of it (UIKit scrubs the layer's time,
            // which the animations' timing functions then map).
            windows = collected.map { ($0.delay, $0.runDuration) }
            for animator in collected where animator.state == .active { animator.scrubsLinearly = false }
            drivesInterruptibleAnimator = false
        }
        if wantsInteractiveStart {
            for animator in animators where animator.state != .stopped { try animator.pauseAnimation() }
            context.pauseInteractiveTransition()
        }
    }

    /// Scrubs the transition to `percentComplete` (clamped to [0, 1]). Ignored, with
    /// ``percentComplete`` and the context's unchanged, while the transition is not
    /// interactive (the animations run: after ``finish()`` or ``cancel()``, or from a
    /// non-interactive start, until a ``pause()`` makes it interactive again) and once it
    /// completed.
    open func update(_ percentComplete: Double) {
        guard percentComplete.isFinite, !isOver, context?.isInteractive != false else { return }
        let p = Swift.min(Swift.max(percentComplete, 0), 1)
        self.percentComplete = p
        context?.updateInteractiveTransition(p)
        let time = p * duration
        for (animator, window) in zip(animators, windows) where animator.state == .active && !animator.isRunning {
            animator.fractionComplete = Self.fraction(at: time, of: window)
        }
    }

    /// The fraction of an animation with `window` (its part of the transition's time) at
    /// `time` seconds into the transition: 0 before it begins, 1 after it ends.
    private static func fraction(at time: Double, of window: (start: Double, length: Double)) -> Double {
        guard window.length > 0 else { return time >= window.start ? 1 : 0 }
        return Swift.min(Swift.max((time - window.start) / window.length, 0), 1)
    }

    /// The transition's time now, read back from the animators (after ``pause()`` grabbed
    /// running ones): from the longest one that is part-way through its window, which places
    /// the time exactly; nil when none is.
    private func transitionTime() -> Double? {
        var best: (length: Double, time: Double)?
        for (animator, window) in zip(animators, windows) where animator.state == .active && window.length > 0 {
            let f = animator.fractionComplete
            guard f > 0 && f < 1, best.map({ window.length > $0.length }) ?? true else { continue }
            best = (window.length, window.start + f * window.length)
        }
        return best?.time
    }

    /// Pauses the animations (the interaction began again) where they are; see the type's
    /// discussion. Does nothing once the transition completed, nor for a transition that
    /// started non-interactively (`wantsInteractiveStart` false) and is not interruptible: it
    /// runs on to its end.
    open func pause() {
        // A transition that started non-interactively and is not interruptible cannot be
        // paused: it runs on to its end (UIKit's rule for `isInteractive`).
        guard let context, !context.isCompleted, context.canBecomeInteractive else { return }
        for animator in animators where animator.isRunning { try? animator.pauseAnimation() }
        if drivesInterruptibleAnimator {
            percentComplete = animators.first { $0.state == .active }?.fractionComplete ?? percentComplete
        } else if let time = transitionTime(), duration > 0 {
            percentComplete = Swift.min(Swift.max(time / duration, 0), 1)
        }
        context.updateInteractiveTransition(percentComplete)
        context.pauseInteractiveTransition()
    }

    /// Lets the transition finish from where it is.
    open func finish() throws {
        guard !isOver else { return }
        context?.finishInteractiveTransition()
        try complete(reversed: false)
    }

    /// Lets the transition run back to its start and cancel.
    open func cancel() throws {
        guard !isOver else { return }
        context?.cancelInteractiveTransition()
        try complete(reversed: true)
    }

    /// Finishes with the gesture's release velocity, as the WWDC 2016 talk hands a pan's
    /// velocity to `continueAnimation(withTimingParameters:durationFactor:)`: an
    /// interruptible animator continues with a spring (``timingCurve``'s when it is a spring,
    /// else critically damped) whose initial velocity is the gesture's, normalised as UIKit's
    /// `initialVelocity` is: `velocity / (1 − percentComplete)`, so the animated values keep
    /// the finger's speed at the release. Block animations continue as ``finish()`` does.
    /// - Parameter velocity: the gesture's speed along the transition, fractions of the
    ///   transition per second, positive toward the end (a pan's velocity ÷ the distance the
    ///   transition spans), finite.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for a non-finite velocity; errors of
    ///   continuing the animators.
    open func finish(velocity: Double) throws {
        guard !isOver else { return }
        let timing = try releaseSpring(velocity: velocity, remaining: 1 - percentComplete)
        context?.finishInteractiveTransition()
        try complete(reversed: false, spring: timing)
    }

    /// Cancels with the gesture's release velocity: as ``finish(velocity:)``, running back to
    /// the start, the spring's initial velocity `−velocity / percentComplete` (a gesture
    /// moving back has a negative `velocity`).
    /// - Parameter velocity: as ``finish(velocity:)`` (positive toward the end).
    /// - Throws: as ``finish(velocity:)``.
    open func cancel(velocity: Double) throws {
        guard !isOver else { return }
        let timing = try releaseSpring(velocity: -velocity, remaining: percentComplete)
        context?.cancelInteractiveTransition()
        try complete(reversed: true, spring: timing)
    }

    /// The spring that continues from a release at `velocity` (fractions per second toward
    /// the end the transition now heads for) with `remaining` of the transition to go.
    private func releaseSpring(velocity: Double, remaining: Double) throws -> SpringTimingParameters {
        do { try ParameterError.requireFinite(velocity, "velocity") } catch { throw AnimatorError.invalidParameter(error) }
        let normalised = remaining > 0 ? velocity / remaining : 0
        let v = Vector(dx: normalised.isFinite ? normalised : 0, dy: normalised.isFinite ? normalised : 0)
        switch (timingCurve as? SpringTimingParameters)?.specification {
        case .physical(let spring)?:
            return try SpringTimingParameters(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
                                              initialVelocity: v)
        case .dampingRatio(let ratio)?:
            return try SpringTimingParameters(dampingRatio: ratio, initialVelocity: v)
        case nil:
            return try SpringTimingParameters(dampingRatio: 1, initialVelocity: v)
        }
    }

    /// Drives `animator` (the coordinator's alongside animations) with the transition's own:
    /// paused at ``percentComplete`` while interactive, else started.
    func adopt(_ animator: PropertyAnimator) {
        animators.append(animator)
        windows.append((0, animator.runDuration))
        // Scrubbed by the transition's time along its curve, as the block animations are.
        if !drivesInterruptibleAnimator { animator.scrubsLinearly = false }
        if context?.isInteractive == true {
            try? animator.pauseAnimation()
            if percentComplete > 0 { animator.fractionComplete = percentComplete }
        } else {
            try? animator.startAnimation()
        }
    }

    private func complete(reversed: Bool, spring: SpringTimingParameters? = nil) throws {
        let remaining = reversed ? percentComplete : 1 - percentComplete
        let seconds = remaining * duration / completionSpeed
        // An interruptible animator keeps its own timing unless `timingCurve` (or a release
        // spring) replaces it, as UIKit's does (nil parameters: the animator's own timing,
        // also after an earlier leg with other timing); `completionCurve` times only the
        // block animations of a non-interruptible transition.
        let timing: (any TimingCurveProvider)? = drivesInterruptibleAnimator
            ? spring ?? timingCurve
            : CubicTimingParameters(animationCurve: completionCurve)
        let now = percentComplete * duration
        for (animator, window) in zip(animators, windows) where animator.state == .active {
            if animator.isRunning { try animator.pauseAnimation() }
            animator.isReversed = reversed
            let own = (animator as? PropertyAnimator)?.duration ?? duration
            if drivesInterruptibleAnimator {
                let factor = own > 0 ? Swift.max(seconds / own, 1e-9) : 0
                try animator.continueAnimation(withTimingParameters: timing, durationFactor: factor)
                continue
            }
            // Block animations: each covers what is left of its own part of the transition's
            // time, when the transition's time (moving at completionSpeed) reaches it.
            let (start, end) = (window.start, window.start + window.length)
            let wait = reversed ? Swift.max(now - end, 0) : Swift.max(start - now, 0)
            let left = reversed ? Swift.min(end, now) - start : end - Swift.max(start, now)
            let factor = own > 0 ? Swift.max(left / completionSpeed / own, 1e-9) : 0
            guard let block = animator as? PropertyAnimator else {
                try animator.continueAnimation(withTimingParameters: timing, durationFactor: factor)
                continue
            }
            try block.continueAnimation(withTimingParameters: timing, durationFactor: factor,
                                        delay: left > 0 ? wait / completionSpeed : 0)
        }
    }
}
