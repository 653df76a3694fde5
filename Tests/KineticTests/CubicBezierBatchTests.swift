// Batch evaluation of one curve (Curves/BezierBatch.swift): the solve table's vectorised kernel
// (KineticSIMD's bezier_solve.c) against value(at:) bit for bit on every path, the batch
// table's kernel (bezier_table.c) across paths, the batch table's rule and its byte cap, and
// curves whose table is declined. Accuracy against Float80 is CubicBezierAccuracyTests' (its
// batch checks run both regimes).
import Kinetic
import KineticSIMD
import XCTest
import Dispatch
import KineticPlatform
import TestSupport

final class CubicBezierBatchTests: XCTestCase {
    private var paths: [Int32] {
        let paths = Array(KINETIC_SIMD_PATH_BASELINE ... kinetic_simd_best_path())
        return paths
    }

    /// x that probe every branch of the kernels: random, the ends and their neighbours, the
    /// end threshold and its neighbours, 1/2 and its neighbours, tiny, outside, NaN, and the
    /// nodes of both halves with their neighbours (where the look-up could go either way).
    private func probes(_ curve: CubicBezier, _ rng: inout SeededRandom) -> [Double] {
        var xs = (0 ..< 700).map { _ in rng.unit() }
        let t = 0x1p-26
        xs += [0, 1, -0.0, 0.5, 0.5.nextUp, 0.5.nextDown, 1e-300, 0x1p-1074, t, t.nextUp, t.nextDown, 1 - t,
               (1 - t).nextUp, (1 - t).nextDown, 1.0.nextDown, -1, 2, -1e300, .nan, .infinity, -.infinity]
        for x in curve.table.nodeXs { xs += [x, x.nextUp, x.nextDown] }
        return xs
    }

    /// Every value of the solve kernel, on every path, is value(at:)'s to the bit, and the lanes
    /// it leaves are exactly those outside [0, 1], within 2^-26 of an end, or on a segment that
    /// value(at:) solves by bracketing; over the random set and the degenerate families.
    func testSolveKernelGivesValueAtsBitsOnEveryPath() throws {
        var rng = SeededRandom(seed: 0x501E)
        var compared = 0, kernelLanes = 0, declined = 0
        for p in CubicBezierLazyTableTests.curves(count: 600, seed: 0x501F) {
            let curve = try CubicBezier(p.0, p.1, p.2, p.3)
            if curve.table.isIdentity { continue }
            let xs = probes(curve, &rng)
            let expected = xs.map { curve.value(at: $0) }
            for path in paths {
                guard let run = curve.table.solveKernelRun(xs, path: path) else {
                    XCTFail("\(curve): no solve table"); continue
                }
                if run.marked < 0 {
                    XCTAssertGreaterThan(curve.table.solveSteps, 4, "\(curve): the kernel declines only past 4 steps")
                    declined += 1
                    continue
                }
                XCTAssertEqual(run.marked, run.redo.reduce(0) { $0 + Int($1) }, "\(curve): the count of marked lanes")
                for (i, x) in xs.enumerated() {
                    XCTAssertTrue(run.redo[i] <= 1)
                    let inside = x >= 0 && x <= 1
                    let xx = x > 0.5 ? 1 - x : x
                    if !inside || xx < 0x1p-26 {
                        XCTAssertEqual(run.redo[i], 1, "\(curve) at \(x): left to the caller")
                    } else if run.redo[i] == 0 {
                        kernelLanes += 1
                        XCTAssertEqual(run.values[i].bitPattern, expected[i].bitPattern, "\(curve) at \(x), path \(path)")
                    }
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(kernelLanes, compared / 2, "most lanes are the kernel's own")
        XCTAssertLessThan(declined, 20, "few curves need more than 4 node comparisons")
    }

    /// The Newton kernel (bezier_newton.c), which the batch-table regime runs on the lanes the
    /// batch table leaves: on every path the same bits and the same lanes left; on a segment
    /// that is not flagged the solve kernel's value to the bit; on a flagged one every value
    /// within `tableBound` of the Float80 reference (not of value(at:): only accuracy is owed
    /// there); it leaves every lane that is outside [0, 1] or within 2^-26 of an end; and it
    /// certifies most flagged lanes at uniform random x (near 1/2 on a steep curve x′ may be
    /// too small to step, and those lanes are left).
    func testNewtonKernelPathsAgreeAndAreWithinTheTableBound() throws {
        var rng = SeededRandom(seed: 0x4E57)
        var degenerate: [(Double, Double, Double, Double)] = [
            (0.95, 0.05, 0.05, 0.95), (0.99, 0, 0.01, 1), (1, 0, 0, 1), (0.999, 0, 0.001, 1), (0.9, 0.1, 0.1, 0.9),
            (0.97, -0.5, 0.02, 1.7), (0.999999, 0, 0.000001, 1), (1, -1, 0, 2),
        ]
        for _ in 0 ..< 40 {
            // Near the triple root, with y anywhere in [−1, 2].
            degenerate.append((1 - rng.logUniform(1e-6, 0.1), rng.uniform(-1, 2), rng.logUniform(1e-6, 0.1), rng.uniform(-1, 2)))
        }
        var certified = 0, flaggedLanes = 0, uniformCertified = 0, uniformFlagged = 0
        for p in degenerate + CubicBezierLazyTableTests.curves(count: 200, seed: 0x4E58) {
            let curve = try CubicBezier(p.0, p.1, p.2, p.3)
            if curve.table.isIdentity { continue }
            let reference = BezierReference80(p.0, p.1, p.2, p.3)
            var xs = probes(curve, &rng)
            // Crowd the flagged band next to 1/2.
            xs += (0 ..< 300).map { _ in 0.5 + (rng.chance(0.5) ? 1 : -1) * rng.logUniform(1e-12, 0.05) }
            guard let solve = curve.table.solveKernelRun(xs, path: kinetic_simd_best_path()), solve.marked >= 0 else { continue }
            var runs: [BezierKernelRun] = []
            for path in paths {
                guard let run = curve.table.newtonKernelRun(xs, path: path) else { continue }
                XCTAssertGreaterThanOrEqual(run.marked, 0, "\(curve): the Newton kernel declines only where the solve kernel does")
                XCTAssertEqual(run.marked, run.redo.reduce(0) { $0 + Int($1) }, "\(curve): the count of left lanes")
                runs.append(run)
            }
            guard let first = runs.first else { continue }
            for run in runs.dropFirst() {
                XCTAssertEqual(run.redo, first.redo, "\(curve): the paths leave different lanes")
                for i in xs.indices where run.redo[i] == 0 {
                    XCTAssertEqual(run.values[i].bitPattern, first.values[i].bitPattern, "\(curve) at \(xs[i]): the paths differ")
                }
            }
            for (i, x) in xs.enumerated() {
                let inside = x >= 0 && x <= 1
                let xx = x > 0.5 ? 1 - x : x
                if !inside || xx < 0x1p-26 {
                    XCTAssertEqual(first.redo[i], 1, "\(curve) at \(x): left to the caller")
                    continue
                }
                if solve.redo[i] == 0 {
                    // A segment that the solve kernel takes (not flagged): its value.
                    XCTAssertEqual(first.redo[i], 0, "\(curve) at \(x): solved")
                    XCTAssertEqual(first.values[i].bitPattern, solve.values[i].bitPattern, "\(curve) at \(x): the solve's bits")
                    continue
                }
                // The probes' first 700 x are uniform in [0, 1].
                flaggedLanes += 1
                if i < 700 { uniformFlagged += 1 }
                guard first.redo[i] == 0 else { continue }
                certified += 1
                if i < 700 { uniformCertified += 1 }
                let error = abs(first.values[i] - reference.value(at: x))
                XCTAssertLessThanOrEqual(error, Self.tableBound(curve), "\(curve) at \(x): Newton's value")
            }
        }
        XCTAssertGreaterThan(flaggedLanes, 2_000, "the degenerate curves flag lanes next to 1/2")
        XCTAssertGreaterThan(uniformCertified, uniformFlagged * 9 / 10,
                             "most flagged lanes at uniform x are certified (\(uniformCertified) of \(uniformFlagged))")
        print("[Newton kernel] \(certified) of \(flaggedLanes) flagged lanes certified and checked against Float80 "
              + "(\(uniformCertified) of \(uniformFlagged) at uniform x)")
    }

    /// How far a batch-table value may be from value(at:): 2e-13 times the curve's y range
    /// (max(1, |y1|, |y2|), which bounds |y|), as a double's rounding of y grows with |y|.
    static func tableBound(_ c: CubicBezier) -> Double { 2e-13 * max(1, abs(c.y1), abs(c.y2)) }

    /// Curves with large control values, as `CubicBezierLazyTableTests.curves` gives small ones.
    static func largeCurves(count: Int, seed: UInt64) -> [(Double, Double, Double, Double)] {
        var rng = SeededRandom(seed: seed)
        var points: [(Double, Double, Double, Double)] = [(0.6748838889814026, 478.38, 0.54, -464.45)]
        while points.count < count {
            func big() -> Double { (rng.chance(0.5) ? 1 : -1) * rng.logUniform(2, 1e5) }
            points.append((rng.unit(), big(), rng.unit(), rng.chance(0.3) ? rng.uniform(-1, 2) : big()))
        }
        return points
    }

    /// The batch table's kernel gives the same bits on every path and in its blocks (16 lanes,
    /// 32 on the AVX-512 path) as lane by lane, and its lanes are within `tableBound` of
    /// value(at:).
    func testTableKernelPathsAgree() throws {
        var rng = SeededRandom(seed: 0x7AB1E)
        var tables = 0
        for p in CubicBezierLazyTableTests.curves(count: 300, seed: 0x7AB2) + Self.largeCurves(count: 60, seed: 0x7AB3) {
            let c = try CubicBezier(p.0, p.1, p.2, p.3)
            let xs = probes(c, &rng)
            var results: [[UInt64]] = []
            for path in paths {
                guard let run = c.table.batchTableRun(xs, path: path) else { continue }
                XCTAssertEqual(run.marked, run.redo.reduce(0) { $0 + Int($1) })
                for (i, x) in xs.enumerated() where run.redo[i] == 0 {
                    XCTAssertLessThanOrEqual(abs(run.values[i] - c.value(at: x)), Self.tableBound(c), "\(c) at \(x)")
                }
                results.append(zip(run.values, run.redo).map { $1 == 0 ? $0.bitPattern : 0 } + run.redo.map(UInt64.init))
            }
            if !results.isEmpty { tables += 1 }
            for r in results.dropFirst() { XCTAssertEqual(r, results[0], "\(c): a vector path and baseline differ") }
            // The kernel runs 16 or 32 lanes at a time with the records transposed, and the rest
            // lane by lane: a call of one x (the lane loop alone) gives each lane's bits.
            if tables <= 25, let all = results.first, let path = paths.last {
                for (i, x) in xs.enumerated() {
                    guard let one = c.table.batchTableRun([x], path: path) else { continue }
                    XCTAssertEqual(one.redo[0], UInt8(all[xs.count + i]), "\(c) at \(x): redo alone")
                    if one.redo[0] == 0 {
                        XCTAssertEqual(one.values[0].bitPattern, all[i], "\(c) at \(x): the block and the lane loop differ")
                    }
                }
            }
        }
        XCTAssertGreaterThan(tables, 250)
    }

    /// A curve's tables stay within the per-curve cap, and a curve past the rule has its batch
    /// table or has declined it; either way its batch values stay within `tableBound` of
    /// value(at:), and a declined curve's are value(at:)'s bits. The table's certification is
    /// absolute, so curves with large control values flag more segments or decline it; some
    /// of them still build one.
    func testBatchTablesStayWithinTheCapOrAreDeclined() throws {
        XCTAssertLessThanOrEqual(BezierTable.batchTableBytes + BezierTable.solveTableBytes, BezierTable.tableByteCap)
        var rng = SeededRandom(seed: 0xCA9)
        var built = 0, declined = 0, largeBuilt = 0
        let large = Self.largeCurves(count: 40, seed: 0xCAB)
        for p in CubicBezierLazyTableTests.curves(count: 120, seed: 0xCAA) + large {
            let c = try CubicBezier(p.0, p.1, p.2, p.3)
            if c.table.isIdentity { continue }
            let xs = (0 ..< 4096).map { _ in rng.unit() }
            for _ in 0 ..< 3 { _ = c.values(at: xs) }
            XCTAssertTrue(c.table.hasBatchTable || c.table.declinedBatchTable, "\(c): decided past 8,192 x")
            let got = c.values(at: xs)
            for (x, y) in zip(xs, got) {
                let e = c.value(at: x)
                if c.table.declinedBatchTable {
                    XCTAssertEqual(y.bitPattern, e.bitPattern, "\(c) at \(x)")
                } else {
                    XCTAssertLessThanOrEqual(abs(y - e), Self.tableBound(c), "\(c) at \(x)")
                }
            }
            if c.table.hasBatchTable { built += 1 } else { declined += 1 }
            if c.table.hasBatchTable && large.contains(where: { $0 == p }) { largeBuilt += 1 }
        }
        print("[batch tables] \(built) built, \(declined) declined; \(largeBuilt) of \(large.count) curves with large y built")
        XCTAssertGreaterThan(built, 90, "most curves get a batch table (\(declined) declined)")
        XCTAssertGreaterThanOrEqual(largeBuilt, 5, "curves with large y can have a batch table")
    }

    /// The cube root behind the closed-form starts, against the x87 `cbrtl` (64-bit
    /// significand, so its rounding is far below a double's): within 4 units in the last place
    /// over the whole double range, subnormals and the largest values included, both signs.
    func testCubeRootIsWithinFourUlpsOverTheRange() {
        var rng = SeededRandom(seed: 0xCB27)
        var worst = 0.0, worstAt = 0.0
        var samples: [Double] = [1, 8, 27, 0.125, 2, 3, .leastNonzeroMagnitude, .leastNormalMagnitude,
                                 .greatestFiniteMagnitude, 0x1p-960, 0x1p960, (0x1p-960).nextDown, (0x1p960).nextUp]
        for _ in 0 ..< 200_000 {
            samples.append(Double(sign: .plus, exponent: Int(rng.unit() * 2098) - 1074, significand: 1 + rng.unit()))
        }
        samples += samples.map { -$0 }
        for v in samples where v != 0 && v.isFinite {
            let got = BezierPolynomial.cubeRoot(v)
            let exact = cbrtl(Float80(v))
            let ulps = Double(abs(Float80(got) - exact)) / Double(exact).ulp
            if ulps > worst { worst = ulps; worstAt = v }
        }
        XCTAssertLessThanOrEqual(worst, 4, "worst at \(worstAt)")
        XCTAssertEqual(BezierPolynomial.cubeRoot(0), 0)
        XCTAssertEqual(BezierPolynomial.cubeRoot(-0.0).sign, .minus)
        XCTAssertEqual(BezierPolynomial.cubeRoot(.infinity), .infinity)
        XCTAssertEqual(BezierPolynomial.cubeRoot(-.infinity), -.infinity)
        XCTAssertTrue(BezierPolynomial.cubeRoot(.nan).isNaN)
    }

    /// Threads racing through the batch rule on shared curves: each call's values are all the
    /// solve kernel's (value(at:)'s bits) or all the batch table's (the table is read once per
    /// call), never a mixture, and every curve ends with its table built or declined once.
    func testThreadsRacingThroughTheBatchRuleSeeOneRegimePerCall() throws {
        let points = CubicBezierLazyTableTests.curves(count: 24, seed: 0xBA7C).filter { $0.0 != $0.1 || $0.2 != $0.3 }
        let xs = (0 ..< 2048).map { Double($0) / 2047 }
        let expected: [(kernel: [UInt64], table: [UInt64])] = try points.map { p in
            let c = try CubicBezier(p.0, p.1, p.2, p.3)
            let (kernel, table) = c.batchRegimes(xs)
            return ((kernel ?? table).map(\.bitPattern), table.map(\.bitPattern))
        }
        let curves = try points.map { try CubicBezier($0.0, $0.1, $0.2, $0.3) }
        let lanes = 6, calls = 4
        nonisolated(unsafe) let outcomes = UnsafeMutableBufferPointer<Int>.allocate(capacity: lanes * curves.count * calls)
        defer { outcomes.deallocate() }
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var out = [Double](repeating: 0, count: xs.count)
            for call in 0 ..< calls {
                for (k, curve) in curves.enumerated() {
                    xs.withUnsafeBufferPointer { src in
                        out.withUnsafeMutableBufferPointer { dst in try! curve.values(at: src, into: dst) }
                    }
                    let bits = out.map(\.bitPattern)
                    // 1: the kernel's values, 2: the table's, 3: both (a declined table), 0: neither.
                    outcomes[(lane * curves.count + k) * calls + call] =
                        (bits == expected[k].kernel ? 1 : 0) | (bits == expected[k].table ? 2 : 0)
                }
            }
        }
        XCTAssertFalse(outcomes.contains(0), "a call mixed the two regimes, or matched neither")
        for curve in curves {
            XCTAssertTrue(curve.table.hasBatchTable || curve.table.declinedBatchTable, "\(curve): past 8,192 x")
        }
    }

    /// A batch call's values do not depend on how its x are grouped: the lanes that the batch
    /// table leaves are gathered across blocks and solved together, so the same x must give
    /// the same bits in one long call (the gathered lanes overflow the redo area several
    /// times), in short calls of many sizes, in reverse order, and in place. Steep curves
    /// (many lanes left) and the random set, each past its batch table's rule.
    func testBatchValuesDoNotDependOnHowTheCallGroupsTheirX() throws {
        var rng = SeededRandom(seed: 0x6A7E)
        var withTable = 0, marked = 0
        let steep: [(Double, Double, Double, Double)] = [(0.9, 0.1, 0.1, 0.9), (0.95, 0.05, 0.05, 0.95),
                                                        (0.99, 0.01, 0.01, 0.99), (0.8, -0.2, 0.2, 1.2)]
        for p in steep + CubicBezierLazyTableTests.curves(count: 120, seed: 0x6A7F) {
            let c = try CubicBezier(p.0, p.1, p.2, p.3)
            _ = c.values(at: (0 ..< 9000).map { Double($0) / 8999 })
            if c.table.hasBatchTable { withTable += 1 }
            let xs = probes(c, &rng)
            if let run = c.table.batchTableRun(xs, path: kinetic_simd_best_path()) {
                marked += run.marked
                // The long call below gathers more lanes than one redo takes (256): it flushes
                // in the middle of the call, in place as well.
                if steep.contains(where: { $0 == p }) { XCTAssertGreaterThan(run.marked * 8, 256, "\(c)") }
            }
            let whole = c.values(at: xs).map(\.bitPattern)
            // One call over the x repeated eight times, out of place and in place.
            let repeated = Array(repeating: xs, count: 8).flatMap { $0 }
            let long = c.values(at: repeated).map(\.bitPattern)
            XCTAssertEqual(long, Array(repeating: whole, count: 8).flatMap { $0 }, "\(c): one long call")
            var longInPlace = repeated
            longInPlace.withUnsafeMutableBufferPointer { c.evaluate(inPlace: $0) }
            XCTAssertEqual(longInPlace.map(\.bitPattern), long, "\(c): one long call in place")
            var chunked: [UInt64] = [], start = 0, k = 0
            let sizes = [16, 17, 63, 64, 65, 127, 200, 255, 257, 31]
            while start < xs.count {
                var end = min(xs.count, start + sizes[k % sizes.count])
                // Every call takes the batch path (a call under 16 x evaluates one x at a time,
                // whose bits the table's may differ from in the last place).
                if xs.count - end < 16 { end = xs.count }
                chunked += c.values(at: Array(xs[start ..< end])).map(\.bitPattern)
                start = end
                k += 1
            }
            XCTAssertEqual(chunked, whole, "\(c): calls of many sizes")
            XCTAssertEqual(Array(c.values(at: xs.reversed()).map(\.bitPattern).reversed()), whole, "\(c): reversed")
            var inPlace = xs
            inPlace.withUnsafeMutableBufferPointer { c.evaluate(inPlace: $0) }
            XCTAssertEqual(inPlace.map(\.bitPattern), whole, "\(c): in place")
        }
        XCTAssertGreaterThan(withTable, 100)
        XCTAssertGreaterThan(marked, 2000, "the steep curves leave many lanes to the solve kernel")
    }
}
