import KineticSIMD

/// The engine's entries: lanes the host times itself, beside the runs' additive lanes, in
/// the same store (the kinds `BatchStore` and `kn_store_*` present).
///
/// Five kinds (`BatchStore.EntryKind`), each packed in its own contiguous arrays, in
/// sections back to back in `entryOutput` (groups, lanes, keyframes, springs, decays):
/// - groups: lanes that share one progress, `value = from + progress · (to − from)`;
/// - lanes: lanes with their own progress each;
/// - keyframes: scalar keyframe tracks that share key times and segment shapes
///   (`KeyframeBatch`), one progress per entry;
/// - springs: springs that share parameters (`SpringGroup`), stepped exactly by Φ(dt):
///   `value = target + displacement`; their targets move in place, keeping position and
///   velocity (`retargetSpringEntry(_:targets:)`);
/// - decays: lanes coasting to rest under an `ExponentialDecay`, stepped exactly by its
///   closed form: `value = position`.
///
/// Every add returns a generation-checked `BatchStore.Handle`; removing an entry closes the
/// gap in its section (later entries' ranges move) and frees its slot for reuse, so add /
/// remove churn runs in bounded memory. `advance(to:)` steps the spring and decay entries
/// by the time since the last tick and writes every entry's lanes after the runs' lanes;
/// `tickEntries(over:backend:)` and `evaluateEntries(backend:)` do it for the entries alone.
extension LaneEngine {
    // MARK: Sizes

    /// The number of lanes (output values).
    package var entryLaneCount: Int { entryOutput.count }
    /// The number of live entries.
    package var entryCount: Int {
        groupEntries.entries.count + laneEntries.entries.count + keyframeEntries.entries.count + springEntries.entries.count
            + decayEntries.entries.count
    }
    /// Diagnostics: the largest capacity (in doubles) of any lane array of the store. It
    /// grows only when more lanes are live at once than ever before.
    package var entryLaneCapacity: Int {
        [entryOutput.capacity, groupFrom.capacity, groupDelta.capacity, laneFrom.capacity, laneDelta.capacity,
         laneProgress.capacity, springTargets.capacity, decayVelocities.capacity].max()!
    }
    /// Diagnostics: the number of handle slots (the most entries ever live at once).
    package var entrySlotCapacity: Int { entrySlots.capacity }

    // MARK: Adding

    /// Adds lanes that share one progress: `value[i] = from[i] + progress · (to[i] − from[i])`.
    /// - Parameters:
    ///   - from: start values (any units), finite.
    ///   - to: end values, same count, finite.
    ///   - progress: the initial eased progress (usually in [0, 1]), finite.
    /// - Throws: `ParameterError` on a count mismatch or a non-finite value;
    ///   `BatchStoreError/overflow(lane:quantity:)` (lane within the new entry, quantity
    ///   "to − from") when `to[i] − from[i]` is beyond the range of `Double` (ends of opposite
    ///   sign near ±1e308). Values beyond the range at some progress are reported by
    ///   `evaluateEntries(backend:)`.
    package func addGroupEntry(from: [Double], to: [Double], progress: Double = 0) throws -> BatchStore.Handle {
        try Self.checkEntryLanes(from: from, to: to)
        try ParameterError.requireFinite(progress, "progress")
        let (delta, fromBound, deltaBound) = try Self.entryDeltas(from: from, to: to)
        let handle = entrySlots.acquire(kind: .group, entry: groupEntries.entries.count)
        let end = sectionBase(.lanes)
        _ = groupEntries.append(slot: Int(handle.index), count: from.count, payload: (progress, fromBound, deltaBound))
        groupFrom.append(contentsOf: from)
        groupDelta.append(contentsOf: delta)
        insertEntryOutput(from.count, at: end)
        return handle
    }

    /// Adds lanes with their own progress each: `value[i] = from[i] + progress[i] · (to[i] − from[i])`.
    /// - Parameters:
    ///   - from: start values (any units), finite.
    ///   - to: end values, same count, finite.
    ///   - progress: one initial progress per lane (usually in [0, 1]), finite; same
    ///     count as `from`.
    /// - Throws: `ParameterError` on a count mismatch or a non-finite value;
    ///   `BatchStoreError/overflow(lane:quantity:)` as `addGroup(from:to:progress:)`.
    package func addLaneEntry(from: [Double], to: [Double], progress: [Double]) throws -> BatchStore.Handle {
        try Self.checkEntryLanes(from: from, to: to)
        try requireCount(progress.count, from.count, "progress")
        try ParameterError.requireAllFinite(progress, "progress")
        let (delta, fromBound, deltaBound) = try Self.entryDeltas(from: from, to: to)
        let progressBound = progress.reduce(0) { max($0, $1.magnitude) }
        let handle = entrySlots.acquire(kind: .lanes, entry: laneEntries.entries.count)
        let end = sectionBase(.keyframes)
        _ = laneEntries.append(slot: Int(handle.index), count: from.count, payload: (fromBound, deltaBound, progressBound))
        laneFrom.append(contentsOf: from)
        laneDelta.append(contentsOf: delta)
        laneProgress.append(contentsOf: progress)
        insertEntryOutput(from.count, at: end)
        return handle
    }

    /// Adds scalar keyframe tracks that share key times and interpolations (one output lane
    /// per track), all at one progress (see `KeyframeBatch`).
    /// - Throws: as `KeyframeBatch/init(tracks:)`; `ParameterError` for non-finite progress.
    package func addKeyframeEntry(_ tracks: [KeyframeTrack<Double>], progress: Double = 0) throws -> BatchStore.Handle {
        try ParameterError.requireFinite(progress, "progress")
        let batch = try KeyframeBatch(tracks: tracks)
        let handle = entrySlots.acquire(kind: .keyframes, entry: keyframeEntries.entries.count)
        let end = sectionBase(.springs)
        _ = keyframeEntries.append(slot: Int(handle.index), count: batch.count, payload: (batch, progress))
        insertEntryOutput(batch.count, at: end)
        return handle
    }

    /// Adds springs that share `spring`'s parameters, one lane each:
    /// `value = target + displacement`, advanced by `tickEntries(over:backend:)`.
    /// - Parameters:
    ///   - spring: the parameters every spring of the entry shares.
    ///   - targets: the rest values (any units), finite.
    ///   - displacements: initial position − target per lane (default all 0), finite.
    ///   - velocities: initial velocities, units per second (default all 0), finite.
    /// - Throws: `ParameterError` on a count mismatch or a non-finite value.
    package func addSpringEntry(_ spring: Spring, targets: [Double], displacements: [Double]? = nil,
                           velocities: [Double]? = nil) throws -> BatchStore.Handle {
        let n = targets.count
        let x = displacements ?? [Double](repeating: 0, count: n)
        let v = velocities ?? [Double](repeating: 0, count: n)
        try requireCount(x.count, n, "displacements")
        try requireCount(v.count, n, "velocities")
        try ParameterError.requireAllFinite(targets, "targets")
        try ParameterError.requireAllFinite(x, "displacements")
        try ParameterError.requireAllFinite(v, "velocities")
        let group = try SpringGroup(spring: spring, displacements: x, velocities: v)
        let handle = entrySlots.acquire(kind: .springs, entry: springEntries.entries.count)
        let targetBound = targets.reduce(0) { max($0, $1.magnitude) }
        let end = sectionBase(.decays)
        _ = springEntries.append(slot: Int(handle.index), count: n, payload: (group, targetBound))
        springTargets.append(contentsOf: targets)
        // At the end of the springs' section, before the decays (whose values are their
        // positions, so they must not move within the output).
        insertEntryOutput(n, at: end)
        return handle
    }

    /// Moves the targets of a springs entry's running springs in place: each spring keeps
    /// its position and velocity (its displacement from the new target changes by the
    /// targets' difference), so its motion stays continuous and heads for the new target.
    /// No lane is added or removed.
    /// - Parameters:
    ///   - targets: one new target per spring, finite.
    ///   - handle: a springs entry.
    /// - Throws: `BatchStoreError` (stale handle, wrong kind, or `overflow(lane:quantity:
    ///   "displacement")` when a new displacement is beyond the range of `Double`);
    ///   `ParameterError` for a count mismatch or a non-finite target. Nothing changes then.
    package func retargetSpringEntry(_ handle: BatchStore.Handle, targets: UnsafeBufferPointer<Double>) throws {
        let slot = try entrySlots.resolve(handle)
        guard slot.kind == .springs else { throw BatchStoreError.wrongKind(expected: .springs, actual: slot.kind) }
        let e = springEntries.entries[slot.entry]
        try requireCount(targets.count, e.count, "targets")
        guard e.count > 0 else { return }  // an empty entry has no target to move
        let group = e.payload.group
        let newBound = Self.largestMagnitude(targets)
        // NaN or an infinity makes the largest magnitude so (NaN compares false).
        if !(newBound <= .greatestFiniteMagnitude) { try ParameterError.requireAllFinite(targets, "targets") }
        let base = sectionBase(.springs) + e.offset
        let shiftBound = e.payload.targetBound + newBound
        try springTargets.withUnsafeMutableBufferPointer { old in
            let o = old.baseAddress! + e.offset
            // d + (old − new): within range at once when the bounds say so, else lane by lane.
            if !Self.fits(group.displacementBound(), 1, shiftBound),
               let lane = group.firstOverflowingShift(from: o, to: targets.baseAddress!) {
                throw BatchStoreError.overflow(lane: base + lane, quantity: "displacement")
            }
            group.retarget(from: o, to: targets.baseAddress!, shiftBound: shiftBound)
        }
        springEntries.entries[slot.entry].payload.targetBound = newBound
    }

    /// The largest |v| of `values` (0 when empty); NaN when any value is NaN, +∞ when any is
    /// infinite. KineticSIMD's vector pass (AVX2 where the processor has it).
    static func largestMagnitude(_ values: UnsafeBufferPointer<Double>) -> Double {
        guard let p = values.baseAddress else { return 0 }
        return kinetic_simd_max_magnitude_checked(SpringTransition.simdPath, p, values.count)
    }

    /// Adds lanes that coast to rest: each a position and a velocity under `decay`, stepped
    /// exactly by the decay's closed form every tick (`value = position`).
    /// - Parameters:
    ///   - decay: the deceleration every lane of the entry shares.
    ///   - positions: the start positions (any units), finite.
    ///   - velocities: the start velocities, units per second, finite, same count.
    /// - Throws: `ParameterError` on a count mismatch or a non-finite value.
    package func addDecayEntry(_ decay: ExponentialDecay, positions: [Double], velocities: [Double]) throws -> BatchStore.Handle {
        try requireCount(velocities.count, positions.count, "velocities")
        try ParameterError.requireAllFinite(positions, "positions")
        try ParameterError.requireAllFinite(velocities, "velocities")
        let handle = entrySlots.acquire(kind: .decays, entry: decayEntries.entries.count)
        let positionBound = positions.reduce(0) { max($0, $1.magnitude) }
        let velocityBound = velocities.reduce(0) { max($0, $1.magnitude) }
        _ = decayEntries.append(slot: Int(handle.index), count: positions.count,
                                payload: (decay, positionBound, velocityBound))
        decayVelocities.append(contentsOf: velocities)
        // The decays section is the last: its lanes' positions are their output values,
        // stepped in place (the state is the output; no second array to copy from).
        entryOutput.append(contentsOf: positions)
        return handle
    }

    /// The velocities of a decays entry's lanes now, units per second (allocates; for tests
    /// and tools).
    /// - Throws: `BatchStoreError`.
    package func decayVelocities(ofEntry handle: BatchStore.Handle) throws -> [Double] {
        let slot = try entrySlots.resolve(handle)
        guard slot.kind == .decays else { throw BatchStoreError.wrongKind(expected: .decays, actual: slot.kind) }
        let e = decayEntries.entries[slot.entry]
        return Array(decayVelocities[e.offset ..< e.offset + e.count])
    }

    /// Inserts the `count` output lanes of a new entry, zeros, at `index` (the end of its
    /// kind's section), so that every other entry keeps its values as of the last evaluation.
    private func insertEntryOutput(_ count: Int, at index: Int) {
        if index == entryOutput.count {
            entryOutput.append(contentsOf: repeatElement(0, count: count))
        } else {
            entryOutput.insert(contentsOf: repeatElement(0, count: count), at: index)
        }
    }

    private static func checkEntryLanes(from: [Double], to: [Double]) throws {
        try requireCount(to.count, from.count, "to")
        try ParameterError.requireAllFinite(from, "from")
        try ParameterError.requireAllFinite(to, "to")
    }

    /// `to − from` per lane, and the largest |from| and |to − from| (for the evaluation's
    /// range check).
    /// - Throws: `BatchStoreError/overflow(lane:quantity:)` for the first difference beyond
    ///   the range of `Double`.
    private static func entryDeltas(from: [Double], to: [Double]) throws -> ([Double], Double, Double) {
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
    /// - Throws: `BatchStoreError/staleHandle(index:generation:)` if it was already removed.
    package func removeEntry(_ handle: BatchStore.Handle) throws {
        let slot = try entrySlots.resolve(handle)
        // The section's start in the output (removing an entry of a kind changes only the
        // lane count of that kind, so it is the same before and after).
        let base = sectionBase(slot.kind)
        let range: Range<Int>
        switch slot.kind {
        case .group:
            range = groupEntries.remove(at: slot.entry) { entrySlots.move(slot: $0, to: $1) }
            groupFrom.removeSubrange(range)
            groupDelta.removeSubrange(range)
        case .lanes:
            range = laneEntries.remove(at: slot.entry) { entrySlots.move(slot: $0, to: $1) }
            laneFrom.removeSubrange(range)
            laneDelta.removeSubrange(range)
            laneProgress.removeSubrange(range)
        case .keyframes:
            range = keyframeEntries.remove(at: slot.entry) { entrySlots.move(slot: $0, to: $1) }
        case .springs:
            range = springEntries.remove(at: slot.entry) { entrySlots.move(slot: $0, to: $1) }
            springTargets.removeSubrange(range)
        case .decays:
            range = decayEntries.remove(at: slot.entry) { entrySlots.move(slot: $0, to: $1) }
            decayVelocities.removeSubrange(range)
        }
        // The entry's own output lanes: every other entry keeps its values.
        entryOutput.removeSubrange(base + range.lowerBound ..< base + range.upperBound)
        entrySlots.release(handle)
    }

    /// Whether `handle` refers to a live entry of this store.
    package func containsEntry(_ handle: BatchStore.Handle) -> Bool {
        (try? entrySlots.resolve(handle)) != nil
    }

    // MARK: Progress

    /// Sets the progress of a group or keyframe entry (for a lanes entry: of all its lanes).
    /// - Parameters:
    ///   - progress: unitless, finite (usually in [0, 1]).
    ///   - handle: the entry.
    /// - Throws: `BatchStoreError/staleHandle(index:generation:)`;
    ///   `BatchStoreError/wrongKind(expected:actual:)` for springs; `ParameterError` if not finite.
    package func setEntryProgress(_ progress: Double, for handle: BatchStore.Handle) throws {
        let slot = try entrySlots.resolve(handle)
        try ParameterError.requireFinite(progress, "progress")
        switch slot.kind {
        case .group: groupEntries.entries[slot.entry].payload.progress = progress
        case .keyframes: keyframeEntries.entries[slot.entry].payload.progress = progress
        case .lanes:
            let e = laneEntries.entries[slot.entry]
            for i in e.offset ..< e.offset + e.count { laneProgress[i] = progress }
            laneEntries.entries[slot.entry].payload.progressBound = progress.magnitude
        case .springs, .decays: throw BatchStoreError.wrongKind(expected: .group, actual: slot.kind)
        }
    }

    /// Sets each lane's progress of a lanes entry from `progress` (one finite value per lane).
    /// - Throws: `BatchStoreError`; `ParameterError/countMismatch(parameter:expected:actual:)`;
    ///   `ParameterError/notFinite(parameter:value:)` naming the first non-finite value
    ///   (nothing is written then).
    package func setEntryProgress(_ progress: UnsafeBufferPointer<Double>, for handle: BatchStore.Handle) throws {
        let slot = try entrySlots.resolve(handle)
        guard slot.kind == .lanes else { throw BatchStoreError.wrongKind(expected: .lanes, actual: slot.kind) }
        let e = laneEntries.entries[slot.entry]
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
        laneEntries.entries[slot.entry].payload.progressBound = bound
    }

    /// Sets each lane's progress of a lanes entry from an array (one value per lane); see the
    /// buffer variant.
    package func setEntryProgress(_ progress: [Double], for handle: BatchStore.Handle) throws {
        try progress.withUnsafeBufferPointer { try setEntryProgress($0, for: handle) }
    }

    /// The spring group of a springs entry, to read or set individual springs' state.
    /// - Throws: `BatchStoreError`.
    package func springGroup(ofEntry handle: BatchStore.Handle) throws -> SpringGroup {
        let slot = try entrySlots.resolve(handle)
        guard slot.kind == .springs else { throw BatchStoreError.wrongKind(expected: .springs, actual: slot.kind) }
        return springEntries.entries[slot.entry].payload.group
    }

    // MARK: Reading

    /// The entry's lanes in the output array. Changes when entries before it are removed.
    /// - Throws: `BatchStoreError/staleHandle(index:generation:)`.
    package func entryRange(of handle: BatchStore.Handle) throws -> Range<Int> {
        let slot = try entrySlots.resolve(handle)
        let offset: Int, count: Int
        switch slot.kind {
        case .group: (offset, count) = (groupEntries.entries[slot.entry].offset, groupEntries.entries[slot.entry].count)
        case .lanes: (offset, count) = (laneEntries.entries[slot.entry].offset, laneEntries.entries[slot.entry].count)
        case .keyframes:
            (offset, count) = (keyframeEntries.entries[slot.entry].offset, keyframeEntries.entries[slot.entry].count)
        case .springs: (offset, count) = (springEntries.entries[slot.entry].offset, springEntries.entries[slot.entry].count)
        case .decays: (offset, count) = (decayEntries.entries[slot.entry].offset, decayEntries.entries[slot.entry].count)
        }
        let base = sectionBase(slot.kind)
        return base + offset ..< base + offset + count
    }

    /// The output index of the first lane of `kind`'s section (sections in the order groups,
    /// lanes, keyframes, springs, decays).
    func sectionBase(_ kind: BatchStore.EntryKind) -> Int {
        var base = 0
        if kind == .group { return base }
        base += groupEntries.laneCount
        if kind == .lanes { return base }
        base += laneEntries.laneCount
        if kind == .keyframes { return base }
        base += keyframeEntries.laneCount
        if kind == .springs { return base }
        return base + springEntries.laneCount
    }

    /// The value of lane `lane` (0-based within the entry) as of the last evaluation.
    /// - Throws: `BatchStoreError`; `ParameterError/outOfRange(parameter:value:expected:)`
    ///   for a lane outside the entry.
    package func entryValue(of handle: BatchStore.Handle, lane: Int = 0) throws -> Double {
        let r = try entryRange(of: handle)
        guard lane >= 0 && lane < r.count else {
            throw ParameterError.outOfRange(parameter: "lane", value: Double(lane), expected: "[0, \(r.count))")
        }
        return entryOutput[r.lowerBound + lane]
    }

    /// A copy of the entry's values as of the last evaluation (allocates; for tests and tools).
    package func entryValues(of handle: BatchStore.Handle) throws -> [Double] {
        Array(entryOutput[try entryRange(of: handle)])
    }

    /// Gives `body` the whole output array (valid only inside `body`).
    package func withEntryValues<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try entryOutput.withUnsafeBufferPointer(body)
    }
}
