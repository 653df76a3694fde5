import Kinetic

extension EngineFront {
    /// Gives `view`'s `property` a lane block whose model values, anchors and outputs are
    /// `anchorValues` (the presentation values before the animation that needs it).
    func allocateBlock(_ view: View, _ property: AnimatableProperty, anchorValues: PropertyLanes) -> LaneBlockID {
        let block = anchorValues.withUnsafeBufferPointer { core.allocateBlock($0, releasesWhenIdle: true) }
        let i = Int(block.index)
        if i < blockViews.count {
            blockViews[i] = view
            blockProperties[i] = property
        } else {
            blockViews.reserveGeometrically(adding: i + 1 - blockViews.count)
            blockProperties.reserveGeometrically(adding: i + 1 - blockProperties.count)
            blockViews.append(contentsOf: repeatElement(nil, count: i - blockViews.count))
            blockProperties.append(contentsOf: repeatElement(property, count: i - blockProperties.count))
            blockViews.append(view)
            blockProperties.append(property)
        }
        view.laneBlocks[property.rawValue] = block
        view.laneFront = self
        return block
    }

    /// Copies into the views what the core changed: the model values of lanes it finished,
    /// and the blocks it released (whose views read their model values again).
    func syncViews() {
        // (After the engine went away its views no longer belong to it.)
        core.drainModelWrites { lane, value in
            let (block, offset) = core.block(ofLane: lane)
            guard isAlive, let view = blockViews[Int(block.index)] else { return }
            view.writeModelLane(blockProperties[Int(block.index)].offset + offset, value)
        }
        core.drainReleasedBlocks { block in
            // A view let go of here may run a deinit that lets go of the engine.
            let i = Int(block.index)
            guard isAlive, let view = blockViews[i] else { return }
            blockViews[i] = nil
            view.laneBlocks[blockProperties[i].rawValue] = .none
            if !view.laneBlocks.anyExists { view.laneFront = nil }
        }
    }

    /// The first core lane of `view`'s `property` (which must have a block in this engine).
    private func firstLane(_ view: View, _ property: AnimatableProperty) -> Int {
        core.firstLane(of: view.laneBlocks[property.rawValue])
    }

    /// A model write outside an animations block (or with animations disabled inside one) to
    /// a property being animated: the animations keep their offsets relative to the new
    /// model value. The shift is the view's move (`new` less its model now), which an
    /// enclosing block's writes may already have taken ahead of the engine's model.
    func modelWillChange(_ view: View, _ property: AnimatableProperty, new: PropertyLanes) {
        let start = firstLane(view, property)
        let current = view.modelLanes[property]
        for j in 0 ..< property.laneCount { core.setModel(lane: start + j, to: new[j], from: current[j]) }
    }

    /// An animations block wrote `view`'s `property` (its model lanes hold the block's
    /// values): the core's model values follow, the anchors stay (the block's animation, if
    /// it is added, moves from them).
    func modelDidChange(_ view: View, _ property: AnimatableProperty) {
        guard view.laneBlocks[property.rawValue].exists else { return }
        let start = firstLane(view, property)
        for j in 0 ..< property.laneCount {
            core.overwriteModel(lane: start + j, to: view.modelLanes[property.offset + j])
        }
    }

    /// Writes one model lane of `view` directly (finishing a stopped animator), shifting any
    /// animations on it as a model write does.
    func setModelLane(_ view: View, index k: Int, to value: Double) {
        for property in AnimatableProperty.allCases where property.offset <= k && k < property.offset + property.laneCount {
            if view.laneBlocks[property.rawValue].exists, view.laneFront === self {
                core.setModel(lane: firstLane(view, property) + k - property.offset, to: value)
            }
        }
        view.writeModelLane(k, value)
    }

    /// Copies the presentation lanes of `view`'s animated properties into `lanes` (model
    /// layout). Returns whether the background colour is animated.
    func readPresentation(of view: View, into lanes: inout ModelLanes) -> Bool {
        flush()
        for property in AnimatableProperty.allCases {
            guard view.laneBlocks[property.rawValue].exists else { continue }
            let start = firstLane(view, property)
            for j in 0 ..< property.laneCount { lanes[property.offset + j] = core.output[start + j] }
        }
        return view.laneBlocks[AnimatableProperty.backgroundColor.rawValue].exists
    }

    /// The velocities (units per second) of `view`'s `property` lanes at the engine's time:
    /// the exact derivative of their presentation values; zeros when nothing animates them.
    func presentationVelocity(of view: View, _ property: AnimatableProperty) -> [Double] {
        var result = [Double](repeating: 0, count: property.laneCount)
        guard view.laneBlocks[property.rawValue].exists else { return result }
        let start = firstLane(view, property)
        result.withUnsafeMutableBufferPointer { core.velocities(ofLanes: start ..< start + property.laneCount, into: $0.baseAddress!) }
        return result
    }
}
