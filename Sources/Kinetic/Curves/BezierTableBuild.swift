// Construction of the per-curve solver table (see `BezierTable`): the split at x = 1/2, each
// half's nodes, quintic segments and their certification, and the bucket map.

extension BezierTable {
    /// The parameter where x = 1/2. A few plain Newton steps from t = 1/2 settle it on
    /// ordinary curves; the bracketed solve takes over when they do not (x′ tiny there). The
    /// halves only need it to about 1e-12: each half's last segment reaches the split, and a
    /// guess a hair beyond it is still corrected by the Newton step.
    static func split(_ poly: BezierPolynomial) -> Double {
        var t = 0.5
        for _ in 0..<4 { t -= (poly.x(t) - 0.5) / poly.dx(t) }
        if t > 0 && t < 1 && abs(poly.x(t) - 0.5) <= 0x1p-45 { return t }
        return poly.solveBracketed(0.5, lo: 0, hi: 1, guess: 0.5)
    }

    /// The kernel's y coefficients of one half: the scaled polynomial's, times the half's
    /// output sign (exact), and the derivative multiples.
    static func setKernelY(_ p: UnsafeMutablePointer<Double>, sign: Double) {
        p[iKAY] = sign * p[iAY]; p[iKBY] = sign * p[iBY]; p[iKCY] = sign * p[iCY]
        p[iAY3] = 3 * p[iKAY]; p[iBY2] = 2 * p[iKBY]; p[iAY6] = 6 * p[iKAY]
    }

    /// Fills one half's table; returns the number of segment increments it needs and whether
    /// any segment needs the folded step's second-order term.
    static func buildHalf(_ d: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<UInt8>,
                                  _ poly: BezierPolynomial, x1: Double,
                                  sEnd: Double) -> (steps: Int, secondOrder: Bool) {
        let n = segmentCount
        d[iAX] = poly.ax; d[iBX] = poly.bx; d[iCX] = poly.cx
        d[iAY] = poly.ay; d[iBY] = poly.by; d[iCY] = poly.cy
        d[iAX3] = 3 * poly.ax; d[iBX2] = 2 * poly.bx; d[iAX6] = 6 * poly.ax
        d[iX1Hi] = poly.exactX1.hi; d[iX1Lo] = poly.exactX1.lo
        d[iX2Hi] = poly.exactX2.hi; d[iX2Lo] = poly.exactX2.lo
        let root = x1 <= rootThreshold
        let h = sEnd / Double(n)
        let vEnd = root ? (0.5).squareRoot() : 0.5
        d[iSEnd] = sEnd; d[iH] = h; d[iScale] = Double(bucketCount) / vEnd
        d[iRootMask] = Double(bitPattern: root ? ~0 : 0)
        let nodes = d + iNodes
        var secondOrder = false
        let singular = InverseSingularities(poly, root: root)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * (n + 1)) { scratch in
            // Node values v_i and the derivatives ds/dv (g) and d²s/dv² (gp) there.
            let g = scratch.baseAddress!, gp = g + (n + 1)
            for i in 0...n {
                let s = Double(i) * h
                let x = i == 0 ? 0 : poly.x(s)
                let r = 1 / poly.dx(s), ddx = poly.ddx(s)
                if !root {
                    nodes[i] = x
                    g[i] = r
                    gp[i] = -ddx * r * r * r
                } else if i > 0 {
                    // s as a function of v = √x: ds/dv = 2v/x', d²s/dv² = (2/x')(1 − 2x·x''/x'²).
                    let v = x.squareRoot()
                    nodes[i] = v
                    g[i] = 2 * v * r
                    gp[i] = 2 * r * (1 - 2 * x * ddx * r * r)
                } else {
                    // At v = 0: s ≈ v²/cx when cx > 0, else s ≈ v/√bx − (ax/2bx²)·v².
                    nodes[0] = 0
                    if poly.cx > 0 {
                        g[0] = 0; gp[0] = 2 / poly.cx
                    } else if poly.bx > 0 {
                        g[0] = 1 / poly.bx.squareRoot(); gp[0] = -poly.ax / (poly.bx * poly.bx)
                    } else {
                        g[0] = .infinity; gp[0] = .infinity
                    }
                }
            }
            for i in 0..<n {
                let c = d + (iCoef + coefficientStride * i)
                let s0 = Double(i) * h
                let w = nodes[i + 1] - nodes[i]
                let invW = 1 / w, invW2 = invW * invW, invW3 = invW2 * invW
                // The quintic s0 + g0·δ + gp0/2·δ² + c3·δ³ + c4·δ⁴ + c5·δ⁵ that also matches
                // the value, slope and curvature at the segment's far end.
                let a = (h - w * (g[i] + 0.5 * gp[i] * w)) * invW3
                let bb = (g[i + 1] - g[i] - gp[i] * w) * invW2
                let cc = (gp[i + 1] - gp[i]) * invW
                c[0] = s0; c[1] = g[i]; c[2] = 0.5 * gp[i]
                c[3] = (20 * a - 8 * bb + cc) * 0.5
                c[4] = -(15 * a - 7 * bb + cc) * invW
                c[5] = (12 * a - 6 * bb + cc) * 0.5 * invW2
                // A branch point of the inverse closer than one width makes the guess's error
                // peak away from the midpoint, where the check below would not see it.
                var order = w > 0 && (singular.distance(from: nodes[i], to: nodes[i + 1]) >= w) ? 1 : 0
                for k in 0..<coefficientStride where !c[k].isFinite { order = 0 }
                if order > 0 { order = certifiedOrder(poly, c, root: root, node: nodes[i], s0: s0, h: h) }
                if order == 2 { secondOrder = true }
                // A flagged segment gets a NaN coefficient: the guess, and so the result, is
                // NaN, which sends x there to the bracketed solve; the one finiteness test then
                // covers both flags and any other failure.
                if order == 0 { c[5] = .nan }
            }
        }
        // The sentinel keeps the increments inside the last segment.
        nodes[n] = .infinity
        return (fillBucketMap(b, nodes: nodes, vEnd: vEnd), secondOrder)
    }

    /// Checks a segment's guess against an exact point of the curve (the segment's parameter
    /// midpoint, near the peak of the quintic Hermite error ∝ δ³(w − δ)³) and bounds the
    /// error that the folded step leaves there: returns 1 when the first-order step is
    /// enough, 2 when the second-order one is, 0 when neither is (the segment is flagged).
    ///
    /// With e the guess error in s and C = |x″|/2x′, the first-order step (Newton in y,
    /// see `BezierKernel.solve`) leaves about K₁·e², K₁ = |y′|·C + |y″|/2, and the
    /// second-order one about K₂·e³, K₂ = |y′|·(2C² + |x‴|/6x′) + |y″|·C + |y‴|/6
    /// (x‴ = 6ax, y‴ = 6ay).
    private static func certifiedOrder(_ poly: BezierPolynomial, _ c: UnsafeMutablePointer<Double>,
                                       root: Bool, node: Double, s0: Double, h: Double) -> Int {
        let sm = s0 + 0.5 * h
        let xm = poly.x(sm)
        let dd = (root ? xm.squareRoot() : xm) - node
        // Margin 2: the midpoint in s is near, not always at, the worst point in v.
        let e0 = abs(BezierKernel.guess(UnsafePointer(c), dd) - sm) * 2
        let slope = poly.dx(sm)
        guard slope > 0 else { return 0 }
        // The tests below are multiplied through by x′ > 0 (no division on the common path).
        let bend = abs(poly.ddx(sm))
        guard e0 < 1e-4 && bend * e0 < 0.02 * slope else { return 0 }
        let dy = abs(poly.dy(sm)), ddy = abs(poly.ddy(sm))
        if (dy * bend + ddy * slope) * e0 * e0 < 2 * tolerance * slope { return 1 }
        let curvature = bend / (2 * slope)
        let k = dy * (2 * curvature * curvature + abs(poly.ax) / slope) + ddy * curvature + abs(poly.ay)
        return k * e0 * e0 * e0 < tolerance ? 2 : 0
    }

    /// Fills a half's bucket map and returns the number of segment increments it needs.
    ///
    /// Bucket j covers v in [j·width, (j+1)·width); map[j] = the segment holding its left end,
    /// that is the number of inner nodes at or below it. The width is taken a hair narrow (left
    /// ends a hair low), so that every v with Int(v·scale) == j is at or above its bucket's left end despite
    /// rounding (at worst an extra increment). The count is the most inner nodes inside one
    /// bucket, plus one if a node lies within rounding of a bucket boundary (the evaluation's
    /// bucket index may then be one below floor(v·scale); see `bucket(_:_:)`). Built by
    /// counting nodes per bucket and a running sum: no data-dependent branch.
    private static func fillBucketMap(_ b: UnsafeMutablePointer<UInt8>, nodes: UnsafeMutablePointer<Double>,
                                      vEnd: Double) -> Int {
        let n = segmentCount, m = bucketCount
        let invWidth = Double(m) / vEnd * (1 + 0x1p-40)
        var nearBoundary = false
        // counts[j] = the inner nodes whose first bucket at or above them is j (j ≤ m).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: m + 1) { counts in
            counts.initialize(repeating: 0)
            for k in 1..<n {
                let position = min(max(nodes[k] * invWidth, 0), Double(m))
                let below = Int(position)  // floor: position ≥ 0
                let fraction = position - Double(below)
                nearBoundary = nearBoundary || fraction < 1e-6 || fraction > 1 - 1e-6
                counts[below &+ (fraction > 0 ? 1 : 0)] &+= 1
            }
            var segment: UInt8 = 0, steps: UInt8 = 0
            for j in 0..<m {
                segment &+= counts[j]
                b[j] = segment
                steps = max(steps, counts[j + 1])
            }
            return Int(steps) + (nearBoundary ? 1 : 0)
        }
    }
}

/// Where the inverse t(v) of one half stops being analytic: the images v* = x(t*) (or √x(t*))
/// of the critical points x′(t*) = 0, real or complex. A polynomial guess on a segment is only
/// as good as the segment is short against its distance to the nearest of them; for a half
/// in √x with cx > 0 tiny (x1 small, not 0) one sits at about i·cx/(2√bx), next to v = 0.
struct InverseSingularities {
    /// Up to two points (re, im) of the v plane; unused ones are at infinity.
    private var re0 = Double.infinity, im0 = 0.0, re1 = Double.infinity, im1 = 0.0

    init(_ poly: BezierPolynomial, root: Bool) {
        let a = 3 * poly.ax, b = 2 * poly.bx, c = poly.cx  // x′(t) = a·t² + b·t + c
        if a == 0 {
            if b != 0 { add(poly, root: root, -c / b, 0) }
        } else {
            let disc = b * b - 4 * a * c
            if disc < 0 {
                let re = -b / (2 * a), im = (-disc).squareRoot() / (2 * abs(a))
                add(poly, root: root, re, im)
                add(poly, root: root, re, -im)
            } else {
                // The larger root by the stable formula, the other by Vieta (t₁·t₂ = c/a).
                let q = -0.5 * (b + (b < 0 ? -disc.squareRoot() : disc.squareRoot()))
                if q != 0 {
                    add(poly, root: root, q / a, 0)
                    add(poly, root: root, c / q, 0)
                } else {
                    add(poly, root: root, 0, 0)
                }
            }
        }
    }

    private mutating func add(_ poly: BezierPolynomial, root: Bool, _ tr: Double, _ ti: Double) {
        // In √x, t* = 0 with cx = 0 is the very point the variable makes regular.
        if root && tr == 0 && ti == 0 && poly.cx == 0 { return }
        // x(t*) in complex arithmetic: ((ax·t + bx)·t + cx)·t.
        var (xr, xi) = (poly.ax * tr + poly.bx, poly.ax * ti)
        (xr, xi) = (xr * tr - xi * ti + poly.cx, xr * ti + xi * tr)
        (xr, xi) = (xr * tr - xi * ti, xr * ti + xi * tr)
        if root {
            // The principal square root (Re ≥ 0, the side the half's v lies on).
            let m = (xr * xr + xi * xi).squareRoot()
            let sr = (0.5 * (m + xr)).squareRoot(), si = (0.5 * (m - xr)).squareRoot()
            (xr, xi) = (sr, xi < 0 ? -si : si)
        }
        if re0.isInfinite { (re0, im0) = (xr, xi) } else { (re1, im1) = (xr, xi) }
    }

    /// The distance from the real segment [lo, hi] to the nearest point.
    func distance(from lo: Double, to hi: Double) -> Double {
        func d(_ re: Double, _ im: Double) -> Double {
            if re.isInfinite { return .infinity }
            let dx = max(lo - re, 0, re - hi)
            return (dx * dx + im * im).squareRoot()
        }
        return min(d(re0, im0), d(re1, im1))
    }
}
