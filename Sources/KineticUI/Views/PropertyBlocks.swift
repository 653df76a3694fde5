import Kinetic

/// Per ``AnimatableProperty`` of a view, the engine lane block that animates it (or
/// `.none`), held inline in the view (no array of its own).
struct PropertyBlocks {
    // One index per property, in `AnimatableProperty`'s raw-value order; −1 for none (the
    // three spare slots stay −1).
    private var indices = SIMD8<Int32>(repeating: -1)

    /// The block of the property with raw value `i` (the five properties' raw values are 0 to
    /// 4; the check is the storage's bound).
    subscript(i: Int) -> LaneBlockID {
        get {
            precondition(i >= 0 && i < 8, "property out of range")
            return LaneBlockID(index: indices[i])
        }
        set {
            precondition(i >= 0 && i < 8, "property out of range")
            indices[i] = newValue.exists ? newValue.index : -1
        }
    }

    /// Whether some property has a block: some index is ≥ 0, so the AND of all of them has its
    /// sign bit clear. (Written as a scalar fold: `any(indices .>= 0)` compiled to a lane-by-lane
    /// mask built through memory and a generic reduction call.)
    var anyExists: Bool {
        var all: Int32 = -1
        for k in 0 ..< 8 { all &= indices[k] }
        return all >= 0
    }
}
