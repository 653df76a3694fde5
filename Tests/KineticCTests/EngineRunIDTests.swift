import KineticC
import XCTest

/// Run ids carry their record's index, so that finding a run takes no table look-up; an
/// engine with more runs alive than the id's index field holds finds the rest in a
/// dictionary. Either way an id is found while its run lives, and is stale once it is
/// released, for another engine, or never given.
final class EngineRunIDTests: XCTestCase {
    private let ok = Int32(0), staleHandle = Int32(5)
    /// A linear `kn_timing` (kind 0, no parameters).
    private let linear = [UInt8](repeating: 0, count: 72)

    private func create(_ engine: OpaquePointer?, duration: Double = 1) -> UInt64 {
        var run: UInt64 = 0
        XCTAssertEqual(linear.withUnsafeBytes { kn_engine_run_create(engine, $0.baseAddress, duration, &run) }, ok)
        return run
    }

    private func events(_ engine: OpaquePointer?) -> [UInt64] {
        var ids: [UInt64] = []
        var event = [UInt8](repeating: 0, count: 16), has: Int32 = 1
        while has != 0 {
            XCTAssertEqual(event.withUnsafeMutableBytes { kn_engine_next_event(engine, $0.baseAddress, &has) }, ok)
            if has != 0 { ids.append(event.withUnsafeBytes { $0.load(as: UInt64.self) }) }
        }
        return ids
    }

    func testRunsAreFoundPastTheIdIndexFieldAndStaleOnceReleased() throws {
        var engine: OpaquePointer?
        XCTAssertEqual(kn_engine_create(&engine), ok)
        defer { kn_engine_destroy(engine) }
        var first: Int64 = 0
        XCTAssertEqual(kn_engine_add_lanes(engine, [Double](repeating: 0, count: 8), 8, &first), ok)
        // More runs alive at once than the id's 16-bit index field holds.
        let count = (1 << 16) + 6
        var ids = [UInt64](repeating: 0, count: count)
        for k in 0 ..< count { ids[k] = create(engine) }
        XCTAssertFalse(ids.contains(0))
        XCTAssertEqual(Set(ids).count, count, "ids are unique")
        // Runs on both sides of the boundary, in an order that defeats the last-run cache.
        let picked = [0, 1, 5, (1 << 16) - 2, (1 << 16) - 1, 1 << 16, count - 1, 7, count - 2]
        for (n, k) in picked.enumerated() {
            var lane = first + Int64(n % 8)
            var target = Double(k)
            XCTAssertEqual(kn_engine_run_add_animations(engine, ids[k], &lane, &target, nil, 1, 0), ok, "run \(k)")
        }
        for k in picked.reversed() { XCTAssertEqual(kn_engine_run_start(engine, ids[k]), ok, "run \(k)") }
        XCTAssertEqual(kn_engine_advance_to(engine, 2), ok)
        XCTAssertEqual(Set(events(engine)), Set(picked.map { ids[$0] }), "each finished run's event names its id")
        // Released runs (direct and past the field) are stale; their neighbours are not.
        for k in [3, (1 << 16) + 2] {
            XCTAssertEqual(kn_engine_run_release(engine, ids[k]), ok)
            XCTAssertEqual(kn_engine_run_start(engine, ids[k]), staleHandle, "released run \(k)")
            XCTAssertEqual(kn_engine_run_release(engine, ids[k]), staleHandle)
            XCTAssertEqual(kn_engine_run_start(engine, ids[k + 1]), ok, "run \(k + 1)")
        }
        // Never given: 0, ids that differ from live ones in one bit of the index field, or in
        // a bit of the serial no run has reached (direct and past the field), and all ones.
        for id: UInt64 in [0, ids[9] ^ 1, ids[9] ^ (1 << 62), ids[(1 << 16) + 4] ^ (1 << 62), UInt64.max] {
            XCTAssertEqual(kn_engine_run_start(engine, id), staleHandle, "id \(id)")
        }
        // Another engine's runs, past the field or not, are stale here and live there.
        var other: OpaquePointer?
        XCTAssertEqual(kn_engine_create(&other), ok)
        defer { kn_engine_destroy(other) }
        let foreign = create(other)
        XCTAssertEqual(kn_engine_run_start(engine, foreign), staleHandle)
        XCTAssertEqual(kn_engine_run_start(other, ids[10]), staleHandle)
        XCTAssertEqual(kn_engine_run_start(other, ids[count - 3]), staleHandle)
        XCTAssertEqual(kn_engine_run_start(other, foreign), ok)
    }

    func testAReusedRecordGivesANewIdAndTheOldOneStaysStale() throws {
        var engine: OpaquePointer?
        XCTAssertEqual(kn_engine_create(&engine), ok)
        defer { kn_engine_destroy(engine) }
        var seen = Set<UInt64>()
        var previous: UInt64 = 0
        for round in 0 ..< 1000 {
            let run = create(engine)
            XCTAssertTrue(seen.insert(run).inserted, "round \(round): id reused")
            if previous != 0 { XCTAssertEqual(kn_engine_run_start(engine, previous), staleHandle) }
            XCTAssertEqual(kn_engine_run_release(engine, run), ok)
            previous = run
        }
    }
}
