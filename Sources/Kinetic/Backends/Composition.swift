
extension Batch {
    /// Additive composition: several animations on the same properties, summed.
    ///
    /// `out[i] = Σₖ weights[k] · contributions[k·N + i]` for k in `0..<contributionCount`,
    /// where N = `out.count` and contribution k occupies `contributions[k·N ..< (k+1)·N]`
    /// (a K × N row-major matrix). With `weights == nil` every weight is 1 (a plain sum).
    /// With no contributions `out` is set to 0.
    ///
    /// Native: blocks of 512 lanes, the block of `out` stays in L1 while the K rows are
    /// added, four rows per pass. BLAS: one `dgemv` (out = Cᵀ · w, with a ones vector when `weights` is nil; the
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

    /// `o[i] = Σ_r w[r] · x[r · n + i]` for r in 0 ..< k (k ≥ 1; every weight 1 when `w`
    /// is nil) over `n` lanes, in blocks of 512 lanes that stay in L1 while the rows are added.
    /// Each pass over a block adds up to four rows, so `o` is loaded and stored once per four
    /// rows, not once per row. The sum runs left to right over the rows, each term rounded
    /// and added in turn (no fused multiply-add), so the bits are those of one pass per row.
    static func composeNative(_ x: UnsafePointer<Double>, _ k: Int, _ w: UnsafePointer<Double>?,
                              _ o: UnsafeMutablePointer<Double>, _ n: Int) {
        let stride = n, block = 512
        var start = 0
        while start < n {
            let m = min(block, n &- start)
            let dst = o + start, src = x + start
            var r = 0
            if k >= 4 {
                rows4(src, stride, w, dst, m, accumulate: false)
                r = 4
            } else if let w {
                scaleNative(src, w[0], dst, m)
                r = 1
            } else {
                dst.update(from: src, count: m)
                r = 1
            }
            while r &+ 4 <= k {
                rows4(src + r &* stride, stride, w.map { $0 + r }, dst, m, accumulate: true)
                r &+= 4
            }
            while r < k {
                if let w { addScaledNative(src + r &* stride, w[r], dst, m) } else { addNative(src + r &* stride, dst, m) }
                r &+= 1
            }
            start &+= m
        }
    }

    /// Four rows `stride` apart at `x`, weighted by `w[0 ..< 4]` (or 1), added left to right
    /// onto `o` (or, without `accumulate`, summed into it) over `m` lanes.
    @inline(__always)
    static func rows4(_ x: UnsafePointer<Double>, _ stride: Int, _ w: UnsafePointer<Double>?,
                      _ o: UnsafeMutablePointer<Double>, _ m: Int, accumulate: Bool) {
        let x0 = x, x1 = x0 + stride, x2 = x1 + stride, x3 = x2 + stride
        var i = 0
        if let w {
            let s0 = SIMD4<Double>(repeating: w[0]), s1 = SIMD4<Double>(repeating: w[1])
            let s2 = SIMD4<Double>(repeating: w[2]), s3 = SIMD4<Double>(repeating: w[3])
            while i &+ 4 <= m {
                let first = accumulate ? load4(o, i) + s0 * load4(x0, i) : s0 * load4(x0, i)
                store4(((first + s1 * load4(x1, i)) + s2 * load4(x2, i)) + s3 * load4(x3, i), o, i)
                i &+= 4
            }
            while i < m {
                let first = accumulate ? o[i] + w[0] * x0[i] : w[0] * x0[i]
                o[i] = ((first + w[1] * x1[i]) + w[2] * x2[i]) + w[3] * x3[i]
                i &+= 1
            }
        } else {
            while i &+ 4 <= m {
                let first = accumulate ? load4(o, i) + load4(x0, i) : load4(x0, i)
                store4(((first + load4(x1, i)) + load4(x2, i)) + load4(x3, i), o, i)
                i &+= 4
            }
            while i < m {
                let first = accumulate ? o[i] + x0[i] : x0[i]
                o[i] = ((first + x1[i]) + x2[i]) + x3[i]
                i &+= 1
            }
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
