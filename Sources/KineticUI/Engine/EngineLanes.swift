extension AnimationEngine {
    /// Gives `view`'s `property` a lane block whose anchors are `anchorValues` (the
    /// presentation values before the animation that needs it).
    func allocateBlock(_ view: View, _ property: AnimatableProperty, anchorValues: [Double]) -> Int32 {
        let n = property.laneCount
        let start: Int
        if let reused = freeRuns[n].popLast() {
            start = Int(reused)
        } else {
            start = anchor.count
            anchor.reserveGeometrically(adding: n)
            output.reserveGeometrically(adding: n)
            laneContributions.reserveGeometrically(adding: n)
            laneBlock.reserveGeometrically(adding: n)
            anchor.append(contentsOf: repeatElement(0, count: n))
            output.append(contentsOf: repeatElement(0, count: n))
            laneContributions.append(contentsOf: repeatElement(0, count: n))
            laneBlock.append(contentsOf: repeatElement(0, count: n))
        }
        let block = LaneBlock(view: view, start: Int32(start), property: property)
        let id: Int32
        if let free = freeBlockIDs.popLast() {
            id = free
            blocks[Int(id)] = block
        } else {
            id = Int32(blocks.count)
            blocks.reserveGeometrically(adding: 1)
            blocks.append(block)
        }
        for j in 0 ..< n {
            anchor[start + j] = anchorValues[j]
            output[start + j] = anchorValues[j]
            laneContributions[start + j] = 0
            laneBlock[start + j] = id
        }
        view.laneBlocks[property.rawValue] = LaneBlockID(index: id)
        view.laneEngine = self
        return id
    }

    /// Releases a block whose last animation ended; the view reads its model values again.
    func freeBlock(_ id: Int32) {
        let block = blocks[Int(id)]
        if let view = block.view {
            view.laneBlocks[block.property.rawValue] = .none
            if !view.laneBlocks.contains(where: \.exists) { view.laneEngine = nil }
        }
        blocks[Int(id)].view = nil
        freeRuns[block.property.laneCount].append(block.start)
        freeBlockIDs.append(id)
    }

    /// A model write outside an animations block to a property being animated: the
    /// animations keep their offsets relative to the new model value.
    func modelWillChange(_ view: View, _ property: AnimatableProperty, old: [Double], new: [Double]) {
        let b = Int(view.laneBlocks[property.rawValue].index)
        let start = Int(blocks[b].start)
        for j in 0 ..< property.laneCount {
            let t = start + j
            if laneContributions[t] == 0 {
                anchor[t] = new[j]
            } else {
                anchor[t] += new[j] - old[j]
            }
        }
        dirty = true
    }

    /// Writes one model lane of `view` directly (finishing a stopped animator), shifting any
    /// animations on it as a model write does.
    func setModelLane(_ view: View, index k: Int, to value: Double) {
        for property in AnimatableProperty.allCases where property.offset <= k && k < property.offset + property.laneCount {
            let b = view.laneBlocks[property.rawValue]
            if b.exists, view.laneEngine === self {
                let t = Int(blocks[Int(b.index)].start) + k - property.offset
                if laneContributions[t] == 0 { anchor[t] = value } else { anchor[t] += value - view.modelLanes[k] }
                dirty = true
            }
        }
        view.modelLanes[k] = value
    }

    /// Copies the presentation lanes of `view`'s animated properties into `lanes` (model
    /// layout). Returns whether the background colour is animated.
    func readPresentation(of view: View, into lanes: inout [Double]) -> Bool {
        flush()
        for property in AnimatableProperty.allCases {
            let b = view.laneBlocks[property.rawValue]
            guard b.exists else { continue }
            let start = Int(blocks[Int(b.index)].start)
            for j in 0 ..< property.laneCount { lanes[property.offset + j] = output[start + j] }
        }
        return view.laneBlocks[AnimatableProperty.backgroundColor.rawValue].exists
    }
}
