import Kinetic

/// A headless view controller (`UIViewController`): a lazily loaded view, the lifecycle
/// callbacks, appearance transitions, child controllers, and modal presentation through
/// ``present(_:animated:completion:)`` / ``dismiss(animated:completion:)``.
///
/// Override the `view…` callbacks to observe the lifecycle (calling `super` is not needed:
/// the defaults do nothing). The window records every appearance callback it delivers in
/// ``Window/trace``, in order.
///
/// ## Appearance forwarding to children
/// When a container appears or disappears (set as a window's root, presented, dismissed,
/// covered or uncovered by a full-screen presentation), each child whose view is inside the
/// container's view gets the same appearance callbacks, nested inside the container's:
/// `container.viewWillAppear → child.viewWillAppear → container.viewDidLayoutSubviews →
/// child.viewDidLayoutSubviews → child.viewDidAppear → container.viewDidAppear` (and
/// `container.viewWillDisappear → child.viewWillDisappear → child.viewDidDisappear →
/// container.viewDidDisappear`). UIKit does not document this order; Kinetic chooses the
/// nesting (the container's "will" first and its "did" last) and its tests pin it. A container
/// that returns false from ``shouldAutomaticallyForwardAppearanceMethods`` forwards by hand
/// with ``beginAppearanceTransition(_:animated:)`` / ``endAppearanceTransition()``.

@MainActor
open class ViewController {
    /// A name for traces ("VCMain", "VCYellow"…).
    public var name: String
    private var loadedView: View?
    private var appearing: Bool?
    /// Whether the appearance transition begun last is animated (the flag its "did" callback gets).
    private var appearingAnimated = false

    /// How the controller is shown when presented.
    public var modalPresentationStyle: ModalPresentationStyle = .fullScreen
    /// The standard animation of its presentation and dismissal when its transitioning
    /// delegate vends none (`.coverVertical` by default).
    public var modalTransitionStyle: ModalTransitionStyle = .coverVertical
    /// Whether `.currentContext` and `.overCurrentContext` presentations made by this
    /// controller or its children cover this controller's view (false by default: the search
    /// goes on up the parent chain, and ends at its top).
    public var definesPresentationContext = false
    /// Whether a presentation in this controller's context uses this controller's
    /// ``modalTransitionStyle`` instead of the presented controller's (false by default).
    public var providesPresentationContextTransitionStyle = false
    /// Vends custom animators for presenting and dismissing this controller (held weakly,
    /// as in UIKit).
    public weak var transitioningDelegate: (any ViewControllerTransitioningDelegate)?
    /// The controller this one presents.
    var presentedStorage: ViewController?
    /// The controller that presented this one.
    weak var presentingStorage: ViewController?
    /// The children that got the appearance transition begun last (to get its end).
    private var forwardedChildren: [ViewController] = []

    /// The controller this one — or, for a child, its nearest presenting ancestor —
    /// presents, if any (a child's `present` is carried out by the top of its parent chain).
    public var presentedViewController: ViewController? { presentedStorage ?? parent?.presentedViewController }
    /// The controller that presented this one; for a child, the controller that presented
    /// its parent (as UIKit documents); nil if none.
    public var presentingViewController: ViewController? { presentingStorage ?? parent?.presentingViewController }
    /// The presentation controller managing this controller's presentation, from the start
    /// of the presentation transition until the end of its dismissal (nil otherwise).
    public internal(set) var presentationController: PresentationController?
    /// The container controller this one is a child of (a navigation controller's stack).
    public internal(set) weak var parent: ViewController?
    /// The child controllers, in the order added (a navigation controller's stack, bottom first).
    public internal(set) var children: [ViewController] = []
    /// The nearest ancestor (the parent, its parent, …) that is a ``NavigationController``
    /// (`UIViewController.navigationController`); nil when the controller is not embedded in
    /// one. A popped controller keeps it until the pop ends.
    public var navigationController: NavigationController? {
        var ancestor = parent
        while let current = ancestor {
            if let navigation = current as? NavigationController { return navigation }
            ancestor = current.parent
        }
        return nil
    }
    /// The window, for the root controller (found through the parent and presenting chains for others).
    weak var hostWindow: Window?
    /// Where the presenter's view lived before a full-screen presentation removed it.
    var presenterViewPlace: PresenterViewPlace?

    /// A controller with a name for traces.
    public init(name: String = "ViewController") {
        self.name = name
    }

    // MARK: View

    /// The root view, loaded (``loadView()`` then ``viewDidLoad()``) on first access.
    public var view: View {
        if let loadedView { return loadedView }
        loadView()
        let view = loadedView ?? View()
        loadedView = view
        if view.name == nil { view.name = "\(name).view" }
        viewDidLoad()
        return view
    }

    /// Whether the view has been loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Creates the view; the default makes an empty view the size of the window. Override it
    /// and call ``setView(_:)``.
    open func loadView() {
        setView(View(frame: window?.bounds ?? Rect(x: 0, y: 0, width: 390, height: 844)))
    }

    /// Sets the root view (from ``loadView()``).
    public func setView(_ view: View) { loadedView = view }

    /// The window the controller is shown in, if any.
    public var window: Window? {
        var node: ViewController? = self
        while let n = node {
            if let w = n.hostWindow { return w }
            node = n.parent ?? n.presentingStorage
        }
        return nil
    }

    /// Whether the controller is being presented: true from the start of its presentation
    /// until the transition ends, so inside its `viewWillAppear` and `viewDidAppear` (and,
    /// when an interactive presentation is cancelled, in the callbacks that undo it).
    public internal(set) var isBeingPresented = false
    /// Whether the controller is being dismissed: true from the start of its dismissal until
    /// the transition ends (inside its `viewWillDisappear` and `viewDidDisappear`).
    public internal(set) var isBeingDismissed = false
    /// Whether the controller is being added to a container (pushed, or becoming a
    /// navigation stack's new top): true during that transition, so inside its
    /// `viewWillAppear` and `viewDidAppear`.
    public internal(set) var isMovingToParent = false
    /// Whether the controller is being removed from its container (popped, or leaving a
    /// navigation stack from its top): true during that transition, so inside its
    /// `viewWillDisappear` and `viewDidDisappear`.
    public internal(set) var isMovingFromParent = false

    /// The engine that animates the controller's transitions (its window's, else the shared one).
    public var engine: AnimationEngine { window?.engine ?? .shared }

    // MARK: Lifecycle callbacks

    /// After the view loaded.
    open func viewDidLoad() {}
    /// Before the view appears.
    open func viewWillAppear(_ animated: Bool) {}
    /// After the view appeared.
    open func viewDidAppear(_ animated: Bool) {}
    /// Before the view disappears.
    open func viewWillDisappear(_ animated: Bool) {}
    /// After the view disappeared.
    open func viewDidDisappear(_ animated: Bool) {}
    /// After the view laid out its subviews.
    open func viewDidLayoutSubviews() {}

    // MARK: Appearance transitions

    /// Whether appearance callbacks are forwarded to the children automatically (see the
    /// type's discussion). Default true; a container that returns false calls
    /// ``beginAppearanceTransition(_:animated:)`` / ``endAppearanceTransition()`` on its
    /// children itself.
    open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

    /// Starts an appearance transition: `viewWillAppear` (`true`) or `viewWillDisappear`
    /// (`false`), then the same for the children whose views are inside this view (when
    /// forwarding automatically). Calling it again with the opposite flag before the end
    /// cancels the first (UIKit's way of cancelling).
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        appearing = isAppearing
        appearingAnimated = animated
        window?.record("\(name).\(isAppearing ? "viewWillAppear" : "viewWillDisappear")")
        if isAppearing {
            _ = view
            viewWillAppear(animated)
        } else {
            viewWillDisappear(animated)
        }
        guard shouldAutomaticallyForwardAppearanceMethods, isViewLoaded else {
            appearanceDidBegin(isAppearing, animated: animated)
            return
        }
        let shown = children.filter { $0.isViewLoaded && $0.view.isDescendant(of: view) }
        for child in shown {
            if !forwardedChildren.contains(where: { $0 === child }) { forwardedChildren.append(child) }
            child.beginAppearanceTransition(isAppearing, animated: animated)
        }
        appearanceDidBegin(isAppearing, animated: animated)
    }

    /// Called at the end of ``beginAppearanceTransition(_:animated:)`` (after the children's
    /// callbacks), for containers that report their own appearance (the navigation
    /// controller's delegate).
    func appearanceDidBegin(_ isAppearing: Bool, animated: Bool) {}

    /// Called at the end of ``endAppearanceTransition()`` (after `viewDidAppear` or
    /// `viewDidDisappear`).
    func appearanceDidEnd(_ isAppearing: Bool) {}

    /// Ends the appearance transition begun last: `viewDidAppear` (after
    /// `viewDidLayoutSubviews` and the children's end) or `viewDidDisappear` (after the
    /// children's end). Unbalanced calls are ignored.
    public func endAppearanceTransition() {
        guard let isAppearing = appearing else { return }
        appearing = nil
        let forwarded = forwardedChildren
        forwardedChildren = []
        if isAppearing {
            view.layoutIfNeeded()
            window?.record("\(name).viewDidLayoutSubviews")
            viewDidLayoutSubviews()
            for child in forwarded { child.endAppearanceTransition() }
            window?.record("\(name).viewDidAppear")
            viewDidAppear(appearingAnimated)
        } else {
            for child in forwarded { child.endAppearanceTransition() }
            window?.record("\(name).viewDidDisappear")
            viewDidDisappear(appearingAnimated)
        }
        appearanceDidEnd(isAppearing)
    }

    // MARK: Child controllers

    /// Adds `child` as a child controller (removing it from its previous parent first) and
    /// calls its ``willMove(toParent:)`` with this controller. Add its view to this
    /// controller's view, then call `child.didMove(toParent: self)`.
    open func addChild(_ child: ViewController) {
        guard child !== self, child.parent !== self else { return }
        if child.parent != nil { child.removeFromParent() }
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
    }

    /// Removes this controller from its parent and calls ``didMove(toParent:)`` with nil.
    /// Call `willMove(toParent: nil)` before, and remove the view yourself.
    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Called before the controller is added to (`parent`) or removed from (nil) a
    /// container. The default does nothing.
    open func willMove(toParent parent: ViewController?) {}

    /// Called after the controller was added to (`parent`) or removed from (nil) a
    /// container. The default does nothing.
    open func didMove(toParent parent: ViewController?) {}

    /// The top of the parent chain: the controller that carries out this one's presentations.
    var presentationHost: ViewController {
        var node = self
        while let up = node.parent { node = up }
        return node
    }

    // MARK: Presentation

    /// Presents `viewController` modally, through its transitioning delegate's animator or,
    /// without one, the standard cover-vertical transition. A child controller's
    /// presentation is carried out by the top of its parent chain (which becomes the
    /// `presentingViewController`), as in UIKit.
    /// - Parameters:
    ///   - viewController: the controller to present.
    ///   - animated: false shows it at once (the transition still runs its callbacks); a
    ///     `.custom` presentation then still calls its delegate's animator, with the context's
    ///     `isAnimated` false, to install the views.
    ///   - completion: called after the transition completes.
    /// - Throws: ``TransitionError`` when a transition is in progress, this controller is
    ///   not in a window or already presents one, or `viewController` is already shown
    ///   (presented, in a window, or a child of a container).
    public func present(_ viewController: ViewController, animated: Bool,
                        completion: (@MainActor () -> Void)? = nil) throws {
        TransitionFinishQueue.drain()
        guard let window else { throw TransitionError.notInWindow(name) }
        if let running = window.transitionInProgress {
            throw TransitionError.transitionInProgress(requested: "present \(viewController.name)", running: running.summary)
        }
        let delegate = viewController.transitioningDelegate
        let style = viewController.modalPresentationStyle
        var presenter = style.presentsInContext ? presentationContext : presentationHost
        let vended = style == .custom
            ? delegate?.presentationController(forPresented: viewController, presenting: presenter, source: self) : nil
        if let vended, !vended.shouldPresentInFullscreen { presenter = presentationContext }
        if let presented = presenter.presentedStorage {
            throw TransitionError.alreadyPresenting(presenter: presenter.name, presented: presented.name)
        }
        guard viewController.presentingStorage == nil, viewController.hostWindow == nil, viewController.parent == nil,
              viewController !== presenter else {
            throw TransitionError.alreadyShown(viewController.name)
        }
        let controller = vended ?? PresentationController.standard(for: style, presented: viewController, presenting: presenter)
        controller.presentingViewController = presenter
        // A `.custom` presentation asks its delegate for the animator also when it is not
        // animated, and the animator then sees `isAnimated` false (UIKit's rule); the other
        // styles run no animator then.
        let vendedAnimator = animated || style == .custom
            ? delegate?.animationController(forPresented: viewController, presenting: presenter, source: self) : nil
        let animator = animated ? vendedAnimator ?? viewController.standardTransitionStyle(presenter: presenter, controller: controller)
            .standardAnimator() : vendedAnimator
        // Only for an animation controller the delegate vended, as UIKit (see
        // ViewControllerTransitioningDelegate): the standard transition is never interactive,
        // and neither is one that does not animate.
        let interaction = animated ? vendedAnimator.flatMap { delegate?.interactionControllerForPresentation(using: $0) } : nil
        let containerFrame = controller.shouldPresentInFullscreen ? window.bounds : presenter.view.frameInWindow
        try window.runPresentation(of: viewController, by: presenter, controller: controller, animator: animator,
                                   animated: animated, interaction: interaction, containerFrame: containerFrame,
                                   completion: completion)
    }

    /// The controller a current-context presentation covers: the nearest one up the parent
    /// chain (this one included) whose ``definesPresentationContext`` is true, else the top
    /// of the chain, as UIKit falls back to the root.
    var presentationContext: ViewController {
        var node: ViewController? = self
        while let n = node {
            if n.definesPresentationContext { return n }
            node = n.parent
        }
        return presentationHost
    }

    /// The transition style of this controller's standard presentation and dismissal by
    /// `presenter`: the presentation context's when the presentation is in a context whose
    /// ``providesPresentationContextTransitionStyle`` is true, else its own.
    func standardTransitionStyle(presenter: ViewController, controller: PresentationController?) -> ModalTransitionStyle {
        let inContext = controller.map { !$0.shouldPresentInFullscreen } ?? modalPresentationStyle.presentsInContext
        return inContext && presenter.providesPresentationContextTransitionStyle ? presenter.modalTransitionStyle : modalTransitionStyle
    }

    /// Dismisses the controller this one (or its parent chain) presents or, if none, the
    /// presented controller this one is (or is a child of), as UIKit forwards the call to the
    /// presenter.
    /// - Parameters:
    ///   - animated: false removes it at once (the transition still runs its callbacks); a
    ///     `.custom` dismissal then still calls its delegate's animator, with the context's
    ///     `isAnimated` false.
    ///   - completion: called after the transition completes.
    /// - Throws: ``TransitionError`` when a transition is in progress or there is nothing to dismiss.
    public func dismiss(animated: Bool, completion: (@MainActor () -> Void)? = nil) throws {
        TransitionFinishQueue.drain()
        let target = presentedViewController ?? presentationHost
        guard let presenter = target.presentingStorage, let window else { throw TransitionError.nothingToDismiss(name) }
        if let running = window.transitionInProgress {
            throw TransitionError.transitionInProgress(requested: "dismiss \(target.name)", running: running.summary)
        }
        if let inner = target.presentedStorage {
            throw TransitionError.alreadyPresenting(presenter: target.name, presented: inner.name)
        }
        // As a presentation: a `.custom` dismissal calls its animator also when not animated.
        let vended = animated || target.modalPresentationStyle == .custom
            ? target.transitioningDelegate?.animationController(forDismissed: target) : nil
        let animator = animated
            ? vended ?? target.standardTransitionStyle(presenter: presenter, controller: target.presentationController).standardAnimator()
            : vended
        let interaction = animated ? vended.flatMap { target.transitioningDelegate?.interactionControllerForDismissal(using: $0) } : nil
        try window.runDismissal(of: target, by: presenter, animator: animator, animated: animated, interaction: interaction,
                                completion: completion)
    }
}
