// kn_engine_*: Kinetic's animation engine (LaneEngine) behind an opaque handle. Runs are
// handed to C as integer ids (kn_run, see `RunIDs`) that the box maps to the engine's run
// handles; lanes are plain indices. The engine's events are copied into the box's queue
// (with their ids) by every call that can end a run, and drained one at a time.

import Kinetic

/// An engine plus the ids of its live runs and the events not yet drained.
///
/// Like the engine, a single-owner type that never holds two accesses to one of its
/// properties at once: they are `@exclusivity(unchecked)`, so that a C call pays no dynamic
/// exclusivity check per property access.
final class EngineBox {
    let engine = LaneEngine()
    /// Per run record of the engine: the id of the run that holds it (0: none) and the
    /// record's generation for that run.
    @exclusivity(unchecked) var slots: [RunSlot] = []
    /// The live runs whose record index does not fit an id (see `RunIDs`), by id.
    @exclusivity(unchecked) var overflow: [UInt64: RunHandle] = [:]
    @exclusivity(unchecked) var events: [(id: UInt64, event: EngineEvent)] = []
    @exclusivity(unchecked) var nextEvent = 0
    /// The run looked up or created last (id 0: none): a host creates a run, adds its
    /// animations and starts it in a row, so those calls skip even the slot look-up. Cleared when
    /// that run is released (ids are never reused, so nothing else makes it stale).
    @exclusivity(unchecked) var lastRun: (id: UInt64, handle: RunHandle) = (0, RunHandle(index: -1, generation: 0))
    /// The cubic curve of the last cubic timing, reused when the next has the same control
    /// points (a host creating runs in a loop mostly does).
    @exclusivity(unchecked) var lastCubic: CubicBezier?

    init() {
        events.reserveCapacity(64)
    }

    /// The handle of a live run of this engine; `KN_ERR_STALE_HANDLE` otherwise. `remember`
    /// false leaves the one-entry cache as it is: the calls that take a `const kn_engine *`
    /// write nothing (C++ and Rust hosts may share such reads).
    func run(_ id: UInt64, remember: Bool = true) throws -> RunHandle {
        if id == lastRun.id && id != 0 { return lastRun.handle }
        let field = id & RunIDs.overflowIndex
        let found: RunHandle?
        if field != RunIDs.overflowIndex {
            let i = Int(field)
            found = id != 0 && i < slots.count && slots[i].id == id
                ? RunHandle(index: Int32(i), generation: slots[i].generation) : nil
        } else {
            found = overflow[id]
        }
        guard let run = found else {
            throw InterfaceError(status: .staleHandle,
                                 message: "run \(id) is not a live run of this engine (released, never created, or another engine's)")
        }
        if remember { lastRun = (id, run) }
        return run
    }

    /// Records a new run under a new id, and returns the id.
    func register(_ run: RunHandle, serial: UInt64) -> UInt64 {
        let i = Int(run.index)
        let field = UInt64(i) < RunIDs.overflowIndex ? UInt64(i) : RunIDs.overflowIndex
        let id = serial << RunIDs.indexBits | field
        if i >= slots.count { slots.append(contentsOf: repeatElement(RunSlot(id: 0, generation: 0), count: i + 1 - slots.count)) }
        slots[i] = RunSlot(id: id, generation: run.generation)
        if field == RunIDs.overflowIndex { overflow[id] = run }
        lastRun = (id, run)
        return id
    }

    /// Forgets a released run's id.
    func unregister(_ id: UInt64, _ run: RunHandle) {
        slots[Int(run.index)] = RunSlot(id: 0, generation: 0)
        if id & RunIDs.overflowIndex == RunIDs.overflowIndex { overflow[id] = nil }
        if lastRun.id == id { lastRun = (0, RunHandle(index: -1, generation: 0)) }
    }

    /// Moves the engine's queued events into the box's queue, with run ids; drops what the
    /// engine queued for an owner that copies model values (a C host reads them itself).
    func collectEvents() {
        // The events taken go once they are all taken, or, when a host takes fewer than arrive,
        // once they are half the queue (each then moved at most once: linear in all), so that
        // the queue holds no more than twice what has not been taken.
        if nextEvent > 0, nextEvent == events.count || 2 * nextEvent >= events.count {
            events.removeFirst(nextEvent)
            nextEvent = 0
        }
        engine.drainEvents { event in
            switch event {
            case .finished(let run, _), .pausedAtEnd(let run): events.append((slots[Int(run.index)].id, event))
            }
        }
        engine.discardModelWritesAndReleasedBlocks()
    }

    /// Checks that `first ..< first + count` are lanes of this engine.
    /// The lanes of one animation: each one of the engine's, none twice.
    /// - Throws: `KN_ERR_OUT_OF_RANGE` naming `lanes[k]`.
    func distinctLanes(_ lanes: UnsafeBufferPointer<Int64>) throws -> [Int32] {
        try checkDistinctLanes(lanes)
        return lanes.map { Int32($0) }
    }

    /// Checks `distinctLanes`' conditions without building the list.
    /// - Throws: `KN_ERR_OUT_OF_RANGE` naming `lanes[k]`.
    func checkDistinctLanes(_ lanes: UnsafeBufferPointer<Int64>) throws {
        // A few lanes (a property's) are compared pairwise, without a set's allocation.
        var seen = lanes.count > Self.pairwiseLaneLimit ? Set<Int64>(minimumCapacity: lanes.count) : nil
        for (k, lane) in lanes.enumerated() {
            _ = try self.lanes(lane, 1, "lanes[\(k)]")
            let repeated = seen != nil ? seen?.insert(lane).inserted == false : lanes[..<k].contains(lane)
            guard !repeated else {
                throw InterfaceError(status: .outOfRange, message: "lanes[\(k)] = \(lane) appears twice in one animation")
            }
        }
    }

    /// Up to this many lanes per animation are checked for repeats pairwise.
    static let pairwiseLaneLimit = 16

    /// `name` is built only for the error (a lane of a list names its index).
    func lanes(_ first: Int64, _ count: Int64, _ name: @autoclosure () -> String) throws -> Range<Int> {
        let n = try checkedCount(count, "count")
        guard first >= 0, first <= Int64(engine.laneCount), Int64(n) <= Int64(engine.laneCount) - first else {
            throw InterfaceError(status: .outOfRange,
                                 message: "\(name()) = \(first), count = \(count): lanes outside [0, \(engine.laneCount)) (the engine's lanes)")
        }
        return Int(first) ..< Int(first) + n
    }
}

/// A run's id: a process-wide serial number (`EntryIDs`, never reused) in the high 48 bits
/// and the run's record index in the low 16, so that finding a run takes no table look-up:
/// the record's slot holds the id it was given. Records from index 2^16 − 1 up (an engine
/// with more runs alive at once) take the field's all-ones value and are found through the
/// box's `overflow` dictionary.
enum RunIDs {
    static let indexBits: UInt64 = 16
    static let overflowIndex: UInt64 = (1 << indexBits) - 1
    /// Serial numbers from here on would not fit: creating a run fails instead.
    static let serialLimit: UInt64 = 1 << (64 - indexBits)
}

/// One record's run in an engine box (id 0: none).
struct RunSlot {
    var id: UInt64
    var generation: UInt32
}

/// The box behind an engine handle; throws for NULL.
@inline(__always)
private func box(_ engine: OpaquePointer?) throws -> EngineBox {
    Unmanaged<EngineBox>.fromOpaque(UnsafeRawPointer(try required(engine, "engine"))).takeUnretainedValue()
}

/// Runs a state-machine call on a live run, then collects the engine's events.
private func onRun(_ engine: OpaquePointer?, _ run: UInt64, _ body: (LaneEngine, RunHandle) throws -> Void) -> Int32 {
    guarded {
        let b = try box(engine)
        let handle = try b.run(run)
        defer { b.collectEvents() }
        try body(b.engine, handle)
    }
}

/// A C int32_t flag as a Bool (0 false, anything else true).
@inline(__always)
private func flag(_ value: Int32) -> Bool { value != 0 }

/// The `kn_timing` struct of kinetic.h, read field by field at its C offsets (the ABI):
/// `int32_t kind` at 0, the doubles `x1, y1, x2, y2, damping_ratio` from 8, the spring
/// pointer at 48, `velocity_x, velocity_y` at 56 and 64 (72 bytes).
struct KNTiming {
    let kind: Int32
    let x1, y1, x2, y2, dampingRatio: Double
    let spring: OpaquePointer?
    let velocityX, velocityY: Double

    init(_ p: UnsafeRawPointer) {
        kind = p.loadUnaligned(fromByteOffset: 0, as: Int32.self)
        x1 = p.loadUnaligned(fromByteOffset: 8, as: Double.self)
        y1 = p.loadUnaligned(fromByteOffset: 16, as: Double.self)
        x2 = p.loadUnaligned(fromByteOffset: 24, as: Double.self)
        y2 = p.loadUnaligned(fromByteOffset: 32, as: Double.self)
        dampingRatio = p.loadUnaligned(fromByteOffset: 40, as: Double.self)
        spring = OpaquePointer(p.loadUnaligned(fromByteOffset: 48, as: UnsafeRawPointer?.self))
        velocityX = p.loadUnaligned(fromByteOffset: 56, as: Double.self)
        velocityY = p.loadUnaligned(fromByteOffset: 64, as: Double.self)
    }
}

/// The engine's timing for a `kn_timing`, validated.
private func runTiming(_ t: KNTiming, _ b: EngineBox) throws -> RunTiming {
    try ParameterError.requireFinite(t.velocityX, "velocity_x")
    try ParameterError.requireFinite(t.velocityY, "velocity_y")
    switch t.kind {
    case 0: return .linear
    case 1:
        if let last = b.lastCubic, last.x1 == t.x1, last.y1 == t.y1, last.x2 == t.x2, last.y2 == t.y2 {
            return .cubic(last)
        }
        let curve = try CubicBezier(t.x1, t.y1, t.x2, t.y2)
        b.lastCubic = curve
        return .cubic(curve)
    case 2:
        guard t.dampingRatio.isFinite else { throw ParameterError.notFinite(parameter: "damping_ratio", value: t.dampingRatio) }
        guard t.dampingRatio > 0 else {
            throw ParameterError.outOfRange(parameter: "damping_ratio", value: t.dampingRatio, expected: "(0, ∞)")
        }
        return .dampedSpring(dampingRatio: t.dampingRatio, vx: t.velocityX, vy: t.velocityY)
    case 3:
        let spring = try value(t.spring, as: Spring.self, "timing->spring")
        guard spring.damping > 0 else {
            throw ParameterError.outOfRange(parameter: "damping", value: spring.damping, expected: "(0, ∞) (the spring must settle)")
        }
        return .physicalSpring(spring, vx: t.velocityX, vy: t.velocityY)
    default:
        throw InterfaceError(status: .outOfRange, message: "timing kind = \(t.kind) is not a KN_TIMING_ value (0 to 3)")
    }
}

// MARK: - Engine

@_cdecl("kn_engine_create")
public func kn_engine_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        let out = try required(out, "out")
        out.pointee = OpaquePointer(Unmanaged.passRetained(EngineBox()).toOpaque())
    }
}

@_cdecl("kn_engine_destroy")
public func kn_engine_destroy(_ engine: OpaquePointer?) {
    guard let engine else { return }
    Unmanaged<EngineBox>.fromOpaque(UnsafeRawPointer(engine)).release()
}

@_cdecl("kn_engine_add_lanes")
public func kn_engine_add_lanes(_ engine: OpaquePointer?, _ values: UnsafePointer<Double>?, _ count: Int64,
                                _ first: UnsafeMutablePointer<Int64>?) -> Int32 {
    guarded {
        let b = try box(engine)
        let n = try checkedCount(count, "count")
        guard n <= Int(UInt16.max) else {
            throw InterfaceError(status: .outOfRange, message: "count = \(count) is outside [0, 65535] (lanes added at once)")
        }
        let first = try required(first, "first_lane")
        try checkStoreCapacity(b.engine.laneCount, adding: n, "count")
        let v = try array(values, n, "values")
        for (i, x) in v.enumerated() where !x.isFinite {
            throw ParameterError.notFinite(parameter: "values[\(i)]", value: x)
        }
        first.pointee = n == 0 ? Int64(b.engine.laneCount) : Int64(b.engine.firstLane(of: b.engine.allocateBlock(v)))
    }
}

@_cdecl("kn_engine_lane_count")
public func kn_engine_lane_count(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    guarded {
        let b = try box(engine)
        try required(out, "out").pointee = Int64(b.engine.laneCount)
    }
}

@_cdecl("kn_engine_read")
public func kn_engine_read(_ engine: OpaquePointer?, _ first: Int64, _ count: Int64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    readLanes(engine, first, count, out) { engine, range, out in
        engine.flush()
        for (k, lane) in range.enumerated() { out[k] = engine.output[lane] }
    }
}

@_cdecl("kn_engine_read_model")
public func kn_engine_read_model(_ engine: OpaquePointer?, _ first: Int64, _ count: Int64,
                                 _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    readLanes(engine, first, count, out) { engine, range, out in
        for (k, lane) in range.enumerated() { out[k] = engine.model[lane] }
    }
}

@_cdecl("kn_engine_read_velocity")
public func kn_engine_read_velocity(_ engine: OpaquePointer?, _ first: Int64, _ count: Int64,
                                    _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    readLanes(engine, first, count, out) { engine, range, out in
        guard let base = out.baseAddress, !range.isEmpty else { return }
        engine.velocities(ofLanes: range, into: base)
    }
}

/// The three lane reads: the engine, lanes `first ..< first + count` checked against its
/// lanes, and `out` checked for that many doubles, handed to `read`.
private func readLanes(_ engine: OpaquePointer?, _ first: Int64, _ count: Int64, _ out: UnsafeMutablePointer<Double>?,
                       _ read: (LaneEngine, Range<Int>, UnsafeMutableBufferPointer<Double>) -> Void) -> Int32 {
    guarded {
        let b = try box(engine)
        let range = try b.lanes(first, count, "first_lane")
        read(b.engine, range, try mutableBuffer(out, range.count, "out"))
    }
}

@_cdecl("kn_engine_set_model")
public func kn_engine_set_model(_ engine: OpaquePointer?, _ lane: Int64, _ value: Double) -> Int32 {
    guarded {
        let b = try box(engine)
        let range = try b.lanes(lane, 1, "lane")
        try ParameterError.requireFinite(value, "value")
        try b.engine.requireSettableModel(lane: range.lowerBound, to: value)
        b.engine.setModel(lane: range.lowerBound, to: value)
    }
}

// MARK: - Time and events

@_cdecl("kn_engine_advance_to")
public func kn_engine_advance_to(_ engine: OpaquePointer?, _ time: Double) -> Int32 {
    guarded {
        let b = try box(engine)
        try ParameterError.requireFinite(time, "time")
        guard time >= b.engine.now else {
            throw ParameterError.outOfRange(parameter: "time", value: time, expected: "[\(b.engine.now), ∞) (time cannot go back)")
        }
        b.engine.advance(to: time)
        b.collectEvents()
    }
}

@_cdecl("kn_engine_advance_by")
public func kn_engine_advance_by(_ engine: OpaquePointer?, _ dt: Double) -> Int32 {
    guarded {
        let b = try box(engine)
        try ParameterError.requireNonNegative(dt, "dt")
        let time = b.engine.now + dt
        try ParameterError.requireFinite(time, "time + dt")
        b.engine.advance(to: time)
        b.collectEvents()
    }
}

@_cdecl("kn_engine_time")
public func kn_engine_time(_ engine: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let b = try box(engine)
        try required(out, "out").pointee = b.engine.now
    }
}

@_cdecl("kn_engine_next_event")
/// `kn_event` is `uint64_t run` at 0, `int32_t kind` at 8, `int32_t position` at 12.
public func kn_engine_next_event(_ engine: OpaquePointer?, _ out: UnsafeMutableRawPointer?,
                                 _ hasEvent: UnsafeMutablePointer<Int32>?) -> Int32 {
    guarded {
        let b = try box(engine)
        let out = try required(out, "out")
        let has = try required(hasEvent, "has_event")
        guard b.nextEvent < b.events.count else {
            has.pointee = 0
            return
        }
        let (id, event) = b.events[b.nextEvent]
        b.nextEvent += 1
        let (kind, position): (Int32, Int32)
        switch event {
        case .finished(_, let p): (kind, position) = (0, Int32(p.rawValue))
        case .pausedAtEnd: (kind, position) = (1, 0)
        }
        out.storeBytes(of: id, toByteOffset: 0, as: UInt64.self)
        out.storeBytes(of: kind, toByteOffset: 8, as: Int32.self)
        out.storeBytes(of: position, toByteOffset: 12, as: Int32.self)
        has.pointee = 1
    }
}

// MARK: - Runs

@_cdecl("kn_engine_run_create")
public func kn_engine_run_create(_ engine: OpaquePointer?, _ timing: UnsafeRawPointer?, _ duration: Double,
                                 _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    guarded {
        let b = try box(engine)
        let timing = try runTiming(KNTiming(try required(timing, "timing")), b)
        let out = try required(out, "out")
        let serial = EntryIDs.next()
        guard serial < RunIDs.serialLimit else {
            throw InterfaceError(status: .outOfRange, message: "run ids exhausted: this process has handed out 2^48 run and store entry ids")
        }
        let run = try b.engine.makeRun(timing: timing, duration: duration)
        out.pointee = b.register(run, serial: serial)
    }
}

@_cdecl("kn_engine_run_release")
public func kn_engine_run_release(_ engine: OpaquePointer?, _ run: UInt64) -> Int32 {
    onRun(engine, run) { e, handle in
        e.releaseRunAndAnimations(handle)
        let b = try box(engine)
        b.unregister(run, handle)
    }
}

@_cdecl("kn_engine_run_configure")
public func kn_engine_run_configure(_ engine: OpaquePointer?, _ run: UInt64, _ repeats: Int32, _ autoreverses: Int32,
                                    _ beginsFromCurrentState: Int32) -> Int32 {
    onRun(engine, run) { e, handle in
        guard e.state(of: handle) == .inactive else { throw RunError.setWhileActive(property: "repeats / autoreverses") }
        e.configure(handle, repeats: flag(repeats), autoreverses: flag(autoreverses),
                    beginsFromCurrentState: flag(beginsFromCurrentState))
    }
}

@_cdecl("kn_engine_run_set_repeat_count")
public func kn_engine_run_set_repeat_count(_ engine: OpaquePointer?, _ run: UInt64, _ cycles: Double) -> Int32 {
    onRun(engine, run) { e, handle in
        guard e.state(of: handle) == .inactive else { throw RunError.setWhileActive(property: "repeat count") }
        try ParameterError.requireFinite(cycles, "cycles")
        e.setRepeatCount(cycles, of: handle)
    }
}

@_cdecl("kn_engine_run_add_animations")
public func kn_engine_run_add_animations(_ engine: OpaquePointer?, _ run: UInt64, _ lanes: UnsafePointer<Int64>?,
                                         _ targets: UnsafePointer<Double>?, _ vertical: UnsafePointer<Int32>?,
                                         _ count: Int64, _ delayFactor: Double) -> Int32 {
    onRun(engine, run) { e, handle in
        let b = try box(engine)
        let n = try checkedCount(count, "count")
        let l = try buffer(lanes, n, "lanes"), t = try buffer(targets, n, "targets")
        let v = vertical.map { UnsafeBufferPointer(start: $0, count: n) }
        try b.checkDistinctLanes(l)
        for k in 0 ..< n where !t[k].isFinite {
            throw ParameterError.notFinite(parameter: "targets[\(k)]", value: t[k])
        }
        @inline(__always) func target(_ k: Int) -> LaneTarget {
            LaneTarget(lane: Int32(l[k]), value: t[k], vertical: v.map { $0[k] != 0 } ?? false)
        }
        // One lane (a scalar property) goes without an array.
        let targets: LaneTargets = n == 1 ? .one(target(0)) : .many((0 ..< n).map(target))
        try e.addAnimations(handle, targets: targets, delayFactor: delayFactor)
    }
}

@_cdecl("kn_engine_run_add_keyframes")
public func kn_engine_run_add_keyframes(_ engine: OpaquePointer?, _ run: UInt64, _ lanes: UnsafePointer<Int64>?,
                                        _ laneCount: Int64, _ values: UnsafePointer<Double>?,
                                        _ keyTimes: UnsafePointer<Double>?, _ keyCount: Int64,
                                        _ calculationMode: Int32) -> Int32 {
    onRun(engine, run) { e, handle in
        let b = try box(engine)
        let n = try checkedCount(laneCount, "lane_count"), keys = try checkedCount(keyCount, "key_count")
        guard n == 0 || keys <= Int(maximumCount) / n else {
            throw InterfaceError(status: .outOfRange,
                                 message: "key_count × lane_count = \(keyCount) × \(laneCount) is beyond what one call takes")
        }
        let modes: [KeyframeCalculationMode] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
        guard calculationMode >= 0, Int(calculationMode) < modes.count else {
            throw InterfaceError(status: .outOfRange,
                                 message: "calculation_mode = \(calculationMode) is not a KN_CALCULATION_ value (0 to 4)")
        }
        let l = try buffer(lanes, n, "lanes"), v = try buffer(values, keys * n, "values")
        let list = try b.distinctLanes(l)
        let times: [Double]
        if let keyTimes {
            times = Array(UnsafeBufferPointer(start: keyTimes, count: keys))
        } else {
            times = (0 ..< keys).map { Double($0 + 1) / Double(keys) }
        }
        for (i, x) in v.enumerated() where !x.isFinite { throw ParameterError.notFinite(parameter: "values[\(i)]", value: x) }
        for (k, t) in times.enumerated() {
            guard t.isFinite else { throw ParameterError.notFinite(parameter: "key_times[\(k)]", value: t) }
            guard (0 ... 1).contains(t), k == 0 || t >= times[k - 1] else {
                throw ParameterError.outOfRange(parameter: "key_times[\(k)]", value: t,
                                                expected: k == 0 ? "[0, 1]" : "[key_times[\(k - 1)], 1]")
            }
        }
        try e.addKeyframes(handle, lanes: list, values: Array(v), keyTimes: times, calculationMode: modes[Int(calculationMode)])
    }
}

@_cdecl("kn_engine_run_start")
public func kn_engine_run_start(_ engine: OpaquePointer?, _ run: UInt64) -> Int32 {
    onRun(engine, run) { e, handle in try e.startAnimation(handle) }
}

@_cdecl("kn_engine_run_start_after_delay")
public func kn_engine_run_start_after_delay(_ engine: OpaquePointer?, _ run: UInt64, _ delay: Double) -> Int32 {
    onRun(engine, run) { e, handle in try e.startAnimation(handle, afterDelay: delay) }
}

@_cdecl("kn_engine_run_pause")
public func kn_engine_run_pause(_ engine: OpaquePointer?, _ run: UInt64) -> Int32 {
    onRun(engine, run) { e, handle in try e.pauseAnimation(handle) }
}

@_cdecl("kn_engine_run_stop")
public func kn_engine_run_stop(_ engine: OpaquePointer?, _ run: UInt64, _ withoutFinishing: Int32) -> Int32 {
    onRun(engine, run) { e, handle in try e.stopAnimation(handle, withoutFinishing: flag(withoutFinishing)) }
}

@_cdecl("kn_engine_run_finish")
public func kn_engine_run_finish(_ engine: OpaquePointer?, _ run: UInt64, _ position: Int32) -> Int32 {
    onRun(engine, run) { e, handle in
        guard let p = Int8(exactly: position).flatMap(RunPosition.init(rawValue:)) else {
            throw InterfaceError(status: .outOfRange, message: "position = \(position) is not a KN_POSITION_ value (0 to 2)")
        }
        try e.finishAnimation(handle, at: p)
    }
}

@_cdecl("kn_engine_run_continue")
public func kn_engine_run_continue(_ engine: OpaquePointer?, _ run: UInt64, _ timing: UnsafeRawPointer?,
                                   _ durationFactor: Double) -> Int32 {
    onRun(engine, run) { e, handle in
        let b = try box(engine)
        try e.continueAnimation(handle, timing: try timing.map { try runTiming(KNTiming($0), b) }, durationFactor: durationFactor)
    }
}

@_cdecl("kn_engine_run_set_fraction")
public func kn_engine_run_set_fraction(_ engine: OpaquePointer?, _ run: UInt64, _ fraction: Double) -> Int32 {
    onRun(engine, run) { e, handle in try e.setFractionComplete(handle, fraction) }
}

@_cdecl("kn_engine_run_set_reversed")
public func kn_engine_run_set_reversed(_ engine: OpaquePointer?, _ run: UInt64, _ reversed: Int32) -> Int32 {
    onRun(engine, run) { e, handle in try e.setReversed(flag(reversed), of: handle) }
}

@_cdecl("kn_engine_run_set_interruptible")
public func kn_engine_run_set_interruptible(_ engine: OpaquePointer?, _ run: UInt64, _ interruptible: Int32) -> Int32 {
    onRun(engine, run) { e, handle in try e.setInterruptible(flag(interruptible), of: handle) }
}

@_cdecl("kn_engine_run_set_scrubs_linearly")
public func kn_engine_run_set_scrubs_linearly(_ engine: OpaquePointer?, _ run: UInt64, _ linearly: Int32) -> Int32 {
    onRun(engine, run) { e, handle in e.setScrubsLinearly(flag(linearly), of: handle) }
}

@_cdecl("kn_engine_run_set_pauses_on_completion")
public func kn_engine_run_set_pauses_on_completion(_ engine: OpaquePointer?, _ run: UInt64, _ pauses: Int32) -> Int32 {
    onRun(engine, run) { e, handle in e.setPausesOnCompletion(flag(pauses), of: handle) }
}

/// `kn_run_info` is six `int32_t` (state, running, reversed, interruptible,
/// scrubs_linearly, pauses_on_completion) at 0 to 20, then `double fraction_complete` at 24.
@_cdecl("kn_engine_run_info")
public func kn_engine_run_info(_ engine: OpaquePointer?, _ run: UInt64, _ out: UnsafeMutableRawPointer?) -> Int32 {
    guarded {
        let b = try box(engine)
        let handle = try b.run(run, remember: false)
        let out = try required(out, "out")
        let e = b.engine
        let flags: [Int32] = [Int32(e.state(of: handle).rawValue), e.isRunning(handle) ? 1 : 0, e.isReversed(handle) ? 1 : 0,
                              e.isInterruptible(handle) ? 1 : 0, e.scrubsLinearly(handle) ? 1 : 0,
                              e.pausesOnCompletion(handle) ? 1 : 0]
        for (k, f) in flags.enumerated() { out.storeBytes(of: f, toByteOffset: 4 * k, as: Int32.self) }
        out.storeBytes(of: e.fractionComplete(of: handle), toByteOffset: 24, as: Double.self)
    }
}
