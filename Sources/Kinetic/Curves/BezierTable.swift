/// The per-curve solver behind ``CubicBezier``: polynomial coefficients and a small table
/// that turns "find t with Bx(t) = x" into a branch-free look-up, one cubic and one
/// Newton step.
///
/// The curve is solved in two mirrored halves split at x = 1/2: for x ≤ 1/2 the original
/// curve is solved for t, for x > 1/2 the curve mirrored through (1/2, 1/2) is solved for
/// u = 1 − t at 1 − x (exact in double). Each half therefore solves near its own end
/// point with relative accuracy, which keeps both ends exact.
///
/// Each half is cut into `segmentCount` segments uniform in the parameter. On each segment
/// the inverse t(x) is approximated by the cubic Hermite interpolant of the node values and
/// their exact derivatives 1/x'(t); that guess is accurate to about 1e-9 or better, and one
/// Newton step brings it to full double precision. A uniform bucket map over x (64
/// buckets per half) gives the segment with a fixed, per-curve number of branch-free
/// increments. Segments where the guess is not good enough (a vanishing x'(t), as at
/// the ends of `easeOut` or near the triple root of (1, 0, 0, 1)) are flagged at
/// construction, after checking the guess against exact points of the curve, and solved
/// by a bracketed Newton/bisection iteration instead.
final class BezierTable: @unchecked Sendable {
    // Immutable after init; the storage is never written again, so sharing across
    // threads is safe.
    static let segmentCount = 16
    static let bucketCount = 64
    // Layout of one half in `doubles`.
    static let iAX = 0, iBX = 1, iCX = 2, iAY = 3, iBY = 4, iCY = 5, iAX3 = 6, iBX2 = 7, iSEnd = 8, iH = 9
    static let iNodes = 10
    static let iCoef = iNodes + segmentCount + 1
    static let halfStride = iCoef + 4 * segmentCount + 1  // 92: even, keeps halves 16-byte aligned
    static let byteStride = bucketCount + segmentCount

    let doubles: UnsafeMutablePointer<Double>
    let bytes: UnsafeMutablePointer<UInt8>
    let isIdentity: Bool
    /// Number of branch-free segment increments after the bucket look-up (per curve).
    let steps: Int
    /// dy/dx used for x < 0 and x > 1.
    let startGradient: Double
    let endGradient: Double
    let x1, y1, x2, y2: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        isIdentity = x1 == y1 && x2 == y2
        (startGradient, endGradient) = BezierTable.endGradients(x1, y1, x2, y2)
        doubles = .allocate(capacity: 2 * Self.halfStride)
        bytes = .allocate(capacity: 2 * Self.byteStride)
        if isIdentity {
            doubles.initialize(repeating: 0, count: 2 * Self.halfStride)
            bytes.initialize(repeating: 0, count: 2 * Self.byteStride)
            steps = 0
            return
        }
        // The parameter where x = 1/2 splits the halves.
        let whole = BezierPolynomial(x1, y1, x2, y2)
        let split = whole.solveBracketed(0.5, lo: 0, hi: 1, guess: 0.5)
        let k0 = Self.buildHalf(doubles, bytes, BezierPolynomial(x1, y1, x2, y2), sEnd: split)
        let k1 = Self.buildHalf(doubles + Self.halfStride, bytes + Self.byteStride,
                                BezierPolynomial(1 - x2, 1 - y2, 1 - x1, 1 - y1), sEnd: 1 - split)
        steps = max(k0, k1)
    }

    deinit {
        doubles.deallocate()
        bytes.deallocate()
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
        return (start, end)
    }

    /// Fills one half's table; returns the number of segment increments it needs.
    private static func buildHalf(_ d: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<UInt8>,
                                  _ poly: BezierPolynomial, sEnd: Double) -> Int {
        let n = segmentCount, m = bucketCount
        d[iAX] = poly.ax; d[iBX] = poly.bx; d[iCX] = poly.cx
        d[iAY] = poly.ay; d[iBY] = poly.by; d[iCY] = poly.cy
        d[iAX3] = 3 * poly.ax; d[iBX2] = 2 * poly.bx
        let h = sEnd / Double(n)
        d[iSEnd] = sEnd; d[iH] = h
        let nodes = d + iNodes
        // Node values and derivatives (dx/ds) at s_i = i·h.
        var slopes = (0..<(n + 1)).map { _ in 0.0 }  // small; construction only
        for i in 0...n {
            let s = Double(i) * h
            nodes[i] = poly.x(s)
            slopes[i] = poly.dx(s)
        }
        nodes[0] = 0
        let flags = b + m
        for i in 0..<n {
            let c = d + iCoef + 4 * i
            let s0 = Double(i) * h
            let w = nodes[i + 1] - nodes[i]
            let g0 = 1 / slopes[i], g1 = 1 / slopes[i + 1]
            let r = h / w
            c[0] = s0
            c[1] = g0
            c[2] = (3 * r - 2 * g0 - g1) / w
            c[3] = (g0 + g1 - 2 * r) / (w * w)
            var ok = w > 0 && slopes[i] > 0 && slopes[i + 1] > 0
                && c[1].isFinite && c[2].isFinite && c[3].isFinite
            if ok {
                // Check the guess against an exact point of the curve (the segment's
                // parameter midpoint), and bound the error one Newton step leaves.
                let sm = s0 + 0.5 * h
                let xm = poly.x(sm)
                let dd = xm - nodes[i]
                let guess = c[0] + dd * (c[1] + dd * (c[2] + dd * c[3]))
                let e = abs(guess - sm) * 4  // margin: the midpoint is not always the worst point
                let curvature = abs(poly.ddx(sm)) / (2 * poly.dx(sm))
                let leftover = curvature * e * e  // error in s after one Newton step
                let dyds = abs(poly.dy(sm)) + 1
                ok = e < 1e-7 && leftover * dyds < 1e-16
            }
            if !ok {
                // Keep a harmless linear guess; the segment is solved by the bracketed path.
                c[1] = w > 0 ? h / w : 0
                c[2] = 0
                c[3] = 0
            }
            flags[i] = ok ? 0 : 1
        }
        // The sentinel keeps the increments inside the last segment.
        nodes[n] = .infinity
        // Bucket j covers x in [j/(2m), (j+1)/(2m)); map[j] = the segment holding its left end.
        var i = 0, steps = 0, previous = 0
        for j in 0..<m {
            let left = Double(j) / Double(2 * m)
            while i + 1 < n && nodes[i + 1] <= left { i += 1 }
            b[j] = UInt8(i)
            if j > 0 { steps = max(steps, i - previous) }
            previous = i
        }
        steps = max(steps, (n - 1) - previous)
        return steps
    }

    // MARK: Evaluation

    @inline(__always)
    func value(at x: Double) -> Double {
        if x >= 0 && x <= 1 {
            return isIdentity ? x : solve(x)
        }
        return extrapolate(x)
    }

    @inline(never)
    func extrapolate(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x < 0 { return startGradient == 0 ? 0 : startGradient * x }
        return endGradient == 0 ? 1 : 1 + endGradient * (x - 1)
    }

    /// The solve for x in [0, 1]: look-up, Hermite guess, one Newton step.
    @inline(__always)
    func solve(_ x: Double) -> Double {
        let upper = x > 0.5
        let xx = upper ? 1 - x : x
        let half = upper ? 1 : 0
        let p = doubles + half &* Self.halfStride
        let b = bytes + half &* Self.byteStride
        let j = min(Int(xx * Double(2 * Self.bucketCount)), Self.bucketCount - 1)
        var i = Int(b[j])
        let nodes = p + Self.iNodes
        var k = 0
        while k < steps {
            i &+= nodes[i &+ 1] <= xx ? 1 : 0
            k &+= 1
        }
        let dd = xx - nodes[i]
        let c = p + (Self.iCoef &+ 4 &* i)
        var s = c[0] + dd * (c[1] + dd * (c[2] + dd * c[3]))
        let cx = p[Self.iCX]
        let f = ((p[Self.iAX] * s + p[Self.iBX]) * s + cx) * s - xx
        let df = (p[Self.iAX3] * s + p[Self.iBX2]) * s + cx
        s -= f / df
        if b[Self.bucketCount &+ i] != 0 || !s.isFinite {
            s = solveFlagged(xx, half: half, segment: i)
        }
        let y = ((p[Self.iAY] * s + p[Self.iBY]) * s + p[Self.iCY]) * s
        return upper ? 1 - y : y
    }

    @inline(never)
    func solveFlagged(_ xx: Double, half: Int, segment i: Int) -> Double {
        let p = doubles + half * Self.halfStride
        let poly = BezierPolynomial(coefficientsAt: p)
        let h = p[Self.iH]
        let lo = Double(i) * h
        let hi = i == Self.segmentCount - 1 ? 1 : Double(i + 1) * h
        return poly.solveBracketed(xx, lo: lo, hi: hi, guess: lo)
    }

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
        for k in 0..<n {
            let x = src[k]
            dst[k] = (x >= 0 && x <= 1) ? solve(x) : extrapolate(x)
        }
    }

    // MARK: Slope

    func slope(at x: Double) -> Double {
        if x.isNaN { return x }
        if x < 0 { return startGradient }
        if x > 1 { return endGradient }
        if isIdentity { return 1 }
        // Parameter of x on the full curve, through the same solve as value(at:).
        let upper = x > 0.5
        let xx = upper ? 1 - x : x
        let poly = BezierPolynomial(coefficientsAt: doubles + (upper ? Self.halfStride : 0))
        let s = parameter(xx, upper: upper)
        // The mirrored curve has the same slope at the mirrored point.
        let dx = poly.dx(s), dy = poly.dy(s)
        if dx != 0 { return dy / dx }
        if dy != 0 { return dy > 0 ? .infinity : -.infinity }
        // 0/0: the ratio of the second derivatives, then of the third.
        let ddx = poly.ddx(s), ddy = poly.ddy(s)
        if ddx != 0 { return ddy / ddx }
        return poly.ay / poly.ax
    }

    /// The curve parameter (of the selected half) for xx in [0, 1/2].
    private func parameter(_ xx: Double, upper: Bool) -> Double {
        let poly = BezierPolynomial(coefficientsAt: doubles + (upper ? Self.halfStride : 0))
        let sEnd = doubles[(upper ? Self.halfStride : 0) + Self.iSEnd]
        return poly.solveBracketed(xx, lo: 0, hi: min(1, sEnd * 2), guess: xx)
    }
}
