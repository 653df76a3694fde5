import Foundation
import XCTest
import Kinetic
import TestSupport

/// The solve table is built lazily, after `tableAfter` (64) evaluations of a curve and its
/// copies: before it, each evaluation computes its segment on the fly. These tests check
/// that the values do not depend on which path gave them (bit for bit, on random and
/// degenerate curves, at random x and on both sides of every segment boundary), that the
/// tables are built when the rule says and shared as documented, and that threads racing
/// to build a curve's table all see the same values.
final class CubicBezierLazyTableTests: XCTestCase {
    /// The random and degenerate curves of issue 17's scalar set.
    static func curves(count: Int, seed: UInt64) -> [(Double, Double, Double, Double)] {
        var rng = SeededRandom(seed: seed)
        var points: [(Double, Double, Double, Double)] = [
            (0.25, 0.1, 0.25, 1), (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1),
            (0, 0, 1, 1), (1.0 / 3, 0, 2.0 / 3, 1), (1, 0, 0, 1), (0.999, 0, 0.001, 1), (0.99, 0.01, 0.01, 0.99),
            (0, 1, 0, 1), (0, 0.3, 0, 1), (0.95, 0.05, 0.05, 0.95), (0.99, 0, 0.01, 1), (0.9, 0.1, 0.1, 0.9),
            (0.34, 1.56, 0.64, 1), (0.6, -0.28, 0.735, 0.045), (0.68, -0.55, 0.265, 1.55),
            (1e-9, 0.5, 0.5, 1), (0.5, 0, 1 - 1e-9, 0.5), (1e-9, 1, 1 - 1e-9, 0), (0, 0, 0, 1), (1, 0, 1, 1),
            (0, 4, 1, -3), (0.5, 1e300, 0.5, -1e300), (0.3, 0x1p1010, 0.7, 1),
        ]
        while points.count < count {
            let x1 = rng.chance(0.1) ? 0 : rng.chance(0.1) ? rng.logUniform(1e-12, 1e-3) : rng.unit()
            let x2 = rng.chance(0.1) ? 1 : rng.chance(0.1) ? 1 - rng.logUniform(1e-12, 1e-3) : rng.unit()
            points.append((x1, rng.uniform(-1, 2), x2, rng.uniform(-1, 2)))
        }
        return points
    }

    /// x to evaluate a curve at: random in [0, 1], both halves' inner nodes (the segment
    /// boundaries, where a segment search could go one way or the other) and the doubles
    /// next to them, 1/2 and its neighbours, points near both ends, and a few outside [0, 1].
    static func xs(for c: CubicBezier, rng: inout SeededRandom) -> [Double] {
        var xs = (0..<96).map { _ in rng.unit() }
        for x in c.table.nodeXs where x > 0 && x < 1 { xs += [x.nextDown, x, x.nextUp] }
        let half = 0.5, end = 0x1p-26
        xs += [half.nextDown, half, half.nextUp, end, end.nextDown, 1 - end, 1e-300, 1 - 0x1p-53, 0, 1, -0.25, 1.5]
        return xs
    }

    func testValuesDoNotDependOnTheSolveTable() throws {
        var rng = SeededRandom(seed: 0x1A2_7AB1E)
        var mismatches: [String] = []
        var compared = 0
        // Curves equal to a preset share its table, which may be built already, and the
        // identity needs none: neither is a test of the path without the table.
        let lazy = Self.curves(count: 1200, seed: 0x5EED_17).filter { p in
            !(p.0 == p.1 && p.2 == p.3) && !CubicBezier.presets.contains { $0.curve.x1 == p.0 && $0.curve.y1 == p.1
                && $0.curve.x2 == p.2 && $0.curve.y2 == p.3 }
        }
        for p in lazy {
            let probe = try CubicBezier(p.0, p.1, p.2, p.3)
            let xs = Self.xs(for: probe, rng: &rng)
            // Without the table: a new curve for every 64 x, so that none reaches the rule.
            var without: [Double] = []
            var start = 0
            while start < xs.count {
                let fresh = try CubicBezier(p.0, p.1, p.2, p.3)
                let end = min(start + 64, xs.count)
                without += xs[start..<end].map(fresh.value(at:))
                XCTAssertFalse(fresh.table.hasSolveTable, "\(fresh) after \(end - start) evaluations")
                start = end
            }
            // With it: a curve whose table is built first.
            let warm = try CubicBezier(p.0, p.1, p.2, p.3)
            _ = warm.values(at: [Double](repeating: 0.3, count: 65))
            XCTAssertTrue(warm.table.hasSolveTable, "\(warm) after 65 evaluations")
            for (x, y) in zip(xs, without) where warm.value(at: x).bitPattern != y.bitPattern {
                mismatches.append("\(warm) at x = \(x): \(y) without the table, \(warm.value(at: x)) with it")
            }
            compared += xs.count
        }
        XCTAssertGreaterThan(compared, 150_000)
        XCTAssertTrue(mismatches.isEmpty, "\(mismatches.count) of \(compared): \(mismatches.prefix(10))")
    }

    func testTablesAreBuiltWhenTheCurvesUsePaysForThem() throws {
        let curve = try CubicBezier(0.3, 0.2, 0.6, 0.9)
        let copy = curve
        for k in 0..<32 { _ = curve.value(at: Double(k) / 32) }
        for k in 0..<32 { _ = copy.value(at: Double(k) / 32) }
        // Outside [0, 1] and at the identity nothing is solved, so nothing counts.
        _ = curve.value(at: -1)
        XCTAssertFalse(curve.table.hasSolveTable, "64 evaluations: constants only")
        _ = copy.value(at: 0.7)
        XCTAssertTrue(curve.table.hasSolveTable, "the 65th evaluation, by a copy, builds the shared table")
        XCTAssertFalse(curve.table.hasBatchTable)
        // Batch calls of 16 x or more count towards the batch table; it is built by the call
        // that takes the count past 8,192 x, and used by that call.
        _ = curve.values(at: [Double](repeating: 0.5, count: 15))
        for _ in 0..<7 { _ = curve.values(at: [Double](repeating: 0.5, count: 1024)) }
        let xs = (0..<1024).map { Double($0) / 1023 }
        let kernelValues = curve.values(at: xs)
        XCTAssertFalse(curve.table.hasBatchTable, "8,192 batch x: the solve kernel only")
        XCTAssertEqual(kernelValues.map(\.bitPattern), xs.map { curve.value(at: $0).bitPattern },
                       "before the batch table, a batch call gives value(at:)'s bits")
        _ = curve.values(at: [Double](repeating: 0.5, count: 16))
        XCTAssertTrue(curve.table.hasBatchTable, "the call past 8,192 x builds it")

        // One batch call of more than 64 x builds the solve table before it evaluates.
        let batch = try CubicBezier(0.1, 0.7, 0.2, 1)
        _ = batch.values(at: [0.1, 0.2])
        XCTAssertFalse(batch.table.hasSolveTable)
        _ = batch.values(at: [Double](repeating: 0.25, count: 63))
        XCTAssertTrue(batch.table.hasSolveTable)

        // Batch calls of 16 x or more within the first 64 evaluations build no table, not
        // even one for the call: they evaluate as value(at:) does then, to its bits.
        let small = try CubicBezier(0.2, -0.4, 0.6, 1.3)
        let xs16 = (0..<16).map { Double($0) / 15 }, xs48 = (0..<48).map { Double($0) / 47 + 1e-3 }
        let temporaryBefore = BezierTable.temporarySolveTableCount
        let (first, second) = (small.values(at: xs16), small.values(at: xs48))
        XCTAssertFalse(small.table.hasSolveTable, "64 evaluations in two batch calls: constants only")
        XCTAssertEqual(BezierTable.temporarySolveTableCount, temporaryBefore, "no solve table built for a call either")
        let other = try CubicBezier(0.2, -0.4, 0.6, 1.3)
        XCTAssertEqual(first.map(\.bitPattern), xs16.map { other.value(at: $0).bitPattern })
        XCTAssertEqual(second.map(\.bitPattern), xs48.map { other.value(at: $0).bitPattern })
        _ = small.values(at: xs16)
        XCTAssertTrue(small.table.hasSolveTable, "the next batch call passes 64 and builds it")

        let identity = try CubicBezier(0.2, 0.2, 0.7, 0.7)
        for k in 0..<200 { XCTAssertEqual(identity.value(at: Double(k) / 199), Double(k) / 199) }
        XCTAssertFalse(identity.table.hasSolveTable, "the identity needs no table")
    }

    func testSolveTablesStayWithinTheProcessBudget() throws {
        let perTable = BezierTable.solveTableBytes, budget = BezierTable.solveTableBudget
        let before = BezierTable.liveSolveTableByteCount
        let room = (budget - before) / perTable
        XCTAssertGreaterThan(room, 1000, "the tests before this one left most of the budget")
        var rng = SeededRandom(seed: 0xB0D6_E7)
        let xs = (0 ..< 65).map { _ in rng.unit() }
        var alive: [CubicBezier] = []
        var reference: [[Double]] = []
        for _ in 0 ..< room + 300 {
            let curve = try CubicBezier(rng.unit(), rng.uniform(-1, 2), rng.unit(), rng.uniform(-1, 2))
            // 65 evaluations: the rule builds the table where the budget allows.
            reference.append(curve.values(at: xs))
            alive.append(curve)
        }
        let built = alive.filter(\.table.hasSolveTable).count
        XCTAssertEqual(built, room, "tables up to the budget, then none")
        XCTAssertLessThanOrEqual(BezierTable.liveSolveTableByteCount, budget)
        // Curves without a table give the same values; a large batch call solves through a
        // solve table built for the call alone, to the same bits.
        let late = alive.last!
        XCTAssertFalse(late.table.hasSolveTable)
        XCTAssertEqual(late.values(at: xs).map(\.bitPattern), reference.last!.map(\.bitPattern))
        let wide = (0 ..< 1024).map { Double($0) / 1023 }
        let temporaryBefore = BezierTable.temporarySolveTableCount
        let batched = late.values(at: wide)
        XCTAssertEqual(BezierTable.temporarySolveTableCount, temporaryBefore + 1, "one table for the call")
        XCTAssertEqual(batched.map(\.bitPattern), wide.map { late.value(at: $0).bitPattern })
        XCTAssertFalse(late.table.hasSolveTable, "still over the budget")
        XCTAssertLessThanOrEqual(BezierTable.liveSolveTableByteCount, budget)
        // Freed tables make room: the next time its count passes a multiple of 64, a curve
        // without one builds it.
        alive.removeFirst(100)
        XCTAssertEqual(BezierTable.liveSolveTableByteCount, before + (room - 100) * perTable)
        _ = late.values(at: xs)
        XCTAssertTrue(late.table.hasSolveTable)
        XCTAssertEqual(late.values(at: wide).map(\.bitPattern), batched.map(\.bitPattern),
                       "a batch call gives the same bits with or without the solve table")
        alive.removeAll()
        XCTAssertEqual(BezierTable.liveSolveTableByteCount, before + perTable, "only `late` is left")
    }

    func testEqualCurvesShareTheirSolver() throws {
        let a = try CubicBezier(0.2, -0.4, 0.8, 1.3)
        let b = a
        XCTAssertTrue(a.table === b.table)
        for (_, preset) in CubicBezier.presets {
            XCTAssertTrue(try CubicBezier(preset.x1, preset.y1, preset.x2, preset.y2).table === preset.table)
        }
        // Keyframe tracks keep the curve they are given, so copies of one easing share one solver.
        let track = try KeyframeTrack<Double>(keyTimes: [0, 0.5, 1], values: [0, 1, 2],
                                              interpolation: .eased(a))
        XCTAssertEqual(track.value(at: 0.25).bitPattern, a.value(at: 0.5).bitPattern)
    }

    func testThreadsRacingToBuildTheTableSeeTheSameValues() throws {
        let points = Self.curves(count: 40, seed: 0x7EAD)
        let xs = (0..<4096).map { Double($0) / 4095 }
        // The expected values, from curves whose tables are built.
        let expected: [[UInt64]] = try points.map { p in
            let c = try CubicBezier(p.0, p.1, p.2, p.3)
            _ = c.values(at: [Double](repeating: 0.5, count: 100))
            return xs.map { c.value(at: $0).bitPattern }
        }
        let curves = try points.map { try CubicBezier($0.0, $0.1, $0.2, $0.3) }
        let lanes = 8
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<UInt64>.allocate(
            capacity: lanes * curves.count * xs.count)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for (k, curve) in curves.enumerated() {
                let base = (lane * curves.count + k) * xs.count
                // Each lane walks the x in its own order, so the lanes cross the rule at once.
                for j in 0..<xs.count {
                    let i = (j &* (2 * lane + 1)) % xs.count
                    results[base + i] = curve.value(at: xs[i]).bitPattern
                }
            }
        }
        for lane in 0..<lanes {
            for k in curves.indices {
                let base = (lane * curves.count + k) * xs.count
                let got = Array(results[base..<(base + xs.count)])
                XCTAssertEqual(got, expected[k], "lane \(lane), \(curves[k])")
            }
        }
        XCTAssertTrue(curves.allSatisfy { $0.table.hasSolveTable || ($0.x1 == $0.y1 && $0.x2 == $0.y2) })
    }
}
