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
    /// The navigation controller is about to show `viewController` (push, pop, a new stack,
    /// or the navigation controller itself appearing): called after `viewController`'s
    /// `viewWillAppear`.
    func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController,
                              animated: Bool)
    /// The navigation controller shows `viewController`: called after its `viewDidAppear`
    /// and, for a push or pop, after the transition has ended (a new transition may start
    /// from here). Not called when an interactive transition is cancelled.
    func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController,
                              animated: Bool)
}

extension NavigationControllerDelegate {
    public func navigationController(_ navigationController: NavigationController, animationControllerFor operation: NavigationOperation,
                                     from fromVC: ViewController, to toVC: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
        nil
    }
    public func navigationController(_ navigationController: NavigationController,
                                     interactionControllerFor animationController: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)? { nil }
    public func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController,
                                     animated: Bool) {}
    public func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController,
                                     animated: Bool) {}
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
///
/// ``viewControllers`` and ``topViewController`` show the stack a transition ends with from
/// its start, as UIKit's do: a popped controller is no longer in `viewControllers` in its
/// own `viewWillDisappear` (the usual test for "I am being popped"), and a pushed one is there
/// in its `viewWillAppear`. A cancelled interactive transition puts them back before the
/// cancellation's callbacks. The children (and so each controller's `parent` and
/// `navigationController`) change at the end, as described above.
///
/// A navigation controller that is in no window (set up before it is shown) changes its
/// stack at once, whatever `animated` says: no transition runs and no controller gets
/// appearance callbacks, only the containment ones; when it is shown, its top appears.
@MainActor
open class NavigationController: ViewController {
    /// The stack, bottom first: the children, or, while a push, pop or stack change runs, the
    /// stack it ends with.
    public var viewControllers: [ViewController] { transitionStack ?? children }
    /// The stack that the transition in progress ends with (nil when none runs).
    private var transitionStack: [ViewController]?
    /// Vends custom animators (held weakly).
    public weak var delegate: (any NavigationControllerDelegate)?

    /// A navigation controller showing `rootViewController`.
    public init(rootViewController: ViewController, name: String = "NavigationController") {
        super.init(name: name)
        addChild(rootViewController)
        rootViewController.didMove(toParent: self)
    }

    /// The controller on top of the stack (of the stack a running transition ends with).
    public var topViewController: ViewController? { viewControllers.last }

    open override func viewDidLoad() {
        if let top = topViewController {
            top.view.frame = view.bounds
            view.addSubview(top.view)
        }
    }

    /// Pushes `viewController` on the stack.
    /// - Throws: ``TransitionError`` when a transition is in progress or the controller is already shown.
    public func pushViewController(_ viewController: ViewController, animated: Bool) throws {
        TransitionFinishQueue.drain()
        guard !viewControllers.contains(where: { $0 === viewController }), viewController.presentingStorage == nil,
              viewController.hostWindow == nil, viewController !== self else {
            throw TransitionError.alreadyShown(viewController.name)
        }
        guard let top = topViewController else {
            // An empty stack (its root removed with `removeFromParent()`): the controller
            // becomes the root, at once.
            try setViewControllers([viewController], animated: false)
            return
        }
        try transition(from: top, to: viewController, operation: .push, animated: animated,
                       joining: [viewController], finalStack: viewControllers + [viewController])
    }

    /// Pops the top controller (nil when only the root is left).
    /// - Throws: ``TransitionError`` when a transition is in progress.
    @discardableResult
    public func popViewController(animated: Bool) throws -> ViewController? {
        TransitionFinishQueue.drain()
        guard viewControllers.count > 1 else { return nil }
        let top = viewControllers[viewControllers.count - 1]
        try transition(from: top, to: viewControllers[viewControllers.count - 2], operation: .pop, animated: animated,
                       leaving: [top], finalStack: Array(viewControllers.dropLast()))
        return top
    }

    /// Pops every controller above the root; returns them, top first (empty when the root is
    /// on top). The transition runs from the top controller to the root; the controllers in
    /// between get `willMove(toParent: nil)` at the start and leave the stack at the end
    /// (`didMove(toParent: nil)`), with no appearance callbacks, as in UIKit.
    /// - Throws: ``TransitionError`` when a transition is in progress.
    @discardableResult
    public func popToRootViewController(animated: Bool) throws -> [ViewController] {
        guard let root = viewControllers.first else { return [] }
        return try popToViewController(root, animated: animated)
    }

    /// Pops the controllers above `viewController`; returns them, top first (empty when it is
    /// on top). See ``popToRootViewController(animated:)`` for the skipped controllers.
    /// - Throws: ``TransitionError/notInStack(_:)`` when `viewController` is not in the
    ///   stack; ``TransitionError`` when a transition is in progress.
    @discardableResult
    public func popToViewController(_ viewController: ViewController, animated: Bool) throws -> [ViewController] {
        TransitionFinishQueue.drain()
        guard let index = viewControllers.firstIndex(where: { $0 === viewController }) else {
            throw TransitionError.notInStack(viewController.name)
        }
        let popped = Array(viewControllers[(index + 1)...].reversed())
        guard let top = popped.first else { return [] }
        try transition(from: top, to: viewController, operation: .pop, animated: animated, leaving: popped,
                       finalStack: Array(viewControllers[...index]))
        return popped
    }

    /// Replaces the stack with `newStack` (bottom first). When the top controller changes,
    /// the transition runs from the old top to the new one: a push when the new top was not
    /// in the stack, a pop when it was. Controllers that join get `willMove(toParent:)` at
    /// the start and `didMove(toParent:)` at the end; controllers that leave get
    /// `willMove(toParent: nil)` and `didMove(toParent: nil)`; only the two tops get
    /// appearance callbacks. When the top stays, the stack changes at once.
    /// - Throws: ``TransitionError/invalidStack(_:)`` for an empty stack or a controller
    ///   listed twice; ``TransitionError/alreadyShown(_:)`` for a controller presented or in
    ///   a window; ``TransitionError`` when a transition is in progress.
    public func setViewControllers(_ newStack: [ViewController], animated: Bool) throws {
        TransitionFinishQueue.drain()
        guard let newTop = newStack.last else { throw TransitionError.invalidStack("the stack cannot be empty") }
        for (i, c) in newStack.enumerated() {
            if newStack[..<i].contains(where: { $0 === c }) { throw TransitionError.invalidStack("\(c.name) is listed twice") }
            let inStack = viewControllers.contains { $0 === c }
            if !inStack, c.presentingStorage != nil || c.hostWindow != nil || c === self { throw TransitionError.alreadyShown(c.name) }
        }
        if let running = window?.transitionInProgress {
            throw TransitionError.transitionInProgress(requested: "setViewControllers", running: running.summary)
        }
        let old = viewControllers
        let joining = newStack.filter { c in !old.contains { $0 === c } }
        let leaving = old.reversed().filter { c in !newStack.contains { $0 === c } }
        guard let oldTop = old.last, newTop !== oldTop else {
            // The top stays (or the stack was empty, its root removed with
            // `removeFromParent()`): no transition, no appearance callbacks.
            changeStackAtOnce(from: old.last, to: newTop, joining: joining, leaving: leaving, finalStack: newStack)
            return
        }
        let operation: NavigationOperation = old.contains { $0 === newTop } ? .pop : .push
        try transition(from: oldTop, to: newTop, operation: operation, animated: animated, joining: joining, leaving: leaving,
                       finalStack: newStack)
    }

    /// A transition from `from` to `to`. `joining` controllers are added to the stack at the
    /// start (for a push, `to` among them), `leaving` ones are told at the start and removed
    /// at the end (for a pop, `from` among them); on completion the stack is `finalStack`,
    /// and a cancelled transition puts everything back.
    private func transition(from: ViewController, to: ViewController, operation: NavigationOperation, animated: Bool,
                            joining: [ViewController] = [], leaving: [ViewController] = [],
                            finalStack: [ViewController]) throws {
        if let running = window?.transitionInProgress {
            throw TransitionError.transitionInProgress(requested: "\(operation) \(to.name)", running: running.summary)
        }
        guard window != nil else {
            changeStackAtOnce(from: from, to: to, joining: joining, leaving: leaving, finalStack: finalStack)
            return
        }
        let vended = animated ? delegate?.navigationController(self, animationControllerFor: operation, from: from, to: to) : nil
        let animator = animated ? vended ?? SlideTransition() : nil
        // UIKit asks for an interaction controller only for an animation controller the
        // delegate vended (its `animationController` argument is "the noninteractive animator
        // object provided by the delegate's navigationController(_:animationControllerFor:
        // from:to:) method"): the standard slide is never interactive.
        let interaction = vended.flatMap { delegate?.navigationController(self, interactionControllerFor: $0) }
        let container = view
        let previousStack = children
        for c in joining { addChild(c) }
        for c in leaving { c.willMove(toParent: nil) }
        transitionStack = finalStack
        let context = TransitionContext(
            container: container, from: from, to: to, isPresentation: false,
            style: .fullScreen, animator: animator, navigationOperation: operation, completion: nil,
            finisher: { [weak self, weak startWindow = window] context, completed in
                // A navigation controller released mid-transition has nothing left to finish.
                self?.finish(context, completed: completed, joining: joining, leaving: leaving, finalStack: finalStack,
                             previousStack: previousStack, animated: animated)
                // The window the transition began in stops waiting for it, also when the
                // navigation controller has left it meanwhile (a new root) or is gone.
                TransitionFinishQueue.enqueue([{
                    if let startWindow, startWindow.transitionInProgress === context { startWindow.transitionInProgress = nil }
                }])
            })
        window?.transitionInProgress = context
        if leaving.contains(where: { $0 === from }) { from.isMovingFromParent = true }
        if joining.contains(where: { $0 === to }) { to.isMovingToParent = true }
        from.beginAppearanceTransition(false, animated: animated)
        to.beginAppearanceTransition(true, animated: animated)
        delegate?.navigationController(self, willShow: to, animated: animated)
        do {
            if try !context.begin(interaction: interaction) {
                to.view.frame = container.bounds
                container.addSubview(to.view)
                try context.completeTransition(true)
            }
        } catch {
            // The animator (user code) threw: the transition stays in progress, as the
            // animator left it, but the stack reads as its children again until it ends.
            if window?.transitionInProgress === context { transitionStack = nil }
            throw error
        }
    }

    /// A stack change made at once, with no transition and no appearance callbacks: the top
    /// stays, or the stack was empty, or the navigation controller is in no window (as UIKit
    /// makes it then: its views are in no window; shown later, its top appears as usual). The
    /// containment callbacks run, and a new top's view (`to` other than `from`, the old top
    /// or nil) replaces the old one's if the navigation controller's view is loaded.
    private func changeStackAtOnce(from: ViewController?, to: ViewController, joining: [ViewController],
                                   leaving: [ViewController], finalStack: [ViewController]) {
        for c in leaving { c.willMove(toParent: nil) }
        for c in joining { addChild(c) }
        if isViewLoaded, from !== to {
            if let from, from.isViewLoaded, from.view.superview === view { from.view.removeFromSuperview() }
            to.view.frame = view.bounds
            view.addSubview(to.view)
        }
        children = finalStack
        for c in leaving { c.removeFromParent() }
        for c in joining { c.didMove(toParent: self) }
    }

    /// The end of a transition: the views change at once; the callbacks and the stack's
    /// bookkeeping are queued as steps (``TransitionFinishQueue``), so that a transition one
    /// of them starts first runs the rest and sees the final stack.
    private func finish(_ context: TransitionContext, completed: Bool, joining: [ViewController], leaving: [ViewController],
                        finalStack: [ViewController], previousStack: [ViewController], animated: Bool) {
        let from = context.fromController, to = context.toController
        var steps: [@MainActor () -> Void] = []
        if completed {
            from.view.removeFromSuperview()
            steps.append { from.endAppearanceTransition() }
            steps.append { to.endAppearanceTransition() }
            steps.append { [weak self] in
                guard let self else { return }
                // A callback may have moved a controller meanwhile (`addChild` elsewhere):
                // only this controller's own are told and kept.
                for c in joining where c.parent === self { c.didMove(toParent: self) }
                for c in leaving where c.parent === self { c.removeFromParent() }
                children = finalStack.filter { $0.parent === self }
            }
        } else {
            // Cancelled: the stack is the old one again, the appearing controller disappears
            // again, the other reappears.
            transitionStack = previousStack
            to.view.removeFromSuperview()
            steps += TransitionFinishQueue.appearanceSteps(of: to, appearing: false)
            steps.append { [weak self] in
                for c in joining where c.parent === self {
                    c.willMove(toParent: nil)
                    c.removeFromParent()
                }
            }
            steps += TransitionFinishQueue.appearanceSteps(of: from, appearing: true)
            steps.append { [weak self] in
                guard let self else { return }
                for c in leaving where c.parent === self { c.didMove(toParent: self) }
                children = previousStack.filter { $0.parent === self }
            }
        }
        steps.append { [weak self] in
            guard let self else { return }
            transitionStack = nil
            from.isMovingFromParent = false
            to.isMovingToParent = false
            if let window, window.transitionInProgress === context { window.transitionInProgress = nil }
        }
        if completed {
            steps.append { [weak self] in
                guard let self else { return }
                delegate?.navigationController(self, didShow: to, animated: animated)
            }
        }
        TransitionFinishQueue.enqueue(steps)
    }

    // MARK: Appearing

    /// The navigation controller itself appears: its delegate is told it shows the top
    /// controller (after the top's `viewWillAppear`, and after its `viewDidAppear`).
    override func appearanceDidBegin(_ isAppearing: Bool, animated: Bool) {
        guard isAppearing, let top = topViewController else { return }
        appearingAnimated = animated
        delegate?.navigationController(self, willShow: top, animated: animated)
    }

    override func appearanceDidEnd(_ isAppearing: Bool) {
        guard isAppearing, let top = topViewController else { return }
        delegate?.navigationController(self, didShow: top, animated: appearingAnimated)
    }

    /// Whether the navigation controller's own appearance is animated (for `didShow`).
    private var appearingAnimated = false
}
