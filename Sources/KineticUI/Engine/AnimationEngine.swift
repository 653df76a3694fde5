import Kinetic

/// Evaluates every running animator in one pass per frame, on a clock the host drives.
///
/// ## Model
/// Every animated view property is a run of `Double` lanes in the engine (a *lane block*).
/// Each lane's presentation value is `anchor + Σ span · progress` over the animations on
/// it: `anchor` is where the first animation started, each animation adds its `span`
/// (new model value − old model value) weighted by its eased progress. This is UIKit's
/// additive model: several animators on one property add up, and every animation ends
/// exactly at the model value (its lanes are released when the last animation on them
/// ends). When all progress is 0 — say after running forward and back — the value is
/// `anchor` exactly, the start value.
///
/// ## One tick
/// ``tick()`` (called by the ``ManualClock`` on every advance, or by a
/// ``RealTimeDriver``):
/// 1. advances every running animator's time (one pass over contiguous timing records);
/// 2. computes each animation segment's progress (one timing solve per segment — normally
///    one per animator);
/// 3. writes every lane: a copy of the anchors, then one indexed accumulation per segment
///    (`Batch.scatterAddUnchecked(spans:targets:count:progress:into:)`);
/// 4. finishes the animators whose run ended, in the order they were started, and then
///    calls their completion handlers in that same order (each animator's handlers in the
///    order they were added).
///
/// A tick in steady state allocates nothing. Completion handlers may start, stop or create
/// animators; a clock advance made from inside a completion handler is run after the
/// current tick ends.
///
/// The engine is main-actor isolated and owns no thread.
///
/// ## Lifetime
/// The host owns the engine, as UIKit's window owns its animations: the engine keeps its
/// running animators alive (a started animator needs no other owner), but they do not keep
/// it alive, and neither does its clock. An inactive, paused or stopped animator does keep
/// its engine. When the host lets go of an engine whose animators are still running, the
/// engine is freed at once with everything only it held, and (UIKit's animators end with
/// their window):
/// - its running animators end *inactive* and their completion handlers are **not** called
///   (there is no later tick to deliver them on, and they would run inside the engine's
///   deinitialisation); an animator still held elsewhere is a fresh inactive animator
///   afterwards, on ``shared``;
/// - the views it animated show their model values (the animations' end values; as when
///   UIKit removes a layer's animations) and can be animated again by any engine.
@MainActor
public final class AnimationEngine {
    /// The engine that animators and block animations use when none is named.
    public static let shared = AnimationEngine()

    /// The clock that drives this engine.
    public let clock: ManualClock

    // Lanes (see EngineLanes.swift).
    var anchor: [Double] = []
    var output: [Double] = []
    /// Live animations per lane (at most 65,535 on one lane).
    var laneContributions: [UInt16] = []
    var laneBlock: [Int32] = []
    var blocks: [LaneBlock] = []
    var freeBlockIDs: [Int32] = []
    var freeRuns: [[Int32]] = Array(repeating: [], count: 7)

    // Contributions (see EngineSegments.swift).
    var spans: [Double] = []
    var targets: [Int32] = []
    var segments: [Segment] = []
    var deadLaneCount = 0

    // Timing records and the running animators they keep alive.
    var records: [TimingRecord] = []
    var retained: [PropertyAnimator?] = []
    var freeRecordIDs: [Int32] = []
    var nextOrder: UInt64 = 0

    /// Cubic curves in use, interned so that animators with equal curves share one solver
    /// table (hot in cache during a tick) and one box.
    private var curveCache: [CubicBezier: ProgressCurve] = [:]

    /// While set, every animator created on this engine is appended (an interaction
    /// controller collecting the animations a transition creates).
    var collector: [PropertyAnimator]?

    /// Whether presentation values are stale (set by every change, cleared by evaluation).
    var dirty = false
    private var ticking = false
    private var tickPending = false
    private var finished: [(id: Int32, order: UInt64)] = []
    /// The animators a tick completes, with their records and end positions (reused, so a
    /// tick allocates nothing for them; emptied before the tick returns).
    private var completing: [(animator: PropertyAnimator, id: Int32, position: ViewAnimatingPosition)] = []
    /// Per record, the end position of a record finishing in this tick (−1: none); scratch
    /// for `finishSegments(_:)`.
    var endPositions: [Int8] = []

    /// An engine on `clock` (a new clock at time 0 by default).
    public init(clock: ManualClock = ManualClock()) {
        self.clock = clock
        clock.attach(self)
        finished.reserveCapacity(64)
    }

    isolated deinit {
        // Running animators end here (see "Lifetime"); views drop their lane blocks.
        for case let animator? in retained { animator.engineDidGoAway() }
        for block in blocks {
            guard let view = block.view, view.laneEngine === nil || view.laneEngine === self else { continue }
            view.laneBlocks[block.property.rawValue] = .none
            if !view.laneBlocks.contains(where: \.exists) { view.laneEngine = nil }
        }
    }

    // MARK: Diagnostics

    /// The number of animators that are active (running, paused or waiting for a delay).
    public var activeAnimatorCount: Int { records.count - freeRecordIDs.count }
    /// The number of property lanes currently animated (lanes with at least one animation).
    public var animatedLaneCount: Int { laneContributions.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }
    /// The number of (span, lane) contributions of live animations.
    public var contributionCount: Int { spans.count - deadLaneCount }
    /// Bytes of storage the engine holds (array capacities), for memory budgets.
    public var storageBytes: Int {
        anchor.capacity * 8 + output.capacity * 8 + laneContributions.capacity * 2 + laneBlock.capacity * 4
            + blocks.capacity * MemoryLayout<LaneBlock>.stride + freeBlockIDs.capacity * 4
            + freeRuns.reduce(0) { $0 + $1.capacity * 4 }
            + spans.capacity * 8 + targets.capacity * 4 + segments.capacity * MemoryLayout<Segment>.stride
            + records.capacity * MemoryLayout<TimingRecord>.stride + retained.capacity * 8 + freeRecordIDs.capacity * 4
    }

    // MARK: Ticking

    /// Brings every animator to the clock's current time, writes every animated lane and
    /// delivers the completions of animators whose run ended. Called by the clock on every
    /// advance; call it directly only with a clock you drive some other way.
    public func tick() {
        if ticking {
            tickPending = true
            return
        }
        ticking = true
        defer { ticking = false }
        repeat {
            tickPending = false
            runTick()
        } while tickPending
    }

    private func runTick() {
        let now = clock.now
        finished.removeAll(keepingCapacity: true)
        records.withUnsafeMutableBufferPointer { r in
            for i in r.indices where r[i].running {
                if r[i].advance(to: now) { finished.append((Int32(i), r[i].order)) }
            }
        }
        evaluate()
        guard !finished.isEmpty else { return }
        if finished.count > 1 { finished.sort { $0.order < $1.order } }
        for (id, _) in finished {
            guard let animator = retained[Int(id)] else { continue }
            if animator.pausesOnCompletion {
                animator.pauseAtEnd()
                continue
            }
            completing.append((animator, id, records[Int(id)].endPosition))
        }
        finishSegments(completing.lazy.map { (id: $0.id, position: $0.position) })
        for c in completing { c.animator.runDidFinish() }
        compactIfNeeded()
        for c in completing { c.animator.callCompletions(c.position) }
        completing.removeAll(keepingCapacity: true)
    }

    /// Brings presentation values up to date if anything changed since the last evaluation.
    func flush() {
        if dirty { evaluate() }
    }

    // MARK: Records

    /// The shared instance of a cubic curve equal to `curve` (springs and linear are returned
    /// as they are). The cache holds at most 1,024 distinct curves; past that it starts over.
    func interned(_ curve: ProgressCurve) -> ProgressCurve {
        guard case .cubic(let bezier) = curve else { return curve }
        if let shared = curveCache[bezier] { return shared }
        if curveCache.count >= 1024 { curveCache.removeAll(keepingCapacity: true) }
        curveCache[bezier] = curve
        return curve
    }

    /// A new run (a timing record) for an animator's timing, paused at fraction 0.
    func makeRun(curve: ProgressCurve, duration: Double, repeats: Bool, autoreverses: Bool) -> RunHandle {
        RunHandle(index: makeRecord(curve: curve, duration: duration, repeats: repeats, autoreverses: autoreverses))
    }

    private func makeRecord(curve: ProgressCurve, duration: Double, repeats: Bool, autoreverses: Bool) -> Int32 {
        var record = TimingRecord()
        record.curve = curve
        record.duration = duration
        record.repeats = repeats
        record.autoreverses = autoreverses
        record.order = nextOrder
        nextOrder &+= 1
        if let id = freeRecordIDs.popLast() {
            records[Int(id)] = record
            retained[Int(id)] = nil
            return id
        }
        records.reserveGeometrically(adding: 1)
        retained.reserveGeometrically(adding: 1)
        records.append(record)
        retained.append(nil)
        return Int32(records.count - 1)
    }

    /// Frees a run's timing record for reuse (the handle is stale afterwards).
    func releaseRun(_ run: RunHandle) {
        let id = run.index
        records[Int(id)] = TimingRecord()
        retained[Int(id)]?.ownedEngine = self
        retained[Int(id)] = nil
        freeRecordIDs.append(id)
    }

    /// Starts a leg of `run` now (after `delay` seconds): time fraction from the current one
    /// to `target` (1 or 0), over `length` seconds, along the run's curve
    /// (`continuation == nil`) or, from each segment's current progress, along `continuation`.
    func startLeg(_ run: RunHandle, to target: Double, length: Double, delay: Double = 0,
                  continuation: ProgressCurve? = nil, endPosition: ViewAnimatingPosition? = nil,
                  animator: PropertyAnimator) {
        if continuation != nil { updateProgress() }
        let id = run.index, i = Int(id)
        records[i].f0 = records[i].f
        records[i].f1 = target
        records[i].start = clock.now + delay
        records[i].length = length
        records[i].u = 0
        records[i].endPosition = endPosition ?? (target == 1 ? .end : .start)
        if let continuation {
            records[i].continuation = true
            records[i].legCurve = continuation
            records[i].linearScrub = false
            captureContinuationBase(of: id)
        } else if records[i].continuation {
            // A direct leg after a continuation would jump back onto the original curve.
            records[i].continuation = false
        }
        records[i].running = true
        records[i].updateProgress()
        records[i].needsUpdate = true
        records[i].order = nextOrder
        nextOrder &+= 1
        retained[i] = animator
        animator.ownedEngine = nil  // the engine keeps the running animator, not the reverse
        dirty = true
    }

    /// Stops time for `run` at its current fraction.
    func pauseRun(_ run: RunHandle) {
        let i = Int(run.index)
        records[i].running = false
        retained[i]?.ownedEngine = self
        retained[i] = nil
    }

    /// A copy of `run`'s timing record (its fraction, leg and start time), to read.
    func timing(of run: RunHandle) -> TimingRecord { records[Int(run.index)] }

    /// Whether `run` starts over at its end (`repeats`).
    func setRepeats(_ repeats: Bool, of run: RunHandle) { records[Int(run.index)].repeats = repeats }

    /// Sets `run`'s fraction while paused (a scrub).
    func scrub(_ run: RunHandle, to fraction: Double, linearly: Bool) {
        let i = Int(run.index)
        records[i].f = fraction
        records[i].continuation = false
        records[i].linearScrub = linearly && !records[i].curve.isLinear
        records[i].updateProgress()
        records[i].needsUpdate = true
        dirty = true
    }
}

extension Array {
    /// Makes room for `n` more elements, growing by a sixteenth (not doubling) so that the
    /// engine's arrays carry little unused capacity; still amortised O(1) per element.
    mutating func reserveGeometrically(adding n: Int) {
        let needed = count + n
        guard needed > capacity else { return }
        reserveCapacity(Swift.max(needed, count + count / 16 + 16))
    }
}
