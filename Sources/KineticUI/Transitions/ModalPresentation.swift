import Kinetic

/// The modal presentation runner: a window presents and dismisses view controllers (with
/// their presentation controllers, appearance callbacks and UIKit's order of events) by
/// running a `TransitionContext` in a container view of its own.
extension Window {
    func runPresentation(of presented: ViewController, by presenter: ViewController, controller: PresentationController,
                         animator: (any ViewControllerAnimatedTransitioning)?, animated: Bool,
                         interaction: (any ViewControllerInteractiveTransitioning)?, containerFrame: Rect,
                         completion: (@MainActor () -> Void)?) throws {
        let container = PresentationContainerView(frame: containerFrame)
        container.name = "transition container"
        container.presentationController = controller
        addSubview(container)
        controller.containerView = container
        presented.presentationController = controller
        presenter.presentedStorage = presented
        presented.presentingStorage = presenter
        let context = TransitionContext(
            container: container, from: presenter, to: presented, isPresentation: true,
            style: presented.modalPresentationStyle, presentationController: controller, animator: animator,
            animated: animated, completion: completion, finisher: { [weak self] in self?.finish($0, completed: $1) })
        transitionInProgress = context
        presented.isBeingPresented = true
        let removesPresenter = context.removesPresentersView
        // Where the presenter's view lives now, before an animator may move it into the
        // container: it goes back there when the presentation is cancelled or dismissed.
        if removesPresenter { presented.presenterViewPlace = PresenterViewPlace(of: presenter.view) }
        if removesPresenter { presenter.beginAppearanceTransition(false, animated: animated) }
        presented.beginAppearanceTransition(true, animated: animated)
        controller.presentationTransitionWillBegin()
        let presentedView = context.retrievePresentedView()
        let animates = try context.begin(interaction: interaction)
        if !animates, let view = presentedView {
            container.addSubview(view)
            view.frame = context.finalFrame(for: presented)
        }
        if !context.isCompleted {
            container.setNeedsLayout()
            container.layoutIfNeeded()
        }
        if !animates, !context.isCompleted { try context.completeTransition(true) }
    }

    func runDismissal(of presented: ViewController, by presenter: ViewController,
                      animator: (any ViewControllerAnimatedTransitioning)?, animated: Bool,
                      interaction: (any ViewControllerInteractiveTransitioning)?,
                      completion: (@MainActor () -> Void)?) throws {
        let controller = presented.presentationController
        let container = controller?.containerView ?? presented.view.superview ?? self
        let context = TransitionContext(
            container: container, from: presented, to: presenter, isPresentation: false,
            style: presented.modalPresentationStyle, presentationController: controller, animator: animator,
            animated: animated, completion: completion, finisher: { [weak self] in self?.finish($0, completed: $1) })
        transitionInProgress = context
        presented.isBeingDismissed = true
        presented.beginAppearanceTransition(false, animated: animated)
        if context.removesPresentersView { presenter.beginAppearanceTransition(true, animated: animated) }
        controller?.dismissalTransitionWillBegin()
        context.retrievePresentedView()
        // No layout pass here (unlike a presentation, nothing is added to the container): a
        // presentation controller that puts the presented view back at its frame in
        // `containerViewWillLayoutSubviews` would otherwise fight the dismissal's animation.
        let animates = try context.begin(interaction: interaction)
        if !animates, !context.isCompleted { try context.completeTransition(true) }
    }

    /// Called by the context when `completeTransition` arrives: the view hierarchy changes at
    /// once; the callbacks and the bookkeeping after them are queued as steps
    /// (``TransitionFinishQueue``), which the context then runs.
    func finish(_ context: TransitionContext, completed: Bool) {
        var steps: [@MainActor () -> Void] = []
        if context.isPresentation {
            finishPresentation(context, completed: completed, steps: &steps)
        } else {
            finishDismissal(context, completed: completed, steps: &steps)
        }
        steps.append { [weak self] in
            if let self, self.transitionInProgress === context { self.transitionInProgress = nil }
        }
        TransitionFinishQueue.enqueue(steps)
    }

    /// Takes the presented controller's view, and the presentation controller's view that
    /// wraps it (the one the transition retrieved), out of the hierarchy.
    private func removePresentedViews(_ presented: ViewController, _ context: TransitionContext) {
        context.retrievePresentedView()?.removeFromSuperview()
        presented.view.removeFromSuperview()
    }

    /// Puts the presenter's view back where it lived before `presented` removed it (see
    /// ``PresenterViewPlace``), or at the back of the window when that place is gone.
    private func putBack(_ view: View, from presented: ViewController) {
        if let place = presented.presenterViewPlace, place.home != nil {
            place.restore(view)
        } else if view.superview !== self {
            insertSubview(view, at: 0)
        }
        presented.presenterViewPlace = nil
    }

    /// Ends the link between presenter, presented controller and presentation controller.
    private static func unlink(_ presenter: ViewController, _ presented: ViewController, _ controller: PresentationController?) {
        presenter.presentedStorage = nil
        presented.presentingStorage = nil
        presented.presentationController = nil
        controller?.containerView = nil
    }

    private func finishPresentation(_ context: TransitionContext, completed: Bool, steps: inout [@MainActor () -> Void]) {
        let presenter = context.fromController, presented = context.toController
        let controller = context.presentationController
        let removesPresenter = context.removesPresentersView
        if completed {
            if removesPresenter {
                if presented.presenterViewPlace == nil { presented.presenterViewPlace = PresenterViewPlace(of: presenter.view) }
                presenter.view.removeFromSuperview()
            }
            steps.append { controller?.presentationTransitionDidEnd(true) }
            steps.append { presented.endAppearanceTransition() }
            if removesPresenter { steps.append { presenter.endAppearanceTransition() } }
        } else {
            // Cancelled: the appearing controller disappears again, the other reappears.
            removePresentedViews(presented, context)
            steps.append { controller?.presentationTransitionDidEnd(false) }
            steps += TransitionFinishQueue.appearanceSteps(of: presented, appearing: false)
            if removesPresenter {
                // Back where it lived, also when the animator moved it into the container.
                putBack(presenter.view, from: presented)
                steps += TransitionFinishQueue.appearanceSteps(of: presenter, appearing: true)
            }
            steps.append {
                Self.unlink(presenter, presented, controller)
                context.containerView.removeFromSuperview()
            }
        }
        steps.append { presented.isBeingPresented = false }
    }

    private func finishDismissal(_ context: TransitionContext, completed: Bool, steps: inout [@MainActor () -> Void]) {
        let presented = context.fromController, presenter = context.toController
        let controller = context.presentationController
        let removesPresenter = context.removesPresentersView
        if completed {
            let container = context.containerView
            removePresentedViews(presented, context)
            if removesPresenter {
                // The presenter's view goes back where it lived before the presentation.
                putBack(presenter.view, from: presented)
            }
            if container !== self { container.removeFromSuperview() }
            steps.append { controller?.dismissalTransitionDidEnd(true) }
            if removesPresenter { steps.append { presenter.endAppearanceTransition() } }
            steps.append { presented.endAppearanceTransition() }
            steps.append { Self.unlink(presenter, presented, controller) }
        } else {
            // Cancelled: the controller that was appearing gets viewWillDisappear first,
            // then the one that was disappearing reappears.
            steps.append { controller?.dismissalTransitionDidEnd(false) }
            if removesPresenter {
                presenter.view.removeFromSuperview()
                steps += TransitionFinishQueue.appearanceSteps(of: presenter, appearing: false)
            }
            steps += TransitionFinishQueue.appearanceSteps(of: presented, appearing: true)
        }
        steps.append { presented.isBeingDismissed = false }
    }
}

/// Where a presenter's view lived before a presentation that removes it (full screen, current
/// context): its superview, its place among that superview's subviews and its centre and
/// bounds, which it gets back when the presentation is dismissed or cancelled. An animator may
/// have moved the view into the transition's container and framed it there; a context's view
/// (`.currentContext`, a child's view inside its parent) then returns beside its siblings at
/// its own frame, not at the container's (its transform, which the animator owns, is kept).
struct PresenterViewPlace {
    /// The superview (weak: the place does not keep a view tree alive).
    weak var home: View?
    /// The subview just above the view, if any: the view goes back below it.
    weak var above: View?
    /// The view's index among the home's subviews, where `above` is gone.
    let index: Int
    /// The view's centre and bounds (its frame, without a transform's effect: a scaled
    /// presenter keeps its scale and comes back at its size).
    let center: Point
    let bounds: Rect

    /// The place of `view` now; nil when it has no superview.
    @MainActor
    init?(of view: View) {
        guard let home = view.superview, let index = home.subviews.firstIndex(where: { $0 === view }) else { return nil }
        self.home = home
        above = index + 1 < home.subviews.count ? home.subviews[index + 1] : nil
        self.index = index
        center = view.center
        bounds = view.bounds
    }

    /// Puts `view` back in its place, at its centre and bounds.
    @MainActor
    func restore(_ view: View) {
        guard let home else { return }
        if let above, above.superview === home, above !== view {
            home.insertSubview(view, belowSubview: above)
        } else if view.superview !== home {
            home.insertSubview(view, at: index)
        }
        view.center = center
        view.bounds = bounds
    }
}
