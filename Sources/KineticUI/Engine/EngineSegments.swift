import Kinetic

/// A property an animations block changed, with its model lanes before the block.
struct CapturedChange {
    let view: View
    let property: AnimatableProperty
    /// The model lanes before the block's first write.
    let old: PropertyLanes
    /// The block's own target: the model lanes when it returned (`model`) less the moves of
    /// blocks nested in it that wrote the property after it had (`nested`), so that its step
    /// `new − old` is its own writes' only.
    var new = PropertyLanes()
    /// The model lanes when the block returned, which the engine's model of the lanes takes.
    var model = PropertyLanes()
    /// The sum of the moves (model − old) of nested blocks' changes of the property made after
    /// this block first wrote it; zero lanes when none.
    var nested = PropertyLanes()
}

/// A lane of a stopped animator: where `finishAnimation(at: .start / .end)` puts it.
struct StoppedLane {
    let view: View
    let index: Int
    let start: Double
    let end: Double
}

extension EngineFront {
    /// The engine's lane changes for the changes of one animations block: each changed lane
    /// of each property, in a lane block of this engine (given one if the property has none).
    /// - Throws: ``AnimatorError/viewBoundToAnotherEngine(view:)``,
    ///   ``AnimatorError/tooManyAnimations(view:property:)``; no block is given out then.
    ///
    /// The result is built in the core's reused scratch array (no allocation once it has
    /// grown): pass it on to the core at once.
    func laneChanges(_ changes: [CapturedChange]) throws -> [LaneChange] {
        try checkLanes(for: changes)
        core.resetChangeScratch()
        for change in changes {
            let p = change.property
            let new = change.new
            guard new != change.old else { continue }
            let base = firstLane(for: change)
            for j in 0 ..< p.laneCount where new[j] != change.old[j] {
                core.appendChange(LaneChange(lane: base + Int32(j), old: change.old[j], new: new[j],
                                             vertical: p.isVertical(lane: j), model: change.model[j]))
            }
        }
        return core.changeScratch
    }

    /// Checks that every change's property can take another animation on this engine.
    /// - Throws: ``AnimatorError/viewBoundToAnotherEngine(view:)``,
    ///   ``AnimatorError/tooManyAnimations(view:property:)``.
    func checkLanes(for changes: [CapturedChange]) throws {
        for change in changes {
            if change.view.isBound(toEngineOtherThan: self) {
                throw AnimatorError.viewBoundToAnotherEngine(view: change.view.name ?? "(unnamed)")
            }
            let b = change.view.laneBlocks[change.property.rawValue]
            if b.exists, core.isSaturated(b) {
                throw AnimatorError.tooManyAnimations(view: change.view.name ?? "(unnamed)",
                                                      property: change.property.description)
            }
        }
    }

    /// The first lane of the change's property, in a lane block of this engine (given one,
    /// if the property has none, anchored at the change's old values, or at those of an
    /// enclosing block's change of the property that the engine has not taken yet: see
    /// ``AnimationCapture/pendingOld(_:_:)``). Check it first (`checkLanes(for:)`).
    func firstLane(for change: CapturedChange) -> Int32 {
        let held = change.view.laneBlocks[change.property.rawValue]
        let block = held.exists ? held : allocateBlock(
            change.view, change.property,
            anchorValues: AnimationCapture.pendingOld(change.view, change.property) ?? change.old)
        return Int32(core.firstLane(of: block))
    }

    /// The views' lanes for a stopped run's lanes (read before the engine releases their
    /// blocks).
    func stoppedLanes(_ values: [StoppedLaneValues]) -> [StoppedLane] {
        values.compactMap { stopped in
            let (block, offset) = core.block(ofLane: stopped.lane)
            guard let view = blockViews[Int(block.index)] else { return nil }
            return StoppedLane(view: view, index: blockProperties[Int(block.index)].offset + offset,
                               start: stopped.start, end: stopped.end)
        }
    }
}
