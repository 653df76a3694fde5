/// Many distinct cubic-bezier easing curves evaluated side by side, four lanes at a time,
/// each at its own progress, with no per-curve table: the solve for keyframe batches whose
/// tracks ease the same segment with different curves (``KeyframeBatch``).
///
/// Each lane solves x(t) = u by Newton's method from t = u, safeguarded by a bracket
/// (a step that leaves the bracket bisects it instead), for a fixed number of steps with no
/// test between them, so that lanes never wait for each other and random curves cost no
/// mispredicted exits. One more Newton step then gives t, and y(t) the value. A lane is
/// certified when the error that step can leave in y, estimated from the step, the
/// curvature of x and the rounding of the residual, is below `tolerance`; the others (steep
/// curves next to a vertical tangent, the triple root of (1, 0, 0, 1), progress outside
/// [0, 1]) are reported, and the caller evaluates them with `exactValue`, the bracketed
/// solve that ``CubicBezier`` falls back on (no allocation, no table).
/// A lane whose curve is the identity (x1 = y1 and x2 = y2) gives u exactly; u = 0 and u = 1
/// give 0 and 1 exactly.
package enum BezierLanes {
    /// Newton (or bisection) steps before the final step.
    static let steps = 6
    /// The largest error in y the final step may leave on a certified lane (the value is
    /// within about this of the exact one, as ``CubicBezier/value(at:)`` is within 1e-12).
    static let tolerance = 1e-13

    /// The values of four curves, control points (x1, y1), (x2, y2) by lane, at progress `u`,
    /// and which lanes are certified (`ok`); uncertified lanes hold an unspecified value.
    @inline(__always)
    package static func values(x1: SIMD4<Double>, y1: SIMD4<Double>, x2: SIMD4<Double>, y2: SIMD4<Double>,
                               at u: SIMD4<Double>) -> (w: SIMD4<Double>, ok: SIMDMask<SIMD4<Int64>>) {
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
        let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
        let ax3 = 3 * ax, bx2 = 2 * bx
        let inside = (u .>= 0) .& (u .<= 1)
        // Outside [0, 1] the lanes are reported; start them inside so that nothing overflows.
        let target = u.replacing(with: 0.5, where: .!inside)
        var lo = SIMD4<Double>(repeating: 0), hi = SIMD4<Double>(repeating: 1)
        var t = target
        for _ in 0 ..< steps {
            let f = ((ax * t + bx) * t + cx) * t - target
            let d = (ax3 * t + bx2) * t + cx
            lo.replace(with: t, where: f .< 0)
            hi.replace(with: t, where: f .> 0)
            let next = t - f / d
            // Where the step leaves the bracket (or is NaN: x′ = 0), bisect; where the
            // residual is 0, stay.
            let bisect = 0.5 * (lo + hi)
            let moved = next.replacing(with: bisect, where: .!((next .>= lo) .& (next .<= hi)))
            t = moved.replacing(with: t, where: f .== 0)
        }
        let f = ((ax * t + bx) * t + cx) * t - target
        let d = (ax3 * t + bx2) * t + cx
        let delta = f / d
        let s = t - delta
        var w = ((ay * s + by) * s + cy) * s
        // The error the final step leaves in t (quadratic in the step) plus the rounding of
        // the residual carried by the step, times |y′|.
        let bend = magnitude(2 * ax3 * t + bx2)
        let residualRounding = 0x1p-50 * (magnitude(ax) + magnitude(bx) + magnitude(cx) + target)
        let errorT = (bend * delta * delta * 0.5 + residualRounding) / d
        let dy = magnitude((3 * ay * s + 2 * by) * s + cy)
        var ok = inside .& (d .> 0) .& (magnitude(delta) .<= 0x1p-20) .& (dy * errorT .<= SIMD4(repeating: tolerance))
        // Exact ends and the identity.
        let identity = (x1 .== y1) .& (x2 .== y2)
        w.replace(with: u, where: identity)
        w.replace(with: 0, where: u .== 0)
        w.replace(with: 1, where: u .== 1)
        ok = ok .| (identity .& inside) .| (u .== 0) .| (u .== 1)
        return (w, ok)
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

    /// |v| lane by lane.
    @inline(__always)
    package static func magnitude(_ v: SIMD4<Double>) -> SIMD4<Double> {
        v.replacing(with: -v, where: v .< 0)
    }
}
