/// Batch evaluation of one curve over many x: the same arithmetic as the scalar solve,
/// lane for lane (so every element equals `value(at:)` bit for bit), organised for
/// throughput.
///
/// Each chunk of x is first partitioned by half (x ≤ 1/2 or x > 1/2) into two index lists,
/// so that within a list every per-half constant (polynomial coefficients, mirroring,
/// bucket scale) is loop-invariant; out-of-range x are extrapolated during the partition.
/// Each list is then solved two lanes at a time in `SIMD2<Double>` (one SSE2 register on
/// baseline x86-64): only the per-segment table entries are gathered per lane. Flagged
/// segments fall back, per lane, to the same bracketed solve the scalar path uses.
extension BezierTable {
    /// Chunk length: the two index lists live on the stack.
    static let batchChunk = 512

    func values(at xs: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
        guard let src = xs.baseAddress, let dst = out.baseAddress else { return }
        let n = xs.count
        if isIdentity {
            for k in 0..<n {
                let x = src[k]
                dst[k] = (x >= 0 && x <= 1) ? x : extrapolate(x)
            }
            return
        }
        if kernel.usesRoot {
            batch(src, dst, n, RootVariable.self)
        } else {
            batch(src, dst, n, LinearVariable.self)
        }
    }

    private func batch<V: InterpolationVariable>(_ src: UnsafePointer<Double>, _ dst: UnsafeMutablePointer<Double>,
                                                 _ n: Int, _ variable: V.Type) {
        let chunk = Self.batchChunk
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * chunk) { lists in
            let low = lists.baseAddress!, high = low + chunk
            var start = 0
            while start < n {
                let end = min(start + chunk, n)
                var nLow = 0, nHigh = 0
                for k in start..<end {
                    let x = src[k]
                    if x >= 0 && x <= 1 {
                        // Append k to one list without a branch on the half.
                        let upper = x > 0.5 ? 1 : 0
                        low[nLow] = k
                        high[nHigh] = k
                        nHigh &+= upper
                        nLow &+= 1 &- upper
                    } else {
                        dst[k] = extrapolate(x)  // k is in no list, so in-place use is safe
                    }
                }
                kernel.solveHalf(0, low, nLow, src, dst, variable)
                kernel.solveHalf(1, high, nHigh, src, dst, variable)
                start = end
            }
        }
    }
}

extension BezierKernel {
    /// Solves the listed x, all in half `half`, two lanes at a time; an odd last one goes
    /// through the scalar solve.
    @inline(__always)
    func solveHalf<V: InterpolationVariable>(_ half: Int, _ indices: UnsafeMutablePointer<Int>, _ count: Int,
                                             _ src: UnsafePointer<Double>, _ dst: UnsafeMutablePointer<Double>,
                                             _ variable: V.Type) {
        let p = doubles + half * T.halfStride
        let b = bytes + half * T.byteStride
        let nodes = p + T.iNodes, coef = p + T.iCoef
        let offset = p[T.iOffset], sign = p[T.iSign], ySign = p[T.iYSign]
        let mask = p[T.iRootMask].bitPattern, scale = p[T.iScale]
        let ax = p[T.iAX], bx = p[T.iBX], cx = p[T.iCX], ax3 = p[T.iAX3], bx2 = p[T.iBX2]
        let ay = p[T.iAY], by = p[T.iBY], cy = p[T.iCY]
        let steps = self.steps
        var q = 0
        while q + 1 < count {
            let ia = indices[q], ib = indices[q + 1]
            let xx = offset + sign * SIMD2(src[ia], src[ib])
            let v = V.variable(xx, mask: mask)
            // Self.bucket, two lanes at once.
            let r = pointwiseMax(v * scale + (0x1p52 - 0.5), SIMD2(repeating: 0x1p52))
            let bits = unsafeBitCast(r, to: SIMD2<UInt64>.self) & 0x3FF
            let ja = min(Int(truncatingIfNeeded: bits[0]), T.bucketCount - 1)
            let jb = min(Int(truncatingIfNeeded: bits[1]), T.bucketCount - 1)
            var sa = Int(b[ja]), sb = Int(b[jb])
            var k = 0
            while k < steps {
                sa &+= nodes[sa &+ 1] <= v[0] ? 1 : 0
                sb &+= nodes[sb &+ 1] <= v[1] ? 1 : 0
                k &+= 1
            }
            let dd = v - SIMD2(nodes[sa], nodes[sb])
            let ca = coef + 4 &* sa, cb = coef + 4 &* sb
            var s = SIMD2(ca[0], cb[0]) + dd * (SIMD2(ca[1], cb[1]) + dd * (SIMD2(ca[2], cb[2]) + dd * SIMD2(ca[3], cb[3])))
            s = Self.newton(s, xx, ax, bx, cx, ax3, bx2)
            s = Self.newton(s, xx, ax, bx, cx, ax3, bx2)
            if any((s - s) .!= 0) {  // a flagged segment (NaN guess) or a failed step
                if !s[0].isFinite { s[0] = solveFlagged(xx[0], half: half, segment: sa) }
                if !s[1].isFinite { s[1] = solveFlagged(xx[1], half: half, segment: sb) }
            }
            let y = offset + ySign * (((ay * s + by) * s + cy) * s)
            dst[ia] = y[0]
            dst[ib] = y[1]
            q &+= 2
        }
        if q < count {
            let i = indices[q]
            dst[i] = solve(src[i], variable)
        }
    }

    /// One Newton step on x(s) = xx, in exactly the scalar solve's order of operations.
    @inline(__always)
    static func newton(_ s: SIMD2<Double>, _ xx: SIMD2<Double>, _ ax: Double, _ bx: Double, _ cx: Double,
                       _ ax3: Double, _ bx2: Double) -> SIMD2<Double> {
        let x1: SIMD2<Double> = ax * s + bx
        let x2: SIMD2<Double> = x1 * s + cx
        let f: SIMD2<Double> = x2 * s - xx
        let d1: SIMD2<Double> = ax3 * s + bx2
        let df: SIMD2<Double> = d1 * s + cx
        return s - f / df
    }
}
