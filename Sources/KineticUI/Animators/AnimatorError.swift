import Kinetic

/// An illegal call on an animator, or bad input to one. Messages use UIKit's words where
/// UIKit has them (UIKit raises `NSInternalInconsistencyException` for these; Kinetic
/// throws instead).
public enum AnimatorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `startAnimation()` on a stopped animator.
    case startWhileStopped
    /// `startAnimation(afterDelay:)` on a paused animator (UIKit raises here, observed on device).
    case startAfterDelayWhilePaused
    /// `pauseAnimation()` on a stopped animator.
    case pauseWhileStopped
    /// `stopAnimation(_:)` on an inactive animator.
    case stopWhileInactive
    /// `stopAnimation(_:)` on an animator that is already stopped.
    case stopWhileStopped
    /// `finishAnimation(at:)` on an animator that is not stopped.
    case finishRequiresStopped(state: ViewAnimatingState)
    /// `addAnimations` on a stopped animator.
    case addAnimationsWhileStopped
    /// `continueAnimation` on an animator that is not paused (`state` and `isRunning` say what it was).
    case continueRequiresPaused(state: ViewAnimatingState, isRunning: Bool)
    /// A call that interrupts (`pauseAnimation`, `stopAnimation`, `continueAnimation`,
    /// reversing while running) on an animator whose `isInterruptible` is false.
    case notInterruptible(call: String)
    /// A configuration property set while the animator is not inactive.
    case setWhileActive(property: String)
    /// A state-changing call made from inside the animator's own completion handlers
    /// (UIKit's private "completing" state).
    case callDuringCompletion(call: String)
    /// An animator was released while paused or stopped.
    case releasedWhilePausedOrStopped
    /// A numeric argument was not acceptable.
    case invalidParameter(ParameterError)
    /// `View.addKeyframe` called outside an `animateKeyframes` animations block.
    case keyframeOutsideAnimateKeyframes
    /// `View.modifyAnimations(withRepeatCount:autoreverses:animations:)` called outside the
    /// animations block of a block-based animation.
    case modifyAnimationsOutsideAnimationBlock
    /// A property already carries 65,535 live animations (the engine's limit per lane).
    case tooManyAnimations(view: String, property: String)
    /// A view animated by one engine was handed to an animator of another engine.
    case viewBoundToAnotherEngine(view: String)

    public var description: String {
        switch self {
        case .startWhileStopped: return RunError.startWhileStopped.description
        case .startAfterDelayWhilePaused: return RunError.startAfterDelayWhilePaused.description
        case .pauseWhileStopped: return RunError.pauseWhileStopped.description
        case .stopWhileInactive: return RunError.stopWhileInactive.description
        case .stopWhileStopped: return RunError.stopWhileStopped.description
        case .finishRequiresStopped(let state): return RunError.finishRequiresStopped(state: RunState(state)).description
        case .addAnimationsWhileStopped: return RunError.addAnimationsWhileStopped.description
        case .continueRequiresPaused(let state, let running):
            return RunError.continueRequiresPaused(state: RunState(state), isRunning: running).description
        case .notInterruptible(let call): return RunError.notInterruptible(call: call).description
        case .setWhileActive(let property): return RunError.setWhileActive(property: property).description
        case .callDuringCompletion(let call):
            return "\(call): not allowed while the animator is calling its completion handlers"
        case .releasedWhilePausedOrStopped:
            return "It is an error to release a paused or stopped property animator. Property animators must either finish animating or be explicitly stopped and finished before they can be released."
        case .invalidParameter(let error):
            return error.description
        case .modifyAnimationsOutsideAnimationBlock:
            return "modifyAnimations(withRepeatCount:autoreverses:animations:) must be called inside the animations block of a block-based animation"
        case .keyframeOutsideAnimateKeyframes:
            return "addKeyframe(withRelativeStartTime:relativeDuration:animations:) must be called inside an animateKeyframes animations block"
        case .tooManyAnimations(let view, let property):
            return "\(property) of view \(view) already has 65,535 running animations"
        case .viewBoundToAnotherEngine(let view):
            return "view \(view) is animated by another AnimationEngine"
        }
    }
}

/// Something wrong that could not be thrown (a property setter, a release), reported
/// instead of crashing.
public enum Diagnostic: Equatable, Sendable, CustomStringConvertible {
    /// A non-finite value was written to a view property; the write was ignored.
    case nonFiniteValue(view: String?, property: String)
    /// An illegal call or setter; it had no effect.
    case illegalCall(AnimatorError)

    public var description: String {
        switch self {
        case .nonFiniteValue(let view, let property):
            return "ignored a non-finite value written to \(property) of view \(view ?? "(unnamed)")"
        case .illegalCall(let error):
            return error.description
        }
    }
}

/// Where ``Diagnostic``s go: the most recent ones are kept in ``recent``; a ``handler`` may
/// also receive each (tests and hosts install one). Without a handler, each is printed to
/// standard error.
@MainActor
public enum Diagnostics {
    /// Receives every diagnostic as it is reported.
    public static var handler: ((Diagnostic) -> Void)?
    /// The last (at most 100) diagnostics, oldest first.
    public private(set) static var recent: [Diagnostic] = []

    /// Forgets the recorded diagnostics.
    public static func clear() { recent.removeAll() }

    static func report(_ diagnostic: Diagnostic) {
        if recent.count == 100 { recent.removeFirst() }
        recent.append(diagnostic)
        if let handler {
            handler(diagnostic)
        } else {
            var line = "kinetic: \(diagnostic)\n"
            _ = line.withUTF8 { writeAll(UnsafeRawBufferPointer($0), toDescriptor: 2) }
        }
    }
}

