import KineticSIMD
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
