/// The velocity estimators behind ``VelocityTracker`` (internal): plain functions of the
/// counting samples, oldest first, times relative to the newest sample (seconds, ≤ 0).
enum VelocityEstimation {
    /// The slope at time 0 of the unweighted least-squares polynomial of degree
    /// min(2, count − 1) through the samples (count ≥ 2). Samples at one time give 0.
    static func leastSquaresSlope(times t: UnsafePointer<Double>, positions x: UnsafePointer<Double>, count n: Int) -> Double {
        // The times scaled by a power of two 2^e that brings the oldest into [1/2, 1) in
        // magnitude, so that their fourth powers neither underflow nor lose bits for samples
        // however close (1e-170 s apart). Exact: wherever the unscaled sums did not underflow,
        // every step below is the unscaled one times a power of two, and so is the slope.
        let span = t[0].magnitude
        let e = span > 0 && span.isFinite ? Swift.min(Swift.max(-Int(span.exponent) - 1, -1000), 1000) : 0
        let scale = Double(sign: .plus, exponent: e, significand: 1)
        return leastSquaresSlope(times: t, timeScale: scale, positions: x, count: n) * scale
    }

    /// ``leastSquaresSlope(times:positions:count:)`` in the scaled time t·`timeScale`.
    private static func leastSquaresSlope(times t: UnsafePointer<Double>, timeScale: Double,
                                          positions x: UnsafePointer<Double>, count n: Int) -> Double {
        var st = 0.0, sx = 0.0, stt = 0.0, stx = 0.0, sttt = 0.0, sttx = 0.0, stttt = 0.0
        for k in 0 ..< n {
            let tk = t[k] * timeScale, xk = x[k], t2 = tk * tk
            st += tk
            sx += xk
            stt += t2
            stx += tk * xk
            sttt += t2 * tk
            sttx += t2 * xk
            stttt += t2 * t2
        }
        let m = Double(n)
        // Centred second moments: Sxx, Sxy, Sx·x², Sx²·y, Sx²·x².
        let ctt = stt - st * st / m
        let ctx = stx - st * sx / m
        guard ctt > 0 else { return 0 }
        let slope1 = ctx / ctt
        guard n >= 3 else { return slope1 }
        let ctt2 = sttt - st * stt / m
        let ct2x = sttx - stt * sx / m
        let ct2t2 = stttt - stt * stt / m
        let denominator = ctt * ct2t2 - ctt2 * ctt2
        // Two distinct times among three or more samples: the straight line.
        guard denominator > 1e-12 * ctt * ct2t2 else { return slope1 }
        // The fit is x ≈ b0 + b1·t + b2·t², t measured from the newest sample: its slope
        // there is b1.
        return (ctx * ct2t2 - ct2x * ctt2) / denominator
    }

    /// Android's impulse estimate: the work done on a unit mass by the successive
    /// piecewise velocities, turned back into a velocity, sign(E)·√(2|E|). The first
    /// interval's work counts half (the pointer was at rest before it).
    static func impulse(times t: UnsafePointer<Double>, positions x: UnsafePointer<Double>, count n: Int) -> Double {
        guard n >= 2 else { return 0 }
        if n == 2 {
            let dt = t[1] - t[0]
            return dt > 0 ? (x[1] - x[0]) / dt : 0
        }
        var work = 0.0
        var first = true
        for k in 1 ..< n {
            let dt = t[k] - t[k - 1]
            guard dt > 0 else { continue }
            let previous = kineticEnergyToVelocity(work)
            let current = (x[k] - x[k - 1]) / dt
            work += (current - previous) * current.magnitude
            if first {
                work *= 0.5
                first = false
            }
        }
        return kineticEnergyToVelocity(work)
    }

    /// The velocity of a unit mass with kinetic energy `work` (signed: the direction).
    @inline(__always)
    static func kineticEnergyToVelocity(_ work: Double) -> Double {
        work < 0 ? -(2 * -work).squareRoot() : (2 * work).squareRoot()
    }
}
