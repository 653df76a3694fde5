import Kinetic

/// The container transition between two child view controllers
/// (`UIViewController.transition(from:to:duration:options:animations:completion:)`).
extension ViewController {
    /// Replaces one child's view by another's, animating the changes `animations` makes.
    ///
    /// `toViewController`'s view is added on top in the superview of `fromViewController`'s,
    /// `animations` runs as a block-based animation of `duration` seconds with `options`
    /// (their curve and the other options), and when it ends `fromViewController`'s view
    /// is removed and `completion` is called with whether the animation ran to its end. When
    /// this controller is in a window, the two children get their appearance callbacks:
    /// `viewWillDisappear` / `viewWillAppear` at the start, `viewDidDisappear` /
    /// `viewDidAppear` at the end (in that order). As in UIKit, the containment calls are the
    /// caller's: typically `from.willMove(toParent: nil)` and `addChild(to)` before, and
    /// `from.removeFromParent()` and `to.didMove(toParent: self)` in `completion`.
    /// - Parameters:
    ///   - fromViewController: the child whose view leaves (its view in a hierarchy).
    ///   - toViewController: the child whose view comes in.
    ///   - duration: seconds, finite and ≥ 0 (0: the changes apply at the next tick).
    ///   - options: the animation's curve and options (the `transition…` options of UIKit
    ///     are not modelled).
    ///   - animations: the changes to animate (nil: none).
    ///   - completion: called with `true` when the animation ran to its end.
    /// - Throws: ``TransitionError/notAChild(child:parent:)`` unless both are children of
    ///   this controller and different, ``TransitionError/notInWindow(_:)`` when
    ///   `fromViewController`'s view is not in a view hierarchy,
    ///   ``AnimatorError/invalidParameter(_:)`` for a bad duration; nothing happens then.
    public func transition(from fromViewController: ViewController, to toViewController: ViewController, duration: Double,
                           options: AnimationOptions = [], animations: (@MainActor () -> Void)?,
                           completion: (@MainActor (Bool) -> Void)? = nil) throws {
        TransitionFinishQueue.drain()
        for child in [fromViewController, toViewController] where child.parent !== self {
            throw TransitionError.notAChild(child: child.name, parent: name)
        }
        guard fromViewController !== toViewController else {
            throw TransitionError.notAChild(child: toViewController.name, parent: "\(name) (the same controller twice)")
        }
        guard let container = fromViewController.view.superview else {
            throw TransitionError.notInWindow(fromViewController.name)
        }
        do { try ParameterError.requireNonNegative(duration, "duration") } catch { throw AnimatorError.invalidParameter(error) }
        let appearance = window != nil
        if appearance {
            fromViewController.beginAppearanceTransition(false, animated: duration > 0)
            toViewController.beginAppearanceTransition(true, animated: duration > 0)
        }
        container.addSubview(toViewController.view)
        try View.animate(withDuration: duration, options: options.union(.overrideInheritedDuration), engine: engine,
                         animations: animations ?? {}) { finished in
            fromViewController.view.removeFromSuperview()
            if appearance {
                fromViewController.endAppearanceTransition()
                toViewController.endAppearanceTransition()
            }
            completion?(finished)
        }
    }
}
