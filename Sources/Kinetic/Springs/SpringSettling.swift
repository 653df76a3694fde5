#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Spring {
    /// The settling duration of a unit move: the first time, in seconds, after which every
    /// later position stays within `epsilon` of the target (SwiftUI's definition; not an
    /// instantaneous threshold, so a soft spring is not stopped early at a zero crossing).
    ///
    /// Found exactly: an envelope bound gives a time after which the motion is certainly
    /// settled, a backward scan (steps shorter than half an oscillation, checking each
    /// extremum) finds the last excursion beyond `epsilon`, and bisection locates its end
    /// to ~1e-12 relative.
    ///
    /// - Parameters:
    ///   - initialVelocity: units of the move's distance per second (UIKit's normalised).
    ///   - epsilon: the threshold as a fraction of the move, > 0. Default 0.001.
    /// - Returns: seconds ≥ 0; `0` when the motion never leaves the band (epsilon ≥ 1 with
    ///   a small velocity); `.infinity` for an undamped spring or `epsilon` ≤ 0; NaN only for
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
            let wd = modes.rate
            let q = (v0 + modes.alpha * d0) / wd
            var amplitude = (d0 * d0 + q * q).squareRoot()
            // A huge velocity (|v0| ≳ 1e154) overflows the square: take hypot and a difference
            // of logarithms then (only then, so every other result is bit for bit unchanged).
            if !amplitude.isFinite { amplitude = hypot(d0, q) }
            if modes.alpha == 0 { return amplitude <= epsilon ? 0 : .infinity }
            let ratio = amplitude / epsilon
            bound = max(0, (ratio.isFinite ? log(ratio) : log(amplitude) - log(epsilon)) / modes.alpha)
            step = Double.pi / wd / 16
        case .critical:
            // d(t) = e^{-αt}(d0 + b·t); the bound e^{-αt}(|d0| + |b|t) decreases after its peak.
            let a = modes.alpha, b = abs(v0 + a * d0)
            var t = max(0, 1 / a - abs(d0) / max(b, .leastNormalMagnitude)) + 1 / a
            while exp(-a * t) * (abs(d0) + b * t) > epsilon && t < .greatestFiniteMagnitude / 4 { t *= 2 }
            bound = t
            step = bound / 64
        case .overdamped:
            let r1 = modes.slowRoot, r2 = -(modes.alpha + modes.rate)
            let A = (v0 - r2 * d0) / (r1 - r2), B = (r1 * d0 - v0) / (r1 - r2)
            let ratio = (abs(A) + abs(B)) / epsilon
            bound = max(0, (ratio.isFinite ? log(ratio) : log(abs(A) + abs(B)) - log(epsilon)) / -r1)
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
