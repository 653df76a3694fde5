import Kinetic

/// A property an animations block changed, with its model lanes before the block.
struct CapturedChange {
    let view: View
    let property: AnimatableProperty
    /// The model lanes before the block's first write.
    let old: [Double]
    /// The model lanes when the block returned (its target).
    var new: [Double] = []
}

/// A lane of a stopped animator: where `finishAnimation(at: .start / .end)` puts it.
struct StoppedLane {
    let view: View
    let index: Int
    let start: Double
    let end: Double
}

extension AnimationEngine {
    /// Turns the changes of one animations block into a segment of `run` in the core.
    /// - Parameters:
    ///   - window: start and length in the animator's time fraction.
    ///   - fromCurrentState: start from the presentation values, freezing other animations
    ///     on the same lanes where they are (`beginFromCurrentState`).
    /// - Returns: the number of lanes the segment animates (0: nothing changed, no segment).
    /// - Throws: ``AnimatorError/viewBoundToAnotherEngine(view:)``,
    ///   ``AnimatorError/tooManyAnimations(view:property:)``; nothing is added then.
    @discardableResult
    func addSegment(_ run: RunHandle, changes: [CapturedChange], windowStart: Double, windowLength: Double,
                    inverted: Bool = false, discrete: Bool = false, fromCurrentState: Bool = false) throws -> Int {
        for change in changes {
            if let bound = change.view.laneEngine, bound !== self {
                throw AnimatorError.viewBoundToAnotherEngine(view: change.view.name ?? "(unnamed)")
            }
            let b = change.view.laneBlocks[change.property.rawValue]
            if b.exists, core.isSaturated(b) {
                throw AnimatorError.tooManyAnimations(view: change.view.name ?? "(unnamed)",
                                                      property: change.property.description)
            }
        }
        var lanes: [LaneChange] = []
        for change in changes {
            let p = change.property
            let new = change.new
            guard new != change.old else { continue }
            let held = change.view.laneBlocks[p.rawValue]
            let block = held.exists ? held : allocateBlock(change.view, p, anchorValues: change.old)
            let base = core.firstLane(of: block)
            for j in 0 ..< p.laneCount where new[j] != change.old[j] {
                lanes.append(LaneChange(lane: Int32(base + j), old: change.old[j], new: new[j], vertical: p.isVertical(lane: j)))
            }
        }
        return core.addSegment(run, changes: lanes, windowStart: windowStart, windowLength: windowLength,
                               inverted: inverted, discrete: discrete, fromCurrentState: fromCurrentState)
    }

    /// Ends every segment of `run`, leaving its properties at `position`: `.end` keeps the
    /// model values; `.start` puts the start values back into the model; `.current` writes
    /// the current presentation values into the model.
    func finishSegments(of run: RunHandle, at position: ViewAnimatingPosition) {
        core.finishSegments(of: run, at: RunPosition(position))
        syncViews()
    }

    /// The lanes of `run`'s segments, with their start and end values, for a later
    /// `finishAnimation(at:)` after `stopAnimation(false)`.
    func stopValues(of run: RunHandle) -> [StoppedLane] {
        core.stopValues(of: run).compactMap { stopped in
            let (block, offset) = core.block(ofLane: stopped.lane)
            guard let view = blockViews[Int(block.index)] else { return nil }
            return StoppedLane(view: view, index: blockProperties[Int(block.index)].offset + offset,
                               start: stopped.start, end: stopped.end)
        }
    }
}
