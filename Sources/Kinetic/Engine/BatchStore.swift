/// Structure-of-arrays storage for many animated lanes (thousands to millions), evaluated in
/// one pass per frame into one contiguous output array.
///
/// A store holds four kinds of entries (``EntryKind``), each kind packed in its own
/// contiguous arrays:
/// - **groups** (``addGroup(from:to:progress:)``): lanes that share one progress value
///   (one animation over many properties): `value = from + progress · (to − from)`;
/// - **lanes** (``addLanes(from:to:progress:)``): lanes with their own progress each;
/// - **keyframes** (``addKeyframes(_:progress:)``): scalar keyframe tracks that share key
///   times and segment shapes (their easing curves may differ), evaluated through a shared
///   basis (``KeyframeBatch``), one progress per entry;
/// - **springs** (``addSprings(_:targets:displacements:velocities:)``): springs sharing
///   parameters (a ``SpringGroup``), stepped exactly by ``tick(over:backend:)``:
///   `value = target + displacement`.
///
/// Every add returns a ``Handle``: a slot index plus a generation. Removing an entry bumps
/// its slot's generation, so using a handle after its entry was removed throws
/// ``BatchStoreError/staleHandle(index:generation:)`` instead of touching another entry.
///
/// ## Output
/// ``evaluate(backend:)`` (or ``tick(over:backend:)``) writes every lane's current value into
/// one contiguous array, sections in the order groups, lanes, keyframes, springs. Read it
/// with ``withValues(_:)`` and ``range(of:)`` / ``value(of:lane:)``. Adding or removing
/// entries moves later entries' ranges (the storage stays compact), so look ranges up after
/// any change. Every entry's values stay those of the last evaluation through adds and
/// removals of other entries; values of a fresh entry are 0 until the next evaluation.
///
/// ## Cost and memory
/// A frame is, per group and per keyframe entry, one fused pass over its lanes (plus one
/// segment look-up and easing solve per keyframe entry); per-lane entries form one pass over
/// the whole section; spring entries one step and one add each. Evaluating never allocates.
/// Removal closes the gap at once (a move of the section's later lanes, O(lanes after it)) and
/// frees the slot for reuse, so capacity only ever reaches what the most live lanes and
/// entries at one time needed: endless add/remove churn runs in bounded memory.
///
/// A `BatchStore` is a mutable reference type and **not thread-safe** (deliberately not
/// `Sendable`): use it from one thread or task at a time.
public final class BatchStore {
    /// The kinds of entries a store holds.
    public enum EntryKind: Sendable, Hashable, CustomStringConvertible {
        case group, lanes, keyframes, springs
        public var description: String {
            switch self {
            case .group: return "group"
            case .lanes: return "lanes"
            case .keyframes: return "keyframes"
            case .springs: return "springs"
            }
        }
    }

    /// An opaque, generation-checked reference to one entry of a store.
    public struct Handle: Hashable, Sendable {
        /// The kind of entry the handle refers to.
        public let kind: EntryKind
        let index: UInt32
        let generation: UInt32
    }

    var slots = StoreSlots()
    // Groups: from / delta lanes; per entry its progress and the largest |from| and |delta|.
    var groups = StoreSection<(progress: Double, fromBound: Double, deltaBound: Double)>()
    var groupFrom: [Double] = [], groupDelta: [Double] = []
    // Per-lane entries; per entry the largest |from|, |delta| and |progress|.
    var lanes = StoreSection<(fromBound: Double, deltaBound: Double, progressBound: Double)>()
    var laneFrom: [Double] = [], laneDelta: [Double] = [], laneProgress: [Double] = []
    // Keyframe entries: the batch and its progress.
    var keyframes = StoreSection<(batch: KeyframeBatch, progress: Double)>()
    // Spring entries: the group and the largest |target|; targets per lane.
    var springs = StoreSection<(group: SpringGroup, targetBound: Double)>()
    var springTargets: [Double] = []
    /// The output, all sections back to back.
    var output: [Double] = []

    /// An empty store.
    public init() {}

    // MARK: Sizes

    /// The number of lanes (output values).
    public var laneCount: Int { output.count }
    /// The number of live entries.
    public var entryCount: Int {
        groups.entries.count + lanes.entries.count + keyframes.entries.count + springs.entries.count
    }
    /// Diagnostics: the largest capacity (in doubles) of any lane array of the store. It
    /// grows only when more lanes are live at once than ever before.
    public var laneCapacity: Int {
        [output.capacity, groupFrom.capacity, groupDelta.capacity, laneFrom.capacity, laneDelta.capacity,
         laneProgress.capacity, springTargets.capacity].max()!
    }
    /// Diagnostics: the number of handle slots (the most entries ever live at once).
    public var slotCapacity: Int { slots.capacity }

    // MARK: Adding

    /// Adds lanes that share one progress: `value[i] = from[i] + progress · (to[i] − from[i])`.
    /// - Parameters:
    ///   - from: start values (any units), finite.
    ///   - to: end values, same count, finite.
    ///   - progress: the initial eased progress (usually in [0, 1]), finite.
    /// - Throws: ``ParameterError`` on a count mismatch or a non-finite value;
    ///   ``BatchStoreError/overflow(lane:quantity:)`` (lane within the new entry, quantity
    ///   "to − from") when `to[i] − from[i]` is beyond the range of `Double` (ends of opposite
    ///   sign near ±1e308). Values beyond the range at some progress are reported by
    ///   ``evaluate(backend:)``.
    public func addGroup(from: [Double], to: [Double], progress: Double = 0) throws -> Handle {
        try Self.check(from: from, to: to)
        try ParameterError.requireFinite(progress, "progress")
        let (delta, fromBound, deltaBound) = try Self.deltas(from: from, to: to)
        let handle = slots.acquire(kind: .group, entry: groups.entries.count)
        let end = groups.laneCount
        _ = groups.append(slot: Int(handle.index), count: from.count, payload: (progress, fromBound, deltaBound))
        groupFrom.append(contentsOf: from)
        groupDelta.append(contentsOf: delta)
        insertOutput(from.count, at: end)
        return handle
    }

    /// Adds lanes with their own progress each: `value[i] = from[i] + progress[i] · (to[i] − from[i])`.
    /// - Parameters:
    ///   - from: start values (any units), finite.
    ///   - to: end values, same count, finite.
    ///   - progress: one initial progress per lane (usually in [0, 1]), finite; same
    ///     count as `from`.
    /// - Throws: ``ParameterError`` on a count mismatch or a non-finite value;
    ///   ``BatchStoreError/overflow(lane:quantity:)`` as ``addGroup(from:to:progress:)``.
    public func addLanes(from: [Double], to: [Double], progress: [Double]) throws -> Handle {
        try Self.check(from: from, to: to)
        try requireCount(progress.count, from.count, "progress")
        try ParameterError.requireAllFinite(progress, "progress")
        let (delta, fromBound, deltaBound) = try Self.deltas(from: from, to: to)
        let progressBound = progress.reduce(0) { max($0, $1.magnitude) }
        let handle = slots.acquire(kind: .lanes, entry: lanes.entries.count)
        let end = groups.laneCount + lanes.laneCount
        _ = lanes.append(slot: Int(handle.index), count: from.count, payload: (fromBound, deltaBound, progressBound))
        laneFrom.append(contentsOf: from)
        laneDelta.append(contentsOf: delta)
        laneProgress.append(contentsOf: progress)
        insertOutput(from.count, at: end)
        return handle
    }

    /// Adds scalar keyframe tracks that share key times and interpolations (one output lane
    /// per track), all at one progress (see ``KeyframeBatch``).
    /// - Throws: as ``KeyframeBatch/init(tracks:)``; ``ParameterError`` for non-finite progress.
    public func addKeyframes(_ tracks: [KeyframeTrack<Double>], progress: Double = 0) throws -> Handle {
        try ParameterError.requireFinite(progress, "progress")
        let batch = try KeyframeBatch(tracks: tracks)
        let handle = slots.acquire(kind: .keyframes, entry: keyframes.entries.count)
        let end = groups.laneCount + lanes.laneCount + keyframes.laneCount
        _ = keyframes.append(slot: Int(handle.index), count: batch.count, payload: (batch, progress))
        insertOutput(batch.count, at: end)
        return handle
    }

    /// Adds springs that share `spring`'s parameters, one lane each:
    /// `value = target + displacement`, advanced by ``tick(over:backend:)``.
    /// - Parameters:
    ///   - spring: the parameters every spring of the entry shares.
    ///   - targets: the rest values (any units), finite.
    ///   - displacements: initial position − target per lane (default all 0), finite.
    ///   - velocities: initial velocities, units per second (default all 0), finite.
    /// - Throws: ``ParameterError`` on a count mismatch or a non-finite value.
    public func addSprings(_ spring: Spring, targets: [Double], displacements: [Double]? = nil,
                           velocities: [Double]? = nil) throws -> Handle {
        let n = targets.count
        let x = displacements ?? [Double](repeating: 0, count: n)
        let v = velocities ?? [Double](repeating: 0, count: n)
        try requireCount(x.count, n, "displacements")
        try requireCount(v.count, n, "velocities")
        try ParameterError.requireAllFinite(targets, "targets")
        try ParameterError.requireAllFinite(x, "displacements")
        try ParameterError.requireAllFinite(v, "velocities")
        let group = try SpringGroup(spring: spring, displacements: x, velocities: v)
        let handle = slots.acquire(kind: .springs, entry: springs.entries.count)
        let targetBound = targets.reduce(0) { max($0, $1.magnitude) }
        _ = springs.append(slot: Int(handle.index), count: n, payload: (group, targetBound))
        springTargets.append(contentsOf: targets)
        output.append(contentsOf: repeatElement(0, count: n))
        return handle
    }

    /// Inserts the `count` output lanes of a new entry, zeros, at `index` (the end of its
    /// kind's section), so that every other entry keeps its values as of the last evaluation.
    private func insertOutput(_ count: Int, at index: Int) {
        if index == output.count {
            output.append(contentsOf: repeatElement(0, count: count))
        } else {
            output.insert(contentsOf: repeatElement(0, count: count), at: index)
        }
    }

    private static func check(from: [Double], to: [Double]) throws {
        try requireCount(to.count, from.count, "to")
        try ParameterError.requireAllFinite(from, "from")
        try ParameterError.requireAllFinite(to, "to")
    }

    /// `to − from` per lane, and the largest |from| and |to − from| (for the evaluation's
    /// range check).
    /// - Throws: ``BatchStoreError/overflow(lane:quantity:)`` for the first difference beyond
    ///   the range of `Double`.
    private static func deltas(from: [Double], to: [Double]) throws -> ([Double], Double, Double) {
        var delta = [Double](), fromBound = 0.0, deltaBound = 0.0
        delta.reserveCapacity(from.count)
        for i in from.indices {
            let d = to[i] - from[i]
            guard d.isFinite else { throw BatchStoreError.overflow(lane: i, quantity: "to − from") }
            delta.append(d)
            fromBound = max(fromBound, from[i].magnitude)
            deltaBound = max(deltaBound, d.magnitude)
        }
        return (delta, fromBound, deltaBound)
    }

    // MARK: Removing

    /// Removes the entry; its handle (and every copy of it) becomes stale, and later entries'
    /// lanes move down to keep the storage compact.
    /// - Throws: ``BatchStoreError/staleHandle(index:generation:)`` if it was already removed.
    public func remove(_ handle: Handle) throws {
        let slot = try slots.resolve(handle)
        // The section's start in the output (removing an entry of a kind changes only the
        // lane count of that kind, so it is the same before and after).
        let base: Int
        switch slot.kind {
        case .group: base = 0
        case .lanes: base = groups.laneCount
        case .keyframes: base = groups.laneCount + lanes.laneCount
        case .springs: base = groups.laneCount + lanes.laneCount + keyframes.laneCount
        }
        let range: Range<Int>
        switch slot.kind {
        case .group:
            range = groups.remove(at: slot.entry) { slots.move(slot: $0, to: $1) }
            groupFrom.removeSubrange(range)
            groupDelta.removeSubrange(range)
        case .lanes:
            range = lanes.remove(at: slot.entry) { slots.move(slot: $0, to: $1) }
            laneFrom.removeSubrange(range)
            laneDelta.removeSubrange(range)
            laneProgress.removeSubrange(range)
        case .keyframes:
            range = keyframes.remove(at: slot.entry) { slots.move(slot: $0, to: $1) }
        case .springs:
            range = springs.remove(at: slot.entry) { slots.move(slot: $0, to: $1) }
            springTargets.removeSubrange(range)
        }
        // The entry's own output lanes: every other entry keeps its values.
        output.removeSubrange(base + range.lowerBound ..< base + range.upperBound)
        slots.release(handle)
    }

    /// Whether `handle` refers to a live entry of this store.
    public func contains(_ handle: Handle) -> Bool {
        (try? slots.resolve(handle)) != nil
    }

    // MARK: Progress

    /// Sets the progress of a group or keyframe entry (for a lanes entry: of all its lanes).
    /// - Parameters:
    ///   - progress: unitless, finite (usually in [0, 1]).
    ///   - handle: the entry.
    /// - Throws: ``BatchStoreError/staleHandle(index:generation:)``;
    ///   ``BatchStoreError/wrongKind(expected:actual:)`` for springs; ``ParameterError`` if not finite.
    public func setProgress(_ progress: Double, for handle: Handle) throws {
        let slot = try slots.resolve(handle)
        try ParameterError.requireFinite(progress, "progress")
        switch slot.kind {
        case .group: groups.entries[slot.entry].payload.progress = progress
        case .keyframes: keyframes.entries[slot.entry].payload.progress = progress
        case .lanes:
            let e = lanes.entries[slot.entry]
            for i in e.offset ..< e.offset + e.count { laneProgress[i] = progress }
            lanes.entries[slot.entry].payload.progressBound = progress.magnitude
        case .springs: throw BatchStoreError.wrongKind(expected: .group, actual: .springs)
        }
    }

    /// Sets each lane's progress of a lanes entry from `progress` (one finite value per lane).
    /// - Throws: ``BatchStoreError``; ``ParameterError/countMismatch(parameter:expected:actual:)``;
    ///   ``ParameterError/notFinite(parameter:value:)`` naming the first non-finite value
    ///   (nothing is written then).
    public func setProgress(_ progress: UnsafeBufferPointer<Double>, for handle: Handle) throws {
        let slot = try slots.resolve(handle)
        guard slot.kind == .lanes else { throw BatchStoreError.wrongKind(expected: .lanes, actual: slot.kind) }
        let e = lanes.entries[slot.entry]
        try requireCount(progress.count, e.count, "progress")
        // Checked before anything is written, as addLanes and the shared-progress setter do.
        try ParameterError.requireAllFinite(progress, "progress")
        var bound = 0.0
        laneProgress.withUnsafeMutableBufferPointer { p in
            for i in 0 ..< e.count {
                p[e.offset + i] = progress[i]
                bound = max(bound, progress[i].magnitude)
            }
        }
        lanes.entries[slot.entry].payload.progressBound = bound
    }

    /// Sets each lane's progress of a lanes entry from an array (one value per lane); see the
    /// buffer variant.
    public func setProgress(_ progress: [Double], for handle: Handle) throws {
        try progress.withUnsafeBufferPointer { try setProgress($0, for: handle) }
    }

    /// The spring group of a springs entry, to read or set individual springs' state.
    /// - Throws: ``BatchStoreError``.
    public func springGroup(for handle: Handle) throws -> SpringGroup {
        let slot = try slots.resolve(handle)
        guard slot.kind == .springs else { throw BatchStoreError.wrongKind(expected: .springs, actual: slot.kind) }
        return springs.entries[slot.entry].payload.group
    }

    // MARK: Reading

    /// The entry's lanes in the output array. Changes when entries before it are removed.
    /// - Throws: ``BatchStoreError/staleHandle(index:generation:)``.
    public func range(of handle: Handle) throws -> Range<Int> {
        let slot = try slots.resolve(handle)
        let base: Int, offset: Int, count: Int
        switch slot.kind {
        case .group:
            base = 0
            (offset, count) = (groups.entries[slot.entry].offset, groups.entries[slot.entry].count)
        case .lanes:
            base = groups.laneCount
            (offset, count) = (lanes.entries[slot.entry].offset, lanes.entries[slot.entry].count)
        case .keyframes:
            base = groups.laneCount + lanes.laneCount
            (offset, count) = (keyframes.entries[slot.entry].offset, keyframes.entries[slot.entry].count)
        case .springs:
            base = groups.laneCount + lanes.laneCount + keyframes.laneCount
            (offset, count) = (springs.entries[slot.entry].offset, springs.entries[slot.entry].count)
        }
        return base + offset ..< base + offset + count
    }

    /// The value of lane `lane` (0-based within the entry) as of the last evaluation.
    /// - Throws: ``BatchStoreError``; ``ParameterError/outOfRange(parameter:value:expected:)``
    ///   for a lane outside the entry.
    public func value(of handle: Handle, lane: Int = 0) throws -> Double {
        let r = try range(of: handle)
        guard lane >= 0 && lane < r.count else {
            throw ParameterError.outOfRange(parameter: "lane", value: Double(lane), expected: "[0, \(r.count))")
        }
        return output[r.lowerBound + lane]
    }

    /// A copy of the entry's values as of the last evaluation (allocates; for tests and tools).
    public func values(of handle: Handle) throws -> [Double] {
        Array(output[try range(of: handle)])
    }

    /// Gives `body` the whole output array (valid only inside `body`).
    public func withValues<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try output.withUnsafeBufferPointer(body)
    }
}
