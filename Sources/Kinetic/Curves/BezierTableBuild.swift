import KineticSIMD

// Construction of the per-curve solver table (see `BezierTable`): the split at x = 1/2, each
// half's nodes, quintic segments and their certification, and the bucket map.

extension BezierTable {
    /// The parameter where x = 1/2. Four Halley steps from t = 1/2 settle it on ordinary
    /// curves (on 99.9 % of random ones; four Newton steps settle only half of them); the
    /// bracketed solve takes over when they do not (x′ tiny there). The halves only need it
    /// to about 1e-12: each half's last segment reaches the split, and a guess a hair beyond
    /// it is still corrected by the Newton step.
    static func split(_ poly: BezierPolynomial) -> Double {
        var t = 0.5
        for _ in 0..<4 {
            let f = poly.x(t) - 0.5, d = poly.dx(t)
            t -= 2 * f * d / (2 * d * d - f * poly.ddx(t))
        }
        if t > 0 && t < 1 && abs(poly.x(t) - 0.5) <= 0x1p-45 { return t }
        return poly.solveBracketed(0.5, lo: 0, hi: 1, guess: 0.5)
    }

    /// Fills both halves' tables, the lower half (the curve, `whole`) in lane 0 and the upper
    /// (`mirror`) in lane 1 of `SIMD2` arithmetic, since their construction is the same
    /// straight-line code on different numbers; `root` says which halves interpolate in √x.
    /// Returns the number of segment increments the look-up needs and whether any segment
    /// needs the folded step's second-order term.
    static func buildHalves(_ d: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<UInt8>,
                            whole: BezierPolynomial, mirror: BezierPolynomial, split: Double,
                            root: SIMDMask<SIMD2<Int64>>) -> (steps: Int, secondOrder: Bool) {
        typealias V = SIMD2<Double>
        let n = segmentCount
        let halves = (d, d + halfStride)
        let sEnd = V(split, 1 - split)
        let h = sEnd / Double(n)
        let vEnd = V(repeating: 0.5).replacing(with: (0.5).squareRoot(), where: root)
        writeHeader(halves.0, whole, root: root[0], sEnd: sEnd[0], h: h[0], vEnd: vEnd[0], offset: 0, sign: 1)
        writeHeader(halves.1, mirror, root: root[1], sEnd: sEnd[1], h: h[1], vEnd: vEnd[1], offset: 1, sign: -1)
        let ax = V(whole.ax, mirror.ax), bx = V(whole.bx, mirror.bx), cx = V(whole.cx, mirror.cx)
        let ay = V(whole.ay, mirror.ay), by = V(whole.by, mirror.by), cy = V(whole.cy, mirror.cy)
        @inline(__always) func magnitude(_ v: V) -> V { V(abs(v[0]), abs(v[1])) }
        @inline(__always) func finite(_ v: V) -> SIMDMask<SIMD2<Int64>> { v - v .== 0 }
        @inline(__always) func variable(_ x: V) -> V { x.replacing(with: kinetic_simd_sqrt2(x), where: root) }
        let singular = (InverseSingularities(whole, root: root[0]), InverseSingularities(mirror, root: root[1]))
        var needsSecondOrder = SIMDMask<SIMD2<Int64>>(repeating: false)
        withUnsafeTemporaryAllocation(of: V.self, capacity: 3 * (n + 1)) { scratch in
            // Node values v_i and the derivatives ds/dv (g) and d²s/dv² (gp) there.
            let nodes = scratch.baseAddress!, g = nodes + (n + 1), gp = g + (n + 1)
            for i in 0...n {
                let s = Double(i) * h
                let x = i == 0 ? V() : ((ax * s + bx) * s + cx) * s
                let r = 1 / ((3 * ax * s + 2 * bx) * s + cx), ddx = 6 * ax * s + 2 * bx
                // In x: ds/dx = 1/x′, d²s/dx² = −x″/x′³. In v = √x: ds/dv = 2v/x′ and
                // d²s/dv² = (2/x′)(1 − 2x·x″/x′²).
                let v = variable(x)
                nodes[i] = v
                g[i] = r.replacing(with: 2 * v * r, where: root)
                gp[i] = (-ddx * r * r * r).replacing(with: 2 * r * (1 - 2 * x * ddx * r * r), where: root)
            }
            // At v = 0 in √x: s ≈ v²/cx when cx > 0, else s ≈ v/√bx − (ax/2bx²)·v².
            for k in 0..<2 where root[k] {
                if cx[k] > 0 { g[0][k] = 0; gp[0][k] = 2 / cx[k] }
                else if bx[k] > 0 { g[0][k] = 1 / bx[k].squareRoot(); gp[0][k] = -ax[k] / (bx[k] * bx[k]) }
                else { g[0][k] = .infinity; gp[0][k] = .infinity }
            }
            // Only a branch point nearer to the half than its widest segment can be nearer to a
            // segment than that segment's width: most curves need no per-segment test.
            var widest = V()
            for i in 0..<n { widest = pointwiseMax(widest, nodes[i + 1] - nodes[i]) }
            let near = (!singular.0.isFar(from: 0, to: nodes[n][0], by: widest[0]),
                        !singular.1.isFar(from: 0, to: nodes[n][1], by: widest[1]))
            for i in 0..<n {
                let s0 = Double(i) * h
                let w = nodes[i + 1] - nodes[i]
                let invW = 1 / w, invW2 = invW * invW, invW3 = invW2 * invW
                // The quintic s0 + g0·δ + gp0/2·δ² + c3·δ³ + c4·δ⁴ + c5·δ⁵ that also matches
                // the value, slope and curvature at the segment's far end.
                let a = (h - w * (g[i] + 0.5 * gp[i] * w)) * invW3
                let bb = (g[i + 1] - g[i] - gp[i] * w) * invW2
                let cc = (gp[i + 1] - gp[i]) * invW
                let c: (V, V, V, V, V, V) = (s0, g[i], 0.5 * gp[i], (20 * a - 8 * bb + cc) * 0.5,
                                             -(15 * a - 7 * bb + cc) * invW, (12 * a - 6 * bb + cc) * 0.5 * invW2)
                // The check: the guess at the segment's parameter midpoint (near the peak of the
                // quintic Hermite error ∝ δ³(w − δ)³; margin 2 below) against the exact point,
                // both halves at once. With e the guess error in s and C = |x″|/2x′, the
                // first-order folded step (Newton in y, see `BezierKernel.solve`) leaves about
                // K₁·e², K₁ = |y′|·C + |y″|/2 (tested multiplied through by x′), the
                // second-order one about K₂·e³, K₂ = |y′|·(2C² + |x‴|/6x′) + |y″|·C + |y‴|/6
                // (x‴ = 6ax, y‴ = 6ay).
                let sm = s0 + 0.5 * h
                let dd = variable(((ax * sm + bx) * sm + cx) * sm) - nodes[i]
                let d2 = dd * dd
                // (Estrin's scheme, as `BezierKernel.guess` evaluates it.)
                let guess = ((c.0 + c.1 * dd) + d2 * (c.2 + c.3 * dd)) + (d2 * d2) * (c.4 + c.5 * dd)
                let e0 = magnitude(guess - sm) * 2  // margin 2: the midpoint is near the worst point
                let slope = (3 * ax * sm + 2 * bx) * sm + cx
                let bend = magnitude(6 * ax * sm + 2 * bx)
                let dy = magnitude((3 * ay * sm + 2 * by) * sm + cy), ddy = magnitude(6 * ay * sm + 2 * by)
                // The bounds above, as masks: no branch on the outcome.
                let usable = (w .> 0) .& (slope .> 0) .& (e0 .< 1e-4) .& (bend * e0 .< 0.02 * slope)
                    .& finite(c.0 + c.1 + c.2 + c.3 + c.4 + c.5)  // finite only if each one is
                let first = (dy * bend + ddy * slope) * e0 * e0 .< 2 * tolerance * slope
                let curvature = bend / (2 * slope)
                let k2 = dy * (2 * curvature * curvature + magnitude(ax) / slope) + ddy * curvature + magnitude(ay)
                var far = SIMDMask<SIMD2<Int64>>(repeating: true)
                // A branch point of the inverse closer than one width makes the guess's error
                // peak away from the midpoint, where the check would not see it.
                if near.0 { far[0] = singular.0.isFar(from: nodes[i][0], to: nodes[i + 1][0], by: w[0]) }
                if near.1 { far[1] = singular.1.isFar(from: nodes[i][1], to: nodes[i + 1][1], by: w[1]) }
                let firstOrder = usable .& far .& first
                let secondOrder = usable .& far .& .!first .& (k2 * e0 * e0 * e0 .< tolerance)
                needsSecondOrder = needsSecondOrder .| secondOrder
                // A flagged segment gets a NaN coefficient: the guess, and so the result, is
                // NaN, which sends x there to the bracketed solve; the one finiteness test then
                // covers both flags and any other failure.
                let c5 = c.5.replacing(with: .nan, where: .!(firstOrder .| secondOrder))
                for k in 0..<2 {
                    let p = (k == 0 ? halves.0 : halves.1) + (iCoef + coefficientStride * i)
                    p[0] = c.0[k]; p[1] = c.1[k]; p[2] = c.2[k]; p[3] = c.3[k]; p[4] = c.4[k]; p[5] = c5[k]
                }
            }
            for k in 0..<2 {
                let p = (k == 0 ? halves.0 : halves.1) + iNodes
                for i in 0...n { p[i] = nodes[i][k] }
            }
        }
        var steps = 0
        for k in 0..<2 {
            let p = (k == 0 ? halves.0 : halves.1) + iNodes
            // The sentinel keeps the increments inside the last segment.
            p[n] = .infinity
            steps = max(steps, fillBucketMap(b + k * byteStride, nodes: p, vEnd: vEnd[k]))
        }
        return (steps, any(needsSecondOrder))
    }

    /// A half's scalar fields: the polynomial and its multiples, the split, the bucket scale,
    /// the variable, and the output mapping y = offset + sign·yScale·(scaled polynomial), whose
    /// sign (exact) the kernel's y coefficients carry.
    private static func writeHeader(_ d: UnsafeMutablePointer<Double>, _ poly: BezierPolynomial,
                                    root: Bool, sEnd: Double, h: Double, vEnd: Double,
                                    offset: Double, sign: Double) {
        d[iAX] = poly.ax; d[iBX] = poly.bx; d[iCX] = poly.cx
        d[iAY] = poly.ay; d[iBY] = poly.by; d[iCY] = poly.cy
        d[iAX3] = 3 * poly.ax; d[iBX2] = 2 * poly.bx; d[iAX6] = 6 * poly.ax
        d[iX1Hi] = poly.exactX1.hi; d[iX1Lo] = poly.exactX1.lo
        d[iX2Hi] = poly.exactX2.hi; d[iX2Lo] = poly.exactX2.lo
        d[iSEnd] = sEnd; d[iH] = h; d[iScale] = Double(bucketCount) / vEnd
        d[iRootMask] = Double(bitPattern: root ? ~0 : 0)
        d[iOffset] = offset; d[iYSign] = sign * poly.yScale
        d[iKAY] = sign * poly.ay; d[iKBY] = sign * poly.by; d[iKCY] = sign * poly.cy
        d[iAY3] = 3 * d[iKAY]; d[iBY2] = 2 * d[iKBY]; d[iAY6] = 6 * d[iKAY]
    }

    /// Fills a half's bucket map and returns the number of segment increments it needs.
    ///
    /// Bucket j covers v in [(j − ½)·width, (j + ½)·width) (the last one up to vEnd), since the
    /// evaluation rounds v·scale to the nearest integer (`bucket(_:_:)`); map[j] = the segment
    /// holding its left end, that is the number of inner nodes at or below it. The width is
    /// taken a hair narrow (left ends a hair low), so that every v whose v·scale rounds to j is
    /// at or above its bucket's left end despite rounding (at worst an extra increment). The
    /// count is the most inner nodes inside one bucket, plus one if a node lies within rounding
    /// of a bucket boundary (the evaluation's bucket index may then be one below the rounded
    /// v·scale). Built from each node's first bucket at or above it by
    /// `kinetic_simd_bucket_map64`: no data-dependent branch. Writes up to `byteSlack` bytes past the
    /// map, which the next half's map (built after it) or the slack absorbs.
    private static func fillBucketMap(_ b: UnsafeMutablePointer<UInt8>, nodes: UnsafeMutablePointer<Double>,
                                      vEnd: Double) -> Int {
        let n = segmentCount, m = bucketCount
        let invWidth = Double(m) / vEnd * (1 + 0x1p-40)
        var nearBoundary = false
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { buffer in
            let first = buffer.baseAddress!
            var previous = 0
            for k in 1..<n {
                // In units of the width, shifted by half a bucket: bucket j's left end is j.
                let position = min(max(nodes[k] * invWidth + 0.5, 0), Double(m))
                let below = Int(position)  // floor: position ≥ 0
                let fraction = position - Double(below)
                nearBoundary = nearBoundary || fraction < 1e-6 || fraction > 1 - 1e-6
                // The first bucket at or above the node (m, in no bucket, for the top end).
                // Nodes increase (x is monotone); the running maximum guards the map's
                // precondition against rounding.
                previous = max(previous, below &+ (fraction > 0 ? 1 : 0))
                first[k - 1] = UInt8(truncatingIfNeeded: previous)
            }
            // map[j] = the inner nodes at or below bucket j's left end; the most nodes in one
            // bucket (bucket 0 holds none: inner nodes are > 0).
            let most = kinetic_simd_bucket_map64(first, Int32(n - 1), b)
            return Int(most) + (nearBoundary ? 1 : 0)
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
