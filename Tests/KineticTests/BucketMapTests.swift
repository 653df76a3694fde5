import KineticSIMD
import Kinetic
import XCTest
import TestSupport

/// `kinetic_simd_bucket_map64`, the bezier table's bucket map, against a brute-force count: the map
/// decides which segment every scalar evaluation starts from, and the returned count how many
/// increments it takes, so both must be exact for every sorted set of bucket indices.
final class BucketMapTests: XCTestCase {
    func testMapAndLargestCountMatchBruteForce() {
        var rng = SeededRandom(seed: 64)
        // Slack after the map: the function writes up to 63 bytes past map[63].
        var buffer = [UInt8](repeating: 0xAA, count: 64 + 64 + 16)
        var cases: [[UInt8]] = [[], [0], [64], [63, 64], [1, 1, 1, 1], Array(repeating: 64, count: 15),
                                (1...15).map { UInt8($0 * 4) }]
        for _ in 0..<2000 {
            let count = Int(rng.next() % 16)
            // Mostly spread like the nodes of a half; some clustered, some at the top end.
            let spread = rng.chance(0.5) ? 65 : Int(rng.next() % 8) + 1
            let base = Int(rng.next() % UInt64(66 - spread))
            cases.append((0..<count).map { _ in UInt8(base + Int(rng.next() % UInt64(spread))) }.sorted())
        }
        for indices in cases {
            for k in buffer.indices { buffer[k] = 0xAA }
            let most = indices.withUnsafeBufferPointer { i in
                buffer.withUnsafeMutableBufferPointer { m in
                    Int(kinetic_simd_bucket_map64(i.baseAddress, Int32(indices.count), m.baseAddress!))
                }
            }
            for j in 0..<64 {
                let expected = indices.filter { Int($0) <= j }.count
                XCTAssertEqual(Int(buffer[j]), expected, "map[\(j)] for \(indices)")
            }
            let largest = (0...64).map { j in indices.filter { Int($0) == j }.count }.max() ?? 0
            XCTAssertEqual(most, largest, "largest count for \(indices)")
            // Nothing beyond the slack is touched.
            XCTAssertTrue(buffer[128...].allSatisfy { $0 == 0xAA }, "past the slack for \(indices)")
        }
    }
}

/// The bucket map of real solve tables: for every x, the segment that the look-up finds (its
/// bucket's first segment plus at most `steps` comparisons) is the segment by definition,
/// the number of inner nodes at or below x. Checked on the random and degenerate curves of
/// the scalar set, at random x, at every node and the doubles beside it, and a few doubles
/// either side of every bucket boundary of both kinds of half (x·scale, and the √x halves'
/// estimate), mirrored into the upper half too, where an inexact map would first go wrong.
final class SolveTableLookUpTests: XCTestCase {
    /// x within a few doubles of `x` on either side.
    static func around(_ x: Double) -> [Double] {
        var xs = [x], down = x, up = x
        for _ in 0..<3 { down = down.nextDown; up = up.nextUp; xs += [down, up] }
        return xs
    }

    func testLookUpFindsTheSegmentOfEveryX() throws {
        var rng = SeededRandom(seed: 0xB0C4E7)
        // The bucket boundaries, where v·scale is a half-integer: v = x in an x half (scale
        // 64/0.5), and in a √x half v = the estimate of √x (scale 64/estimate(1/2)), inverted
        // through the estimate's bit trick.
        let bias = UInt64(KINETIC_BEZIER_ROOT_BIAS)
        let rootEnd = kinetic_simd_root_estimate(0.5, Double(bitPattern: ~UInt64(0)))
        var boundaries: [Double] = []
        for j in 1..<64 {
            let linear = 0.5 * (Double(j) - 0.5) / 64
            let estimate = rootEnd * (Double(j) - 0.5) / 64
            let root = Double(bitPattern: (estimate.bitPattern &- bias) &<< 1)
            for x in [linear, root] { boundaries += Self.around(x) + Self.around(1 - x) }
        }
        var checked = 0, mismatches: [String] = []
        for p in CubicBezierLazyTableTests.curves(count: 400, seed: 0xB0C4E7) {
            let curve = try CubicBezier(p.0, p.1, p.2, p.3)
            if curve.table.isIdentity { continue }
            _ = curve.values(at: [Double](repeating: 0.3, count: 65))
            var xs = (0..<1000).map { _ in rng.unit() } + boundaries
            for x in curve.table.nodeXs { xs += Self.around(x) }
            for x in xs where x > 0x1p-26 && x < 1 - 0x1p-26 {
                guard let (found, expected) = curve.table.lookUpSegment(at: x) else {
                    return XCTFail("\(curve) has no solve table")
                }
                checked += 1
                if found != expected { mismatches.append("\(curve) at x = \(x): \(found), not \(expected)") }
            }
        }
        XCTAssertGreaterThan(checked, 1_000_000)
        XCTAssertTrue(mismatches.isEmpty, "\(mismatches.count) of \(checked): \(mismatches.prefix(8))")
    }
}
