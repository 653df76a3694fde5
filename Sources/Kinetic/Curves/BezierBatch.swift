import KineticSIMD

/// Batch evaluation of one curve over many x, through ``BezierBatchTable``.
///
/// Lanes are evaluated two at a time in `SIMD2<Double>` (one SSE2 register on baseline
/// x86-64), two pairs per iteration so that the core overlaps independent chains. A lane
/// selects its half (x ≤ 1/2, or x > 1/2 mirrored exactly as 1 − x), its variable (x or √x)
/// and its record by arithmetic, with no data-dependent branch, gathers the record's
/// coefficients and evaluates one polynomial. Lanes outside [0, 1], NaN lanes and lanes on
/// flagged segments (whose result comes out NaN) are noted in a mask and redone by the
/// scalar path at the end of each block, so every element is what
/// ``CubicBezier/value(at:)`` guarantees: within 1e-12 of the exact value, exact at 0 and
/// 1, extrapolated outside [0, 1].
extension BezierTable {
    /// Batch calls with fewer x evaluate one x at a time and build no batch table: building
    /// it (about 60 µs on the development machine) costs about as much as 4,000 scalar
    /// evaluations, and results stay a function of the call alone, not of its history.
    static let batchThreshold = 1024
    /// Lanes per block: the out-of-line redo is decided once per block.
    static let batchBlock = 64

    func values(at xs: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
        guard let src = xs.baseAddress, let dst = out.baseAddress else { return }
        let n = xs.count
        if isIdentity {
            for k in 0..<n { dst[k] = value(at: src[k]) }
            return
        }
        // The call's x count towards the solve table's rule as one evaluation each; the values
        // are the same with it or without. A large call takes the batch table whether or not
        // the solve table exists (it may not, with the process's solve tables at their
        // budget): its values depend only on the call.
        let kernel = kernel(afterEvaluations: n)
        if n < Self.batchThreshold {
            if let kernel {
                each(src, dst, n) { Self.value(at: $0, kernel) }
            } else {
                each(src, dst, n) { valueWithoutTable($0) }
            }
            return
        }
        let table = batchTable
        if table.usesRoot {
            batch(table, src, dst, n, RootVariable.self)
        } else {
            batch(table, src, dst, n, LinearVariable.self)
        }
    }

    /// One x at a time: `solve` for x in [0, 1], the extrapolation (or NaN) elsewhere.
    @inline(__always)
    private func each(_ src: UnsafePointer<Double>, _ dst: UnsafeMutablePointer<Double>, _ n: Int,
                      _ solve: (Double) -> Double) {
        for k in 0..<n {
            let x = src[k]
            dst[k] = x >= 0 && x <= 1 ? solve(x) : extrapolate(x)
        }
    }

    /// The batch table, built on first use and shared by every later call (and thread).
    var batchTable: BezierBatchTable {
        let slot = slots + Self.batchSlot
        if let built = kinetic_atomic_load_pointer(slot) { return BezierBatchTable.unboxed(built) }
        let c = constants
        let fresh = BezierBatchTable.boxed(x1: c.x1, y1: c.y1, x2: c.x2, y2: c.y2, usesRoot: c.usesRoot)
        guard let current = kinetic_atomic_publish_pointer(slot, fresh) else {
            return BezierBatchTable.unboxed(fresh)
        }
        // Another thread published its table first: use that one.
        BezierBatchTable.release(fresh)
        return BezierBatchTable.unboxed(current)
    }

    private func batch<V: InterpolationVariable>(_ table: BezierBatchTable, _ input: UnsafePointer<Double>,
                                                 _ dst: UnsafeMutablePointer<Double>, _ n: Int, _ variable: V.Type) {
        let records = UnsafePointer(table.records)
        let scale = table.scale
        let upperOffset = SIMD2<UInt64>(repeating: UInt64(table.upperOffset))
        let block = Self.batchBlock
        // In place (or overlapping), each block's x are kept aside for the scalar redo.
        let overlaps = UnsafeRawPointer(input) < UnsafeRawPointer(dst + n) && UnsafeRawPointer(dst) < UnsafeRawPointer(input + n)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: block) { saved in
            var start = 0
            while start < n {
                let end = min(start + block, n)
                var src = input
                if overlaps {
                    saved.baseAddress!.update(from: input + start, count: end - start)
                    src = UnsafePointer(saved.baseAddress! - start)
                }
                var bad = SIMD2<UInt64>()
                var k = start
                while k + 3 < end {
                    let x0 = SIMD2(src[k], src[k &+ 1]), x1 = SIMD2(src[k &+ 2], src[k &+ 3])
                    let y0 = Self.pair(x0, records, scale, upperOffset, &bad, V.self)
                    let y1 = Self.pair(x1, records, scale, upperOffset, &bad, V.self)
                    dst[k] = y0[0]; dst[k &+ 1] = y0[1]; dst[k &+ 2] = y1[0]; dst[k &+ 3] = y1[1]
                    k &+= 4
                }
                while k < end {
                    dst[k] = value(at: src[k])
                    k &+= 1
                }
                if bad != .zero {
                    // Some lane of the block was out of range, within `endThreshold` of an end
                    // (solved exactly, as by value(at:)), NaN or on a flagged segment.
                    let T = Self.endThreshold
                    for l in start..<end where !(src[l] >= T && src[l] <= 1 - T) && src[l] != 0 && src[l] != 1
                        || dst[l].isNaN {
                        dst[l] = value(at: src[l])
                    }
                }
                start = end
            }
        }
    }

    /// Two lanes: half, variable, record, polynomial. Lanes outside [0, 1] set `bad` and
    /// read record 0; NaN results (flagged segments) set it too.
    @inline(__always)
    private static func pair<V: InterpolationVariable>(_ x: SIMD2<Double>, _ records: UnsafePointer<Double>,
                                                       _ scale: Double, _ upperOffset: SIMD2<UInt64>,
                                                       _ bad: inout SIMD2<UInt64>,
                                                       _ variable: V.Type) -> SIMD2<Double> {
        typealias R = BezierBatchTable
        typealias Bits = SIMD2<UInt64>
        @inline(__always) func bits(_ v: SIMD2<Double>) -> Bits { unsafeBitCast(v, to: Bits.self) }
        @inline(__always) func bits(_ m: SIMDMask<SIMD2<Int64>>) -> Bits { unsafeBitCast(m, to: Bits.self) }
        @inline(__always) func double(_ b: Bits) -> SIMD2<Double> { unsafeBitCast(b, to: SIMD2<Double>.self) }
        let inRange = bits((x .>= 0) .& (x .<= 1))
        let upper = bits(x .> 0.5)
        // The half's own progress: x, or 1 − x (exact for x in [1/2, 1]); 0 out of range.
        let xx = double(((bits(x) & ~upper) | (bits(1 - x) & upper)) & inRange)
        let v = V.variable(xx)
        // The segment ⌊v·scale⌋ by the 1.5·2^52 rounding trick applied to r − 1/2 (an
        // integer r may come out one lower, with s = 1: the previous segment's end, which
        // its polynomial covers too), plus the upper half's first record, added as an
        // integer so that s keeps every bit of v·scale.
        let r = v * scale
        let magic = SIMD2<Double>(repeating: 0x1.8p52)
        let rounded = (r - 0.5) + magic
        let s = r - (rounded - magic)
        let index = (bits(rounded) & Bits(repeating: 0xFFFF)) &+ (upperOffset & upper)
        let p0 = records + Int(truncatingIfNeeded: index[0]) &* R.recordStride
        let p1 = records + Int(truncatingIfNeeded: index[1]) &* R.recordStride
        @inline(__always) func gather(_ i: Int) -> SIMD2<Double> { SIMD2(p0[i], p1[i]) }
        var y = gather(R.degree)
        for k in stride(from: R.degree - 1, through: 0, by: -1) { y = y * s + gather(k) }
        // Lanes within endThreshold of an end are redone, except the ends themselves, which
        // the table gives exactly (clamped progress arrays are full of them).
        bad |= ~inRange | bits(y .!= y) | bits((xx .< SIMD2(repeating: endThreshold)) .& (xx .!= SIMD2()))
        return y
    }
}
