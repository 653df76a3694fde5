import KineticSIMD

/// Batch evaluation of one curve over many x: through the solve table's vectorised kernel
/// (`kinetic_simd_bezier_solve`, the same bits as ``CubicBezier/value(at:)``) until the
/// curve's batch use pays for its batch table (`batchTableAfter`), then through
/// ``BezierBatchTable``, unless the curve's batch table would flag too much.
///
/// Both kernels are C (KineticSIMD's bezier_solve.c and bezier_table.c), vectorised to the
/// widest instruction set the processor has, with no data-dependent branch. Each runs over
/// blocks of `batchBlock` x and marks the lanes it leaves (outside [0, 1], NaN, next to an
/// end, on a flagged segment), which take ``CubicBezier/value(at:)`` (on the batch table, a
/// lane goes first to a third vectorised kernel, bezier_newton.c, which solves it as the
/// solve kernel does or, on a flagged segment of the solve table, takes certified Newton
/// steps: `redo`), so every element is what that guarantees: within
/// 1e-12 · max(1, |y1|, |y2|) of the exact value, exact at 0 and 1, extrapolated outside
/// [0, 1]. Before the batch table exists a batch call's values are
/// ``CubicBezier/value(at:)``'s bit for bit; on the table they may differ from them in the
/// last bits (within 2e-13 · max(1, |y1|, |y2|) of them; the table certifies each segment
/// to an absolute 2e-13, and the rounding of y grows with |y|). A call within the
/// curve's first `tableAfter` evaluations, before its solve table, evaluates one x at a time
/// without a table, as ``CubicBezier/value(at:)`` does then.
extension BezierTable {
    /// Batch calls with fewer x evaluate one x at a time.
    static let batchMinimum = 16
    /// The batch x (in calls of `batchMinimum` or more) a curve evaluates before its batch
    /// table: the call that takes its count past this builds the table and uses it. The
    /// table costs about as much to build as this many x through the solve kernel, so a
    /// curve evaluated in a few small batch calls never builds it, one evaluated in many
    /// pays at most that much more through the kernel first, and a single call this large
    /// gains more from the table than the table costs.
    static let batchTableAfter = 8192
    /// Lanes per block: the out-of-line redo is decided once per block.
    static let batchBlock = 64
    /// The most marked lanes gathered for one call of the solve kernel (a multiple of
    /// `batchBlock`): the redo runs when the next block's lanes might not fit, and at the end.
    static let redoBatch = 4 * batchBlock

    func values(at xs: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
        guard let src = xs.baseAddress, let dst = out.baseAddress else { return }
        let n = xs.count
        if isIdentity {
            for k in 0..<n { dst[k] = value(at: src[k]) }
            return
        }
        // The call's x count towards the solve table's rule as one evaluation each.
        let kernel = kernel(afterEvaluations: n)
        if n < Self.batchMinimum {
            if let kernel {
                each(src, dst, n) { Self.value(at: $0, kernel) }
            } else {
                each(src, dst, n) { valueWithoutTable($0) }
            }
            return
        }
        if let table = batchTable(afterBatch: n) {
            // The table's flagged segments (steep curves, next to x = 1/2) go to the solve
            // table's kernels, gathered across blocks (see `blocks` and `redo`).
            let root: Int32 = table.usesRoot ? 1 : 0
            blocks(src, dst, n, redoKernel: kernel, fallbackKernel: kernel) { x, y, redo, count in
                kinetic_simd_bezier_table(BezierLanes.simdPath, table.records, table.scale, table.upperOffset, root,
                                          x, y, redo, count)
            }
        } else if let kernel {
            solveBatch(kernel, src, dst, n)
        } else if n <= Self.tableAfter {
            // Within the curve's first `tableAfter` evaluations (or a small call on a curve
            // past the budget): one x at a time, as value(at:) does then.
            each(src, dst, n) { valueWithoutTable($0) }
        } else {
            // The process's solve tables are at their budget (a call of more than `tableAfter`
            // x takes the count past the rule): a table for this call alone, which costs less
            // than that many x without one (the values are the same with it or without).
            let table = buildSolveTable()
            _ = kinetic_atomic_count(Self.temporarySolveTables, 1)
            solveBatch(BezierKernel(table), src, dst, n)
            table.deallocate()
        }
    }

    /// The solve kernel over many x (`kinetic_simd_bezier_solve`, vectorised): each value is
    /// `value(at:)`'s bit for bit.
    private func solveBatch(_ kernel: BezierKernel, _ src: UnsafePointer<Double>,
                            _ dst: UnsafeMutablePointer<Double>, _ n: Int) {
        let table = kernel.table
        blocks(src, dst, n, fallbackKernel: kernel) { x, y, redo, count in
            kinetic_simd_bezier_solve(BezierLanes.simdPath, table, x, y, redo, count)
        }
    }

    /// Runs a vectorised kernel over blocks of `batchBlock` x: each block's x are copied aside
    /// first (so the input may be the output), the kernel writes the block's values and marks
    /// the lanes it leaves (outside [0, 1], next to an end, on a flagged segment). With a
    /// `redoKernel`, those lanes' x and places are gathered across blocks, up to `redoBatch`
    /// of them, and run through `redo`'s kernel together (one call for many blocks, with
    /// full vectors: a steep curve marks about an eighth of its lanes, a few per block); what
    /// is left takes `value(at:)`'s arithmetic through `fallbackKernel` (without a table where
    /// it is nil), so the call's x are counted once. A kernel that returns -1 wrote nothing:
    /// the block takes that arithmetic throughout.
    @inline(__always)
    private func blocks(_ input: UnsafePointer<Double>, _ dst: UnsafeMutablePointer<Double>, _ n: Int,
                        redoKernel: BezierKernel? = nil, fallbackKernel: BezierKernel?,
                        _ kernel: (UnsafePointer<Double>, UnsafeMutablePointer<Double>, UnsafeMutablePointer<UInt8>,
                                   Int) -> Int) {
        let block = Self.batchBlock, batch = Self.redoBatch
        // One scratch area (one stack-size check): the block's x, the gathered lanes' x and
        // their values, the gathered lanes' places in `dst`, then the kernel's marks and the
        // redo's.
        let doubles = block + 2 * batch
        let bytes = (doubles + batch) * 8 + block + batch
        withUnsafeTemporaryAllocation(byteCount: bytes, alignment: 8) { scratch in
            let base = scratch.baseAddress!
            let x = base.bindMemory(to: Double.self, capacity: doubles), xs = x + block
            let lanes = (base + doubles * 8).bindMemory(to: Int.self, capacity: batch)
            let flags = (base + (doubles + batch) * 8).bindMemory(to: UInt8.self, capacity: block + batch)
            var gathered = 0
            var start = 0
            while start < n {
                let count = min(block, n - start)
                x.update(from: input + start, count: count)
                let out = dst + start
                let marked = kernel(x, out, flags, count)
                if marked < 0 {
                    for k in 0..<count { out[k] = value(at: x[k], fallbackKernel) }
                } else if marked > 0, let redoKernel {
                    if gathered + count > batch {
                        redo(dst, gathered, redoKernel, xs, flags + block, lanes)
                        gathered = 0
                    }
                    for k in 0..<count {
                        // Branch-free gather: every lane is written, only marked ones advance.
                        lanes[gathered] = start + k
                        xs[gathered] = x[k]
                        gathered &+= Int(flags[k])
                    }
                } else if marked > 0 {
                    for k in 0..<count where flags[k] != 0 { out[k] = value(at: x[k], fallbackKernel) }
                }
                start += count
            }
            if gathered > 0, let redoKernel { redo(dst, gathered, redoKernel, xs, flags + block, lanes) }
        }
    }

    /// The `m` gathered lanes (their x in `xs`, their places in `lanes`), in the batch-table
    /// regime, through the Newton kernel (`kinetic_simd_bezier_newton`, values into
    /// `xs + redoBatch`), then `value(at:)` for what that leaves; each value goes to its place
    /// in `dst`.
    ///
    /// A lane on a segment of the solve table that is not flagged takes the solve kernel's
    /// value (the same arithmetic, `value(at:)`'s bits). On a flagged segment only accuracy is
    /// owed here (not `value(at:)`'s bits): away from where x′ nearly vanishes, Newton's method
    /// from the segment's quintic guess without its last term converges in a few steps,
    /// cheaper than the closed-form solve that `value(at:)` takes there
    /// (`BezierKernel.solveFlagged`: Cardano's formula, its cube root, an exact residual).
    /// Each step is taken only inside the segment's range, and only while x′ there is at least
    /// 0.05 (below it the iteration slows, as x′ vanishes at a triple root, and the rounding of
    /// x(t) would move t, and y with it, by more than the bound below allows); the result is
    /// taken once Taylor's remainder bounds what the step leaves by 2^-51 of t (or of 1/x′,
    /// the band in which the rounding of x(t) moves t). That leaves t within a few units of
    /// 2^-53 / x′ of the root and y within |dy/dt| times that: about 1e-13 · max(1, |y1|, |y2|)
    /// at worst, inside the 2e-13 · max(1, |y1|, |y2|) that the batch table itself is held to.
    /// Anything else (an end, outside [0, 1], a small x′, no convergence in
    /// `KINETIC_BEZIER_NEWTON_STEPS` steps) takes `value(at:)`. The lanes step together: one
    /// vectorised pass over all of them per step, so that one lane's convergence is not a
    /// branch the next lane's step waits on, and each lane is looked up once.
    @inline(never)
    private func redo(_ dst: UnsafeMutablePointer<Double>, _ m: Int, _ kernel: BezierKernel,
                      _ xs: UnsafeMutablePointer<Double>, _ marks: UnsafeMutablePointer<UInt8>,
                      _ lanes: UnsafeMutablePointer<Int>) {
        let ys = xs + Self.redoBatch
        guard !constants.isIdentity,
              kinetic_simd_bezier_newton(BezierLanes.simdPath, kernel.table, xs, ys, marks, m) >= 0 else {
            for j in 0..<m { dst[lanes[j]] = value(at: xs[j], kernel) }
            return
        }
        for j in 0..<m { dst[lanes[j]] = marks[j] != 0 ? value(at: xs[j], kernel) : ys[j] }
    }

    /// `value(at:)`'s value without counting the evaluation (the batch call has counted its
    /// x): through `kernel` where there is one, else without a table, the same bits either way.
    @inline(__always)
    private func value(at x: Double, _ kernel: BezierKernel?) -> Double {
        guard x >= 0 && x <= 1 else { return extrapolate(x) }
        if constants.isIdentity { return x }
        if let kernel { return Self.value(at: x, kernel) }
        return valueWithoutTable(x)
    }

    /// The batch table once the curve's batch calls (with this one's `count` x) have passed
    /// `batchTableAfter` x: built and published by the first caller past it (a thread that
    /// loses the race frees its own), or nil before that and for a curve whose table would
    /// flag too much (`noBatchTable` is published for it, so it is decided once).
    private func batchTable(afterBatch count: Int) -> BezierBatchTable? {
        let slot = slots + Self.batchSlot
        if let built = kinetic_atomic_load_pointer(slot) {
            return built == Self.noBatchTable ? nil : BezierBatchTable.unboxed(built)
        }
        let total = kinetic_atomic_count(UnsafeMutableRawPointer(slots + Self.batchCountSlot), UInt(count))
        guard total > UInt(Self.batchTableAfter) else { return nil }
        let c = constants
        let fresh = BezierBatchTable.boxed(x1: c.x1, y1: c.y1, x2: c.x2, y2: c.y2, usesRoot: c.usesRoot)
            ?? Self.noBatchTable
        let current = kinetic_atomic_publish_pointer(slot, fresh)
        if let current {
            // Another thread published first: use its table.
            if fresh != Self.noBatchTable { BezierBatchTable.release(fresh) }
            return current == Self.noBatchTable ? nil : BezierBatchTable.unboxed(current)
        }
        return fresh == Self.noBatchTable ? nil : BezierBatchTable.unboxed(fresh)
    }

    /// How many solve tables batch calls have built for themselves alone (a counter updated
    /// atomically; for tests).
    nonisolated(unsafe) private static let temporarySolveTables = makeCounter()

    /// The solve tables batch calls have built for one call so far (for tests).
    package static var temporarySolveTableCount: Int {
        Int(bitPattern: kinetic_atomic_count(temporarySolveTables, 0))
    }

    /// Published in the batch slot of a curve that has no batch table (never dereferenced).
    nonisolated(unsafe) static let noBatchTable = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)

    /// One x at a time: `solve` for x in [0, 1], the extrapolation (or NaN) elsewhere.
    @inline(__always)
    private func each(_ src: UnsafePointer<Double>, _ dst: UnsafeMutablePointer<Double>, _ n: Int,
                      _ solve: (Double) -> Double) {
        for k in 0..<n {
            let x = src[k]
            dst[k] = x >= 0 && x <= 1 ? solve(x) : extrapolate(x)
        }
    }
}

// MARK: For tests: the kernels called directly, on a chosen path.

/// One run of a batch kernel over some x: the values, the lanes it left to the caller (1) and
/// the count it returned (-1: the kernel declined the table).
package struct BezierKernelRun {
    package let values: [Double]
    package let redo: [UInt8]
    package let marked: Int
}

extension BezierTable {
    /// The solve kernel (`kinetic_simd_bezier_solve`) on `path` over `xs`, through the curve's
    /// solve table, built first if need be; nil for the identity, which has none.
    package func solveKernelRun(_ xs: [Double], path: Int32) -> BezierKernelRun? {
        if isIdentity { return nil }
        let table = kinetic_atomic_load_pointer(slots + Self.solveSlot) ?? buildSolveTable()
        defer { if kinetic_atomic_load_pointer(slots + Self.solveSlot) != table { table.deallocate() } }
        var values = [Double](repeating: -7, count: xs.count), redo = [UInt8](repeating: 9, count: xs.count)
        let marked = kinetic_simd_bezier_solve(path, table, xs, &values, &redo, xs.count)
        return BezierKernelRun(values: values, redo: redo, marked: marked)
    }

    /// The Newton kernel of flagged lanes (`kinetic_simd_bezier_newton`) on `path` over `xs`,
    /// through the curve's solve table, built first if need be; nil for the identity. Its
    /// `redo` is the lanes the kernel leaves.
    package func newtonKernelRun(_ xs: [Double], path: Int32) -> BezierKernelRun? {
        if isIdentity { return nil }
        let table = kinetic_atomic_load_pointer(slots + Self.solveSlot) ?? buildSolveTable()
        defer { if kinetic_atomic_load_pointer(slots + Self.solveSlot) != table { table.deallocate() } }
        var values = [Double](repeating: -7, count: xs.count), left = [UInt8](repeating: 9, count: xs.count)
        let marked = kinetic_simd_bezier_newton(path, table, xs, &values, &left, xs.count)
        return BezierKernelRun(values: values, redo: left, marked: marked)
    }

    /// The solve table's step count (the kernel declines above 4).
    package var solveSteps: Int {
        let table = buildSolveTable()
        defer { table.deallocate() }
        return BezierKernel(table).steps
    }

    /// The batch table's kernel (`kinetic_simd_bezier_table`) on `path` over `xs`, through a
    /// batch table built for the call; nil for the identity and where the table is declined.
    package func batchTableRun(_ xs: [Double], path: Int32) -> BezierKernelRun? {
        let c = constants
        if c.isIdentity { return nil }
        guard let table = BezierBatchTable(x1: c.x1, y1: c.y1, x2: c.x2, y2: c.y2, usesRoot: c.usesRoot) else {
            return nil
        }
        defer { table.records.deallocate() }
        var values = [Double](repeating: -7, count: xs.count), redo = [UInt8](repeating: 9, count: xs.count)
        let marked = kinetic_simd_bezier_table(path, table.records, table.scale, table.upperOffset,
                                               table.usesRoot ? 1 : 0, xs, &values, &redo, xs.count)
        return BezierKernelRun(values: values, redo: redo, marked: marked)
    }
}

extension BezierTable {
    /// Bytes of a curve's batch table (for tests and benchmarks).
    package static var batchTableBytes: Int { BezierBatchTable.tableBytes }
    /// The most bytes a curve's solve and batch tables take together.
    package static var tableByteCap: Int { BezierBatchTable.byteCap }
}
