import Kinetic

/// An interruptible, scrubbable, reversible animator of view properties
/// (`UIViewPropertyAnimator`), evaluated by an ``AnimationEngine``.
///
/// Port UIKit code by dropping the `UI` prefix and adding `try` where a call can be
/// illegal. The differences, all deliberate:
/// - Illegal calls throw ``AnimatorError`` (UIKit raises an exception); illegal property
///   sets have no effect and are reported through ``Diagnostics``.
/// - Releasing a paused or stopped animator is reported through ``Diagnostics`` (UIKit
///   crashes); its animations stay where they were (as `finishAnimation(at: .current)`).
/// - The ``AnimationEngine`` plays UIKit's window: a running animator is kept by its engine
///   and does not keep the engine; when the host lets go of the engine, its running
///   animators end inactive without calling their completion handlers, and the views show
///   their model values (see ``AnimationEngine``'s "Lifetime").
///
/// ## Timing
/// `fractionComplete` is the fraction of the run's *time* (0 to 1). The properties follow
/// the timing curve at that fraction, so a reversed run retraces the forward path, and a
/// run taken forward and then reversed back to 0 shows the start values exactly.
///
/// Decisions where UIKit's documentation is ambiguous:
/// - **delayFactor** is a fraction of the *original* duration (the header's rule and the
///   documentation's worked example): a block added with `delayFactor: d` at fraction `f`
///   starts at fraction `f + d` and runs to the end of the run.
/// - **continueAnimation durationFactor** multiplies the *original* duration: the rest of
///   the run takes `durationFactor × duration` seconds (a physical spring takes its own
///   settling time instead); `0` means the time the original timing had left, and with
///   `nil` parameters it simply resumes the original timing.
/// - **Reversed completion position**: a reversed run that reaches the start completes with
///   `.start`, and the properties' model values go back to their start values.
/// - **Completion order**: handlers run in the order they were added; animators that end in
///   the same tick complete in the order they were (last) started.
/// - **Scrubbing with `scrubsLinearly`** (the default): while paused, setting
///   `fractionComplete` moves the properties linearly in it; resuming afterwards continues
///   from the scrubbed values with the original curve over the remaining time, without a
///   jump. Pausing alone never moves the properties.
/// - **Reversing while running** takes effect at once in both directions.
/// - **Blocks added while reversed** animate towards their new values as the run goes back
///   to its start, and keep those values when it completes at `.start`.
/// - While completion handlers run (UIKit's private "completing" state), `state` is
///   `.active`, `isRunning` true and ``isCompleting`` true; state-changing calls throw
///   ``AnimatorError/callDuringCompletion(call:)``.
@MainActor
public final class PropertyAnimator: ViewImplicitlyAnimating {
    /// The engine that evaluates this animator.
    ///
    /// An animator keeps its engine alive while it is inactive, paused or stopped; while it
    /// runs, the engine keeps the animator alive instead (so a started animator needs no
    /// other owner), and the engine lives as long as its host holds it — as a UIKit
    /// animator lives with its window. When the engine goes away first (see
    /// ``AnimationEngine``'s "Lifetime"), the animator ends inactive without completion
    /// handlers, and from then on evaluates on ``AnimationEngine/shared``.
    public var engine: AnimationEngine {
        if let owned = ownedEngine { return owned }
        if let front, front.isAlive, let engine = front.link.engine { return engine }
        _ = liveFront  // the engine went away: bind to the shared one
        return ownedEngine ?? AnimationEngine.shared
    }
    /// The front of the engine, strongly: the animator keeps the front, never the engine's
    /// handle through it. Nil after the engine went away while the animator ran; a front
    /// whose engine went away (`isAlive` false) for an animator that stopped running while
    /// the engine's deinitialisation waited. Either way the next call binds the animator to
    /// the shared engine.
    // The animator's bookkeeping is `@exclusivity(unchecked)`, as the engine's is: every
    // access is a read or an instantaneous write (lists are moved out before their handlers
    // run), and the dynamic checks were a measurable share of creating and starting one.
    @exclusivity(unchecked) var front: EngineFront?
    /// The engine's handle, strongly, while the engine does not retain this animator (not
    /// running).
    @exclusivity(unchecked) var ownedEngine: AnimationEngine?
    /// The front, if its engine is still there, for what the animator reports: from the
    /// moment the engine's last reference goes (its link reads nil), even while its
    /// deinitialisation waits for the main actor, the animator reads as one whose engine
    /// went away.
    var boundFront: EngineFront? {
        guard let front, front.isAlive, front.link.engine != nil else { return nil }
        return front
    }
    /// The front of the engine, binding the animator to the shared engine (as a fresh inactive
    /// animator) if its own went away. (A call made while the engine's deinitialisation waits
    /// for the main actor acts on that engine's front, and the deinitialisation then ends it
    /// as it ends the engine's running animators.)
    var liveFront: EngineFront {
        if let front, front.isAlive { return front }
        if front != nil { engineDidGoAway() }
        let shared = AnimationEngine.shared
        front = shared.front
        ownedEngine = shared
        return shared.front
    }
    /// The duration given at creation, seconds (the run lasts a physical spring's settling
    /// time instead; see ``SpringTimingParameters``).
    public let duration: Double
    /// The timing given at creation.
    public var timingParameters: any TimingCurveProvider { timingSource.provider }
    /// How the timing was given (a named curve's parameters are made when read, so that an
    /// animator made with one holds no box for them).
    private let timingSource: TimingSource
    /// The delay of the last `startAnimation(afterDelay:)`, seconds.
    public internal(set) var delay: Double = 0

    /// The engine's timing for `timingParameters`, its progress curve and how long the run lasts.
    let timing: RunTiming
    let curve: ProgressCurve
    let runDuration: Double

    /// The animator's run in its engine: the engine's `UIViewAnimating` state machine (nil
    /// only after the engine went away, until the next call makes one on the shared engine).
    @exclusivity(unchecked) var run: RunHandle?
    // (Nonisolated only for the deinit, which hands them to the main actor when the animator
    // is released elsewhere; every other access is on the main actor.)
    @exclusivity(unchecked) nonisolated(unsafe) var pendingBlocks = InlineList<PendingBlock>()
    @exclusivity(unchecked) nonisolated(unsafe) var completions = InlineList<CompletionHandler>()
    /// The lanes of a stopped animator with their start and end values, for `finishAnimation(at:)`.
    @exclusivity(unchecked) var stoppedLanes: [StoppedLane] = []
    /// Public because callers read it in completion handlers: true while they run.
    @exclusivity(unchecked) public internal(set) var isCompleting = false
    /// Whether this animator runs a block-based animation (`View.animate…`), whose block's
    /// nested animations inherit from it instead of joining its run.
    @exclusivity(unchecked) var isBlockAnimation = false

    /// Called whenever ``isRunning`` changes (UIKit's key-value observation of `running`,
    /// the way to see a `pausesOnCompletion` animator reach its end).
    public var isRunningDidChange: (@MainActor (PropertyAnimator) -> Void)?

    // MARK: Creating

    /// An animator with a timing provider (UIKit's designated initialiser). Starts inactive.
    /// - Parameters:
    ///   - duration: seconds, finite and ≥ 0.
    ///   - timingParameters: the timing (cubic or spring).
    ///   - engine: the engine that evaluates it.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for a bad duration or spring.
    public convenience init(duration: Double, timingParameters: any TimingCurveProvider, engine: borrowing AnimationEngine = .shared) throws {
        try self.init(duration: duration, timing: RunTiming(timingParameters), source: .provider(timingParameters),
                      engine: engine)
    }

    /// An inactive animator with `timing` on `engine`; `source` is how the timing was given.
    private init(duration: Double, timing: RunTiming, source: TimingSource, engine: borrowing AnimationEngine) throws {
        do { try ParameterError.requireNonNegative(duration, "duration") } catch { throw AnimatorError.invalidParameter(error) }
        let front = engine.front
        self.front = front
        ownedEngine = copy engine
        self.duration = duration
        timingSource = source
        self.timing = timing
        do { (curve, runDuration) = try front.core.curve(for: timing, duration: duration) } catch let error as ParameterError {
            throw AnimatorError.invalidParameter(error)
        }
        run = front.makeRun(for: self)
        front.collector?.append(self)
    }

    /// An animator with one of UIKit's named curves.
    public convenience init(duration: Double, curve: AnimationCurve, engine: borrowing AnimationEngine = .shared,
                            animations: (@MainActor () -> Void)? = nil) throws {
        try self.init(duration: duration, timing: RunTiming(CubicTimingParameters(animationCurve: curve)),
                      source: .named(curve), engine: engine)
        if let animations { pendingBlocks.append(PendingBlock(block: animations, delayFactor: 0)) }
    }

    /// An animator with a custom cubic curve through the two control points (x in [0, 1]).
    public convenience init(duration: Double, controlPoint1: Point, controlPoint2: Point, engine: borrowing AnimationEngine = .shared,
                            animations: (@MainActor () -> Void)? = nil) throws {
        try self.init(duration: duration,
                      timingParameters: CubicTimingParameters(controlPoint1: controlPoint1, controlPoint2: controlPoint2),
                      engine: engine)
        if let animations { pendingBlocks.append(PendingBlock(block: animations, delayFactor: 0)) }
    }

    /// An animator with a spring of this damping ratio that settles at `duration`.
    public convenience init(duration: Double, dampingRatio: Double, engine: borrowing AnimationEngine = .shared,
                            animations: (@MainActor () -> Void)? = nil) throws {
        try self.init(duration: duration, timingParameters: SpringTimingParameters(dampingRatio: dampingRatio), engine: engine)
        if let animations { pendingBlocks.append(PendingBlock(block: animations, delayFactor: 0)) }
    }

    deinit {
        // On the main thread: the run is released at once (as an isolated deinit would, minus
        // the runtime's executor check), then the stored properties as usual.
        if MainThread.isCurrent {
            guard let run, let front else { return }
            MainThread.call(releaseAnimatorRun, run, front)
            return
        }
        // Elsewhere, everything the animator held goes to the main actor and is let go of
        // there, after the run: its handlers' captures, its views and its engine (whose
        // deinitialisation then follows the release, as it would on the main thread).
        let left = ReleasedAnimator(run: run, front: front, engine: ownedEngine, completions: completions,
                                    blocks: pendingBlocks, lanes: stoppedLanes, observer: isRunningDidChange)
        front = nil
        ownedEngine = nil
        completions = InlineList()
        pendingBlocks = InlineList()
        stoppedLanes = []
        isRunningDidChange = nil
        Task { @MainActor in left.release() }
    }

    /// Called by an engine going away while this animator runs: the animator becomes a
    /// fresh inactive one; its blocks and completion handlers are dropped without running
    /// (nothing of the engine is left for them to act on).
    func engineDidGoAway() {
        run = nil
        pendingBlocks.removeAll()
        completions.removeAll()
        _ = exchange(&stoppedLanes, with: [])
        isCompleting = false
        front = nil
        ownedEngine = nil
    }

    // MARK: State

    /// Inactive, active (running, paused or delayed) or stopped.
    public var state: ViewAnimatingState {
        guard let engine = boundFront else { return isCompleting ? .active : .inactive }
        return state(on: engine)
    }

    /// Whether time is advancing the animator (including while it waits for its delay).
    public var isRunning: Bool {
        guard let engine = boundFront else { return isCompleting }
        return isRunning(on: engine)
    }

    /// ``state`` read through `engine`, which must be this animator's engine's front.
    func state(on engine: EngineFront) -> ViewAnimatingState {
        guard let run else { return isCompleting ? .active : .inactive }
        switch engine.core.state(of: run) {
        case .inactive: return isCompleting ? .active : .inactive
        case .active: return .active
        case .stopped: return .stopped
        }
    }

    /// ``isRunning`` read through `engine`, which must be this animator's engine's front.
    func isRunning(on engine: EngineFront) -> Bool {
        guard let run else { return isCompleting }
        return engine.core.isRunning(run) || isCompleting
    }

    /// Fraction of the run's time, 0 to 1 (see the type's discussion for scrubbing). Setting
    /// it scrubs a paused animator and activates an inactive one (paused); it is ignored while
    /// running or stopped. Values are clamped to [0, 1]; NaN is reported and ignored —
    /// ``setFractionComplete(_:)`` throws instead.
    public var fractionComplete: Double {
        get {
            guard let run, let engine = boundFront else { return 0 }
            return engine.core.fractionComplete(of: run)
        }
        set {
            do { try setFractionComplete(newValue) } catch let error as AnimatorError {
                Diagnostics.report(.illegalCall(error))
            } catch {}
        }
    }

    /// Whether the run goes back towards the start values. Set while running, it turns the
    /// animation round at once; set while inactive or paused, it applies to the next start;
    /// ignored while stopped.
    public var isReversed: Bool {
        get {
            guard let run, let engine = boundFront else { return false }
            return engine.core.isReversed(run)
        }
        set {
            report { try withRun { core, run in try core.setReversed(newValue, of: run) } }
        }
    }

    /// Keep the animator active and paused at the end instead of completing (completion
    /// handlers are not called; watch ``isRunningDidChange``).
    public var pausesOnCompletion: Bool {
        get {
            guard let run, let engine = boundFront else { return false }
            return engine.core.pausesOnCompletion(run)
        }
        set { liveFront.core.setPausesOnCompletion(newValue, of: runHandle) }
    }

    /// While paused, whether `fractionComplete` maps linearly to the properties' progress
    /// (true, the default) rather than through the timing curve.
    public var scrubsLinearly: Bool {
        get {
            guard let run, let engine = boundFront else { return true }
            return engine.core.scrubsLinearly(run)
        }
        set { liveFront.core.setScrubsLinearly(newValue, of: runHandle) }
    }

    private var userInteraction = true
    /// The delay of the start in progress (seconds; 0 outside `startAnimation(afterDelay:)`):
    /// the blocks it runs give it to the animations of their own made in them.
    var activationDelay = 0.0

    /// Whether the animator can be paused, stopped, reversed or continued once running.
    /// May only change while inactive (otherwise reported and ignored; see
    /// ``setInterruptible(_:)``).
    public var isInterruptible: Bool {
        get {
            guard let run, let engine = boundFront else { return true }
            return engine.core.isInterruptible(run)
        }
        set { report { try setInterruptible(newValue) } }
    }

    /// Whether animated views take touches while animating (a flag for hit-testing layers).
    /// May only change while inactive (see ``setUserInteractionEnabled(_:)``).
    public var isUserInteractionEnabled: Bool {
        get { userInteraction }
        set { report { try setUserInteractionEnabled(newValue) } }
    }

    /// Whether the host hit-tests animating views itself (a flag for hit-testing layers).
    public var isManualHitTestingEnabled = false

    /// Sets ``isInterruptible``.
    /// - Throws: ``AnimatorError/setWhileActive(property:)`` unless the animator is inactive.
    public func setInterruptible(_ value: Bool) throws {
        guard state == .inactive else { throw AnimatorError.setWhileActive(property: "isInterruptible") }
        try withRun { core, run in try core.setInterruptible(value, of: run) }
    }

    /// Sets ``isUserInteractionEnabled``.
    /// - Throws: ``AnimatorError/setWhileActive(property:)`` unless the animator is inactive.
    public func setUserInteractionEnabled(_ value: Bool) throws {
        guard state == .inactive else { throw AnimatorError.setWhileActive(property: "isUserInteractionEnabled") }
        userInteraction = value
    }

    /// Sets ``fractionComplete``, throwing where the property setter reports.
    /// - Parameter value: in [0, 1].
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for NaN or a value outside [0, 1];
    ///   ``AnimatorError/callDuringCompletion(call:)`` from a completion handler.
    public func setFractionComplete(_ value: Double) throws {
        guard !value.isNaN, (0 ... 1).contains(value) else {
            throw AnimatorError.invalidParameter(.outOfRange(parameter: "fractionComplete", value: value, expected: "[0, 1]"))
        }
        try checkNotCompleting("fractionComplete")
        try withRun { core, run in try core.setFractionComplete(run, value, activation: activation) }
    }

    func report(_ body: () throws -> Void) {
        do { try body() } catch let error as AnimatorError {
            Diagnostics.report(.illegalCall(error))
        } catch {}
    }

    func checkNotCompleting(_ call: String) throws {
        if isCompleting { throw AnimatorError.callDuringCompletion(call: call) }
    }
}

/// What an animator released off the main actor held, handed to the main actor: its run is
/// released there, and then the rest is let go of there.
private final class ReleasedAnimator: @unchecked Sendable {
    // Read and written only by the releasing deinit (before the hand-over) and on the main
    // actor after it: the task's start orders the two.
    private var run: RunHandle?
    private var front: EngineFront?
    private var rest: (AnimationEngine?, InlineList<CompletionHandler>, InlineList<PendingBlock>, [StoppedLane],
                       (@MainActor (PropertyAnimator) -> Void)?)?

    init(run: RunHandle?, front: EngineFront?, engine: AnimationEngine?, completions: InlineList<CompletionHandler>,
         blocks: InlineList<PendingBlock>, lanes: [StoppedLane], observer: (@MainActor (PropertyAnimator) -> Void)?) {
        self.run = run
        self.front = front
        rest = (engine, completions, blocks, lanes, observer)
    }

    @MainActor func release() {
        if let run, let front { releaseAnimatorRun(run, front) }
        front = nil
        rest = nil
    }
}

/// What a released animator leaves: its run is released on `front` (its animations stay
/// where they are, as `finishAnimation(at: .current)`); releasing a paused or stopped animator
/// is reported.
@MainActor
private func releaseAnimatorRun(_ run: RunHandle, _ front: EngineFront) {
    guard front.isAlive else { return }
    if front.core.state(of: run) != .inactive, !front.core.isRunning(run) {
        Diagnostics.report(.illegalCall(.releasedWhilePausedOrStopped))
    }
    front.releaseRun(run)
}

/// How an animator's timing was given: one of UIKit's named curves, or a provider.
enum TimingSource {
    case named(AnimationCurve)
    case provider(any TimingCurveProvider)

    /// The timing parameters (a named curve's made afresh).
    var provider: any TimingCurveProvider {
        switch self {
        case .named(let curve): return CubicTimingParameters(animationCurve: curve)
        case .provider(let provider): return provider
        }
    }
}

/// An animations block waiting for its animator to start, with its delay factor in [0, 1].
struct PendingBlock {
    let block: @MainActor () -> Void
    let delayFactor: Double
}

/// A completion handler. Wrapped in a struct so that the list holding it stores the closure
/// as it is: a bare closure stored in a generic container is re-abstracted through a
/// heap-allocated thunk.
struct CompletionHandler {
    let call: @MainActor (ViewAnimatingPosition) -> Void
}
