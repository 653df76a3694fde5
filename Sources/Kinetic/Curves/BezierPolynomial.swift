/// A cubic bezier from (0, 0) to (1, 1) in power form:
/// x(t) = ((ax·t + bx)·t + cx)·t, y(t) likewise, with the robust bracketed solver that
/// every other path falls back on.
struct BezierPolynomial {
    let ax, bx, cx, ay, by, cy: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// Reads the coefficients stored by ``BezierTable`` at `p`.
    init(coefficientsAt p: UnsafePointer<Double>) {
        ax = p[BezierTable.iAX]; bx = p[BezierTable.iBX]; cx = p[BezierTable.iCX]
        ay = p[BezierTable.iAY]; by = p[BezierTable.iBY]; cy = p[BezierTable.iCY]
    }

    @inline(__always) func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    @inline(__always) func dy(_ t: Double) -> Double { (3 * ay * t + 2 * by) * t + cy }
    @inline(__always) func ddx(_ t: Double) -> Double { 6 * ax * t + 2 * bx }
    @inline(__always) func ddy(_ t: Double) -> Double { 6 * ay * t + 2 * by }

    /// Solves x(t) = target for t in [lo, hi] (x is non-decreasing there), starting from
    /// `guess`. Newton steps are taken only inside the bracket, otherwise the bracket is
    /// bisected; the iteration stops when the step is below double resolution relative
    /// to t, or the bracket cannot shrink further.
    func solveBracketed(_ target: Double, lo: Double, hi: Double, guess: Double) -> Double {
        var lo = lo, hi = hi
        // Widen to the whole curve if the bracket does not hold the root.
        if !(x(lo) <= target) { lo = 0 }
        if !(x(hi) >= target) { hi = 1 }
        var t = min(max(guess, lo), hi)
        for _ in 0..<256 {
            let f = x(t) - target
            if f == 0 { return t }
            if f < 0 { lo = t } else { hi = t }
            let slope = dx(t)
            var next = t - f / slope
            if !(next > lo && next < hi) {
                next = lo + 0.5 * (hi - lo)
                if next <= lo || next >= hi { return f < 0 ? (abs(x(hi) - target) < abs(f) ? hi : t) : (abs(x(lo) - target) < abs(f) ? lo : t) }
            }
            if abs(next - t) <= 0x1p-53 * abs(next) { return next }
            t = next
        }
        return t
    }
}
