/// The animation engine's store: lanes of `Double` values with additive contributions, and
/// the runs that drive them on a clock that the host advances; beside them, in the same
/// store, the *entries* that a host times itself (shared-progress groups, per-lane progress,
/// keyframe batches and spring lanes stepped exactly by Φ; see `LaneEngineEntries.swift`).
///
/// ## Model
/// Lanes come in *blocks* (the lanes of one animated property, allocated together). Each
/// lane has a model value (where it rests when every animation on it has ended), an anchor
/// and an output: `output = anchor + Σ span · progress` over the contributions on the lane.
/// `anchor` is where the first animation started, each contribution adds its `span` (new
/// model value − old model value) weighted by its run's eased progress. This is UIKit's
/// additive model: several runs on one lane add up, and each ends exactly at the model
/// value. A block made to be released when idle is released when its last contribution ends
/// (it is reported in `releasedBlocks`, and its lanes are reused); a host's blocks stay.
///
/// A *segment* is one batch of contributions timed by a run, within a window of the run's
/// time fraction: the horizontal lanes first, then the vertical ones (a spring with a 2-D
/// initial velocity gives them different progress).
///
/// ## One tick
/// ``advance(to:)``:
/// 1. advances every running run's time (one pass over contiguous timing records);
/// 2. computes each segment's progress (one timing solve per segment, normally one per run);
/// 3. writes every lane: a copy of the anchors, then one indexed accumulation per segment;
///    then steps the spring entries by the time since the last tick and writes every entry
///    (one fused pass per group, spring or keyframe entry, one over all per-lane entries);
/// 4. ends the runs whose time ran out, in the order they were (last) started: a run that
///    pauses on completion stops at its end, every other run's segments end at the run's end
///    position and it becomes inactive. Each becomes an event in ``events``, in that order.
///    When a run ended, the lanes are written again, so that after the tick every output is
///    where the runs left it (a lane with no animation left shows its model value exactly).
///
/// ## Calls between ticks
/// A call on one run works on that run's segments alone: each record lists the segments it
/// owns (`TimingRecord.firstSegment`, `Segment.nextOfOwner`), a change to a record's timing
/// marks it (`markStale`) so that the next progress update recomputes only the marked
/// records' segments (a tick, which moves every running record, recomputes all of them in
/// one pass), and ended segments stay in place, skipped, until they are as many as the live
/// ones (`compactIfNeeded`). So the cost of stopping, continuing or releasing one run does not
/// grow with the number of others.
///
/// The engine calls no closures. It reports what it did in three queues that its owner
/// drains: ``events``, ``modelWrites`` (lanes whose model value the engine changed) and
/// ``releasedBlocks``. A tick in steady state allocates nothing.
///
/// A single-owner reference type: use it from one thread at a time.
///
/// Its stored properties are `@exclusivity(unchecked)`: no method holds two accesses to one
/// of them at once (a method that hands an array's buffer to a closure touches only other
/// properties inside it), and the dynamic exclusivity checks Swift otherwise makes on every
/// access to a class's stored property were a large share of the time of creating,
/// starting and ending a run. A conflicting access is therefore no longer trapped: a change
/// that holds an array's buffer must not touch the same property inside it.
package final class LaneEngine {
    // MARK: Lanes

    /// Per lane: where the additive sum starts.
    @exclusivity(unchecked) package internal(set) var anchor: [Double] = []
    /// Per lane: the value of the last evaluation.
    @exclusivity(unchecked) package internal(set) var output: [Double] = []
    /// Per lane: the model value (where the lane rests when its animations end).
    @exclusivity(unchecked) package internal(set) var model: [Double] = []
    /// Per lane: live contributions (at most 65,535).
    @exclusivity(unchecked) package internal(set) var laneContributions: [UInt16] = []
    /// The blocks, in the order of their first lanes: a block keeps its lanes for life, and a
    /// released block is reused (same id, same lanes) by the next block of its size, so a
    /// lane's block is found by a binary search and no lane stores it.
    @exclusivity(unchecked) var blocks: [LaneBlock] = []
    /// Released blocks by lane count (index: lane count).
    @exclusivity(unchecked) var freeBlocks: [[Int32]] = []
    /// The block that `blockIndex(ofLane:)` found last (a hint; any value is safe).
    @exclusivity(unchecked) private var lastBlockFound = 0

    // MARK: Contributions (see LaneEngineSegments.swift)

    @exclusivity(unchecked) var spans: [Double] = []
    @exclusivity(unchecked) var targets: [Int32] = []
    @exclusivity(unchecked) var segments: [Segment] = []
    /// Per segment, where it was when its run's continuation leg began: its (x, y) progress,
    /// the argument of its progress (the eased window position a keyframe step weighs) and
    /// its window fraction. Empty until a continuation leg captures a
    /// base, then as long as `segments` (kept out of the segment records, which every tick
    /// reads); a missing entry is 0.
    @exclusivity(unchecked) var continuationBases: [SIMD4<Double>] = []
    /// Per segment, the keyframe step of a weighted segment: empty until a keyframe
    /// animation adds one, then as long as `segments` (nil for other segments).
    @exclusivity(unchecked) var segmentWeights: [SegmentWeight?] = []
    @exclusivity(unchecked) var deadLaneCount = 0
    /// Records marked (`markStale`) since the last progress update, whose segments it
    /// recomputes (see `updateProgress()`); a record may appear more than once.
    @exclusivity(unchecked) var staleRecords: [Int32] = []
    /// Whether a tick moved every running record since the last progress update.
    @exclusivity(unchecked) var progressNeedsFullPass = false
    /// For tests: every progress update recomputes every record that has segments, marked or
    /// not (the reference the marking is checked against).
    @exclusivity(unchecked) package var recomputesAllProgress = false

    // MARK: Entries (see LaneEngineEntries.swift)

    @exclusivity(unchecked) var entrySlots = StoreSlots()
    // Groups: from / delta lanes; per entry its progress and the largest |from| and |delta|.
    @exclusivity(unchecked) var groupEntries = StoreSection<(progress: Double, fromBound: Double, deltaBound: Double)>()
    @exclusivity(unchecked) var groupFrom: [Double] = [], groupDelta: [Double] = []
    // Per-lane entries; per entry the largest |from|, |delta| and |progress|.
    @exclusivity(unchecked) var laneEntries = StoreSection<(fromBound: Double, deltaBound: Double, progressBound: Double)>()
    @exclusivity(unchecked) var laneFrom: [Double] = [], laneDelta: [Double] = [], laneProgress: [Double] = []
    // Keyframe entries: the batch and its progress.
    @exclusivity(unchecked) var keyframeEntries = StoreSection<(batch: KeyframeBatch, progress: Double)>()
    // Spring entries: the group and the largest |target|; targets per lane.
    @exclusivity(unchecked) var springEntries = StoreSection<(group: SpringGroup, targetBound: Double)>()
    @exclusivity(unchecked) var springTargets: [Double] = []
    // Decay entries: the decay and the largest |position| and |velocity|; per lane its
    // position and velocity.
    @exclusivity(unchecked) var decayEntries = StoreSection<(decay: ExponentialDecay, positionBound: Double, velocityBound: Double)>()
    @exclusivity(unchecked) var decayVelocities: [Double] = []
    /// The entries' output, all sections back to back.
    @exclusivity(unchecked) var entryOutput: [Double] = []
    /// The clock time up to which the spring entries are stepped.
    @exclusivity(unchecked) var entryTime = 0.0
    /// The backend of the entries' kernels in `advance(to:)`.
    @exclusivity(unchecked) package var entryBackend: Backend = .automatic
    /// Why the last `advance(to:)` left the entries as they were (a value it would have made
    /// beyond the range of `Double`, see `tickEntries(over:backend:)`), or nil.
    @exclusivity(unchecked) package private(set) var entryFailure: (any Error)?

    // MARK: Runs

    @exclusivity(unchecked) var records: [TimingRecord] = []
    /// By record, the curve that its `curve` refers to, held here so that the records stay
    /// plain data (see ``CurveRef``); set with the reference (`makeRun`, `freeRecord`).
    @exclusivity(unchecked) var recordCurves: [ProgressCurve] = []
    /// The curves that records' `legCurve` refers to, for the records whose leg curve is not
    /// linear (continuation legs, which are few: sparse); set with the reference
    /// (`setLegCurve(_:ofRecord:)`).
    @exclusivity(unchecked) var legCurves: [Int32: ProgressCurve] = [:]
    /// By record, what its spring run was created with (none for runs with linear or cubic
    /// timing, runs made from a progress curve alone, and free records). Sparse: only spring
    /// runs have one, and most runs are cubic, so a per-record array would cost every run.
    @exclusivity(unchecked) var specs: [Int32: RunSpec] = [:]
    /// Animations to lane targets added to inactive runs, applied when each starts.
    @exclusivity(unchecked) var pendingAnimations = PendingAnimationTable()
    /// The lane changes being added (reused from call to call, so that adding animations
    /// allocates no array of its own once it has grown). Package-visible for the UIKit
    /// layer, which builds its animations' changes here: whoever fills it passes it on at
    /// once, before anything refills it.
    @exclusivity(unchecked) package var changeScratch: [LaneChange] = []
    /// Keyframe animations added to inactive runs, applied when each starts.
    @exclusivity(unchecked) var pendingKeyframes: [Int32: [PendingKeyframes]] = [:]
    /// Runs started after a delay with no animations yet: the clock time at which their
    /// animations begin (the start time plus the delay), for the first ones to come.
    @exclusivity(unchecked) var waitingStarts: [Int32: Double] = [:]
    /// Per stopped run, the lanes of host-owned blocks it animated, with their start and end
    /// values (for finishing at the start or the end).
    @exclusivity(unchecked) var stoppedValues: [Int32: [StoppedLaneValues]] = [:]
    /// Interned cubic curves (see `interned(_:)`).
    @exclusivity(unchecked) var curveCache: [CubicBezier: ProgressCurve] = [:]
    /// The curve interned last, checked before `curveCache` (runs made one after another
    /// mostly share their curve).
    @exclusivity(unchecked) var lastInterned: (bezier: CubicBezier, curve: ProgressCurve)?
    /// Runs that repeat a finite number of times: the cycles, and (once started) the clock
    /// time at which they end (see `setRepeatCount(_:of:)`).
    @exclusivity(unchecked) var repeatLimits: [Int32: (cycles: Double, end: Double?)] = [:]
    @exclusivity(unchecked) var freeRecordIDs: [Int32] = []
    @exclusivity(unchecked) var nextOrder: UInt64 = 0

    // MARK: Queues the owner drains

    /// What the ticks did, in order (see ``EngineEvent``).
    @exclusivity(unchecked) package var events: [EngineEvent] = []
    /// Lanes whose model value the engine changed (a run ending at its start or where it
    /// was), in order; a lane may appear more than once.
    @exclusivity(unchecked) package var modelWrites: [Int32] = []
    /// Blocks that the engine released because their last contribution ended; their lanes
    /// keep their last values until the owner allocates again.
    @exclusivity(unchecked) package var releasedBlocks: [LaneBlockID] = []

    /// The time of the last advance (seconds on the owner's clock); the owner may move it
    /// forward between ticks so that a leg started then starts at its own time.
    @exclusivity(unchecked) package var now: Double = 0

    /// Whether outputs are stale (set by every change, cleared by evaluation).
    @exclusivity(unchecked) package internal(set) var dirty = false

    // Scratch, reused so that a tick allocates nothing.
    @exclusivity(unchecked) private var finished: [(id: Int32, order: UInt64)] = []
    @exclusivity(unchecked) private var completing: [(id: Int32, position: RunPosition)] = []
    /// Per record, the end position of a record finishing in this tick (−1: none).
    @exclusivity(unchecked) var endPositions: [Int8] = []

    package init() {
        finished.reserveCapacity(64)
        completing.reserveCapacity(64)
        events.reserveCapacity(64)
    }

    // MARK: Diagnostics

    /// Runs that hold a record (in any state).
    package var liveRunCount: Int { records.count - freeRecordIDs.count }
    /// Runs that are active (running, paused, or waiting for a delay or their animations).
    package var activeRunCount: Int {
        records.reduce(0) { n, r in
            switch r.phase {
            case .running, .paused, .waitingForAnimations: return n + 1
            case .inactive, .stopped: return n
            }
        }
    }
    /// Lanes with at least one contribution.
    package var animatedLaneCount: Int { laneContributions.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }
    /// Live (span, lane) contributions.
    package var contributionCount: Int { spans.count - deadLaneCount }
    /// Lanes allocated (live blocks and free runs).
    package var laneCount: Int { anchor.count }
    /// Bytes of storage the engine holds (array capacities).
    package var storageBytes: Int {
        anchor.capacity * 8 + output.capacity * 8 + model.capacity * 8 + laneContributions.capacity * 2
            + blocks.capacity * MemoryLayout<LaneBlock>.stride + freeBlocks.reduce(0) { $0 + $1.capacity * 4 }
            + spans.capacity * 8 + targets.capacity * 4 + segments.capacity * MemoryLayout<Segment>.stride
            + continuationBases.capacity * 32 + segmentWeights.capacity * MemoryLayout<SegmentWeight?>.stride
            + records.capacity * MemoryLayout<TimingRecord>.stride + recordCurves.capacity * MemoryLayout<ProgressCurve>.stride
            + specsBytes + Self.sparseTableBytes(capacity: legCurves.capacity, valueStride: MemoryLayout<ProgressCurve>.stride)
            + freeRecordIDs.capacity * 4 + staleRecords.capacity * 4
            + endPositions.capacity
            + (entryOutput.capacity + groupFrom.capacity + groupDelta.capacity + laneFrom.capacity + laneDelta.capacity
                + laneProgress.capacity + springTargets.capacity + decayVelocities.capacity) * 8
    }

    /// The sparse spec table's storage: its buckets (a power of two, at most ¾ full), a key,
    /// a reference and a bit of occupancy each, a header, and the specs themselves.
    private var specsBytes: Int {
        Self.sparseTableBytes(capacity: specs.capacity, valueStride: MemoryLayout<RunSpec>.stride)
            + specs.count * RunSpec.heapBytes
    }

    /// A sparse table's storage by record id: its buckets (a power of two, at most ¾ full),
    /// a key, a value and a bit of occupancy each, and a header.
    private static func sparseTableBytes(capacity: Int, valueStride: Int) -> Int {
        guard capacity > 0 else { return 0 }
        var buckets = 1
        while buckets * 3 < capacity * 4 { buckets *= 2 }
        return buckets * (MemoryLayout<Int32>.stride + valueStride) + buckets / 8 + 64
    }

    // MARK: Ticking

    /// Brings every run to time `now` (seconds, on the owner's clock), writes every lane and
    /// ends the runs whose time ran out (see "One tick").
    package func advance(to now: Double) {
        self.now = now
        // Every running record moves: the next progress update passes over every segment.
        progressNeedsFullPass = true
        finished.removeAll(keepingCapacity: true)
        if !repeatLimits.isEmpty { endFiniteRepeats(at: now) }
        records.withUnsafeMutableBufferPointer { r in
            for i in r.indices where r[i].running {
                if r[i].advance(to: now) { finished.append((Int32(i), r[i].order)) }
            }
        }
        evaluate()
        if entryOutput.isEmpty { entryTime = now } else { advanceEntries(to: now) }
        guard !finished.isEmpty else { return }
        if finished.count > 1 { finished.sort { $0.order < $1.order } }
        for (id, _) in finished {
            let i = Int(id)
            if records[i].pausesOnCompletion {
                records[i].running = false
                records[i].phase = .paused
                events.append(.pausedAtEnd(handle(id)))
            } else {
                completing.append((id, records[i].endPosition))
                events.append(.finished(handle(id), records[i].endPosition))
            }
        }
        guard !completing.isEmpty else { return }
        finishSegments(completing)
        for c in completing {
            resetRecord(Int(c.id))
            becomeInactive(Int(c.id))
        }
        compactIfNeeded()
        completing.removeAll(keepingCapacity: true)
        // The outputs show where the ended runs left their lanes (exactly the model values
        // where nothing else runs), not the sums just before.
        evaluate()
    }

    /// Steps the spring entries to `now` and writes every entry's lanes; on failure the
    /// entries stay as they were and `entryFailure` says why.
    private func advanceEntries(to now: Double) {
        do {
            try tickEntries(over: Swift.max(now - entryTime, 0), backend: entryBackend)
            entryTime = now
            entryFailure = nil
        } catch {
            entryFailure = error
        }
    }

    /// Ends the runs whose finite repeats ran out by `now`: they stop where they are and end
    /// at `.end` (UIKit snaps the views to their new values), in this tick.
    private func endFiniteRepeats(at now: Double) {
        for (id, limit) in repeatLimits {
            guard let end = limit.end, now >= end - TimingRecord.endTolerance else { continue }
            let i = Int(id)
            repeatLimits[id] = nil
            guard records[i].running else { continue }
            _ = records[i].advance(to: end)
            records[i].running = false
            records[i].endPosition = .end
            finished.append((id, records[i].order))
        }
    }

    /// Brings outputs up to date if anything changed since the last evaluation.
    package func flush() {
        if dirty { evaluate() }
    }

    // MARK: Lane blocks

    /// A new block of `values.count` lanes (at most 65,535) whose model values, anchors and
    /// outputs are `values`; `releasesWhenIdle` releases it when its last animation ends.
    package func allocateBlock(_ values: [Double], releasesWhenIdle: Bool = false) -> LaneBlockID {
        values.withUnsafeBufferPointer { allocateBlock($0, releasesWhenIdle: releasesWhenIdle) }
    }

    /// A new block of `values.count` lanes (at most 65,535) whose model values, anchors and
    /// outputs are `values`, read from the caller's storage (no array to build).
    package func allocateBlock(_ values: UnsafeBufferPointer<Double>, releasesWhenIdle: Bool = false) -> LaneBlockID {
        let n = values.count
        let id: Int32
        if n < freeBlocks.count, let reused = freeBlocks[n].popLast() {
            id = reused
            blocks[Int(id)].live = true
            blocks[Int(id)].releasesWhenIdle = releasesWhenIdle
        } else {
            id = Int32(blocks.count)
            blocks.reserveGeometrically(adding: 1)
            blocks.append(LaneBlock(start: Int32(anchor.count), count: UInt16(n), live: true, releasesWhenIdle: releasesWhenIdle))
            anchor.reserveGeometrically(adding: n)
            output.reserveGeometrically(adding: n)
            model.reserveGeometrically(adding: n)
            laneContributions.reserveGeometrically(adding: n)
            anchor.append(contentsOf: repeatElement(0, count: n))
            output.append(contentsOf: repeatElement(0, count: n))
            model.append(contentsOf: repeatElement(0, count: n))
            laneContributions.append(contentsOf: repeatElement(0, count: n))
        }
        let start = Int(blocks[Int(id)].start)
        for j in 0 ..< n {
            anchor[start + j] = values[j]
            output[start + j] = values[j]
            model[start + j] = values[j]
            laneContributions[start + j] = 0
        }
        return LaneBlockID(index: id)
    }

    /// The first lane of a live block.
    package func firstLane(of block: LaneBlockID) -> Int { Int(blocks[Int(block.index)].start) }

    /// The block that holds `lane`, and the lane's offset in it.
    package func block(ofLane lane: Int32) -> (block: LaneBlockID, offset: Int) {
        let b = blockIndex(ofLane: lane)
        return (LaneBlockID(index: Int32(b)), Int(lane) - Int(blocks[b].start))
    }

    /// The index of the block that holds `lane` (the last block starting at or before it).
    ///
    /// The block found last, and the one after it, are tried before the binary search: a
    /// tick that ends many runs, and the model writes it queues, look lanes up mostly in
    /// order, and each step of the search over thousands of blocks is a cache miss.
    func blockIndex(ofLane lane: Int32) -> Int {
        let count = blocks.count
        let h = lastBlockFound
        if h < count, blocks[h].start <= lane {
            if h + 1 == count || blocks[h + 1].start > lane { return h }
            if h + 2 == count || blocks[h + 2].start > lane {
                lastBlockFound = h + 1
                return h + 1
            }
        }
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if blocks[mid].start <= lane { lo = mid } else { hi = mid - 1 }
        }
        lastBlockFound = lo
        return lo
    }

    /// Whether some lane of `block` carries the most contributions a lane can hold.
    package func isSaturated(_ block: LaneBlockID) -> Bool {
        let b = blocks[Int(block.index)]
        let start = Int(b.start)
        return laneContributions[start ..< start + Int(b.count)].contains(UInt16.max)
    }

    /// Releases a block whose last contribution ended.
    func freeBlock(_ id: Int) {
        blocks[id].live = false
        let n = Int(blocks[id].count)
        if freeBlocks.count <= n { freeBlocks.append(contentsOf: repeatElement([], count: n + 1 - freeBlocks.count)) }
        freeBlocks[n].append(Int32(id))
        releasedBlocks.append(LaneBlockID(index: Int32(id)))
    }

    /// Sets a lane's model value from outside any animation: the contributions on it keep
    /// their offsets relative to the new value (UIKit's model write under an animation).
    /// Throws unless ``setModel(lane:to:)`` keeps lane `lane`'s values within the range of
    /// `Double`: on a lane with animations the write shifts their start (the anchor) by
    /// `value − model`, which must be finite, and so must the shifted anchor.
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` naming `value`.
    package func requireSettableModel(lane: Int, to value: Double) throws(ParameterError) {
        guard laneContributions[lane] != 0 else { return }
        let shift = value - model[lane]
        guard shift.isFinite, (anchor[lane] + shift).isFinite else {
            throw .outOfRange(parameter: "value", value: value,
                              expected: "the values whose difference from the model value \(model[lane]) keeps the "
                                  + "lane's animations within the range of Double")
        }
    }

    /// ``setModel(lane:to:)`` for an owner whose model value before the write was `from`
    /// (ahead of the engine's when it has changes the engine has not taken yet, as an
    /// animations block being captured): the anchor moves by `value − from`, and the model
    /// becomes `model + value − from`, so that the owner's pending changes still add up.
    package func setModel(lane: Int, to value: Double, from: Double) {
        // The owner's model and the engine's agree (no pending changes): the plain write, to
        // the same bits. Otherwise (also on a lane with no animation now) the pending changes
        // still add up from the shifted anchor.
        guard from != model[lane] else { return setModel(lane: lane, to: value) }
        anchor[lane] += value - from
        model[lane] += value - from
        dirty = true
    }

    package func setModel(lane: Int, to value: Double) {
        if laneContributions[lane] == 0 { anchor[lane] = value } else { anchor[lane] += value - model[lane] }
        model[lane] = value
        dirty = true
    }

    /// Sets a lane's model value without moving its anchor (the owner's model changed in a
    /// way the engine did not animate; the anchor follows when the contributions end).
    package func overwriteModel(lane: Int, to value: Double) {
        model[lane] = value
    }

    // MARK: Runs

    private func handle(_ id: Int32) -> RunHandle { RunHandle(index: id, generation: records[Int(id)].generation) }

    /// Whether `run` is a live run of this engine (not freed since it was given out).
    package func isLive(_ run: RunHandle) -> Bool {
        let i = Int(run.index)
        return i >= 0 && i < records.count && records[i].generation == run.generation && records[i].live
    }

    /// A new run, paused at fraction 0.
    /// - Parameters:
    ///   - curve: the progress along the run's time fraction.
    ///   - duration: seconds for the fraction to go from 0 to 1.
    ///   - repeats: start over at the end (with `autoreverses`, go back first).
    package func makeRun(curve: ProgressCurve, duration: Double, repeats: Bool, autoreverses: Bool) -> RunHandle {
        var record = TimingRecord()
        record.live = true
        record.curve = CurveRef(curve)
        record.duration = duration
        record.repeats = repeats
        record.autoreverses = autoreverses
        record.order = nextOrder
        nextOrder &+= 1
        if let id = freeRecordIDs.popLast() {
            record.generation = records[Int(id)].generation
            records[Int(id)] = record
            recordCurves[Int(id)] = curve
            if !specs.isEmpty { specs[id] = nil }
            return handle(id)
        }
        records.reserveForRuns(adding: 1)
        recordCurves.reserveForRuns(adding: 1)
        records.append(record)
        recordCurves.append(curve)
        return handle(Int32(records.count - 1))
    }

    /// Frees a run's record for reuse (every handle to it is stale afterwards). Its segments
    /// must have ended.
    package func releaseRun(_ run: RunHandle) {
        assert(!hasLiveSegment(ofRecord: run.index), "a released run's segments must have ended")
        freeRecord(run.index)
    }

    private func freeRecord(_ id: Int32) {
        var freed = TimingRecord()
        freed.generation = records[Int(id)].generation &+ 1
        records[Int(id)] = freed
        recordCurves[Int(id)] = .linear
        if !legCurves.isEmpty { legCurves[id] = nil }
        if !specs.isEmpty { specs[id] = nil }
        freeRecordIDs.append(id)
    }

    /// Starts a leg of `run` at clock time `startTime`: the time fraction goes from the current
    /// one to `target` (1 or 0) over `length` seconds, along the run's curve
    /// (`continuation == nil`) or, from each segment's current progress, along `continuation`.
    package func startLeg(_ run: RunHandle, to target: Double, length: Double, startTime: Double,
                          continuation: ProgressCurve? = nil, endPosition: RunPosition? = nil) {
        let id = run.index, i = Int(id)
        if continuation != nil {
            // Where each segment is, read from the leg it is on now (before it is replaced).
            updateProgress()
            captureContinuationBase(of: id)
        }
        records[i].f0 = records[i].f
        records[i].f1 = target
        records[i].start = startTime
        records[i].length = length
        records[i].u = 0
        records[i].endPosition = endPosition ?? (target == 1 ? .end : .start)
        if let continuation {
            records[i].continuation = true
            setLegCurve(continuation, ofRecord: i)
            records[i].linearScrub = false
        } else if records[i].continuation {
            // A direct leg after a continuation would jump back onto the original curve.
            records[i].continuation = false
        }
        records[i].running = true
        records[i].updateProgress()
        markStale(i)
        records[i].order = nextOrder
        nextOrder &+= 1
        dirty = true
    }

    /// Sets record `i`'s leg curve, the reference and the curve it refers to together.
    func setLegCurve(_ curve: ProgressCurve, ofRecord i: Int) {
        records[i].legCurve = CurveRef(curve)
        if case .linear = curve {
            if !legCurves.isEmpty { legCurves[Int32(i)] = nil }
        } else {
            legCurves[Int32(i)] = curve
        }
    }

    /// Stops time for `run` at its current fraction.
    package func pauseRun(_ run: RunHandle) {
        records[Int(run.index)].running = false
    }

    /// A copy of `run`'s timing record (its fraction, leg and start time), to read.
    package func timing(of run: RunHandle) -> TimingRecord { records[Int(run.index)] }

    /// Whether `run` starts over at its end.
    package func setRepeats(_ repeats: Bool, of run: RunHandle) { records[Int(run.index)].repeats = repeats }


    /// Sets `run`'s fraction while paused (a scrub); `linearly` maps it to progress linearly.
    package func scrub(_ run: RunHandle, to fraction: Double, linearly: Bool) {
        let i = Int(run.index)
        records[i].f = fraction
        records[i].continuation = false
        records[i].linearScrub = linearly && !records[i].curve.isLinear
        records[i].updateProgress()
        markStale(i)
        dirty = true
    }
}

/// What a tick did to a run, queued for the engine's owner.
package enum EngineEvent: Equatable, Sendable {
    /// The run's time ran out; its segments ended at the position and it is inactive.
    case finished(RunHandle, RunPosition)
    /// The run's time ran out and it pauses on completion: it stays, paused at its end.
    case pausedAtEnd(RunHandle)
}

/// A block of contiguous lanes.
struct LaneBlock {
    var start: Int32
    var count: UInt16
    var live: Bool
    /// Released when its last contribution ends (the UIKit layer's view properties); a
    /// host's blocks stay until it releases them.
    var releasesWhenIdle: Bool
}

extension Array {
    /// Makes room for `n` more elements, growing by a sixteenth (not doubling) so that the
    /// engine's per-lane arrays carry little unused capacity; still amortised O(1) per element.
    package mutating func reserveGeometrically(adding n: Int) {
        reserve(adding: n, growthDivisor: 16)
    }

    /// Makes room for `n` more elements, growing by a quarter: the engine's per-run arrays, which
    /// grow by one element per run (growing them by a sixteenth copies each element about
    /// sixteen times while a host creates runs one by one).
    package mutating func reserveForRuns(adding n: Int) {
        reserve(adding: n, growthDivisor: 4)
    }

    private mutating func reserve(adding n: Int, growthDivisor: Int) {
        let needed = count + n
        guard needed > capacity else { return }
        reserveCapacity(Swift.max(needed, count + count / growthDivisor + 16))
    }
}
