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
///
/// An engine whose last reference goes away off the main actor ends this way when its
/// deinitialisation runs, later, on the main actor. In between, its clock no longer ticks it,
/// and its animators read as animators whose engine went away (``PropertyAnimator/state``
/// `.inactive`, ``PropertyAnimator/engine`` ``shared``); a call made on one of them acts on
/// the ending engine (it starts nothing on ``shared``), and the deinitialisation then ends it
/// as above. Its views show its values until then and cannot be animated by another engine
/// (``AnimatorError/viewBoundToAnotherEngine(view:)``).
@MainActor
public final class AnimationEngine {
    /// The engine that animators and block animations use when none is named.
    public static let shared = AnimationEngine()

    /// The clock that drives this engine.
    public let clock: ManualClock

    /// Everything the engine holds: what animators and views refer to. This handle is what
    /// the host (and every animator that is not running) keeps alive; the front does not keep
    /// it. Only the front's link refers to this handle (weakly), so the handle alone takes the
    /// runtime's slower reference counting of weakly referenced objects (an animator retains
    /// and releases it when it stops and starts running), and the front, which animators and
    /// views use on every call, does not.
    let front: EngineFront

    /// How the front and the clock refer to this engine without keeping it alive.
    var link: EngineLink { front.link }

    /// An engine on `clock` (a new clock at time 0 by default).
    public init(clock: ManualClock = ManualClock()) {
        self.clock = clock
        front = EngineFront(clock: clock)
        front.link.engine = self
        clock.attach(self)
    }

    isolated deinit {
        // Running animators end here (see "Lifetime"); views drop their lane blocks.
        front.shutDown()
    }

    // MARK: Diagnostics

    /// The number of animators that are active (running, paused or waiting for a delay).
    public var activeAnimatorCount: Int { front.core.activeRunCount }
    /// The number of property lanes currently animated (lanes with at least one animation).
    public var animatedLaneCount: Int { front.core.animatedLaneCount }
    /// The number of (span, lane) contributions of live animations.
    public var contributionCount: Int { front.core.contributionCount }
    /// Bytes of storage the engine holds (array capacities, the core's and this front's),
    /// for memory budgets.
    public var storageBytes: Int { front.storageBytes }

    // MARK: Ticking

    /// Brings every animator to the clock's current time, writes every animated lane and
    /// delivers the completions of animators whose run ended. Called by the clock on every
    /// advance; call it directly only with a clock you drive some other way.
    public func tick() {
        front.tick(engine: self)
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
