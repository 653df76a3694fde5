import Kinetic

/// UIKit's standard modal transition: the presented view slides up from the bottom edge,
/// and slides back down when dismissed (0.35 s, ease in-out; linear when the transition
/// starts interactively, so that the views follow the gesture, as UIKit's interactive pop does).
@MainActor
public final class CoverVerticalTransition: ViewControllerAnimatedTransitioning {
    /// Seconds.
    public let duration: Double

    /// The standard transition, `duration` seconds long.
    public init(duration: Double = 0.35) {
        self.duration = duration
    }

    public func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double {
        duration
    }

    public func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        let container = context.containerView
        let height = container.bounds.size.height
        guard let from = context.viewController(forKey: .from), let to = context.viewController(forKey: .to) else { return }
        let engine = to.engine
        let presenting = (context as? TransitionContext)?.isPresentation ?? (to.presentingViewController === from)
        if presenting {
            // Presenting: start below the bottom edge, end at the final frame.
            guard let toView = context.view(forKey: .to) else { return try context.completeTransition(true) }
            let final = context.finalFrame(for: to)
            toView.frame = Rect(x: final.origin.x, y: final.origin.y + height, width: final.size.width, height: final.size.height)
            container.addSubview(toView)
            let animator = try PropertyAnimator(duration: duration, curve: .standardTransition(context), engine: engine) { toView.frame = final }
            animator.addCompletion { _ in try? context.completeTransition(!context.transitionWasCancelled) }
            try animator.startAnimation()
        } else {
            // Dismissing: the presenter's view (when it was removed) goes back underneath,
            // the presented view slides down by the container's height.
            let fromView = context.view(forKey: .from) ?? from.view
            if let toView = context.view(forKey: .to) {
                toView.frame = context.finalFrame(for: to)
                container.insertSubview(toView, belowSubview: fromView)
            }
            let start = fromView.frame
            let animator = try PropertyAnimator(duration: duration, curve: .standardTransition(context), engine: engine) {
                fromView.frame = Rect(x: start.origin.x, y: start.origin.y + height, width: start.size.width, height: start.size.height)
            }
            animator.addCompletion { _ in try? context.completeTransition(!context.transitionWasCancelled) }
            try animator.startAnimation()
        }
    }
}
