import Kinetic

/// The transition options of block-based animations (`UIView.AnimationOptions`), for
/// ``View/transition(with:duration:options:engine:animations:completion:)`` and
/// ``View/transition(from:to:duration:options:engine:completion:)``.
extension AnimationOptions {
    /// In `transition(from:to:…)`: hide the old view and show the new one instead of
    /// removing and adding them.
    public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
    /// In `transition(with:…)`: animate the property changes of the block too (otherwise they
    /// apply at once and only the transition animates).
    public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 9)
    /// No transition effect (the default).
    public static let transitionNone = AnimationOptions([])
    /// UIKit flips around the vertical axis from the left; headless: a cross-dissolve.
    public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
    /// UIKit flips around the vertical axis from the right; headless: a cross-dissolve.
    public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
    /// UIKit curls the old content up; headless: a cross-dissolve.
    public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
    /// UIKit curls the new content down; headless: a cross-dissolve.
    public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
    /// Dissolves the old content into the new.
    public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    /// UIKit flips around the horizontal axis from the top; headless: a cross-dissolve.
    public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
    /// UIKit flips around the horizontal axis from the bottom; headless: a cross-dissolve.
    public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

    /// Whether one of the `transition…` effects is set.
    var hasTransition: Bool { (rawValue >> 20) & 7 != 0 }
}

extension View {
    /// Animates a change of `view`'s content (`UIView.transition(with:duration:options:…)`):
    /// the old content, as a snapshot of what the frame shows, dissolves into the new one
    /// over `duration` seconds along the options' curve. The changes `animations` makes apply
    /// at once (with `.allowAnimatedContent`, they animate as well). UIKit's 3D flips and curls
    /// are cross-dissolves headless. Without a `transition…` option this is
    /// ``animate(withDuration:delay:options:engine:animations:completion:)``.
    /// - Parameters:
    ///   - view: the view whose content changes.
    ///   - duration: seconds, finite and ≥ 0.
    ///   - options: a `transition…` effect, the curve, and `.allowAnimatedContent`.
    ///   - engine: the engine that runs it.
    ///   - animations: makes the changes.
    ///   - completion: called with `true` when the transition ran to its end.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for a bad duration; nothing changes then.
    public static func transition(with view: View, duration: Double, options: AnimationOptions = [],
                                  engine: AnimationEngine = .shared, animations: (@MainActor () -> Void)?,
                                  completion: (@MainActor (Bool) -> Void)? = nil) throws {
        do { try ParameterError.requireNonNegative(duration, "duration") } catch { throw AnimatorError.invalidParameter(error) }
        guard options.hasTransition else {
            return try animate(withDuration: duration, options: options, engine: engine, animations: animations ?? {},
                               completion: completion)
        }
        let snapshot = view.snapshotView(afterScreenUpdates: false)
        if options.contains(.allowAnimatedContent) {
            try animate(withDuration: duration, options: options, engine: engine, animations: animations ?? {})
        } else {
            performWithoutAnimation { animations?() }
        }
        try dissolve(snapshot, over: view, duration: duration, options: options, engine: engine, completion: completion)
    }

    /// Replaces `fromView` by `toView` with a transition (`UIView.transition(from:to:…)`):
    /// `toView` takes `fromView`'s place among its superview's subviews and `fromView` is
    /// removed (with `.showHideTransitionViews`: `fromView` is hidden and `toView` shown,
    /// both staying), while a snapshot of what `fromView` showed dissolves away over
    /// `duration` seconds. UIKit's 3D flips and curls are cross-dissolves headless; without a
    /// `transition…` option the change is immediate and the completion comes at the next tick.
    /// - Parameters:
    ///   - fromView: the view to replace (in a superview).
    ///   - toView: the view that takes its place.
    ///   - duration: seconds, finite and ≥ 0.
    ///   - options: a `transition…` effect, the curve, and `.showHideTransitionViews`.
    ///   - engine: the engine that runs it.
    ///   - completion: called with `true` when the transition ran to its end.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for a bad duration; nothing changes then.
    public static func transition(from fromView: View, to toView: View, duration: Double, options: AnimationOptions = [],
                                  engine: AnimationEngine = .shared, completion: (@MainActor (Bool) -> Void)? = nil) throws {
        do { try ParameterError.requireNonNegative(duration, "duration") } catch { throw AnimatorError.invalidParameter(error) }
        let snapshot = fromView.snapshotView(afterScreenUpdates: false)
        if options.contains(.showHideTransitionViews) {
            fromView.isHidden = true
            toView.isHidden = false
        } else if let superview = fromView.superview {
            if toView.superview !== superview {
                superview.insertSubview(toView, aboveSubview: fromView)
            }
            fromView.removeFromSuperview()
        }
        guard options.hasTransition else {
            return try animate(withDuration: 0, engine: engine, animations: {}, completion: completion)
        }
        try dissolve(snapshot, over: toView, duration: duration, options: options, engine: engine, completion: completion)
    }

    /// Puts `snapshot` above `view` and fades it out, then removes it.
    private static func dissolve(_ snapshot: View, over view: View, duration: Double, options: AnimationOptions,
                                 engine: AnimationEngine, completion: (@MainActor (Bool) -> Void)?) throws {
        view.superview?.insertSubview(snapshot, aboveSubview: view)
        try animate(withDuration: duration, options: options.subtracting([.repeat, .autoreverse]), engine: engine,
                    animations: { snapshot.alpha = 0 }) { finished in
            snapshot.removeFromSuperview()
            completion?(finished)
        }
    }
}
