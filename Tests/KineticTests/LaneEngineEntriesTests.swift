import Kinetic
import TestSupport
import XCTest

/// The engine's entries (the lanes a host times itself, which `BatchStore` presents) beside
/// its runs: one store, one tick.
final class LaneEngineEntriesTests: XCTestCase {
    /// One `advance(to:)` moves a run's additive lanes, steps a spring entry by the time since
    /// the last tick (from the tick it was added at), and writes a group entry at its
    /// progress; neither kind disturbs the other.
    func testOneTickDrivesRunsAndEntries() throws {
        let engine = LaneEngine()
        let block = engine.allocateBlock([0], releasesWhenIdle: false)
        let lane = engine.firstLane(of: block)
        let run = try engine.makeRun(timing: .linear, duration: 1)
        try engine.addAnimations(run, targets: [LaneTarget(lane: Int32(lane), value: 10)], delayFactor: 0)
        try engine.startAnimation(run)
        engine.advance(to: 0.25)
        // Added at 0.25: the springs start from here.
        let spring = try Spring(dampingRatio: 0.6, response: 0.4)
        let springs = try engine.addSpringEntry(spring, targets: [100, -5], displacements: [-100, 20])
        let group = try engine.addGroupEntry(from: [1, 2, 3], to: [3, 2, 1], progress: 0.5)
        for t in [0.3, 0.5, 0.75, 1.0, 1.6] {
            engine.advance(to: t)
            XCTAssertNil(engine.entryFailure)
            XCTAssertEqual(engine.output[lane], 10 * min(t, 1), accuracy: 1e-12, "the run's lane at \(t)")
            let p = spring.value(at: t - 0.25)
            XCTAssertEqual(try engine.entryValue(of: springs, lane: 0), 100 + -100 * (1 - p), accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(try engine.entryValue(of: springs, lane: 1), -5 + 20 * (1 - p), accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(try engine.entryValues(of: group), [2, 2, 2])
        }
        XCTAssertEqual(engine.events, [.finished(run, .end)])
        try engine.setEntryProgress(1, for: group)
        engine.advance(to: 1.7)
        XCTAssertEqual(try engine.entryValues(of: group), [3, 2, 1])
    }

    /// A tick whose entries would leave the range of `Double` leaves them as they were,
    /// says why, and still moves the runs; the next good tick clears the failure.
    func testAnEntryOverflowLeavesTheEntriesAndReportsIt() throws {
        let engine = LaneEngine()
        let group = try engine.addGroupEntry(from: [1e308], to: [1.7e308], progress: 0.5)
        engine.advance(to: 0.1)
        XCTAssertNil(engine.entryFailure)
        let before = try engine.entryValue(of: group)
        XCTAssertEqual(before, 1.35e308, accuracy: 1e294)
        try engine.setEntryProgress(2, for: group)
        engine.advance(to: 0.2)
        guard case .overflow(let lane, let quantity)? = engine.entryFailure as? BatchStoreError else {
            return XCTFail("\(String(describing: engine.entryFailure))")
        }
        XCTAssertEqual(lane, 0)
        XCTAssertEqual(quantity, "value")
        XCTAssertEqual(try engine.entryValue(of: group), before, "unchanged")
        try engine.setEntryProgress(1, for: group)
        engine.advance(to: 0.3)
        XCTAssertNil(engine.entryFailure)
        XCTAssertEqual(try engine.entryValue(of: group), 1.7e308)
    }

    /// `BatchStore` keeps no storage of its own: its entries are its engine's.
    func testABatchStoreIsAViewOfItsEnginesEntries() throws {
        let store = BatchStore()
        let handle = try store.addLanes(from: [0, 10], to: [1, 20], progress: [0.5, 0.25])
        try store.evaluate()
        XCTAssertEqual(store.engine.entryLaneCount, 2)
        XCTAssertEqual(try store.engine.entryValues(of: handle), [0.5, 12.5])
        try store.engine.setEntryProgress([1, 1], for: handle)
        store.engine.advance(to: 1)
        XCTAssertEqual(try store.values(of: handle), [1, 20])
    }
}
