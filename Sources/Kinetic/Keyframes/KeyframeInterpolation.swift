/// How a ``KeyframeTrack`` moves from one keyframe to the next.
///
/// The interpolation given for keyframe `i` applies to the segment that **starts** at
/// keyframe `i` (from `keyTimes[i]` to `keyTimes[i + 1]`), as a keyframe's `easing` does in
/// Web Animations.
public enum KeyframeInterpolation: Sendable, Hashable {
    /// Step: the segment shows its start value until the next key time, where it jumps.
    case hold
    /// Straight line in lane space at constant speed.
    case linear
    /// Straight line in lane space, with the segment's local progress (0 at its start key,
    /// 1 at its end key) first mapped through the curve. Values may overshoot where the
    /// curve does.
    case eased(CubicBezier)
    /// Cubic Hermite spline through the keyframes with Catmull-Rom tangents derived from the
    /// neighbouring keyframes: `(v[i+1] − v[i−1]) / (t[i+1] − t[i−1])` in value units per
    /// unit progress. At the first and last keyframe, and on either side of a jump
    /// (two keyframes at the same time), the tangent is the one-sided secant slope.
    case catmullRom
}

/// Core Animation's `CAKeyframeAnimation.calculationMode` values, for
/// ``KeyframeTrack/init(values:keyTimes:calculationMode:timingFunctions:tensionValues:continuityValues:biasValues:)``.
public enum KeyframeCalculationMode: Sendable, Hashable, CaseIterable {
    /// Straight lines between keyframes, timed by `keyTimes` and optionally eased per
    /// segment by `timingFunctions` (`kCAAnimationLinear`).
    case linear
    /// Each value is used in turn with no interpolation: value `i` holds from
    /// `keyTimes[i]` until the next key time (`kCAAnimationDiscrete`). Timing functions
    /// are ignored.
    case discrete
    /// Straight lines, with key times generated so that the speed along the path is
    /// constant; `keyTimes` and `timingFunctions` are ignored (`kCAAnimationPaced`).
    case paced
    /// A Catmull-Rom spline through the keyframes, shaped by optional
    /// Kochanek–Bartels tension, continuity and bias per keyframe, timed by `keyTimes` and
    /// optionally eased per segment by `timingFunctions` (`kCAAnimationCubic`).
    case cubic
    /// The same spline shape as ``cubic`` (built on evenly spaced parameters), traversed at
    /// constant speed along its arc length; `keyTimes` and `timingFunctions` are ignored
    /// (`kCAAnimationCubicPaced`).
    case cubicPaced
}

/// The curve shape of one segment (internal storage form).
enum SegmentShape: UInt8, Sendable {
    /// Start value until the end key.
    case hold
    /// `Value.interpolateLanes` between the end values.
    case linear
    /// Cubic Hermite with stored tangents (per unit of segment parameter).
    case hermite
    /// Cubic Hermite traversed at constant arc-length speed.
    case pacedHermite
}

/// One segment's shape and optional easing of its local progress (internal).
struct SegmentSpec: Sendable {
    var shape: SegmentShape
    var easing: CubicBezier?
}
