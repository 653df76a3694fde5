// The handles the engine gives out. Their indices are read only by the engine (this folder):
// the animators and views hold the handles and ask the engine through them; they never
// index its arrays.

/// An animator's run in the engine (its timing record), as the animator holds it.
struct RunHandle: Equatable {
    /// The run's timing record in ``AnimationEngine``'s `records`.
    let index: Int32
}

/// The engine's lane block that animates one property of a view, as the view holds it
/// (one per animatable property, ``none`` while the property is not animated).
struct LaneBlockID: Equatable {
    /// The block in ``AnimationEngine``'s `blocks`, or −1.
    let index: Int32

    /// No block: the property is not animated.
    static let none = LaneBlockID(index: -1)

    /// Whether there is a block.
    var exists: Bool { index >= 0 }
}
