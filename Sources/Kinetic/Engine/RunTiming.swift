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
/// (after `continueAnimation`, or resuming after a linear scrub) each segment moves from the
/// progress it had when the leg began to the leg's target along `legCurve`.
package struct TimingRecord {
    // The flags and the generation first, packed into one 16-byte line.
    /// Whether the record belongs to a run (false once freed).
    package var live = false
    /// Whether time advances the record (a running run).
    package var running = false
    /// Whether the segments' progress must be recomputed at the next evaluation.
    package var needsUpdate = false
    /// Linear mapping while scrubbed with `scrubsLinearly`.
    package var linearScrub = false
    /// Whether the current leg is a continuation leg.
    package var continuation = false
    /// Where the leg's end leaves the properties: `.end` or `.start` (an autoreversing run
    /// ends at `.end`, UIKit's snap to the model values).
    package var endPosition: RunPosition = .end
    /// Pause at the end of the run instead of ending it (`pausesOnCompletion`).
    package var pausesOnCompletion = false
    // Repetition (block-based animations).
    package var repeats = false
    package var autoreverses = false
    /// Counts the runs that have used this record, so that a stale handle is told apart.
    package var generation: UInt32 = 0
    /// Start order, for the order of completions within a tick.
    package var order: UInt64 = 0
    /// The run's timing curve, and its duration (seconds, f from 0 to 1).
    package var curve: ProgressCurve = .linear
    package var duration: Double = 0
    // The current leg.
    package var legCurve: ProgressCurve = .linear
    package var start: Double = 0
    package var length: Double = 0
    package var f0: Double = 0
    package var f1: Double = 1
    // Current values.
    package var f: Double = 0
    package var u: Double = 0
    /// The curve at `f` (direct legs, not scrubbed): the progress of every segment that
    /// spans the whole run, computed once per tick.
    package var progressX: Double = 0
    package var progressY: Double = 0

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
        progressY = curve.isAxisDependent ? curve.y(f) : progressX
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
            if repeats, cycle > 0, now - nextStart > cycle {
                let skipped = ((now - nextStart) / cycle).rounded(.down)
                start = nextStart + skipped * cycle
            } else {
                start = nextStart
            }
        }
    }
}
