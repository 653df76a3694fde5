import KineticSIMD

/// The solver behind ``CubicBezier``, shared by copies: the curve's constants, a count of
/// its evaluations, and the two tables that its own use builds once it pays for them.
///
/// The curve is solved in two mirrored halves split at x = 1/2 (see ``BezierHalf``): for
/// x ≤ 1/2 the original curve is solved for t, for x > 1/2 the curve mirrored through
/// (1/2, 1/2) is solved for u = 1 − t at 1 − x (exact in double). Each half therefore works
/// near its own end point with relative accuracy, which keeps both ends exact.
///
/// Each half is cut into `segmentCount` segments uniform in the parameter, over a range that
/// reaches the split (see `BezierHalf.ends`: an interpolated estimate, not an iteration). On each segment
/// the inverse t(v) is approximated by the quintic Hermite interpolant of the node values
/// and their exact first and second derivatives, where v is x itself or, for a half whose
/// end tangent is near vertical (x'(0) small, as at the start of `easeOut`), √x, in which
/// the inverse is smooth. That guess is typically within 1e-9 of t (1e-7 on steep curves);
/// one Newton step, taken in y (see `BezierKernel.finish`), leaves an error of the order of
/// the guess error squared, or cubed where the segment needs the second-order step. Each
/// segment is certified against an exact point of the curve; where the guess is not good
/// enough it is flagged and x there is solved by a bracketed Newton/bisection iteration.
///
/// A new curve holds only its constants. Its first `tableAfter`
/// evaluations compute the one segment they need on the fly (`valueWithoutTable`); the
/// next builds the solve table (both halves' segments, their nodes and a bucket map over
/// them), which finds the segment in a few branch-free steps. Both paths run
/// the same arithmetic on the same numbers, so a value does not depend on whether the
/// table exists. Batch calls run the solve table's arithmetic vectorised (the same bits), and
/// build the batch table (see ``BezierBatchTable``) once they pass `batchTableAfter` x. Both are published once through an atomic pointer: the
/// evaluation path takes no lock and, once the table exists, allocates nothing.
@usableFromInline
package final class BezierTable: ManagedBuffer<BezierConstants, UnsafeMutableRawPointer?> {
    // The header is immutable after creation; the elements are the atomic slots below. The
    // solve table's layout is KineticSIMD's (kinetic_simd.h), which its vectorised kernel reads.
    @inlinable static var segmentCount: Int { Int(KINETIC_BEZIER_SEGMENTS) }
    @inlinable static var bucketCount: Int { Int(KINETIC_BEZIER_BUCKETS) }
    /// Doubles per segment record: the quintic's six coefficients.
    @inlinable static var coefficientStride: Int { Int(KINETIC_BEZIER_COEF_STRIDE) }
    /// A half whose own x1 is at most this uses √x as its interpolation variable.
    static let rootThreshold = 0.1
    /// The largest error the folded step may leave in (scaled) y on a segment that is not
    /// flagged, as estimated when the segment is computed.
    static let tolerance = 1e-16
    /// Progress within this distance of either end (2^-26, about 1.5e-8) is solved exactly
    /// instead of through a segment (`solveNearEnd`), for relative precision there.
    @inlinable static var endThreshold: Double { KINETIC_BEZIER_END_THRESHOLD }
    /// Evaluations of a curve (with its copies) before its solve table is built: up to this
    /// many, the curve costs its constants only.
    static let tableAfter = 64
    // Layout of one half's doubles: the header's two lines that every evaluation reads, the
    // fields that only some evaluations read, the nodes' progress, their variable, then the
    // segment records (the table and the halves are 64-byte aligned). An evaluation reads the
    // table's first line (steps and flags), those two header lines, a bucket-map line, one or
    // two lines of nodes' progress, a line of nodes' variable and a record (one or two
    // lines), plus the second-order word's line on curves that use it.
    // Line 0: the x polynomial and what the look-up needs.
    @inlinable static var iAX: Int { Int(KINETIC_BEZIER_AX) }
    @inlinable static var iBX: Int { Int(KINETIC_BEZIER_BX) }
    @inlinable static var iCX: Int { Int(KINETIC_BEZIER_CX) }
    @inlinable static var iAX3: Int { Int(KINETIC_BEZIER_AX3) }
    @inlinable static var iBX2: Int { Int(KINETIC_BEZIER_BX2) }
    @inlinable static var iScale: Int { Int(KINETIC_BEZIER_SCALE) }
    @inlinable static var iRootMask: Int { Int(KINETIC_BEZIER_ROOTMASK) }
    @inlinable static var iOffset: Int { Int(KINETIC_BEZIER_OFFSET) }
    // Line 1: the y side of the step. The kernel's y coefficients carry the half's output sign
    // (−1 for the mirrored half, exact), so the result is offset + y with no multiplication.
    @inlinable static var iKAY: Int { Int(KINETIC_BEZIER_KAY) }
    @inlinable static var iKBY: Int { Int(KINETIC_BEZIER_KBY) }
    @inlinable static var iKCY: Int { Int(KINETIC_BEZIER_KCY) }
    @inlinable static var iAY3: Int { Int(KINETIC_BEZIER_AY3) }
    @inlinable static var iBY2: Int { Int(KINETIC_BEZIER_BY2) }
    @inlinable static var iAX6: Int { Int(KINETIC_BEZIER_AX6) }
    @inlinable static var iAY6: Int { Int(KINETIC_BEZIER_AY6) }
    @inlinable static var iYSign: Int { Int(KINETIC_BEZIER_YSIGN) }
    // Then: bit i set where segment i needs the folded step's second-order term (read only on
    // curves with such a segment), and the fields of the exact solves.
    @inlinable static var iSecondOrder: Int { Int(KINETIC_BEZIER_SECONDORDER) }
    @inlinable static var iAY: Int { Int(KINETIC_BEZIER_AY) }
    @inlinable static var iBY: Int { Int(KINETIC_BEZIER_BY) }
    @inlinable static var iCY: Int { Int(KINETIC_BEZIER_CY) }
    @inlinable static var iSEnd: Int { Int(KINETIC_BEZIER_SEND) }
    @inlinable static var iH: Int { Int(KINETIC_BEZIER_H) }
    @inlinable static var iX1Hi: Int { Int(KINETIC_BEZIER_X1HI) }
    @inlinable static var iX1Lo: Int { Int(KINETIC_BEZIER_X1LO) }
    @inlinable static var iX2Hi: Int { Int(KINETIC_BEZIER_X2HI) }
    @inlinable static var iX2Lo: Int { Int(KINETIC_BEZIER_X2LO) }
    @inlinable static var iNodes: Int { Int(KINETIC_BEZIER_NODES) }
    @inlinable static var iVNodes: Int { Int(KINETIC_BEZIER_VNODES) }
    // The nodes' progress x 0..<segmentCount, then sentinels (+infinity) from segmentCount
    // up to twice segmentCount (the top node, at or a little past x = 1/2, is needed only by the last
    // segment's record): the look-up compares xx with up to `steps` (at most segmentCount)
    // nodes after its bucket's first segment, all at once. Then the nodes' variable v
    // 0..<segmentCount (x again in an x half), which the segment's guess starts from.
    @inlinable static var iCoef: Int { Int(KINETIC_BEZIER_COEF) }
    // A whole number of 64-byte lines.
    @inlinable static var halfStride: Int { Int(KINETIC_BEZIER_HALF_STRIDE) }
    /// Bytes of one half's bucket map.
    @inlinable static var byteStride: Int { bucketCount }
    /// Bytes after the upper half's map that its construction may write (see
    /// `kinetic_simd_bucket_map64`); never read.
    static let byteSlack = bucketCount
    // The elements: the solve table, the batch table, the evaluation count, the batch calls'
    // x count.
    static let solveSlot = 0, batchSlot = 1, countSlot = 2, batchCountSlot = 3

    /// The solver for the curve with control points (x1, y1), (x2, y2), already validated.
    static func make(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> BezierTable {
        let made = create(minimumCapacity: 4) { _ in BezierConstants(x1, y1, x2, y2) }
        made.withUnsafeMutablePointerToElements { $0.initialize(repeating: nil, count: 4) }
        return unsafeDowncast(made, to: BezierTable.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { slots in
            if let table = slots[Self.solveSlot] {
                table.deallocate()
                Self.releaseSolveTable()
            }
            if let built = slots[Self.batchSlot], built != Self.noBatchTable { BezierBatchTable.release(built) }
        }
    }

    @inline(__always)
    var slots: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        withUnsafeMutablePointerToElements { $0 }
    }

    /// The constants, read through a pointer: reading `header` (a class's `var`) would cost a
    /// dynamic exclusivity check on every evaluation.
    @inline(__always)
    var constants: BezierConstants {
        withUnsafeMutablePointerToHeader { $0.pointee }
    }

    package var isIdentity: Bool { constants.isIdentity }

    /// Whether the control points are those of ``CubicBezier/linear``, (0, 0) and (1, 1)
    /// (the curve's `== .linear`).
    package var isLinearCurve: Bool {
        let c = constants
        return c.x1 == 0 && c.y1 == 0 && c.x2 == 1 && c.y2 == 1
    }

    // MARK: Evaluation

    @inline(__always)
    package func value(at x: Double) -> Double {
        if x >= 0 && x <= 1 {
            if constants.isIdentity { return x }
            if let table = kinetic_atomic_peek_pointer(slots + Self.solveSlot) {
                return Self.value(at: x, BezierKernel(table))
            }
            return valueCounting(x)
        }
        return extrapolate(x)
    }

    /// The address of the solve table's slot, valid while this solver lives: for a front
    /// that holds the solver alive and evaluates through ``value(at:solveSlot:)`` with no
    /// reference to it (the C interface's handles).
    package var solveSlotAddress: UnsafeMutablePointer<UnsafeMutableRawPointer?> { slots + Self.solveSlot }

    /// The value at x through the solve table whose slot is at `solveSlot` (see
    /// ``solveSlotAddress``), or nil when x is outside [0, 1] or NaN, or the table is not built
    /// (then ``value(at:)`` on the solver gives the value, and counts the evaluation).
    @inlinable @inline(__always)
    package static func value(at x: Double, solveSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Double? {
        guard x >= 0 && x <= 1, let table = kinetic_atomic_peek_pointer(solveSlot) else { return nil }
        return value(at: x, BezierKernel(table))
    }

    /// ``value(at:)`` out of line, for a front's path without the table.
    @inline(never)
    package func valueOutOfLine(_ x: Double) -> Double { value(at: x) }

    /// x in [0, 1] through the solve table's kernel.
    @inlinable @inline(__always)
    static func value(at x: Double, _ kernel: BezierKernel) -> Double {
        kernel.usesRoot ? kernel.solve(x, RootVariable.self) : kernel.solve(x, LinearVariable.self)
    }

    /// x in [0, 1] before the solve table exists: counts the evaluation, and builds the table
    /// when the count passes `tableAfter`.
    @inline(never)
    func valueCounting(_ x: Double) -> Double {
        if let kernel = kernel(afterEvaluations: 1) { return Self.value(at: x, kernel) }
        return valueWithoutTable(x)
    }

    /// The solve table's kernel, counting `count` more evaluations first: nil while the count
    /// stays within `tableAfter`, else the table, built and published by the first caller
    /// past it (a thread that loses the race frees its own and uses the winner's). Nil too
    /// while the process's solve tables fill `solveTableBudget`: the curve then tries again
    /// each time its count passes another multiple of `tableAfter`.
    func kernel(afterEvaluations count: Int) -> BezierKernel? {
        if let table = kinetic_atomic_peek_pointer(slots + Self.solveSlot) { return BezierKernel(table) }
        // A tally, not a locked add: racing threads may lose a count, which only moves the
        // build by as much; the table is still published once.
        let total = kinetic_atomic_tally(UnsafeMutableRawPointer(slots + Self.countSlot), UInt(count))
        let every = UInt(Self.tableAfter), before = total &- UInt(count)
        guard total > every, before <= every || before / every != total / every,
              Self.reserveSolveTable() else { return nil }
        let fresh = buildSolveTable()
        guard let current = kinetic_atomic_publish_pointer(slots + Self.solveSlot, fresh) else {
            return BezierKernel(fresh)
        }
        fresh.deallocate()
        Self.releaseSolveTable()
        return BezierKernel(current)
    }

    /// The most bytes of solve tables alive in the process at once (about 2,700 tables). Past
    /// it a curve keeps evaluating without its table, to the same bits at the table-free
    /// cost, so that tens of thousands of hot distinct curves (a keyframe-heavy document)
    /// cost their constants, not 3 KB each. Batch tables are not counted: whether one
    /// exists changes the bits of a batch call, which must depend only on the call.
    package static let solveTableBudget = 8 << 20

    /// Bytes of one solve table.
    package static var solveTableBytes: Int { BezierKernel.allocationBytes }

    /// The process's live solve-table bytes (a counter updated atomically).
    nonisolated(unsafe) private static let liveSolveTableBytes = makeCounter()

    /// A process-wide counter at 0, for `kinetic_atomic_count` (never freed).
    static func makeCounter() -> UnsafeMutableRawPointer {
        let counter = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<UInt>.size,
                                                       alignment: MemoryLayout<UInt>.alignment)
        counter.storeBytes(of: 0, as: UInt.self)
        return counter
    }

    /// The process's live solve-table bytes now (for tests).
    package static var liveSolveTableByteCount: Int {
        Int(bitPattern: kinetic_atomic_count(liveSolveTableBytes, 0))
    }

    /// Counts one more solve table if that stays within the budget.
    private static func reserveSolveTable() -> Bool {
        let bytes = UInt(solveTableBytes)
        if kinetic_atomic_count(liveSolveTableBytes, bytes) <= UInt(solveTableBudget) { return true }
        releaseSolveTable()
        return false
    }

    private static func releaseSolveTable() {
        _ = kinetic_atomic_count(liveSolveTableBytes, 0 &- UInt(solveTableBytes))
    }

    /// The parameter ends of the lower and the upper half (see `BezierHalf.ends`), for tests;
    /// nil for the identity, which has no halves.
    package var halfEnds: (lower: Double, upper: Double)? {
        let c = constants
        return c.isIdentity ? nil : (c.lowerEnd, c.upperEnd)
    }

    /// The x of the inner nodes of both halves (for tests: the segment boundaries, where
    /// the look-up could go either way).
    package var nodeXs: [Double] {
        let c = constants
        if c.isIdentity { return [] }
        let lower = c.lower, upper = c.upper
        return (1..<Self.segmentCount).map { lower.nodeProgress($0) }
            + (1..<Self.segmentCount).map { 1 - upper.nodeProgress($0) }
    }

    /// For x in (0, 1) at least `endThreshold` from either end, with the solve table built: the
    /// segment that the table's look-up finds, and the segment by definition (the number of
    /// the half's inner nodes whose progress is at or below x's), for tests.
    package func lookUpSegment(at x: Double) -> (found: Int, expected: Int)? {
        guard let table = kinetic_atomic_peek_pointer(slots + Self.solveSlot) else { return nil }
        let kernel = BezierKernel(table)
        let (index, xx) = BezierKernel.half(of: x)
        let p = kernel.doubles + index * Self.halfStride, b = kernel.bytes + index * Self.byteStride
        let half = index == 0 ? constants.lower : constants.upper
        let expected = (1..<Self.segmentCount).filter { half.nodeProgress($0) <= xx }.count
        return (kernel.segmentAndVariable(xx, p, b).segment, expected)
    }

    /// Whether the solve table has been built (for tests and benchmarks).
    package var hasSolveTable: Bool { kinetic_atomic_load_pointer(slots + Self.solveSlot) != nil }

    /// Whether the batch table has been built (for tests and benchmarks).
    package var hasBatchTable: Bool {
        let built = kinetic_atomic_load_pointer(slots + Self.batchSlot)
        return built != nil && built != Self.noBatchTable
    }

    /// Whether the curve's batch calls are past `batchTableAfter` x and it has no batch table
    /// because the table would flag too much (for tests and benchmarks).
    package var declinedBatchTable: Bool { kinetic_atomic_load_pointer(slots + Self.batchSlot) == Self.noBatchTable }

    @inline(never)
    func extrapolate(_ x: Double) -> Double {
        if x.isNaN { return x }
        let c = constants
        if x < 0 {
            let gradient = c.startGradient
            return gradient == 0 ? 0 : Self.clampFinite(gradient * x)
        }
        let gradient = c.endGradient
        return gradient == 0 ? 1 : Self.clampFinite(1 + gradient * (x - 1))
    }

    // MARK: Slope

    package func slope(at x: Double) -> Double {
        let c = constants
        if x.isNaN { return x }
        if x < 0 { return c.startGradient }
        if x > 1 { return c.endGradient }
        if c.isIdentity { return 1 }
        // The mirrored half has the same slope at the mirrored point.
        let (index, xx) = BezierKernel.half(of: x)
        let half = index == 0 ? c.lower : c.upper
        let poly = half.poly
        let s = poly.solveBracketed(xx, lo: 0, hi: min(1, 2 * half.sEnd), guess: xx)
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

/// A curve's constants: its control points, its halves' parameter ends and its flags (the end
/// gradients are computed when asked).
@usableFromInline
package struct BezierConstants: Sendable {
    let x1, y1, x2, y2: Double
    /// The parameter ends of the lower and the upper half: each reaches the parameter where
    /// x = 1/2, which splits the halves (see `BezierHalf.ends`).
    let lowerEnd, upperEnd: Double
    /// dy/dx used for x < 0 and x > 1 (computed when asked: only extrapolation and the slope
    /// read them, so a new curve does not pay their divisions).
    var startGradient: Double { Self.endGradients(x1, y1, x2, y2).0 }
    var endGradient: Double { Self.endGradients(x1, y1, x2, y2).1 }
    let isIdentity: Bool
    /// Which halves interpolate in √x.
    let rootLower, rootUpper: Bool

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        isIdentity = x1 == y1 && x2 == y2
        rootLower = !isIdentity && x1 <= BezierTable.rootThreshold
        rootUpper = !isIdentity && 1 - x2 <= BezierTable.rootThreshold
        (lowerEnd, upperEnd) = isIdentity ? (0.5, 0.5) : BezierHalf.ends(BezierPolynomial(x1, y1, x2, y2), x1, x2)
    }

    var usesRoot: Bool { rootLower || rootUpper }

    /// The half of x ≤ 1/2: the curve itself.
    var lower: BezierHalf {
        BezierHalf(BezierPolynomial(x1, y1, x2, y2), root: rootLower, sEnd: lowerEnd, offset: 0, sign: 1)
    }

    /// The half of x > 1/2: the curve mirrored through (1/2, 1/2).
    var upper: BezierHalf {
        BezierHalf(BezierPolynomial(mirroring: x1, y1, x2, y2), root: rootUpper, sEnd: upperEnd, offset: 1, sign: -1)
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
        return (BezierTable.clampFinite(start), BezierTable.clampFinite(end))
    }
}
