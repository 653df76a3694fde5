/// Batch evaluation of one curve over many x: the same arithmetic as the scalar solve,
/// lane for lane (so every element equals `value(at:)` bit for bit), organised for
/// throughput.
///
/// Each chunk of x is first partitioned by half (x ≤ 1/2 or x > 1/2) into two index lists,
/// so that within a list every per-half constant (polynomial coefficients, mirroring,
/// bucket scale) is loop-invariant; out-of-range x are extrapolated during the partition.
/// Each list is then solved two lanes at a time in `SIMD4<Double>` (one SSE2 register on
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
        let ay = p[T.iAY], by = p[T.iBY], cy = p[T.iCY], ay3 = p[T.iAY3], by2 = p[T.iBY2]
        let steps = self.steps
        @inline(__always)
        func group(_ q: Int) -> SIMD4<Double> {
            let i0 = indices[q], i1 = indices[q + 1], i2 = indices[q + 2], i3 = indices[q + 3]
            let xx = offset + sign * SIMD4(src[i0], src[i1], src[i2], src[i3])
            let v = V.variable(xx, mask: mask)
            // Self.bucket, four lanes at once.
            let r = pointwiseMax(v * scale + (0x1p52 - 0.5), SIMD4(repeating: 0x1p52))
            let bits = unsafeBitCast(r, to: SIMD4<UInt64>.self) & 0x3FF
            var s0 = Int(b[min(Int(truncatingIfNeeded: bits[0]), T.bucketCount - 1)])
            var s1 = Int(b[min(Int(truncatingIfNeeded: bits[1]), T.bucketCount - 1)])
            var s2 = Int(b[min(Int(truncatingIfNeeded: bits[2]), T.bucketCount - 1)])
            var s3 = Int(b[min(Int(truncatingIfNeeded: bits[3]), T.bucketCount - 1)])
            var k = 0
            while k < steps {
                s0 &+= nodes[s0 &+ 1] <= v[0] ? 1 : 0
                s1 &+= nodes[s1 &+ 1] <= v[1] ? 1 : 0
                s2 &+= nodes[s2 &+ 1] <= v[2] ? 1 : 0
                s3 &+= nodes[s3 &+ 1] <= v[3] ? 1 : 0
                k &+= 1
            }
            let dd = v - SIMD4(nodes[s0], nodes[s1], nodes[s2], nodes[s3])
            let c0 = coef + 4 &* s0, c1 = coef + 4 &* s1, c2 = coef + 4 &* s2, c3 = coef + 4 &* s3
            let g3 = SIMD4(c0[3], c1[3], c2[3], c3[3]), g2 = SIMD4(c0[2], c1[2], c2[2], c3[2])
            let g1 = SIMD4(c0[1], c1[1], c2[1], c3[1]), g0 = SIMD4(c0[0], c1[0], c2[0], c3[0])
            let h2: SIMD4<Double> = g2 + dd * g3
            let h1: SIMD4<Double> = g1 + dd * h2
            var s: SIMD4<Double> = g0 + dd * h1
            s = Self.newton(s, xx, ax, bx, cx, ax3, bx2)
            var y = Self.foldedY(s, xx, ax, bx, cx, ax3, bx2, ay, by, cy, ay3, by2)
            if any((y - y) .!= 0) {  // a flagged segment (NaN guess) or a failed step
                let segments = (s0, s1, s2, s3)
                for lane in 0..<4 where !y[lane].isFinite {
                    let segment = lane == 0 ? segments.0 : lane == 1 ? segments.1 : lane == 2 ? segments.2 : segments.3
                    y[lane] = Self.y(solveFlagged(xx[lane], half: half, segment: segment), ay, by, cy)
                }
            }
            return offset + ySign * y
        }
        // Two groups of four lanes per iteration: independent chains for the core to overlap.
        var q = 0
        while q + 7 < count {
            let ya = group(q), yb = group(q &+ 4)
            for l in 0..<4 {
                dst[indices[q &+ l]] = ya[l]
                dst[indices[q &+ 4 &+ l]] = yb[l]
            }
            q &+= 8
        }
        while q + 3 < count {
            let ya = group(q)
            for l in 0..<4 { dst[indices[q &+ l]] = ya[l] }
            q &+= 4
        }
        while q < count {
            let i = indices[q]
            dst[i] = solve(src[i], variable)
            q &+= 1
        }
    }

    /// One Newton step on x(s) = xx, in exactly the scalar solve's order of operations.
    @inline(__always)
    static func newton(_ s: SIMD4<Double>, _ xx: SIMD4<Double>, _ ax: Double, _ bx: Double, _ cx: Double,
                       _ ax3: Double, _ bx2: Double) -> SIMD4<Double> {
        let x1: SIMD4<Double> = ax * s + bx
        let x2: SIMD4<Double> = x1 * s + cx
        let f: SIMD4<Double> = x2 * s - xx
        let d1: SIMD4<Double> = ax3 * s + bx2
        let df: SIMD4<Double> = d1 * s + cx
        return s - f / df
    }

    /// y = Y(s) − Y'(s)·δ with δ = (x(s) − xx) / x'(s), in the scalar solve's order.
    @inline(__always)
    static func foldedY(_ s: SIMD4<Double>, _ xx: SIMD4<Double>, _ ax: Double, _ bx: Double, _ cx: Double,
                        _ ax3: Double, _ bx2: Double, _ ay: Double, _ by: Double, _ cy: Double,
                        _ ay3: Double, _ by2: Double) -> SIMD4<Double> {
        let x1: SIMD4<Double> = ax * s + bx
        let x2: SIMD4<Double> = x1 * s + cx
        let f: SIMD4<Double> = x2 * s - xx
        let d1: SIMD4<Double> = ax3 * s + bx2
        let df: SIMD4<Double> = d1 * s + cx
        let delta: SIMD4<Double> = f / df
        let y1: SIMD4<Double> = ay * s + by
        let y2: SIMD4<Double> = y1 * s + cy
        let y: SIMD4<Double> = y2 * s
        let e1: SIMD4<Double> = ay3 * s + by2
        let dy: SIMD4<Double> = e1 * s + cy
        return y - dy * delta
    }

    /// Y(t) of the half, as the scalar solve computes it after a bracketed solve.
    @inline(__always)
    static func y(_ t: Double, _ ay: Double, _ by: Double, _ cy: Double) -> Double {
        ((ay * t + by) * t + cy) * t
    }
}
