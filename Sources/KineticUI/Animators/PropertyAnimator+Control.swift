import Kinetic

extension PropertyAnimator {
    // MARK: Starting and pausing

    /// Starts the animation, or resumes it when paused.
    ///
    /// An animator with no animation blocks starts in a transient paused state: the first
    /// block added then starts it (as in UIKit).
    /// - Throws: ``AnimatorError/startWhileStopped`` when stopped.
    public func startAnimation() throws {
        // Starting a leg hands this animator to the engine, which then no longer is kept by
        // it: keep the engine until this call returns (see `engine`).
        let engineAlive = engineReference
        defer { withExtendedLifetime(engineAlive) {} }
        try checkNotCompleting("startAnimation")
        switch phase {
        case .stopped: throw AnimatorError.startWhileStopped
        case .running, .waitingForBlocks: return
        case .inactive:
            try activate()
            if blockCount == 0 {
                phase = .waitingForBlocks
                return
            }
            run(delay: 0)
        case .paused:
            resume()
        }
    }

    /// Starts the animation after `delay` seconds (sets ``delay``).
    /// - Parameter delay: seconds, finite and ≥ 0.
    /// - Throws: ``AnimatorError/startWhileStopped`` when stopped,
    ///   ``AnimatorError/startAfterDelayWhilePaused`` when paused,
    ///   ``AnimatorError/invalidParameter(_:)`` for a bad delay. A running animator is not
    ///   affected.
    public func startAnimation(afterDelay delay: Double) throws {
        // Starting a leg hands this animator to the engine, which then no longer is kept by
        // it: keep the engine until this call returns (see `engine`).
        let engineAlive = engineReference
        defer { withExtendedLifetime(engineAlive) {} }
        do { try ParameterError.requireNonNegative(delay, "delay") } catch { throw AnimatorError.invalidParameter(error) }
        try checkNotCompleting("startAnimation(afterDelay:)")
        switch phase {
        case .stopped: throw AnimatorError.startWhileStopped
        case .paused: throw AnimatorError.startAfterDelayWhilePaused
        case .running, .waitingForBlocks: return
        case .inactive:
            self.delay = delay
            try activate()
            if blockCount == 0 {
                phase = .waitingForBlocks
                return
            }
            run(delay: delay)
        }
    }

    /// Pauses the animation; an inactive animator becomes active and paused at 0.
    /// - Throws: ``AnimatorError/pauseWhileStopped`` when stopped;
    ///   ``AnimatorError/notInterruptible(call:)`` when running and not interruptible.
    public func pauseAnimation() throws {
        try checkNotCompleting("pauseAnimation")
        switch phase {
        case .stopped: throw AnimatorError.pauseWhileStopped
        case .paused: return
        case .waitingForBlocks: phase = .paused
        case .inactive:
            try activate()
            phase = .paused
        case .running:
            guard isInterruptible else { throw AnimatorError.notInterruptible(call: "pauseAnimation") }
            engine.pauseRun(activeRun)
            setPhase(.paused)
        }
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
        switch phase {
        case .inactive: throw AnimatorError.stopWhileInactive
        case .stopped: throw AnimatorError.stopWhileStopped
        case .running where !isInterruptible: throw AnimatorError.notInterruptible(call: "stopAnimation")
        case .running, .paused, .waitingForBlocks: break
        }
        engine.pauseRun(activeRun)
        stoppedFraction = engine.timing(of: activeRun).f
        if !withoutFinishing { stoppedLanes = engine.stopValues(of: activeRun) }
        engine.finishSegments(of: activeRun, at: .current)
        engine.releaseRun(activeRun)
        run = nil
        if withoutFinishing {
            completions.removeAll()
            reset()
            setPhase(.inactive)
        } else {
            setPhase(.stopped)
        }
    }

    /// Finishes a stopped animation: `.end` and `.start` set the properties' model values to
    /// the animation's end or start values at once, `.current` leaves them; then the animator
    /// becomes inactive and the completion handlers run with `finalPosition`.
    /// - Throws: ``AnimatorError/finishRequiresStopped(state:)`` unless stopped.
    public func finishAnimation(at finalPosition: ViewAnimatingPosition) throws {
        try checkNotCompleting("finishAnimation(at:)")
        guard phase == .stopped else { throw AnimatorError.finishRequiresStopped(state: state) }
        if finalPosition != .current {
            for lane in stoppedLanes {
                engine.setModelLane(lane.view, index: lane.index, to: finalPosition == .end ? lane.end : lane.start)
            }
        }
        stoppedLanes = []
        reset()
        phase = .inactive
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
        let engineAlive = engineReference  // as in startAnimation()
        defer { withExtendedLifetime(engineAlive) {} }
        guard !delayFactor.isNaN, (0 ... 1).contains(delayFactor) else {
            throw AnimatorError.invalidParameter(.outOfRange(parameter: "delayFactor", value: delayFactor, expected: "[0, 1]"))
        }
        try checkNotCompleting("addAnimations")
        switch phase {
        case .stopped:
            throw AnimatorError.addAnimationsWhileStopped
        case .inactive:
            pendingBlocks.append((animation, delayFactor))
        case .waitingForBlocks:
            try runBlock(animation, start: delayFactor, length: 1 - delayFactor)
            run(delay: 0)
        case .running, .paused:
            let f = engine.timing(of: activeRun).f
            if isReversed {
                let a = Swift.max(f - delayFactor, 0)
                try runBlock(animation, start: a, length: a, inverted: true)
            } else {
                let a = Swift.min(f + delayFactor, 1)
                try runBlock(animation, start: a, length: 1 - a)
            }
        }
    }

    /// Adds a completion handler, called with the position the animation ended at. Allowed
    /// in every state, including stopped.
    public func addCompletion(_ completion: @escaping @MainActor (ViewAnimatingPosition) -> Void) {
        completions.append(completion)
    }

    // MARK: Continuing

    /// Resumes a paused animator with new timing, from where the properties are now.
    ///
    /// The rest of the run takes `durationFactor × duration` seconds (`0`: the time the
    /// original timing had left). Each property moves from its current progress to the end
    /// (or, reversed, the start) along the new curve; a spring's initial velocity is
    /// normalised to that remaining distance. `nil` parameters with factor 0 resume the
    /// original timing unchanged. The new timing lasts until the animator becomes inactive.
    /// - Throws: ``AnimatorError/continueRequiresPaused(state:isRunning:)`` unless paused;
    ///   ``AnimatorError/notInterruptible(call:)``; ``AnimatorError/invalidParameter(_:)``
    ///   for a negative or non-finite factor.
    public func continueAnimation(withTimingParameters parameters: (any TimingCurveProvider)?, durationFactor: Double) throws {
        // Starting a leg hands this animator to the engine, which then no longer is kept by
        // it: keep the engine until this call returns (see `engine`).
        let engineAlive = engineReference
        defer { withExtendedLifetime(engineAlive) {} }
        do { try ParameterError.requireNonNegative(durationFactor, "durationFactor") } catch {
            throw AnimatorError.invalidParameter(error)
        }
        try checkNotCompleting("continueAnimation")
        guard phase == .paused else { throw AnimatorError.continueRequiresPaused(state: state, isRunning: isRunning) }
        guard isInterruptible else { throw AnimatorError.notInterruptible(call: "continueAnimation") }
        let r = engine.timing(of: activeRun)
        if parameters == nil, durationFactor == 0, !r.linearScrub, !r.continuation {
            resume()
            return
        }
        let target: Double = isReversed ? 0 : 1
        let remaining = abs(target - r.f) * runDuration
        let length = durationFactor > 0 ? durationFactor * duration : remaining
        let (made, own) = try ProgressCurve.make(parameters ?? timingParameters, duration: length)
        let curve = engine.interned(made)
        engine.startLeg(activeRun, to: target, length: own, continuation: curve, animator: self)
        setPhase(.running)
    }

    // MARK: Internals

    /// Inactive → active: takes a run in the engine and runs the pending blocks.
    func activate() throws {
        run = engine.makeRun(curve: curve, duration: runDuration, repeats: repeats, autoreverses: autoreverses)
        let blocks = pendingBlocks
        pendingBlocks = []
        for (block, delayFactor) in blocks {
            try runBlock(block, start: delayFactor, length: 1 - delayFactor)
        }
    }

    func runBlock(_ block: @MainActor () -> Void, start: Double, length: Double, inverted: Bool = false) throws {
        let changes = AnimationCapture.run(block)
        blockCount += 1
        lanesAnimated += try engine.addSegment(activeRun, changes: changes, windowStart: start, windowLength: length,
                                               inverted: inverted, fromCurrentState: beginsFromCurrentState)
    }

    /// Adds a keyframe's changes (captured already) as a segment; `fromCurrentState` says
    /// whether it starts from the screen value (by default, as the animator's options say).
    func addKeyframe(_ changes: [CapturedChange], start: Double, length: Double, discrete: Bool,
                     fromCurrentState: Bool? = nil) throws {
        blockCount += 1
        lanesAnimated += try engine.addSegment(activeRun, changes: changes, windowStart: start, windowLength: length,
                                               discrete: discrete, fromCurrentState: fromCurrentState ?? beginsFromCurrentState)
    }

    /// A direct leg from the current fraction to the end the direction points at.
    func run(delay: Double) {
        let f = engine.timing(of: activeRun).f
        let target: Double = isReversed ? 0 : 1
        let end: ViewAnimatingPosition? = autoreverses ? .end : nil
        engine.startLeg(activeRun, to: target, length: abs(target - f) * runDuration, delay: delay,
                        endPosition: end, animator: self)
        setPhase(.running)
    }

    /// Runs on from where the animator is, towards the end `isReversed` points at, without a
    /// jump: a continuation (or a linear scrub) continues along its curve from the current
    /// progress; otherwise a direct leg, after `delay` seconds.
    func resume(delay: Double = 0) {
        let r = engine.timing(of: activeRun)
        guard r.linearScrub || r.continuation else { return run(delay: delay) }
        let target: Double = isReversed ? 0 : 1
        engine.startLeg(activeRun, to: target, length: abs(target - r.f) * runDuration,
                        continuation: r.continuation ? r.legCurve : curve, animator: self)
        setPhase(.running)
    }

    /// Reverses a running animator in place (a pending delay is kept).
    func turnAround() {
        resume(delay: Swift.max(engine.timing(of: activeRun).start - engine.clock.now, 0))
    }

    /// Called by the engine when the run ended this tick and `pausesOnCompletion` is set (the
    /// engine has paused the run at its end): the animator stays active, paused.
    func didPauseAtEnd() {
        setPhase(.paused)
    }

    /// Called by the engine when the run ended this tick (the engine has ended the animator's
    /// segments and freed its run): the animator becomes inactive, its completion handlers due.
    func runDidFinish() {
        run = nil
        reset()
        phase = .inactive
        isCompleting = true
    }

    /// Runs the completion handlers (each once, in the order added).
    func callCompletions(_ position: ViewAnimatingPosition) {
        isCompleting = true
        let handlers = completions
        completions = []
        for handler in handlers { handler(position) }
        isCompleting = false
        isRunningDidChange?(self)
    }

    /// Back to the configuration of a fresh animator (blocks and completions are spent).
    func reset() {
        blockCount = 0
        lanesAnimated = 0
        pendingBlocks = []
    }

    func setPhase(_ new: Phase) {
        let wasRunning = isRunning
        phase = new
        if wasRunning != isRunning { isRunningDidChange?(self) }
    }
}
