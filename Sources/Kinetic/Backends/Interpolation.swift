
/// Batch kernels over contiguous `Double` storage (structure of arrays: one buffer per
/// component, one lane per animated scalar). None of them allocates per call; all check
/// buffer lengths first and change nothing when they throw.
public enum Batch {}

extension Batch {
    /// Shared-progress interpolation: `out[i] = from[i] + progress · delta[i]` for every lane.
    ///
    /// This is the per-frame work of many properties driven by one animator (one timing
    /// solve gives `progress`). Native: one fused pass. BLAS: `dcopy` then `daxpy`.
    ///
    /// - Parameters:
    ///   - from: start values, any units.
    ///   - delta: end minus start, same units and count as `from`.
    ///   - progress: the eased progress, usually in [0, 1] (any finite value extrapolates).
    ///   - out: receives the values; same count. It may be the same buffer as `from`
    ///     (in-place update) but must not overlap `delta`.
    ///   - backend: implementation; `.automatic` picks by measured speed.
    ///   - parallel: split batches of ≥ 2 × 131,072 lanes over the machine's cores
    ///     (contiguous halves on two cores). Off by default.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` if `delta` or
    ///   `out` has a different count than `from`.
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    public static func interpolate(from: UnsafeBufferPointer<Double>, delta: UnsafeBufferPointer<Double>,
                                   progress: Double, into out: UnsafeMutableBufferPointer<Double>,
                                   backend: Backend = .automatic, parallel: Bool = false) throws {
        let n = from.count
        try requireCount(delta.count, n, "delta")
        try requireCount(out.count, n, "out")
        let useBLAS = try backend.resolved(.sharedProgress, lanes: n) == .blas
        guard n > 0, let f = from.baseAddress, let d = delta.baseAddress, let o = out.baseAddress else { return }
        BatchParallel.run(count: n, parallel: parallel) { r in
            let m = r.count, s = r.lowerBound
            if useBLAS {
                BLAS.copy(m, f + s, o + s)
                BLAS.axpy(m, progress, d + s, o + s)
            } else {
                sharedNative(f + s, d + s, progress, o + s, m)
            }
        }
    }

    /// Per-lane progress: `out[i] = from[i] + progress[i] · delta[i]`, i.e.
    /// `out = from + diag(progress) · delta`.
    ///
    /// For lanes that each have their own timing (staggered starts, per-lane springs).
    /// Native: one fused pass. BLAS: `dcopy` then `dsbmv` with bandwidth 0 (K = 0, lda = 1),
    /// which multiplies by the diagonal matrix stored in `progress`.
    ///
    /// - Parameters:
    ///   - from: start values, any units.
    ///   - delta: end minus start; same count.
    ///   - progress: per-lane eased progress, usually in [0, 1]; same count.
    ///   - out: receives the values; same count. It may be the same buffer as `from` but must
    ///     not overlap `delta` or `progress`.
    ///   - backend: implementation; `.automatic` picks by measured speed.
    ///   - parallel: split large batches over the machine's cores. Off by default.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` on any count
    ///   different from `from.count`.
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    public static func interpolate(from: UnsafeBufferPointer<Double>, delta: UnsafeBufferPointer<Double>,
                                   progress: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>,
                                   backend: Backend = .automatic, parallel: Bool = false) throws {
        let n = from.count
        try requireCount(delta.count, n, "delta")
        try requireCount(progress.count, n, "progress")
        try requireCount(out.count, n, "out")
        let useBLAS = try backend.resolved(.perLaneProgress, lanes: n) == .blas
        guard n > 0, let f = from.baseAddress, let d = delta.baseAddress, let p = progress.baseAddress,
              let o = out.baseAddress else { return }
        BatchParallel.run(count: n, parallel: parallel) { r in
            let m = r.count, s = r.lowerBound
            if useBLAS {
                BLAS.copy(m, f + s, o + s)
                BLAS.diagonalMultiplyAdd(m, p + s, d + s, o + s)
            } else {
                perLaneNative(f + s, d + s, p + s, o + s, m)
            }
        }
    }

    // MARK: Native loops

    @inline(__always)
    static func sharedNative(_ f: UnsafePointer<Double>, _ d: UnsafePointer<Double>, _ p: Double,
                             _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        let pv = SIMD4<Double>(repeating: p)
        var i = 0
        while i &+ 8 <= n {
            let a = load4(f, i) + pv * load4(d, i)
            let b = load4(f, i &+ 4) + pv * load4(d, i &+ 4)
            store4(a, o, i)
            store4(b, o, i &+ 4)
            i &+= 8
        }
        while i < n {
            o[i] = f[i] + p * d[i]
            i &+= 1
        }
    }

    @inline(__always)
    static func perLaneNative(_ f: UnsafePointer<Double>, _ d: UnsafePointer<Double>, _ p: UnsafePointer<Double>,
                              _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        var i = 0
        while i &+ 8 <= n {
            let a = load4(f, i) + load4(p, i) * load4(d, i)
            let b = load4(f, i &+ 4) + load4(p, i &+ 4) * load4(d, i &+ 4)
            store4(a, o, i)
            store4(b, o, i &+ 4)
            i &+= 8
        }
        while i < n {
            o[i] = f[i] + p[i] * d[i]
            i &+= 1
        }
    }
}
