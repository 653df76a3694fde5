import Kinetic

/// What an ``AnimationEngine`` holds: Kinetic's engine, the views its lane blocks animate,
/// and the animators it runs. Animators and views refer to this object strongly; the host
/// and the animators that are not running keep the ``AnimationEngine`` handle alive, and when
/// that handle goes, ``shutDown()`` ends what the front runs (the engine's "Lifetime").
///
/// The split keeps weak references off the objects that every animator retains and releases:
/// a weakly referenced object takes the runtime's slow reference-counting path on every
/// retain and release, and an animator's life does several of each.
@MainActor
final class EngineFront {
    /// The clock that drives this engine.
    let clock: ManualClock
    /// False from the moment the handle's deinitialisation ended this front's runs.
    @exclusivity(unchecked) private(set) var isAlive = true

    /// Kinetic's engine: the lanes and the runs. Only this folder touches it.
    ///
    /// The engine's own bookkeeping below is `@exclusivity(unchecked)`, as the core's is: the
    /// engine never holds two accesses to one of these arrays at once (completion handlers
    /// run after the tick has let go of them), and the dynamic checks were a measurable share
    /// of creating and starting an animator.
    let core = LaneEngine()
    /// Per lane block of the core: the view it animates (nil once released) and the property
    /// (two arrays, for the engine's memory per lane).
    @exclusivity(unchecked) var blockViews: [View?] = []
    @exclusivity(unchecked) var blockProperties: [AnimatableProperty] = []
    /// Per run record of the core: the running animator it keeps alive.
    @exclusivity(unchecked) var retained: [PropertyAnimator?] = []

    /// While set, every animator created on this engine is appended (an interaction
    /// controller collecting the animations a transition creates).
    @exclusivity(unchecked) var collector: [PropertyAnimator]?
    /// While a keyframe animation's changes are added: per view and property, the values
    /// before all of them (its earliest change's), where a lane block it creates is anchored.
    @exclusivity(unchecked) var anchors: [ChangeKey: PropertyLanes]?

    @exclusivity(unchecked) private var ticking = false
    @exclusivity(unchecked) private var tickPending = false
    /// The animators a tick completes and pauses, with their end positions (reused, so a
    /// tick allocates nothing for them; emptied before the tick returns).
    @exclusivity(unchecked) private var completing: [PendingCompletion] = []
    @exclusivity(unchecked) private var pausing: [PropertyAnimator] = []

    /// The handle, weakly: what the front and the clock hand out without keeping it alive.
    let link = EngineLink()

    init(clock: ManualClock) {
        MainThread.record()
        self.clock = clock
        completing.reserveCapacity(64)
        pausing.reserveCapacity(16)
    }

    /// Called by the handle's deinitialisation: running animators end inactive without their
    /// completion handlers, and views drop their lane blocks (see ``AnimationEngine``'s
    /// "Lifetime"). Afterwards the front keeps no animator and no view: an animator that
    /// still refers to it (one that stopped running while the deinitialisation waited, or
    /// whose release is on its way to the main actor) sees `isAlive` false and does nothing
    /// on it.
    func shutDown() {
        isAlive = false
        let running = exchange(&retained, with: [])
        for case let animator? in running { animator.engineDidGoAway() }
        for (view, property) in zip(blockViews, blockProperties) {
            guard let view, view.laneFront === nil || view.laneFront === self else { continue }
            view.laneBlocks[property.rawValue] = .none
            if !view.laneBlocks.anyExists { view.laneFront = nil }
        }
        blockViews = []
        blockProperties = []
    }

    /// Bytes of storage the engine holds (array capacities, the core's and this front's).
    var storageBytes: Int {
        core.storageBytes + blockViews.capacity * 8 + blockProperties.capacity + retained.capacity * 8
    }

    // MARK: Ticking

    /// ``AnimationEngine/tick()``; `engine` is the handle (which the animators that stop
    /// running keep alive from then on).
    func tick(engine: AnimationEngine) {
        if ticking {
            tickPending = true
            return
        }
        ticking = true
        defer { ticking = false }
        repeat {
            tickPending = false
            runTick(engine)
        } while tickPending
    }

    private func runTick(_ engine: AnimationEngine) {
        core.advance(to: clock.now)
        guard core.hasEvents else { return }
        // Every event is matched to its animator before any handler runs (a handler may
        // start, stop or release animators).
        core.drainEvents { event in
            switch event {
            case .pausedAtEnd(let run):
                guard let animator = release(run, to: engine) else { return }
                pausing.append(animator)
            case .finished(let run, let position):
                guard let animator = release(run, to: engine) else { return }
                completing.append(PendingCompletion(animator: animator, position: ViewAnimatingPosition(position)))
            }
        }
        syncViews()
        for animator in pausing { animator.didPauseAtEnd() }
        for c in completing { c.animator.runDidFinish() }
        for c in completing { c.animator.callCompletions(c.position) }
        pausing.removeAll(keepingCapacity: true)
        completing.removeAll(keepingCapacity: true)
    }

    /// The animator that `run` kept alive, which the engine holds no longer (it keeps
    /// `engine` alive instead).
    private func release(_ run: RunHandle, to engine: AnimationEngine) -> PropertyAnimator? {
        let i = Int(run.index)
        guard let animator = retained[i] else { return nil }
        animator.ownedEngine = engine
        retained[i] = nil
        return animator
    }

    /// Brings presentation values up to date if anything changed since the last evaluation.
    func flush() {
        core.flush()
    }

    // MARK: Runs

    /// A new inactive run for `animator`'s timing.
    func makeRun(for animator: PropertyAnimator) -> RunHandle {
        let run = core.makeRun(curve: animator.curve, duration: animator.runDuration, timing: animator.timing,
                               givenDuration: animator.duration)
        let i = Int(run.index)
        if i < retained.count {
            retained[i] = nil
        } else {
            retained.reserveForRuns(adding: i + 1 - retained.count)
            retained.append(contentsOf: repeatElement(nil, count: i + 1 - retained.count))
        }
        return run
    }

    /// Releases an animator's run (its animations end where they are); the handle is stale
    /// afterwards.
    func releaseRun(_ run: RunHandle) {
        retained[Int(run.index)] = nil
        core.releaseRunAndAnimations(run)
        syncViews()
    }

    /// The engine keeps a running animator alive (and the animator does not keep the
    /// engine); an animator that is not running keeps its engine instead. Returns the handle
    /// the animator let go of, for the caller to drop once its call is done (the engine may
    /// go away then, and not in the middle of the call).
    func updateRetention(of animator: PropertyAnimator, run: RunHandle) -> AnimationEngine? {
        // (After the engine went away it keeps no animator, and no animator keeps it.)
        guard isAlive else { return nil }
        let i = Int(run.index)
        if core.isRunning(run) {
            retained[i] = animator
            return exchange(&animator.ownedEngine, with: nil)
        } else if retained[i] === animator {
            retained[i] = nil
            animator.ownedEngine = link.engine
        }
        return nil
    }

    /// Brings the core's time to the clock's (a call made between the clock's advance and the
    /// tick it triggers, from a completion handler, starts its legs at the clock's time).
    func syncTime() {
        if clock.now > core.now { core.now = clock.now }
    }
}

