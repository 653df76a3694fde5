import Kinetic

extension View {
    /// Repeats the animations `animations` makes a given number of times, optionally forward
    /// and back (`UIView.modifyAnimations(withRepeatCount:autoreverses:animations:)`).
    ///
    /// Call it inside the animations block of a block-based animation
    /// (``animate(withDuration:delay:options:engine:animations:completion:)`` and its
    /// variants): its animations then run in their own repeating animator, with the
    /// enclosing animation's duration, timing, delay and options, from the same moment. A
    /// cycle is one pass, or with `autoreverses` a pass forward and back; when the count runs
    /// out (fractions stop part-way through a cycle) the views show their new values at once,
    /// as in UIKit. The enclosing animation's completion waits for these animations too.
    /// - Parameters:
    ///   - count: the number of cycles, finite; 0 or less runs them once.
    ///   - autoreverses: whether each cycle runs forward and back.
    ///   - animations: the changes to repeat.
    /// - Throws: ``AnimatorError/modifyAnimationsOutsideAnimationBlock`` outside a block-based
    ///   animation's block; ``AnimatorError/invalidParameter(_:)`` for a count that is not finite.
    public static func modifyAnimations(withRepeatCount count: Double, autoreverses: Bool,
                                        animations: @escaping @MainActor () -> Void) throws {
        guard let outer = BlockAnimationContext.stack.last else { throw AnimatorError.modifyAnimationsOutsideAnimationBlock }
        do { try ParameterError.requireFinite(count, "count") } catch { throw AnimatorError.invalidParameter(error) }
        let animator = try PropertyAnimator(duration: outer.duration, timingParameters: outer.timing, engine: outer.engine)
        try animator.configureBlockAnimation(repeats: true, autoreverses: autoreverses,
                                             fromCurrentState: outer.options.contains(.beginFromCurrentState),
                                             userInteraction: outer.options.contains(.allowUserInteraction))
        try animator.setInterruptible(false)
        animator.liveFront.core.setRepeatCount(count, of: animator.runHandle)
        try animator.addAnimations(animations)
        outer.modified.animators.append(animator)
    }
}
