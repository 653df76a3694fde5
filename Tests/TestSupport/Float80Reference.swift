// Independent high-precision references for the accuracy tests (x86-64 Linux: Float80).
//
// Nothing here uses Kinetic: the bezier reference is a bisection with an exact sign test,
// the spring reference is the textbook closed form evaluated in 64-bit-mantissa Float80
// with Glibc's long double functions. Both are written to be slow and obviously right.

import KineticPlatform

// Float80 exists on x86 only. Elsewhere this target is empty, so that building the package
// (which builds every target) still works there; the accuracy tests need an x86-64 machine.
#if arch(x86_64) || arch(i386)

// MARK: - Double-Float80 arithmetic (about 128 significant bits)

/// An unevaluated sum hi + lo of two Float80 with |lo| ≤ ulp(hi)/2 (Dekker 1971).
/// Float80 has a 64-bit significand, so Veltkamp's split uses 2^32 + 1 and Dekker's
/// product is exact (no FMA needed). Only used well inside the exponent range.
package struct DoubleFloat80 {
    package var hi: Float80
    package var lo: Float80

    package init(_ hi: Float80, _ lo: Float80 = 0) { self.hi = hi; self.lo = lo }

    /// a + b exactly, as (rounded sum, error) — Knuth's branch-free two-sum.
    package static func twoSum(_ a: Float80, _ b: Float80) -> DoubleFloat80 {
        let s = a + b
        let bv = s - a
        let av = s - bv
        return DoubleFloat80(s, (a - av) + (b - bv))
    }

    private static func split(_ a: Float80) -> (Float80, Float80) {
        let c = 4_294_967_297 * a  // 2^32 + 1
        let hi = c - (c - a)
        return (hi, a - hi)
    }

    /// a · b exactly, as (rounded product, error).
    package static func twoProduct(_ a: Float80, _ b: Float80) -> DoubleFloat80 {
        let p = a * b
        let (ah, al) = split(a)
        let (bh, bl) = split(b)
        let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        return DoubleFloat80(p, e)
    }

    package static func + (a: DoubleFloat80, b: DoubleFloat80) -> DoubleFloat80 {
        let s = twoSum(a.hi, b.hi)
        let t = twoSum(a.lo, b.lo)
        var r = twoSum(s.hi, s.lo + t.hi)
        r = twoSum(r.hi, r.lo + t.lo)
        return r
    }

    package static prefix func - (a: DoubleFloat80) -> DoubleFloat80 { DoubleFloat80(-a.hi, -a.lo) }

    package static func - (a: DoubleFloat80, b: DoubleFloat80) -> DoubleFloat80 { a + (-b) }

    package static func * (a: DoubleFloat80, b: DoubleFloat80) -> DoubleFloat80 {
        let p = twoProduct(a.hi, b.hi)
        return twoSum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi))
    }

    package static func * (a: DoubleFloat80, b: Float80) -> DoubleFloat80 {
        let p = twoProduct(a.hi, b)
        return twoSum(p.hi, p.lo + a.lo * b)
    }

    package var value: Float80 { hi + lo }
}

// MARK: - Cubic bezier reference

/// The exact timing-curve value by bisection on the curve parameter.
///
/// x(t) = 3·x1·t(1−t)² + 3·x2·t²(1−t) + t³ is non-decreasing on [0, 1] for x1, x2 in
/// [0, 1], so bisection on t with the sign of x(t) − x converges to the unique root.
/// The sign is computed *exactly enough*: first in Float80 with a rigorous error bound
/// (a sum of ~10 rounded operations on non-negative terms, each at most 2^-64 relative,
/// bounded generously by 2^-58 of the sum of magnitudes); when that bound does not settle
/// the sign, the same polynomial is evaluated in double-Float80 (~2^-120 relative).
/// So the bracket [lo, hi] shrinks to two adjacent Float80 numbers (≈ 5e-20 apart near
/// t = 1/2, relative 2^-64 near 0) around the exact root, even where x'(t) nearly vanishes
/// (near the triple root of (1, ·, 0, ·)) and at vertical end tangents. y(t) is then
/// evaluated in Float80 in Bernstein form (absolute error ~1e-18 for |y1|, |y2| ≤ 3),
/// and y(lo), y(hi) differ by at most |y'|·5e-20. The result is good to ~1e-17 absolute
/// everywhere, far below the 1e-12 the tests ask of the Double implementation.
package struct BezierReference80 {
    package let x1, y1, x2, y2: Float80  // the Double control points, converted exactly
    private let x13, x23: Float80  // 3·x1, 3·x2 (exact: 55-bit products)

    package init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = Float80(x1); self.y1 = Float80(y1)
        self.x2 = Float80(x2); self.y2 = Float80(y2)
        x13 = 3 * Float80(x1)
        x23 = 3 * Float80(x2)
    }

    /// Sign of x(t) − x: −1, 0 or +1, exact for t, x as given.
    package func signOfXMinus(_ x: Float80, at t: Float80) -> Int {
        let u = 1 - t
        let a = x13 * t * u * u
        let b = x23 * t * t * u
        let c = t * t * t
        let f = ((a + b) + c) - x
        let bound = ((a + b) + c + x) * 0x1p-58
        if f > bound { return 1 }
        if f < -bound { return -1 }
        // Double-Float80: 1 − t exact as a pair, products exact, sums to ~2^-120.
        let ud = DoubleFloat80.twoSum(1, -t)
        let t2 = DoubleFloat80.twoProduct(t, t)
        let aa = (ud * ud) * t * x13
        let bb = (t2 * ud) * x23
        let cc = t2 * t
        let s = ((aa + bb) + cc) - DoubleFloat80(x)
        if s.hi > 0 { return 1 }
        if s.hi < 0 { return -1 }
        return s.lo > 0 ? 1 : (s.lo < 0 ? -1 : 0)
    }

    /// The curve parameter t with x(t) = x, for x in [0, 1], as the final bracket.
    package func parameter(for x: Double) -> (lo: Float80, hi: Float80) {
        if x <= 0 { return (0, 0) }
        if x >= 1 { return (1, 1) }
        let xf = Float80(x)
        var lo: Float80 = 0, hi: Float80 = 1
        // Near t = 0 a plain bisection from [0, 1] would take ~1000 halvings to reach
        // t ~ 1e-300. Since t³ ≤ x(t) ≤ 1 − (1 − t)³ ≤ 3t on [0, 1], the root lies in
        // [x/3, x^(1/3)]; both ends are verified by the exact sign test before use, then
        // the bracket is halved geometrically while it spans more than a factor 2.
        let loGuess = xf / 3 * (1 - 0x1p-50)
        if loGuess > 0 && signOfXMinus(xf, at: loGuess) < 0 { lo = loGuess }
        let hiGuess = cbrtl(xf) * (1 + 0x1p-50)
        if hiGuess < 1 && signOfXMinus(xf, at: hiGuess) > 0 { hi = hiGuess }
        while lo > 0 && hi > 2 * lo {
            let mid = (lo * hi).squareRoot()
            let s = signOfXMinus(xf, at: mid)
            if s == 0 { return (mid, mid) }
            if s < 0 { lo = mid } else { hi = mid }
        }
        while true {
            let mid = lo + (hi - lo) / 2
            if mid <= lo || mid >= hi { break }
            let s = signOfXMinus(xf, at: mid)
            if s == 0 { return (mid, mid) }
            if s < 0 { lo = mid } else { hi = mid }
        }
        return (lo, hi)
    }

    /// y(t) in Bernstein form, Float80.
    package func y(_ t: Float80) -> Float80 {
        let u = 1 - t
        return 3 * y1 * t * u * u + 3 * y2 * t * t * u + t * t * t
    }

    /// The exact eased progress at x in [0, 1], in Float80.
    package func value80(at x: Double) -> Float80 {
        let (lo, hi) = parameter(for: x)
        if lo == hi { return y(lo) }
        return (y(lo) + y(hi)) / 2
    }

    /// The exact value rounded to Double (adds at most 1.1e-16 relative).
    package func value(at x: Double) -> Double { Double(value80(at: x)) }
}

// MARK: - Spring reference

/// The textbook closed form of m·x'' + c·x' + k·x = 0 in Float80, with separate
/// under-, critically- and over-damped branches.
///
/// With α = c/2m, ω0² = k/m, B = v0 + α·d0:
/// - underdamped (ωd² = ω0² − α² > 0): x = e^{−αt}(d0·cos ωd t + B·sin(ωd t)/ωd),
///   v = e^{−αt}(v0·cos ωd t − (ω0²·d0 + α·v0)·sin(ωd t)/ωd);
/// - critical (ω0² = α² exactly): the same with sin(ωd t)/ωd → t, cos → 1;
/// - overdamped (β² = α² − ω0² > 0): cos → cosh, sin/ωd → sinh/β, where
///   e^{−αt}cosh βt = (e^{r1 t} + e^{r2 t})/2 and e^{−αt}sinh(βt)/β = −e^{r1 t}·expm1(−2βt)/(2β),
///   with r1 = −ω0²/(α + β) (the slow root without cancellation), r2 = −(α + β).
///   These forms never overflow (both exponents are ≤ 0) and never cancel.
///
/// Why this is good to ~1e-17 of the move's amplitude, including near ζ = 1:
/// the only cancellation in the textbook form is ωd² (or β²) = ω0² − α² when ζ ≈ 1.
/// Here it is computed as (k·m − (c/2)²)/m² with k·m and (c/2)² formed *exactly* as
/// double-Float80 products of the Double parameters, so ωd² and β² carry a relative error
/// of a few 2^-64 whatever ζ is (ζ = 1 ± 1e-9 included). Given relative ωd, sin(ωd t)/ωd
/// and sinh(βt)/β are relatively accurate (Glibc's sinl/expm1l are ~1 ulp; for tiny
/// arguments they return the argument itself, so the quotient tends to t smoothly), and the
/// branch switch at ζ = 1 is continuous: every branch is the same analytic function, so the
/// branch taken for a rounding-level gap changes the result by O((ωd·t)²·2^-64).
/// Remaining errors are rounding of arguments (α·t, ωd·t: relative 2^-64, i.e. absolute
/// phase error ≤ 1e-17 for the ≤ 200 rad the tests reach) and of a handful of products:
/// all ≤ 1e-17 relative to the terms, which are bounded by the amplitude (B·S ≤ B·t·e^{−αt}).
package struct SpringReference80 {
    package enum Regime { case underdamped, critical, overdamped }
    package let mass, stiffness, damping: Float80
    package let alpha: Float80
    package let omega0Squared: Float80
    package let regime: Regime
    /// ωd (underdamped) or β (overdamped); 0 when critical.
    package let rate: Float80
    package let slowRoot: Float80   // r1 (overdamped); −α otherwise
    package let fastRoot: Float80   // r2 (overdamped); −α otherwise

    package init(mass m: Double, stiffness k: Double, damping c: Double) {
        mass = Float80(m); stiffness = Float80(k); damping = Float80(c)
        alpha = Float80(c) / (2 * Float80(m))
        omega0Squared = Float80(k) / Float80(m)
        // k·m − (c/2)², exact products, one correctly-ordered difference.
        let km = DoubleFloat80.twoProduct(Float80(k), Float80(m))
        let half = Float80(c) / 2
        let cc = DoubleFloat80.twoProduct(half, half)
        let gapNumerator = (km - cc).value
        let gap = gapNumerator / (Float80(m) * Float80(m))  // ω0² − α²
        if gap > 0 {
            regime = .underdamped
            rate = gap.squareRoot()
            slowRoot = -alpha; fastRoot = -alpha
        } else if gap < 0 {
            regime = .overdamped
            let beta = (-gap).squareRoot()
            rate = beta
            slowRoot = -omega0Squared / (alpha + beta)
            fastRoot = -(alpha + beta)
        } else {
            regime = .critical
            rate = 0
            slowRoot = -alpha; fastRoot = -alpha
        }
    }

    /// (C, S) with C = e^{−αt}·cos-like and S = e^{−αt}·(sin-like / rate), for t ≥ 0.
    private func modes(_ t: Float80) -> (c: Float80, s: Float80) {
        switch regime {
        case .underdamped:
            let e = expl(-alpha * t)
            let phase = rate * t
            return (e * cosl(phase), e * (sinl(phase) / rate))
        case .critical:
            let e = expl(-alpha * t)
            return (e, e * t)
        case .overdamped:
            let e1 = expl(slowRoot * t)
            let e2 = expl(fastRoot * t)
            let twoBeta = 2 * rate
            return ((e1 + e2) / 2, -e1 * (expm1l(-twoBeta * t) / twoBeta))
        }
    }

    /// Displacement and velocity at time t ≥ 0 from (d0, v0) at time 0.
    package func state(at t: Float80, displacement d0: Float80, velocity v0: Float80) -> (x: Float80, v: Float80) {
        if t <= 0 { return (d0, v0) }
        let (c, s) = modes(t)
        let b = v0 + alpha * d0
        let x = d0 * c + b * s
        let v = v0 * c - (omega0Squared * d0 + alpha * v0) * s
        return (x, v)
    }

    /// Value (position, 0 → 1) and velocity of a unit move with initial velocity v0.
    package func unitMove(at t: Double, initialVelocity v0: Double) -> (value: Float80, velocity: Float80) {
        let (x, v) = state(at: Float80(t), displacement: -1, velocity: Float80(v0))
        return (1 + x, v)
    }

    /// A time after which |x(t)| ≤ epsilon certainly holds forever.
    ///
    /// Underdamped: |x| ≤ e^{−αt}·√(d0² + (B/ωd)²). Every regime: |x| ≤ g(t) =
    /// e^{−γt}(|d0| + |B|·t) with γ = α (under/critical) or −r1 (over), because
    /// |sin(ωd t)/ωd| ≤ t, cosh βt ≤ e^{βt} and sinh(βt)/β ≤ t·e^{βt}; g decreases after
    /// t* = 1/γ − |d0|/|B|, so the first T ≥ max(t*, 1/γ) found by doubling with g(T) ≤ ε is safe.
    package func safeSettledBound(d0: Float80, v0: Float80, epsilon: Float80) -> Float80 {
        let b = abs(v0 + alpha * d0)
        let gamma = regime == .overdamped ? -slowRoot : alpha
        precondition(gamma > 0, "undamped spring never settles")
        func g(_ t: Float80) -> Float80 { expl(-gamma * t) * (abs(d0) + b * t) }
        var t = max(1 / gamma, b > 0 ? 1 / gamma - abs(d0) / b : 0)
        while g(t) > epsilon { t *= 2 }
        if regime == .underdamped {
            let amp = (d0 * d0 + (b / rate) * (b / rate)).squareRoot()
            let tAmp = max(0, logl(amp / epsilon) / alpha)
            t = min(t, tAmp)
        }
        return t
    }

    /// The settling time of a unit move: sup{t : |x(t)| > ε} (0 if the motion never leaves
    /// the band), by a dense backward scan from a safe bound.
    ///
    /// The scan step is ≤ 1/32 of the half-period π/ωd and ≤ 1/4096 of the bound, so each step
    /// holds at most one extremum of x (overdamped and critical motions have at most one in
    /// total). Scanning back from the bound, each step is checked at its start and — when
    /// the velocity changes sign inside it — at its extremum (located by bisection on v);
    /// the first such point beyond the band is followed by a monotone stretch on which
    /// {|x| > ε} is a prefix, whose end is located by bisection to Float80 resolution.
    package func settlingTime(initialVelocity v0d: Double, epsilon epsd: Double) -> Double {
        let d0: Float80 = -1, v0 = Float80(v0d), eps = Float80(epsd)
        let bound = safeSettledBound(d0: d0, v0: v0, epsilon: eps)
        var step = bound / 4096
        if regime == .underdamped { step = min(step, Float80.pi / rate / 32) }
        func x(_ t: Float80) -> Float80 { state(at: t, displacement: d0, velocity: v0).x }
        func v(_ t: Float80) -> Float80 { state(at: t, displacement: d0, velocity: v0).v }
        func bisectBeyond(_ lo0: Float80, _ hi0: Float80) -> Float80 {
            // |x(lo0)| > ε, and {|x| > ε} ∩ [lo0, hi0] is a prefix: find its end.
            var lo = lo0, hi = hi0
            while true {
                let mid = lo + (hi - lo) / 2
                if mid <= lo || mid >= hi { return hi }
                if abs(x(mid)) > eps { lo = mid } else { hi = mid }
            }
        }
        var b = bound
        var vb = v(b)
        while b > 0 {
            let a = max(0, b - step)
            let va = v(a)
            if (va < 0 && vb > 0) || (va > 0 && vb < 0) {
                // One extremum inside [a, b].
                var lo = a, hi = b
                while true {
                    let mid = lo + (hi - lo) / 2
                    if mid <= lo || mid >= hi { break }
                    if (v(mid) < 0) == (va < 0) { lo = mid } else { hi = mid }
                }
                let tm = abs(x(lo)) >= abs(x(hi)) ? lo : hi
                if abs(x(tm)) > eps { return Double(bisectBeyond(tm, b)) }
                if abs(x(a)) > eps { return Double(bisectBeyond(a, tm)) }
            } else if abs(x(a)) > eps {
                return Double(bisectBeyond(a, b))
            }
            b = a
            vb = va
        }
        return 0
    }
}

#endif
