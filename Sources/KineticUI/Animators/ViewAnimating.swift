/// The state of an animator (`UIViewAnimatingState`).
public enum ViewAnimatingState: Int, Sendable, CustomStringConvertible {
    /// Not executing: freshly made, or finished. Configuration may change.
    case inactive = 0
    /// Executing: running, paused, or waiting for its delay.
    case active = 1
    /// Stopped by `stopAnimation(false)`: its animations are gone and the properties hold
    /// the last rendered values; only `finishAnimation(at:)` moves it on.
    case stopped = 2

    public var description: String {
        switch self {
        case .inactive: return "inactive"
        case .active: return "active"
        case .stopped: return "stopped"
        }
    }
}

/// Where an animation ended (`UIViewAnimatingPosition`), as passed to completion handlers.
public enum ViewAnimatingPosition: Int, Sendable, CustomStringConvertible {
    /// At the end values (a forward run that finished).
    case end = 0
    /// At the start values (a reversed run that finished, or finished at `.start`).
    case start = 1
    /// Wherever the animation was when it was finished.
    case current = 2

    public var description: String {
        switch self {
        case .end: return "end"
        case .start: return "start"
        case .current: return "current"
        }
    }
}

/// The control surface of an interruptible animation (`UIViewAnimating`).
///
/// Calls that UIKit forbids in the current state throw ``AnimatorError``.
@MainActor
public protocol ViewAnimating: AnyObject {
    /// Inactive, active or stopped.
    var state: ViewAnimatingState { get }
    /// Whether time is advancing the animation (always `state == .active` when true).
    var isRunning: Bool { get }
    /// Whether the animation runs back towards its start values.
    var isReversed: Bool { get set }
    /// Progress through the animation's time, 0 (start) to 1 (end). Setting it scrubs a
    /// paused animator; see the adopter for the details.
    var fractionComplete: Double { get set }
    /// Starts, or resumes a paused animation.
    func startAnimation() throws
    /// Starts after `delay` seconds.
    func startAnimation(afterDelay delay: Double) throws
    /// Pauses (an inactive animator becomes active and paused).
    func pauseAnimation() throws
    /// Stops: `true` → inactive at once, no completion; `false` → stopped, awaiting
    /// `finishAnimation(at:)`.
    func stopAnimation(_ withoutFinishing: Bool) throws
    /// Finishes a stopped animation at `finalPosition` and calls the completion handlers.
    func finishAnimation(at finalPosition: ViewAnimatingPosition) throws
}

/// An animator whose animations come from blocks that set view properties
/// (`UIViewImplicitlyAnimating`).
@MainActor
public protocol ViewImplicitlyAnimating: ViewAnimating {
    /// Adds an animations block (see the adopter for timing rules).
    func addAnimations(_ animation: @escaping @MainActor () -> Void) throws
    /// Adds an animations block that starts `delayFactor` of the duration later.
    func addAnimations(_ animation: @escaping @MainActor () -> Void, delayFactor: Double) throws
    /// Adds a completion handler, called with the final position.
    func addCompletion(_ completion: @escaping @MainActor (ViewAnimatingPosition) -> Void)
    /// Resumes a paused animator with new timing.
    func continueAnimation(withTimingParameters parameters: (any TimingCurveProvider)?, durationFactor: Double) throws
}
