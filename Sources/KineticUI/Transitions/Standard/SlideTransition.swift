import Kinetic

/// UIKit's standard navigation transition: on push the new view slides in from the right
/// edge while the old one moves a third of the width left; pop reverses it (0.35 s, ease
/// in-out).
@MainActor
public final class SlideTransition: ViewControllerAnimatedTransitioning {
    /// Seconds.
    public let duration: Double
    /// The standard slide, `duration` seconds long.
    public init(duration: Double = 0.35) { self.duration = duration }

    public func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { duration }

    public func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        guard let from = context.viewController(forKey: .from), let to = context.viewController(forKey: .to),
              let operation = (context as? TransitionContext)?.navigationOperation else { return }
        let container = context.containerView
        let width = container.bounds.size.width
        let final = context.finalFrame(for: to)
        let push = operation == .push
        to.view.frame = Rect(x: push ? width : -width / 3, y: final.origin.y, width: final.size.width, height: final.size.height)
        if push { container.addSubview(to.view) } else { container.insertSubview(to.view, belowSubview: from.view) }
        let fromView = from.view, toView = to.view
        let start = fromView.frame
        let animator = try PropertyAnimator(duration: duration, curve: .standardTransition(context), engine: to.engine) {
            toView.frame = final
            fromView.frame = Rect(x: push ? -width / 3 : width, y: start.origin.y, width: start.size.width, height: start.size.height)
        }
        animator.addCompletion { _ in try? context.completeTransition(!context.transitionWasCancelled) }
        try animator.startAnimation()
    }
}
