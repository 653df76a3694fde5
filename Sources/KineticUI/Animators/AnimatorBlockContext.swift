/// The property animators whose animations blocks are running, innermost last: what a
/// keyframe animation made inside one joins (UIKit tracks the animations made inside an
/// interruptible property animator's block with that animator, so that pausing, scrubbing and
/// reversing it moves them too).
@MainActor
enum AnimatorBlockContext {
    /// One property animator's block: run at its activation over the whole run (`animator`),
    /// or any other animator's block (nil: a barrier, so that nothing made in it joins an
    /// animator whose block runs further out).
    struct Frame {
        let animator: PropertyAnimator?
        /// `BlockAnimationContext.stack.count` when the block started: a block-based animation
        /// begun inside it since is the innermost animation instead.
        let blockDepth: Int
        /// What a block-based or keyframe animation made in the block inherits from the
        /// property animator (nil for a block-based animation's own block, whose
        /// `BlockAnimationContext` entry gives it).
        let inheritance: Inheritance?
    }

    /// The in-flight timing that a nested block-based or keyframe animation takes unless its
    /// options override it (UIKit: "the animation inherits the remaining duration of the
    /// in-flight animation, if any", and "the curve of the in-flight animation").
    struct Inheritance {
        /// Seconds: the time left for the block's animations (after its delay).
        let duration: Double
        /// The property animator (its timing is read only when a nested animation takes it).
        unowned let animator: PropertyAnimator
        /// Seconds the block's own animations wait (its delay factor's share of the run),
        /// added to the nested animation's delay.
        let delay: Double

        /// The property animator's timing.
        @MainActor var timing: any TimingCurveProvider { animator.timingParameters }
    }

    /// The duration, delay and timing of a block-based or keyframe animation made now, with
    /// its own `duration`, `delay` and curve and the options' bits `options`: in a property
    /// animator's block, the time left for that block and the animator's timing, and the
    /// block's delay added; in a block-based animation's block, its duration and timing (the
    /// curve it took, inherited or its own, a spring included); each unless the options
    /// override it (`overrideInheritedDuration`, `overrideInheritedCurve`). `timing` is nil
    /// where the animation's own curve applies (`curve` is the one it names).
    static func resolvedTiming(duration: Double, delay: Double, curve: AnimationCurve, options: UInt)
        -> (duration: Double, delay: Double, curve: AnimationCurve, timing: (any TimingCurveProvider)?) {
        let keepsDuration = AnimationOptions(rawValue: options).contains(.overrideInheritedDuration)
        let keepsCurve = AnimationOptions(rawValue: options).contains(.overrideInheritedCurve)
        if let outer = inherited() {
            return (keepsDuration ? duration : outer.duration, delay + outer.delay, curve, keepsCurve ? nil : outer.timing)
        }
        if let outer = BlockAnimationContext.stack.last {
            return (keepsDuration ? duration : outer.duration, delay, keepsCurve ? curve : outer.curve,
                    keepsCurve ? nil : outer.timing)
        }
        return (duration, delay, curve, nil)
    }

    /// The timing that a block-based or keyframe animation made now inherits from the property
    /// animator whose block is the innermost animation running, if any (then no
    /// `BlockAnimationContext` entry is further in).
    static func inherited() -> Inheritance? {
        guard let frame = stack.last, frame.blockDepth == BlockAnimationContext.stack.count else { return nil }
        return frame.inheritance
    }
    // Unchecked, as the capture stack: every access is an instantaneous read, append or
    // removal (the blocks run between them, never inside one).
    @exclusivity(unchecked) static var stack: [Frame] = []

    /// The options that make a nested block-based or keyframe animation one of its own (they
    /// name the same bits in ``AnimationOptions`` and ``KeyframeAnimationOptions``).
    private static let ownAnimation: AnimationOptions = [.overrideInheritedDuration, .overrideInheritedCurve, .repeat,
                                                         .autoreverse, .beginFromCurrentState]

    /// The animator that a block-based or keyframe animation made now on `engine`, with
    /// `delay` and the options' bits `options`, joins: the one whose block is the innermost
    /// animation running, if that is a property animator's block over its whole run (not a
    /// block-based animation's), the animator is interruptible, and the call has no delay and
    /// none of the options of an animation of its own.
    static func joined(on engine: AnimationEngine, delay: Double, options: UInt) -> PropertyAnimator? {
        guard delay == 0, AnimationOptions(rawValue: options).isDisjoint(with: ownAnimation),
              let frame = stack.last, frame.blockDepth == BlockAnimationContext.stack.count,
              let animator = frame.animator, !animator.isBlockAnimation, animator.boundFront === engine.front,
              animator.isInterruptible else { return nil }
        return animator
    }

    /// Runs `body` as `animator`'s block (with no animator: as a block nothing made in joins,
    /// such as an animation of its own).
    /// - Parameter inheritance: what a block-based or keyframe animation made in `body`
    ///   inherits (see ``inherited()``).
    static func running<R>(_ animator: PropertyAnimator?, inheritance: Inheritance? = nil,
                           _ body: () throws -> R) rethrows -> R {
        stack.append(Frame(animator: animator, blockDepth: BlockAnimationContext.stack.count, inheritance: inheritance))
        defer { stack.removeLast() }
        return try body()
    }
}
