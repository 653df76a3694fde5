/// One batch of contributions: a contiguous run of (span, lane) pairs — the horizontal
/// lanes first, then the vertical ones — timed by its run's record within a window of the
/// run's time fraction.
struct Segment {
    var owner: Int32
    var start: Int32
    var countX: Int32
    var countY: Int32
    /// The window in time fraction: progress runs over [windowStart, windowStart + windowLength]
    /// (inverted: over [windowStart − windowLength, windowStart] as the fraction decreases).
    var windowStart: Double
    var windowLength: Double
    var inverted: Bool
    /// Hold the start value until the window ends, then jump (keyframe discrete mode).
    var discrete: Bool
    var alive = true
    /// The progress is a keyframe step weight of the eased fraction (the segment's
    /// `SegmentWeight` is in the engine's `segmentWeights`).
    var weighted = false
    /// The owner's next segment (higher index), or −1 (see `TimingRecord.firstSegment`).
    var nextOfOwner: Int32 = -1
    /// Spans the whole run, linearly in time (takes the record's progress as is).
    var wholeRun: Bool { windowStart == 0 && windowLength == 1 && !inverted && !discrete && !weighted }
    /// Current progress.
    var progressX = 0.0, progressY = 0.0

    var count: Int { Int(countX + countY) }

    /// The fraction of the window that time fraction `f` has covered, in [0, 1].
    @inline(__always)
    func windowFraction(_ f: Double) -> Double {
        let d = inverted ? windowStart - f : f - windowStart
        if windowLength <= 0 { return d >= 0 ? 1 : 0 }
        if d <= 0 { return 0 }
        if d >= windowLength { return 1 }
        return d / windowLength
    }
}

/// A lane that a segment animates: its model value before the segment and its new model
/// value (the segment's target), and whether the lane is vertical (takes the progress of a
/// spring's vertical velocity).
package struct LaneChange {
    package let lane: Int32
    package let old: Double
    package let new: Double
    package let vertical: Bool
    /// The lane's model value once the change is added: `new`, unless the owner's model moved
    /// further by changes it added before this one (an animations block whose nested block
    /// animated the same property: the block's own step ends at `new`, the model at `model`).
    package let model: Double

    package init(lane: Int32, old: Double, new: Double, vertical: Bool, model: Double? = nil) {
        self.lane = lane
        self.old = old
        self.new = new
        self.vertical = vertical
        self.model = model ?? new
    }
}

/// A lane of a stopped run: where finishing at the start or at the end puts it.
package struct StoppedLaneValues: Equatable, Sendable {
    package let lane: Int32
    package let start: Double
    package let end: Double

    package init(lane: Int32, start: Double, end: Double) {
        self.lane = lane
        self.start = start
        self.end = end
    }
}

extension LaneEngine {
    // MARK: Evaluation

    /// Recomputes the progress of every segment whose record moved: after a tick
    /// (`progressNeedsFullPass`), in one pass over every segment; between ticks, only the
    /// segments of the records marked since (`markStale`), through their lists. Every record's
    /// segments are current afterwards, running ones included: their time moves only in
    /// `advance(to:)`, and every other change to a record's timing (a leg, a scrub, a new
    /// segment) marks it. So a call between two ticks that stops, pauses, continues or adds to
    /// one run among many recomputes no other run's segments.
    package func updateProgress() {
        if recomputesAllProgress {
            // The reference behaviour for tests: every record with a segment, every time.
            for i in records.indices where records[i].firstSegment >= 0 { records[i].needsUpdate = true }
            progressNeedsFullPass = true
        }
        if progressNeedsFullPass {
            records.withUnsafeMutableBufferPointer { r in
                guard let r0 = r.baseAddress else { return }
                segments.withUnsafeMutableBufferPointer { s in
                    for k in s.indices where s[k].alive {
                        let record = r0 + Int(s[k].owner)
                        guard record.pointee.needsUpdate else { continue }
                        updateProgress(of: &s[k], at: k, record: record)
                    }
                }
                for i in r.indices where r[i].needsUpdate { r[i].needsUpdate = false }
            }
            progressNeedsFullPass = false
            staleRecords.removeAll(keepingCapacity: true)
            return
        }
        guard !staleRecords.isEmpty else { return }
        records.withUnsafeMutableBufferPointer { r in
            guard let r0 = r.baseAddress else { return }
            segments.withUnsafeMutableBufferPointer { s in
                for id in staleRecords where r[Int(id)].needsUpdate {
                    var k = Int(r[Int(id)].firstSegment)
                    while k >= 0 {
                        if s[k].alive { updateProgress(of: &s[k], at: k, record: r0 + Int(id)) }
                        k = Int(s[k].nextOfOwner)
                    }
                    r[Int(id)].needsUpdate = false
                }
            }
        }
        staleRecords.removeAll(keepingCapacity: true)
    }

    /// Segment k's progress from its record.
    @inline(__always)
    private func updateProgress(of s: inout Segment, at k: Int, record: UnsafePointer<TimingRecord>) {
        if s.wholeRun, !record.pointee.continuation, !record.pointee.linearScrub {
            s.progressX = record.pointee.progressX
            s.progressY = s.countY > 0 ? record.pointee.progressY : s.progressX
        } else {
            // A segment added during the continuation leg starts from 0 (and
            // `continuationBases` is empty until some leg captured a base).
            let base = record.pointee.continuation && k < continuationBases.count ? continuationBases[k] : .zero
            Self.progress(of: &s, record: record, base: base, weight: s.weighted ? segmentWeights[k] : nil)
        }
    }

    /// Marks record `i`'s segments for the next `updateProgress()` (its timing changed
    /// between ticks). (A run restarted many times keeps its ended segments on its list
    /// until the next compaction, which comes once ended lanes are as many as live ones.)
    func markStale(_ i: Int) {
        guard !records[i].needsUpdate else { return }
        records[i].needsUpdate = true
        guard !progressNeedsFullPass else { return }
        // Many marks before an update (runs started one by one between two ticks): one
        // pass over every segment then costs less per record than the lists, and the list
        // of marks stays short.
        if staleRecords.count >= Swift.max(64, records.count / 8) {
            progressNeedsFullPass = true
            return
        }
        staleRecords.append(Int32(truncatingIfNeeded: i))
    }

    /// Calls `body` with the index of each live segment that record `id` owns, in index
    /// order (`body` may end the segment, not add or move segments).
    @inline(__always)
    func forEachLiveSegment(ofRecord id: Int32, _ body: (Int) -> Void) {
        var k = Int(records[Int(id)].firstSegment)
        while k >= 0 {
            let next = Int(segments[k].nextOfOwner)
            if segments[k].alive { body(k) }
            k = next
        }
    }

    /// Whether record `id` owns a live segment.
    func hasLiveSegment(ofRecord id: Int32) -> Bool {
        var found = false
        forEachLiveSegment(ofRecord: id) { _ in found = true }
        return found
    }

    /// A segment's progress from its record; `base` is where the segment was when the
    /// record's continuation leg began (read only in a continuation leg: its progress, the
    /// argument of its progress and its window fraction); `weight` is the keyframe step of a
    /// weighted segment.
    ///
    /// A continuation leg re-times the rest of the run: the run's time fraction moves on
    /// linearly, and each segment covers the rest of its own window as that fraction crosses
    /// it, from where it was, eased by the leg's curve: its share of what was left of its
    /// window at the leg's start goes through the curve. A segment over the whole run moves
    /// along the leg's curve from its progress; an animation with a delay still waits for its
    /// part of the run, and then eases (and overshoots) as the whole-run ones do. A keyframe
    /// step's argument (the eased time the keyframes divide) goes from where it was to the
    /// end along the leg's curve, so each step begins when that eased time reaches its key
    /// time, as Core Animation times a keyframe animation under its timing function.
    static func progress(of s: inout Segment, record: UnsafePointer<TimingRecord>, base: SIMD4<Double>,
                         weight: SegmentWeight?) {
        let r = record.pointee
        if r.continuation {
            let t = r.target
            if s.wholeRun {
                let cx = r.legCurve.x(r.u)
                let cy = r.legCurve.isAxisDependent ? r.legCurve.y(r.u) : cx
                s.progressX = base.x + (t - base.x) * cx
                s.progressY = base.y + (t - base.y) * cy
                return
            }
            let g = s.windowFraction(r.f)
            if s.discrete {
                s.progressX = g >= 1 ? 1 : 0
                s.progressY = s.progressX
                return
            }
            let windowEnd = s.windowFraction(r.f1)
            let share = continuedShare(windowFraction: g, base: base, windowEnd: windowEnd)
            let cx = r.legCurve.x(share)
            if let weight {
                s.progressX = weight.basis.weight(ofStep: weight.step, at: continuedArgument(base: base, windowEnd: windowEnd, eased: cx))
                s.progressY = s.progressX
            } else {
                let cy = r.legCurve.isAxisDependent ? r.legCurve.y(share) : cx
                s.progressX = base.x + (windowEnd - base.x) * cx
                s.progressY = base.y + (windowEnd - base.y) * cy
            }
            return
        }
        let g = s.windowFraction(r.f)
        if let weight {
            // The run's curve eases the whole run's time, then the keyframes divide it
            // (a keyframe animation's timing function, as Core Animation applies it).
            s.progressX = weight.basis.weight(ofStep: weight.step, at: r.linearScrub ? g : r.curve.x(g))
            s.progressY = s.progressX
        } else if s.discrete {
            s.progressX = g >= 1 ? 1 : 0
            s.progressY = s.progressX
        } else if r.linearScrub {
            s.progressX = g
            s.progressY = g
        } else {
            s.progressX = r.curve.x(g)
            s.progressY = s.countY > 0 && r.curve.isAxisDependent ? r.curve.y(g) : s.progressX
        }
    }

    /// Writes every lane: anchors, then each segment's progress-weighted spans.
    package func evaluate() {
        updateProgress()
        let n = anchor.count
        guard n > 0 else {
            dirty = false
            return
        }
        output.withUnsafeMutableBufferPointer { out in
            anchor.withUnsafeBufferPointer { a in
                out.baseAddress!.update(from: a.baseAddress!, count: n)
            }
            spans.withUnsafeBufferPointer { sp in
                targets.withUnsafeBufferPointer { tg in
                    segments.withUnsafeBufferPointer { segs in
                        guard let s0 = sp.baseAddress, let t0 = tg.baseAddress, let o = out.baseAddress else { return }
                        for s in segs where s.alive {
                            let a = Int(s.start), x = Int(s.countX)
                            if s.progressX != 0 {
                                Batch.scatterAddUnchecked(spans: s0 + a, targets: t0 + a, count: x,
                                                          progress: s.progressX, into: o)
                            }
                            if s.countY > 0, s.progressY != 0 {
                                Batch.scatterAddUnchecked(spans: s0 + a + x, targets: t0 + a + x, count: Int(s.countY),
                                                          progress: s.progressY, into: o)
                            }
                        }
                    }
                }
            }
        }
        dirty = false
    }

    /// The share of what was left of a segment's window at the leg's start (from `base.w` to
    /// `windowEnd`) that the run's time has covered, at window fraction `g`: 1 when nothing
    /// was left.
    @inline(__always)
    static func continuedShare(windowFraction g: Double, base: SIMD4<Double>, windowEnd: Double) -> Double {
        let left = windowEnd - base.w
        guard left != 0 else { return 1 }
        return (g - base.w) / left
    }

    /// A keyframe step's argument in a continuation leg: from where it was (`base.z`) to the
    /// window's end, `eased` (the leg's curve at the segment's share) of the way.
    @inline(__always)
    static func continuedArgument(base: SIMD4<Double>, windowEnd: Double, eased: Double) -> Double {
        base.z + (windowEnd - base.z) * eased
    }

    /// Records where each segment of `id` is, from the leg the record is on now (call before
    /// the record's new continuation leg replaces it), as the base of that new leg: its
    /// progress, the argument of its progress (the eased window position a keyframe step
    /// weighs) and its window fraction at the run's time fraction now.
    func captureContinuationBase(of id: Int32) {
        if continuationBases.count < segments.count {
            continuationBases.reserveForRuns(adding: segments.count - continuationBases.count)
            continuationBases.append(contentsOf: repeatElement(.zero, count: segments.count - continuationBases.count))
        }
        let r = records[Int(id)]
        forEachLiveSegment(ofRecord: id) { k in
            let s = segments[k]
            let g = s.windowFraction(r.f)
            var argument = s.progressX
            if s.weighted {
                if r.continuation {
                    let old = continuationBases[k]
                    let end = s.windowFraction(r.f1)
                    let share = Self.continuedShare(windowFraction: g, base: old, windowEnd: end)
                    argument = Self.continuedArgument(base: old, windowEnd: end, eased: r.legCurve.x(share))
                } else {
                    argument = r.linearScrub ? g : r.curve.x(g)
                }
            }
            continuationBases[k] = SIMD4(s.progressX, s.progressY, argument, g)
        }
    }

    // MARK: Adding

    /// The most contributions (animations and keyframe steps) one lane carries at once.
    package static let maximumContributions = Int(UInt16.max)

    /// Throws unless every lane that `changes` changes can take one more contribution, and
    /// its span is within the range of `Double`: new − old, or, for an animation of `run`
    /// that begins from the current state (`fromCurrentState`, nil: the run's option) on a
    /// lane already animated, new − the value shown now (what ``addSegment(_:changes:windowStart:windowLength:inverted:discrete:fromCurrentState:weight:)``
    /// takes then). The check before that call for callers that do not make it themselves
    /// (the UIKit layer also refuses a full lane before it captures the animation, as
    /// `AnimatorError.tooManyAnimations`). A finite span keeps a move's values finite while
    /// its progress stays within [0, 1]; a curve that overshoots (a spring, a bezier with y
    /// beyond [0, 1], a cubic keyframe spline) can still leave the range of `Double` on a
    /// span near its limit.
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` naming the lane.
    package func requireAddable(_ changes: [LaneChange], to run: RunHandle, fromCurrentState: Bool? = nil)
        throws(ParameterError) {
        let current = fromCurrentState ?? records[Int(run.index)].beginsFromCurrentState
        try requireRoom(for: changes.count)
        var updated = false
        for change in changes where change.new != change.old {
            let t = Int(change.lane)
            let held = Int(laneContributions[t])
            if held >= Self.maximumContributions {
                throw .outOfRange(parameter: "animations on lane \(change.lane)", value: Double(held + 1),
                                  expected: "[0, \(Self.maximumContributions)], the most a lane carries at once")
            }
            var from = change.old, to = change.new
            if current && held > 0 {
                if !updated { updateProgress(); updated = true }
                from = currentValue(ofLane: change.lane)
                to = change.model
            }
            if !(to - from).isFinite {
                throw Self.spanError(lane: change.lane, "target", to, from: from)
            }
        }
    }

    /// The error for a move from `old` to `new` (named `what` on lane `lane`) whose span is
    /// beyond the range of `Double`: its value would be ±infinity mid-way.
    /// The most lane values the engine animates at once (its contributions are addressed by
    /// `Int32`): about 2.1 billion, tens of gigabytes.
    static let maximumTotalContributions = Int(Int32.max)

    /// Throws unless the engine can hold `count` more contributions (``maximumTotalContributions``).
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` naming the count.
    func requireRoom(for count: Int) throws(ParameterError) {
        let room = Self.maximumTotalContributions - spans.count
        guard count > room else { return }
        throw .outOfRange(parameter: "lane values animated at once", value: Double(spans.count + count),
                          expected: "[0, \(Self.maximumTotalContributions)], the most one engine holds")
    }

    static func spanError(lane: Int32, _ what: String, _ new: Double, from old: Double) -> ParameterError {
        .outOfRange(parameter: "\(what) of lane \(lane)", value: new,
                    expected: "the values whose difference from \(old) is within the range of Double")
    }

    /// Adds a segment of `run`: each changed lane gets a contribution of span `new − old`
    /// and the model value `new`. Lanes whose values are equal are skipped.
    /// - Parameters:
    ///   - window: start and length in the run's time fraction.
    ///   - fromCurrentState: start from the current output, freezing the other contributions
    ///     on the same lanes where they are (UIKit's `beginFromCurrentState`).
    /// - Returns: the number of lanes the segment animates (0: nothing changed, no segment).
    @discardableResult
    package func addSegment(_ run: RunHandle, changes: [LaneChange], windowStart: Double, windowLength: Double,
                            inverted: Bool = false, discrete: Bool = false, fromCurrentState: Bool = false,
                            weight: SegmentWeight? = nil) -> Int {
        let id = run.index
        if fromCurrentState { updateProgress() }
        var countX = 0
        for change in changes where change.new != change.old && !change.vertical { countX += 1 }
        var count = countX
        for change in changes where change.new != change.old && change.vertical { count += 1 }
        guard count > 0 else { return 0 }
        let start = spans.count
        spans.reserveGeometrically(adding: count)
        targets.reserveGeometrically(adding: count)
        segments.reserveForRuns(adding: 1)
        spans.append(contentsOf: repeatElement(0, count: count))
        targets.append(contentsOf: repeatElement(0, count: count))
        var nextX = start, nextY = start + countX
        for change in changes where change.new != change.old {
            let t = Int(change.lane)
            var span = change.new - change.old
            if fromCurrentState, laneContributions[t] > 0 {
                // From what the lane shows to its model value: the contributions before this
                // one, a nested block's included, are frozen where they are.
                freezeContributions(onLane: change.lane, before: start)
                span = change.model - anchor[t]
            }
            laneContributions[t] += 1
            model[t] = change.model
            let slot: Int
            if change.vertical {
                slot = nextY
                nextY += 1
            } else {
                slot = nextX
                nextX += 1
            }
            spans[slot] = span
            targets[slot] = change.lane
        }
        var segment = Segment(owner: id, start: Int32(start), countX: Int32(countX), countY: Int32(count - countX),
                              windowStart: windowStart, windowLength: windowLength, inverted: inverted, discrete: discrete)
        segment.weighted = weight != nil
        records[Int(id)].updateProgress()
        // Joining a continuation leg: the base the leg's progress starts from. An animation
        // starts from nothing (its window begins at the run's fraction now, or later); a
        // keyframe step shows the keyframes where the run's fraction is, and eases on from there.
        var joinBase: SIMD4<Double>?
        if records[Int(id)].continuation {
            let g = segment.windowFraction(records[Int(id)].f)
            let p = weight.map { $0.basis.weight(ofStep: $0.step, at: g) } ?? (discrete ? (g >= 1 ? 1 : 0) : 0)
            joinBase = SIMD4(p, p, weight != nil ? g : 0, g)
            segment.progressX = p
            segment.progressY = p
        } else {
            records.withUnsafeBufferPointer {
                Self.progress(of: &segment, record: $0.baseAddress! + Int(id), base: .zero, weight: weight)
            }
        }
        // The new segment has the highest index: it goes at the end of its owner's list.
        segments.append(segment)
        records.withUnsafeMutableBufferPointer { r in
            segments.withUnsafeMutableBufferPointer { s in Self.link(s.count - 1, s, r) }
        }
        if !continuationBases.isEmpty || joinBase != nil {
            continuationBases.reserveForRuns(adding: segments.count - continuationBases.count)
            continuationBases.append(contentsOf: repeatElement(.zero, count: segments.count - continuationBases.count))
        }
        if let joinBase { continuationBases[segments.count - 1] = joinBase }
        if weight != nil || !segmentWeights.isEmpty {
            segmentWeights.reserveForRuns(adding: segments.count - segmentWeights.count)
            segmentWeights.append(contentsOf: repeatElement(nil, count: segments.count - 1 - segmentWeights.count))
            segmentWeights.append(weight)
        }
        markStale(Int(id))
        dirty = true
        return count
    }

    /// Freezes every live contribution on lane `t` (among the first `end` contribution
    /// slots) at its current value, into the anchor.
    func freezeContributions(onLane t: Int32, before end: Int) {
        for k in segments.indices where segments[k].alive {
            let s = segments[k]
            for i in Int(s.start) ..< Swift.min(Int(s.start) + s.count, end) where targets[i] == t {
                let p = i < Int(s.start + s.countX) ? s.progressX : s.progressY
                anchor[Int(t)] += spans[i] * p
                spans[i] = 0
            }
        }
    }

    // MARK: Finishing

    /// Ends every segment of `run`, leaving its lanes at `position`: `.end` keeps the model
    /// values; `.start` puts the start values back into the model; `.current` writes the
    /// current output into the model.
    package func finishSegments(of run: RunHandle, at position: RunPosition) {
        finishSegments(ofRecord: run.index, at: position)
    }

    private func finishSegments(ofRecord id: Int32, at position: RunPosition) {
        // Only `.current` reads the segments' progress.
        if position == .current { updateProgress() }
        forEachLiveSegment(ofRecord: id) { k in finishSegment(k, at: position) }
        dirty = true
    }

    /// Ends the segments of several records in one pass over the segments (the runs that
    /// ended in one tick).
    func finishSegments(_ ends: [(id: Int32, position: RunPosition)]) {
        guard ends.count > 1 else {
            if let end = ends.first { finishSegments(ofRecord: end.id, at: end.position) }
            return
        }
        // Ends from a tick are `.end` or `.start`, and the tick's evaluation has just brought
        // the progress up to date anyway.
        endPositions.removeAll(keepingCapacity: true)
        endPositions.append(contentsOf: repeatElement(-1, count: records.count))
        for end in ends { endPositions[Int(end.id)] = end.position.rawValue }
        for k in segments.indices where segments[k].alive {
            let p = endPositions[Int(segments[k].owner)]
            guard p >= 0, let position = RunPosition(rawValue: p) else { continue }
            finishSegment(k, at: position)
        }
        dirty = true
    }

    private func finishSegment(_ k: Int, at position: RunPosition) {
        let s = segments[k]
        var where_ = position
        if s.inverted, position != .current { where_ = position == .end ? .start : .end }
        for i in Int(s.start) ..< Int(s.start) + s.count {
            let p = i < Int(s.start + s.countX) ? s.progressX : s.progressY
            finishContribution(lane: targets[i], span: spans[i], progress: p, at: where_)
        }
        segments[k].alive = false
        deadLaneCount += s.count
    }

    /// The lanes of `run`'s segments with their start and end values, for finishing at the
    /// start or the end after the run is stopped.
    ///
    /// One entry per lane the run animates. A lane's start is its value before all of the
    /// run's animations of it, and its end the value they leave: an animation added while the
    /// run ran reversed (an inverted segment) keeps its value at the start and is undone at
    /// the end. So the start is the model value less the spans of the run's other
    /// contributions, exactly the anchor when those are all the lane carries; the end is
    /// the model value less the inverted ones' spans.
    package func stopValues(of run: RunHandle) -> [StoppedLaneValues] {
        let id = run.index
        var lanes: [Int32] = []
        var sums: [Int32: (count: Int, forward: Double, inverted: Double, anyInverted: Bool)] = [:]
        forEachLiveSegment(ofRecord: id) { k in
            let s = segments[k]
            for i in Int(s.start) ..< Int(s.start) + s.count {
                let lane = targets[i]
                if sums[lane] == nil { lanes.append(lane) }
                sums[lane, default: (0, 0, 0, false)].count += 1
                if s.inverted {
                    sums[lane]!.inverted += spans[i]
                    sums[lane]!.anyInverted = true
                } else {
                    sums[lane]!.forward += spans[i]
                }
            }
        }
        return lanes.map { lane in
            let t = Int(lane), sum = sums[lane]!
            let model = self.model[t]
            let start = !sum.anyInverted && Int(laneContributions[t]) == sum.count ? anchor[t] : model - sum.forward
            return StoppedLaneValues(lane: lane, start: start, end: sum.anyInverted ? model - sum.inverted : model)
        }
    }

    private func finishContribution(lane t32: Int32, span s: Double, progress p: Double, at position: RunPosition) {
        let t = Int(t32)
        let single = laneContributions[t] == 1
        switch position {
        case .end:
            anchor[t] += s
        case .start:
            model[t] = single ? anchor[t] : model[t] - s
            modelWrites.append(t32)
        case .current:
            if single {
                model[t] = anchor[t] + s * p
            } else {
                model[t] -= s * (1 - p)
                anchor[t] += s * p
            }
            modelWrites.append(t32)
        }
        laneContributions[t] -= 1
        guard laneContributions[t] == 0 else { return }
        anchor[t] = model[t]
        let b = blockIndex(ofLane: t32)
        guard blocks[b].releasesWhenIdle else { return }
        let start = Int(blocks[b].start)
        if !laneContributions[start ..< start + Int(blocks[b].count)].contains(where: { $0 > 0 }) {
            freeBlock(b)
        }
    }

    // MARK: Compaction

    /// Drops finished segments and closes the gaps they left in the contribution arrays
    /// (one pass).
    package func compactIfNeeded() {
        // Ended segments are skipped by every pass, so they can wait: compacting once the
        // ended lanes are at least as many as the live ones keeps its cost, a pass over every
        // segment, amortised over the segments that ended (many runs ended or released one at
        // a time would otherwise pay a pass each).
        guard deadLaneCount > 0, deadLaneCount &* 2 >= spans.count else { return }
        // Every record with a list owns some stored segment: emptying those owners' lists
        // here, and linking the kept segments after, costs a pass over the segments only (a
        // pass over every record would cost each compaction the idle records too).
        records.withUnsafeMutableBufferPointer { r in
            for s in segments {
                r[Int(s.owner)].firstSegment = -1
                r[Int(s.owner)].lastSegment = -1
            }
        }
        var write = 0
        var kept = 0
        for k in segments.indices where segments[k].alive {
            let s = segments[k]
            let a = Int(s.start), n = s.count
            if a != write {
                for i in 0 ..< n {
                    spans[write + i] = spans[a + i]
                    targets[write + i] = targets[a + i]
                }
            }
            segments[kept] = s
            segments[kept].start = Int32(write)
            if !continuationBases.isEmpty { continuationBases[kept] = continuationBases[k] }
            if !segmentWeights.isEmpty { segmentWeights[kept] = segmentWeights[k] }
            write += n
            kept += 1
        }
        spans.removeSubrange(write...)
        targets.removeSubrange(write...)
        segments.removeSubrange(kept...)
        if !continuationBases.isEmpty { continuationBases.removeSubrange(kept...) }
        if !segmentWeights.isEmpty { segmentWeights.removeSubrange(kept...) }
        deadLaneCount = 0
        relinkSegments()
    }

    /// Links the kept segments into their owners' lists, in index order (after compaction
    /// moved them and emptied those lists).
    private func relinkSegments() {
        records.withUnsafeMutableBufferPointer { r in
            segments.withUnsafeMutableBufferPointer { s in
                for k in s.indices { Self.link(k, s, r) }
            }
        }
    }

    /// Appends segment k to the end of its owner's list (k above every index on it).
    @inline(__always)
    private static func link(_ k: Int, _ s: UnsafeMutableBufferPointer<Segment>,
                             _ r: UnsafeMutableBufferPointer<TimingRecord>) {
        let owner = Int(s[k].owner), index = Int32(truncatingIfNeeded: k)
        s[k].nextOfOwner = -1
        let last = r[owner].lastSegment
        if last >= 0 { s[Int(last)].nextOfOwner = index } else { r[owner].firstSegment = index }
        r[owner].lastSegment = index
    }
}
