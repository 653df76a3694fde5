/// A keyframed value over unitless progress: key times in [0, 1], one value per key time,
/// and per segment an interpolation (hold, linear, cubic-bezier eased, Catmull-Rom or
/// cubic Hermite, or Core Animation's calculation modes).
///
/// ## Progress
/// Progress is unitless: 0 is the start of the animation, 1 its end (typically the output
/// of a timing curve). Evaluation follows the Web Animations keyframe-effect rules:
/// - At a key time shared by several keyframes (a jump), progress before it uses the
///   **first** of them as the end of the incoming segment, and progress at or after it
///   starts from the **last** of them.
/// - Progress below 0 (from an overshooting timing curve) extrapolates along the first
///   segment — its interpolation evaluated at a negative local progress — when exactly one
///   keyframe sits at 0; when several do, the first keyframe's value holds. Above 1 the
///   same applies to the last segment and the keyframes at 1.
/// - Where the first key time is above 0, progress before it shows the first value; where
///   the last key time is below 1, progress after it shows the last value (no underlying
///   value to interpolate from).
/// - A track with one keyframe is constant. NaN progress gives the first value.
///
/// ## Range
/// Keyframe values may be anywhere in the range of `Double` (±1.8e308 included), and
/// finite keys give a finite value at every progress. Differences of lanes near the ends
/// of the range, Catmull-Rom tangents across a tiny span or between values of opposite sign
/// near ±1.8e308, and cubic segments whose sum would overflow are computed on scaled values,
/// so a representable value comes out right; a lane beyond the range (an eased overshoot or
/// an extrapolation past ±1.8e308) saturates at ±`greatestFiniteMagnitude`, as
/// ``CubicBezier`` does, with the sign of the value. So does a lane whose arithmetic
/// overflows outright (an eased or extrapolated progress beyond about ±1e100, where the
/// cubic's basis overflows): its sign is the cubic's leading term's. Where a track's tangents are
/// beyond the range, the track keeps them scaled by 2^-k and its cubic segments work on
/// lanes scaled alike: k is 4 (no precision lost but below 2^-1070), or about 500 for the
/// `.cubicPaced` mode's arc lengths, where a lane below about 1e-150 beside 1e308 in the same
/// value loses its precision.
///
/// ## Cost
/// Values are stored as contiguous `Double` lanes (see ``Interpolatable``). Evaluating
/// never allocates: pass a ``KeyframeCursor`` you keep per track to make the segment
/// look-up O(1) for small steps (binary search otherwise). Thousands of scalar tracks with
/// the same key times and segment shapes evaluate far faster together in a
/// ``KeyframeBatch`` (their easing curves may differ), which streams through their
/// coefficients instead of visiting each track's arrays and curves.
public struct KeyframeTrack<Value: Interpolatable>: Sendable {
    /// The key times, non-decreasing, in [0, 1]. For the paced modes these are the
    /// generated times, not the ones passed in.
    public let keyTimes: [Double]
    /// The keyframe values, as given.
    public let values: [Value]
    let storage: KeyframeSegments

    init(keyTimes: [Double], values: [Value], storage: KeyframeSegments) {
        self.keyTimes = keyTimes
        self.values = values
        self.storage = storage
    }

    /// The number of keyframes (≥ 1).
    public var count: Int { values.count }

    /// Lanes per value (`Value.laneCount`).
    public var laneCount: Int { storage.laneCount }

    /// Creates a track with one interpolation for every segment.
    ///
    /// - Parameters:
    ///   - keyTimes: one unitless time per value, non-decreasing, in [0, 1]. Repeating a
    ///     time makes a jump there.
    ///   - values: the keyframe values (at least one; every lane finite).
    ///   - interpolation: how every segment moves; default ``KeyframeInterpolation/linear``.
    /// - Throws: ``ParameterError``: `countMismatch("values", 1, 0)` for no values;
    ///   `countMismatch("keyTimes", values.count, keyTimes.count)`; `notFinite` /
    ///   `outOfRange("keyTimes[i]", …, "[0, 1]")`; `outOfRange("keyTimes[i]", …,
    ///   "≥ keyTimes[i-1] = …")` when times decrease; `notFinite("values[i]", lane)`.
    public init(
        keyTimes: [Double], values: [Value], interpolation: KeyframeInterpolation = .linear
    ) throws(ParameterError) {
        try self.init(
            keyTimes: keyTimes, values: values,
            interpolations: [KeyframeInterpolation](repeating: interpolation, count: max(values.count - 1, 0)))
    }

    /// Creates a track with its own interpolation per segment.
    ///
    /// - Parameters:
    ///   - keyTimes: one unitless time per value, non-decreasing, in [0, 1].
    ///   - values: the keyframe values (at least one; every lane finite).
    ///   - interpolations: `values.count − 1` entries; entry `i` applies to the segment
    ///     that starts at keyframe `i` (Web Animations' per-keyframe easing).
    /// - Throws: as ``init(keyTimes:values:interpolation:)``, plus
    ///   `countMismatch("interpolations", values.count − 1, interpolations.count)`.
    ///   Catmull-Rom segments never fail for finite values: their tangents are kept scaled
    ///   where they would leave the range of `Double`.
    public init(
        keyTimes: [Double], values: [Value], interpolations: [KeyframeInterpolation]
    ) throws(ParameterError) {
        try KeyframeValidation.checkNotEmpty(values.count)
        try KeyframeValidation.checkCount(keyTimes.count, values.count, "keyTimes")
        try KeyframeValidation.checkTimes(keyTimes)
        try KeyframeValidation.checkCount(interpolations.count, values.count - 1, "interpolations")
        let lanes = try KeyframeValidation.lanes(of: values)
        var specs: [SegmentSpec] = []
        specs.reserveCapacity(interpolations.count)
        var needsTangents = false
        for interpolation in interpolations {
            switch interpolation {
            case .hold: specs.append(SegmentSpec(shape: .hold, easing: nil))
            case .linear: specs.append(SegmentSpec(shape: .linear, easing: nil))
            case .eased(let curve): specs.append(SegmentSpec(shape: .linear, easing: curve))
            case .catmullRom:
                specs.append(SegmentSpec(shape: .hermite, easing: nil))
                needsTangents = true
            }
        }
        var storage = KeyframeSegments(
            laneCount: Value.laneCount, times: keyTimes, lanes: lanes, specs: specs, tangents: [], arcTables: [])
        if needsTangents {
            let made = try KeyframeTangents.withinRange(lanes: lanes) { lanes in
                (KeyframeTangents.kochanekBartels(times: keyTimes, lanes: lanes, laneCount: Value.laneCount), [])
            }
            storage = KeyframeSegments(
                laneCount: Value.laneCount, times: keyTimes, lanes: lanes, specs: specs,
                tangents: made.tangents, arcTables: [], hermiteExponent: made.exponent)
        }
        self.init(keyTimes: keyTimes, values: values, storage: storage)
    }

    /// Creates a cubic Hermite track with an explicit tangent (derivative) at every keyframe.
    ///
    /// Segment `i` is the cubic with the values and derivatives of keyframes `i` and
    /// `i + 1` at its ends, so the track passes through every value and its derivative with
    /// respect to progress at `keyTimes[k]` is `tangents[k]` (from both sides).
    ///
    /// - Parameters:
    ///   - keyTimes: one unitless time per value, non-decreasing, in [0, 1].
    ///   - values: the keyframe values.
    ///   - tangents: one per keyframe, in value units per unit progress. Their lanes are
    ///     used directly, so this suits types whose lanes are their components (`Double`,
    ///     ``Point``, ``Size``, ``Rect``, ``Color``); for the decomposed transforms prefer
    ///     ``KeyframeInterpolation/catmullRom``.
    ///   - easings: optional per-segment easing of the local progress (`values.count − 1`
    ///     entries, `nil` for none).
    /// - Throws: as ``init(keyTimes:values:interpolation:)``, plus
    ///   `countMismatch("tangents", values.count, tangents.count)`,
    ///   `notFinite("tangents[i]", lane)` and `countMismatch("easings", …)`.
    public init(
        keyTimes: [Double], values: [Value], tangents: [Value], easings: [CubicBezier?]? = nil
    ) throws(ParameterError) {
        try KeyframeValidation.checkNotEmpty(values.count)
        try KeyframeValidation.checkCount(keyTimes.count, values.count, "keyTimes")
        try KeyframeValidation.checkTimes(keyTimes)
        try KeyframeValidation.checkCount(tangents.count, values.count, "tangents")
        if let easings {
            try KeyframeValidation.checkCount(easings.count, values.count - 1, "easings")
        }
        let lanes = try KeyframeValidation.lanes(of: values)
        let tangentLanes = try KeyframeValidation.lanes(of: tangents, name: "tangents", align: false)
        let specs = (0 ..< values.count - 1).map { SegmentSpec(shape: .hermite, easing: easings?[$0]) }
        self.init(
            keyTimes: keyTimes, values: values,
            storage: KeyframeSegments(
                laneCount: Value.laneCount, times: keyTimes, lanes: lanes, specs: specs,
                tangents: KeyframeTangents.explicit(times: keyTimes, tangentLanes: tangentLanes, laneCount: Value.laneCount),
                arcTables: []))
    }

    // MARK: Evaluation

    /// The value at `progress` (unitless; see the type's discussion for progress outside
    /// [0, 1] and at repeated key times), looking the segment up by binary search.
    // Pre-specialised for scalar tracks, so that a client module's KeyframeTrack<Double> does
    // not run the generic code (runtime metadata look-ups on every call).
    @_specialize(exported: true, where Value == Double)
    public func value(at progress: Double) -> Value {
        var cursor = 0
        return makeValue(at: progress, cursor: &cursor, useCursor: false)
    }

    /// The value at `progress`, starting the segment look-up from `cursor` and leaving it
    /// at the segment used. Gives the same value as ``value(at:)``.
    @_specialize(exported: true, where Value == Double)
    public func value(at progress: Double, cursor: inout KeyframeCursor) -> Value {
        makeValue(at: progress, cursor: &cursor.segment, useCursor: true)
    }

    /// Writes the value's lanes at `progress` into `output[0 ..< laneCount]` (the batch
    /// entry point: no value is built), using and updating `cursor`.
    ///
    /// - Precondition: `output.count ≥ laneCount`.
    public func writeLanes(
        at progress: Double, cursor: inout KeyframeCursor, into output: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(output.count >= storage.laneCount, "output holds fewer than laneCount lanes")
        storage.write(Value.self, at: progress, cursor: &cursor.segment, useCursor: true, into: output)
    }

    @inline(__always)
    func makeValue(at progress: Double, cursor: inout Int, useCursor: Bool) -> Value {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: storage.laneCount) { buffer in
            storage.write(Value.self, at: progress, cursor: &cursor, useCursor: useCursor, into: buffer)
            return Value(lanes: UnsafeBufferPointer(buffer))
        }
    }
}
