import Kinetic

/// A navigation transition's direction (`UINavigationController.Operation`).
public enum NavigationOperation: Int, Sendable, CustomStringConvertible {
    case none, push, pop
    public var description: String {
        switch self {
        case .none: return "none"
        case .push: return "push"
        case .pop: return "pop"
        }
    }
}

/// Vends custom animators for a navigation controller (`UINavigationControllerDelegate`).
@MainActor
public protocol NavigationControllerDelegate: AnyObject {
    /// The animator for a push or pop (nil: the standard slide).
    func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                              from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)?
    /// An interaction controller for the animator (nil: not interactive). Asked only when the
    /// method above vended `animationController`, as UIKit does: the standard slide is never
    /// interactive, whatever this returns.
    func navigationController(_ navigationController: NavigationController,
                              interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)?
}

extension NavigationControllerDelegate {
    public func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                     from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
        nil
    }
    public func navigationController(_ navigationController: NavigationController,
                                     interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)? { nil }
}

/// A stack of view controllers (`UINavigationController`): push and pop with the standard
/// horizontal slide or the delegate's animator, and UIKit's appearance order for push and
/// pop (from.viewWillDisappear, to.viewWillAppear, …, from.viewDidDisappear, to.viewDidAppear).
///
/// The stack is the controller's ``ViewController/children``: a push adds the new controller
/// as a child (`willMove(toParent:)` at the start, `didMove(toParent:)` after its
/// `viewDidAppear`); a pop calls `willMove(toParent: nil)` at the start and removes it after
/// its `viewDidDisappear` (`didMove(toParent: nil)`). A cancelled push removes the new child
/// again; a cancelled pop keeps the child and calls `didMove(toParent:)` with the navigation
/// controller (undocumented in UIKit; Kinetic's choice, pinned by its tests). When the
/// navigation controller itself appears or disappears, its top controller gets the same
/// callbacks (see ``ViewController`` on appearance forwarding).
@MainActor
open class NavigationController: ViewController {
    /// The stack, bottom first (the children).
    public var viewControllers: [ViewController] { children }
    /// Vends custom animators (held weakly).
    public weak var delegate: (any NavigationControllerDelegate)?

    /// A navigation controller showing `rootViewController`.
    public init(rootViewController: ViewController, name: String = "NavigationController") {
        super.init(name: name)
        addChild(rootViewController)
        rootViewController.didMove(toParent: self)
    }

    /// The controller on top of the stack.
    public var topViewController: ViewController? { children.last }

    open override func viewDidLoad() {
        if let top = topViewController {
            top.view.frame = view.bounds
            view.addSubview(top.view)
        }
    }

    /// Pushes `viewController` on the stack.
    /// - Throws: ``TransitionError`` when a transition is in progress or the controller is already shown.
    public func pushViewController(_ viewController: ViewController, animated: Bool) throws {
        guard !viewControllers.contains(where: { $0 === viewController }), viewController.presentingStorage == nil,
              viewController.hostWindow == nil, viewController !== self else {
            throw TransitionError.alreadyShown(viewController.name)
        }
        try transition(from: topViewController!, to: viewController, operation: .push, animated: animated)
    }

    /// Pops the top controller (nil when only the root is left).
    /// - Throws: ``TransitionError`` when a transition is in progress.
    @discardableResult
    public func popViewController(animated: Bool) throws -> ViewController? {
        guard viewControllers.count > 1 else { return nil }
        let top = viewControllers[viewControllers.count - 1]
        try transition(from: top, to: viewControllers[viewControllers.count - 2], operation: .pop, animated: animated)
        return top
    }

    private func transition(from: ViewController, to: ViewController, operation: NavigationOperation, animated: Bool) throws {
        if let running = window?.transitionInProgress {
            throw TransitionError.transitionInProgress(requested: "\(operation) \(to.name)", running: running.summary)
        }
        let vended = animated ? delegate?.navigationController(self, animationControllerFor: operation, from: from, to: to) : nil
        let animator = animated ? vended ?? SlideTransition() : nil
        // UIKit asks for an interaction controller only for an animation controller the
        // delegate vended (its `animationController` argument is "the noninteractive animator
        // object provided by the delegate's navigationController(_:animationControllerFor:
        // from:to:) method"): the standard slide is never interactive.
        let interaction = vended.flatMap { delegate?.navigationController(self, interactionControllerFor: $0) }
        let container = view
        if operation == .push {
            addChild(to)
        } else {
            from.willMove(toParent: nil)
        }
        let context = TransitionContext(
            container: container, from: from, to: to, isPresentation: false,
            style: .fullScreen, animator: animator, navigationOperation: operation, completion: nil,
            finisher: { [unowned self] in self.finish($0, completed: $1) })
        window?.transitionInProgress = context
        from.beginAppearanceTransition(false, animated: animated)
        to.beginAppearanceTransition(true, animated: animated)
        if try !context.begin(interaction: interaction) {
            to.view.frame = container.bounds
            container.addSubview(to.view)
            try context.completeTransition(true)
        }
    }

    private func finish(_ context: TransitionContext, completed: Bool) {
        let from = context.fromController, to = context.toController
        let push = context.navigationOperation == .push
        if completed {
            from.view.removeFromSuperview()
            from.endAppearanceTransition()
            to.endAppearanceTransition()
            if push { to.didMove(toParent: self) } else { from.removeFromParent() }
        } else {
            // Cancelled: the appearing controller disappears again, the other reappears.
            to.view.removeFromSuperview()
            to.runAppearanceTransition(false)
            if push {
                to.willMove(toParent: nil)
                to.removeFromParent()
            }
            from.runAppearanceTransition(true)
            if !push { from.didMove(toParent: self) }
        }
        if let window, window.transitionInProgress === context { window.transitionInProgress = nil }
    }
}
