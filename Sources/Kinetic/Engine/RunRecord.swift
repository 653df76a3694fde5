/// Where a run leaves its lanes when it ends: at the end values, the start values, or
/// wherever it was (UIKit's `UIViewAnimatingPosition`, with the same raw values).
package enum RunPosition: Int8, Sendable {
    case end = 0, start = 1, current = 2
}

/// The timing of one run, stored in the engine's contiguous record array so a tick walks
/// plain structs rather than objects.
///
/// A run is a sequence of **legs**. A leg moves the time fraction `f` from `f0`
/// to `f1` over `length` seconds starting at clock time `start` (a delayed start is a leg
/// whose `start` is in the future). In a direct leg the segments' progress is the timing
/// curve at `f` (so a reversed leg retraces the forward path exactly); in a continuation leg
/// (after `continueAnimation`, or resuming after a linear scrub) `f` still moves linearly,
/// and each segment covers the rest of its window from the progress it had when the leg
/// began, its share of that rest eased by `legCurve` (a segment over the whole run: from its
/// progress to the leg's target along `legCurve`).
package struct TimingRecord {
    // The flags, the state-machine fields, the generation and the order first, in one
    // 16-byte line.
    private var flags: UInt16 = Flag.interruptible | Flag.scrubsLinearly
    /// Where the leg's end leaves the properties: `.end` or `.start` (an autoreversing run
    /// ends at `.end`, UIKit's snap to the model values).
    package var endPosition: RunPosition = .end
    /// The run's place in the `UIViewAnimating` state machine.
    var phase: RunPhase = .inactive
    /// Counts the runs that have used this record, so that a stale handle is told apart.
    package var generation: UInt32 = 0
    /// Start order, for the order of completions within a tick.
    package var order: UInt64 = 0

    private enum Flag {
        static let live: UInt16 = 1, running: UInt16 = 2, needsUpdate: UInt16 = 4, linearScrub: UInt16 = 8
        static let continuation: UInt16 = 16, pausesOnCompletion: UInt16 = 32, repeats: UInt16 = 64
        static let autoreverses: UInt16 = 128, reversed: UInt16 = 256, interruptible: UInt16 = 512
        static let scrubsLinearly: UInt16 = 1024, beginsFromCurrentState: UInt16 = 2048
        static let hasAnimations: UInt16 = 4096, animatesLanes: UInt16 = 8192
    }

    @inline(__always)
    private func flag(_ bit: UInt16) -> Bool { flags & bit != 0 }
    @inline(__always)
    private mutating func set(_ bit: UInt16, _ on: Bool) { flags = on ? flags | bit : flags & ~bit }

    /// Whether the record belongs to a run (false once freed).
    package var live: Bool { get { flag(Flag.live) } set { set(Flag.live, newValue) } }
    /// Whether time advances the record (a running run).
    package var running: Bool { get { flag(Flag.running) } set { set(Flag.running, newValue) } }
    /// Whether the segments' progress must be recomputed at the next evaluation.
    package var needsUpdate: Bool { get { flag(Flag.needsUpdate) } set { set(Flag.needsUpdate, newValue) } }
    /// Linear mapping while scrubbed with `scrubsLinearly`.
    package var linearScrub: Bool { get { flag(Flag.linearScrub) } set { set(Flag.linearScrub, newValue) } }
    /// Whether the current leg is a continuation leg.
    package var continuation: Bool { get { flag(Flag.continuation) } set { set(Flag.continuation, newValue) } }
    /// Pause at the end of the run instead of ending it (`pausesOnCompletion`).
    package var pausesOnCompletion: Bool {
        get { flag(Flag.pausesOnCompletion) }
        set { set(Flag.pausesOnCompletion, newValue) }
    }
    /// Start over at the end (block-based animations' `.repeat`).
    package var repeats: Bool { get { flag(Flag.repeats) } set { set(Flag.repeats, newValue) } }
    /// Go back at the end before repeating or ending (`.autoreverse`).
    package var autoreverses: Bool { get { flag(Flag.autoreverses) } set { set(Flag.autoreverses, newValue) } }
    /// The state machine's direction (`isReversed`).
    var reversed: Bool { get { flag(Flag.reversed) } set { set(Flag.reversed, newValue) } }
    /// Whether the run may be paused, stopped, reversed or continued while running.
    var interruptible: Bool { get { flag(Flag.interruptible) } set { set(Flag.interruptible, newValue) } }
    /// Whether a scrub maps the fraction to progress linearly.
    var scrubsLinearly: Bool { get { flag(Flag.scrubsLinearly) } set { set(Flag.scrubsLinearly, newValue) } }
    /// Whether animations were added since the run became active.
    var hasAnimations: Bool { get { flag(Flag.hasAnimations) } set { set(Flag.hasAnimations, newValue) } }
    /// Whether those animations animate any lane (they may all have changed nothing).
    var animatesLanes: Bool { get { flag(Flag.animatesLanes) } set { set(Flag.animatesLanes, newValue) } }
    /// Whether animations start from the current output (`.beginFromCurrentState`).
    var beginsFromCurrentState: Bool {
        get { flag(Flag.beginsFromCurrentState) }
        set { set(Flag.beginsFromCurrentState, newValue) }
    }
    /// The run's timing curve, and its duration (seconds, f from 0 to 1). The curves are
    /// references that the engine keeps alive while the record in its array holds them (see
    /// ``CurveRef``): a record is plain data. Internal, so that a copy handed out of the
    /// module (``LaneEngine/timing(of:)``) cannot evaluate a curve the engine has let go.
    var curve: CurveRef = .linear
    package var duration: Double = 0
    // The current leg.
    var legCurve: CurveRef = .linear
    package var start: Double = 0
    package var length: Double = 0
    package var f0: Double = 0
    package var f1: Double = 1
    // Current values.
    package var f: Double = 0
    package var u: Double = 0
    /// The curve at `f` (direct legs, not scrubbed): the progress of every segment that
    /// spans the whole run, computed once per tick (``progressY`` is its vertical lanes').
    package var progressX: Double = 0
    /// The record's segments, a list in index order through `Segment.nextOfOwner` (−1: none):
    /// every segment added since the record was made, live or ended, until the engine
    /// compacts its segments (a record made afresh starts an empty list; the ended segments
    /// of its previous run stay unlisted until then). A run's own segments are found without a
    /// pass over every run's.
    var firstSegment: Int32 = -1
    var lastSegment: Int32 = -1

    /// How close (seconds) to its end time a leg counts as ended: 1 ns, far below any
    /// frame interval, far above the rounding of clock arithmetic.
    package static let endTolerance = 1e-9

    /// A record at rest: not running, fraction 0, linear.
    package init() {}

    /// The progress target of the leg: 1 going forward, 0 going back.
    package var target: Double { f1 >= f0 ? 1 : 0 }

    /// Advances to clock time `now` and computes the run's progress; returns true when the
    /// leg (and the run) has ended.
    package mutating func advance(to now: Double) -> Bool {
        let ended = advanceTime(to: now)
        updateProgress()
        return ended
    }

    /// The whole-run progress at the current fraction (one timing solve).
    @inline(__always)
    package mutating func updateProgress() {
        guard !continuation, !linearScrub else { return }
        progressX = curve.x(f)
    }

    /// The whole-run progress of vertical lanes at the current fraction: ``progressX``, or,
    /// for a spring whose two axes start at different velocities, a solve of its own (not
    /// stored: such springs are rare, and every record would carry the field).
    @inline(__always)
    var progressY: Double {
        curve.isAxisDependent ? curve.y(f) : progressX
    }

    private mutating func advanceTime(to now: Double) -> Bool {
        needsUpdate = true
        while true {
            if now < start {
                u = 0
                f = f0
                return false
            }
            // A run of length L started at frame time a ends on the frame at a + L: the
            // two times are computed differently (a + L against frame / rate) and may differ
            // by rounding, so the end is taken within `endTolerance` of it.
            if length > 0, now < start + length - Self.endTolerance {
                u = (now - start) / length
                f = f0 + (f1 - f0) * u
                return false
            }
            u = 1
            f = f1
            // The leg is over: repeat, reverse, or end.
            guard !continuation, repeats || (autoreverses && f1 == 1) else { return true }
            let nextStart = start + Swift.max(length, 0)
            if length <= 0 { return !repeats }  // a zero-length repeating run would spin
            if autoreverses {
                swap(&f0, &f1)
            } else {
                f0 = 0
                f1 = 1
            }
            length = duration
            // Skip whole cycles at once after a long jump.
            let cycle = autoreverses ? 2 * duration : duration
            let previous = start
            if repeats, cycle > 0, now - nextStart > cycle {
                let skipped = ((now - nextStart) / cycle).rounded(.down)
                start = nextStart + skipped * cycle
            } else {
                start = nextStart
            }
            // A cycle below the rounding of the clock's time (a duration of 1e-300, or 0.5 s
            // at a time of 1e17) moves no start: the leg begins at `now` instead, so that a
            // tick takes a bounded number of steps whatever the duration.
            if !(start > previous) {
                start = now
                u = 0
                f = f0
                return false
            }
        }
    }
}
