/// The timing of one active animator, stored in the engine's contiguous record array so a
/// tick walks plain structs rather than objects.
///
/// An animator's run is a sequence of **legs**. A leg moves the time fraction `f` from `f0`
/// to `f1` over `length` seconds starting at clock time `start` (a delayed start is a leg
/// whose `start` is in the future). In a direct leg the segments' progress is the timing
/// curve at `f` (so a reversed leg retraces the forward path exactly); in a continuation leg
/// (after `continueAnimation`, or resuming after a linear scrub) each segment moves from the
/// progress it had when the leg began to the leg's target along `legCurve`.
struct TimingRecord {
    /// Whether time advances the record (a running animator).
    var running = false
    /// Whether the segments' progress must be recomputed at the next evaluation.
    var needsUpdate = false
    /// Start order, for the order of completions within a tick.
    var order: UInt64 = 0
    /// The animator's timing curve, and its run's duration (seconds, f from 0 to 1).
    var curve: ProgressCurve = .linear
    var duration: Double = 0
    /// Linear mapping while scrubbed with `scrubsLinearly`.
    var linearScrub = false
    // The current leg.
    var continuation = false
    var legCurve: ProgressCurve = .linear
    var start: Double = 0
    var length: Double = 0
    var f0: Double = 0
    var f1: Double = 1
    /// Where the leg's end leaves the properties: `.end` or `.start` (an autoreversing run
    /// ends at `.end`, UIKit's snap to the model values).
    var endPosition: ViewAnimatingPosition = .end
    // Repetition (block-based animations).
    var repeats = false
    var autoreverses = false
    // Current values.
    var f: Double = 0
    var u: Double = 0
    /// The curve at `f` (direct legs, not scrubbed): the progress of every segment that
    /// spans the whole run, computed once per tick.
    var progressX: Double = 0
    var progressY: Double = 0

    /// How close (seconds) to its end time a leg counts as ended: 1 ns, far below any
    /// frame interval, far above the rounding of clock arithmetic.
    static let endTolerance = 1e-9

    /// The progress target of the leg: 1 going forward, 0 going back.
    var target: Double { f1 >= f0 ? 1 : 0 }

    /// Advances to clock time `now` and computes the run's progress; returns true when the
    /// leg (and the run) has ended.
    mutating func advance(to now: Double) -> Bool {
        let ended = advanceTime(to: now)
        updateProgress()
        return ended
    }

    /// The whole-run progress at the current fraction (one timing solve).
    @inline(__always)
    mutating func updateProgress() {
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
