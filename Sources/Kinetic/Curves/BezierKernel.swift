import KineticSIMD

/// The evaluation of a ``BezierTable``'s solve table: plain pointers and the step count,
/// read from the published table, so that a batch loop keeps them in registers.
///
/// The solve table is one allocation: a 64-byte header (the step count, then the flags),
/// both halves' doubles (`halfStride` each), then both halves' bucket maps.
@usableFromInline
struct BezierKernel {
    /// The table itself (its header), for the vectorised kernel.
    @usableFromInline let table: UnsafeRawPointer
    @usableFromInline let doubles: UnsafePointer<Double>
    @usableFromInline let bytes: UnsafePointer<UInt8>
    @usableFromInline let steps: Int
    /// Whether either half interpolates in √x (then the evaluation takes a square root).
    @usableFromInline let usesRoot: Bool
    /// Whether some segment needs the folded step's second-order term (a per-curve choice,
    /// so the branch on it is always predicted; the segment's own mask then applies it).
    @usableFromInline let secondOrder: Bool
    /// Whether a half's y polynomial is scaled down (control points beyond ±2^1000), so the
    /// result is multiplied back by the scale.
    @usableFromInline let scaledY: Bool

    @usableFromInline typealias T = BezierTable

    /// Offsets in the solve table's allocation (64-byte aligned; the halves start on a line).
    static let alignment = 64
    @inlinable static var headerBytes: Int { Int(KINETIC_BEZIER_HEADER_BYTES) }
    @inlinable static var bytesOffset: Int { Int(KINETIC_BEZIER_BYTES_OFFSET) }
    static let allocationBytes = bytesOffset + 2 * T.byteStride + T.byteSlack

    /// The kernel of the solve table at `table`.
    @inlinable @inline(__always)
    init(_ table: UnsafeRawPointer) {
        self.table = table
        steps = table.load(as: Int.self)
        let flags = table.load(fromByteOffset: 8, as: UInt8.self)
        usesRoot = flags & 1 != 0
        secondOrder = flags & 2 != 0
        scaledY = flags & 4 != 0
        doubles = (table + Self.headerBytes).assumingMemoryBound(to: Double.self)
        bytes = (table + Self.bytesOffset).assumingMemoryBound(to: UInt8.self)
    }

    /// Writes the solve table's header.
    static func writeHeader(_ table: UnsafeMutableRawPointer, steps: Int, usesRoot: Bool, secondOrder: Bool,
                            scaledY: Bool) {
        table.storeBytes(of: steps, as: Int.self)
        let flags = (usesRoot ? 1 : 0) | (secondOrder ? 2 : 0) | (scaledY ? 4 : 0)
        table.storeBytes(of: UInt8(flags), toByteOffset: 8, as: UInt8.self)
    }

    /// The half of x in [0, 1] (0 for x ≤ 1/2, 1 above) and the half's own progress xx = x or
    /// 1 − x, in integer arithmetic: a comparison or a select here (?:, min, a bit mask from
    /// `x > 0.5`) is compiled to branches on x86-64, which random x mispredict half the time.
    @inlinable @inline(__always)
    static func half(of x: Double) -> (half: Int, xx: Double) {
        let sign = (0.5 - x).bitPattern & (1 &<< 63)
        let half = Int(truncatingIfNeeded: sign &>> 63)
        // h + (∓x) with h = 0 or 1: x, or 1 − x (exact for x > 1/2, by Sterbenz).
        let h = Double(bitPattern: (0 &- (sign &>> 63)) & 1.0.bitPattern)
        return (half, h + Double(bitPattern: x.bitPattern ^ sign))
    }

    /// The solve for x in [0, 1]: look-up, quintic guess, one Newton step folded into y.
    /// Branch-free on the common path: the half, the interpolation variable and the
    /// mirroring are selected arithmetically, so random x cost no mispredictions.
    @inlinable @inline(__always)
    func solve<V: InterpolationVariable>(_ x: Double, _ variable: V.Type) -> Double {
        let (half, xx) = Self.half(of: x)
        let p = doubles + half &* T.halfStride
        let b = bytes + half &* T.byteStride
        // Within `endThreshold` of either end the table's guess has a small absolute error but
        // not a small relative one; the exact solve there keeps the result monotone and in
        // range. Random x almost never take this branch, so it is predicted.
        if _slowPath(xx < T.endThreshold) { return Self.solveNearEnd(p, xx, scaledY: scaledY) }
        // The bucket map's line and the first nodes' line do not depend on x: hinting them
        // here overlaps their loads with the half's first line (which the bucket index needs)
        // when the table has left the nearer caches, as for a curve evaluated among many
        // others; a hot table pays two hints that hit. (Hints that depend on the bucket, such
        // as the segment's record, cost the hot path measurably.)
        kinetic_simd_prefetch(b)
        kinetic_simd_prefetch(p + T.iNodes)
        // The look-up runs on xx alone (`segment`). Only the segment's guess needs the
        // variable, so the square root's latency overlaps the look-up's loads instead of
        // preceding them.
        let mask = p[T.iRootMask].bitPattern
        let v = V.variable(xx, mask: mask)
        let i = segment(xx, p, b, mask: mask, V.self)
        return Self.finish(p, p + (T.iCoef &+ T.coefficientStride &* i), node: p[T.iVNodes &+ i], v: v, xx: xx,
                           segment: i, secondOrder: secondOrder, scaledY: scaledY)
    }

    /// The segment of xx (≥ `endThreshold`) and its variable v in the half whose doubles are at
    /// `p` and bucket map at `b`, by the curve's variable (as `solve` finds them): for the
    /// paths outside the batch loop.
    @inline(__always)
    func segmentAndVariable(_ xx: Double, _ p: UnsafePointer<Double>, _ b: UnsafePointer<UInt8>) -> (segment: Int, v: Double) {
        let mask = p[T.iRootMask].bitPattern
        return usesRoot ? (segment(xx, p, b, mask: mask, RootVariable.self), RootVariable.variable(xx, mask: mask))
            : (segment(xx, p, b, mask: mask, LinearVariable.self), LinearVariable.variable(xx, mask: mask))
    }

    /// The segment of xx (≥ `endThreshold`) in the half whose doubles are at `p` and bucket map
    /// at `b`: the bucket from xx, or in a √x half (`mask` set) from an estimate of √xx that
    /// costs no square root; then the bucket's first segment, plus the nodes whose progress is
    /// at or below xx among the next `steps` (nodes increase, and sentinels follow the last).
    /// The comparisons do not depend on each other, so curves whose nodes crowd into few
    /// buckets (steps > 1) pay in parallel loads, not in a chain of them.
    @inlinable @inline(__always)
    func segment<V: InterpolationVariable>(_ xx: Double, _ p: UnsafePointer<Double>, _ b: UnsafePointer<UInt8>,
                                           mask: UInt64, _ variable: V.Type) -> Int {
        let first = Int(b[Self.bucket(V.estimate(xx, mask: mask), p[T.iScale])])
        let next = p + (T.iNodes &+ first)
        var count = next[1] <= xx ? 1 : 0
        var k = 1
        while k < steps {
            k &+= 1
            count &+= next[k] <= xx ? 1 : 0
        }
        return first &+ count
    }

    /// The value from segment `i` of the half whose header is at `p`, with coefficient record
    /// `c`, the segment's first node and the variable v of xx: the quintic guess, then one
    /// Newton step folded into y. Shared by the solve table and the evaluation without one
    /// (`BezierTable.valueWithoutTable`), which is why the two agree bit for bit.
    @inlinable @inline(__always)
    static func finish(_ p: UnsafePointer<Double>, _ c: UnsafePointer<Double>, node: Double, v: Double,
                       xx: Double, segment i: Int, secondOrder: Bool, scaledY: Bool) -> Double {
        let offset = p[T.iOffset]
        let s = guess(c, v - node)
        // One Newton step, folded into y. With f = x(s) − xx and δ = f/x′(s) the root is
        // s* = s − δ − (x″/2x′)·δ² + O(δ³), so y(s*) = y(s) − y′·δ + δ²·(y″ − y′·x″/x′)/2 + O(δ³).
        // The second-order term applies on the segments whose bit is set in the half's
        // `iSecondOrder` word. Curves with none skip it; the table-free path (which passes
        // `secondOrder: true`) adds the masked +0 instead, which can only turn a y of −0 into
        // +0, and offset + y (offset 0 or 1) is then the same.
        let ax = p[T.iAX], bx = p[T.iBX], cx = p[T.iCX], bx2 = p[T.iBX2]
        let dxds = (p[T.iAX3] * s + bx2) * s + cx
        let delta = ((cx * s - xx) + (s * s) * (ax * s + bx)) / dxds
        let ay = p[T.iKAY], by = p[T.iKBY], cy = p[T.iKCY], by2 = p[T.iBY2]
        let dyds = (p[T.iAY3] * s + by2) * s + cy
        var y = ((ay * s + by) * s + cy) * s - dyds * delta
        if secondOrder {
            // The two divisions are independent and overlap.
            let bend = (p[T.iAX6] * s + bx2) / dxds
            let term = (delta * delta) * (0.5 * ((p[T.iAY6] * s + by2) - dyds * bend))
            let mask = 0 &- ((p[T.iSecondOrder].bitPattern &>> UInt64(truncatingIfNeeded: i)) & 1)
            y += Double(bitPattern: term.bitPattern & mask)
        }
        if !y.isFinite {
            // A flagged segment (NaN guess) or a failed step: the bracketed solve.
            return flaggedValue(p, xx, segment: i, record: c, at: v - node, scaledY: scaledY)
        }
        if scaledY { y *= abs(p[T.iYSign]) }
        return offset + y
    }

    /// The value on a flagged segment (or after a failed step): t from the bracketed solve
    /// (`solveFlagged`), then y(t) and the half's output mapping.
    @usableFromInline @inline(never)
    static func flaggedValue(_ p: UnsafePointer<Double>, _ xx: Double, segment i: Int,
                             record c: UnsafePointer<Double>, at dd: Double, scaledY: Bool) -> Double {
        output(p, at: solveFlagged(p, xx, segment: i, record: c, at: dd), scaledY: scaledY)
    }

    /// The curve's value at parameter t of the half whose header is at `p`: y(t) by Horner's
    /// rule (the kernel's y coefficients carry the half's sign), scaled back where the half's
    /// y polynomial is scaled, plus the half's offset. Every exact solve ends here.
    @usableFromInline @inline(__always)
    static func output(_ p: UnsafePointer<Double>, at t: Double, scaledY: Bool) -> Double {
        var y = ((p[T.iKAY] * t + p[T.iKBY]) * t + p[T.iKCY]) * t
        if scaledY { y *= abs(p[T.iYSign]) }
        return p[T.iOffset] + y
    }

    /// Segment i's parameter range in the half whose header is at `p` (the last one ends at 1
    /// exactly, as the bracketed solves take it).
    @inline(__always)
    static func parameterRange(_ p: UnsafePointer<Double>, segment i: Int) -> (lo: Double, hi: Double) {
        let h = p[T.iH]
        return (Double(i) * h, i == T.segmentCount - 1 ? 1 : Double(i + 1) * h)
    }

    /// A flagged segment's start for the parameter at dd = v − node: its quintic without the
    /// last term (a flagged record's c5 is NaN; the rest is finite).
    @inline(__always)
    static func flaggedGuess(_ c: UnsafePointer<Double>, at dd: Double) -> Double {
        (((c[4] * dd + c[3]) * dd + c[2]) * dd + c[1]) * dd + c[0]
    }

    /// The segment's quintic at dd = v − node, by Estrin's scheme: a shorter dependent chain
    /// than Horner's; the guess's own error (≥ 1e-13) dwarfs the difference in rounding.
    @inlinable @inline(__always)
    static func guess(_ c: UnsafePointer<Double>, _ dd: Double) -> Double {
        let d2 = dd * dd
        return ((c[0] + c[1] * dd) + d2 * (c[2] + c[3] * dd)) + (d2 * d2) * (c[4] + c[5] * dd)
    }

    /// The bucket of v ≥ 0: v·scale rounded to the nearest integer, clamped to
    /// [0, bucketCount − 1]. Computed by the 1.5·2^52 rounding trick (one addition), so it has
    /// no branch and vectorises. It is non-decreasing in v, and the bucket map is built from
    /// this very function at the nodes (`fillBucketMap`), so no rounding allowance is needed.
    @inlinable @inline(__always)
    static func bucket(_ v: Double, _ scale: Double) -> Int {
        // Around 1.5·2^52 the spacing of doubles is 1 for every v ≥ 0, so the sum is rounded
        // to an integer (ties to even) and its low bits are that integer. (The rounding is to
        // nearest, not down: 1.5·2^52 − 0.5 is not a double, so no constant can make it a
        // floor; the map is built for rounding instead.)
        let r = v * scale + 0x1.8p52
        return min(Int(truncatingIfNeeded: r.bitPattern & 0x3FF), T.bucketCount - 1)
    }

    /// The value at xx < `endThreshold` from the nearer end of the half whose header is at `p`:
    /// t solved to full relative precision (see `BezierPolynomial.solveNearZero`), then y(t) by
    /// Horner's rule, whose terms shrink with t, so y keeps its relative precision down to the
    /// subnormals. xx = 0 gives the end itself, exactly.
    @usableFromInline @inline(never)
    static func solveNearEnd(_ p: UnsafePointer<Double>, _ xx: Double, scaledY: Bool) -> Double {
        if xx == 0 { return p[T.iOffset] }
        let t = BezierPolynomial(coefficientsAt: p).solveNearZero(xx, hi: min(1, 2 * p[T.iSEnd]))
        return output(p, at: t, scaledY: scaledY)
    }

    /// The solve on flagged segment i. Segments are flagged where x′ nearly vanishes close
    /// by (steep curves, the triple root of (1, 0, 0, 1) and the curves near it), where
    /// Newton's method converges only linearly from a poor start. Where the cubic's
    /// closed-form root lies inside the segment, one Newton step from it that Taylor's
    /// remainder proves to be within a quarter unit in the last place
    /// (`BezierPolynomial.polish`), else the bracketed solve; otherwise the bracketed solve
    /// from the segment's quintic without its last term (a flagged segment's c5 is NaN; the
    /// rest is finite), or from the segment's start.
    static func solveFlagged(_ p: UnsafePointer<Double>, _ xx: Double, segment i: Int,
                             record c: UnsafePointer<Double>, at dd: Double) -> Double {
        let poly = BezierPolynomial(coefficientsAt: p)
        let (lo, hi) = parameterRange(p, segment: i)
        if let root = poly.closedFormRoot(xx), root > lo && root < hi {
            return poly.polish(xx, lo: lo, hi: hi, start: root)
        }
        let start = flaggedGuess(c, at: dd)
        return poly.solveBracketed(xx, lo: lo, hi: hi, guess: start > lo && start < hi ? start : lo)
    }
}

/// How a half maps its progress xx to the interpolation variable v. The evaluation is
/// specialised per curve: curves whose halves both use v = xx skip the square root.
@usableFromInline
protocol InterpolationVariable {
    static func variable(_ xx: Double, mask: UInt64) -> Double
    /// The look-up's bucket variable: xx itself, or where `mask` is set an estimate of √xx
    /// that is non-decreasing in xx (`kinetic_simd_root_estimate`); the bucket map is built
    /// from the same function.
    static func estimate(_ xx: Double, mask: UInt64) -> Double
    /// The batch table's variable: x for both halves, or √x for both.
    static func variable(_ xx: SIMD2<Double>) -> SIMD2<Double>
}

/// v = xx for both halves.
@usableFromInline
enum LinearVariable: InterpolationVariable {
    @inlinable @inline(__always) static func variable(_ xx: Double, mask: UInt64) -> Double { xx }
    @inlinable @inline(__always) static func estimate(_ xx: Double, mask: UInt64) -> Double { xx }
    @inlinable @inline(__always) static func variable(_ xx: SIMD2<Double>) -> SIMD2<Double> { xx }
}

/// v = √xx where the half's mask is set, xx elsewhere, selected without a branch.
@usableFromInline
enum RootVariable: InterpolationVariable {
    @inlinable @inline(__always) static func variable(_ xx: Double, mask: UInt64) -> Double {
        kinetic_simd_root_select(xx, Double(bitPattern: mask))
    }
    @inlinable @inline(__always) static func estimate(_ xx: Double, mask: UInt64) -> Double {
        kinetic_simd_root_estimate(xx, Double(bitPattern: mask))
    }
    @inlinable @inline(__always) static func variable(_ xx: SIMD2<Double>) -> SIMD2<Double> { kinetic_simd_sqrt2(xx) }
}
