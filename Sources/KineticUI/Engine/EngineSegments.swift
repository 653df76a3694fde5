import Kinetic

/// One animations block's effect: a contiguous run of (span, lane) contributions — the
/// horizontal lanes first, then the vertical ones — timed by its animator's record within
/// a window of the animator's time fraction.
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
    /// Spans the whole run, linearly in time (takes the record's progress as is).
    var wholeRun: Bool { windowStart == 0 && windowLength == 1 && !inverted && !discrete }
    /// Progress when the current continuation leg began.
    var baseX = 0.0, baseY = 0.0
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

/// A view property's run of lanes in the engine.
struct LaneBlock {
    var view: View?
    var start: Int32
    var property: AnimatableProperty
}

/// A property an animations block changed, with its model lanes before the block.
struct CapturedChange {
    let view: View
    let property: AnimatableProperty
    /// The model lanes before the block's first write.
    let old: [Double]
    /// The model lanes when the block returned (its target).
    var new: [Double] = []
}

extension AnimationEngine {
    // MARK: Evaluation

    /// Recomputes the progress of every segment whose record moved.
    func updateProgress() {
        records.withUnsafeBufferPointer { r in
            guard let r0 = r.baseAddress else { return }
            segments.withUnsafeMutableBufferPointer { s in
                for k in s.indices where s[k].alive {
                    let record = r0 + Int(s[k].owner)
                    guard record.pointee.needsUpdate else { continue }
                    if s[k].wholeRun, !record.pointee.continuation, !record.pointee.linearScrub {
                        s[k].progressX = record.pointee.progressX
                        s[k].progressY = record.pointee.progressY
                    } else {
                        Self.progress(of: &s[k], record: record)
                    }
                }
            }
        }
        records.withUnsafeMutableBufferPointer { r in
            for i in r.indices where r[i].needsUpdate && !r[i].running { r[i].needsUpdate = false }
        }
    }

    static func progress(of s: inout Segment, record: UnsafePointer<TimingRecord>) {
        let r = record.pointee
        if r.continuation {
            let cx = r.legCurve.x(r.u)
            let cy = r.legCurve.isAxisDependent ? r.legCurve.y(r.u) : cx
            let t = r.target
            s.progressX = s.baseX + (t - s.baseX) * cx
            s.progressY = s.baseY + (t - s.baseY) * cy
            return
        }
        let g = s.windowFraction(r.f)
        if s.discrete {
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
    func evaluate() {
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

    /// Records each segment's current progress as the base of a continuation leg of `id`.
    func captureContinuationBase(of id: Int32) {
        for k in segments.indices where segments[k].alive && segments[k].owner == id {
            segments[k].baseX = segments[k].progressX
            segments[k].baseY = segments[k].progressY
        }
    }

    // MARK: Adding

    /// Turns the changes of one animations block into a segment of record `id`.
    /// - Parameters:
    ///   - window: start and length in the animator's time fraction.
    ///   - fromCurrentState: start from the presentation values, freezing other animations
    ///     on the same lanes where they are (`beginFromCurrentState`).
    /// - Returns: the number of lanes the segment animates (0: nothing changed, no segment).
    @discardableResult
    func addSegment(_ run: RunHandle, changes: [CapturedChange], windowStart: Double, windowLength: Double,
                    inverted: Bool = false, discrete: Bool = false, fromCurrentState: Bool = false) throws -> Int {
        let id = run.index
        for change in changes {
            if let bound = change.view.laneEngine, bound !== self {
                throw AnimatorError.viewBoundToAnotherEngine(view: change.view.name ?? "(unnamed)")
            }
            let b = change.view.laneBlocks[change.property.rawValue]
            if b.exists {
                let start = Int(blocks[Int(b.index)].start)
                if laneContributions[start ..< start + change.property.laneCount].contains(UInt16.max) {
                    throw AnimatorError.tooManyAnimations(view: change.view.name ?? "(unnamed)",
                                                          property: change.property.description)
                }
            }
        }
        if fromCurrentState { updateProgress() }
        var xs: [(Double, Int32)] = [], ys: [(Double, Int32)] = []
        for change in changes {
            let p = change.property
            let new = change.new
            guard new != change.old else { continue }
            let held = change.view.laneBlocks[p.rawValue]
            let block = held.exists ? held.index : allocateBlock(change.view, p, anchorValues: change.old)
            let base = Int(blocks[Int(block)].start)
            for j in 0 ..< p.laneCount where new[j] != change.old[j] {
                let t = Int32(base + j)
                var span = new[j] - change.old[j]
                if fromCurrentState, laneContributions[Int(t)] > 0 {
                    freezeContributions(onLane: t)
                    span = new[j] - anchor[Int(t)]
                }
                laneContributions[Int(t)] += 1
                if p.isVertical(lane: j) { ys.append((span, t)) } else { xs.append((span, t)) }
            }
        }
        let count = xs.count + ys.count
        guard count > 0 else { return 0 }
        let start = Int32(spans.count)
        spans.reserveGeometrically(adding: count)
        targets.reserveGeometrically(adding: count)
        segments.reserveGeometrically(adding: 1)
        for (s, t) in xs + ys {
            spans.append(s)
            targets.append(t)
        }
        var segment = Segment(owner: id, start: start, countX: Int32(xs.count), countY: Int32(ys.count),
                              windowStart: windowStart, windowLength: windowLength, inverted: inverted, discrete: discrete)
        records[Int(id)].updateProgress()
        records.withUnsafeBufferPointer { Self.progress(of: &segment, record: $0.baseAddress! + Int(id)) }
        if records[Int(id)].continuation {
            // Joining a continuation leg: start from nothing along the leg's curve.
            segment.progressX = 0
            segment.progressY = 0
        }
        segments.append(segment)
        records[Int(id)].needsUpdate = true
        dirty = true
        return count
    }

    /// Freezes every live contribution on lane `t` at its current value (into the anchor).
    private func freezeContributions(onLane t: Int32) {
        for k in segments.indices where segments[k].alive {
            let s = segments[k]
            for i in Int(s.start) ..< Int(s.start) + s.count where targets[i] == t {
                let p = i < Int(s.start + s.countX) ? s.progressX : s.progressY
                anchor[Int(t)] += spans[i] * p
                spans[i] = 0
            }
        }
    }

    // MARK: Finishing

    /// Ends every segment of record `id`, leaving its properties at `position`: `.end`
    /// keeps the model values; `.start` puts the start values back into the model;
    /// `.current` writes the current presentation values into the model.
    func finishSegments(of run: RunHandle, at position: ViewAnimatingPosition) {
        finishSegments(ofRecord: run.index, at: position)
    }

    private func finishSegments(ofRecord id: Int32, at position: ViewAnimatingPosition) {
        // Only `.current` reads the segments' progress.
        if position == .current { updateProgress() }
        for k in segments.indices where segments[k].alive && segments[k].owner == id {
            finishSegment(k, at: position)
        }
        dirty = true
    }

    /// Ends the segments of several records in one pass over the segments (the animators
    /// that completed in one tick).
    func finishSegments<C: Collection>(_ ends: C) where C.Element == (id: Int32, position: ViewAnimatingPosition) {
        guard ends.count > 1 else {
            if let end = ends.first { finishSegments(ofRecord: end.id, at: end.position) }
            return
        }
        // Only `.current` reads the segments' progress (ends from a tick are `.end` or `.start`,
        // and the tick's evaluation has just brought it up to date anyway).
        if ends.contains(where: { $0.position == .current }) { updateProgress() }
        endPositions.removeAll(keepingCapacity: true)
        endPositions.append(contentsOf: repeatElement(-1, count: records.count))
        for end in ends { endPositions[Int(end.id)] = Int8(end.position.rawValue) }
        for k in segments.indices where segments[k].alive {
            let p = endPositions[Int(segments[k].owner)]
            guard p >= 0, let position = ViewAnimatingPosition(rawValue: Int(p)) else { continue }
            finishSegment(k, at: position)
        }
        dirty = true
    }

    private func finishSegment(_ k: Int, at position: ViewAnimatingPosition) {
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

    /// The lanes of record `id`'s segments, with their start and end values, for a later
    /// `finishAnimation(at:)` after `stopAnimation(false)`.
    func stopValues(of run: RunHandle) -> [StoppedLane] {
        let id = run.index
        updateProgress()
        var result: [StoppedLane] = []
        for s in segments where s.alive && s.owner == id {
            for i in Int(s.start) ..< Int(s.start) + s.count {
                let t = Int(targets[i])
                let block = blocks[Int(laneBlock[t])]
                guard let view = block.view else { continue }
                let k = block.property.offset + t - Int(block.start)
                let end = view.modelLanes[k]
                let begin = laneContributions[t] == 1 ? anchor[t] : end - spans[i]
                result.append(StoppedLane(view: view, index: k, start: s.inverted ? end : begin, end: s.inverted ? begin : end))
            }
        }
        return result
    }

    private func finishContribution(lane t32: Int32, span s: Double, progress p: Double, at position: ViewAnimatingPosition) {
        let t = Int(t32)
        let b = Int(laneBlock[t])
        guard let view = blocks[b].view else { return }
        let k = blocks[b].property.offset + t - Int(blocks[b].start)
        let single = laneContributions[t] == 1
        switch position {
        case .end:
            anchor[t] += s
        case .start:
            if single { view.modelLanes[k] = anchor[t] } else { view.modelLanes[k] -= s }
        case .current:
            if single {
                view.modelLanes[k] = anchor[t] + s * p
            } else {
                view.modelLanes[k] -= s * (1 - p)
                anchor[t] += s * p
            }
        }
        laneContributions[t] -= 1
        guard laneContributions[t] == 0 else { return }
        anchor[t] = view.modelLanes[k]
        let start = Int(blocks[b].start)
        if !laneContributions[start ..< start + blocks[b].property.laneCount].contains(where: { $0 > 0 }) {
            freeBlock(Int32(b))
        }
    }

    // MARK: Compaction

    /// Drops finished segments and closes the gaps they left in the contribution arrays
    /// (one pass; done at most once per tick).
    func compactIfNeeded() {
        guard deadLaneCount > 0 else { return }
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
            write += n
            kept += 1
        }
        spans.removeSubrange(write...)
        targets.removeSubrange(write...)
        segments.removeSubrange(kept...)
        deadLaneCount = 0
    }
}

/// A lane of a stopped animator: where `finishAnimation(at: .start / .end)` puts it.
struct StoppedLane {
    let view: View
    let index: Int
    let start: Double
    let end: Double
}
