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
    }
    static var stack: [Frame] = []

    /// The animator whose block is the innermost animation running, if it is a property
    /// animator's block over its whole run on `engine` (not a block-based animation's), and
    /// the animator is interruptible.
    static func innermost(on engine: AnimationEngine) -> PropertyAnimator? {
        guard let frame = stack.last, frame.blockDepth == BlockAnimationContext.stack.count,
              let animator = frame.animator, !animator.isBlockAnimation, animator.engine === engine,
              animator.isInterruptible else { return nil }
        return animator
    }

    /// Runs `body` as `animator`'s block (with no animator: as a block nothing made in joins).
    static func running(_ animator: PropertyAnimator?, _ body: () -> Void) {
        stack.append(Frame(animator: animator, blockDepth: BlockAnimationContext.stack.count))
        defer { stack.removeLast() }
        body()
    }

    /// Runs `body` as a block nothing made in joins (an animation of its own).
    static func barrier<R>(_ body: () throws -> R) rethrows -> R {
        stack.append(Frame(animator: nil, blockDepth: BlockAnimationContext.stack.count))
        defer { stack.removeLast() }
        return try body()
    }
}
