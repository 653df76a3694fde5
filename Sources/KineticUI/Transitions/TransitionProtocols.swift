import Kinetic

/// How a presented view controller is shown (`UIModalPresentationStyle`), as far as the
/// styles differ headless. Each style gets its own built-in ``PresentationController``
/// (`.custom` may get one from the transitioning delegate instead).
public enum ModalPresentationStyle: Int, Sendable, CustomStringConvertible {
    /// Covers the screen; the presenting view is removed when the transition ends, and the
    /// presenting controller gets disappear / appear callbacks.
    case fullScreen
    /// Covers the screen over the presenting view, which stays in the hierarchy: the
    /// presenting controller gets no appearance callbacks.
    case overFullScreen
    /// A custom presentation through the transitioning delegate, managed by the
    /// ``PresentationController`` it vends (the base class when it vends none). The
    /// presenting controller keeps its view and gets no appearance callbacks unless that
    /// controller's ``PresentationController/shouldRemovePresentersView`` is true (then it
    /// behaves as `fullScreen` for the presenter).
    case custom
    /// UIKit's page sheet (iOS 13 and later, compact width): the presenter keeps its view and
    /// gets no appearance callbacks; the presented view covers the container except a strip
    /// of ``sheetTopInset`` points at the top. (UIKit also adds the safe-area top inset and
    /// shrinks the presenter into a card; a headless window has neither.)
    case pageSheet
    /// UIKit's form sheet: like `pageSheet` on a compact-width container (narrower than
    /// ``regularWidth`` points); on a regular-width one, a 540 × 620-point sheet centred in
    /// the container (clamped to it), UIKit's default form-sheet size.
    case formSheet
    /// UIKit's popover, as an iPhone shows it: in a compact-width environment UIKit adapts a
    /// popover to full screen, and so does Kinetic, in every window (the regular-width popover
    /// with its arrow and anchor is not modelled). The controller keeps `.popover` as its
    /// style; the presentation behaves as `fullScreen`, callbacks included.
    case popover
    /// Covers the view of the presentation context (the nearest controller up the parent
    /// chain whose ``ViewController/definesPresentationContext`` is true, else the root),
    /// which presents and is removed when the transition ends, with its appearance callbacks.
    /// Dismissed (or cancelled), the context's view goes back to its superview, below the
    /// sibling it was below, at the frame it had before the presentation, wherever the
    /// animator moved or framed it in the transition's container.
    case currentContext
    /// Like `currentContext`, over the context's view, which stays: the context gets no
    /// appearance callbacks.
    case overCurrentContext

    /// Points between the container's top edge and a sheet's top edge.
    public static let sheetTopInset = 10.0
    /// Container width (points) from which a form sheet is a centred card: 768, the narrowest
    /// regular-width iPad window.
    public static let regularWidth = 768.0

    /// Whether the built-in presentation controller of the style removes the presenting view.
    var removesPresentingView: Bool { self == .fullScreen || self == .popover || self == .currentContext }

    /// Whether the style presents in a presentation context rather than over the window.
    var presentsInContext: Bool { self == .currentContext || self == .overCurrentContext }

    /// The presented view's frame for a sheet style in a container of `bounds`.
    static func sheetFrame(_ style: ModalPresentationStyle, in bounds: Rect) -> Rect {
        if style == .formSheet, bounds.size.width >= regularWidth {
            let width = Swift.min(540, bounds.size.width), height = Swift.min(620, bounds.size.height)
            return Rect(x: bounds.origin.x + (bounds.size.width - width) / 2, y: bounds.origin.y + (bounds.size.height - height) / 2,
                        width: width, height: height)
        }
        let inset = Swift.min(sheetTopInset, bounds.size.height)
        return Rect(x: bounds.origin.x, y: bounds.origin.y + inset, width: bounds.size.width, height: bounds.size.height - inset)
    }

    public var description: String {
        switch self {
        case .fullScreen: return "fullScreen"
        case .overFullScreen: return "overFullScreen"
        case .custom: return "custom"
        case .pageSheet: return "pageSheet"
        case .formSheet: return "formSheet"
        case .popover: return "popover"
        case .currentContext: return "currentContext"
        case .overCurrentContext: return "overCurrentContext"
        }
    }
}

/// The standard animation of a modal presentation when the transitioning delegate vends
/// none (`UIModalTransitionStyle`, with UIKit's raw values).
public enum ModalTransitionStyle: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Slides up from the bottom edge (``CoverVerticalTransition``), the default.
    case coverVertical = 0
    /// UIKit flips the views around the vertical axis in 3D. Not modelled headless: Kinetic
    /// runs ``CoverVerticalTransition`` for it.
    case flipHorizontal = 1
    /// Fades the presented view in and out (``CrossDissolveTransition``).
    case crossDissolve = 2
    /// UIKit curls the presenting view up like a page. Not modelled headless: Kinetic runs
    /// ``CoverVerticalTransition`` for it.
    case partialCurl = 3

    public var description: String {
        switch self {
        case .coverVertical: return "coverVertical"
        case .flipHorizontal: return "flipHorizontal"
        case .crossDissolve: return "crossDissolve"
        case .partialCurl: return "partialCurl"
        }
    }

    /// The standard animator of the style.
    @MainActor
    func standardAnimator() -> any ViewControllerAnimatedTransitioning {
        switch self {
        case .crossDissolve: return CrossDissolveTransition()
        case .coverVertical, .flipHorizontal, .partialCurl: return CoverVerticalTransition()
        }
    }
}

/// Which side of a transition (`UITransitionContextViewControllerKey` / `ViewKey`).
public enum TransitionContextKey: Sendable, CustomStringConvertible {
    /// The controller (or view) being replaced.
    case from
    /// The controller (or view) being shown.
    case to

    public var description: String { self == .from ? "from" : "to" }
}

/// The information and controls of one transition (`UIViewControllerContextTransitioning`).
@MainActor
public protocol ViewControllerContextTransitioning: AnyObject {
    /// The view in which the transition takes place.
    var containerView: View { get }
    /// Whether the transition animates: false when it was made with `animated: false`. Only
    /// a `.custom` presentation or dismissal calls its animation controller then, which
    /// installs the views without animating.
    var isAnimated: Bool { get }
    /// Whether it is being driven interactively.
    var isInteractive: Bool { get }
    /// Whether it was cancelled.
    var transitionWasCancelled: Bool { get }
    /// The presentation style of the presented controller.
    var presentationStyle: ModalPresentationStyle { get }
    /// The rotation the transition applies to the interface (identity headless: there is
    /// no device rotation).
    var targetTransform: Transform2D { get }
    /// The controller on either side.
    func viewController(forKey key: TransitionContextKey) -> ViewController?
    /// The view to animate on either side (nil: leave it alone).
    func view(forKey key: TransitionContextKey) -> View?
    /// Where a controller's view starts (points, container coordinates; `.zero` when unknown).
    func initialFrame(for viewController: ViewController) -> Rect
    /// Where a controller's view must end (`.zero` when it is removed or unknown).
    func finalFrame(for viewController: ViewController) -> Rect
    /// Must be called once when the transition's animations are done.
    /// - Throws: ``TransitionError/completedTwice`` on a second call (which has no effect).
    func completeTransition(_ didComplete: Bool) throws
    /// Interactive progress, 0 to 1 (from the interaction controller).
    func updateInteractiveTransition(_ percentComplete: Double)
    /// The interaction ended and the transition will finish.
    func finishInteractiveTransition()
    /// The interaction ended and the transition will be cancelled (`transitionWasCancelled`
    /// becomes true).
    func cancelInteractiveTransition()
    /// The transition's animations were paused (interaction began again). A transition that
    /// started non-interactively becomes interactive only if it is interruptible.
    func pauseInteractiveTransition()
}

/// An object that animates a transition (`UIViewControllerAnimatedTransitioning`).
@MainActor
public protocol ViewControllerAnimatedTransitioning: AnyObject {
    /// The duration of the transition, seconds.
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double
    /// Sets up and starts the animations; must lead to `completeTransition(_:)`.
    func animateTransition(using transitionContext: any ViewControllerContextTransitioning) throws
    /// Called after `completeTransition(_:)`, with its argument.
    func animationEnded(_ transitionCompleted: Bool)
    /// The interruptible animator running the transition; must return the same instance
    /// for the whole transition. Nil (the default) means the animations are plain block
    /// animations.
    func interruptibleAnimator(using transitionContext: any ViewControllerContextTransitioning) -> (any ViewImplicitlyAnimating)?
}

extension ViewControllerAnimatedTransitioning {
    public func animationEnded(_ transitionCompleted: Bool) {}
    public func interruptibleAnimator(using transitionContext: any ViewControllerContextTransitioning) -> (any ViewImplicitlyAnimating)? {
        nil
    }
}

/// Drives a transition interactively (`UIViewControllerInteractiveTransitioning`).
@MainActor
public protocol ViewControllerInteractiveTransitioning: AnyObject {
    /// Starts the interactive transition (and starts or prepares its animations).
    func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning) throws
    /// Whether the transition starts interactively (true) or runs until interrupted.
    var wantsInteractiveStart: Bool { get }
    /// How fast the transition completes once the interaction ends, relative to its own
    /// speed (> 0; 1 by default), as the transition coordinator reports it
    /// (``TransitionCoordinator/completionVelocity``). Declare it in the class that conforms:
    /// a subclass of a class that takes the default cannot replace it.
    var completionSpeed: Double { get }
    /// The curve of that completion (`.easeInOut` by default), as the transition
    /// coordinator reports it (``TransitionCoordinator/completionCurve``).
    var completionCurve: AnimationCurve { get }
}

extension ViewControllerInteractiveTransitioning {
    /// 1: the completion runs at the transition's own speed.
    public var completionSpeed: Double { 1 }
    /// `.easeInOut`.
    public var completionCurve: AnimationCurve { .easeInOut }
}

/// Vends the objects of custom presentations (`UIViewControllerTransitioningDelegate`).
/// Returning nil (the default) means the standard transition.
@MainActor
public protocol ViewControllerTransitioningDelegate: AnyObject {
    /// The animator for presenting `presented`.
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)?
    /// The animator for dismissing `dismissed`.
    func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)?
    /// An interaction controller for the presentation (nil: not interactive). Asked only when
    /// ``animationController(forPresented:presenting:source:)`` vended `animator`, as UIKit
    /// does ("the transition animator object returned by your animationController(forPresented:
    /// presenting:source:) method"): the standard transition is never interactive.
    func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)?
    /// An interaction controller for the dismissal (nil: not interactive). Asked only when
    /// ``animationController(forDismissed:)`` vended `animator`, as UIKit does.
    func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)?
    /// The presentation controller that manages `presented` from its presentation to its
    /// dismissal. Asked only for the `.custom` style, when the presentation begins; nil (the
    /// default) means the base ``PresentationController``. `presenting` is the controller
    /// that will present it.
    func presentationController(forPresented presented: ViewController, presenting: ViewController?,
                                source: ViewController) -> PresentationController?
}

extension ViewControllerTransitioningDelegate {
    public func animationController(forPresented presented: ViewController, presenting: ViewController,
                                    source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { nil }
    public func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { nil }
    public func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)? { nil }
    public func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)? { nil }
    public func presentationController(forPresented presented: ViewController, presenting: ViewController?,
                                       source: ViewController) -> PresentationController? { nil }
}

/// Misuse of view-controller transitions.
public enum TransitionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A presentation or dismissal was requested while another transition is in progress
    /// (for example one whose `completeTransition` was never called).
    case transitionInProgress(requested: String, running: String)
    /// `completeTransition` was called a second time; the second call had no effect.
    case completedTwice
    /// The controller already presents another one.
    case alreadyPresenting(presenter: String, presented: String)
    /// The controller is already presented or in a window.
    case alreadyShown(String)
    /// `dismiss` on a controller that presents nothing and is not presented.
    case nothingToDismiss(String)
    /// The controller is not in a window, so it cannot present.
    case notInWindow(String)
    /// `popToViewController(_:animated:)` with a controller that is not in the stack.
    case notInStack(String)
    /// `setViewControllers(_:animated:)` with no controller, or with one controller twice.
    case invalidStack(String)
    /// A container transition between controllers that are not both children of the
    /// receiver (`transition(from:to:duration:options:animations:completion:)`).
    case notAChild(child: String, parent: String)

    public var description: String {
        switch self {
        case .transitionInProgress(let requested, let running):
            return "cannot \(requested) while a transition is in progress (\(running)); was completeTransition(_:) called?"
        case .completedTwice:
            return "completeTransition(_:) was called twice; the second call has no effect"
        case .alreadyPresenting(let presenter, let presented):
            return "\(presenter) is already presenting \(presented)"
        case .alreadyShown(let name):
            return "\(name) is already presented or in a window"
        case .nothingToDismiss(let name):
            return "\(name) has nothing to dismiss"
        case .notInWindow(let name):
            return "\(name) is not in a window's hierarchy"
        case .notInStack(let name):
            return "\(name) is not in the navigation stack"
        case .invalidStack(let reason):
            return "setViewControllers: \(reason)"
        case .notAChild(let child, let parent):
            return "\(child) is not a child of \(parent): both controllers of a container transition must be its children"
        }
    }
}
