import KineticSIMD

/// The table behind batch evaluation (``CubicBezier/values(at:into:)``): the eased value
/// itself as a piecewise polynomial in the interpolation variable, certified per segment
/// against the exact curve, so that a lane costs one look-up and one polynomial.
///
/// As in ``BezierTable`` the curve is evaluated in two mirrored halves split at x = 1/2, in
/// the variable v = x or v = √x (the latter when either half's end tangent is near
/// vertical, where y is smooth in √x but not in x). Each half is cut into n
/// segments of equal width in v, so the segment of v is `⌊v·scale⌋` with no search, and
/// the position in it is s = v·scale − ⌊v·scale⌋ in [0, 1].
///
/// On each segment y(s) is the Taylor polynomial of degree `degree` (7) about the segment's
/// centre (see `HalfBuilder`), rewritten in s. Its truncation error is bounded from the
/// next two terms; a segment whose bound exceeds `tolerance` (near a vertical tangent
/// inside the curve, or where √x's expansion converges slowly close to 0) gets a NaN
/// coefficient, which makes a lane's result NaN, and the batch kernel solves such lanes by
/// the solve kernel (then the scalar path). A steep curve flags a few dozen segments near
/// x = 1/2, where its inverse has complex branch points close by; a curve that flags more
/// than `declineAbove` gets no table. The table's size is fixed (`tableBytes`), within
/// `byteCap` with the curve's solve table. The choice depends only on the curve.
/// The half's mirroring and y scale are folded into the coefficients, and the first
/// segment's value at s = 0 is set to the curve's end value, so x = 0 gives 0 and x = 1
/// gives 1 exactly.
///
/// Records: the lower half's segments 0..<n, then one record for v at the very
/// end of the half (x = 1/2), then a pad record, then the upper half the same way; the
/// upper half's first record is at an even index (`upperOffset`), which the kernel's floor
/// relies on.
struct BezierBatchTable {
    // Layout constants are computed properties so that they fold into the code.
    /// Segments per half: the table's records (2·(segmentCount + 2) of `recordStride`
    /// doubles) stay within `byteCap` beside the curve's solve table.
    @inline(__always) static var segmentCount: Int { 96 }
    /// A curve whose table flags more segments than this (of 2·segmentCount) gets none: its
    /// batch calls keep to the solve kernel. Steep curves, whose inverse has complex branch
    /// points close to x = 1/2, flag a few dozen segments there; their lanes are redone by
    /// the solve kernel.
    static let declineAbove = 48
    @inline(__always) static var degree: Int { Int(KINETIC_BEZIER_BATCH_DEGREE) }
    @inline(__always) static var recordStride: Int { Int(KINETIC_BEZIER_BATCH_STRIDE) }
    /// Estimated interpolation error (absolute, in y) above which a segment is solved by
    /// the scalar path. It is absolute on purpose: a curve with large control values
    /// (hundreds) flags more of its segments, or declines the table, rather than give up
    /// accuracy. What the table's values promise against ``CubicBezier/value(at:)`` is
    /// relative all the same, 2e-13 · max(1, |y1|, |y2|), as the rounding of y in both
    /// grows with |y|.
    static let tolerance = 2e-13
    /// The most bytes a curve's tables take together: its solve table and this one.
    package static let byteCap = 16 << 10
    /// Bytes of one batch table (its records and its box).
    package static var tableBytes: Int {
        2 * (segmentCount + 2) * recordStride * MemoryLayout<Double>.stride + MemoryLayout<BezierBatchTable>.stride
    }

    let records: UnsafeMutablePointer<Double>
    /// Index of the upper half's first record: the segments per half, plus 2.
    let upperOffset: Int
    /// Segments per half ÷ (the half's largest v).
    let scale: Double
    let usesRoot: Bool

    /// The table, or nil where it flags more than `declineAbove` segments, and for a curve
    /// whose y values are so large (beyond 2^1000) that its polynomial is scaled: a
    /// polynomial's intermediate sums there could overflow where y does not.
    init?(x1: Double, y1: Double, x2: Double, y2: Double, usesRoot root: Bool) {
        usesRoot = root
        let vEnd = root ? (0.5).squareRoot() : 0.5
        let whole = BezierPolynomial(x1, y1, x2, y2)
        let mirror = BezierPolynomial(mirroring: x1, y1, x2, y2)
        if whole.yScale != 1 || mirror.yScale != 1 { return nil }
        let split = whole.solveBracketed(0.5, lo: 0, hi: 1, guess: 0.5)
        let n = Self.segmentCount
        let count = 2 * (n + 2) * Self.recordStride
        let built = UnsafeMutablePointer<Double>.allocate(capacity: count)
        built.initialize(repeating: 0, count: count)
        let flagged = withUnsafeTemporaryAllocation(of: Double.self, capacity: HalfBuilder.scratchCount) { scratch in
            let builder = HalfBuilder(root: root, vEnd: vEnd, segments: n, scratch: scratch.baseAddress!)
            let lower = builder.build(built, HalfCurve(poly: whole, offset: 0, ySign: whole.yScale), sEnd: split)
            let upper = builder.build(built + (n + 2) * Self.recordStride,
                                      HalfCurve(poly: mirror, offset: 1, ySign: -mirror.yScale), sEnd: 1 - split)
            return lower + upper
        }
        if flagged > Self.declineAbove {
            built.deallocate()
            return nil
        }
        records = built
        upperOffset = n + 2
        scale = Double(n) / vEnd
    }

    /// Builds the table into a heap box, for publishing through an atomic pointer (nil where
    /// the curve gets no table).
    static func boxed(x1: Double, y1: Double, x2: Double, y2: Double, usesRoot: Bool) -> UnsafeMutableRawPointer? {
        guard let table = BezierBatchTable(x1: x1, y1: y1, x2: x2, y2: y2, usesRoot: usesRoot) else { return nil }
        let box = UnsafeMutablePointer<BezierBatchTable>.allocate(capacity: 1)
        box.initialize(to: table)
        return UnsafeMutableRawPointer(box)
    }

    /// The table in a box made by ``boxed(x1:y1:x2:y2:usesRoot:)``.
    static func unboxed(_ box: UnsafeMutableRawPointer) -> BezierBatchTable {
        box.assumingMemoryBound(to: BezierBatchTable.self).pointee
    }

    /// Frees a box made by ``boxed(x1:y1:x2:y2:usesRoot:)`` and its records.
    static func release(_ box: UnsafeMutableRawPointer) {
        let table = box.assumingMemoryBound(to: BezierBatchTable.self)
        table.pointee.records.deallocate()
        table.deinitialize(count: 1)
        table.deallocate()
    }
}

/// A half's polynomial and its output mapping y = offset + ySign·(scaled y polynomial),
/// which folds in the half's mirroring and y scale.
private struct HalfCurve {
    let poly: BezierPolynomial
    let offset: Double
    let ySign: Double

    @inline(__always) func y(_ t: Double) -> Double {
        offset + ySign * (((poly.ay * t + poly.by) * t + poly.cy) * t)
    }
}

/// Builds one half's records (see ``BezierBatchTable``) from Taylor expansions.
///
/// On segment j, with centre v_m and δ = v − v_m, the parameter is t = t_m + τ(δ). Its
/// power series follows order by order from x(t_m + τ) = x(v_m + δ), where x(t) is the
/// exact cubic and x(v) is v or v²: with X_k the Taylor coefficients of x at t_m and g_k
/// those of x(v), X₁·a_k = g_k − X₂·[τ²]_k − X₃·[τ³]_k, where [τ^p]_k only involves
/// a₁…a_{k−1} (series reversion by recurrence). y(t_m + τ) gives the series of y the same
/// way. The first two omitted terms, at |δ| = w/2, bound the truncation error. The next
/// centre's parameter is the series at δ = w, polished by Newton steps, so no segment
/// needs a bracketed solve unless the polish fails.
private struct HalfBuilder {
    typealias T = BezierBatchTable
    /// Series terms computed: the polynomial's plus two for the error estimate.
    @inline(__always) static var terms: Int { T.degree + 3 }
    let root: Bool
    let vEnd: Double
    let segments: Int
    let width: Double
    /// Scratch: a (τ), q (τ²), r (τ³), b (y) series, and the shifted polynomial.
    let a, q, r, b, m: UnsafeMutablePointer<Double>

    init(root: Bool, vEnd: Double, segments: Int, scratch: UnsafeMutablePointer<Double>) {
        self.root = root
        self.vEnd = vEnd
        self.segments = segments
        width = vEnd / Double(segments)
        let n = Self.terms
        a = scratch; q = scratch + n; r = scratch + 2 * n; b = scratch + 3 * n; m = scratch + 4 * n
    }

    static var scratchCount: Int { 5 * terms }

    /// Fills one half's records; returns the number of segments flagged.
    func build(_ records: UnsafeMutablePointer<Double>, _ curve: HalfCurve, sEnd: Double) -> Int {
        let n = segments
        var flagged = 0
        let poly = curve.poly
        var tm = -1.0  // no guess yet
        for j in 0..<n {
            let vm = (Double(j) + 0.5) * width
            let target = root ? vm * vm : vm
            tm = centre(poly, target: target, guess: tm, sEnd: sEnd)
            let record = records + j * T.recordStride
            let ok = expand(record, curve, tm: tm, vm: vm)
            if j == 0 && ok {
                // v = 0 (x = 0, or x = 1 in the mirrored half) is the curve's end: exact.
                record[0] = curve.offset
            }
            if !ok { record[T.degree] = .nan; flagged += 1 }
            // The next centre's guess: the series at δ = w (NaN if the expansion failed).
            var next = 0.0
            for k in stride(from: Self.terms - 3, through: 1, by: -1) { next = (next + a[k]) * width }
            tm = ok ? tm + next : -1
        }
        // The end of the half (v = vEnd exactly, x = 1/2): a constant record.
        records[n * T.recordStride] = curve.y(sEnd)
        return flagged
    }

    /// The parameter where x(t) = target: Newton steps from `guess`, or the bracketed solve.
    private func centre(_ poly: BezierPolynomial, target: Double, guess: Double, sEnd: Double) -> Double {
        if guess > 0 && guess < sEnd {
            var t = guess
            for _ in 0..<3 {
                let slope = poly.dx(t)
                guard slope > 0 else { break }
                let step = (poly.x(t) - target) / slope
                t -= step
                if abs(step) <= 0x1p-50 * t && t > 0 && t < sEnd { return t }
            }
        }
        return poly.solveBracketed(target, lo: 0, hi: sEnd, guess: min(max(guess, 0), sEnd))
    }

    /// Writes the record's monomial coefficients in s for the segment centred at vm, whose
    /// centre parameter is tm; returns whether the truncation error is within tolerance.
    private func expand(_ record: UnsafeMutablePointer<Double>, _ curve: HalfCurve, tm: Double, vm: Double) -> Bool {
        let n = Self.terms
        let poly = curve.poly, ySign = curve.ySign
        let x1 = poly.dx(tm), x2 = 3 * poly.ax * tm + poly.bx, x3 = poly.ax
        guard x1 > 0 else { return false }
        let inverse = 1 / x1
        let y0 = curve.y(tm)
        let y1 = ySign * poly.dy(tm), y2 = ySign * (3 * poly.ay * tm + poly.by), y3 = ySign * poly.ay
        // g(δ) = x(v_m + δ) − x(v_m): 2v_m·δ + δ² for v = √x, δ for v = x.
        let g1 = root ? 2 * vm : 1, g2 = root ? 1.0 : 0
        a[0] = 0; q[0] = 0; r[0] = 0; q[1] = 0; r[1] = 0; r[2] = 0
        b[0] = y0
        for k in 1..<n {
            var tau2 = 0.0
            for i in 1..<k { tau2 += a[i] * a[k - i] }
            var tau3 = 0.0
            if k >= 3 { for i in 1...(k - 2) { tau3 += a[i] * q[k - i] } }
            q[k] = tau2
            r[k] = tau3
            let g = k == 1 ? g1 : k == 2 ? g2 : 0
            a[k] = (g - x2 * tau2 - x3 * tau3) * inverse
            b[k] = y1 * a[k] + y2 * tau2 + y3 * tau3
        }
        // The truncation error at |δ| = w/2 from the first two omitted terms.
        let half = 0.5 * width
        var power = 1.0
        for _ in 0...T.degree { power *= half }
        let tail = abs(b[T.degree + 1]) * power + abs(b[T.degree + 2]) * power * half
        // The polynomial in σ = δ/w ∈ [−1/2, 1/2], then shifted to s = σ + 1/2 ∈ [0, 1].
        var scaleK = 1.0
        for k in 0...T.degree {
            m[k] = b[k] * scaleK
            scaleK *= width
        }
        // Taylor shift p(s) = Σ m_k (s − 1/2)^k by repeated synthetic division.
        for i in 0..<T.degree {
            for k in stride(from: T.degree - 1, through: i, by: -1) { m[k] -= 0.5 * m[k + 1] }
        }
        for k in 0...T.degree {
            guard m[k].isFinite else { return false }
            record[k] = m[k]
        }
        guard tail * 2 <= T.tolerance else { return false }
        // The tail bound assumes the terms decay geometrically, which fails where a
        // singularity of t(v) comes within about w/2 of the centre (x1 tiny but not 0 puts
        // one next to v = 0). So the polynomial is also checked against the exact curve near
        // both segment ends, at parameters the series itself gives (the points are exact
        // whatever those parameters are).
        for end in stride(from: -0.5, through: 0.5, by: 1.0) {
            var tau = 0.0
            for k in stride(from: T.degree, through: 1, by: -1) { tau = (tau + a[k]) * (end * width) }
            let t = tm + tau
            guard t >= 0 else { return false }
            let x = poly.x(t)
            let s = ((root ? x.squareRoot() : x) - vm) / width + 0.5
            var p = record[T.degree]
            for k in stride(from: T.degree - 1, through: 0, by: -1) { p = p * s + record[k] }
            guard abs(p - curve.y(t)) * 4 <= T.tolerance else { return false }
        }
        return true
    }
}
