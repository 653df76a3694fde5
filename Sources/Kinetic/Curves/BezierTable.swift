import KineticSIMD

/// The per-curve solver behind ``CubicBezier``: polynomial coefficients and a small table
/// that turns "find t with Bx(t) = x" into a branch-free look-up, one quintic and one
/// Newton step folded into y.
///
/// The curve is solved in two mirrored halves split at x = 1/2: for x ≤ 1/2 the original
/// curve is solved for t, for x > 1/2 the curve mirrored through (1/2, 1/2) is solved for
/// u = 1 − t at 1 − x (exact in double). Each half therefore works near its own end
/// point with relative accuracy, which keeps both ends exact.
///
/// Each half is cut into `segmentCount` segments uniform in the parameter. On each segment
/// the inverse t(v) is approximated by the quintic Hermite interpolant of the node values
/// and their exact first and second derivatives, where v is x itself or, for a half whose
/// end tangent is near vertical (x'(0) small, as at the start of `easeOut`), √x, in which
/// the inverse is smooth. That guess is typically within 1e-9 of t (1e-7 on steep curves);
/// one Newton step, taken in y to second order (see `solve`), leaves an error of the order
/// of the guess error cubed. A uniform bucket map over v gives the segment with a fixed,
/// per-curve number of branch-free increments. Segments where the guess is not good
/// enough are found at construction, by checking it against an exact point of the curve,
/// and flagged; x there is solved by a bracketed Newton/bisection iteration instead.
package final class BezierTable: @unchecked Sendable {
    // Immutable after init; the storage is never written again, so sharing across
    // threads is safe.
    static let segmentCount = 16
    static let bucketCount = 64
    /// Coefficients per segment: the quintic's six.
    static let coefficientStride = 6
    /// A half whose own x1 is at most this uses √x as its interpolation variable.
    static let rootThreshold = 0.1
    /// The largest error the folded step may leave in (scaled) y on a segment that is not
    /// flagged, as estimated at construction.
    static let tolerance = 1e-16
    /// Progress within this distance of either end (2^-26, about 1.5e-8) is solved exactly
    /// instead of through the table (`solveNearEnd`), for relative precision there.
    static let endThreshold = 0x1p-26
    // Layout of one half in the Double storage.
    static let iAX = 0, iBX = 1, iCX = 2, iAY = 3, iBY = 4, iCY = 5, iAX3 = 6, iBX2 = 7
    static let iSEnd = 8, iH = 9, iScale = 10, iRootMask = 11, iOffset = 12, iYSign = 14
    static let iX1Hi = 15, iX1Lo = 16, iX2Hi = 17, iX2Lo = 18, iAY3 = 19, iBY2 = 20
    static let iAX6 = 21, iAY6 = 22
    // The kernel's y coefficients carry the half's output sign (−1 for the mirrored half,
    // exact), so the result is offset + y with no multiplication.
    static let iKAY = 23, iKBY = 24, iKCY = 25
    static let iNodes = 26
    static let iCoef = iNodes + segmentCount + 2
    // Rounded up to even so the halves stay 16-byte aligned.
    static let halfStride = (iCoef + coefficientStride * segmentCount + 1) & ~1
    // Layout of one half in the byte storage: the bucket map.
    static let byteStride = bucketCount
    static let byteOffset = 2 * halfStride * MemoryLayout<Double>.stride
    /// Bytes after the upper half's map that its construction may write (see
    /// `kinetic_simd_bucket_map64`); never read.
    static let byteSlack = bucketCount
    /// The batch table's slot (a pointer, published once), after the bytes.
    static let slotOffset = byteOffset + 2 * byteStride + byteSlack

    let storage: UnsafeMutableRawPointer
    let kernel: BezierKernel
    /// The control points, for the batch table built on demand.
    let x1, y1, x2, y2: Double
    /// The ``BezierBatchTable`` (a pointer to one), published once by the first large batch
    /// call (`kinetic_atomic_publish_pointer`); nil until then. Inside `storage`.
    let batchSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let isIdentity: Bool
    /// dy/dx used for x < 0 and x > 1.
    let startGradient: Double
    let endGradient: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        isIdentity = x1 == y1 && x2 == y2
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        (startGradient, endGradient) = BezierTable.endGradients(x1, y1, x2, y2)
        storage = .allocate(byteCount: Self.slotOffset + MemoryLayout<UnsafeMutableRawPointer?>.stride, alignment: 16)
        batchSlot = (storage + Self.slotOffset).bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
        batchSlot.initialize(to: nil)
        let doubles = storage.bindMemory(to: Double.self, capacity: 2 * Self.halfStride)
        let bytes = (storage + Self.byteOffset).bindMemory(to: UInt8.self,
                                                           capacity: 2 * Self.byteStride + Self.byteSlack)
        // Every slot the evaluation reads is written below (or, for the identity, never
        // read); the bytes start zeroed so that the memory is initialised as UInt8.
        bytes.initialize(repeating: 0, count: 2 * Self.byteStride + Self.byteSlack)
        var steps = 0, secondOrder = false, scaledY = false
        let root = SIMDMask<SIMD2<Int64>>(arrayLiteral: x1 <= Self.rootThreshold, 1 - x2 <= Self.rootThreshold)
        if !isIdentity {
            let whole = BezierPolynomial(x1, y1, x2, y2)
            let mirror = BezierPolynomial(mirroring: x1, y1, x2, y2)
            // The parameter where x = 1/2 splits the halves.
            let split = Self.split(whole)
            (steps, secondOrder) = Self.buildHalves(doubles, bytes, whole: whole, mirror: mirror, split: split,
                                                    root: root)
            scaledY = whole.yScale != 1 || mirror.yScale != 1
        }
        kernel = BezierKernel(doubles: doubles, bytes: bytes, steps: steps, usesRoot: !isIdentity && any(root),
                              secondOrder: secondOrder, scaledY: scaledY)
    }

    deinit {
        if let built = kinetic_atomic_load_pointer(batchSlot) { BezierBatchTable.release(built) }
        storage.deallocate()
    }

    /// Chromium's end-gradient rule: the tangent at each end, falling back to the far
    /// control point when the near one coincides with the end, to 1 when both do, and to a
    /// flat 0 when the tangent is vertical.
    static func endGradients(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> (Double, Double) {
        let start: Double
        if x1 > 0 { start = y1 / x1 }
        else if y1 == 0 && x2 > 0 { start = y2 / x2 }
        else if y1 == 0 && y2 == 0 { start = 1 }
        else { start = 0 }
        let end: Double
        if x2 < 1 { end = (y2 - 1) / (x2 - 1) }
        else if y2 == 1 && x1 < 1 { end = (y1 - 1) / (x1 - 1) }
        else if y2 == 1 && y1 == 1 { end = 1 }
        else { end = 0 }
        return (clampFinite(start), clampFinite(end))
    }

    // MARK: Evaluation

    @inline(__always)
    package func value(at x: Double) -> Double {
        if x >= 0 && x <= 1 {
            if isIdentity { return x }
            return kernel.usesRoot ? kernel.solve(x, RootVariable.self) : kernel.solve(x, LinearVariable.self)
        }
        return extrapolate(x)
    }

    @inline(never)
    func extrapolate(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x < 0 { return startGradient == 0 ? 0 : Self.clampFinite(startGradient * x) }
        return endGradient == 0 ? 1 : Self.clampFinite(1 + endGradient * (x - 1))
    }

    // MARK: Slope

    package func slope(at x: Double) -> Double {
        if x.isNaN { return x }
        if x < 0 { return startGradient }
        if x > 1 { return endGradient }
        if isIdentity { return 1 }
        let (poly, s) = kernel.parameter(x)
        // The mirrored half has the same slope at the mirrored point.
        let dx = poly.dx(s), dy = poly.dy(s) * poly.yScale
        if dx != 0 { return Self.clampFinite(dy / dx) }
        if dy != 0 { return dy > 0 ? .infinity : -.infinity }
        // 0/0: the ratio of the second derivatives, then of the third.
        let ddx = poly.ddx(s), ddy = poly.ddy(s)
        if ddx != 0 { return Self.clampFinite(ddy / ddx * poly.yScale) }
        return poly.ax != 0 ? Self.clampFinite(poly.ay / poly.ax * poly.yScale) : 0
    }

    /// Results that overflow the double range are clamped to ±greatestFiniteMagnitude
    /// (as Chromium clamps), so finite input never yields an infinity or NaN.
    @inline(__always)
    static func clampFinite(_ v: Double) -> Double {
        max(-.greatestFiniteMagnitude, min(.greatestFiniteMagnitude, v))
    }
}

/// The evaluation half of ``BezierTable``: plain pointers and the step count, so that a
/// batch loop keeps them in registers.
struct BezierKernel {
    let doubles: UnsafePointer<Double>
    let bytes: UnsafePointer<UInt8>
    let steps: Int
    /// Whether either half interpolates in √x (then the evaluation takes a square root).
    let usesRoot: Bool
    /// Whether some segment needs the folded step's second-order term (a per-curve choice,
    /// so the branch on it is always predicted).
    let secondOrder: Bool
    /// Whether a half's y polynomial is scaled down (control points beyond ±2^1000), so the
    /// result is multiplied back by the scale.
    let scaledY: Bool

    init(doubles: UnsafeMutablePointer<Double>, bytes: UnsafeMutablePointer<UInt8>, steps: Int, usesRoot: Bool,
         secondOrder: Bool, scaledY: Bool) {
        self.secondOrder = secondOrder
        self.scaledY = scaledY
        self.doubles = UnsafePointer(doubles)
        self.bytes = UnsafePointer(bytes)
        self.steps = steps
        self.usesRoot = usesRoot
    }

    typealias T = BezierTable

    /// The solve for x in [0, 1]: look-up, quintic guess, one Newton step folded into y.
    /// Branch-free on the common path: the half, the interpolation variable and the
    /// mirroring are selected arithmetically, so random x cost no mispredictions.
    @inline(__always)
    func solve<V: InterpolationVariable>(_ x: Double, _ variable: V.Type) -> Double {
        // The half and xx = x or 1 − x from the sign bit of 1/2 − x, in integer arithmetic:
        // a comparison or a select here (?:, min, a bit mask from `x > 0.5`) is compiled to
        // branches on x86-64, which random x mispredict half the time.
        let sign = (0.5 - x).bitPattern & (1 &<< 63)
        let half = Int(truncatingIfNeeded: sign &>> 63)
        let p = doubles + half &* T.halfStride
        let b = bytes + half &* T.byteStride
        // h + (∓x) with h = 0 or 1: x, or 1 − x (exact for x > 1/2, by Sterbenz).
        let h = Double(bitPattern: (0 &- (sign &>> 63)) & 1.0.bitPattern)
        let xx = h + Double(bitPattern: x.bitPattern ^ sign)
        // Within `endThreshold` of either end the table's guess has a small absolute error but
        // not a small relative one; the exact solve there keeps the result monotone and in
        // range. Random x almost never take this branch, so it is predicted.
        if _slowPath(xx < T.endThreshold) { return solveNearEnd(xx, half: half) }
        let offset = p[T.iOffset]
        let v = V.variable(xx, mask: p[T.iRootMask].bitPattern)
        let j = Self.bucket(v, p[T.iScale])
        var i = Int(b[j])
        let nodes = p + T.iNodes
        // One increment for most curves (a predictable branch); the loop for the rest.
        i &+= nodes[i &+ 1] <= v ? 1 : 0
        var k = 1
        while k < steps {
            i &+= nodes[i &+ 1] <= v ? 1 : 0
            k &+= 1
        }
        let dd = v - nodes[i]
        let c = p + (T.iCoef &+ T.coefficientStride &* i)
        let s = Self.guess(c, dd)
        // One Newton step, folded into y. With f = x(s) − xx and δ = f/x′(s) the root is
        // s* = s − δ − (x″/2x′)·δ² + O(δ³), so y(s*) = y(s) − y′·δ + δ²·(y″ − y′·x″/x′)/2 + O(δ³).
        // The second-order term is taken only on curves whose table needs it.
        let ax = p[T.iAX], bx = p[T.iBX], cx = p[T.iCX], bx2 = p[T.iBX2]
        let dxds = (p[T.iAX3] * s + bx2) * s + cx
        let delta = ((cx * s - xx) + (s * s) * (ax * s + bx)) / dxds
        let ay = p[T.iKAY], by = p[T.iKBY], cy = p[T.iKCY], by2 = p[T.iBY2]
        let dyds = (p[T.iAY3] * s + by2) * s + cy
        var y = ((ay * s + by) * s + cy) * s - dyds * delta
        if secondOrder {
            // The two divisions are independent and overlap.
            let bend = (p[T.iAX6] * s + bx2) / dxds
            y += (delta * delta) * (0.5 * ((p[T.iAY6] * s + by2) - dyds * bend))
        }
        if !y.isFinite {
            // A flagged segment (NaN guess) or a failed step: the bracketed solve.
            let t = solveFlagged(xx, half: half, segment: i)
            y = ((ay * t + by) * t + cy) * t
        }
        if scaledY { y *= abs(p[T.iYSign]) }
        return offset + y
    }

    /// The segment's quintic at dd = v − node, by Estrin's scheme: a shorter dependent chain
    /// than Horner's; the guess's own error (≥ 1e-13) dwarfs the difference in rounding.
    @inline(__always)
    static func guess(_ c: UnsafePointer<Double>, _ dd: Double) -> Double {
        let d2 = dd * dd
        return ((c[0] + c[1] * dd) + d2 * (c[2] + c[3] * dd)) + (d2 * d2) * (c[4] + c[5] * dd)
    }

    /// The bucket of v: v·scale rounded to the nearest integer (buckets are centred on the
    /// multiples of their width, see `fillBucketMap`), or one less when v·scale is within
    /// rounding of a half-integer, clamped to [0, bucketCount − 1]. Computed by the 1.5·2^52
    /// rounding trick (one addition), so it has no branch and vectorises; `steps` allows for
    /// the one-less case.
    @inline(__always)
    static func bucket(_ v: Double, _ scale: Double) -> Int {
        // Around 1.5·2^52 the spacing of doubles is 1 for every v ≥ 0, so the sum is rounded
        // to an integer (ties to even) and its low bits are that integer. (The rounding is to
        // nearest, not down: 1.5·2^52 − 0.5 is not a double, so no constant can make it a
        // floor; the map is built for rounding instead.)
        let r = v * scale + 0x1.8p52
        return min(Int(truncatingIfNeeded: r.bitPattern & 0x3FF), T.bucketCount - 1)
    }

    /// The value at xx < `endThreshold` from the half's nearer end: t solved to full relative
    /// precision (see `BezierPolynomial.solveNearZero`), then y(t) by Horner's rule,
    /// whose terms shrink with t, so y keeps its relative precision down to the subnormals.
    /// xx = 0 gives the end itself, exactly.
    @inline(never)
    func solveNearEnd(_ xx: Double, half: Int) -> Double {
        let p = doubles + half &* T.halfStride
        if xx == 0 { return p[T.iOffset] }
        let t = BezierPolynomial(coefficientsAt: p).solveNearZero(xx, hi: min(1, 2 * p[T.iSEnd]))
        var y = ((p[T.iKAY] * t + p[T.iKBY]) * t + p[T.iKCY]) * t
        if scaledY { y *= abs(p[T.iYSign]) }
        return p[T.iOffset] + y
    }

    @inline(never)
    func solveFlagged(_ xx: Double, half: Int, segment i: Int) -> Double {
        let p = doubles + half * T.halfStride
        let poly = BezierPolynomial(coefficientsAt: p)
        let h = p[T.iH]
        let lo = Double(i) * h
        let hi = i == T.segmentCount - 1 ? 1 : Double(i + 1) * h
        return poly.solveBracketed(xx, lo: lo, hi: hi, guess: lo)
    }

    /// The selected half's polynomial and the parameter of x on it (x in [0, 1]).
    func parameter(_ x: Double) -> (BezierPolynomial, Double) {
        let upper = x > 0.5
        let xx = upper ? 1 - x : x
        let p = doubles + (upper ? T.halfStride : 0)
        let poly = BezierPolynomial(coefficientsAt: p)
        return (poly, poly.solveBracketed(xx, lo: 0, hi: min(1, 2 * p[T.iSEnd]), guess: xx))
    }
}

/// How a half maps its progress xx to the interpolation variable v. The evaluation is
/// specialised per curve: curves whose halves both use v = xx skip the square root.
protocol InterpolationVariable {
    static func variable(_ xx: Double, mask: UInt64) -> Double
    /// The batch table's variable: x for both halves, or √x for both.
    static func variable(_ xx: SIMD2<Double>) -> SIMD2<Double>
}

/// v = xx for both halves.
enum LinearVariable: InterpolationVariable {
    @inline(__always) static func variable(_ xx: Double, mask: UInt64) -> Double { xx }
    @inline(__always) static func variable(_ xx: SIMD2<Double>) -> SIMD2<Double> { xx }
}

/// v = √xx where the half's mask is set, xx elsewhere, selected without a branch.
enum RootVariable: InterpolationVariable {
    @inline(__always) static func variable(_ xx: Double, mask: UInt64) -> Double {
        kinetic_simd_root_select(xx, Double(bitPattern: mask))
    }
    @inline(__always) static func variable(_ xx: SIMD2<Double>) -> SIMD2<Double> { kinetic_simd_sqrt2(xx) }
}
