import KineticC
import XCTest

/// Engine calls from C with input that once ended the host process, hung it or turned finite
/// input into NaN: each now gives a status naming the value, or a bounded, finite result.
final class EngineHostileInputTests: XCTestCase {
    private let ok = Int32(0), outOfRange = Int32(3)
    private let linearMode = Int32(0), cubicMode = Int32(3), cubicPacedMode = Int32(4)

    private func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = kn_last_error_message(&buffer, UInt(buffer.count), nil)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A `kn_timing` (72 bytes): kind, cubic control points, damping ratio, spring, velocities.
    private func timing(kind: Int32, dampingRatio: Double = 0, spring: OpaquePointer? = nil,
                        velocityX: Double = 0, velocityY: Double = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 72)
        bytes.withUnsafeMutableBytes { p in
            p.storeBytes(of: kind, toByteOffset: 0, as: Int32.self)
            p.storeBytes(of: dampingRatio, toByteOffset: 40, as: Double.self)
            p.storeBytes(of: UnsafeRawPointer(spring), toByteOffset: 48, as: UnsafeRawPointer?.self)
            p.storeBytes(of: velocityX, toByteOffset: 56, as: Double.self)
            p.storeBytes(of: velocityY, toByteOffset: 64, as: Double.self)
        }
        return bytes
    }

    private func makeEngine(lanes values: [Double]) -> OpaquePointer? {
        var engine: OpaquePointer?
        XCTAssertEqual(kn_engine_create(&engine), ok)
        var first: Int64 = 0
        XCTAssertEqual(kn_engine_add_lanes(engine, values, Int64(values.count), &first), ok)
        return engine
    }

    private func makeRun(_ engine: OpaquePointer?, _ timing: [UInt8], duration: Double) -> (status: Int32, run: UInt64) {
        var run: UInt64 = 0
        let status = timing.withUnsafeBytes { kn_engine_run_create(engine, $0.baseAddress, duration, &run) }
        return (status, run)
    }

    private func read(_ engine: OpaquePointer?, count: Int) -> [Double] {
        var out = [Double](repeating: .nan, count: count)
        XCTAssertEqual(kn_engine_read(engine, 0, Int64(count), &out), ok)
        return out
    }

    // MARK: A lane full of animations

    func testALaneFullOfAnimationsRefusesTheNextWithAStatus() throws {
        let engine = makeEngine(lanes: [0, 0])
        defer { kn_engine_destroy(engine) }
        let (status, run) = makeRun(engine, timing(kind: 0), duration: 1)
        XCTAssertEqual(status, ok)
        XCTAssertEqual(kn_engine_run_start(engine, run), ok)
        // 65,536 keyframes after the implicit one at the model value, each a change: one step
        // more than a lane carries. The counter of the lane's contributions used to overflow.
        let keys = 65_536
        let values = (0 ..< keys).map { Double(($0 + 1) % 2) }
        var lane: Int64 = 0
        XCTAssertEqual(kn_engine_run_add_keyframes(engine, run, &lane, 1, values, nil, Int64(keys), linearMode), outOfRange)
        XCTAssertTrue(lastError().contains("lane 0"), lastError())
        XCTAssertTrue(lastError().contains("65535"), lastError())
        // Nothing was added: the lane is still at its model value, and room is still there.
        XCTAssertEqual(read(engine, count: 2), [0, 0])
        // Exactly the room: 65,535 changing steps are taken.
        XCTAssertEqual(kn_engine_run_add_keyframes(engine, run, &lane, 1, values, nil, Int64(keys - 1), linearMode), ok)
        // The lane is full now: one more animation on it is refused, one on the other lane is not.
        var target = 5.0
        XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lane, &target, nil, 1, 0), outOfRange)
        XCTAssertTrue(lastError().contains("animations on lane 0"), lastError())
        var other: Int64 = 1
        XCTAssertEqual(kn_engine_run_add_animations(engine, run, &other, &target, nil, 1, 0), ok)
        // Keyframes that hold the lane's model value (the last keyframe's, 1) add no step, so
        // they are taken on a full lane.
        let holding = [Double](repeating: values[keys - 2], count: 100)
        XCTAssertEqual(kn_engine_run_add_keyframes(engine, run, &lane, 1, holding, nil, 100, linearMode), ok)
        XCTAssertEqual(kn_engine_advance_to(engine, 0.5), ok)
        XCTAssertTrue(read(engine, count: 2).allSatisfy(\.isFinite))
        // Once the run ends, its contributions are gone and the lane takes animations again.
        XCTAssertEqual(kn_engine_advance_to(engine, 2), ok)
        let (_, next) = makeRun(engine, timing(kind: 0), duration: 1)
        XCTAssertEqual(kn_engine_run_start(engine, next), ok)
        XCTAssertEqual(kn_engine_run_add_animations(engine, next, &lane, &target, nil, 1, 0), ok)
        XCTAssertEqual(kn_engine_advance_to(engine, 3.5), ok)
        XCTAssertEqual(read(engine, count: 1), [5])
    }

    func testKeptAnimationsOnALaneThatFilledUpChangeNothingAtTheStart() throws {
        let engine = makeEngine(lanes: [0])
        defer { kn_engine_destroy(engine) }
        var lane: Int64 = 0
        // An inactive run keeps its targets and keyframes for its start.
        let (_, kept) = makeRun(engine, timing(kind: 0), duration: 1)
        var target = 7.0
        XCTAssertEqual(kn_engine_run_add_animations(engine, kept, &lane, &target, nil, 1, 0), ok)
        let few = [3.0, 4.0]
        XCTAssertEqual(kn_engine_run_add_keyframes(engine, kept, &lane, 1, few, nil, 2, linearMode), ok)
        // Another run fills the lane meanwhile.
        let (_, filler) = makeRun(engine, timing(kind: 0), duration: 10)
        XCTAssertEqual(kn_engine_run_start(engine, filler), ok)
        let values = (0 ..< 65_535).map { Double(($0 + 1) % 2) }
        XCTAssertEqual(kn_engine_run_add_keyframes(engine, filler, &lane, 1, values, nil, 65_535, linearMode), ok)
        // The start takes what has room (nothing), and the process goes on.
        XCTAssertEqual(kn_engine_run_start(engine, kept), ok)
        XCTAssertEqual(kn_engine_advance_to(engine, 0.5), ok)
        XCTAssertTrue(read(engine, count: 1)[0].isFinite)
        XCTAssertEqual(kn_engine_advance_to(engine, 20), ok)
        XCTAssertTrue(read(engine, count: 1)[0].isFinite)
    }

    // MARK: Cubic keyframes

    func testCubicKeyframesOfManyKeysAreTaken() throws {
        // Each step's tangents used to be kept for every segment: n² doubles, about 69 GB for
        // 65,536 keys, allocated twice. They are now six per step.
        for mode in [cubicMode, cubicPacedMode] {
            let engine = makeEngine(lanes: [0, 0])
            defer { kn_engine_destroy(engine) }
            let (_, run) = makeRun(engine, timing(kind: 0), duration: 1)
            XCTAssertEqual(kn_engine_run_start(engine, run), ok)
            let keys = 30_000
            var lanes: [Int64] = [0, 1]
            let values = (0 ..< 2 * keys).map { sin(Double($0) * 0.001) * 100 }
            XCTAssertEqual(kn_engine_run_add_keyframes(engine, run, &lanes, 2, values, nil, Int64(keys), mode), ok,
                           lastError())
            for time in [0.25, 0.5, 0.999] {
                XCTAssertEqual(kn_engine_advance_to(engine, time), ok)
                let now = read(engine, count: 2)
                XCTAssertTrue(now.allSatisfy { $0.isFinite && abs($0) <= 150 }, "\(mode) at \(time): \(now)")
            }
            XCTAssertEqual(kn_engine_advance_to(engine, 1.5), ok)
            XCTAssertEqual(read(engine, count: 2), [values[2 * keys - 2], values[2 * keys - 1]])
        }
    }

    // MARK: Repeating runs shorter than the clock's rounding

    func testARepeatingRunShorterThanTheClocksRoundingTakesABoundedTick() throws {
        // (duration, the time advanced to): a cycle below the rounding of the clock's time
        // moves no start, which used to spin forever.
        for (duration, time, autoreverses) in [(0.5, 1e17, Int32(0)), (0.5, 1e17, 1), (1e-300, 1.0, 0), (1e-300, 1.0, 1),
                                               (1e-12, 1e6, 0), (3e-10, 1e6, 1)] {
            let engine = makeEngine(lanes: [0])
            defer { kn_engine_destroy(engine) }
            let (status, run) = makeRun(engine, timing(kind: 0), duration: duration)
            XCTAssertEqual(status, ok)
            XCTAssertEqual(kn_engine_run_configure(engine, run, 1, autoreverses, 0), ok)
            var lane: Int64 = 0, target = 10.0
            XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lane, &target, nil, 1, 0), ok)
            XCTAssertEqual(kn_engine_run_start(engine, run), ok)
            for step in [0.0, 1, 2] {
                XCTAssertEqual(kn_engine_advance_to(engine, time + step * time * 1e-3), ok)
                let value = read(engine, count: 1)[0]
                XCTAssertTrue(value >= 0 && value <= 10, "duration \(duration) at \(time): \(value)")
            }
        }
    }

    // MARK: Springs

    func testAPhysicalSpringThatCannotSettleIsRefused() throws {
        let engine = makeEngine(lanes: [0])
        defer { kn_engine_destroy(engine) }
        var spring: OpaquePointer?
        XCTAssertEqual(kn_spring_create(1, 1, 1e-320, &spring), ok)
        defer { kn_spring_destroy(spring) }
        let (status, _) = makeRun(engine, timing(kind: 3, spring: spring), duration: 1)
        XCTAssertEqual(status, outOfRange)
        XCTAssertTrue(lastError().contains("damping_ratio = "), lastError())
        // A spring that settles is taken, and its lanes stay finite.
        var settles: OpaquePointer?
        XCTAssertEqual(kn_spring_create(1, 100, 1e-3, &settles), ok)
        defer { kn_spring_destroy(settles) }
        let (taken, run) = makeRun(engine, timing(kind: 3, spring: settles), duration: 1)
        XCTAssertEqual(taken, ok)
        var lane: Int64 = 0, target = 1.0
        XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lane, &target, nil, 1, 0), ok)
        XCTAssertEqual(kn_engine_run_start(engine, run), ok)
        XCTAssertEqual(kn_engine_advance_to(engine, 3), ok)
        XCTAssertTrue(read(engine, count: 1)[0].isFinite)
    }

    func testADampedSpringWhoseVelocityTimesTheDurationOverflowsIsRefused() throws {
        let engine = makeEngine(lanes: [0])
        defer { kn_engine_destroy(engine) }
        let (status, _) = makeRun(engine, timing(kind: 2, dampingRatio: 0.5, velocityX: 1e300), duration: 1e10)
        XCTAssertEqual(status, outOfRange)
        XCTAssertTrue(lastError().contains("initial velocity dx = 1e+300"), lastError())
        let (vertical, _) = makeRun(engine, timing(kind: 2, dampingRatio: 0.5, velocityY: -1e300), duration: 1e10)
        XCTAssertEqual(vertical, outOfRange)
        XCTAssertTrue(lastError().contains("initial velocity dy = -1e+300"), lastError())
        let (taken, _) = makeRun(engine, timing(kind: 2, dampingRatio: 0.5, velocityX: 1e300), duration: 1)
        XCTAssertEqual(taken, ok)
    }

    /// A continue that fails changes nothing: the run's repeat count is kept (it was dropped
    /// before the timing was checked, so the run then repeated for ever), and a factor whose
    /// leg would last for ever is refused (it froze the lanes with KN_OK).
    func testAContinueThatFailsChangesNothing() throws {
        for (timingBytes, factor, named) in [
            (timing(kind: 2, dampingRatio: 0.5, velocityX: 1e300), 1e10, "initial velocity dx = 1e+300"),
            (timing(kind: 0), 1e300, "duration_factor = 1e+300"),
        ] {
            let engine = makeEngine(lanes: [0])
            defer { kn_engine_destroy(engine) }
            let (created, run) = makeRun(engine, timing(kind: 0), duration: 1e10)
            XCTAssertEqual(created, ok)
            var lane: Int64 = 0, target = 1.0
            XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lane, &target, nil, 1, 0), ok)
            XCTAssertEqual(kn_engine_run_configure(engine, run, 1, 0, 0), ok)
            XCTAssertEqual(kn_engine_run_set_repeat_count(engine, run, 2), ok)
            // Paused from inactive (which keeps the count), at 0.
            XCTAssertEqual(kn_engine_run_pause(engine, run), ok)
            let before = read(engine, count: 1)
            let status = timingBytes.withUnsafeBytes { kn_engine_run_continue(engine, run, $0.baseAddress, factor) }
            XCTAssertEqual(status, outOfRange)
            XCTAssertTrue(lastError().contains(named), lastError())
            XCTAssertEqual(read(engine, count: 1), before, "the lanes have not moved")
            // Resumed, the run still ends after its two cycles.
            XCTAssertEqual(kn_engine_run_start(engine, run), ok)
            var finished = false
            for k in 1 ... 30 {
                XCTAssertEqual(kn_engine_advance_to(engine, Double(k) * 1e9), ok)
                // kn_event: the run (uint64_t), the kind and the position (int32_t).
                var event = [UInt8](repeating: 0, count: 16), has: Int32 = 0
                while event.withUnsafeMutableBytes({ kn_engine_next_event(engine, $0.baseAddress, &has) }) == ok, has != 0 {
                    let (id, kind) = event.withUnsafeBytes { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: Int32.self)) }
                    if id == run && kind == 0 { finished = true }
                }
            }
            XCTAssertTrue(finished, "the run ends after its two cycles (\(named))")
        }
    }

    /// A model write on an animated lane whose shift of the animations leaves the range of
    /// Double is refused, naming the value (it made the lane read +inf from finite input).
    func testAModelWriteThatWouldShiftAnAnimationPastTheRangeIsRefused() throws {
        let engine = makeEngine(lanes: [0])
        defer { kn_engine_destroy(engine) }
        let (created, run) = makeRun(engine, timing(kind: 0), duration: 1)
        XCTAssertEqual(created, ok)
        var lane: Int64 = 0, target = -1.5e308
        XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lane, &target, nil, 1, 0), ok)
        XCTAssertEqual(kn_engine_run_start(engine, run), ok)
        XCTAssertEqual(kn_engine_advance_to(engine, 0.5), ok)
        let before = read(engine, count: 1)
        XCTAssertEqual(kn_engine_set_model(engine, 0, 1.5e308), outOfRange)
        XCTAssertTrue(lastError().contains("value = 1.5e+308"), lastError())
        XCTAssertEqual(read(engine, count: 1), before, "nothing changed")
        var model = [Double.nan]
        XCTAssertEqual(kn_engine_read_model(engine, 0, 1, &model), ok)
        XCTAssertEqual(model, [-1.5e308])
        // A write in range is taken, and the lane stays finite to its end.
        XCTAssertEqual(kn_engine_set_model(engine, 0, 1e307), ok)
        for t in [0.6, 0.8, 1.0, 2.0] {
            XCTAssertEqual(kn_engine_advance_to(engine, t), ok)
            XCTAssertTrue(read(engine, count: 1)[0].isFinite, "t = \(t)")
        }
        XCTAssertEqual(read(engine, count: 1), [1e307])
        // A lane with no animation takes any finite value.
        XCTAssertEqual(kn_engine_set_model(engine, 0, 1.7e308), ok)
    }

    /// A host that takes fewer events than arrive still gets every event, once, in order (the
    /// taken ones are let go as later ones arrive); `kn_engine_run_info`, a read through a
    /// `const kn_engine *`, works between them.
    func testEventsTakenFewerThanArriveComeInOrderOnce() throws {
        let engine = makeEngine(lanes: [0])
        defer { kn_engine_destroy(engine) }
        var runs: [UInt64] = []
        for k in 1 ... 12 {
            let (created, run) = makeRun(engine, timing(kind: 0), duration: Double(k) * 0.1)
            XCTAssertEqual(created, ok)
            var lane: Int64 = 0, target = Double(k)
            XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lane, &target, nil, 1, 0), ok)
            XCTAssertEqual(kn_engine_run_start(engine, run), ok)
            runs.append(run)
        }
        var taken: [UInt64] = []
        func take() -> Bool {
            var event = [UInt8](repeating: 0, count: 16), has: Int32 = 0
            XCTAssertEqual(event.withUnsafeMutableBytes { kn_engine_next_event(engine, $0.baseAddress, &has) }, ok)
            if has != 0 { taken.append(event.withUnsafeBytes { $0.load(as: UInt64.self) }) }
            return has != 0
        }
        // Two runs end per tick; the host takes one event per tick.
        for tick in 1 ... 6 {
            XCTAssertEqual(kn_engine_advance_to(engine, Double(tick) * 0.2 + 1e-6), ok)
            _ = take()
            var info = [UInt8](repeating: 0, count: 32)
            XCTAssertEqual(info.withUnsafeMutableBytes { kn_engine_run_info(engine, runs[11], $0.baseAddress) }, ok)
        }
        while take() {}
        XCTAssertEqual(taken, runs, "every run's event, once, in the order they ended")
    }

    // MARK: Spans beyond the range of Double

    func testAMoveWhoseSpanIsBeyondTheRangeOfDoubleIsRefused() throws {
        // From −1e308 to 1e308 the span is 2e308: the lane read +infinity mid-way.
        let engine = makeEngine(lanes: [-1e308, 1e308])
        defer { kn_engine_destroy(engine) }
        let (_, run) = makeRun(engine, timing(kind: 0), duration: 1)
        XCTAssertEqual(kn_engine_run_start(engine, run), ok)
        var lanes: [Int64] = [0, 1], targets = [1e308, -1e308]
        XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lanes, &targets, nil, 2, 0), outOfRange)
        XCTAssertTrue(lastError().contains("target of lane 0 = 1e+308"), lastError())
        // Keyframes: the step from the model value, and a step between two keyframes.
        var lane: Int64 = 1
        let down = [-1e308]
        XCTAssertEqual(kn_engine_run_add_keyframes(engine, run, &lane, 1, down, nil, 1, linearMode), outOfRange)
        XCTAssertTrue(lastError().contains("keyframe 1 of lane 1 = -1e+308"), lastError())
        let zigzag = [0, 1e308, -1e308]
        XCTAssertEqual(kn_engine_run_add_keyframes(engine, run, &lane, 1, zigzag, nil, 3, linearMode), outOfRange)
        XCTAssertTrue(lastError().contains("keyframe 3 of lane 1"), lastError())
        // Half-way moves are taken, and every value on the way stays finite.
        targets = [0, 0]
        XCTAssertEqual(kn_engine_run_add_animations(engine, run, &lanes, &targets, nil, 2, 0), ok)
        for time in [0.0, 0.25, 0.5, 0.75, 1.5] {
            XCTAssertEqual(kn_engine_advance_to(engine, time), ok)
            XCTAssertTrue(read(engine, count: 2).allSatisfy(\.isFinite), "\(time)")
        }
    }

    func testASpanFromTheValueShownIsCheckedWhenARunBeginsFromTheCurrentState() throws {
        // Run A moves the lane from −1e308 towards 0.7e308 (span 1.7e308: finite); run B,
        // beginning from the current state, asks for 0.9e308 while A is at its start: its span
        // from the value shown (−1e308) is beyond the range, though 0.9e308 − 0.7e308 is not.
        let engine = makeEngine(lanes: [-1e308])
        defer { kn_engine_destroy(engine) }
        var lane: Int64 = 0, target = 0.7e308
        let (_, a) = makeRun(engine, timing(kind: 0), duration: 1)
        XCTAssertEqual(kn_engine_run_start(engine, a), ok)
        XCTAssertEqual(kn_engine_run_add_animations(engine, a, &lane, &target, nil, 1, 0), ok)
        let (_, b) = makeRun(engine, timing(kind: 0), duration: 1)
        XCTAssertEqual(kn_engine_run_configure(engine, b, 0, 0, 1), ok)
        XCTAssertEqual(kn_engine_run_start(engine, b), ok)
        target = 0.9e308
        XCTAssertEqual(kn_engine_run_add_animations(engine, b, &lane, &target, nil, 1, 0), outOfRange)
        XCTAssertTrue(lastError().contains("target of lane 0 = 9e+307"), lastError())
        // Without the option the span is from the model value (0.7e308): taken, and finite.
        let (_, c) = makeRun(engine, timing(kind: 0), duration: 1)
        XCTAssertEqual(kn_engine_run_start(engine, c), ok)
        XCTAssertEqual(kn_engine_run_add_animations(engine, c, &lane, &target, nil, 1, 0), ok)
        for time in [0.0, 0.5, 2] {
            XCTAssertEqual(kn_engine_advance_to(engine, time), ok)
            XCTAssertTrue(read(engine, count: 1)[0].isFinite, "\(time)")
        }
    }
}

