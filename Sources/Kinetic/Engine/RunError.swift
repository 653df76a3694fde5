/// The state of a run (UIKit's `UIViewAnimatingState`, with the same raw values).
package enum RunState: Int, Sendable, CustomStringConvertible {
    /// Not started, or finished: no animations, fraction 0.
    case inactive = 0
    /// Running, paused, or waiting for its delay or its first animations.
    case active = 1
    /// Stopped: its animations removed, waiting for ``LaneEngine/finishAnimation(_:at:)``.
    case stopped = 2

    package var description: String {
        switch self {
        case .inactive: return "inactive"
        case .active: return "active"
        case .stopped: return "stopped"
        }
    }
}

/// An illegal call on a run, or bad input to one. The cases are UIKit's illegal
/// `UIViewAnimating` calls (UIKit raises an exception for them; the engine throws and stays
/// unchanged); the UIKit layer's `AnimatorError` carries each of them with UIKit's message.
package enum RunError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Starting a stopped run.
    case startWhileStopped
    /// Starting a paused run after a delay.
    case startAfterDelayWhilePaused
    /// Pausing a stopped run.
    case pauseWhileStopped
    /// Stopping an inactive run.
    case stopWhileInactive
    /// Stopping a stopped run.
    case stopWhileStopped
    /// Finishing a run that is not stopped (it is in `state`).
    case finishRequiresStopped(state: RunState)
    /// Adding animations to a stopped run.
    case addAnimationsWhileStopped
    /// Continuing a run that is not paused (`state`, and whether it is running).
    case continueRequiresPaused(state: RunState, isRunning: Bool)
    /// An interrupting call (named) on a run that is not interruptible.
    case notInterruptible(call: String)
    /// A configuration (named) set while the run is not inactive.
    case setWhileActive(property: String)
    /// A numeric argument was not acceptable.
    case invalidParameter(ParameterError)

    /// UIKit's message for the call (its exception's reason), or the parameter's.
    package var description: String {
        switch self {
        case .startWhileStopped:
            return "startAnimation: it is a programmer error to start a stopped animator; call finishAnimation(at:) first"
        case .startAfterDelayWhilePaused:
            return "startAnimation(afterDelay:): cannot start a paused animator after a delay; call startAnimation() to resume"
        case .pauseWhileStopped:
            return "pauseAnimation: it is a programmer error to pause a stopped animator"
        case .stopWhileInactive:
            return "stopAnimation: the animator must be in the active state before being stopped (it is inactive)"
        case .stopWhileStopped:
            return "stopAnimation: the animator is already stopped"
        case .finishRequiresStopped(let state):
            return "finishAnimationAtPosition: should only be called on a stopped animator! (it is \(state))"
        case .addAnimationsWhileStopped:
            return "addAnimations: it is a programmer error to add animations to a stopped animator"
        case .continueRequiresPaused(let state, let running):
            return "continueAnimationWithTimingParameters: the animator must be paused (it is \(state)\(running ? ", running" : ""))"
        case .notInterruptible(let call):
            return "\(call): the animator is not interruptible (isInterruptible is false); it runs to completion"
        case .setWhileActive(let property):
            return "\(property) may only be set on an inactive animator"
        case .invalidParameter(let error):
            return error.description
        }
    }
}
