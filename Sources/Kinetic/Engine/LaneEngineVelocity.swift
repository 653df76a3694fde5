/// The lanes' velocities: the exact time derivative of `output = anchor + Σ span · progress`
/// at the engine's time ``LaneEngine/now``.
///
/// Each contribution moves at `span · dprogress/dt`, and a segment's progress rate follows
/// its run's leg by the chain rule: the leg moves its fraction at `(f1 − f0) / length` per
/// second (a continuation leg its parameter at `1 / length`), the segment's window divides
/// that by its length, and the timing curve multiplies it by its slope (a cubic curve's
/// dy/dx, a spring's velocity, a keyframe step weight's derivative). A lane that no running
/// run moves (paused, in its delay, ended, or with no animation) has velocity 0; where a run
/// is exactly at a window's edge the rate is the one it moves on with.
extension LaneEngine {
    /// The velocity of lane `lane` at ``now``, in the lane's units per second.
    /// - Precondition: `lane` is in `0 ..< laneCount`.
    package func velocity(ofLane lane: Int) -> Double {
        var v = 0.0
        withUnsafeMutablePointer(to: &v) { velocities(ofLanes: lane ..< lane + 1, into: $0) }
        return v
    }

    /// The velocities of lanes `lanes` at ``now`` (units per second), written to
    /// `out[0 ..< lanes.count]`. One pass over the live contributions.
    /// - Precondition: `lanes` is within `0 ..< laneCount`.
    package func velocities(ofLanes lanes: Range<Int>, into out: UnsafeMutablePointer<Double>) {
        out.initialize(repeating: 0, count: lanes.count)
        let low = Int32(lanes.lowerBound), high = Int32(lanes.upperBound)
        for k in segments.indices where segments[k].alive {
            let s = segments[k]
            let first = Int(s.start), end = first + s.count, split = first + Int(s.countX)
            guard targets[first ..< end].contains(where: { $0 >= low && $0 < high }) else { continue }
            let rate = progressRate(ofSegment: k)
            if rate == .zero { continue }
            for i in first ..< end where targets[i] >= low && targets[i] < high {
                // Each term is finite (a frozen contribution, span 0, adds nothing), so the
                // sum can overflow to ±infinity but never meet an opposite infinity (NaN).
                out[Int(targets[i] - low)] += Self.finite(Self.product(spans[i], i < split ? rate.x : rate.y))
            }
        }
        for j in 0 ..< lanes.count { out[j] = Self.finite(out[j]) }
    }

    /// d(progress)/dt of segment `k` for its horizontal (x) and vertical (y) lanes, per second,
    /// at ``now`` (the leg's parameter taken at `now`, so a call between ticks reads the rate
    /// of the moment). Finite: a vertical tangent of a cubic curve gives
    /// ±`greatestFiniteMagnitude`.
    func progressRate(ofSegment k: Int) -> SIMD2<Double> {
        let s = segments[k]
        let r = records[Int(s.owner)]
        // Only a running leg that has begun and not ended moves.
        guard r.running, r.length > 0, now >= r.start,
              now < r.start + r.length - TimingRecord.endTolerance else { return .zero }
        let du = 1 / r.length
        let u = (now - r.start) * du
        if r.continuation {
            let base = k < continuationBases.count ? continuationBases[k] : .zero
            if s.wholeRun {
                let t = r.target
                let dx = Self.finite(r.legCurve.slopeX(u))
                let dy = r.legCurve.isAxisDependent ? Self.finite(r.legCurve.slopeY(u)) : dx
                return SIMD2(Self.finite(Self.product(t - base.x, dx) * du), Self.finite(Self.product(t - base.y, dy) * du))
            }
            // The segment's share of the rest of its window goes through the leg's curve (see
            // `LaneEngine.progress(of:record:base:weight:)`).
            guard !s.discrete else { return .zero }
            let f = r.f0 + (r.f1 - r.f0) * u
            let windowEnd = s.windowFraction(r.f1)
            let left = windowEnd - base.w
            guard left != 0 else { return .zero }
            let dShare = s.windowRate(at: f, moving: (r.f1 - r.f0) * du) / left
            guard dShare != 0 else { return .zero }
            let share = Self.continuedShare(windowFraction: s.windowFraction(f), base: base, windowEnd: windowEnd)
            let dx = Self.finite(r.legCurve.slopeX(share))
            if s.weighted, let weight = segmentWeights[k] {
                let argument = Self.continuedArgument(base: base, windowEnd: windowEnd, eased: r.legCurve.x(share))
                let rate = Self.product(weight.basis.weightSlope(ofStep: weight.step, at: argument),
                                        Self.finite((windowEnd - base.z) * dx * dShare))
                return SIMD2(repeating: Self.finite(rate))
            }
            let dy = r.legCurve.isAxisDependent ? Self.finite(r.legCurve.slopeY(share)) : dx
            return SIMD2(Self.finite(Self.product(windowEnd - base.x, dx) * dShare),
                         Self.finite(Self.product(windowEnd - base.y, dy) * dShare))
        }
        let f = r.f0 + (r.f1 - r.f0) * u
        let df = (r.f1 - r.f0) * du
        let dg = s.windowRate(at: f, moving: df)
        guard dg != 0, !s.discrete else { return .zero }
        let g = s.windowFraction(f)
        if s.weighted, let weight = segmentWeights[k] {
            let c = r.linearScrub ? g : r.curve.x(g)
            let dc = r.linearScrub ? 1 : Self.finite(r.curve.slopeX(g))
            // A step that does not move here (held, or before its key) stays still even where
            // the run's curve is vertical.
            let rate = Self.product(weight.basis.weightSlope(ofStep: weight.step, at: c), dc)
            return SIMD2(repeating: Self.finite(rate * dg))
        }
        if r.linearScrub { return SIMD2(dg, dg) }
        let x = Self.finite(Self.finite(r.curve.slopeX(g)) * dg)
        let y = s.countY > 0 && r.curve.isAxisDependent ? Self.finite(Self.finite(r.curve.slopeY(g)) * dg) : x
        return SIMD2(x, y)
    }

    /// `a · b`, 0 when either factor is 0 (even against an infinity).
    @inline(__always)
    static func product(_ a: Double, _ b: Double) -> Double { a == 0 || b == 0 ? 0 : a * b }

    /// `x` clamped to ±`greatestFiniteMagnitude` (NaN, which the callers never produce, as 0).
    @inline(__always)
    static func finite(_ x: Double) -> Double {
        x.isNaN ? 0 : Swift.min(Swift.max(x, -.greatestFiniteMagnitude), .greatestFiniteMagnitude)
    }
}

extension Segment {
    /// d(window fraction)/dt when the run's time fraction is `f` and moves at `df` per
    /// second: `±df / windowLength` inside the window (at an edge, if `f` moves into it),
    /// 0 outside it and for a window of no length (a jump).
    @inline(__always)
    func windowRate(at f: Double, moving df: Double) -> Double {
        guard windowLength > 0, df != 0 else { return 0 }
        let d = inverted ? windowStart - f : f - windowStart
        let dd = inverted ? -df : df
        let inside = dd > 0 ? d >= 0 && d < windowLength : d > 0 && d <= windowLength
        return inside ? dd / windowLength : 0
    }
}
