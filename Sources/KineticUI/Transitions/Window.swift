import Kinetic

/// The top of a headless view hierarchy: hosts the root view controller, runs modal
/// transitions on its engine, and records the appearance callbacks it delivers.
@MainActor
public final class Window: View {
    /// The engine the window's transitions animate on.
    public let engine: AnimationEngine
    /// Every appearance callback delivered, in order ("VCMain.viewWillDisappear", …).
    public private(set) var trace: [String] = []
    /// The transition in progress, if any (one whose `completeTransition` was never called
    /// stays here, and blocks new transitions).
    public internal(set) var transitionInProgress: TransitionContext?
    private var rootController: ViewController?

    /// A window of `size` points on `engine`.
    public init(size: Size = Size(width: 390, height: 844), engine: AnimationEngine = .shared) {
        self.engine = engine
        super.init(frame: Rect(origin: .zero, size: size))
        name = "window"
    }

    /// The root controller: setting it installs its view (with appearance callbacks).
    public var rootViewController: ViewController? {
        get { rootController }
        set {
            if let old = rootController {
                old.beginAppearanceTransition(false, animated: false)
                old.view.removeFromSuperview()
                old.endAppearanceTransition()
                old.hostWindow = nil
            }
            rootController = newValue
            guard let root = newValue else { return }
            root.hostWindow = self
            root.beginAppearanceTransition(true, animated: false)
            root.view.frame = bounds
            addSubview(root.view)
            root.endAppearanceTransition()
        }
    }

    /// Forgets the recorded trace.
    public func clearTrace() { trace.removeAll() }

    func record(_ event: String) { trace.append(event) }

    // MARK: Running transitions

    func runPresentation(of presented: ViewController, by presenter: ViewController,
                         animator: (any ViewControllerAnimatedTransitioning)?,
                         interaction: (any ViewControllerInteractiveTransitioning)?,
                         completion: (@MainActor () -> Void)?) throws {
        let style = presented.modalPresentationStyle
        let container = View(frame: bounds)
        container.name = "transition container"
        addSubview(container)
        presenter.presentedViewController = presented
        presented.presentingViewController = presenter
        let context = TransitionContext(
            window: self, container: container, from: presenter, to: presented, isPresentation: true,
            style: style, isAnimated: animator != nil, animator: animator, completion: completion,
            finisher: { [unowned self] in self.finish($0, completed: $1) })
        transitionInProgress = context
        if style.removesPresentingView { presenter.beginAppearanceTransition(false, animated: animator != nil) }
        presented.beginAppearanceTransition(true, animated: animator != nil)
        if try !context.begin(interaction: interaction) {
            container.addSubview(presented.view)
            presented.view.frame = context.finalFrame(for: presented)
            try context.completeTransition(true)
        }
    }

    func runDismissal(of presented: ViewController, by presenter: ViewController,
                      animator: (any ViewControllerAnimatedTransitioning)?,
                      interaction: (any ViewControllerInteractiveTransitioning)?,
                      completion: (@MainActor () -> Void)?) throws {
        let style = presented.modalPresentationStyle
        let container = presented.view.superview ?? self
        let context = TransitionContext(
            window: self, container: container, from: presented, to: presenter, isPresentation: false,
            style: style, isAnimated: animator != nil, animator: animator, completion: completion,
            finisher: { [unowned self] in self.finish($0, completed: $1) })
        transitionInProgress = context
        presented.beginAppearanceTransition(false, animated: animator != nil)
        if style.removesPresentingView { presenter.beginAppearanceTransition(true, animated: animator != nil) }
        if try !context.begin(interaction: interaction) {
            try context.completeTransition(true)
        }
    }

    /// Called by the context when `completeTransition` arrives.
    func finish(_ context: TransitionContext, completed: Bool) {
        let from = context.fromController, to = context.toController
        let style = context.presentationStyle
        if context.isPresentation {
            if completed {
                if style.removesPresentingView {
                    to.presenterViewHome = from.view.superview
                    from.view.removeFromSuperview()
                }
                to.endAppearanceTransition()
                if style.removesPresentingView { from.endAppearanceTransition() }
            } else {
                // Cancelled: the appearing controller disappears again, the other reappears.
                to.view.removeFromSuperview()
                to.runAppearanceTransition(false)
                if style.removesPresentingView {
                    from.runAppearanceTransition(true)
                }
                from.presentedViewController = nil
                to.presentingViewController = nil
                context.containerView.removeFromSuperview()
            }
        } else {
            if completed {
                let container = context.containerView
                from.view.removeFromSuperview()
                if style.removesPresentingView {
                    // The presenter's view goes back where it lived before the presentation.
                    let home = from.presenterViewHome ?? self
                    if to.view.superview !== home { home.insertSubview(to.view, at: 0) }
                    from.presenterViewHome = nil
                }
                if container !== self { container.removeFromSuperview() }
                if style.removesPresentingView { to.endAppearanceTransition() }
                from.endAppearanceTransition()
                to.presentedViewController = nil
                from.presentingViewController = nil
            } else {
                // Cancelled: the controller that was appearing gets viewWillDisappear first,
                // then the one that was disappearing reappears.
                if style.removesPresentingView {
                    to.view.removeFromSuperview()
                    to.runAppearanceTransition(false)
                }
                from.runAppearanceTransition(true)
            }
        }
        if transitionInProgress === context { transitionInProgress = nil }
    }
}
