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
                if presented.presenterViewHome == nil { presented.presenterViewHome = presenter.view.superview }
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
                let home = presented.presenterViewHome ?? self
                if presenter.view.superview !== home { home.insertSubview(presenter.view, at: 0) }
                presented.presenterViewHome = nil
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
                let home = presented.presenterViewHome ?? self
                if presenter.view.superview !== home { home.insertSubview(presenter.view, at: 0) }
                presented.presenterViewHome = nil
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
