/// Structure-of-arrays storage for many animated lanes (thousands to millions), evaluated in
/// one pass per frame into one contiguous output array.
///
/// A store is a view of the engine's entries: it owns an animation engine and keeps its
/// lanes there, so the lanes a host times itself and the runs' animations live in one store
/// of the core (see the engine's design in the package documentation).
///
/// A store holds five kinds of entries (``EntryKind``), each kind packed in its own
/// contiguous arrays:
/// - **groups** (``addGroup(from:to:progress:)``): lanes that share one progress value
///   (one animation over many properties): `value = from + progress · (to − from)`;
/// - **lanes** (``addLanes(from:to:progress:)``): lanes with their own progress each;
/// - **keyframes** (``addKeyframes(_:progress:)``): scalar keyframe tracks that share key
///   times and segment shapes (their easing curves may differ), evaluated through a shared
///   basis (``KeyframeBatch``), one progress per entry;
/// - **springs** (``addSprings(_:targets:displacements:velocities:)``): springs sharing
///   parameters (a ``SpringGroup``), stepped exactly by ``tick(over:backend:)``:
///   `value = target + displacement`; `retargetSprings(_:targets:)` moves their targets in
///   place, keeping position and velocity;
/// - **decays** (``addDecays(_:positions:velocities:)``): lanes coasting to rest under an
///   ``ExponentialDecay``, stepped exactly by ``tick(over:backend:)``: `value = position`.
///
/// Every add returns a ``Handle``: a slot index plus a generation. Removing an entry bumps
/// its slot's generation, so using a handle after its entry was removed throws
/// ``BatchStoreError/staleHandle(index:generation:)`` instead of touching another entry.
///
/// ## Output
/// ``evaluate(backend:)`` (or ``tick(over:backend:)``) writes every lane's current value into
/// one contiguous array, sections in the order groups, lanes, keyframes, springs, decays. Read it
/// with ``withValues(_:)`` and ``range(of:)`` / ``value(of:lane:)``. Adding or removing
/// entries moves later entries' ranges (the storage stays compact), so look ranges up after
/// any change. Every entry's values stay those of the last evaluation through adds and
/// removals of other entries; values of a fresh entry are 0 until the next evaluation (a
/// decays entry's are its positions from the start).
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
        case group, lanes, keyframes, springs, decays
        public var description: String {
            switch self {
            case .group: return "group"
            case .lanes: return "lanes"
            case .keyframes: return "keyframes"
            case .springs: return "springs"
            case .decays: return "decays"
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

    /// The engine whose entries this store presents.
    package let engine: LaneEngine

    /// An empty store.
    public init() { engine = LaneEngine() }

    // MARK: Sizes

    /// The number of lanes (output values).
    public var laneCount: Int { engine.entryLaneCount }
    /// The number of live entries.
    public var entryCount: Int { engine.entryCount }
    /// Diagnostics: the largest capacity (in doubles) of any lane array of the store. It
    /// grows only when more lanes are live at once than ever before.
    public var laneCapacity: Int { engine.entryLaneCapacity }
    /// Diagnostics: the number of handle slots (the most entries ever live at once).
    public var slotCapacity: Int { engine.entrySlotCapacity }

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
        try engine.addGroupEntry(from: from, to: to, progress: progress)
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
        try engine.addLaneEntry(from: from, to: to, progress: progress)
    }

    /// Adds scalar keyframe tracks that share key times and interpolations (one output lane
    /// per track), all at one progress (see ``KeyframeBatch``).
    /// - Throws: as ``KeyframeBatch/init(tracks:)``; ``ParameterError`` for non-finite progress.
    public func addKeyframes(_ tracks: [KeyframeTrack<Double>], progress: Double = 0) throws -> Handle {
        try engine.addKeyframeEntry(tracks, progress: progress)
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
        try engine.addSpringEntry(spring, targets: targets, displacements: displacements, velocities: velocities)
    }

    /// Adds lanes that coast to rest, one each: a position and a velocity under `decay`,
    /// stepped exactly by ``tick(over:backend:)`` (x += v·(1 − e^(−λ·dt))/λ, v ×= e^(−λ·dt)):
    /// `value = position`, from the moment they are added (no evaluation needed first).
    /// - Parameters:
    ///   - decay: the deceleration every lane of the entry shares (`UIScrollView`'s or
    ///     Compose's, see ``ExponentialDecay``).
    ///   - positions: the start positions (any units), finite.
    ///   - velocities: the start velocities, units per second, finite; same count.
    /// - Throws: ``ParameterError`` on a count mismatch or a non-finite value.
    public func addDecays(_ decay: ExponentialDecay, positions: [Double], velocities: [Double]) throws -> Handle {
        try engine.addDecayEntry(decay, positions: positions, velocities: velocities)
    }

    /// The velocities of a decays entry's lanes now, units per second (allocates).
    /// - Throws: ``BatchStoreError`` (stale handle, or not a decays entry).
    public func decayVelocities(of handle: Handle) throws -> [Double] {
        try engine.decayVelocities(ofEntry: handle)
    }

    /// Moves the targets of a springs entry's running springs in place: each keeps its
    /// position and velocity (its displacement changes by the targets' difference), so its
    /// motion stays continuous and heads for the new target. No lane is re-added; the output
    /// changes at the next evaluation.
    /// - Parameters:
    ///   - targets: one new target per spring (any units), finite.
    ///   - handle: a springs entry.
    /// - Throws: ``BatchStoreError`` (stale handle, wrong kind, or
    ///   ``BatchStoreError/overflow(lane:quantity:)`` with "displacement" when a new
    ///   displacement is beyond the range of `Double`); ``ParameterError`` for a count
    ///   mismatch or a non-finite target. Nothing changes then.
    public func retargetSprings(_ handle: Handle, targets: UnsafeBufferPointer<Double>) throws {
        try engine.retargetSpringEntry(handle, targets: targets)
    }

    /// ``retargetSprings(_:targets:)`` from an array.
    /// - Parameters:
    ///   - handle: a springs entry.
    ///   - targets: one new target per spring, finite.
    /// - Throws: as ``retargetSprings(_:targets:)``.
    public func retargetSprings(_ handle: Handle, targets: [Double]) throws {
        try targets.withUnsafeBufferPointer { try engine.retargetSpringEntry(handle, targets: $0) }
    }

    // MARK: Removing

    /// Removes the entry; its handle (and every copy of it) becomes stale, and later entries'
    /// lanes move down to keep the storage compact.
    /// - Throws: ``BatchStoreError/staleHandle(index:generation:)`` if it was already removed.
    public func remove(_ handle: Handle) throws {
        try engine.removeEntry(handle)
    }

    /// Whether `handle` refers to a live entry of this store.
    public func contains(_ handle: Handle) -> Bool {
        engine.containsEntry(handle)
    }

    // MARK: Progress

    /// Sets the progress of a group or keyframe entry (for a lanes entry: of all its lanes).
    /// - Parameters:
    ///   - progress: unitless, finite (usually in [0, 1]).
    ///   - handle: the entry.
    /// - Throws: ``BatchStoreError/staleHandle(index:generation:)``;
    ///   ``BatchStoreError/wrongKind(expected:actual:)`` for springs; ``ParameterError`` if not finite.
    public func setProgress(_ progress: Double, for handle: Handle) throws {
        try engine.setEntryProgress(progress, for: handle)
    }

    /// Sets each lane's progress of a lanes entry from `progress` (one finite value per lane).
    /// - Throws: ``BatchStoreError``; ``ParameterError/countMismatch(parameter:expected:actual:)``;
    ///   ``ParameterError/notFinite(parameter:value:)`` naming the first non-finite value
    ///   (nothing is written then).
    public func setProgress(_ progress: UnsafeBufferPointer<Double>, for handle: Handle) throws {
        try engine.setEntryProgress(progress, for: handle)
    }

    /// Sets each lane's progress of a lanes entry from an array (one value per lane); see the
    /// buffer variant.
    public func setProgress(_ progress: [Double], for handle: Handle) throws {
        try engine.setEntryProgress(progress, for: handle)
    }

    /// The spring group of a springs entry, to read or set individual springs' state.
    /// - Throws: ``BatchStoreError``.
    public func springGroup(for handle: Handle) throws -> SpringGroup {
        try engine.springGroup(ofEntry: handle)
    }

    // MARK: Reading

    /// The entry's lanes in the output array. Changes when entries before it are removed.
    /// - Throws: ``BatchStoreError/staleHandle(index:generation:)``.
    public func range(of handle: Handle) throws -> Range<Int> {
        try engine.entryRange(of: handle)
    }

    /// The value of lane `lane` (0-based within the entry) as of the last evaluation.
    /// - Throws: ``BatchStoreError``; ``ParameterError/outOfRange(parameter:value:expected:)``
    ///   for a lane outside the entry.
    public func value(of handle: Handle, lane: Int = 0) throws -> Double {
        try engine.entryValue(of: handle, lane: lane)
    }

    /// A copy of the entry's values as of the last evaluation (allocates; for tests and tools).
    public func values(of handle: Handle) throws -> [Double] {
        try engine.entryValues(of: handle)
    }

    /// Gives `body` the whole output array (valid only inside `body`).
    public func withValues<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try engine.withEntryValues(body)
    }

    // MARK: Evaluating

    /// Advances every spring entry by `dt` seconds (exactly, through its cached Φ(dt)), then
    /// evaluates every lane (``evaluate(backend:)``). Progress of groups, lanes and keyframe
    /// entries is whatever was last set: the host's timing drives those.
    ///
    /// Finite in, finite out: before anything moves, every spring entry's step and every value
    /// the tick would write are checked (a few scalar operations per entry while the states
    /// are bounded; see ``SpringGroup``), so a state near ±1e308 whose next displacement,
    /// velocity or value (target + displacement) is beyond the range of `Double` leaves the
    /// whole store as it was and throws.
    /// - Parameters:
    ///   - dt: the frame step, seconds, finite and ≥ 0.
    ///   - backend: implementation for every kernel; `.automatic` picks by measured speed.
    /// - Throws: ``ParameterError`` if `dt` is negative or not finite; nothing changes then.
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    ///   ``BatchStoreError/overflow(lane:quantity:)`` naming the output lane (as
    ///   ``range(of:)`` counts) and the quantity ("displacement", "velocity" or "value")
    ///   that would be beyond the range of `Double`; nothing changes then.
    public func tick(over dt: Double, backend: Backend = .automatic) throws {
        try engine.tickEntries(over: dt, backend: backend)
    }

    /// Writes every lane's current value into the output array (see ``withValues(_:)``).
    /// Allocates nothing.
    ///
    /// Every value is checked to be within the range of `Double` before anything is written
    /// (a few scalar operations per entry from bounds kept per entry; lane by lane only past
    /// them, see ``KeyframeBatch`` and ``SpringGroup``).
    /// - Parameter backend: implementation for every kernel; `.automatic` picks by measured speed.
    /// - Throws: ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    ///   ``BatchStoreError/overflow(lane:quantity:)`` naming the output lane whose value would
    ///   be beyond the range of `Double`; nothing is written then.
    public func evaluate(backend: Backend = .automatic) throws {
        try engine.evaluateEntries(backend: backend)
    }
}
