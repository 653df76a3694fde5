import Kinetic

/// A view's model values as lanes, in ``AnimatableProperty``'s layout (17 doubles), held
/// inline in the view: a view needs no array of its own, and a property write allocates
/// nothing.
struct ModelLanes {
    // Lanes 0 to 15, then lane 16 (the colour's alpha).
    private var low = SIMD16<Double>()
    private var high = 0.0

    /// A view's model values at rest: the frame's centre and size, alpha 1, the identity
    /// transform, no colour.
    init(frame: Rect) {
        self[0] = frame.origin.x + frame.size.width / 2
        self[1] = frame.origin.y + frame.size.height / 2
        self[4] = frame.size.width
        self[5] = frame.size.height
        self[AnimatableProperty.alpha.offset] = 1
        let t = AnimatableProperty.transform.offset
        self[t + 3] = 1
        self[t + 4] = 1
    }

    /// Lane `i`, in 0 ..< ``AnimatableProperty/totalLanes``.
    subscript(i: Int) -> Double {
        get {
            precondition(i >= 0 && i < AnimatableProperty.totalLanes, "model lane out of range")
            return i < 16 ? low[i] : high
        }
        set {
            precondition(i >= 0 && i < AnimatableProperty.totalLanes, "model lane out of range")
            if i < 16 { low[i] = newValue } else { high = newValue }
        }
    }

    /// `property`'s lanes.
    subscript(property: AnimatableProperty) -> PropertyLanes {
        get { PropertyLanes(property, in: self) }
        set {
            let o = property.offset
            for j in 0 ..< property.laneCount { self[o + j] = newValue[j] }
        }
    }
}
