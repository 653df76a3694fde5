/// A value that a ``KeyframeTrack`` can interpolate: it decomposes into a fixed number of
/// `Double` lanes, is interpolated lane by lane, and is recomposed from lanes.
///
/// Decomposition is chosen so that interpolating the lanes gives the intended in-between
/// values: a colour is its four RGBA channels, while a 2-D affine transform is
/// (translation, rotation angle, scale, shear) so that rotation turns rather than
/// shrinking through the origin. Tracks store every keyframe as `laneCount` contiguous
/// doubles (structure of lanes), so a batch kernel can work on them without knowing the
/// type.
///
/// Conform your own type by writing its lanes and reading them back. The two hooks
/// ``alignLanes(_:after:)`` and ``interpolateLanes(from:to:fraction:into:)`` have default
/// implementations (no alignment; straight-line `a + (b − a)·f`) that fit every type
/// whose lanes live in a flat space.
///
/// Requirements on a conformance:
/// - `init(lanes:)` applied to lanes written by `writeLanes(into:)` gives back the value
///   (up to rounding).
/// - `init(lanes:)` accepts any finite lanes (an in-between or extrapolated value).
public protocol Interpolatable: Sendable {
    /// The number of `Double` lanes one value occupies; constant for the type, ≥ 1.
    static var laneCount: Int { get }

    /// Writes the value's `laneCount` lanes into `lanes[0 ..< laneCount]`.
    func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>)

    /// Recomposes a value from `lanes[0 ..< laneCount]`.
    init(lanes: UnsafeBufferPointer<Double>)

    /// Adjusts a keyframe's freshly written `lanes` given the (already aligned) lanes of the
    /// keyframe before it, so that lane-space interpolation between the two takes the
    /// intended path. Called once per keyframe when a track is built, never per frame.
    ///
    /// Angles use it to take the shortest way round (unwrap by a multiple of 2π);
    /// quaternions to pick the hemisphere of the previous one. The default does nothing.
    static func alignLanes(_ lanes: UnsafeMutableBufferPointer<Double>, after previous: UnsafeBufferPointer<Double>)

    /// Interpolates between two aligned lane vectors at `fraction` (0 gives `from`, 1 gives
    /// `to`; values outside [0, 1] extrapolate) and writes `laneCount` lanes into `output`.
    ///
    /// Used for linear and eased segments. The default is `from + (to − from)·fraction` per
    /// lane; override it only for lanes that live on a curved space (e.g. slerp for a
    /// quaternion). Must not allocate.
    static func interpolateLanes(
        from: UnsafeBufferPointer<Double>, to: UnsafeBufferPointer<Double>,
        fraction: Double, into output: UnsafeMutableBufferPointer<Double>)
}

extension Interpolatable {
    /// The value's `laneCount` lanes, in a fresh array (for set-up work, not per frame).
    public var lanes: [Double] { KeyframeLanes.lanes(of: self) }

    public static func alignLanes(
        _ lanes: UnsafeMutableBufferPointer<Double>, after previous: UnsafeBufferPointer<Double>
    ) {}

    public static func interpolateLanes(
        from: UnsafeBufferPointer<Double>, to: UnsafeBufferPointer<Double>,
        fraction: Double, into output: UnsafeMutableBufferPointer<Double>
    ) {
        KeyframeLanes.lerp(from: from, to: to, fraction: fraction, into: output, range: 0 ..< laneCount)
    }
}

/// Lane helpers shared by the conformances and the track (internal).
enum KeyframeLanes {
    /// `output[i] = a[i] + (b[i] − a[i])·f` for `i` in `range`; exact at f = 0 and f = 1.
    /// Where a step of that sum overflows (lanes near the ends of the range of `Double`, of
    /// opposite signs or extrapolated) the same sum is taken on halved lanes and doubled,
    /// exactly; a result beyond the range is left infinite here (the track saturates it).
    @inline(__always)
    static func lerp(
        from a: UnsafeBufferPointer<Double>, to b: UnsafeBufferPointer<Double>, fraction f: Double,
        into output: UnsafeMutableBufferPointer<Double>, range: Range<Int>
    ) {
        if f == 1 {
            for i in range { output[i] = b[i] }
            return
        }
        for i in range {
            let direct = a[i] + (b[i] - a[i]) * f
            let halved = 2 * (0.5 * a[i] + (0.5 * b[i] - 0.5 * a[i]) * f)
            output[i] = direct.isFinite ? direct : halved
        }
    }

    /// Moves `angle` by a multiple of 2π so that it lies within π of `reference`
    /// (the shortest way round; an exact half turn may go either way).
    static func unwrap(_ angle: Double, near reference: Double) -> Double {
        let twoPi = 2 * Double.pi
        var a = angle
        let turns = ((reference - a) / twoPi).rounded()
        a += turns * twoPi
        // Guard against rounding at exactly ±π.
        if a - reference > .pi { a -= twoPi }
        if a - reference < -.pi { a += twoPi }
        return a
    }

    /// Reads a value's lanes into a fresh array (construction-time only).
    static func lanes<Value: Interpolatable>(of value: Value) -> [Double] {
        [Double](unsafeUninitializedCapacity: Value.laneCount) { buffer, count in
            buffer.initialize(repeating: 0)
            value.writeLanes(into: buffer)
            count = Value.laneCount
        }
    }
}

extension Double: Interpolatable {
    /// One lane: the number itself.
    public static var laneCount: Int { 1 }

    public func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>) {
        lanes[0] = self
    }

    public init(lanes: UnsafeBufferPointer<Double>) {
        self = lanes[0]
    }
}
