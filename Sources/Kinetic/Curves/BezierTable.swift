import KineticSIMD
import Synchronization

/// The per-curve solver behind ``CubicBezier``: polynomial coefficients and a small table
/// that turns "find t with Bx(t) = x" into a branch-free look-up, one cubic and two
/// Newton steps.
///
/// The curve is solved in two mirrored halves split at x = 1/2: for x ≤ 1/2 the original
/// curve is solved for t, for x > 1/2 the curve mirrored through (1/2, 1/2) is solved for
/// u = 1 − t at 1 − x (exact in double). Each half therefore works near its own end
/// point with relative accuracy, which keeps both ends exact.
///
/// Each half is cut into `segmentCount` segments uniform in the parameter. On each segment
/// the inverse t(v) is approximated by the cubic Hermite interpolant of the node values and
/// their exact derivatives, where v is x itself or, for a half whose end tangent is near
/// vertical (x'(0) small, as at the start of `easeOut`), √x, in which the inverse is
/// smooth. Two Newton steps on the exact polynomial finish the solve. A uniform bucket map
/// over v gives the segment with a fixed, per-curve number of branch-free increments.
/// Segments where the guess is not good enough for two steps are found at construction,
/// by checking the guess against an exact point of the curve, and flagged; x there is
/// solved by a bracketed Newton/bisection iteration instead.
final class BezierTable: @unchecked Sendable {
    // Immutable after init; the storage is never written again, so sharing across
    // threads is safe.
    static let segmentCount = 16
    static let bucketCount = 32
    /// A half whose own x1 is at most this uses √x as its interpolation variable.
    static let rootThreshold = 0.1
    // Layout of one half in the Double storage.
    static let iAX = 0, iBX = 1, iCX = 2, iAY = 3, iBY = 4, iCY = 5, iAX3 = 6, iBX2 = 7
    static let iSEnd = 8, iH = 9, iScale = 10, iRootMask = 11, iOffset = 12, iSign = 13, iYSign = 14
    static let iX1Hi = 15, iX1Lo = 16, iX2Hi = 17, iX2Lo = 18, iAY3 = 19, iBY2 = 20
    static let iNodes = 21
    static let iCoef = iNodes + segmentCount + 1
    // Segments plus one scratch slot used while building, rounded up to even so the
    // halves stay 16-byte aligned.
    static let halfStride = (iCoef + 4 * segmentCount + 2) & ~1
    // Layout of one half in the byte storage: the bucket map.
    static let byteStride = bucketCount
    static let byteOffset = 2 * halfStride * MemoryLayout<Double>.stride

    let storage: UnsafeMutableRawPointer
    let kernel: BezierKernel
    /// The control points, for the batch table built on demand.
    let x1, y1, x2, y2: Double
    /// The ``BezierBatchTable`` (a pointer to one), published once by the first large batch
    /// call; nil until then.
    let batchStorage = Atomic<UnsafeMutableRawPointer?>(nil)
    let isIdentity: Bool
    /// dy/dx used for x < 0 and x > 1.
    let startGradient: Double
    let endGradient: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        isIdentity = x1 == y1 && x2 == y2
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        (startGradient, endGradient) = BezierTable.endGradients(x1, y1, x2, y2)
        storage = .allocate(byteCount: Self.byteOffset + 2 * Self.byteStride, alignment: 16)
        let doubles = storage.bindMemory(to: Double.self, capacity: 2 * Self.halfStride)
        let bytes = (storage + Self.byteOffset).bindMemory(to: UInt8.self, capacity: 2 * Self.byteStride)
        // Every slot the evaluation reads is written below (or, for the identity, never
        // read); only the byte flags start zeroed.
        bytes.initialize(repeating: 0, count: 2 * Self.byteStride)
        var steps = 0
        if !isIdentity {
            let whole = BezierPolynomial(x1, y1, x2, y2)
            let mirror = BezierPolynomial(mirroring: x1, y1, x2, y2)
            // The parameter where x = 1/2 splits the halves.
            let split = whole.solveBracketed(0.5, lo: 0, hi: 1, guess: 0.5)
            let k0 = Self.buildHalf(doubles, bytes, whole, x1: x1, sEnd: split)
            let k1 = Self.buildHalf(doubles + Self.halfStride, bytes + Self.byteStride,
                                    mirror, x1: 1 - x2, sEnd: 1 - split)
            steps = max(k0, k1)
            // x ↦ offset + sign·x maps x to the half's own progress and back, exactly;
            // y = offset + ySign·(scaled polynomial), ySign carrying the half's y scale.
            doubles[Self.iOffset] = 0; doubles[Self.iSign] = 1; doubles[Self.iYSign] = whole.yScale
            doubles[Self.halfStride + Self.iOffset] = 1; doubles[Self.halfStride + Self.iSign] = -1
            doubles[Self.halfStride + Self.iYSign] = -mirror.yScale
        }
        let usesRoot = !isIdentity && (x1 <= Self.rootThreshold || 1 - x2 <= Self.rootThreshold)
        kernel = BezierKernel(doubles: doubles, bytes: bytes, steps: steps, usesRoot: usesRoot)
    }

    deinit {
        storage.deallocate()
        if let built = batchStorage.load(ordering: .acquiring) { BezierBatchTable.release(built) }
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

    /// Fills one half's table; returns the number of segment increments it needs.
    private static func buildHalf(_ d: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<UInt8>,
                                  _ poly: BezierPolynomial, x1: Double, sEnd: Double) -> Int {
        let n = segmentCount, m = bucketCount
        d[iAX] = poly.ax; d[iBX] = poly.bx; d[iCX] = poly.cx
        d[iAY] = poly.ay; d[iBY] = poly.by; d[iCY] = poly.cy
        d[iAX3] = 3 * poly.ax; d[iBX2] = 2 * poly.bx
        d[iAY3] = 3 * poly.ay; d[iBY2] = 2 * poly.by
        d[iX1Hi] = poly.exactX1.hi; d[iX1Lo] = poly.exactX1.lo
        d[iX2Hi] = poly.exactX2.hi; d[iX2Lo] = poly.exactX2.lo
        let root = x1 <= rootThreshold
        let h = sEnd / Double(n)
        let vEnd = root ? (0.5).squareRoot() : 0.5
        d[iSEnd] = sEnd; d[iH] = h; d[iScale] = Double(m) / vEnd
        d[iRootMask] = Double(bitPattern: root ? ~0 : 0)
        let nodes = d + iNodes
        let coef = d + iCoef
        // First pass: node values v_i and their derivatives ds/dv, kept in the
        // coefficient slots c[0], c[1] of segment i until the second pass.
        for i in 0...n {
            let s = Double(i) * h
            let x = i == 0 ? 0 : poly.x(s)
            let dx = poly.dx(s)
            let v = root ? x.squareRoot() : x
            let g: Double
            if !root { g = 1 / dx }
            else if i > 0 { g = 2 * v / dx }
            else { g = poly.cx > 0 ? 0 : (poly.bx > 0 ? 1 / poly.bx.squareRoot() : .infinity) }
            nodes[i] = v
            if i < n { coef[4 * i + 1] = g } else { coef[4 * n] = g }  // slot past the last segment
        }
        var gNext = coef[4 * 1 + 1]
        for i in 0..<n {
            let c = coef + 4 * i
            let s0 = Double(i) * h
            let g0 = c[1], g1 = i + 1 < n ? gNext : coef[4 * n]
            if i + 2 <= n - 1 { gNext = coef[4 * (i + 2) + 1] }
            let w = nodes[i + 1] - nodes[i]
            let invW = 1 / w
            let r = h * invW
            c[0] = s0
            c[2] = (3 * r - 2 * g0 - g1) * invW
            c[3] = (g0 + g1 - 2 * r) * invW * invW
            var ok = w > 0 && g0.isFinite && g1.isFinite && c[2].isFinite && c[3].isFinite
            if ok {
                // Check the guess against an exact point of the curve (the segment's
                // parameter midpoint) and bound the error the two Newton steps leave:
                // each maps an error e to about C·e², C = |x''| / 2x'.
                let sm = s0 + 0.5 * h
                let xm = poly.x(sm)
                let dd = (root ? xm.squareRoot() : xm) - nodes[i]
                let guess = c[0] + dd * (c[1] + dd * (c[2] + dd * c[3]))
                // Margin 2: the midpoint is near, not always at, the worst point of the
                // Hermite error bump (checked at 7 points per segment on 600 random halves).
                let e0 = abs(guess - sm) * 2
                let slope = poly.dx(sm)
                let curvature = abs(poly.ddx(sm)) / (2 * slope)
                let e1 = curvature * e0 * e0
                let e2 = curvature * e1 * e1
                // The second step is taken in y only (y ≈ Y(s1) − Y'(s1)·δ), which adds
                // |Y''|·δ²/2 with δ ≈ e1.
                let dyds = abs(poly.dy(sm)) + 1
                let linearisation = abs(poly.ddy(sm)) * e1 * e1
                ok = slope > 0 && e0 < 1e-3 && curvature * e0 < 0.25 && e2 * dyds + linearisation < 1e-16
            }
            if !ok {
                // Flag the segment: a NaN coefficient makes the guess, and so the Newton
                // result, NaN, which sends x there to the bracketed solve; the one
                // finiteness test then covers both flags and any other failure.
                c[3] = .nan
            }
        }
        coef[4 * n] = 0
        // The sentinel keeps the increments inside the last segment.
        nodes[n] = .infinity
        // Bucket j covers v in [j/scale, (j+1)/scale); map[j] = the segment holding its left
        // end. Left ends are taken a hair low, so that every v with Int(v·scale) == j is at
        // or above its bucket's left end despite rounding (at worst an extra increment).
        // `steps` is the most segment starts that fall inside one bucket, plus one if a
        // node lies within rounding of a bucket boundary (the evaluation's bucket index
        // may then be one below floor(v·scale); see `bucket(_:_:)`).
        let width = vEnd / Double(m) * (1 - 0x1p-40)
        let invWidth = 1 / width
        var j = 0, steps = 0, run = 0, previousBucket = -1, nearBoundary = false
        var left = 0.0  // j·width, accumulated: its rounding is far inside the fudge above
        for i in 0..<n {
            let end = i + 1 < n ? nodes[i + 1] : .infinity
            while j < m && left < end {
                b[j] = UInt8(i)
                j += 1
                left += width
            }
            if i > 0 {
                let position = min(nodes[i] * invWidth, Double(m))
                let bucket = Int(position)
                let fraction = position - Double(bucket)
                if fraction < 1e-6 || fraction > 1 - 1e-6 { nearBoundary = true }
                run = bucket == previousBucket ? run + 1 : 1
                previousBucket = bucket
                steps = max(steps, run)
            }
        }
        if nearBoundary { steps += 1 }
        return steps
    }

    // MARK: Evaluation

    @inline(__always)
    func value(at x: Double) -> Double {
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

    func slope(at x: Double) -> Double {
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

    init(doubles: UnsafeMutablePointer<Double>, bytes: UnsafeMutablePointer<UInt8>, steps: Int, usesRoot: Bool) {
        self.doubles = UnsafePointer(doubles)
        self.bytes = UnsafePointer(bytes)
        self.steps = steps
        self.usesRoot = usesRoot
    }

    typealias T = BezierTable

    /// The solve for x in [0, 1]: look-up, Hermite guess, two Newton steps, y.
    /// Branch-free on the common path: the half, the interpolation variable and the
    /// mirroring are selected arithmetically, so random x cost no mispredictions.
    @inline(__always)
    func solve<V: InterpolationVariable>(_ x: Double, _ variable: V.Type) -> Double {
        let half = x > 0.5 ? 1 : 0
        let p = doubles + half &* T.halfStride
        let b = bytes + half &* T.byteStride
        let offset = p[T.iOffset], sign = p[T.iSign]
        let xx = offset + sign * x  // x, or 1 − x (exact)
        let v = V.variable(xx, mask: p[T.iRootMask].bitPattern)
        let j = Self.bucket(v, p[T.iScale])
        var i = Int(b[j])
        let nodes = p + T.iNodes
        var k = 0
        while k < steps {
            i &+= nodes[i &+ 1] <= v ? 1 : 0
            k &+= 1
        }
        let dd = v - nodes[i]
        let c = p + (T.iCoef &+ 4 &* i)
        var s = c[0] + dd * (c[1] + dd * (c[2] + dd * c[3]))
        let ax = p[T.iAX], bx = p[T.iBX], cx = p[T.iCX], ax3 = p[T.iAX3], bx2 = p[T.iBX2]
        s -= (((ax * s + bx) * s + cx) * s - xx) / ((ax3 * s + bx2) * s + cx)
        // The second Newton step is folded into y: with δ = (x(s) − xx) / x'(s),
        // y = Y(s) − Y'(s)·δ; x(s), x'(s), Y(s) and Y'(s) are independent, so the chain is
        // one division shorter than a step in s followed by Y.
        let delta = (((ax * s + bx) * s + cx) * s - xx) / ((ax3 * s + bx2) * s + cx)
        let ay = p[T.iAY], by = p[T.iBY], cy = p[T.iCY]
        var y = ((ay * s + by) * s + cy) * s - ((p[T.iAY3] * s + p[T.iBY2]) * s + cy) * delta
        if !y.isFinite {
            // A flagged segment (NaN guess) or a failed step: the bracketed solve.
            let t = solveFlagged(xx, half: half, segment: i)
            y = ((ay * t + by) * t + cy) * t
        }
        return offset + p[T.iYSign] * y
    }

    /// The bucket of v: floor(v·scale), or one less when v·scale is within rounding of an
    /// integer, clamped to [0, bucketCount − 1]. Computed by the 2^52 rounding trick, so it
    /// has no branch and vectorises; `steps` allows for the one-less case.
    @inline(__always)
    static func bucket(_ v: Double, _ scale: Double) -> Int {
        let r = max(v * scale + (0x1p52 - 0.5), 0x1p52)
        return min(Int(truncatingIfNeeded: r.bitPattern & 0x3FF), T.bucketCount - 1)
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
        Double(bitPattern: (xx.squareRoot().bitPattern & mask) | (xx.bitPattern & ~mask))
    }
    @inline(__always) static func variable(_ xx: SIMD2<Double>) -> SIMD2<Double> { kn_simd_sqrt2(xx) }
}
