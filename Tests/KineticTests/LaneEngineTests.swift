import Kinetic
import TestSupport
import XCTest

/// The core engine on its own (no views, no main actor): additive lanes, runs on a clock
/// the test advances, the events it queues and the exactness of where lanes end.
final class LaneEngineTests: XCTestCase {
    private func change(_ lane: Int, _ old: Double, _ new: Double, vertical: Bool = false) -> LaneChange {
        LaneChange(lane: Int32(lane), old: old, new: new, vertical: vertical)
    }

    /// Starts a forward direct leg of `run` at `time` lasting its duration.
    private func start(_ engine: LaneEngine, _ run: RunHandle, at time: Double, length: Double) {
        engine.startLeg(run, to: 1, length: length, startTime: time)
    }

    func testOneRunMovesItsLanesAndEndsExactlyAtTheModel() {
        let engine = LaneEngine()
        let block = engine.allocateBlock([0.1, 10], releasesWhenIdle: true)
        let a = engine.firstLane(of: block)
        let run = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
        XCTAssertEqual(engine.addSegment(run, changes: [change(a, 0.1, 0.7), change(a + 1, 10, 10)],
                                         windowStart: 0, windowLength: 1), 1, "an unchanged lane adds nothing")
        start(engine, run, at: 0, length: 1)
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.output[a], 0.1 + (0.7 - 0.1) * 0.25)
        XCTAssertEqual(engine.output[a + 1], 10)
        XCTAssertTrue(engine.events.isEmpty)
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.finished(run, .end)])
        XCTAssertEqual(engine.output[a], 0.7, "ends exactly at the model value")
        XCTAssertEqual(engine.model[a], 0.7)
        XCTAssertEqual(engine.releasedBlocks, [block])
        XCTAssertTrue(engine.modelWrites.isEmpty, "ending at .end changes no model value")
        XCTAssertTrue(engine.isLive(run), "the run stays, inactive, until it is released")
        XCTAssertEqual(engine.state(of: run), .inactive)
        XCTAssertEqual(engine.activeRunCount, 0)
        XCTAssertEqual(engine.contributionCount, 0)
    }

    func testReversedRunEndsAtTheStartValuesExactly() {
        let engine = LaneEngine()
        let block = engine.allocateBlock([3])
        let a = engine.firstLane(of: block)
        let run = engine.makeRun(curve: .cubic(.easeInOut), duration: 2, repeats: false, autoreverses: false)
        engine.addSegment(run, changes: [change(a, 3, -1.3)], windowStart: 0, windowLength: 1)
        start(engine, run, at: 0, length: 2)
        engine.advance(to: 0.6)
        engine.pauseRun(run)
        let f = engine.timing(of: run).f
        XCTAssertEqual(f, 0.3, accuracy: 1e-15)
        engine.startLeg(run, to: 0, length: f * 2, startTime: 0.6)
        engine.advance(to: 0.6 + f * 2)
        XCTAssertEqual(engine.events, [.finished(run, .start)])
        XCTAssertEqual(engine.model[a], 3, "the model goes back to the start value")
        XCTAssertEqual(engine.modelWrites, [Int32(a)])
        XCTAssertEqual(engine.output[a], 3)
    }

    /// Runs that end in one tick end in the order they were (last) started; a run that
    /// pauses on completion stays, at its end.
    func testEventsComeInStartOrder() {
        let engine = LaneEngine()
        var runs: [RunHandle] = []
        for k in 0 ..< 4 {
            let block = engine.allocateBlock([0])
            let run = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
            engine.addSegment(run, changes: [change(engine.firstLane(of: block), 0, Double(k + 1))],
                              windowStart: 0, windowLength: 1)
            runs.append(run)
        }
        // Started in the order 2, 0, 3, 1, with different lengths that all end at t = 1.
        for (n, k) in [2, 0, 3, 1].enumerated() {
            start(engine, runs[k], at: 0.1 * Double(n), length: 1 - 0.1 * Double(n))
            engine.advance(to: 0.1 * Double(n))
        }
        engine.setPausesOnCompletion(true, of: runs[3])
        engine.events.removeAll()
        engine.advance(to: 1)
        XCTAssertEqual(engine.events, [.finished(runs[2], .end), .finished(runs[0], .end), .pausedAtEnd(runs[3]),
                                       .finished(runs[1], .end)])
        XCTAssertTrue(engine.isLive(runs[3]))
        XCTAssertFalse(engine.timing(of: runs[3]).running)
        XCTAssertEqual(engine.timing(of: runs[3]).f, 1)
        XCTAssertEqual(engine.contributionCount, 1)
    }

    func testStaleHandlesAreToldApart() {
        let engine = LaneEngine()
        let first = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
        XCTAssertTrue(engine.isLive(first))
        engine.releaseRun(first)
        XCTAssertFalse(engine.isLive(first))
        let second = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
        XCTAssertEqual(second.index, first.index, "the record is reused")
        XCTAssertNotEqual(second, first)
        XCTAssertTrue(engine.isLive(second))
        XCTAssertFalse(engine.isLive(first))
        XCTAssertFalse(engine.isLive(RunHandle(index: 7, generation: 0)), "an index the engine never gave out")
        XCTAssertFalse(engine.isLive(RunHandle(index: -1, generation: 0)))
    }

    /// Blocks of mixed sizes allocated and released at random: every lane maps back to its
    /// block and offset (the binary search over block starts), and released lanes are reused
    /// by blocks of the same size only.
    func testLaneToBlockMappingUnderChurn() {
        var random = SeededRandom(seed: 0x1A4E)
        let engine = LaneEngine()
        var live: [LaneBlockID: Int] = [:]  // block → size
        var sizes: [LaneBlockID: Int] = [:]  // every block handed out, live or released
        for _ in 0 ..< 3_000 {
            if live.isEmpty || random.chance(0.6) {
                let size = Int(random.next() % 7) + 1
                let block = engine.allocateBlock((0 ..< size).map(Double.init), releasesWhenIdle: true)
                XCTAssertNil(live[block], "a live block is never handed out again")
                live[block] = size
                sizes[block] = size
            } else {
                // Release through the engine's own rule: a run over the block's lanes that ends.
                let (block, size) = live.randomElement(using: &random)!
                let run = engine.makeRun(curve: .linear, duration: 0, repeats: false, autoreverses: false)
                let first = engine.firstLane(of: block)
                engine.addSegment(run, changes: (0 ..< size).map { change(first + $0, Double($0), Double($0) + 1) },
                                  windowStart: 0, windowLength: 1)
                engine.startLeg(run, to: 1, length: 0, startTime: 0)
                engine.advance(to: 0)
                XCTAssertEqual(engine.releasedBlocks, [block])
                engine.releasedBlocks.removeAll()
                engine.events.removeAll()
                engine.releaseRun(run)
                live[block] = nil
            }
        }
        var lanes = Set<Int>()
        for (block, size) in live {
            let first = engine.firstLane(of: block)
            for j in 0 ..< size {
                let mapped = engine.block(ofLane: Int32(first + j))
                XCTAssertEqual(mapped.block, block)
                XCTAssertEqual(mapped.offset, j)
                XCTAssertTrue(lanes.insert(first + j).inserted, "lanes of live blocks do not overlap")
            }
        }
        XCTAssertLessThanOrEqual(engine.laneCount, lanes.count * 3, "released lanes are reused")
        // Every lane of every block handed out, live or released, looked up in ascending,
        // descending and random order (the look-up tries the block it found last, and the
        // next, before its search): always the block that holds it.
        var all: [(lane: Int32, block: LaneBlockID, offset: Int)] = []
        for (block, size) in sizes {
            let first = engine.firstLane(of: block)
            for j in 0 ..< size { all.append((Int32(first + j), block, j)) }
        }
        all.sort { $0.lane < $1.lane }
        XCTAssertEqual(all.count, engine.laneCount)
        var shuffled = all
        for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
            shuffled.swapAt(i, Int(random.next() % UInt64(i + 1)))
        }
        for order in [all, all.reversed(), shuffled] {
            for entry in order {
                let mapped = engine.block(ofLane: entry.lane)
                XCTAssertEqual(mapped.block, entry.block, "lane \(entry.lane)")
                XCTAssertEqual(mapped.offset, entry.offset, "lane \(entry.lane)")
            }
        }
    }

    /// Many overlapping runs on shared lanes, with random targets, curves, lengths and
    /// interruptions (pause, reverse, scrub, stop where they are): once every run has ended,
    /// each lane's output is exactly its model value, and the model value is the one the
    /// engine's rules give — the last target set, or for a run that ended at `.start` the
    /// values it started from.
    func testOverlappingRunsLeaveExactModelValues() {
        var random = SeededRandom(seed: 0xE9)
        for round in 0 ..< 40 {
            let engine = LaneEngine()
            let laneCount = 6
            let block = engine.allocateBlock((0 ..< laneCount).map { _ in random.uniform(-100, 100) })
            let first = engine.firstLane(of: block)
            var time = 0.0
            var runs: [RunHandle] = []
            for _ in 0 ..< 12 {
                let curve: ProgressCurve = random.chance(0.5) ? .linear
                    : .cubic(try! CubicBezier(random.unit(), random.uniform(-1, 2), random.unit(), random.uniform(-1, 2)))
                let duration = random.uniform(0.05, 1)
                let run = engine.makeRun(curve: curve, duration: duration, repeats: false, autoreverses: false)
                var changes: [LaneChange] = []
                for j in 0 ..< laneCount where random.chance(0.6) {
                    changes.append(change(first + j, engine.model[first + j], random.uniform(-100, 100), vertical: j % 2 == 1))
                }
                engine.addSegment(run, changes: changes, windowStart: 0, windowLength: 1,
                                  fromCurrentState: random.chance(0.3))
                engine.startLeg(run, to: 1, length: duration, startTime: time)
                runs.append(run)
                time += random.uniform(0, 0.3)
                engine.advance(to: time)
                // Interrupt a live run now and then.
                if let victim = runs.filter({ engine.isLive($0) && engine.timing(of: $0).running }).randomElement(using: &random),
                   random.chance(0.3) {
                    switch random.next() % 3 {
                    case 0:
                        engine.pauseRun(victim)
                        engine.startLeg(victim, to: 0, length: engine.timing(of: victim).f * 0.5, startTime: time)
                    case 1:
                        engine.pauseRun(victim)
                        engine.scrub(victim, to: random.unit(), linearly: true)
                        engine.startLeg(victim, to: 1, length: 0.2, startTime: time, continuation: .linear)
                    default:
                        engine.pauseRun(victim)
                        engine.releaseRunAndAnimations(victim)
                    }
                }
            }
            time += 5
            engine.advance(to: time)
            XCTAssertEqual(engine.activeRunCount, 0, "round \(round)")
            XCTAssertEqual(engine.contributionCount, 0, "round \(round)")
            for j in 0 ..< laneCount {
                XCTAssertEqual(engine.output[first + j], engine.model[first + j], "round \(round), lane \(j)")
                XCTAssertEqual(engine.anchor[first + j], engine.model[first + j], "round \(round), lane \(j)")
            }
        }
    }

    /// A steady-state tick grows no storage (the benchmark counts its allocations: none).
    func testSteadyTickKeepsItsStorage() {
        let engine = LaneEngine()
        for k in 0 ..< 200 {
            let block = engine.allocateBlock([0, 0, 0])
            let run = engine.makeRun(curve: .cubic(.ease), duration: 10, repeats: k % 2 == 0, autoreverses: k % 4 == 0)
            let a = engine.firstLane(of: block)
            engine.addSegment(run, changes: [change(a, 0, 1), change(a + 1, 0, 2, vertical: true), change(a + 2, 0, 3)],
                              windowStart: Double(k % 3) * 0.1, windowLength: 0.5)
            engine.startLeg(run, to: 1, length: 10, startTime: 0)
        }
        engine.advance(to: 0)
        let bytes = engine.storageBytes
        for frame in 1 ... 300 { engine.advance(to: Double(frame) / 60) }
        XCTAssertEqual(engine.storageBytes, bytes)
        XCTAssertTrue(engine.events.isEmpty)
    }

    /// A model write under an animation keeps the animation's offset (UIKit's additive rule).
    func testModelWriteUnderAnAnimationShiftsIt() {
        let engine = LaneEngine()
        let block = engine.allocateBlock([0])
        let a = engine.firstLane(of: block)
        let run = engine.makeRun(curve: .linear, duration: 1, repeats: false, autoreverses: false)
        engine.addSegment(run, changes: [change(a, 0, 10)], windowStart: 0, windowLength: 1)
        engine.startLeg(run, to: 1, length: 1, startTime: 0)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.output[a], 5)
        engine.setModel(lane: a, to: 20)
        engine.flush()
        XCTAssertEqual(engine.output[a], 15, "the whole animation moved by the model's change")
        engine.advance(to: 1)
        XCTAssertEqual(engine.output[a], 20)
        XCTAssertEqual(engine.model[a], 20)
    }
}
