import Kinetic

/// Options of block-based animations (`UIView.AnimationOptions`), those that matter headless.
public struct AnimationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Animated views take touches (sets the animator's `isUserInteractionEnabled`).
    public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
    /// Start from the values on screen, freezing other animations of the same properties
    /// where they are (instead of adding to them).
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Repeat forever (the completion is never called).
    public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
    /// Run forward, then back (then, without `.repeat`, snap to the end values and complete).
    public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
    /// Inside another animations block: use this call's duration, not the outer one's.
    public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
    /// Inside another animations block: use this call's curve, not the outer one's.
    public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
    /// Ease in and out (the default).
    public static let curveEaseInOut = AnimationOptions([])
    /// Ease in.
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    /// Ease out.
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    /// Linear.
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    /// The curve the options select.
    public var curve: AnimationCurve { AnimationCurve(rawValue: Int((rawValue >> 16) & 3)) ?? .easeInOut }
}

/// Duration and curve of the block-based animation whose block is running, inherited by
/// nested calls.
@MainActor
enum BlockAnimationContext {
    /// One block-based animation whose animations block is running.
    struct Frame {
        let duration: Double
        let curve: AnimationCurve
        /// What `modifyAnimations(withRepeatCount:autoreverses:animations:)` inside the block
        /// needs: the animation's timing, options and engine, and where its repeating
        /// animators go.
        let timing: any TimingCurveProvider
        let options: AnimationOptions
        let engine: AnimationEngine
        let modified: ModifiedAnimations
    }
    // Unchecked, as the capture stack: every access is an instantaneous read, append or
    // removal (the blocks run between them, never inside one).
    @exclusivity(unchecked) static var stack: [Frame] = []
}

/// The repeating animators that `modifyAnimations` made inside one block-based animation.
@MainActor
final class ModifiedAnimations {
    var animators: [PropertyAnimator] = []
}

/// Calls a block-based animation's completion once all its animators have completed (the
/// animation's own and those `modifyAnimations` made), with whether all ended at their end.
@MainActor
final class CompletionBarrier {
    private let completion: @MainActor (ViewAnimatingPosition) -> Void
    private var expected = 0
    private var arrived = 0
    private var allAtEnd = true

    init(_ completion: @escaping @MainActor (ViewAnimatingPosition) -> Void) {
        self.completion = completion
    }

    /// Registers `animator` as one the completion waits for.
    func wait(for animator: PropertyAnimator) {
        expected += 1
        animator.addCompletion { [self] position in
            arrived += 1
            if position != .end { allAtEnd = false }
            if arrived == expected { completion(allAtEnd ? .end : position) }
        }
    }
}

extension View {
    /// Animates the property changes `animations` makes (`UIView.animate`).
    ///
    /// Inside another block-based animations block, the outer duration and curve are used
    /// unless `.overrideInheritedDuration` / `.overrideInheritedCurve` is set. Inside an
    /// interruptible ``PropertyAnimator``'s animations block (one over its whole run), with no
    /// delay and none of those options nor `.repeat`, `.autoreverse` or
    /// `.beginFromCurrentState`, the changes are that animator's: it runs, pauses, scrubs and
    /// reverses them, the completion runs with its (`true` at its end), and
    /// `.allowUserInteraction` is the animator's own setting. A block that changes no animatable property completes at the next
    /// tick, with `true`.
    /// - Parameters:
    ///   - duration: seconds, finite and ≥ 0.
    ///   - delay: seconds before it starts, finite and ≥ 0.
    ///   - options: curve, repetition and the other options.
    ///   - engine: the engine that runs it.
    ///   - animations: sets the new property values.
    ///   - completion: called with `true` when the animation ran to its end, `false` when it
    ///     was stopped.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for a bad duration or delay.
    public static func animate(withDuration duration: Double, delay: Double = 0, options: AnimationOptions = [],
                               engine: AnimationEngine = .shared, animations: @escaping @MainActor () -> Void,
                               completion: (@MainActor (Bool) -> Void)? = nil) throws {
        if let outer = AnimatorBlockContext.joined(on: engine, delay: delay, options: options.rawValue) {
            // Inside an interruptible property animator's block: its changes are the
            // animator's (they go to the block's capture), tracked by it as UIKit tracks them.
            do { try ParameterError.requireNonNegative(duration, "duration") } catch { throw AnimatorError.invalidParameter(error) }
            animations()
            if let handler = positionHandler(completion) { outer.addCompletion(handler) }
            return
        }
        _ = try PropertyAnimator.makeBlockAnimator(
            duration: duration, delay: delay, options: options, timing: nil, engine: engine,
            animations: animations, completion: Self.positionHandler(completion))
    }

    /// Animates with a spring (`UIView.animate(withDuration:delay:usingSpringWithDamping:…)`):
    /// a damping-ratio spring that settles at `duration`.
    /// - Parameters:
    ///   - duration: seconds, finite and ≥ 0.
    ///   - delay: seconds before it starts, finite and ≥ 0.
    ///   - dampingRatio: > 0 (1: no oscillation).
    ///   - velocity: initial velocity, in units of the move's distance per second.
    ///   - options: repetition and the other options (the curve is the spring).
    ///   - engine: the engine that runs it.
    ///   - animations: sets the new property values.
    ///   - completion: called with `true` when the animation ran to its end, `false` when it
    ///     was stopped.
    public static func animate(withDuration duration: Double, delay: Double = 0, usingSpringWithDamping dampingRatio: Double,
                               initialSpringVelocity velocity: Double, options: AnimationOptions = [],
                               engine: AnimationEngine = .shared, animations: @escaping @MainActor () -> Void,
                               completion: (@MainActor (Bool) -> Void)? = nil) throws {
        let spring = try SpringTimingParameters(dampingRatio: dampingRatio, initialVelocity: Vector(dx: velocity, dy: velocity))
        _ = try PropertyAnimator.makeBlockAnimator(
            duration: duration, delay: delay, options: options.union(.overrideInheritedCurve), timing: spring,
            engine: engine, animations: animations, completion: Self.positionHandler(completion))
    }

    /// Animates with a spring given by its perceptual duration and bounce (iOS 17's
    /// `UIView.animate(springDuration:bounce:initialSpringVelocity:delay:options:animations:completion:)`).
    /// The spring is physical: the animation lasts until it settles (within 0.001 of the
    /// move), which for a bounce of 0 is about 1.6 × `duration`.
    /// - Parameters:
    ///   - duration: the spring's perceptual duration, seconds, > 0 (UIKit's default 0.5).
    ///   - bounce: in (−1, 1): 0 no bounce (critically damped), towards 1 bouncier, negative
    ///     overdamped (UIKit's default 0).
    ///   - velocity: initial velocity, in units of the move's distance per second, both
    ///     components.
    ///   - delay: seconds before it starts, finite and ≥ 0.
    ///   - options: repetition and the other options (the curve is the spring).
    ///   - engine: the engine that runs it.
    ///   - animations: sets the new property values.
    ///   - completion: called with `true` when the animation ran to its end, `false` when it
    ///     was stopped.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` naming a bad duration, bounce,
    ///   velocity or delay.
    public static func animate(springDuration duration: Double = 0.5, bounce: Double = 0, initialSpringVelocity velocity: Double = 0,
                               delay: Double = 0, options: AnimationOptions = [], engine: AnimationEngine = .shared,
                               animations: @escaping @MainActor () -> Void,
                               completion: (@MainActor (Bool) -> Void)? = nil) throws {
        let spring = try SpringTimingParameters(duration: duration, bounce: bounce, initialVelocity: Vector(dx: velocity, dy: velocity))
        _ = try PropertyAnimator.makeBlockAnimator(
            duration: duration, delay: delay, options: options.union([.overrideInheritedCurve, .overrideInheritedDuration]),
            timing: spring, engine: engine, animations: animations, completion: Self.positionHandler(completion))
    }
}

extension View {
    /// Adapts a `(Bool) -> Void` completion to the animator's position-based one.
    static func positionHandler(_ completion: (@MainActor (Bool) -> Void)?) -> (@MainActor (ViewAnimatingPosition) -> Void)? {
        guard let completion else { return nil }
        return { position in completion(position == .end) }
    }
}

extension PropertyAnimator {
    /// Creates, configures and starts an animator (`runningPropertyAnimator`): the curve
    /// comes from `options` (ease-in-out by default); the animator is returned running (or
    /// waiting for its delay).
    ///
    /// Called inside another block-based animations block, it inherits that animation's
    /// duration and curve unless `.overrideInheritedDuration` / `.overrideInheritedCurve`
    /// is set, and it is not interruptible (UIKit's header).
    ///
    /// The options that concern the animation's direction, `.repeat` and `.autoreverse`, are
    /// ignored, as UIKit documents for this call: the animator runs once, forward, and
    /// completes at `.end`.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for a bad duration or delay.
    public static func runningPropertyAnimator(withDuration duration: Double, delay: Double, options: AnimationOptions,
                                               engine: AnimationEngine = .shared,
                                               animations: @escaping @MainActor () -> Void,
                                               completion: (@MainActor (ViewAnimatingPosition) -> Void)? = nil) throws
        -> PropertyAnimator {
        try makeBlockAnimator(duration: duration, delay: delay, options: options.subtracting([.repeat, .autoreverse]),
                              timing: nil, engine: engine, animations: animations, completion: completion)
    }

    static func makeBlockAnimator(duration: Double, delay: Double, options: AnimationOptions,
                                  timing: (any TimingCurveProvider)?, engine: AnimationEngine,
                                  animations: @escaping @MainActor () -> Void,
                                  completion: (@MainActor (ViewAnimatingPosition) -> Void)?) throws -> PropertyAnimator {
        let (duration, delay, curve, inheritedTiming) = AnimatorBlockContext.resolvedTiming(
            duration: duration, delay: delay, curve: options.curve, options: options.rawValue)
        let animator = try PropertyAnimator(duration: duration,
                                            timingParameters: timing ?? inheritedTiming ?? CubicTimingParameters(animationCurve: curve),
                                            engine: engine)
        animator.isBlockAnimation = true
        try animator.configureBlockAnimation(repeats: options.contains(.repeat), autoreverses: options.contains(.autoreverse),
                                             fromCurrentState: options.contains(.beginFromCurrentState),
                                             userInteraction: options.contains(.allowUserInteraction))
        if !BlockAnimationContext.stack.isEmpty { try animator.setInterruptible(false) }
        let modified = ModifiedAnimations()
        BlockAnimationContext.stack.append(.init(duration: duration, curve: curve, timing: animator.timingParameters,
                                                 options: options, engine: engine, modified: modified))
        defer { BlockAnimationContext.stack.removeLast() }
        try animator.addAnimations(animations)
        let barrier = completion.map(CompletionBarrier.init)
        barrier?.wait(for: animator)
        try animator.startAnimation(afterDelay: delay)
        // The block ran (at the start): the animations it modified run beside, from the same time.
        for repeating in modified.animators {
            barrier?.wait(for: repeating)
            try repeating.startAnimation(afterDelay: delay)
        }
        animator.completeAtNextTickIfEmpty()
        return animator
    }

    /// The options block-based animations share (set before the animator starts).
    func configureBlockAnimation(repeats: Bool, autoreverses: Bool, fromCurrentState: Bool, userInteraction: Bool) throws {
        liveFront.core.configure(runHandle, repeats: repeats, autoreverses: autoreverses, beginsFromCurrentState: fromCurrentState)
        try setUserInteractionEnabled(userInteraction)
    }

    /// A block animation that changed nothing completes at the next tick (UIKit calls the
    /// completion at once).
    func completeAtNextTickIfEmpty() {
        report { try withRun { core, run in core.completeAtNextTickIfEmpty(run) } }
    }
}
