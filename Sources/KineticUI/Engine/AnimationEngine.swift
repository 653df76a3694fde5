import Kinetic

/// Evaluates every running animator in one pass per frame, on a clock the host drives: the
/// UIKit layer's front of Kinetic's engine.
///
/// ## Model
/// Every animated view property is a block of `Double` lanes in Kinetic's engine, which
/// holds them with the runs that time them; this front maps views and properties to lane
/// blocks and animators to runs, and turns the engine's events into completion handlers.
/// Each lane's presentation value is `anchor + Σ span · progress` over the animations on
/// it: `anchor` is where the first animation started, each animation adds its `span`
/// (new model value − old model value) weighted by its eased progress. This is UIKit's
/// additive model: several animators on one property add up, and every animation ends
/// exactly at the model value (its lanes are released when the last animation on them
/// ends). When all progress is 0 — say after running forward and back — the value is
/// `anchor` exactly, the start value.
///
/// ## One tick
/// ``tick()`` (called by the ``ManualClock`` on every advance, or by a
/// ``RealTimeDriver``):
/// 1. the engine advances every running animator's time (one pass over contiguous timing
///    records), computes each animation segment's progress (one timing solve per segment —
///    normally one per animator), writes every lane (a copy of the anchors, then one
///    indexed accumulation per segment) and ends the runs whose time ran out, in the order
///    they were started;
/// 2. the front copies the model values the engine changed back into the views, and then
///    calls the finished animators' completion handlers in that same order (each
///    animator's handlers in the order they were added).
///
/// A tick in steady state allocates nothing. Completion handlers may start, stop or create
/// animators; a clock advance made from inside a completion handler is run after the
/// current tick ends.
///
/// Between ticks, a call on one animator (pausing, scrubbing, reversing, continuing,
/// stopping, finishing, adding animations, letting it go) works on that animator's own
/// animations: its cost does not grow with the number of other animators running. The
/// engine recomputes only the progress of runs whose timing changed since the last tick, and
/// compacts the storage of ended animations once they are as many as the live ones.
///
/// The engine is main-actor isolated and owns no thread.
///
/// ## Lifetime
/// The host owns the engine, as UIKit's window owns its animations: the engine keeps its
/// running animators alive (a started animator needs no other owner), but they do not keep
/// it alive, and neither does its clock. An inactive, paused or stopped animator does keep
/// its engine. When the host lets go of an engine whose animators are still running, the
/// engine is freed at once with everything only it held, and (UIKit's animators end with
/// their window):
/// - its running animators end *inactive* and their completion handlers are **not** called
///   (there is no later tick to deliver them on, and they would run inside the engine's
///   deinitialisation); an animator still held elsewhere is a fresh inactive animator
///   afterwards, on ``shared``;
/// - the views it animated show their model values (the animations' end values; as when
///   UIKit removes a layer's animations) and can be animated again by any engine.
@MainActor
public final class AnimationEngine {
    /// The engine that animators and block animations use when none is named.
    public static let shared = AnimationEngine()

    /// The clock that drives this engine.
    public let clock: ManualClock

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

    @exclusivity(unchecked) private var ticking = false
    @exclusivity(unchecked) private var tickPending = false
    /// The animators a tick completes and pauses, with their end positions (reused, so a
    /// tick allocates nothing for them; emptied before the tick returns).
    @exclusivity(unchecked) private var completing: [PendingCompletion] = []
    @exclusivity(unchecked) private var pausing: [PropertyAnimator] = []

    /// How animators, views and the clock refer to this engine without keeping it alive.
    let link = EngineLink()

    /// An engine on `clock` (a new clock at time 0 by default).
    public init(clock: ManualClock = ManualClock()) {
        self.clock = clock
        link.engine = self
        clock.attach(self)
        completing.reserveCapacity(64)
        pausing.reserveCapacity(16)
    }

    isolated deinit {
        // Running animators end here (see "Lifetime"); views drop their lane blocks.
        for case let animator? in retained { animator.engineDidGoAway() }
        for (view, property) in zip(blockViews, blockProperties) {
            guard let view, view.laneEngine === nil || view.laneEngine === self else { continue }
            view.laneBlocks[property.rawValue] = .none
            if !view.laneBlocks.anyExists { view.laneEngine = nil }
        }
    }

    // MARK: Diagnostics

    /// The number of animators that are active (running, paused or waiting for a delay).
    public var activeAnimatorCount: Int { core.activeRunCount }
    /// The number of property lanes currently animated (lanes with at least one animation).
    public var animatedLaneCount: Int { core.animatedLaneCount }
    /// The number of (span, lane) contributions of live animations.
    public var contributionCount: Int { core.contributionCount }
    /// Bytes of storage the engine holds (array capacities, the core's and this front's),
    /// for memory budgets.
    public var storageBytes: Int {
        core.storageBytes + blockViews.capacity * 8 + blockProperties.capacity + retained.capacity * 8
    }

    // MARK: Ticking

    /// Brings every animator to the clock's current time, writes every animated lane and
    /// delivers the completions of animators whose run ended. Called by the clock on every
    /// advance; call it directly only with a clock you drive some other way.
    public func tick() {
        if ticking {
            tickPending = true
            return
        }
        ticking = true
        defer { ticking = false }
        repeat {
            tickPending = false
            runTick()
        } while tickPending
    }

    private func runTick() {
        core.advance(to: clock.now)
        guard core.hasEvents else { return }
        // Every event is matched to its animator before any handler runs (a handler may
        // start, stop or release animators).
        core.drainEvents { event in
            switch event {
            case .pausedAtEnd(let run):
                guard let animator = release(run) else { return }
                pausing.append(animator)
            case .finished(let run, let position):
                guard let animator = release(run) else { return }
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

    /// The animator that `run` kept alive, which the engine holds no longer.
    private func release(_ run: RunHandle) -> PropertyAnimator? {
        let i = Int(run.index)
        guard let animator = retained[i] else { return nil }
        animator.ownedEngine = self
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
    /// engine); an animator that is not running keeps its engine instead.
    func updateRetention(of animator: PropertyAnimator, run: RunHandle) {
        let i = Int(run.index)
        if core.isRunning(run) {
            retained[i] = animator
            animator.ownedEngine = nil
        } else if retained[i] === animator {
            retained[i] = nil
            animator.ownedEngine = self
        }
    }

    /// Brings the core's time to the clock's (a call made between the clock's advance and the
    /// tick it triggers, from a completion handler, starts its legs at the clock's time).
    func syncTime() {
        if clock.now > core.now { core.now = clock.now }
    }
}

extension ViewAnimatingPosition {
    init(_ position: RunPosition) {
        switch position {
        case .end: self = .end
        case .start: self = .start
        case .current: self = .current
        }
    }
}

extension RunPosition {
    init(_ position: ViewAnimatingPosition) {
        switch position {
        case .end: self = .end
        case .start: self = .start
        case .current: self = .current
        }
    }
}

/// An animator whose run ended in a tick, with the position it ended at: its completion
/// handlers run once the tick has let go of the engine's arrays.
struct PendingCompletion {
    let animator: PropertyAnimator
    let position: ViewAnimatingPosition
}
