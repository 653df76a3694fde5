import KineticSIMD

/// Many distinct cubic-bezier easing curves evaluated side by side, each at its own progress,
/// with no per-curve table: the solve for keyframe batches whose tracks ease the same segment
/// with different curves (``KeyframeBatch``).
///
/// The kernel (`kinetic_simd_bezier_lanes`, KineticSIMD's bezier_lanes.c, vectorised to the
/// widest instruction set the processor has: AVX-512, AVX2 or 128-bit, the same bits) solves
/// x(t) = u in each lane by Halley's method from t = u (from prepared planes, from a better
/// start: see below), each step clamped to [0, 1], for a
/// fixed number of steps with no test between them, so that lanes never wait for each other
/// and random curves cost no mispredicted exits; 32 lanes (AVX-512, AVX2) or 16 (128-bit
/// vectors) go through the steps together, so that their independent chains overlap. One
/// Newton step then gives t, and y(t) the value. A lane is certified when the error that step
/// can leave in y, estimated from the step, the curvature of x and the rounding of the
/// residual, plus the rounding of y itself, is below 1e-13 (so curves with large y control
/// values, whose power form cancels, go to the exact solve); the others are reported.
/// `resolveUncertified` gives them their values: a second pass of the kernel with more steps
/// over just those lanes (most of them are a step short, next to a steep stretch), then
/// `exactValue`, the bracketed solve that ``CubicBezier`` falls back on (no allocation, no
/// table), for the lanes it leaves (next to a vertical tangent, the triple root of
/// (1, 0, 0, 1), progress outside [0, 1]).
/// A lane whose curve is the identity (x1 = y1 and x2 = y2) gives u exactly; u = 0 and u = 1
/// give 0 and 1 exactly.
///
/// Curves solved at many shared progresses (a keyframe batch, frame after frame) are prepared
/// once (`prepare`): their coefficients and bounds, and t(x), the inverse of x(t), at five
/// knots with its slopes. At a shared progress every lane has the same knot interval and
/// Hermite weights, so the start costs four plane loads per lane, and two Halley steps from it
/// replace the three from t = u (`values(prepared:stride:at:into:ok:count:)`).
package enum BezierLanes {
    /// The kernel path for this processor (AVX-512, AVX2 or the 128-bit baseline; the same
    /// bits).
    static let simdPath = kinetic_simd_best_path()

    /// `w[i]` = curve i's eased progress at `u[i]`, `ok[i]` = 1 where certified (within 1e-13
    /// of the exact value), 0 where the caller must resolve the lane (`resolveUncertified`);
    /// `count` lanes, control points in the four planes.
    package static func values(x1: UnsafePointer<Double>, y1: UnsafePointer<Double>, x2: UnsafePointer<Double>,
                               y2: UnsafePointer<Double>, at u: UnsafePointer<Double>, into w: UnsafeMutablePointer<Double>,
                               ok: UnsafeMutablePointer<UInt8>, count: Int) {
        kinetic_simd_bezier_lanes(simdPath, x1, y1, x2, y2, u, w, ok, count)
    }

    /// `values` with one progress `u` for every lane.
    package static func values(x1: UnsafePointer<Double>, y1: UnsafePointer<Double>, x2: UnsafePointer<Double>,
                               y2: UnsafePointer<Double>, at u: Double, into w: UnsafeMutablePointer<Double>,
                               ok: UnsafeMutablePointer<UInt8>, count: Int) {
        kinetic_simd_bezier_lanes_shared(simdPath, x1, y1, x2, y2, u, w, ok, count)
    }

    /// The number of prepared planes per curve (`prepare`).
    package static let preparedPlanes = Int(KINETIC_SIMD_BEZIER_LANES_PREPARED_PLANES)

    /// Writes the `count` curves' `preparedPlanes` prepared planes, `stride` (≥ `count`) apart,
    /// from their control points, for curves solved at many progresses: what the kernel
    /// otherwise computes from the control points on every call (the power-form coefficients,
    /// the rounding bounds of x and y, and whether the curve is the identity), and a start for
    /// the solve (the inverse t(x) at five knots, with its slopes there).
    package static func prepare(x1: UnsafePointer<Double>, y1: UnsafePointer<Double>, x2: UnsafePointer<Double>,
                                y2: UnsafePointer<Double>, into planes: UnsafeMutablePointer<Double>, stride: Int,
                                count: Int) {
        kinetic_simd_bezier_lanes_prepare(simdPath, x1, y1, x2, y2, planes, stride, count)
    }

    /// `values` with one progress `u` for every lane, from the curves' prepared planes
    /// (`prepare`): two Halley steps from the monotone cubic Hermite interpolant of the
    /// knots, then the same certified step. The same certificate, so values within 1e-13 of
    /// the exact ones where certified, and the same bits on every path; not the same bits as
    /// the solve from control points, which starts at t = u.
    package static func values(prepared planes: UnsafePointer<Double>, stride: Int, at u: Double,
                               into w: UnsafeMutablePointer<Double>, ok: UnsafeMutablePointer<UInt8>, count: Int) {
        kinetic_simd_bezier_lanes_shared_prepared(simdPath, planes, stride, u, w, ok, count)
    }

    /// Replaces `w[i]` for every lane i < `count` whose `ok[i]` is 0 (the lanes that `values`
    /// did not certify) by its certified value: first from a second pass of the kernel with
    /// more steps over those lanes, gathered `Scratch.capacity` at a time, then, for the lanes
    /// that pass does not certify either (and at once for progress outside [0, 1] or NaN,
    /// which no pass certifies), from `exactValue`. Curve i is (x1[i], y1[i]),
    /// (x2[i], y2[i]) at progress `u[i]`, or at `sharedU` for every lane when `u` is nil.
    /// Certified lanes are skipped eight at a time. Allocates nothing.
    package static func resolveUncertified(w: UnsafeMutablePointer<Double>, ok: UnsafePointer<UInt8>, count n: Int,
                                           x1: UnsafePointer<Double>, y1: UnsafePointer<Double>,
                                           x2: UnsafePointer<Double>, y2: UnsafePointer<Double>,
                                           u: UnsafePointer<Double>?, sharedU: Double, scratch: Scratch) {
        var gathered = 0
        @inline(__always) func gather(_ i: Int) {
            let progress = u?[i] ?? sharedU
            // Outside [0, 1] (or NaN) no pass certifies a lane: the extrapolation at once.
            guard progress >= 0 && progress <= 1 else {
                w[i] = exactValue(x1[i], y1[i], x2[i], y2[i], at: progress)
                return
            }
            scratch.lane[gathered] = i
            let c = Scratch.capacity
            scratch.planes[gathered] = x1[i]
            scratch.planes[c + gathered] = y1[i]
            scratch.planes[2 * c + gathered] = x2[i]
            scratch.planes[3 * c + gathered] = y2[i]
            scratch.planes[4 * c + gathered] = progress
            gathered &+= 1
            if gathered == c {
                retry(scratch, count: gathered, into: w)
                gathered = 0
            }
        }
        let allCertified = UInt64(0x0101_0101_0101_0101)
        var i = 0
        while i &+ 8 <= n {
            if UnsafeRawPointer(ok + i).loadUnaligned(as: UInt64.self) != allCertified {
                for k in i ..< i &+ 8 where ok[k] == 0 { gather(k) }
            }
            i &+= 8
        }
        while i < n {
            if ok[i] == 0 { gather(i) }
            i &+= 1
        }
        if gathered > 0 { retry(scratch, count: gathered, into: w) }
    }

    /// The second pass over the `count` lanes gathered in `scratch`, and the exact solve for
    /// those it does not certify; each result goes to `w` at its lane.
    private static func retry(_ scratch: Scratch, count m: Int, into w: UnsafeMutablePointer<Double>) {
        let c = Scratch.capacity
        let x1 = scratch.planes, y1 = x1 + c, x2 = y1 + c, y2 = x2 + c, u = y2 + c, out = u + c
        kinetic_simd_bezier_lanes_retry(simdPath, x1, y1, x2, y2, u, out, scratch.ok, m)
        for j in 0 ..< m {
            w[scratch.lane[j]] = scratch.ok[j] == 1 ? out[j] : exactValue(x1[j], y1[j], x2[j], y2[j], at: u[j])
        }
    }

    /// The working memory of `resolveUncertified`, allocated once by its single owner (a
    /// keyframe batch, which frees it once) so that a frame allocates nothing.
    package struct Scratch {
        /// Lanes gathered per second pass.
        static let capacity = 64
        /// Six planes of `capacity`: x1, y1, x2, y2, u, and the pass's values.
        let planes: UnsafeMutablePointer<Double>
        let ok: UnsafeMutablePointer<UInt8>
        /// The lane each gathered entry came from.
        let lane: UnsafeMutablePointer<Int>

        package init() {
            planes = .allocate(capacity: 6 * Self.capacity)
            ok = .allocate(capacity: Self.capacity)
            lane = .allocate(capacity: Self.capacity)
        }

        package func deallocate() {
            planes.deallocate(); ok.deallocate(); lane.deallocate()
        }
    }

    /// The largest |w[i]| over `count` values (0 for none), in one vector pass.
    package static func largestMagnitude(_ w: UnsafePointer<Double>, count: Int) -> Double {
        kinetic_simd_max_magnitude_checked(simdPath, w, count)
    }

    /// The exact value of the curve (x1, y1), (x2, y2) at `u`, as ``CubicBezier/value(at:)``
    /// gives it to within rounding, for a lane that `values` does not certify, with no
    /// allocation: in [0, 1] the bracketed Newton/bisection solve to one unit in the last
    /// place of t (started from the closed-form root where there is one, as at the triple
    /// root), outside it the extrapolation along the end tangents.
    package static func exactValue(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at u: Double) -> Double {
        if x1 == y1 && x2 == y2 { return u }
        if !(u >= 0 && u <= 1) {
            if u.isNaN { return u }
            let (start, end) = BezierConstants.endGradients(x1, y1, x2, y2)
            if u < 0 { return start == 0 ? 0 : BezierTable.clampFinite(start * u) }
            return end == 0 ? 1 : BezierTable.clampFinite(1 + end * (u - 1))
        }
        if u == 0 || u == 1 { return u }
        let poly = BezierPolynomial(x1, y1, x2, y2)
        var guess = u
        if let root = poly.closedFormRoot(u), root >= 0 && root <= 1 { guess = root }
        return BezierTable.clampFinite(poly.y(poly.solveBracketed(u, lo: 0, hi: 1, guess: guess)))
    }
}
