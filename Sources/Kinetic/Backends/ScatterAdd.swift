extension Batch {
    /// Indexed accumulation: `out[targets[i]] += spans[i] · progress` for every `i`.
    ///
    /// This is how several animations add up on shared properties (UIKit's additive model):
    /// each animation owns a contiguous run of `(span, target)` pairs, and one pass per
    /// animation adds its progress-weighted spans into the property lanes they target. A
    /// lane may be targeted more than once (several animations on one property); the
    /// contributions are added in index order, so the result is deterministic.
    ///
    /// Native only: BLAS has no scatter operation (the sparse level-1 `daxpyi` is not part
    /// of OpenBLAS's CBLAS).
    ///
    /// Unchecked for speed: the caller guarantees `targets[i]` is in `0 ..< out.count` and
    /// that `spans` and `targets` have the same count. The checked form is
    /// ``scatterAdd(spans:targets:progress:into:)``.
    ///
    /// - Parameters:
    ///   - spans: per-entry amounts (end minus start of the animation on that lane, any units).
    ///   - targets: per-entry lane index into `out`.
    ///   - count: number of entries to process.
    ///   - progress: the animation's eased progress, usually in [0, 1].
    ///   - out: the lanes being accumulated into.
    @inline(__always)
    public static func scatterAddUnchecked(spans: UnsafePointer<Double>, targets: UnsafePointer<Int32>, count: Int,
                                           progress: Double, into out: UnsafeMutablePointer<Double>) {
        var i = 0
        while i + 4 <= count {
            let t0 = Int(targets[i]), t1 = Int(targets[i + 1]), t2 = Int(targets[i + 2]), t3 = Int(targets[i + 3])
            out[t0] += spans[i] * progress
            out[t1] += spans[i + 1] * progress
            out[t2] += spans[i + 2] * progress
            out[t3] += spans[i + 3] * progress
            i += 4
        }
        while i < count {
            out[Int(targets[i])] += spans[i] * progress
            i += 1
        }
    }

    /// Checked indexed accumulation: `out[targets[i]] += spans[i] · progress`.
    ///
    /// - Parameters:
    ///   - spans: per-entry amounts, any units.
    ///   - targets: per-entry lane index into `out`, each in `0 ..< out.count`; same count as `spans`.
    ///   - progress: the eased progress (any finite value).
    ///   - out: the lanes being accumulated into.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` if the counts
    ///   differ; ``ParameterError/outOfRange(parameter:value:expected:)`` naming the first
    ///   target outside `out` (nothing is written then).
    public static func scatterAdd(spans: UnsafeBufferPointer<Double>, targets: UnsafeBufferPointer<Int32>,
                                  progress: Double, into out: UnsafeMutableBufferPointer<Double>) throws {
        try requireCount(targets.count, spans.count, "targets")
        for (i, t) in targets.enumerated() where t < 0 || Int(t) >= out.count {
            throw ParameterError.outOfRange(parameter: "targets[\(i)]", value: Double(t), expected: "[0, \(out.count))")
        }
        guard let s = spans.baseAddress, let t = targets.baseAddress, let o = out.baseAddress else { return }
        scatterAddUnchecked(spans: s, targets: t, count: spans.count, progress: progress, into: o)
    }
}
