
extension Batch {
    /// Timeline baking: F frames × N lanes in one call, for export.
    ///
    /// `out[f·N + i] = Σₖ basis[f·K + k] · keys[k·N + i]`: an F × K basis (per-frame weights)
    /// times a K × N key matrix, both row-major; `out` is F × N row-major (frame f occupies
    /// `out[f·N ..< (f+1)·N]`). With K = 2, keys = (from; to) and basis rows (1 − w, w) this is
    /// linear interpolation at the eased progress w of each frame (see
    /// ``bake(progress:keys:into:backend:)``); larger K gives any linear basis (e.g. cubic
    /// Hermite rows with keys (p0; p1; m0; m1)).
    ///
    /// Native: frame by frame, the key rows added four per pass (specialised for K = 2).
    /// BLAS: one `dgemm` (M = F, K, N).
    ///
    /// - Parameters:
    ///   - basis: F × K weights, dimensionless.
    ///   - keys: K × N key values, any units. K = `keys.count / N`.
    ///   - out: F × N; must not overlap the inputs. F = `out.count / N`.
    ///   - lanes: N, ≥ 0.
    ///   - backend: implementation; `.automatic` picks by measured speed.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` unless
    ///   `keys.count` and `out.count` are multiples of N with `basis.count == F · K`
    ///   (with N = 0, keys and out must be empty and `basis.count` is not checked).
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    public static func bake(basis: UnsafeBufferPointer<Double>, keys: UnsafeBufferPointer<Double>,
                            lanes: Int, into out: UnsafeMutableBufferPointer<Double>,
                            backend: Backend = .automatic) throws {
        let n = lanes
        guard n >= 0 else {
            throw ParameterError.outOfRange(parameter: "lanes", value: Double(n), expected: "[0, ∞)")
        }
        let resolved = try backend.resolved(.bake, lanes: out.count)
        if n == 0 {
            try requireCount(keys.count, 0, "keys")
            try requireCount(out.count, 0, "out")
            return
        }
        let k = keys.count / n, frames = out.count / n
        try requireCount(keys.count, k * n, "keys")
        try requireCount(out.count, frames * n, "out")
        try requireCount(basis.count, frames * k, "basis")
        guard frames > 0, let o = out.baseAddress else { return }
        guard k > 0, let b = basis.baseAddress, let key = keys.baseAddress else {
            o.update(repeating: 0, count: out.count)
            return
        }
        if resolved == .blas {
            BLAS.matrixProduct(m: frames, n: n, k: k, b, lda: k, key, ldb: n, o, ldc: n)
        } else {
            for f in 0..<frames {
                let row = o + f * n, w = b + f * k
                if k == 2 {
                    bakeRow2(w[0], key, w[1], key + n, row, n)
                } else {
                    composeNative(key, k, w, row, n)
                }
            }
        }
    }

    /// Linear timeline baking: frame f gets `(1 − progress[f]) · from + progress[f] · to`
    /// (exactly `from` at progress 0 and `to` at progress 1).
    ///
    /// - Parameters:
    ///   - progress: F eased progress values, one per frame, usually in [0, 1].
    ///   - keys: 2 × N: `from` in `keys[0..<N]`, `to` in `keys[N..<2N]`.
    ///   - out: F × N row-major; must not overlap the inputs.
    ///   - backend: implementation; `.automatic` picks by measured speed. The BLAS path builds
    ///     the F × 2 basis in a temporary of 2F doubles (on the stack when small) and runs
    ///     ``bake(basis:keys:lanes:into:backend:)``.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` unless
    ///   `keys.count` is even and `out.count == progress.count · keys.count / 2`.
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    public static func bake(progress: UnsafeBufferPointer<Double>, keys: UnsafeBufferPointer<Double>,
                            into out: UnsafeMutableBufferPointer<Double>,
                            backend: Backend = .automatic) throws {
        let n = keys.count / 2, frames = progress.count
        try requireCount(keys.count, 2 * n, "keys")
        try requireCount(out.count, frames * n, "out")
        let resolved = try backend.resolved(.bake, lanes: out.count)
        guard n > 0, frames > 0, let key = keys.baseAddress, let p = progress.baseAddress,
              let o = out.baseAddress else { return }
        if resolved == .blas {
            try withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * frames) { basis in
                for f in 0..<frames {
                    basis[2 * f] = 1 - p[f]
                    basis[2 * f + 1] = p[f]
                }
                try bake(basis: UnsafeBufferPointer(basis), keys: keys, lanes: n, into: out, backend: .blas)
            }
        } else {
            for f in 0..<frames {
                bakeRow2(1 - p[f], key, p[f], key + n, o + f * n, n)
            }
        }
    }

    /// `row[i] = w0 · a[i] + w1 · b[i]`.
    @inline(__always)
    static func bakeRow2(_ w0: Double, _ a: UnsafePointer<Double>, _ w1: Double, _ b: UnsafePointer<Double>,
                         _ row: UnsafeMutablePointer<Double>, _ n: Int) {
        let v0 = SIMD4<Double>(repeating: w0), v1 = SIMD4<Double>(repeating: w1)
        var i = 0
        while i &+ 8 <= n {
            store4(v0 * load4(a, i) + v1 * load4(b, i), row, i)
            store4(v0 * load4(a, i &+ 4) + v1 * load4(b, i &+ 4), row, i &+ 4)
            i &+= 8
        }
        while i < n { row[i] = w0 * a[i] + w1 * b[i]; i &+= 1 }
    }
}
