// The queues a front (KineticUI's engine, KineticC's engine handle) drains after each call
// into the core: its events, the model writes and the released blocks, and the lane changes
// a front builds for an animation. The fronts go through these methods rather than the
// stored arrays: an access to a stored property from another module is checked for
// exclusivity at run time whatever the property's declaration says, and those checks were
// a measurable share of creating, starting and completing a run from the fronts. Here, in
// the defining module, the properties' `@exclusivity(unchecked)` applies.

extension LaneEngine {
    /// Whether the last calls left events to drain.
    package var hasEvents: Bool { !events.isEmpty }

    /// Calls `body` with each event in order, then empties the queue (keeping its capacity).
    /// `body` may call into the engine; events it causes are dropped with the rest, as the
    /// fronts expect (they drain after every call).
    package func drainEvents(_ body: (EngineEvent) throws -> Void) rethrows {
        guard !events.isEmpty else { return }
        let drained = events
        defer { events.removeAll(keepingCapacity: true) }
        for event in drained { try body(event) }
    }

    /// Calls `body` with each lane whose model value the engine changed and that value, in
    /// order, then empties the queue.
    package func drainModelWrites(_ body: (_ lane: Int32, _ model: Double) -> Void) {
        guard !modelWrites.isEmpty else { return }
        let drained = modelWrites
        for lane in drained { body(lane, model[Int(lane)]) }
        modelWrites.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each block the engine released, in order, then empties the queue.
    package func drainReleasedBlocks(_ body: (LaneBlockID) -> Void) {
        guard !releasedBlocks.isEmpty else { return }
        let drained = releasedBlocks
        for block in drained { body(block) }
        releasedBlocks.removeAll(keepingCapacity: true)
    }

    /// Empties the model-write and released-block queues without reading them.
    package func discardModelWritesAndReleasedBlocks() {
        modelWrites.removeAll(keepingCapacity: true)
        releasedBlocks.removeAll(keepingCapacity: true)
    }

    /// Empties the lane-change scratch array (see `changeScratch`) for a front to fill.
    package func resetChangeScratch() {
        changeScratch.removeAll(keepingCapacity: true)
    }

    /// Appends one lane change to the scratch array.
    package func appendChange(_ change: LaneChange) {
        changeScratch.append(change)
    }
}
