/// The keyframe step that times a weighted segment: its progress is
/// `basis.weight(ofStep: step, at: eased fraction)`.
package struct SegmentWeight {
    let basis: KeyframeBasis
    let step: Int
}

extension LaneEngine {
    /// Adds a keyframe animation of one group of lanes (the lanes of one animated property)
    /// to `run`, as a `CAKeyframeAnimation` over the whole run: the run's curve eases the
    /// run's time, and the keyframes divide the eased time.
    ///
    /// Each step between two keyframes becomes one additive contribution on the lanes it
    /// changes (span: the step's change; progress: the step weight of ``KeyframeBasis``), so
    /// a keyframe animation adds to every other animation on its lanes, and the group's
    /// model values become the last keyframe's at once.
    /// - Parameters:
    ///   - run: a live run (any state but stopped; the caller checks).
    ///   - lanes: the group's lanes, distinct and allocated.
    ///   - values: the keyframes' lanes, `keyTimes.count × lanes.count`, keyframe after
    ///     keyframe; keyframe 0 is where the group starts (its model values), finite.
    ///   - keyTimes: one per keyframe, non-decreasing, in [0, 1] (the paced modes ignore
    ///     them).
    ///   - calculationMode: how the keyframes are interpolated and timed
    ///     (``KeyframeCalculationMode``; distance for the paced modes is measured over all
    ///     the group's lanes).
    ///   - fromCurrentState: start from the lanes' current values (freezing the other
    ///     animations on them where they are), in place of keyframe 0 and of the keyframes
    ///     that hold it at the start; `nil` takes the run's option.
    /// - Returns: the number of contributions added (0: the keyframes change nothing).
    /// - Throws: ``ParameterError`` for bad values or key times (see ``KeyframeBasis``), for
    ///   a lane with less room than the steps that change it (a lane carries at most
    ///   ``maximumContributions``), or for a step whose span is beyond the range of `Double`;
    ///   nothing is changed then.
    @discardableResult
    package func addKeyframeAnimation(_ run: RunHandle, lanes: [Int32], values: [Double], keyTimes: [Double],
                                      calculationMode: KeyframeCalculationMode,
                                      fromCurrentState: Bool? = nil) throws(ParameterError) -> Int {
        let laneCount = lanes.count, keyCount = keyTimes.count
        guard laneCount > 0 else { return 0 }
        guard values.count == keyCount * laneCount, keyCount > 0 else {
            throw .countMismatch(parameter: "values", expected: keyCount * laneCount, actual: values.count)
        }
        let i = Int(run.index)
        let current = fromCurrentState ?? records[i].beginsFromCurrentState
        var values = values
        if current {
            updateProgress()
            for (l, t) in lanes.enumerated() where laneContributions[Int(t)] > 0 {
                let start = values[l], now = currentValue(ofLane: t)
                var k = 0
                while k < keyCount && values[k * laneCount + l] == start {
                    values[k * laneCount + l] = now
                    k += 1
                }
            }
        }
        try requireAddable(steps: values, lanes: lanes)
        let basis = try KeyframeBasis(values: values, laneCount: laneCount, keyTimes: keyTimes,
                                      calculationMode: calculationMode)
        if current {
            for t in lanes where laneContributions[Int(t)] > 0 { freezeContributions(onLane: t, before: spans.count) }
        }
        records[i].hasAnimations = true
        var added = 0
        var changes: [LaneChange] = []
        changes.reserveCapacity(laneCount)
        for k in 1 ..< keyCount {
            changes.removeAll(keepingCapacity: true)
            for (l, t) in lanes.enumerated() {
                let old = values[(k - 1) * laneCount + l], new = values[k * laneCount + l]
                if new != old { changes.append(LaneChange(lane: t, old: old, new: new, vertical: false)) }
            }
            added += addSegment(run, changes: changes, windowStart: 0, windowLength: 1,
                                weight: SegmentWeight(basis: basis, step: k))
        }
        if added > 0 { records[i].animatesLanes = true }
        return added
    }

    /// Throws unless each lane can take one contribution per keyframe step that changes it,
    /// and each step's span is within the range of `Double` (`values`: keyframe after
    /// keyframe, `lanes.count` each).
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` naming the lane.
    private func requireAddable(steps values: [Double], lanes: [Int32]) throws(ParameterError) {
        let laneCount = lanes.count, keyCount = values.count / Swift.max(laneCount, 1)
        guard keyCount > 1 else { return }
        try requireRoom(for: (keyCount - 1) * laneCount)
        for (l, t) in lanes.enumerated() {
            var steps = 0
            for k in 1 ..< keyCount {
                let old = values[(k - 1) * laneCount + l], new = values[k * laneCount + l]
                guard new != old else { continue }
                steps += 1
                if !(new - old).isFinite { throw Self.spanError(lane: t, "keyframe \(k)", new, from: old) }
            }
            let room = Self.maximumContributions - Int(laneContributions[Int(t)])
            if steps > room {
                throw .outOfRange(parameter: "keyframe steps that change lane \(t)", value: Double(steps),
                                  expected: "[0, \(room)]: a lane carries at most \(Self.maximumContributions) "
                                      + "animations and keyframe steps at once, and this one carries "
                                      + "\(Self.maximumContributions - room)")
            }
        }
    }

    /// Lane `t`'s current value: its anchor plus its live contributions at their progress
    /// (summed in the order that freezing them into the anchor sums them).
    func currentValue(ofLane t: Int32) -> Double {
        var value = anchor[Int(t)]
        for s in segments where s.alive {
            for i in Int(s.start) ..< Int(s.start) + s.count where targets[i] == t {
                value += spans[i] * (i < Int(s.start + s.countX) ? s.progressX : s.progressY)
            }
        }
        return value
    }
}

/// A keyframe animation kept for an inactive run's start: its lanes move from their model
/// values at the start through these keyframes.
struct PendingKeyframes {
    let lanes: [Int32]
    /// The keyframes after the start, `keyTimes.count × lanes.count`.
    let values: [Double]
    let keyTimes: [Double]
    let calculationMode: KeyframeCalculationMode
}

extension LaneEngine {
    /// Adds a keyframe animation to lane targets (the C interface's keyframe runs): the
    /// lanes move from their model values (an implicit keyframe at time 0) through the
    /// keyframes, over the run's whole time, as ``addKeyframeAnimation(_:lanes:values:keyTimes:calculationMode:fromCurrentState:)``
    /// describes. Inactive: kept until the run starts (the lanes then move from the model
    /// values they have). Waiting for animations: they start it. Running or paused: added
    /// at once, on the run's timeline (the lanes show the keyframes where the run's fraction
    /// is).
    /// - Parameters:
    ///   - lanes: distinct allocated lanes (the caller checks).
    ///   - values: `keyTimes.count × lanes.count` finite values, keyframe after keyframe.
    ///   - keyTimes: the keyframes' times, non-decreasing in [0, 1] (ignored by the paced
    ///     modes).
    /// - Throws: ``RunError/addAnimationsWhileStopped``; ``RunError/invalidParameter(_:)``
    ///   for bad values or times (checked against the model values now), and, on a run that
    ///   is not inactive, for a lane with less room than the steps that change it or a step
    ///   whose span is beyond the range of `Double` (kept keyframes meet those checks at the
    ///   start, and change nothing if they fail them). Nothing changes then.
    package func addKeyframes(_ run: RunHandle, lanes: [Int32], values: [Double], keyTimes: [Double],
                              calculationMode: KeyframeCalculationMode) throws {
        let i = Int(run.index)
        guard records[i].phase != .stopped else { throw RunError.addAnimationsWhileStopped }
        guard !lanes.isEmpty, !keyTimes.isEmpty else { return }
        do {
            _ = try KeyframeBasis(values: lanes.map { model[Int($0)] } + values, laneCount: lanes.count,
                                  keyTimes: [0] + keyTimes, calculationMode: calculationMode)
        } catch {
            throw RunError.invalidParameter(error)
        }
        let keyframes = PendingKeyframes(lanes: lanes, values: values, keyTimes: keyTimes, calculationMode: calculationMode)
        switch records[i].phase {
        case .inactive:
            pendingKeyframes[run.index, default: []].append(keyframes)
        case .waitingForAnimations:
            try applyKeyframesChecked(keyframes, to: run)
            runLeg(run, delay: waitingDelay(run))
        case .running, .paused:
            try applyKeyframesChecked(keyframes, to: run)
        case .stopped:
            break
        }
    }

    /// Adds kept keyframes from the lanes' model values now, throwing what ``addKeyframeAnimation(_:lanes:values:keyTimes:calculationMode:fromCurrentState:)``
    /// refuses (`applyKeyframes` drops it).
    private func applyKeyframesChecked(_ keyframes: PendingKeyframes, to run: RunHandle) throws(RunError) {
        do {
            try addKeyframeAnimation(
                run, lanes: keyframes.lanes, values: keyframes.lanes.map { model[Int($0)] } + keyframes.values,
                keyTimes: [0] + keyframes.keyTimes, calculationMode: keyframes.calculationMode, fromCurrentState: nil)
        } catch {
            throw .invalidParameter(error)
        }
    }

    /// Adds kept keyframes from the lanes' model values now. They were checked when they
    /// were added; model values stay finite, so only Kochanek–Bartels tangents beyond the
    /// range of `Double` at every scale, or a lane that has filled up with animations since
    /// (see ``maximumContributions``), could refuse them now, and then they change nothing.
    func applyKeyframes(_ keyframes: PendingKeyframes, to run: RunHandle) {
        try? applyKeyframesChecked(keyframes, to: run)
    }
}
