import KineticPlatform

/// A cubic bezier from (0, 0) to (1, 1) in power form:
/// x(t) = ((ax·t + bx)·t + cx)·t and y(t) = yScale·((ay·t + by)·t + cy)·t, with the robust
/// bracketed solver that every other path falls back on.
///
/// `yScale` is 1 unless a y control value is so large (beyond 2^1000) that the power-form
/// coefficients would overflow; it is then a power of two, so scaling is exact.
package struct BezierPolynomial {
    let ax, bx, cx, ay, by, cy: Double
    let yScale: Double
    /// The x control values exactly (a mirrored half's 1 − x2 and 1 − x1 need two doubles),
    /// for the exact residual of the bracketed solver.
    let exactX1, exactX2: DoubleDouble

    /// The curve with control points (x1, y1), (x2, y2).
    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.init(x1, y1, x2, y2, exactX1: DoubleDouble(x1), exactX2: DoubleDouble(x2))
    }

    /// The curve mirrored through (1/2, 1/2): control points (1 − x2, 1 − y2), (1 − x1, 1 − y1).
    init(mirroring x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.init(1 - x2, 1 - y2, 1 - x1, 1 - y1,
                  exactX1: DoubleDouble.twoSum(1, -x2), exactX2: DoubleDouble.twoSum(1, -x1))
    }

    private init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, exactX1: DoubleDouble, exactX2: DoubleDouble) {
        self.exactX1 = exactX1
        self.exactX2 = exactX2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        let big = max(abs(y1), abs(y2))
        // Powers of two, so the scaling is exact; multiplying by the inverse, built directly,
        // keeps divisions off the common path (this runs on every evaluation before the
        // solve table exists).
        let large = big > 0x1p1000
        let scale = large ? Double(sign: .plus, exponent: big.exponent, significand: 1) : 1
        let inverse = large ? Double(sign: .plus, exponent: -big.exponent, significand: 1) : 1
        let sy1 = y1 * inverse, sy2 = y2 * inverse
        yScale = scale
        cy = 3 * sy1
        by = 3 * (sy2 - sy1) - cy
        ay = inverse - cy - by
    }

    /// Reads the coefficients stored by ``BezierTable`` at `p`.
    init(coefficientsAt p: UnsafePointer<Double>) {
        ax = p[BezierTable.iAX]; bx = p[BezierTable.iBX]; cx = p[BezierTable.iCX]
        ay = p[BezierTable.iAY]; by = p[BezierTable.iBY]; cy = p[BezierTable.iCY]
        yScale = abs(p[BezierTable.iYSign])
        exactX1 = DoubleDouble(p[BezierTable.iX1Hi], p[BezierTable.iX1Lo])
        exactX2 = DoubleDouble(p[BezierTable.iX2Hi], p[BezierTable.iX2Lo])
    }

    /// x(t) − target with about 106-bit accuracy:
    /// 3·x1·t·(1 − t)² + 3·x2·t²·(1 − t) + t³ − target in double-double arithmetic.
    func exactResidual(_ t: Double, _ target: Double) -> Double {
        let u = DoubleDouble.twoSum(1, -t)
        let tu = u * t
        let tuu = tu * u
        let ttu = tu * t
        let ttt = DoubleDouble.twoProduct(t, t) * t
        let sum = (exactX1 * tuu + exactX2 * ttu) * 3 + ttt
        return (sum + DoubleDouble(-target)).value
    }

    @inline(__always) func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func y(_ t: Double) -> Double { yScale * (((ay * t + by) * t + cy) * t) }
    @inline(__always) func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    @inline(__always) func dy(_ t: Double) -> Double { (3 * ay * t + 2 * by) * t + cy }
    @inline(__always) func ddx(_ t: Double) -> Double { 6 * ax * t + 2 * bx }
    @inline(__always) func ddy(_ t: Double) -> Double { 6 * ay * t + 2 * by }

    /// The real root of x(t) = target by Cardano's formula about the inflection point
    /// t0 = −bx/(3ax), in its stable form (the cube root taken on the side that adds, the
    /// other term from Vieta), where the cubic has one real root; nil where it has three, or
    /// no cubic term, or the arithmetic overflows. Accurate to about 2^-46 of the parameter
    /// (the cube root takes two Halley steps) away from the inflection, and to about the cube
    /// root of the rounding next to it: a start for ``polish(_:lo:hi:start:)`` and the
    /// bracketed solve where Newton's method from anywhere else converges only linearly (x′
    /// vanishing next to the root, as at a triple root). Two divisions besides the cube
    /// root's: it runs on every evaluation on a flagged segment.
    func closedFormRoot(_ target: Double) -> Double? {
        guard ax != 0 else { return nil }
        let inverse = 1 / (3 * ax)
        let t0 = -bx * inverse
        let p3 = (cx - bx * bx * inverse) * inverse  // x′(t0) / (3ax)
        let q = 3 * (x(t0) - target) * inverse
        let d = 0.25 * q * q + p3 * p3 * p3
        guard d >= 0 && d.isFinite else { return nil }
        let a = -(q < 0 ? -1.0 : 1.0) * Self.cubeRoot(0.5 * abs(q) + d.squareRoot(), halleySteps: 2)
        let t = t0 + (a == 0 ? 0 : a - p3 / a)
        return t.isFinite ? t : nil
    }

    /// The real cube root of v (for negative v, minus that of −v): the starts of the solves
    /// above, which refine them to the root (the platform's `cbrt` is correctly rounded but
    /// several times slower, and it sat on the path of every flagged segment). The start
    /// divides the exponent by 3 in the bit pattern (within 4 %), then `halleySteps` Halley
    /// steps, each cubing the relative error: two give about 2^-46, three (the default) a
    /// few units in the last place. ±0, ±infinity and NaN come back unchanged; tiny and huge
    /// v are scaled by an exact power of two (2^±969) first, so that neither the start nor the
    /// steps leave the normal range.
    package static func cubeRoot(_ v: Double, halleySteps: Int = 3) -> Double {
        if v < 0 && v.isFinite { return -cubeRoot(-v, halleySteps: halleySteps) }
        guard v > 0 && v.isFinite else { return v }
        if v < 0x1p-960 { return cubeRoot(v * 0x1p969, halleySteps: halleySteps) * 0x1p-323 }
        if v > 0x1p960 { return cubeRoot(v * 0x1p-969, halleySteps: halleySteps) * 0x1p323 }
        var y = Double(bitPattern: v.bitPattern / 3 &+ 0x2A9F_7893_782D_A1CE)
        for _ in 0..<halleySteps {
            let y3 = y * y * y
            y *= (y3 + 2 * v) / (2 * y3 + v)
        }
        return y
    }

    /// Solves x(t) = target for a tiny target (at most 2^-26) on [0, `hi`], where x increases
    /// and x(hi) ≥ 1/2, to full relative precision. Near 0 the residual x(t) − target has no
    /// cancellation of its own, so plain double arithmetic keeps relative precision down to
    /// the subnormals.
    ///
    /// The start is the smallest of the roots of the positive terms taken alone (cx·t,
    /// bx·t², ax·t³ = target), within a small factor of t when the terms are positive and
    /// the term that dominates near 0 otherwise. Newton steps that leave the bracket
    /// [lo, hi] are replaced by its geometric mean, so the iteration also converges from a
    /// poor start (a negative bx) in a few dozen steps at most, with lo starting at
    /// target / (|ax| + |bx| + cx), where x(lo) ≤ target.
    func solveNearZero(_ target: Double, hi: Double) -> Double {
        var guess = Double.infinity
        if cx > 0 { guess = target / cx }
        if bx > 0 { guess = min(guess, target.squareRoot() / bx.squareRoot()) }
        if ax > 0 { guess = min(guess, Self.cubeRoot(target) / Self.cubeRoot(ax)) }
        var lo = max(target / (abs(ax) + abs(bx) + cx), .leastNonzeroMagnitude), hi = hi
        var t = min(max(guess, lo), hi)
        for _ in 0..<200 {
            let f = x(t) - target
            if f == 0 { return t }
            if f < 0 { lo = t } else { hi = t }
            let step = f / dx(t)
            // Converged: the step is below double resolution relative to t (it may round away).
            if abs(step) <= 0x1p-53 * t { return t - step }
            var next = t - step
            if !(next > lo && next < hi) {
                next = (lo * hi).squareRoot()
                if !(next > lo && next < hi) { next = lo + 0.5 * (hi - lo) }
                if !(next > lo && next < hi) { return abs(x(lo) - target) <= abs(x(hi) - target) ? lo : hi }
            }
            t = next
        }
        return t
    }

    /// Solves x(t) = target for t in [lo, hi] from `start`, the closed-form root
    /// (``closedFormRoot(_:)``), usually within about 2^-46 of the root away from a triple root:
    /// one Newton step with ``solveBracketed(_:lo:hi:guess:)``'s residual, accepted when it
    /// provably lands within a quarter unit in the last place of the root, else the bracketed
    /// solve from there. x is a cubic, so after the step t − δ the residual is exactly
    /// x″(t)·δ²/2 − ax·δ³ (Taylor's expansion ends there), and x′ stays above half its value
    /// over the step when (|x″(t)| + 3·|ax|·|δ|)·|δ| ≤ x′(t)/2: together they bound the error
    /// of t − δ. Where the closed form is good (away from a triple root) this replaces the
    /// two or three exact residuals of the bracketed iteration by one.
    func polish(_ target: Double, lo: Double, hi: Double, start t: Double) -> Double {
        let slope = dx(t)
        var f = x(t) - target
        if abs(f) < 0x1p-40 && slope < 0.125 { f = exactResidual(t, target) }
        if f == 0 { return t }
        guard slope > 0 else { return solveBracketed(target, lo: lo, hi: hi, guess: t) }
        let delta = f / slope
        let next = t - delta
        let size = abs(delta), curvature = abs(ddx(t)), cubic = abs(ax)
        let remainder = (0.5 * curvature + cubic * size) * (size * size)
        if next >= lo && next <= hi && (curvature + 3 * cubic * size) * size <= 0.5 * slope
            && remainder <= 0x1p-55 * abs(next) * slope {
            return next
        }
        return solveBracketed(target, lo: lo, hi: hi, guess: next >= lo && next <= hi ? next : t)
    }

    /// Solves x(t) = target for t in [lo, hi] (x is non-decreasing there), starting from
    /// `guess`. Newton steps are taken only inside the bracket, otherwise the bracket is
    /// bisected; the iteration stops when the step is at most one unit in the last place of
    /// t, or the bracket cannot shrink further.
    func solveBracketed(_ target: Double, lo: Double, hi: Double, guess: Double) -> Double {
        var lo = lo, hi = hi
        // Widen to the whole curve if the bracket does not hold the root.
        if !(x(lo) <= target) { lo = 0 }
        if !(x(hi) >= target) { hi = 1 }
        var t = min(max(guess, lo), hi)
        for _ in 0..<256 {
            // The double residual, and near the root the exact one where x'(t) is small
            // enough for double rounding of x(t) (~2e-16) to move t by more than ~2e-15.
            var f = x(t) - target
            if abs(f) < 0x1p-40 && dx(t) < 0.125 { f = exactResidual(t, target) }
            if f == 0 { return t }
            if f < 0 { lo = t } else { hi = t }
            let slope = dx(t)
            var next = t - f / slope
            // Converged: the step is at most one unit in the last place, and stays in the
            // bracket (t itself, where the step rounds away: t is then an end of the bracket,
            // and bisecting away from it would take dozens of steps to come back). A bound of
            // half a unit would let the iteration creep towards the root one ulp per step
            // where x′ is small, the steps falling short of it.
            if abs(next - t) <= 0x1p-52 * abs(next) && next >= lo && next <= hi { return next }
            if !(next > lo && next < hi) {
                next = lo + 0.5 * (hi - lo)
                if next <= lo || next >= hi {
                    // The bracket cannot shrink: take the end with the smaller residual.
                    let other = f < 0 ? hi : lo
                    return abs(exactResidual(other, target)) < abs(f) ? other : t
                }
            }
            t = next
        }
        return t
    }
}
