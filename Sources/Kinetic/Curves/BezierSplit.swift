import KineticSIMD

// Where a curve's solver splits into its halves (see `BezierTable`): the parameter range of
// each half, which must reach the parameter where x = 1/2.

extension BezierHalf {
    /// The parameter ends of the two halves: the lower half (the curve) is solved on
    /// [0, lower], the upper half (the mirrored curve) on [0, upper], and each range reaches
    /// the parameter t* where x(t*) = 1/2: x(lower) ≥ 1/2 ≥ x(1 − upper), to within 2^-45 in x
    /// where the ends are t* as `split` solves it, and 2^-54 for a symmetric curve (below).
    /// A half's nodes and segments are uniform on its range, and its look-up never passes
    /// x = 1/2, so a range a little longer than needed only widens the segments by that much;
    /// each segment is certified as it is (see `certify`). Every path (the solve table, the
    /// evaluation without it) reads the ends from the curve's constants, so they agree bit for
    /// bit.
    ///
    /// t* depends on (x1, x2) alone. An estimate of it, interpolated in `SplitGrid`, is
    /// widened by `SplitGrid.margin` on both sides and accepted when x at the two sides brackets
    /// 1/2 (two evaluations of x, independent of each other): no iteration, no division. Where
    /// it does not (next to the triple root at (1, 0, 0, 1), where t* moves fast with the
    /// control points; about 1 % of random curves), both ends are t* itself, from `split`.
    /// A symmetric curve (x1 + x2 = 1: ease-in-out and the steep curves like it) has t* = 1/2,
    /// its inflection point, where x′ is smallest on the steep ones (x1 > 1/3): its ends are
    /// 1/2 exactly, so that no segment reaches across that point (x(1/2) − 1/2 =
    /// 3·(x1 + x2 − 1)/8, so a sum that only rounds to 1 leaves x(1/2) within 2^-54 of 1/2; the
    /// Newton step covers that hair, as it covers `split`'s 2^-45).
    @inline(__always)
    static func ends(_ poly: BezierPolynomial, _ x1: Double, _ x2: Double) -> (lower: Double, upper: Double) {
        if x1 + x2 == 1 { return (0.5, 0.5) }
        let estimate = SplitGrid.estimate(x1, x2)
        let below = max(0, estimate - SplitGrid.margin), above = min(1, estimate + SplitGrid.margin)
        if poly.x(below) <= 0.5 && poly.x(above) >= 0.5 { return (above, 1 - below) }
        return exactEnds(poly)
    }

    /// Both ends at the split itself (see `ends`).
    @inline(never)
    private static func exactEnds(_ poly: BezierPolynomial) -> (lower: Double, upper: Double) {
        let t = split(poly)
        return (t, 1 - t)
    }

    /// The parameter where x = 1/2: three Halley steps from t = 1/2, a fixed count with no
    /// test between them (an early exit that depends on the curve is mispredicted on
    /// distinct curves, and costs more than the step it saves), which settle it on 91 % of
    /// random curves; for the rest the search starts again from t = 1/2 and takes up to eight,
    /// stopping once a step is below 2^-50 (Halley's step converges cubically, so the next
    /// would be far below rounding). The bracketed solve takes over when the steps do not
    /// settle (x′ tiny there). The halves
    /// only need it to about 1e-12: each half's last segment reaches the split, and a guess
    /// a hair beyond it is still corrected by the Newton step.
    static func split(_ poly: BezierPolynomial) -> Double {
        var t = 0.5
        t -= halleyStep(poly, t)
        t -= halleyStep(poly, t)
        t -= halleyStep(poly, t)
        if settles(poly, t) { return t }
        return splitSlowly(poly)
    }

    /// The split where three Halley steps do not settle it.
    @inline(never)
    private static func splitSlowly(_ poly: BezierPolynomial) -> Double {
        var t = 0.5
        for _ in 0..<8 {
            let step = halleyStep(poly, t)
            t -= step
            if abs(step) <= 0x1p-50 { break }
        }
        if settles(poly, t) { return t }
        return poly.solveBracketed(0.5, lo: 0, hi: 1, guess: 0.5)
    }

    /// Halley's step for x(t) = 1/2 at t (subtracted from t).
    @inline(__always)
    private static func halleyStep(_ poly: BezierPolynomial, _ t: Double) -> Double {
        let f = poly.x(t) - 0.5, d = poly.dx(t)
        return 2 * f * d / (2 * d * d - f * poly.ddx(t))
    }

    /// Whether t, inside (0, 1), is the split to within 2^-45 in x.
    @inline(__always)
    private static func settles(_ poly: BezierPolynomial, _ t: Double) -> Bool {
        t > 0 && t < 1 && abs(poly.x(t) - 0.5) <= 0x1p-45
    }
}

/// The parameter t* where x(t*) = 1/2, on a uniform grid of (x1, x2) over [0, 1]²
/// (`intervals` + 1 points a side, computed by `BezierHalf.split` once, at first use), and its
/// bilinear interpolation: the start of `BezierHalf.ends`.
enum SplitGrid {
    /// Grid intervals per side.
    static let intervals = 32
    /// How far each half's range reaches past the interpolated split: the split is within it
    /// on about 99 % of random curves (the rest take the exact split). A range then ends at
    /// most twice the margin past the split, so each of its 16 segments is at most 2^-11 wider
    /// than with the exact split.
    static let margin = 0x1p-8
    /// The grid, row by x1 (never freed). A pointer rather than an array, so that reading it
    /// costs no reference counting.
    nonisolated(unsafe) static let values: UnsafePointer<Double> = {
        let n = intervals + 1
        let grid = UnsafeMutablePointer<Double>.allocate(capacity: n * n)
        for i in 0 ..< n {
            for j in 0 ..< n {
                let x1 = Double(i) / Double(intervals), x2 = Double(j) / Double(intervals)
                grid[i * n + j] = BezierHalf.split(BezierPolynomial(x1, 0, x2, 1))
            }
        }
        return UnsafePointer(grid)
    }()

    /// The interpolated t* for x1, x2 in [0, 1].
    @inline(__always)
    static func estimate(_ x1: Double, _ x2: Double) -> Double {
        let n = Double(intervals)
        let u = x1 * n, v = x2 * n
        let i = min(Int(u), intervals - 1), j = min(Int(v), intervals - 1)
        let fu = u - Double(i), fv = v - Double(j)
        let row = values + (i * (intervals + 1) + j)
        let a = row[0], b = row[1], c = row[intervals + 1], d = row[intervals + 2]
        let near = a + (b - a) * fv, far = c + (d - c) * fv
        return near + (far - near) * fu
    }
}
