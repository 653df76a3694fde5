
extension Batch {
    /// Additive composition: several animations on the same properties, summed.
    ///
    /// `out[i] = Σₖ weights[k] · contributions[k·N + i]` for k in `0..<contributionCount`,
    /// where N = `out.count` and contribution k occupies `contributions[k·N ..< (k+1)·N]`
    /// (a K × N row-major matrix). With `weights == nil` every weight is 1 (a plain sum).
    /// With no contributions `out` is set to 0.
    ///
    /// Native: blocks of 512 lanes, the block of `out` stays in L1 while the K rows are
    /// added. BLAS: one `dgemv` (out = Cᵀ · w, with a ones vector when `weights` is nil; the
    /// ones live in a temporary of K doubles, on the stack for small K).
    ///
    /// - Parameters:
    ///   - contributions: K × N values, any units (typically each animation's offset).
    ///   - contributionCount: K, ≥ 0.
    ///   - weights: K factors, or nil for all ones.
    ///   - out: receives the N sums; must not overlap `contributions`.
    ///   - backend: implementation; `.automatic` picks by measured speed.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` if
    ///   `contributions.count != K · out.count` or `weights.count != K`;
    ///   ``ParameterError/outOfRange(parameter:value:expected:)`` if K < 0.
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    public static func compose(_ contributions: UnsafeBufferPointer<Double>, contributionCount: Int,
                               weights: UnsafeBufferPointer<Double>? = nil,
                               into out: UnsafeMutableBufferPointer<Double>,
                               backend: Backend = .automatic) throws {
        let k = contributionCount
        guard k >= 0 else {
            throw ParameterError.outOfRange(parameter: "contributionCount", value: Double(k), expected: "[0, ∞)")
        }
        let n = out.count
        let (total, overflow) = k.multipliedReportingOverflow(by: n)
        try requireCount(contributions.count, overflow ? Int.max : total, "contributions")
        if let weights { try requireCount(weights.count, k, "weights") }
        let resolved = try backend.resolved(.composition, lanes: n)
        guard n > 0, let o = out.baseAddress else { return }
        guard k > 0, let c = contributions.baseAddress else {
            o.update(repeating: 0, count: n)
            return
        }
        let w = weights?.baseAddress
        if resolved == .blas {
            // Row-major K × N with lda = N, transposed: y (N) = Cᵀ · x (K).
            if let w {
                BLAS.transposedMatrixVector(rows: k, columns: n, c, lda: n, w, o)
            } else {
                withUnsafeTemporaryAllocation(of: Double.self, capacity: k) { ones in
                    let x = ones.baseAddress!
                    x.initialize(repeating: 1, count: k)
                    BLAS.transposedMatrixVector(rows: k, columns: n, c, lda: n, x, o)
                }
            }
        } else {
            composeNative(c, k, w, o, n)
        }
    }

    static func composeNative(_ c: UnsafePointer<Double>, _ k: Int, _ w: UnsafePointer<Double>?,
                              _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        let block = 512
        var start = 0
        while start < n {
            let m = min(block, n - start)
            let dst = o + start
            if let w {
                scaleNative(c + start, w[0], dst, m)
                for r in 1..<k { addScaledNative(c + r * n + start, w[r], dst, m) }
            } else {
                dst.update(from: c + start, count: m)
                for r in 1..<k { addNative(c + r * n + start, dst, m) }
            }
            start += m
        }
    }

    @inline(__always)
    static func scaleNative(_ x: UnsafePointer<Double>, _ s: Double, _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        let sv = SIMD4<Double>(repeating: s)
        var i = 0
        while i &+ 8 <= n {
            store4(sv * load4(x, i), o, i)
            store4(sv * load4(x, i &+ 4), o, i &+ 4)
            i &+= 8
        }
        while i < n { o[i] = s * x[i]; i &+= 1 }
    }

    @inline(__always)
    static func addScaledNative(_ x: UnsafePointer<Double>, _ s: Double, _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        let sv = SIMD4<Double>(repeating: s)
        var i = 0
        while i &+ 8 <= n {
            store4(load4(o, i) + sv * load4(x, i), o, i)
            store4(load4(o, i &+ 4) + sv * load4(x, i &+ 4), o, i &+ 4)
            i &+= 8
        }
        while i < n { o[i] += s * x[i]; i &+= 1 }
    }

    @inline(__always)
    static func addNative(_ x: UnsafePointer<Double>, _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        var i = 0
        while i &+ 8 <= n {
            store4(load4(o, i) + load4(x, i), o, i)
            store4(load4(o, i &+ 4) + load4(x, i &+ 4), o, i &+ 4)
            i &+= 8
        }
        while i < n { o[i] += x[i]; i &+= 1 }
    }
}
