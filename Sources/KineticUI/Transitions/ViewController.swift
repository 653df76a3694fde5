import Kinetic

/// A headless view controller (`UIViewController`): a lazily loaded view, the lifecycle
/// callbacks, appearance transitions, and modal presentation through
/// ``present(_:animated:completion:)`` / ``dismiss(animated:completion:)``.
///
/// Override the `view…` callbacks to observe the lifecycle (calling `super` is not needed:
/// the defaults do nothing). The window records every appearance callback it delivers in
/// ``Window/trace``, in order.
@MainActor
open class ViewController {
    /// A name for traces ("VCMain", "VCYellow"…).
    public var name: String
    private var loadedView: View?
    private var appearing: Bool?

    /// How the controller is shown when presented.
    public var modalPresentationStyle: ModalPresentationStyle = .fullScreen
    /// Vends custom animators for presenting and dismissing this controller (held weakly,
    /// as in UIKit).
    public weak var transitioningDelegate: (any ViewControllerTransitioningDelegate)?
    /// The controller this one presents, if any.
    public internal(set) var presentedViewController: ViewController?
    /// The controller that presented this one, if any.
    public internal(set) weak var presentingViewController: ViewController?
    /// The container controller this one is a child of (a navigation controller's stack).
    public internal(set) weak var parent: ViewController?
    /// The window, for the root controller (found through the parent and presenting chains for others).
    weak var hostWindow: Window?
    /// Where the presenter's view lived before a full-screen presentation removed it.
    weak var presenterViewHome: View?

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
            node = n.parent ?? n.presentingViewController
        }
        return nil
    }

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

    /// Starts an appearance transition: `viewWillAppear` (`true`) or `viewWillDisappear`
    /// (`false`). Calling it again with the opposite flag before the end cancels the first
    /// (UIKit's way of cancelling).
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        appearing = isAppearing
        window?.record("\(name).\(isAppearing ? "viewWillAppear" : "viewWillDisappear")")
        if isAppearing {
            _ = view
            viewWillAppear(animated)
        } else {
            viewWillDisappear(animated)
        }
    }

    /// Ends the appearance transition begun last: `viewDidAppear` or `viewDidDisappear`
    /// (with `viewDidLayoutSubviews` before an appearance). Unbalanced calls are ignored.
    public func endAppearanceTransition() {
        guard let isAppearing = appearing else { return }
        appearing = nil
        if isAppearing {
            view.layoutIfNeeded()
            window?.record("\(name).viewDidLayoutSubviews")
            viewDidLayoutSubviews()
            window?.record("\(name).viewDidAppear")
            viewDidAppear(true)
        } else {
            window?.record("\(name).viewDidDisappear")
            viewDidDisappear(true)
        }
    }

    /// A whole appearance transition at once (begin, then end): how a cancelled transition
    /// turns the controllers round.
    func runAppearanceTransition(_ isAppearing: Bool) {
        beginAppearanceTransition(isAppearing, animated: true)
        endAppearanceTransition()
    }

    // MARK: Presentation

    /// Presents `viewController` modally, through its transitioning delegate's animator or,
    /// without one, the standard cover-vertical transition.
    /// - Parameters:
    ///   - animated: false shows it at once (the transition still runs its callbacks).
    ///   - completion: called after the transition completes.
    /// - Throws: ``TransitionError`` when a transition is in progress, this controller is
    ///   not in a window or already presents one, or `viewController` is already shown.
    public func present(_ viewController: ViewController, animated: Bool,
                        completion: (@MainActor () -> Void)? = nil) throws {
        guard let window else { throw TransitionError.notInWindow(name) }
        if let running = window.transitionInProgress {
            throw TransitionError.transitionInProgress(requested: "present \(viewController.name)", running: running.summary)
        }
        if let presented = presentedViewController {
            throw TransitionError.alreadyPresenting(presenter: name, presented: presented.name)
        }
        guard viewController.presentingViewController == nil, viewController.hostWindow == nil, viewController !== self else {
            throw TransitionError.alreadyShown(viewController.name)
        }
        let animator = animated
            ? viewController.transitioningDelegate?.animationController(forPresented: viewController, presenting: self, source: self)
                ?? CoverVerticalTransition()
            : nil
        let interaction = animator.flatMap { viewController.transitioningDelegate?.interactionControllerForPresentation(using: $0) }
        try window.runPresentation(of: viewController, by: self, animator: animator, interaction: interaction,
                                   completion: completion)
    }

    /// Dismisses the controller this one presents or, if it presents none, this controller
    /// itself (as UIKit forwards the call to the presenter).
    /// - Throws: ``TransitionError`` when a transition is in progress or there is nothing to dismiss.
    public func dismiss(animated: Bool, completion: (@MainActor () -> Void)? = nil) throws {
        let target = presentedViewController ?? self
        guard let presenter = target.presentingViewController, let window else { throw TransitionError.nothingToDismiss(name) }
        if let running = window.transitionInProgress {
            throw TransitionError.transitionInProgress(requested: "dismiss \(target.name)", running: running.summary)
        }
        if let inner = target.presentedViewController {
            throw TransitionError.alreadyPresenting(presenter: target.name, presented: inner.name)
        }
        let animator = animated
            ? target.transitioningDelegate?.animationController(forDismissed: target) ?? CoverVerticalTransition()
            : nil
        let interaction = animator.flatMap { target.transitioningDelegate?.interactionControllerForDismissal(using: $0) }
        try window.runDismissal(of: target, by: presenter, animator: animator, interaction: interaction, completion: completion)
    }
}
