import Kinetic

/// The context of one modal transition, handed to the animator
/// (``ViewControllerContextTransitioning``). Inspect ``Window/transitionInProgress`` to see
/// a transition that never completed.
@MainActor
public final class TransitionContext: ViewControllerContextTransitioning {
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
    /// Whether the transition animates: true for every animated transition; false for one that
    /// is not (`animated: false`). Only a `.custom` presentation or dismissal calls its
    /// animation controller when it is false (UIKit's rule): the animator then puts the views
    /// where they end without animating.
    public let isAnimated: Bool
    /// Always the identity: a headless window does not rotate.
    public var targetTransform: Transform2D { .identity }
    /// Whether the transition is being driven interactively now. Every change after the
    /// start is reported to the coordinator's ``TransitionCoordinator/notifyWhenInteractionChanges(_:)``
    /// handlers.
    public internal(set) var isInteractive = false {
        didSet { if started, oldValue != isInteractive, !isCompleted { coordinator.interactionDidChange() } }
    }
    /// Whether the transition was interactive when it started (never changes afterwards).
    public private(set) var initiallyInteractive = false
    /// Whether the transition is to end cancelled: set by `cancelInteractiveTransition()`,
    /// cleared by `finishInteractiveTransition()` and by `pauseInteractiveTransition()`
    /// (an interruptible transition grabbed again has not decided yet), and fixed by
    /// `completeTransition(_:)`.
    public private(set) var transitionWasCancelled = false
    /// The last interactive progress reported, 0 to 1.
    public private(set) var percentComplete = 0.0
    /// Whether `completeTransition` has been called.
    public private(set) var isCompleted = false
    /// The interaction controller driving the transition, if any.
    private(set) var interactionController: (any ViewControllerInteractiveTransitioning)?
    /// The presentation controller of a modal transition (nil for navigation).
    let presentationController: PresentationController?
    /// Whether the presenter's view leaves the hierarchy (read once, at the start).
    let removesPresentersView: Bool
    private var started = false
    /// Runs animations alongside this transition. The coordinator keeps the context alive;
    /// the context keeps only what was registered through it (and the coordinator weakly).
    public var coordinator: TransitionCoordinator {
        if let made = madeCoordinator { return made }
        let made = TransitionCoordinator(context: self)
        madeCoordinator = made
        return made
    }
    private weak var madeCoordinator: TransitionCoordinator?
    /// The alongside animations, completions and interaction handlers registered through the
    /// coordinator.
    let registrations = CoordinatorRegistrations()
    /// The animated-transitioning object running the transition (nil when not animated,
    /// except for a `.custom` transition whose delegate vends one: see ``isAnimated``).
    let animationController: (any ViewControllerAnimatedTransitioning)?
    private let completion: (@MainActor () -> Void)?
    /// The from side's frame when the transition began (set again by ``retrievePresentedView()``
    /// for a dismissal, whose from side is the presented view).
    private var fromStart: Rect
    /// The presentation controller's ``PresentationController/presentedView``, retrieved once
    /// by ``retrievePresentedView()`` (nil until then, and for navigation).
    private var retrievedPresentedView: View?
    private var presentedViewRetrieved = false
    /// What the animator's `transitionDuration(using:)` returned when the transition began.
    private(set) var startDuration: Double?

    init(container: View, from: ViewController, to: ViewController, isPresentation: Bool,
         style: ModalPresentationStyle, presentationController: PresentationController? = nil,
         animator: (any ViewControllerAnimatedTransitioning)?, animated: Bool? = nil,
         navigationOperation: NavigationOperation? = nil, completion: (@MainActor () -> Void)?,
         finisher: @escaping (TransitionContext, Bool) -> Void) {
        isAnimated = animated ?? (animator != nil)
        self.navigationOperation = navigationOperation
        self.finisher = finisher
        containerView = container
        fromController = from
        toController = to
        self.isPresentation = isPresentation
        presentationStyle = style
        animationController = animator
        self.completion = completion
        self.presentationController = presentationController
        removesPresentersView = navigationOperation == nil
            && (presentationController?.shouldRemovePresentersView ?? style.removesPresentingView)
        fromStart = from.view.frame
    }

    /// Gets the presented side's view from the presentation controller, once, after its
    /// `…TransitionWillBegin` hook and before the animations start, as UIKit does (View
    /// Controller Programming Guide, "The Custom Presentation Process"). Returns it.
    @discardableResult
    func retrievePresentedView() -> View? {
        if !presentedViewRetrieved {
            presentedViewRetrieved = true
            let presented = isPresentation ? toController : fromController
            retrievedPresentedView = presentationController?.presentedView ?? presented.view
            if !isPresentation, let view = retrievedPresentedView { fromStart = view.frame }
        }
        return retrievedPresentedView
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

    /// The views to animate. Navigation: both controllers' views. Modal: for the presented
    /// side, the presentation controller's ``PresentationController/presentedView``; for the
    /// presenter, its view only when the presentation removes it (`.fullScreen`, or a
    /// presentation controller whose `shouldRemovePresentersView` is true) — otherwise nil,
    /// as in UIKit's custom styles.
    public func view(forKey key: TransitionContextKey) -> View? {
        if navigationOperation != nil { return key == .from ? fromController.view : toController.view }
        let presented = isPresentation ? toController : fromController
        let controller = key == .from ? fromController : toController
        if controller === presented { return retrievePresentedView() }
        return removesPresentersView ? controller.view : nil
    }

    /// Where a view starts: the from controller's view frame when the transition began (for
    /// a dismissal, the presented view's); `.zero` for the to controller (unknown).
    public func initialFrame(for viewController: ViewController) -> Rect {
        if viewController === fromController { return fromStart }
        return .zero
    }

    /// Where a view must end. Navigation: the container's bounds for the new top, `.zero` for
    /// the old. Presentation: the presentation controller's
    /// ``PresentationController/frameOfPresentedViewInContainerView`` for the presented
    /// controller; `.zero` for a presenter whose view is removed, else its current frame.
    /// Dismissal: `.zero` for the dismissed controller (its view is removed); the container's
    /// bounds for a presenter whose view comes back, else its current frame.
    public func finalFrame(for viewController: ViewController) -> Rect {
        if navigationOperation != nil { return viewController === toController ? containerView.bounds : .zero }
        let presented = isPresentation ? toController : fromController
        if viewController === presented {
            guard isPresentation else { return .zero }
            return presentationController?.frameOfPresentedViewInContainerView ?? containerView.bounds
        }
        if isPresentation { return removesPresentersView ? .zero : viewController.view.frame }
        return removesPresentersView ? containerView.bounds : viewController.view.frame
    }

    /// Starts the transition: asks the animator for its duration, then starts it through
    /// the interaction controller when there is one, else the animator (the order of View
    /// Controller Programming Guide, "Customizing the Transition Animations"); then the
    /// coordinator's alongside animations. Returns false when there is neither (a transition
    /// that is not animated: the caller completes it).
    func begin(interaction: (any ViewControllerInteractiveTransitioning)?) throws -> Bool {
        defer {
            started = true
            coordinator.transitionDidStart()
        }
        startDuration = animationController?.transitionDuration(using: self)
        if let interaction {
            interactionController = interaction
            isInteractive = interaction.wantsInteractiveStart
            initiallyInteractive = isInteractive
            try interaction.startInteractiveTransition(self)
        } else if let animator = animationController {
            try animator.animateTransition(using: self)
        } else {
            return false
        }
        return true
    }

    public func updateInteractiveTransition(_ percentComplete: Double) {
        if percentComplete.isFinite { self.percentComplete = Swift.min(Swift.max(percentComplete, 0), 1) }
    }

    public func finishInteractiveTransition() {
        guard !isCompleted else { return }
        transitionWasCancelled = false
        isInteractive = false
    }

    public func cancelInteractiveTransition() {
        guard !isCompleted else { return }
        transitionWasCancelled = true
        isInteractive = false
    }

    /// Pauses the transition for an interaction. A transition that started non-interactively
    /// becomes interactive only if it is interruptible (UIKit's rule: its animation controller
    /// vends an interruptible animator); otherwise this does nothing and it runs on to its end.
    public func pauseInteractiveTransition() {
        guard !isCompleted, canBecomeInteractive else { return }
        transitionWasCancelled = false
        isInteractive = true
    }

    /// Whether a pause may make the transition interactive: it started interactively, is
    /// interactive now, or is interruptible. (The animation controller is asked only for a
    /// transition that started non-interactively.)
    var canBecomeInteractive: Bool {
        initiallyInteractive || isInteractive || coordinator.isInterruptible
    }

    public func completeTransition(_ didComplete: Bool) throws {
        guard !isCompleted else { throw TransitionError.completedTwice }
        isCompleted = true
        transitionWasCancelled = !didComplete
        // The finisher changes the views and queues its callbacks; these follow them. All run
        // now, unless a transition that one of them starts runs the rest first
        // (``TransitionFinishQueue``).
        finisher(self, didComplete)
        TransitionFinishQueue.enqueue([
            { self.coordinator.transitionDidComplete() },
            { self.animationController?.animationEnded(didComplete) },
            { self.completion?() },
            // The interaction controller holds this context (to drive it) for as long as it
            // lives: keeping it here too after the end would be a reference cycle that leaks
            // the whole transition (controllers, views, animators, engine), as LeakSanitizer
            // found after every interactive transition.
            {
                (self.interactionController as? PercentDrivenInteractiveTransition)?.transitionDidEnd(self)
                self.interactionController = nil
            },
        ])
        TransitionFinishQueue.drain()
    }
}
