import Kinetic

/// Manages one presented view controller from the moment it is presented until it is
/// dismissed (`UIPresentationController`): where its view sits in the container
/// (``frameOfPresentedViewInContainerView``), whether the presenting view leaves the
/// hierarchy (``shouldRemovePresentersView``), and hooks around the presentation and
/// dismissal transitions in which a subclass adds its own views (a dimming view, a shadow)
/// and animates them with the transition.
///
/// Every presentation has one: for `.custom` the transitioning delegate may vend a subclass
/// through ``ViewControllerTransitioningDelegate/presentationController(forPresented:presenting:source:)``
/// (nil ⇒ this base class); the other styles get a built-in one (full screen removes the
/// presenter's view, sheets inset the presented view; see ``ModalPresentationStyle``).
/// Read it back through ``ViewController/presentationController`` while the controller is
/// presented.
///
/// ## Order of calls (presentation)
/// Apple documents the order of the presentation controller's part (View Controller
/// Programming Guide for iOS, "Creating Custom Presentations" and "Customizing the
/// Transition Animations"; the sample code *Custom View Controller Presentations and
/// Transitions*), and Kinetic follows it:
/// 1. the transitioning delegate's `presentationController(forPresented:presenting:source:)`
///    (`.custom` only), then its animation controller and (only when it vended one) its
///    interaction controller;
/// 2. the appearance "will" calls (`presenter.viewWillDisappear` when the presenter's view is
///    removed, then `presented.viewWillAppear`);
/// 3. ``presentationTransitionWillBegin()``, with the container view in the window and
///    ``presentedView`` not yet read. The transition coordinator is available through
///    `presentedViewController.transitionCoordinator`, so animations added there with
///    `animate(alongsideTransition:completion:)` run with the transition (and follow an
///    interactive transition's scrubbing);
/// 4. ``presentedView`` is read, once: the view the transition context returns for the
///    presented side;
/// 5. the animator's `transitionDuration(using:)`, then its `animateTransition(using:)` (or
///    the interaction controller's `startInteractiveTransition(_:)`), then the alongside
///    animations start;
/// 6. a layout pass of the container while the animations run:
///    ``containerViewWillLayoutSubviews()``, then ``containerViewDidLayoutSubviews()``;
/// 7. when `completeTransition(_:)` arrives: ``presentationTransitionDidEnd(_:)`` (false when
///    an interactive presentation was cancelled), then the appearance "did" calls (or, when
///    cancelled, the reversed appearance calls), then the animator's `animationEnded(_:)` and
///    the completion handler of `present(_:animated:completion:)`.
///
/// Dismissal is the same without step 1's presentation controller (the one vended for the
/// presentation is reused) and with ``dismissalTransitionWillBegin()`` and
/// ``dismissalTransitionDidEnd(_:)``, without the layout pass (nothing is added to the
/// container, and an override that puts the presented view back at its frame would fight
/// the dismissal's animation). UIKit does not document where the appearance callbacks fall
/// relative to these hooks (step 2, and the "did" calls after the `…DidEnd` hook). Crash
/// logs of UIKit show both the appearance "will" calls and `presentationTransitionWillBegin`
/// made from the same deferred start of the transition, before any animation runs; Kinetic
/// makes them in the order above so that a controller's `viewWillAppear` and the
/// presentation controller's `…WillBegin` both see the transition coordinator and both
/// register alongside animations before the transition starts, the guarantee the documented
/// contracts need. The exact placement is Kinetic's choice, and its tests pin it.
@MainActor
open class PresentationController {
    /// The controller being presented.
    public let presentedViewController: ViewController
    /// The controller that presents it: the one given at creation until the presentation
    /// begins, then the controller that actually presents (the top of the receiver's
    /// parent chain, as in UIKit).
    public internal(set) var presentingViewController: ViewController?
    /// The view the presentation takes place in, from the start of the presentation
    /// transition until the end of the dismissal (nil before and after).
    public internal(set) var containerView: View?

    /// A presentation controller for `presentedViewController`, presented by
    /// `presentingViewController` (nil: the controller that ends up presenting it).
    public init(presentedViewController: ViewController, presenting presentingViewController: ViewController?) {
        self.presentedViewController = presentedViewController
        self.presentingViewController = presentingViewController
    }

    /// The view the transition animates for the presented side — what the transition
    /// context's `view(forKey:)` returns for it. The default is the presented controller's
    /// view; override it to wrap that view in a decoration (the wrapper must contain it).
    open var presentedView: View? { presentedViewController.view }

    /// Where the presented view sits in the container when the presentation ends (points,
    /// container coordinates): the transition context's `finalFrame(for:)` of the presented
    /// controller. The default is the container's bounds (`.zero` without a container).
    open var frameOfPresentedViewInContainerView: Rect { containerView?.bounds ?? .zero }

    /// Whether the presentation covers the whole window (true, the default). A custom
    /// presentation controller that returns false is presented in the current context, as
    /// `.currentContext` is: its container covers the presentation context's view.
    open var shouldPresentInFullscreen: Bool { !presentsInContext }

    /// Set on the built-in controllers of `.currentContext` and `.overCurrentContext`.
    var presentsInContext = false

    /// Whether the presenting controller's view leaves the hierarchy when the presentation
    /// completes (and returns when it is dismissed). True makes the presentation behave as
    /// full screen for the presenter: it gets `viewWillDisappear` / `viewDidDisappear` (and
    /// the appear calls on dismissal), and `view(forKey: .from)` returns its view. Default
    /// false: the presenter keeps its view and gets no appearance calls.
    open var shouldRemovePresentersView: Bool { false }

    /// The presentation's animations are about to start. Add decoration views to
    /// ``containerView`` here and animate them through
    /// `presentedViewController.transitionCoordinator`. The default does nothing.
    open func presentationTransitionWillBegin() {}

    /// The presentation transition ended; `completed` is false when it was cancelled
    /// (an interactive presentation), in which case remove what `WillBegin` added. The
    /// default does nothing.
    open func presentationTransitionDidEnd(_ completed: Bool) {}

    /// The dismissal's animations are about to start. The default does nothing.
    open func dismissalTransitionWillBegin() {}

    /// The dismissal transition ended; `completed` is false when it was cancelled (the
    /// controller stays presented). The default does nothing.
    open func dismissalTransitionDidEnd(_ completed: Bool) {}

    /// The container view is about to lay out its subviews (once the presentation
    /// transition's animations are set up, and whenever the container is laid out with
    /// `setNeedsLayout()` + `layoutIfNeeded()`). A typical override sets `presentedView?.frame =
    /// frameOfPresentedViewInContainerView`. The default does nothing.
    open func containerViewWillLayoutSubviews() {}

    /// The container view laid out its subviews. The default does nothing.
    open func containerViewDidLayoutSubviews() {}
}

/// The built-in presentation controller of `.fullScreen`: removes the presenter's view.
@MainActor
final class FullScreenPresentationController: PresentationController {
    override var shouldRemovePresentersView: Bool { true }
}

/// The built-in presentation controller of `.pageSheet` and `.formSheet` (see
/// ``ModalPresentationStyle`` for the geometry): the presenter keeps its view.
@MainActor
final class SheetPresentationController: PresentationController {
    let style: ModalPresentationStyle

    init(presentedViewController: ViewController, presenting: ViewController?, style: ModalPresentationStyle) {
        self.style = style
        super.init(presentedViewController: presentedViewController, presenting: presenting)
    }

    override var frameOfPresentedViewInContainerView: Rect {
        guard let bounds = containerView?.bounds else { return .zero }
        return ModalPresentationStyle.sheetFrame(style, in: bounds)
    }
}

extension PresentationController {
    /// The built-in presentation controller of `style` (for `.custom` when the delegate vends none).
    static func standard(for style: ModalPresentationStyle, presented: ViewController,
                         presenting: ViewController) -> PresentationController {
        let made = builtIn(for: style, presented: presented, presenting: presenting)
        made.presentsInContext = style.presentsInContext
        return made
    }

    private static func builtIn(for style: ModalPresentationStyle, presented: ViewController,
                                presenting: ViewController) -> PresentationController {
        switch style {
        case .fullScreen, .popover, .currentContext:
            // A popover adapts to full screen (UIKit's compact-width adaptation); the current
            // context is a full screen of the context's frame.
            return FullScreenPresentationController(presentedViewController: presented, presenting: presenting)
        case .pageSheet, .formSheet:
            return SheetPresentationController(presentedViewController: presented, presenting: presenting, style: style)
        case .overFullScreen, .overCurrentContext, .custom:
            return PresentationController(presentedViewController: presented, presenting: presenting)
        }
    }
}

/// The container view of a modal presentation: its layout passes call the presentation
/// controller's `containerViewWillLayoutSubviews` / `containerViewDidLayoutSubviews`.
@MainActor
final class PresentationContainerView: View {
    weak var presentationController: PresentationController?

    override func layoutSubviews() {
        presentationController?.containerViewWillLayoutSubviews()
        presentationController?.containerViewDidLayoutSubviews()
    }
}
