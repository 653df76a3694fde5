import KineticPlatform

extension Spring {
    /// The settling duration of a unit move: the first time, in seconds, after which every
    /// later position stays within `epsilon` of the target (SwiftUI's definition; not an
    /// instantaneous threshold, so a soft spring is not stopped early at a zero crossing).
    ///
    /// Found exactly, at a bounded cost for every spring (no scan over the oscillations):
    /// - underdamped: the extrema of d(t) = A·e^(−αt)·cos(ωd·t − φ) fall at
    ///   t_k = (φ − δ + kπ)/ωd (δ = atan(α/ωd)) with |d(t_k)| = A·(ωd/ω0)·e^(−α·t_k), a
    ///   strictly decreasing sequence; the last k whose extremum exceeds `epsilon` is found in
    ///   closed form (in logarithms, so no amplitude overflows), and the end of that
    ///   excursion is bracketed between t_k and the next zero of d and bisected, with the
    ///   phase measured from t_k (so the result stays exact for any number of oscillations).
    ///   When the half-period π/ωd is below the resolution of the settling time itself, the
    ///   envelope time log(A·ωd/(ω0·ε))/α is returned (exact to that resolution).
    /// - critical and overdamped (at most one extremum): an envelope bound gives a time after
    ///   which the motion is certainly settled, a short backward scan finds the last
    ///   excursion, and bisection locates its end to ~1e-12 relative.
    ///
    /// A settling time beyond the range of `Double` (a damping ratio so small, or an
    /// overdamped slow rate ω0²/2α so small, that it takes longer than 1.8e308 s) is
    /// `.infinity`, like an undamped spring; every other finite input, including velocities up
    /// to ±`greatestFiniteMagnitude`, gives a finite time (amplitudes are handled in
    /// logarithms). Callers that sample to the settling time refuse a non-finite or too long
    /// one with their typed error.
    ///
    /// - Parameters:
    ///   - initialVelocity: units of the move's distance per second (UIKit's normalised).
    ///   - epsilon: the threshold as a fraction of the move, > 0. Default 0.001.
    /// - Returns: seconds ≥ 0; `0` when the motion never leaves the band (epsilon ≥ 1 with
    ///   a small velocity, an undamped spring included); `.infinity` for an undamped spring
    ///   whose motion leaves the band, `epsilon` ≤ 0 or an infinite velocity; NaN only for
    ///   NaN input.
    public func settlingDuration(initialVelocity: Double = 0, epsilon: Double = Spring.defaultEpsilon) -> Double {
        if initialVelocity.isNaN || epsilon.isNaN { return .nan }
                let d0 = -1.0, v0 = initialVelocity
        if !v0.isFinite || !(epsilon > 0) { return .infinity }
        func displacement(_ t: Double) -> Double {
            let phi = SpringTransition(modes: modes, dt: t)
            return phi.m11 * d0 + phi.m12 * v0
        }
        func velocity(_ t: Double) -> Double {
            let phi = SpringTransition(modes: modes, dt: t)
            return phi.m21 * d0 + phi.m22 * v0
        }
        // An upper bound after which |d(t)| <= epsilon for certain, and the scan step.
        let bound: Double
        var step: Double
        switch modes.kind {
        case .underdamped:
            if modes.alpha == 0 {
                // Undamped: |d| reaches the amplitude again every period.
                let wd = modes.rate
                let amplitude = (d0 * d0 + ((v0 + modes.alpha * d0) / wd) * ((v0 + modes.alpha * d0) / wd)).squareRoot()
                return amplitude <= epsilon ? 0 : .infinity
            }
            return underdampedSettlingDuration(initialVelocity: v0, epsilon: epsilon)
        case .critical:
            // d(t) = e^{-αt}(d0 + b·t); the bound e^{-αt}(|d0| + |b|t) decreases after its peak.
            // In logarithms, so that b·t cannot overflow for a huge finite velocity.
            let a = modes.alpha, b = abs(v0 + a * d0), logEpsilon = log(epsilon)
            func logEnvelope(_ t: Double) -> Double {
                let bt = b * t
                return -a * t + (bt.isFinite ? log1p(bt) : log(b) + log(t))
            }
            var t = max(0, 1 / a - abs(d0) / max(b, .leastNormalMagnitude)) + 1 / a
            while logEnvelope(t) > logEpsilon && t < .greatestFiniteMagnitude / 4 { t *= 2 }
            bound = t
            step = bound / 64
        case .overdamped:
            let r1 = modes.slowRoot, r2 = -(modes.alpha + modes.rate)
            // log(|A| + |B|) with A = (v0 − r2·d0)/(r1 − r2), B = (r1·d0 − v0)/(r1 − r2), in
            // logarithms so that a huge finite velocity over a small r1 − r2 cannot overflow.
            let p = abs(v0 - r2 * d0), q = abs(r1 * d0 - v0)
            let big = max(p, q)
            let logSum = log(big) + log1p(min(p, q) / big) - log(r1 - r2)
            bound = max(0, (logSum - log(epsilon)) / -r1)
            step = bound / 64
        }
        if !bound.isFinite { return .infinity }
        if bound == 0 { return 0 }
        step = min(step, bound / 8)
        // The envelope is tight, so the last excursion is within a few steps of `bound`;
        // the cap only guards against pathological rates (it returns the safe bound).
        var budget = 10_000_000
        // Scan backwards for the last interval holding a point with |d| > epsilon.
        var b = bound
        var db = velocity(b)
        while b > 0 {
            budget -= 1
            if budget == 0 { return bound }
            let a = max(0, b - step)
            let da = velocity(a)
            var start = a  // a point in [a, b] with |d| > epsilon, if there is one
            var found = abs(displacement(a)) > epsilon
            if (da < 0) != (db < 0) && da != 0 && db != 0 {
                // One extremum inside: locate it and take it if it is beyond the band.
                var lo = a, hi = b
                for _ in 0..<200 {
                    let mid = lo + 0.5 * (hi - lo)
                    if mid <= lo || mid >= hi { break }
                    if (velocity(mid) < 0) == (da < 0) { lo = mid } else { hi = mid }
                }
                if abs(displacement(lo)) > epsilon { start = lo; found = true }
            }
            if found {
                // On [start, b] d is monotone, so {|d| > epsilon} is a prefix: bisect its end.
                var lo = start, hi = b
                for _ in 0..<200 {
                    let mid = lo + 0.5 * (hi - lo)
                    if mid <= lo || mid >= hi { break }
                    if abs(displacement(mid)) > epsilon { lo = mid } else { hi = mid }
                }
                return hi
            }
            b = a
            db = da
        }
        return 0
    }
}

extension Spring {
    /// The settling duration of an underdamped spring with α > 0, from d0 = −1 and a finite
    /// `v0`: closed form for the last extremum beyond `epsilon`, then a bracketed bisection
    /// (at most 200 evaluations) for the end of that excursion.
    func underdampedSettlingDuration(initialVelocity v0: Double, epsilon: Double) -> Double {
        let a = modes.alpha, wd = modes.rate
        // d(t) = e^{-αt}(c1·cos ωd t + c2·sin ωd t), c1 = −1, c2 = u/ωd, u = v0 − α.
        // With c2 scaled by ωd: A = hypot(ωd, u)/ωd, φ = atan2(u, −ωd) (no overflow for any v0).
        let u = v0 - a
        let big = max(wd, abs(u)), small = min(wd, abs(u))
        let ratio = small / big
        let logA = log(big) + 0.5 * log1p(ratio * ratio) - log(wd)
        let phi = atan2(u, -wd)
        let delta = atan2(a, wd)
        // log cos δ = log(ωd/ω0).
        let logCosDelta = log(wd) - 0.5 * log(modes.omega0Squared)
        let logEpsilon = log(epsilon)
        // Extremum k: t_k = (φ − δ + kπ)/ωd; it is beyond the band when m(k) > 0.
        func time(_ k: Double) -> Double { (phi - delta + k * Double.pi) / wd }
        func excess(_ k: Double) -> Double { logA + logCosDelta - a * time(k) - logEpsilon }
        // The envelope time: the extrema before it are beyond the band, those after are not.
        let envelope = (logA + logCosDelta - logEpsilon) / a
        if !envelope.isFinite { return envelope > 0 ? .infinity : 0 }
        let kFirst = ((delta - phi) / Double.pi).rounded(.up)  // the first extremum at t ≥ 0
        var k = ((envelope * wd - phi + delta) / Double.pi).rounded(.up) - 1
        if !k.isFinite || k >= 0x1p52 {
            // Half-periods below the resolution of the result: the envelope time is exact to it.
            return envelope
        }
        // Correct the closed form's rounding with the extremum test itself.
        for _ in 0 ..< 4 where excess(k + 1) > 0 { k += 1 }
        for _ in 0 ..< 4 where k >= kFirst && !(excess(k) > 0) { k -= 1 }
        if k < kFirst {
            // No extremum at t ≥ 0 beyond the band: only the start (|d(0)| = 1) can be.
            if !(1 > epsilon) { return 0 }
            k = kFirst - 1
        }
        // On [t_k, t_k + (π/2 + δ)/ωd] |d| decreases from its extremum to 0; with the phase
        // measured from t_k, log|d(t)| − log ε = logA − α·t + log|cos(ωd·(t − t_k) − δ)| − log ε.
        let tk = time(k)
        let base = logA - a * tk - logEpsilon
        func beyond(_ t: Double) -> Bool {
            let s = t - tk
            return base - a * s + log(abs(cos(wd * s - delta))) > 0
        }
        var lo = max(0, tk)
        var hi = tk + (0.5 * Double.pi + delta) / wd
        if !(hi > lo) { return lo }
        for _ in 0 ..< 200 {
            let mid = lo + 0.5 * (hi - lo)
            if mid <= lo || mid >= hi { break }
            if beyond(mid) { lo = mid } else { hi = mid }
        }
        return hi
    }
}
