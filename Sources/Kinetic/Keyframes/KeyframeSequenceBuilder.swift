/// Builds a ``KeyframeTrack`` for one property the way `UIView.animateKeyframes` does with
/// `UIView.addKeyframe(withRelativeStartTime:relativeDuration:animations:)`.
///
/// Each keyframe animates the property from the value it has when the keyframe starts
/// (the initial value, or the value set by the keyframe before it) to the keyframe's
/// value, over `[relativeStartTime, relativeStartTime + relativeDuration]` of the whole
/// animation. Between keyframes the property holds. A keyframe with zero duration jumps.
///
/// ```swift
/// var builder = KeyframeSequenceBuilder(initialValue: 0.0)
/// try builder.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25, value: 1)
/// try builder.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5, value: 0)
/// let track = try builder.makeTrack()      // 0 → 1 on [0, 0.25], holds, 1 → 0 on [0.5, 1]
/// ```
///
/// Keyframes may be added in any order; they are sorted by start time (ties keep the order
/// of adding). Overlapping keyframes for one property are rejected (UIKit does not define
/// what they do).
public struct KeyframeSequenceBuilder<Value: Interpolatable>: Sendable {
    /// The property's value before the first keyframe starts.
    public let initialValue: Value
    private var keyframes: [(start: Double, duration: Double, value: Value)] = []

    /// Starts a builder for a property whose value is `initialValue` at progress 0.
    public init(initialValue: Value) {
        self.initialValue = initialValue
    }

    /// The number of keyframes added.
    public var count: Int { keyframes.count }

    /// Adds a keyframe animating to `value` over
    /// `[relativeStartTime, relativeStartTime + relativeDuration]`.
    ///
    /// - Parameters:
    ///   - relativeStartTime: unitless start, in [0, 1] (fraction of the whole duration).
    ///   - relativeDuration: unitless length, in [0, 1 − relativeStartTime].
    ///   - value: the value reached at the keyframe's end.
    /// - Throws: ``ParameterError``: `notFinite` / `outOfRange("relativeStartTime", …, "[0, 1]")`,
    ///   `notFinite` / `outOfRange("relativeDuration", …, "[0, 1 − start]")`.
    public mutating func addKeyframe(
        withRelativeStartTime relativeStartTime: Double, relativeDuration: Double, value: Value
    ) throws(ParameterError) {
        try ParameterError.requireFinite(relativeStartTime, "relativeStartTime")
        guard relativeStartTime >= 0 && relativeStartTime <= 1 else {
            throw .outOfRange(parameter: "relativeStartTime", value: relativeStartTime, expected: "[0, 1]")
        }
        try ParameterError.requireFinite(relativeDuration, "relativeDuration")
        guard relativeDuration >= 0 && relativeStartTime + relativeDuration <= 1 else {
            throw .outOfRange(
                parameter: "relativeDuration", value: relativeDuration, expected: "[0, \(1 - relativeStartTime)]")
        }
        keyframes.append((relativeStartTime, relativeDuration, value))
    }

    /// Makes the track.
    ///
    /// - Parameter calculationMode: as `UIView.KeyframeAnimationOptions`'
    ///   `calculationMode…` options; default `.linear`. The paced modes ignore the relative
    ///   times, as Core Animation ignores `keyTimes` for them.
    /// - Returns: a track with keys `(0, initialValue)`, then per keyframe (in start order)
    ///   a key at its start holding the previous value (omitted where it would repeat the
    ///   previous key) and a key at its end with its value.
    /// - Throws: `outOfRange("keyframes[i].relativeStartTime", start, "≥ end")` when
    ///   keyframe `i` (in order of adding) starts before the keyframe preceding it in time
    ///   has ended, plus any error of
    ///   ``KeyframeTrack/init(values:keyTimes:calculationMode:timingFunctions:tensionValues:continuityValues:biasValues:)``.
    public func makeTrack(calculationMode: KeyframeCalculationMode = .linear) throws(ParameterError) -> KeyframeTrack<Value> {
        let order = keyframes.indices.sorted {
            keyframes[$0].start != keyframes[$1].start ? keyframes[$0].start < keyframes[$1].start : $0 < $1
        }
        var times = [0.0]
        var values = [initialValue]
        var current = initialValue
        var lastEnd = 0.0
        for index in order {
            let keyframe = keyframes[index]
            guard keyframe.start >= lastEnd else {
                throw .outOfRange(
                    parameter: "keyframes[\(index)].relativeStartTime", value: keyframe.start,
                    expected: "≥ \(lastEnd) (end of the previous keyframe)")
            }
            if keyframe.start > times[times.count - 1] {
                times.append(keyframe.start)
                values.append(current)
            }
            let end = keyframe.start + keyframe.duration
            times.append(end)
            values.append(keyframe.value)
            current = keyframe.value
            lastEnd = end
        }
        return try KeyframeTrack(values: values, keyTimes: times, calculationMode: calculationMode)
    }
}
