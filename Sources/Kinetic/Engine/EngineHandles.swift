// The handles the engine gives out. Their indices are read only by the engine and by its
// fronts' engine files: an animator or a view holds a handle and asks through it; it never
// indexes the engine's arrays.

/// A run in a ``LaneEngine`` (its timing record), as its owner holds it. The generation
/// tells a handle to a record that has since been freed and reused from a live one.
package struct RunHandle: Equatable, Hashable, Sendable {
    /// The run's timing record in the engine's `records`.
    package let index: Int32
    /// The record's generation when the handle was given out.
    package let generation: UInt32

    @inlinable package init(index: Int32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
}

/// A block of contiguous lanes in a ``LaneEngine`` (the lanes of one animated view property),
/// ``none`` where there is none.
package struct LaneBlockID: Equatable, Hashable, Sendable {
    /// The block in the engine's `blocks`, or −1.
    package let index: Int32

    // Inlinable, as the other members: the UIKit front asks a view's blocks on every property
    // write and every released block, and a call per question showed in its profile.
    @inlinable package init(index: Int32) { self.index = index }

    /// No block.
    @inlinable package static var none: LaneBlockID { LaneBlockID(index: -1) }

    /// Whether there is a block.
    @inlinable package var exists: Bool { index >= 0 }
}
