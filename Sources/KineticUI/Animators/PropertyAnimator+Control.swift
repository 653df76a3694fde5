import Kinetic

extension PropertyAnimator {
    // MARK: Starting and pausing

    /// Starts the animation, or resumes it when paused.
    ///
    /// An animator with no animation blocks starts in a transient paused state: the first
    /// block added then starts it (as in UIKit).
    /// - Throws: ``AnimatorError/startWhileStopped`` when stopped.
    public func startAnimation() throws {
        try checkNotCompleting("startAnimation")
        try withRun { core, run in try core.startAnimation(run, activation: activation) }
    }

    /// Starts the animation after `delay` seconds (sets ``delay``). An animator with no
    /// animations yet waits for its first: added during the delay, they begin when it ends;
    /// added later, at once.
    /// - Parameter delay: seconds, finite and ≥ 0.
    /// - Throws: ``AnimatorError/startWhileStopped`` when stopped,
    ///   ``AnimatorError/startAfterDelayWhilePaused`` when paused,
    ///   ``AnimatorError/invalidParameter(_:)`` for a bad delay. A running animator is not
    ///   affected.
    public func startAnimation(afterDelay delay: Double) throws {
        do { try ParameterError.requireNonNegative(delay, "delay") } catch { throw AnimatorError.invalidParameter(error) }
        try checkNotCompleting("startAnimation(afterDelay:)")
        try withRun { core, run in
            if core.state(of: run) == .inactive { self.delay = delay }
            // Animations of their own made in the blocks that the start runs wait for it too.
            activationDelay = delay
            defer { activationDelay = 0 }
            try core.startAnimation(run, afterDelay: delay, activation: activation)
        }
    }

    /// Pauses the animation; an inactive animator becomes active and paused at 0.
    /// - Throws: ``AnimatorError/pauseWhileStopped`` when stopped;
    ///   ``AnimatorError/notInterruptible(call:)`` when running and not interruptible.
    public func pauseAnimation() throws {
        try checkNotCompleting("pauseAnimation")
        try withRun { core, run in try core.pauseAnimation(run, activation: activation) }
    }

    // MARK: Stopping and finishing

    /// Stops the animation where it is: its animations are removed and the properties' model
    /// values become the values last shown.
    /// - Parameter withoutFinishing: `true` → inactive at once, completion handlers are
    ///   dropped; `false` → stopped, and ``finishAnimation(at:)`` must follow.
    /// - Throws: ``AnimatorError/stopWhileInactive``, ``AnimatorError/stopWhileStopped``,
    ///   ``AnimatorError/notInterruptible(call:)`` when running and not interruptible.
    public func stopAnimation(_ withoutFinishing: Bool) throws {
        try checkNotCompleting("stopAnimation")
        try withRun { core, run in
            let values = try core.stopAnimation(run, withoutFinishing: withoutFinishing)
            // Read while the lanes' blocks still name their views (the engine releases them next).
            stoppedLanes = liveFront.stoppedLanes(values)
            if withoutFinishing {
                completions.removeAll()
                pendingBlocks.removeAll()
            }
        }
    }

    /// Finishes a stopped animation: `.end` and `.start` set the properties' model values to
    /// the animation's end or start values at once, `.current` leaves them; then the animator
    /// becomes inactive and the completion handlers run with `finalPosition`.
    /// - Throws: ``AnimatorError/finishRequiresStopped(state:)`` unless stopped.
    public func finishAnimation(at finalPosition: ViewAnimatingPosition) throws {
        try checkNotCompleting("finishAnimation(at:)")
        try withRun { core, run in try core.finishAnimation(run, at: RunPosition(finalPosition)) }
        if finalPosition != .current {
            for lane in stoppedLanes {
                liveFront.setModelLane(lane.view, index: lane.index, to: finalPosition == .end ? lane.end : lane.start)
            }
        }
        _ = exchange(&stoppedLanes, with: [])
        pendingBlocks.removeAll()
        callCompletions(finalPosition)
    }

    // MARK: Blocks and completions

    /// Adds an animations block over the whole run (see ``addAnimations(_:delayFactor:)``).
    public func addAnimations(_ animation: @escaping @MainActor () -> Void) throws {
        try addAnimations(animation, delayFactor: 0)
    }

    /// Adds an animations block that starts `delayFactor × duration` seconds later than it
    /// would and ends with the run.
    ///
    /// Inactive: the block runs when the animator starts, over `[delayFactor, 1]` of the run.
    /// Active: the block runs now and animates from the current fraction `f` plus
    /// `delayFactor` to the end of the run (e.g. duration 2 s, delayFactor 0.25 at fraction
    /// 0.25: it starts 0.5 s later and runs 1 s). An animator waiting for its first block
    /// starts running.
    /// - Parameters:
    ///   - animation: sets the new property values.
    ///   - delayFactor: in [0, 1].
    /// - Throws: ``AnimatorError/addAnimationsWhileStopped`` when stopped;
    ///   ``AnimatorError/invalidParameter(_:)`` for a delay factor outside [0, 1].
    public func addAnimations(_ animation: @escaping @MainActor () -> Void, delayFactor: Double) throws {
        guard !delayFactor.isNaN, (0 ... 1).contains(delayFactor) else {
            throw AnimatorError.invalidParameter(.outOfRange(parameter: "delayFactor", value: delayFactor, expected: "[0, 1]"))
        }
        try checkNotCompleting("addAnimations")
        // Run now, not over the whole run: nothing made in it joins an animator further out,
        // but a block-based animation made in it inherits the time left after its delay.
        let left = (isReversed ? fractionComplete : 1 - fractionComplete) - delayFactor
        let inheritance = nestedInheritance(delayFactor: delayFactor, length: Swift.max(0, left))
        let added = try withRun { core, run in
            try core.addAnimations(run, delayFactor: delayFactor) {
                try AnimationCapture.withChanges(duration: inheritance?.duration ?? self.duration,
                                                 { AnimatorBlockContext.running(nil, inheritance: inheritance, animation) }) {
                    try self.liveFront.laneChanges($0)
                }
            }
        }
        if !added { pendingBlocks.append(PendingBlock(block: animation, delayFactor: delayFactor)) }
    }

    /// Adds a completion handler, called with the position the animation ended at. Allowed
    /// in every state, including stopped.
    public func addCompletion(_ completion: @escaping @MainActor (ViewAnimatingPosition) -> Void) {
        completions.append(CompletionHandler(call: completion))
    }

    // MARK: Continuing

    /// Resumes a paused animator with new timing, from where the properties are now.
    ///
    /// The rest of the run takes `durationFactor × duration` seconds (`0`: the time the
    /// original timing had left). The run's time moves on to the end (or, reversed, the
    /// start) along the new curve, and each animation covers the rest of its part of the run
    /// as that time crosses it, from its current progress: one over the whole run moves
    /// along the new curve, one with a `delayFactor` or a keyframe that has not begun waits
    /// for its part. A spring's initial velocity is
    /// normalised to that remaining distance. `nil` parameters with factor 0 resume the
    /// original timing unchanged. The new timing lasts until the animator becomes inactive.
    /// - Throws: ``AnimatorError/continueRequiresPaused(state:isRunning:)`` unless paused;
    ///   ``AnimatorError/notInterruptible(call:)``; ``AnimatorError/invalidParameter(_:)``
    ///   for a negative or non-finite factor.
    public func continueAnimation(withTimingParameters parameters: (any TimingCurveProvider)?, durationFactor: Double) throws {
        try continueAnimation(withTimingParameters: parameters, durationFactor: durationFactor, delay: 0)
    }

    /// ``continueAnimation(withTimingParameters:durationFactor:)`` whose new leg begins after
    /// `delay` seconds (finite, ≥ 0), the properties staying where they are meanwhile: a
    /// percent-driven transition's block animation whose part of the transition's time comes
    /// later.
    func continueAnimation(withTimingParameters parameters: (any TimingCurveProvider)?, durationFactor: Double,
                           delay: Double) throws {
        do { try ParameterError.requireNonNegative(durationFactor, "durationFactor") } catch {
            throw AnimatorError.invalidParameter(error)
        }
        try checkNotCompleting("continueAnimation")
        try withRun { core, run in
            try core.continueAnimation(run, timing: parameters.map { RunTiming($0) }, durationFactor: durationFactor,
                                       delay: delay)
        }
    }

    // MARK: Internals

    /// The run, made on the engine if the animator has none (its engine went away).
    var runHandle: RunHandle {
        if let run { return run }
        let made = liveFront.makeRun(for: self)
        run = made
        return made
    }

    /// Runs a call of the engine's state machine on this animator's run: brings the
    /// engine's time to the clock's, maps the engine's errors to ``AnimatorError``, then
    /// copies what the engine changed into the views, hands the animator to the engine while
    /// it runs (and back when it stops), and reports a change of ``isRunning``.
    @discardableResult
    func withRun<T>(_ body: (LaneEngine, RunHandle) throws -> T) throws -> T {
        let engine = liveFront
        let run = runHandle
        // The engine stays until the call returns, not only its front: code the call runs (an
        // animations block, a dropped closure's captures, a view's deinit) may let go of the
        // host's last reference. An animator that is not running keeps the engine itself
        // (`ownedEngine`, which a start hands back below); a running one is read through the
        // link.
        let kept = ownedEngine == nil ? engine.link.engine : nil
        let wasRunning = isRunning(on: engine)
        engine.syncTime()
        defer {
            engine.syncViews()
            // The handle this animator let go of (it runs now) is dropped after the call: if
            // nothing else kept the engine, it goes away then, not in the middle of the call.
            let released = engine.updateRetention(of: self, run: run)
            if wasRunning != isRunning(on: engine) { isRunningDidChange?(self) }
            withExtendedLifetime(released) {}
            withExtendedLifetime(kept) {}
        }
        do {
            return try body(engine.core, run)
        } catch let error as RunError {
            throw AnimatorError(error)
        }
    }

    /// What the engine runs when it activates the run: the blocks kept for the start, each
    /// over `[delayFactor, 1]` of the run. A block over the whole run is this animator's
    /// (``AnimatorBlockContext``) while it runs: keyframe animations made in it join the run.
    func activation() throws {
        for pending in pendingBlocks.removeAll() {
            // (A closure literal in the call: one bound to a name would be allocated per block.)
            let owner = pending.delayFactor == 0 ? self : nil
            let inheritance = nestedInheritance(delayFactor: pending.delayFactor, length: 1 - pending.delayFactor,
                                                startDelay: activationDelay)
            try AnimationCapture.withChanges(duration: inheritance?.duration ?? duration,
                                             { AnimatorBlockContext.running(owner, inheritance: inheritance, pending.block) }) {
                try addSegment($0, start: pending.delayFactor, length: 1 - pending.delayFactor)
            }
        }
    }

    /// What a block-based or keyframe animation made in one of this animator's blocks
    /// inherits: the block's window (`length`, a fraction of the run, after `delayFactor`) in
    /// seconds, the animator's timing, and the block's delay (plus `startDelay`, the start's
    /// own delay, for the blocks a delayed start runs). Nil for a block-based
    /// animation's own animator, whose block context gives its nested animations theirs.
    func nestedInheritance(delayFactor: Double, length: Double, startDelay: Double = 0) -> AnimatorBlockContext.Inheritance? {
        guard !isBlockAnimation else { return nil }
        return .init(duration: length * duration, animator: self, delay: startDelay + delayFactor * duration)
    }

    /// Adds captured changes as one animation over an explicit window of the run (keyframes,
    /// and the blocks of an activation); `fromCurrentState` nil takes the animator's option.
    func addSegment(_ changes: [CapturedChange], start: Double, length: Double, discrete: Bool = false,
                    fromCurrentState: Bool? = nil) throws {
        let engine = liveFront
        let lanes = try engine.laneChanges(changes)
        // A span beyond the range of Double (a frame from −1e308 to 1e308) would show ±∞.
        do {
            try engine.core.requireAddable(lanes, to: runHandle, fromCurrentState: fromCurrentState)
        } catch {
            throw AnimatorError.invalidParameter(error)
        }
        engine.core.addAnimation(runHandle, changes: lanes, windowStart: start, windowLength: length,
                                 discrete: discrete, fromCurrentState: fromCurrentState)
    }

    /// Called by the engine when the run ended this tick and `pausesOnCompletion` is set (the
    /// engine has paused the run at its end): the animator stays active, paused.
    func didPauseAtEnd() {
        isRunningDidChange?(self)
    }

    /// Called by the engine when the run ended this tick (the engine has ended the animator's
    /// segments; the run is inactive): its completion handlers are due.
    func runDidFinish() {
        pendingBlocks.removeAll()
        isCompleting = true
    }

    /// Runs the completion handlers (each once, in the order added).
    func callCompletions(_ position: ViewAnimatingPosition) {
        isCompleting = true
        for handler in completions.removeAll() { handler.call(position) }
        isCompleting = false
        isRunningDidChange?(self)
    }
}

extension AnimatorError {
    /// The UIKit layer's error for an engine's state-machine error (the same case).
    init(_ error: RunError) {
        switch error {
        case .startWhileStopped: self = .startWhileStopped
        case .startAfterDelayWhilePaused: self = .startAfterDelayWhilePaused
        case .pauseWhileStopped: self = .pauseWhileStopped
        case .stopWhileInactive: self = .stopWhileInactive
        case .stopWhileStopped: self = .stopWhileStopped
        case .finishRequiresStopped(let state): self = .finishRequiresStopped(state: ViewAnimatingState(state))
        case .addAnimationsWhileStopped: self = .addAnimationsWhileStopped
        case .continueRequiresPaused(let state, let running):
            self = .continueRequiresPaused(state: ViewAnimatingState(state), isRunning: running)
        case .notInterruptible(let call): self = .notInterruptible(call: call)
        case .setWhileActive(let property): self = .setWhileActive(property: property)
        case .invalidParameter(let error): self = .invalidParameter(error)
        }
    }
}

extension RunState {
    init(_ state: ViewAnimatingState) {
        switch state {
        case .inactive: self = .inactive
        case .active: self = .active
        case .stopped: self = .stopped
        }
    }
}

extension ViewAnimatingState {
    init(_ state: RunState) {
        switch state {
        case .inactive: self = .inactive
        case .active: self = .active
        case .stopped: self = .stopped
        }
    }
}
