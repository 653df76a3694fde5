import Kinetic

/// UIKit's cross-dissolve modal transition (`modalTransitionStyle = .crossDissolve`): the
/// presented view fades in at its final frame, and fades out when dismissed, over the
/// presenting view (0.35 s, ease in-out; linear when the transition starts interactively, so
/// that the views follow the gesture, as UIKit's interactive pop does). Its alpha is back at
/// its value before the transition once the transition ends.
@MainActor
public final class CrossDissolveTransition: ViewControllerAnimatedTransitioning {
    /// Seconds.
    public let duration: Double

    /// The cross-dissolve, `duration` seconds long.
    public init(duration: Double = 0.35) {
        self.duration = duration
    }

    public func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double {
        duration
    }

    public func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        let container = context.containerView
        guard let from = context.viewController(forKey: .from), let to = context.viewController(forKey: .to) else { return }
        let presenting = (context as? TransitionContext)?.isPresentation ?? (to.presentingViewController === from)
        let fading: View
        let alpha: Double
        if presenting {
            guard let toView = context.view(forKey: .to) else { return try context.completeTransition(true) }
            toView.frame = context.finalFrame(for: to)
            alpha = toView.alpha
            View.performWithoutAnimation { toView.alpha = 0 }
            container.addSubview(toView)
            fading = toView
        } else {
            let fromView = context.view(forKey: .from) ?? from.view
            if let toView = context.view(forKey: .to) {
                toView.frame = context.finalFrame(for: to)
                container.insertSubview(toView, belowSubview: fromView)
            }
            alpha = fromView.alpha
            fading = fromView
        }
        let animator = try PropertyAnimator(duration: duration, curve: .standardTransition(context), engine: to.engine) {
            fading.alpha = presenting ? alpha : 0
        }
        animator.addCompletion { _ in
            if !presenting || context.transitionWasCancelled { View.performWithoutAnimation { fading.alpha = alpha } }
            try? context.completeTransition(!context.transitionWasCancelled)
        }
        try animator.startAnimation()
    }
}
