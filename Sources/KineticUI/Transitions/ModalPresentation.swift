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
        if removesPresenter { presented.presenterViewHome = presenter.view.superview }
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

    /// Called by the context when `completeTransition` arrives.
    ///
    /// The window stops waiting for the transition before any appearance callback runs, and
    /// the links (presenter, presented, presentation controller) are final by then, so that a
    /// `viewDidAppear` or `viewDidDisappear` may start the next transition, as in UIKit.
    func finish(_ context: TransitionContext, completed: Bool) {
        if transitionInProgress === context { transitionInProgress = nil }
        if context.isPresentation {
            finishPresentation(context, completed: completed)
        } else {
            finishDismissal(context, completed: completed)
        }
    }

    /// Takes the presented controller's view, and the presentation controller's view that
    /// wraps it (the one the transition retrieved), out of the hierarchy.
    private func removePresentedViews(_ presented: ViewController, _ context: TransitionContext) {
        context.retrievePresentedView()?.removeFromSuperview()
        presented.view.removeFromSuperview()
    }

    /// Ends the link between presenter, presented controller and presentation controller.
    /// The presenter lets go first (``releasePresented(_:from:)``), before the appearance
    /// callbacks, so that its `viewDidAppear` may present again; the presented controller
    /// keeps its link (and so its window) through its own callbacks. Each link is cut only
    /// if a callback has not made a new one meanwhile.
    private func unlink(_ presenter: ViewController, _ presented: ViewController, _ controller: PresentationController?) {
        releasePresented(presented, from: presenter)
        if presented.presentingStorage === presenter { presented.presentingStorage = nil }
        if let controller, presented.presentationController === controller {
            presented.presentationController = nil
            controller.containerView = nil
        }
    }

    private func releasePresented(_ presented: ViewController, from presenter: ViewController) {
        if presenter.presentedStorage === presented { presenter.presentedStorage = nil }
    }

    private func finishPresentation(_ context: TransitionContext, completed: Bool) {
        let presenter = context.fromController, presented = context.toController
        let controller = context.presentationController
        let removesPresenter = context.removesPresentersView
        if completed {
            if removesPresenter {
                if presented.presenterViewHome == nil { presented.presenterViewHome = presenter.view.superview }
                presenter.view.removeFromSuperview()
            }
            controller?.presentationTransitionDidEnd(true)
            presented.endAppearanceTransition()
            if removesPresenter { presenter.endAppearanceTransition() }
        } else {
            // Cancelled: the appearing controller disappears again, the other reappears.
            removePresentedViews(presented, context)
            controller?.presentationTransitionDidEnd(false)
            if removesPresenter {
                // Back where it lived, also when the animator moved it into the container.
                let home = presented.presenterViewHome ?? self
                if presenter.view.superview !== home { home.insertSubview(presenter.view, at: 0) }
                presented.presenterViewHome = nil
            }
            context.containerView.removeFromSuperview()
            releasePresented(presented, from: presenter)
            presented.runAppearanceTransition(false)
            if removesPresenter { presenter.runAppearanceTransition(true) }
            unlink(presenter, presented, controller)
        }
        presented.isBeingPresented = false
    }

    private func finishDismissal(_ context: TransitionContext, completed: Bool) {
        let presented = context.fromController, presenter = context.toController
        let controller = context.presentationController
        let removesPresenter = context.removesPresentersView
        if completed {
            let container = context.containerView
            removePresentedViews(presented, context)
            if removesPresenter {
                // The presenter's view goes back where it lived before the presentation.
                let home = presented.presenterViewHome ?? self
                if presenter.view.superview !== home { home.insertSubview(presenter.view, at: 0) }
                presented.presenterViewHome = nil
            }
            if container !== self { container.removeFromSuperview() }
            controller?.dismissalTransitionDidEnd(true)
            releasePresented(presented, from: presenter)
            if removesPresenter { presenter.endAppearanceTransition() }
            presented.endAppearanceTransition()
            unlink(presenter, presented, controller)
        } else {
            // Cancelled: the controller that was appearing gets viewWillDisappear first,
            // then the one that was disappearing reappears.
            controller?.dismissalTransitionDidEnd(false)
            if removesPresenter {
                presenter.view.removeFromSuperview()
                presenter.runAppearanceTransition(false)
            }
            presented.runAppearanceTransition(true)
        }
        presented.isBeingDismissed = false
    }
}
