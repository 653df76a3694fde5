import KineticSIMD

// One half of a curve's solver (see `BezierTable`): its nodes and certified segments, computed
// by the same functions whether the solve table is being built or one segment is needed on
// the fly, so that both give the same bits.

/// One half of a curve: the polynomial (the curve, or the curve mirrored through
/// (1/2, 1/2)), its parameter range [0, sEnd] (reaching the parameter where x = 1/2, see
/// `BezierHalf.ends`) cut into `segmentCount` segments of width h,
/// its interpolation variable (x, or √x when `root`) and its output mapping
/// y = offset + sign·(polynomial's y).
struct BezierHalf {
    typealias T = BezierTable
    let poly: BezierPolynomial
    let root: Bool
    let sEnd, h: Double
    let offset, sign: Double

    init(_ poly: BezierPolynomial, root: Bool, sEnd: Double, offset: Double, sign: Double) {
        self.poly = poly
        self.root = root
        self.sEnd = sEnd
        h = sEnd / Double(T.segmentCount)
        self.offset = offset
        self.sign = sign
    }

    /// The largest bucket variable of the half (`estimate`), at x = 1/2.
    var bucketEnd: Double { estimate(0.5) }

    @inline(__always)
    func variable(_ x: Double) -> Double { root ? x.squareRoot() : x }

    /// The look-up's bucket variable of x: x, or in a √x half the estimate of √x that the
    /// kernel takes (`kinetic_simd_root_estimate`), so that the map built from it is exact.
    @inline(__always)
    func estimate(_ x: Double) -> Double {
        kinetic_simd_root_estimate(x, rootMask)
    }

    /// All bits set in a √x half, none in an x half (the header's `iRootMask`), held in a
    /// double as the kernels read it.
    var rootMask: Double { Double(bitPattern: root ? ~0 : 0) }

    /// Node i's progress x(i·h) within the half (exactly 0 at node 0). The search of the
    /// table-free path and the table's nodes both come from here, so they agree bit for bit.
    @inline(__always)
    func nodeProgress(_ i: Int) -> Double {
        i == 0 ? 0 : poly.x(Double(i) * h)
    }

    /// Node i: v_i and the derivatives ds/dv (g) and d²s/dv² (gp) there.
    @inline(__always)
    func node(_ i: Int) -> (v: Double, g: Double, gp: Double) {
        let ax = poly.ax, bx = poly.bx, cx = poly.cx
        let s = Double(i) * h
        let x = nodeProgress(i)
        let r = 1 / ((3 * ax * s + 2 * bx) * s + cx), ddx = 6 * ax * s + 2 * bx
        let v = variable(x)
        // In x: ds/dx = 1/x′, d²s/dx² = −x″/x′³. In v = √x: ds/dv = 2v/x′ and
        // d²s/dv² = (2/x′)(1 − 2x·x″/x′²).
        if !root { return (v, r, -ddx * r * r * r) }
        if i > 0 { return (v, 2 * v * r, 2 * r * (1 - 2 * x * ddx * r * r)) }
        // At v = 0 in √x: s ≈ v²/cx when cx > 0, else s ≈ v/√bx − (ax/2bx²)·v².
        if cx > 0 { return (v, 0, 2 / cx) }
        if bx > 0 { return (v, 1 / bx.squareRoot(), -ax / (bx * bx)) }
        return (v, .infinity, .infinity)
    }

    /// Segment i's record from its end nodes `a` (node i) and `b` (node i + 1), certified: the
    /// quintic of `record`, where a segment that fails `certify` gets c5 = NaN (the guess,
    /// and so the result, is NaN, which sends x there to the bracketed solve). Returns whether
    /// the segment needs the second-order term (its bit in the half's `iSecondOrder` word).
    func segment(_ i: Int, _ a: (v: Double, g: Double, gp: Double), _ b: (v: Double, g: Double, gp: Double),
                 _ singular: InverseSingularities, into c: UnsafeMutablePointer<Double>) -> Bool {
        record(i, a, b, into: c)
        let (usable, second) = certify(i, a, b, singular, record: c)
        if !usable { c[5] = .nan }
        return second
    }

    /// Segment i's quintic s0 + g0·δ + gp0/2·δ² + c3·δ³ + c4·δ⁴ + c5·δ⁵ in δ = v − v_i, which
    /// matches the value, slope and curvature at both end nodes, into `c[0...5]`.
    @inline(__always)
    func record(_ i: Int, _ a: (v: Double, g: Double, gp: Double), _ b: (v: Double, g: Double, gp: Double),
                into c: UnsafeMutablePointer<Double>) {
        let s0 = Double(i) * h
        let w = b.v - a.v
        let invW = 1 / w, invW2 = invW * invW, invW3 = invW2 * invW
        let aa = (h - w * (a.g + 0.5 * a.gp * w)) * invW3
        let bb = (b.g - a.g - a.gp * w) * invW2
        let cc = (b.gp - a.gp) * invW
        c[0] = s0; c[1] = a.g; c[2] = 0.5 * a.gp; c[3] = (20 * aa - 8 * bb + cc) * 0.5
        c[4] = -(15 * aa - 7 * bb + cc) * invW; c[5] = (12 * aa - 6 * bb + cc) * 0.5 * invW2
    }

    /// Whether segment i's record `c` (from `record`) is good enough for the folded step
    /// (`usable`; if not, x there takes the bracketed solve), and whether it needs the step's
    /// second-order term. It reads the record but does not change it, so the table-free
    /// evaluation takes the step while this runs.
    @inline(__always)
    func certify(_ i: Int, _ a: (v: Double, g: Double, gp: Double), _ b: (v: Double, g: Double, gp: Double),
                 _ singular: InverseSingularities, record c: UnsafePointer<Double>) -> (usable: Bool, second: Bool) {
        let ax = poly.ax, ay = poly.ay
        let s0 = Double(i) * h
        let w = b.v - a.v
        // The check: the guess at the segment's parameter midpoint (near the peak of the
        // quintic Hermite error ∝ δ³(w − δ)³; margin 2 below) against the exact point.
        // With e the guess error in s and C = |x″|/2x′, the first-order folded step (Newton
        // in y, see `BezierKernel.finish`) leaves about K₁·e², K₁ = |y′|·C + |y″|/2 (tested
        // multiplied through by x′), the second-order one about K₂·e³,
        // K₂ = |y′|·(2C² + |x‴|/6x′) + |y″|·C + |y‴|/6 (x‴ = 6ax, y‴ = 6ay).
        let sm = s0 + 0.5 * h
        let guess = BezierKernel.guess(c, variable(poly.x(sm)) - a.v)
        let e0 = abs(guess - sm) * 2  // margin 2: the midpoint is near the worst point
        let slope = poly.dx(sm)
        let bend = abs(poly.ddx(sm))
        let dy = abs(poly.dy(sm)), ddy = abs(poly.ddy(sm))
        let sum = c[0] + c[1] + c[2] + c[3] + c[4] + c[5]  // finite only if each one is
        let usable = w > 0 && slope > 0 && e0 < 1e-4 && bend * e0 < 0.02 * slope && sum - sum == 0
            // A branch point of the inverse closer than one width makes the guess's error
            // peak away from the midpoint, where the check would not see it.
            && singular.isFar(from: a.v, to: b.v, by: w)
        let first = (dy * bend + ddy * slope) * e0 * e0 < 2 * T.tolerance * slope
        let curvature = bend / (2 * slope)
        let k2 = dy * (2 * curvature * curvature + abs(ax) / slope) + ddy * curvature + abs(ay)
        let second = usable && !first && k2 * e0 * e0 * e0 < T.tolerance
        return (usable && (first || second), second)
    }

    /// The half's scalar fields: the polynomial and its multiples, the half's end, the bucket scale,
    /// the variable, and the output mapping y = offset + sign·yScale·(scaled polynomial), whose
    /// sign (exact) the kernel's y coefficients carry.
    func writeHeader(_ d: UnsafeMutablePointer<Double>) {
        writeStepHeader(d)
        d[T.iScale] = Double(T.bucketCount) / bucketEnd
        d[T.iRootMask] = rootMask
    }

    /// The header's fields that the step and the exact solves read (all but the look-up's and
    /// the second-order word, which the caller writes): what the evaluation without the table
    /// needs.
    @inline(__always)
    func writeStepHeader(_ d: UnsafeMutablePointer<Double>) {
        d[T.iAX] = poly.ax; d[T.iBX] = poly.bx; d[T.iCX] = poly.cx
        d[T.iAY] = poly.ay; d[T.iBY] = poly.by; d[T.iCY] = poly.cy
        d[T.iAX3] = 3 * poly.ax; d[T.iBX2] = 2 * poly.bx; d[T.iAX6] = 6 * poly.ax
        d[T.iX1Hi] = poly.exactX1.hi; d[T.iX1Lo] = poly.exactX1.lo
        d[T.iX2Hi] = poly.exactX2.hi; d[T.iX2Lo] = poly.exactX2.lo
        d[T.iSEnd] = sEnd; d[T.iH] = h
        d[T.iOffset] = offset; d[T.iYSign] = sign * poly.yScale
        d[T.iKAY] = sign * poly.ay; d[T.iKBY] = sign * poly.by; d[T.iKCY] = sign * poly.cy
        d[T.iAY3] = 3 * d[T.iKAY]; d[T.iBY2] = 2 * d[T.iKBY]; d[T.iAY6] = 6 * d[T.iKAY]
    }
}

extension BezierTable {
    /// x in [0, 1] without the solve table: the half's header and the one segment that x
    /// falls in, computed here by the functions that build the table, then the kernel's own
    /// arithmetic (`BezierKernel.finish`), so the value is the table's bit for bit. The
    /// segment is the one whose first node is the last at or below xx (nodes increase
    /// strictly on every curve: x′ vanishes at most at one point, where x still increases
    /// by far more than its rounding from node to node), found in two rounds of comparisons.
    @inline(never)
    func valueWithoutTable(_ x: Double) -> Double {
        let (index, xx) = BezierKernel.half(of: x)
        let half = index == 0 ? constants.lower : constants.upper
        // The header and one record (on the stack: well under withUnsafeTemporaryAllocation's
        // 1 KB limit for the stack).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.iNodes + Self.coefficientStride) {
            let p = $0.baseAddress!
            half.writeStepHeader(p)
            // The per-curve scaling test of the table's kernel; multiplying by a scale of 1
            // changes nothing, so the half's own test gives the same value.
            let scaledY = half.poly.yScale != 1
            if xx < Self.endThreshold { return BezierKernel.solveNearEnd(p, xx, scaledY: scaledY) }
            let v = half.variable(xx)
            // Which quarter of the segments (three nodes compared at once), then which segment
            // of it (three more), by the nodes' progress, as the table's look-up compares.
            // (Counted, not branched on: random x would mispredict the branches.)
            let quarter = Self.segmentCount / 4
            var above = 0
            for k in 1...3 { above &+= half.nodeProgress(k * quarter) <= xx ? 1 : 0 }
            var i = above * quarter
            var within = 0
            for k in 1..<quarter { within &+= half.nodeProgress(i + k) <= xx ? 1 : 0 }
            i += within
            let c = p + Self.iNodes
            let a = half.node(i), b = half.node(i + 1)
            half.record(i, a, b, into: c)
            // The step from the record as it stands, and the certification beside it (they do
            // not depend on each other). A segment that fails it would hold c5 = NaN in the
            // table, whose step then falls to the bracketed solve: that solve is taken here.
            let (usable, second) = half.certify(i, a, b, InverseSingularities(half.poly, root: half.root),
                                                record: c)
            p[Self.iSecondOrder] = Double(bitPattern: second ? 1 << UInt64(i) : 0)
            let value = BezierKernel.finish(p, c, node: a.v, v: v, xx: xx, segment: i, secondOrder: true,
                                            scaledY: scaledY)
            if usable { return value }
            return BezierKernel.flaggedValue(p, xx, segment: i, record: c, at: v - a.v, scaledY: scaledY)
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

    /// Whether every point is at least `distance` from the real segment [lo, hi].
    func isFar(from lo: Double, to hi: Double, by distance: Double) -> Bool {
        @inline(__always) func far(_ re: Double, _ im: Double) -> Bool {
            if re.isInfinite { return true }
            let dx = max(lo - re, 0, re - hi)
            return dx * dx + im * im >= distance * distance
        }
        return far(re0, im0) && far(re1, im1)
    }
}
