import Kinetic

/// The context of one modal transition, handed to the animator
/// (``ViewControllerContextTransitioning``). Inspect ``Window/transitionInProgress`` to see
/// a transition that never completed.
@MainActor
public final class TransitionContext: ViewControllerContextTransitioning {
    unowned let window: Window
    public let containerView: View
    let fromController: ViewController
    let toController: ViewController
    /// Whether this presents (`true`) or dismisses / navigates (`false`).
    public let isPresentation: Bool
    /// A push or pop of a navigation controller (nil for modal transitions).
    public let navigationOperation: NavigationOperation?
    /// Delivers `completeTransition` to whoever runs the transition.
    private let finisher: (TransitionContext, Bool) -> Void
    public let presentationStyle: ModalPresentationStyle
    public let isAnimated: Bool
    /// Always the identity: a headless window does not rotate.
    public var targetTransform: Transform2D { .identity }
    public internal(set) var isInteractive = false
    public private(set) var transitionWasCancelled = false
    /// The last interactive progress reported, 0 to 1.
    public private(set) var percentComplete = 0.0
    /// Whether `completeTransition` has been called.
    public private(set) var isCompleted = false
    private let animator: (any ViewControllerAnimatedTransitioning)?
    /// Runs animations alongside this transition.
    public private(set) lazy var coordinator = TransitionCoordinator(context: self)
    /// The animated-transitioning object running the transition (nil when not animated).
    var animationController: (any ViewControllerAnimatedTransitioning)? { animator }
    private let completion: (@MainActor () -> Void)?
    private let fromStart: Rect

    init(window: Window, container: View, from: ViewController, to: ViewController, isPresentation: Bool,
         style: ModalPresentationStyle, isAnimated: Bool, animator: (any ViewControllerAnimatedTransitioning)?,
         navigationOperation: NavigationOperation? = nil, completion: (@MainActor () -> Void)?,
         finisher: @escaping (TransitionContext, Bool) -> Void) {
        self.navigationOperation = navigationOperation
        self.finisher = finisher
        self.window = window
        containerView = container
        fromController = from
        toController = to
        self.isPresentation = isPresentation
        presentationStyle = style
        self.isAnimated = isAnimated
        self.animator = animator
        self.completion = completion
        fromStart = from.view.frame
    }

    /// "present VCYellow over VCMain" / "dismiss VCYellow to VCMain".
    public var summary: String {
        if let operation = navigationOperation { return "\(operation) from \(fromController.name) to \(toController.name)" }
        return isPresentation ? "present \(toController.name) over \(fromController.name)"
            : "dismiss \(fromController.name) to \(toController.name)"
    }

    public func viewController(forKey key: TransitionContextKey) -> ViewController? {
        key == .from ? fromController : toController
    }

    /// The views to animate: the presented controller's view always; the presenter's only
    /// when the style removes it (`.fullScreen`) — otherwise nil, as in UIKit's custom styles.
    public func view(forKey key: TransitionContextKey) -> View? {
        if navigationOperation != nil { return key == .from ? fromController.view : toController.view }
        let presented = isPresentation ? toController : fromController
        let presenter = isPresentation ? fromController : toController
        let controller = key == .from ? fromController : toController
        if controller === presented { return presented.view }
        return presentationStyle.removesPresentingView ? presenter.view : nil
    }

    public func initialFrame(for viewController: ViewController) -> Rect {
        if viewController === fromController { return fromStart }
        return .zero
    }

    public func finalFrame(for viewController: ViewController) -> Rect {
        if navigationOperation != nil { return viewController === toController ? containerView.bounds : .zero }
        let presented = isPresentation ? toController : fromController
        if viewController === presented {
            return isPresentation ? containerView.bounds : .zero
        }
        // The presenter: removed (zero) when presenting full screen, else where it is.
        if isPresentation { return presentationStyle.removesPresentingView ? .zero : viewController.view.frame }
        return containerView.bounds
    }

    /// Starts the transition: through the interaction controller when there is one, else
    /// the animator; then the coordinator's alongside animations. Returns false when there is
    /// neither (a transition that is not animated: the caller completes it).
    func begin(interaction: (any ViewControllerInteractiveTransitioning)?) throws -> Bool {
        if let interaction {
            isInteractive = interaction.wantsInteractiveStart
            try interaction.startInteractiveTransition(self)
        } else if let animator {
            try animator.animateTransition(using: self)
        } else {
            return false
        }
        coordinator.transitionDidStart()
        return true
    }

    public func updateInteractiveTransition(_ percentComplete: Double) {
        if percentComplete.isFinite { self.percentComplete = Swift.min(Swift.max(percentComplete, 0), 1) }
    }

    public func finishInteractiveTransition() {
        isInteractive = false
        transitionWasCancelled = false
    }

    public func cancelInteractiveTransition() {
        isInteractive = false
        transitionWasCancelled = true
    }

    public func pauseInteractiveTransition() {
        isInteractive = true
    }

    public func completeTransition(_ didComplete: Bool) throws {
        guard !isCompleted else { throw TransitionError.completedTwice }
        isCompleted = true
        transitionWasCancelled = !didComplete
        finisher(self, didComplete)
        coordinator.transitionDidComplete()
        animator?.animationEnded(didComplete)
        completion?()
    }
}

/// UIKit's standard modal transition: the presented view slides up from the bottom edge,
/// and slides back down when dismissed (0.35 s, ease in-out).
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
        if let toView = context.view(forKey: .to), toView === to.view, to.presentingViewController === from {
            // Presenting: start below the bottom edge.
            let final = context.finalFrame(for: to)
            toView.frame = Rect(x: final.origin.x, y: final.origin.y + height, width: final.size.width, height: final.size.height)
            container.addSubview(toView)
            let animator = try PropertyAnimator(duration: duration, curve: .easeInOut, engine: engine) { toView.frame = final }
            animator.addCompletion { _ in try? context.completeTransition(!context.transitionWasCancelled) }
            try animator.startAnimation()
        } else {
            // Dismissing: the presenter's view (full screen) goes back underneath.
            let fromView = from.view
            if let toView = context.view(forKey: .to) {
                toView.frame = context.finalFrame(for: to)
                container.insertSubview(toView, belowSubview: fromView)
            }
            let start = fromView.frame
            let animator = try PropertyAnimator(duration: duration, curve: .easeInOut, engine: engine) {
                fromView.frame = Rect(x: start.origin.x, y: start.origin.y + height, width: start.size.width, height: start.size.height)
            }
            animator.addCompletion { _ in try? context.completeTransition(!context.transitionWasCancelled) }
            try animator.startAnimation()
        }
    }
}
