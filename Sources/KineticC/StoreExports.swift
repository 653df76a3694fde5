// kn_store_*: BatchStore behind an opaque handle. Entries are handed to C as integer ids
// (kn_entry) that the box maps to the store's generation-checked handles.

import KineticPlatform
import Kinetic

/// A store plus the ids of its live entries.
final class StoreBox {
    let store = BatchStore()
    var entries: [UInt64: BatchStore.Handle] = [:]

    /// The handle of a live entry of this store; `KN_ERR_STALE_HANDLE` otherwise.
    func handle(_ entry: UInt64) throws -> BatchStore.Handle {
        guard let handle = entries[entry] else {
            throw InterfaceError(status: .staleHandle,
                                 message: "entry \(entry) is not a live entry of this store (removed, never added, or another store's)")
        }
        return handle
    }

    /// Registers `handle` under a fresh id.
    func register(_ handle: BatchStore.Handle) -> UInt64 {
        let id = EntryIDs.next()
        entries[id] = handle
        return id
    }
}

/// Entry ids, unique across every store of the process (so another store's id is caught).
enum EntryIDs {
    private struct State: @unchecked Sendable {
        let lock: UnsafeMutablePointer<pthread_mutex_t>
        let counter: UnsafeMutablePointer<UInt64>
    }
    private static let state: State = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        let counter = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        counter.initialize(to: 0)
        return State(lock: lock, counter: counter)
    }()

    static func next() -> UInt64 {
        pthread_mutex_lock(state.lock)
        defer { pthread_mutex_unlock(state.lock) }
        state.counter.pointee += 1
        return state.counter.pointee
    }
}

/// The box behind a store handle; throws for NULL.
@inline(__always)
private func box(_ store: OpaquePointer?) throws -> StoreBox {
    Unmanaged<StoreBox>.fromOpaque(UnsafeRawPointer(try required(store, "store"))).takeUnretainedValue()
}

/// Runs `add` and stores the new entry's id in `out` (checked first).
private func add(_ store: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?,
                 _ add: (BatchStore) throws -> BatchStore.Handle) -> Int32 {
    guarded {
        let b = try box(store)
        let out = try required(out, "out")
        out.pointee = b.register(try add(b.store))
    }
}

@_cdecl("kn_store_create")
public func kn_store_create(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        let out = try required(out, "out")
        out.pointee = OpaquePointer(Unmanaged.passRetained(StoreBox()).toOpaque())
    }
}

@_cdecl("kn_store_add_group")
public func kn_store_add_group(_ store: OpaquePointer?, _ from: UnsafePointer<Double>?, _ to: UnsafePointer<Double>?,
                               _ count: Int64, _ progress: Double, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    add(store, out) { s in
        let n = try checkedCount(count, "count")
        try checkStoreCapacity(s.laneCount, adding: n, "count")
        return try s.addGroup(from: try array(from, n, "from"), to: try array(to, n, "to"), progress: progress)
    }
}

@_cdecl("kn_store_add_lanes")
public func kn_store_add_lanes(_ store: OpaquePointer?, _ from: UnsafePointer<Double>?, _ to: UnsafePointer<Double>?,
                               _ progress: UnsafePointer<Double>?, _ count: Int64,
                               _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    add(store, out) { s in
        let n = try checkedCount(count, "count")
        try checkStoreCapacity(s.laneCount, adding: n, "count")
        return try s.addLanes(from: try array(from, n, "from"), to: try array(to, n, "to"),
                              progress: try array(progress, n, "progress"))
    }
}

@_cdecl("kn_store_add_keyframes")
public func kn_store_add_keyframes(_ store: OpaquePointer?, _ keyTimes: UnsafePointer<Double>?, _ keyCount: Int64,
                                   _ values: UnsafePointer<Double>?, _ trackCount: Int64,
                                   _ interpolations: UnsafePointer<Int32>?, _ easings: UnsafePointer<OpaquePointer?>?,
                                   _ progress: Double, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    add(store, out) { s in
        // Every count is checked, and the product bounded, before anything is allocated.
        if keyCount < 0 { throw countError("key_count", keyCount) }
        if trackCount < 0 { throw countError("track_count", trackCount) }
        guard keyCount >= 1 else {
            throw InterfaceError(status: .countMismatch, message: "key_count = \(keyCount): a keyframe track needs at least 1 key")
        }
        guard trackCount >= 1 else {
            throw InterfaceError(status: .countMismatch, message: "track_count = \(trackCount): at least 1 track is needed")
        }
        let keys = try checkedCount(keyCount, "key_count")
        let tracks = try checkedCount(trackCount, "track_count")
        guard Int64(keys) * Int64(tracks) <= maximumCount else {  // both <= 2^28: no overflow
            throw InterfaceError(status: .outOfRange,
                                 message: "track_count · key_count = \(trackCount) · \(keyCount) = \(Int64(keys) * Int64(tracks)) is above KN_MAX_COUNT = \(maximumCount)")
        }
        try checkStoreCapacity(s.laneCount, adding: tracks, "track_count")
        let times = try array(keyTimes, keys, "key_times")
        let all = try buffer(values, keys * tracks, "values")
        let segments = try segmentInterpolations(interpolations, easings, max(keys - 1, 0))
        try checkKeyframeBuildMemory(tracks: tracks, keys: keys)
        let built = try (0 ..< tracks).map { t in
            try KeyframeTrack<Double>(keyTimes: times, values: Array(all[t * keys ..< (t + 1) * keys]),
                                      interpolations: segments)
        }
        return try s.addKeyframes(built, progress: progress)
    }
}

/// Refuses, before anything is allocated, a keyframe entry whose construction would need
/// more than the memory the process may use (`memoryLimitBytes`: the machine's physical
/// memory, or its control group's lower limit): the entry is built from one scalar track per
/// lane, which takes several hundred bytes per track on top of the values (`bytesPerTrack`
/// bounds it from above), so a count that passes KN_MAX_COUNT could still ask for tens of
/// gigabytes and end the process.
private func checkKeyframeBuildMemory(tracks: Int, keys: Int) throws {
    guard let memory = memoryLimitBytes else { return }
    // Both counts are at most 2^28 and their product too: no overflow below.
    let bytesPerTrack = 768 + 160 * keys
    let needed = tracks * bytesPerTrack
    guard needed <= memory else {
        throw InterfaceError(status: .outOfRange,
                             message: "track_count = \(tracks) with key_count = \(keys) would need about "
                                 + "\(gibibytes(Double(needed))) to build the entry, more than the "
                                 + "\(gibibytes(Double(memory))) of memory this process may use")
    }
}

/// The KN_INTERPOLATION_ codes (and easing curves) of `count` segments; NULL codes mean linear.
private func segmentInterpolations(_ codes: UnsafePointer<Int32>?, _ easings: UnsafePointer<OpaquePointer?>?,
                                   _ count: Int) throws -> [KeyframeInterpolation] {
    guard let codes else { return [KeyframeInterpolation](repeating: .linear, count: count) }
    return try (0 ..< count).map { i in
        switch codes[i] {
        case 0: return .hold
        case 1: return .linear
        case 2:
            let list = try required(easings, "easings (segment \(i) is KN_INTERPOLATION_EASED)")
            return .eased(try BezierHandle.curve(list[i], "easings[\(i)]"))
        case 3: return .catmullRom
        default:
            throw integerOutOfRange("interpolations[\(i)]", codes[i], expected: "[0, 3]")
        }
    }
}

@_cdecl("kn_store_add_springs")
public func kn_store_add_springs(_ store: OpaquePointer?, _ spring: OpaquePointer?, _ targets: UnsafePointer<Double>?,
                                 _ displacements: UnsafePointer<Double>?, _ velocities: UnsafePointer<Double>?,
                                 _ count: Int64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    add(store, out) { s in
        let sp = try value(spring, as: Spring.self, "spring")
        let n = try checkedCount(count, "count")
        try checkStoreCapacity(s.laneCount, adding: n, "count")
        return try s.addSprings(sp, targets: try array(targets, n, "targets"),
                                displacements: displacements == nil ? nil : try array(displacements, n, "displacements"),
                                velocities: velocities == nil ? nil : try array(velocities, n, "velocities"))
    }
}

@_cdecl("kn_store_add_decays")
public func kn_store_add_decays(_ store: OpaquePointer?, _ decay: UnsafePointer<Double>?, _ positions: UnsafePointer<Double>?,
                                _ velocities: UnsafePointer<Double>?, _ count: Int64,
                                _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    add(store, out) { s in
        let d = try readDecay(decay)
        let n = try checkedCount(count, "count")
        try checkStoreCapacity(s.laneCount, adding: n, "count")
        return try s.addDecays(d, positions: try array(positions, n, "positions"),
                               velocities: try array(velocities, n, "velocities"))
    }
}

@_cdecl("kn_store_retarget_springs")
public func kn_store_retarget_springs(_ store: OpaquePointer?, _ entry: UInt64, _ targets: UnsafePointer<Double>?,
                                      _ count: Int64) -> Int32 {
    withEntryValues(store, entry, targets, count, "targets") { store, handle, targets in
        try store.retargetSprings(handle, targets: targets)
    }
}

@_cdecl("kn_store_remove")
public func kn_store_remove(_ store: OpaquePointer?, _ entry: UInt64) -> Int32 {
    guarded {
        let b = try box(store)
        try b.store.remove(try b.handle(entry))
        b.entries[entry] = nil
    }
}

@_cdecl("kn_store_contains")
public func kn_store_contains(_ store: OpaquePointer?, _ entry: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    guarded {
        let b = try box(store)
        let out = try required(out, "out")
        out.pointee = b.entries[entry].map { b.store.contains($0) ? 1 : 0 } ?? 0
    }
}

@_cdecl("kn_store_set_progress")
public func kn_store_set_progress(_ store: OpaquePointer?, _ entry: UInt64, _ progress: Double) -> Int32 {
    guarded {
        let b = try box(store)
        try b.store.setProgress(progress, for: try b.handle(entry))
    }
}

@_cdecl("kn_store_set_lane_progress")
public func kn_store_set_lane_progress(_ store: OpaquePointer?, _ entry: UInt64, _ progress: UnsafePointer<Double>?,
                                       _ count: Int64) -> Int32 {
    // The store checks the count and every value (naming the first non-finite one).
    withEntryValues(store, entry, progress, count, "progress") { store, handle, progress in
        try store.setProgress(progress, for: handle)
    }
}

/// The calls that hand one entry `count` doubles: the store, the entry's handle and the
/// values (checked for NULL against the count, named `name`) given to `body`.
private func withEntryValues(_ store: OpaquePointer?, _ entry: UInt64, _ values: UnsafePointer<Double>?, _ count: Int64,
                             _ name: String,
                             _ body: (BatchStore, BatchStore.Handle, UnsafeBufferPointer<Double>) throws -> Void) -> Int32 {
    guarded {
        let b = try box(store)
        let handle = try b.handle(entry)
        let n = try checkedCount(count, "count")
        try body(b.store, handle, try buffer(values, n, name))
    }
}

@_cdecl("kn_store_tick")
public func kn_store_tick(_ store: OpaquePointer?, _ dt: Double) -> Int32 {
    // Native explicitly: no C entry point runs a BLAS routine, so none loads OpenBLAS.
    guarded { try box(store).store.tick(over: dt, backend: .native) }
}

@_cdecl("kn_store_evaluate")
public func kn_store_evaluate(_ store: OpaquePointer?) -> Int32 {
    guarded { try box(store).store.evaluate(backend: .native) }
}

@_cdecl("kn_store_counts")
public func kn_store_counts(_ store: OpaquePointer?, _ laneCount: UnsafeMutablePointer<Int64>?,
                            _ entryCount: UnsafeMutablePointer<Int64>?) -> Int32 {
    guarded {
        let s = try box(store).store
        laneCount?.pointee = Int64(s.laneCount)
        entryCount?.pointee = Int64(s.entryCount)
    }
}

@_cdecl("kn_store_range")
public func kn_store_range(_ store: OpaquePointer?, _ entry: UInt64, _ offset: UnsafeMutablePointer<Int64>?,
                           _ count: UnsafeMutablePointer<Int64>?) -> Int32 {
    guarded {
        let b = try box(store)
        let r = try b.store.range(of: try b.handle(entry))
        offset?.pointee = Int64(r.lowerBound)
        count?.pointee = Int64(r.count)
    }
}

@_cdecl("kn_store_value")
public func kn_store_value(_ store: OpaquePointer?, _ entry: UInt64, _ lane: Int64,
                           _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let b = try box(store)
        let handle = try b.handle(entry)
        let out = try required(out, "out")
        let lanes = try b.store.range(of: handle).count
        guard lane >= 0 && lane < lanes else {
            throw integerOutOfRange("lane", lane, expected: "[0, \(lanes)), the lanes of the entry")
        }
        out.pointee = try b.store.value(of: handle, lane: Int(lane))
    }
}

/// Copies `range` of the output into `out` (capacity checked; `count` always reported).
private func copy(_ s: BatchStore, _ range: Range<Int>, _ out: UnsafeMutablePointer<Double>?, _ capacity: Int64,
                  _ count: UnsafeMutablePointer<Int64>?) throws {
    let cap = try checkedCapacity(capacity, "capacity")
    guard cap >= range.count else {
        count?.pointee = Int64(range.count)
        throw InterfaceError(status: .bufferTooSmall,
                             message: "capacity = \(cap) is smaller than the \(range.count) values to copy")
    }
    let destination = try mutableBuffer(out, range.count, "out")
    count?.pointee = Int64(range.count)
    s.withValues { values in
        for i in 0 ..< range.count { destination[i] = values[range.lowerBound + i] }
    }
}

@_cdecl("kn_store_read")
public func kn_store_read(_ store: OpaquePointer?, _ entry: UInt64, _ out: UnsafeMutablePointer<Double>?,
                          _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> Int32 {
    guarded {
        let b = try box(store)
        try copy(b.store, try b.store.range(of: try b.handle(entry)), out, capacity, count)
    }
}

@_cdecl("kn_store_read_all")
public func kn_store_read_all(_ store: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?, _ capacity: Int64,
                              _ count: UnsafeMutablePointer<Int64>?) -> Int32 {
    guarded {
        let s = try box(store).store
        try copy(s, 0 ..< s.laneCount, out, capacity, count)
    }
}

@_cdecl("kn_store_destroy")
public func kn_store_destroy(_ store: OpaquePointer?) {
    guard let store else { return }
    Unmanaged<StoreBox>.fromOpaque(UnsafeRawPointer(store)).release()
}
