import Kinetic

/// A property an animations block changed, with its model lanes before the block.
struct CapturedChange {
    let view: View
    let property: AnimatableProperty
    /// The model lanes before the block's first write.
    let old: PropertyLanes
    /// The block's own target, `model − foreign`: the model lanes when it returned unless a
    /// block nested in it, or a write with animations disabled, moved the property too.
    var new = PropertyLanes()
    /// The model lanes when the block returned, which the engine's model of the lanes takes
    /// (`new` itself unless writes not the block's own moved the property).
    var model: PropertyLanes { moves?.model ?? new }
    /// The moves of writes not the block's own, once there is one (rare: a nested block or a
    /// write with animations disabled wrote the property after the block had; nil keeps the
    /// common change small).
    var moves: ForeignMoves?
    /// When the change began, among all changes (a count): the earliest change of a property
    /// holds the value before all of them.
    let order: Int

    init(view: View, property: AnimatableProperty, old: PropertyLanes, order: Int = 0) {
        self.view = view
        self.property = property
        self.old = old
        self.order = order
    }

    /// Where a lane made for the property starts: `old`, moved by the writes made since with
    /// animations disabled (no animation makes those moves).
    var anchorValues: PropertyLanes { moves.map { old + $0.disabled } ?? old }
}

/// The moves (the value written less the model before it) of the writes of a property that
/// were not the capturing block's own, lane by lane: all of them (`foreign`, which the
/// block's step leaves out) and those made with animations disabled (`disabled`).
final class ForeignMoves {
    var foreign: PropertyLanes
    var disabled: PropertyLanes
    /// The model lanes when the block returned.
    var model = PropertyLanes()

    init(_ old: PropertyLanes) {
        foreign = old - old
        disabled = foreign
    }
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
    /// if the property has none, anchored at the values before the earliest write that the
    /// engine has not taken yet: an enclosing block's change of the property, see
    /// ``AnimationCapture/pendingOld(_:_:)``; else the earliest of a keyframe animation's
    /// changes being added, `anchors`; else the change's own). Check it first
    /// (`checkLanes(for:)`).
    func firstLane(for change: CapturedChange) -> Int32 {
        let held = change.view.laneBlocks[change.property.rawValue]
        let block = held.exists ? held : allocateBlock(
            change.view, change.property,
            anchorValues: AnimationCapture.pendingOld(change.view, change.property)
                ?? anchors?[ChangeKey(change.view, change.property)] ?? change.anchorValues)
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
