extension KeyframeTrack {
    /// Creates a track the way `CAKeyframeAnimation` builds one from `values`, `keyTimes`,
    /// `calculationMode`, `timingFunctions` and the tension / continuity / bias arrays.
    ///
    /// - Parameters:
    ///   - values: the keyframe values (at least one; every lane finite).
    ///   - keyTimes: unitless times in [0, 1], non-decreasing. `nil` spaces the keys evenly:
    ///     `i / (n − 1)`, or `i / n` for ``KeyframeCalculationMode/discrete``. For
    ///     `.discrete` the array may have `n + 1` entries, as Core Animation documents (value
    ///     `i` holds on `[keyTimes[i], keyTimes[i+1])`; the last value holds to the end), or
    ///     `n`. Ignored (not validated) for `.paced` and `.cubicPaced`.
    ///   - calculationMode: see ``KeyframeCalculationMode``.
    ///   - timingFunctions: optional per-segment easing (`n − 1` curves; curve `i` eases
    ///     the segment from keyframe `i` to `i + 1`). Used by `.linear` and `.cubic`;
    ///     ignored by the other modes, as in Core Animation.
    ///   - tensionValues: Kochanek–Bartels tension per keyframe for `.cubic` and
    ///     `.cubicPaced` (missing entries are 0, so all-`nil` gives Catmull-Rom). Positive
    ///     tension tightens the curve (1 gives zero tangents).
    ///   - continuityValues: continuity per keyframe, as tension; it shapes the corners.
    ///   - biasValues: bias per keyframe, as tension; it shifts the curve towards the
    ///     incoming (> 0) or outgoing (< 0) side.
    /// - Paced modes: key times are generated so that progress is proportional to the
    ///   distance travelled, measured as the Euclidean length in lane space (for `.paced`
    ///   the sum of straight-line distances; for `.cubicPaced` the spline's arc length,
    ///   traversed at constant speed within each segment too). If all values are equal the
    ///   keys are spaced evenly.
    /// - Throws: ``ParameterError``: `countMismatch("values", 1, 0)`;
    ///   `countMismatch("keyTimes", …)`; the key-time range / order errors of
    ///   ``init(keyTimes:values:interpolation:)``; `countMismatch("timingFunctions",
    ///   n − 1, …)`; `countMismatch("tensionValues", n, …)` (likewise continuity, bias) when
    ///   longer than the values; `notFinite` for any non-finite entry;
    ///   `outOfRange("values", largest value, …)` for `.cubic` and `.cubicPaced` when the
    ///   continuity and bias factors are so large that a tangent is beyond the range of
    ///   `Double` at every scale (their product beyond about 1e308).
    public init(
        values: [Value], keyTimes: [Double]? = nil, calculationMode: KeyframeCalculationMode,
        timingFunctions: [CubicBezier]? = nil, tensionValues: [Double]? = nil,
        continuityValues: [Double]? = nil, biasValues: [Double]? = nil
    ) throws(ParameterError) {
        try KeyframeValidation.checkNotEmpty(values.count)
        let (times, storage) = try KeyframeSegments.coreAnimation(
            lanes: KeyframeValidation.lanes(of: values), laneCount: Value.laneCount, keyTimes: keyTimes,
            calculationMode: calculationMode, timingFunctions: timingFunctions, tensionValues: tensionValues,
            continuityValues: continuityValues, biasValues: biasValues)
        self.init(keyTimes: times, values: values, storage: storage)
    }

    /// Key times proportional to cumulative length (first 0, last exactly 1), or `fallback`
    /// when the total length is zero or not finite.
    static func pacedTimes(lengths: [Double], fallback: [Double]) -> [Double] {
        let total = lengths.reduce(0, +)
        guard total > 0 && total.isFinite else { return fallback }
        var times = [0.0]
        var cumulative = 0.0
        for length in lengths {
            cumulative += length
            times.append(min(cumulative / total, 1))
        }
        times[times.count - 1] = 1
        return times
    }
}

extension KeyframeSegments {
    /// The storage `CAKeyframeAnimation` builds from keyframe lanes (`laneCount` lanes per
    /// keyframe, at least one keyframe, every lane finite), with the key times it uses (the
    /// generated ones for the paced modes); see
    /// ``KeyframeTrack/init(values:keyTimes:calculationMode:timingFunctions:tensionValues:continuityValues:biasValues:)``.
    static func coreAnimation(
        lanes: [Double], laneCount: Int, keyTimes: [Double]?, calculationMode: KeyframeCalculationMode,
        timingFunctions: [CubicBezier]?, tensionValues: [Double]?, continuityValues: [Double]?, biasValues: [Double]?
    ) throws(ParameterError) -> (times: [Double], storage: KeyframeSegments) {
        let n = lanes.count / max(laneCount, 1)
        try KeyframeValidation.checkNotEmpty(n)
        let tension = tensionValues ?? [], continuity = continuityValues ?? [], bias = biasValues ?? []
        for (array, name) in [(tension, "tensionValues"), (continuity, "continuityValues"), (bias, "biasValues")] {
            if array.count > n { throw .countMismatch(parameter: name, expected: n, actual: array.count) }
            try ParameterError.requireAllFinite(array, name)
        }
        if let timingFunctions, calculationMode == .linear || calculationMode == .cubic {
            try KeyframeValidation.checkCount(timingFunctions.count, n - 1, "timingFunctions")
        }
        let evenly = n == 1 ? [0.0] : (0 ..< n).map { Double($0) / Double(n - 1) }

        let times: [Double]
        var specs: [SegmentSpec] = []
        var tangents: [Double] = []
        var arcTables: [Double] = []
        var hermiteExponent = 0
        func easing(_ i: Int) -> CubicBezier? { timingFunctions?[i] }

        switch calculationMode {
        case .linear, .cubic:
            times = keyTimes ?? evenly
            try KeyframeValidation.checkCount(times.count, n, "keyTimes")
            try KeyframeValidation.checkTimes(times)
            let shape: SegmentShape = calculationMode == .linear ? .linear : .hermite
            specs = (0 ..< n - 1).map { SegmentSpec(shape: shape, easing: easing($0)) }
            if calculationMode == .cubic {
                (tangents, _, hermiteExponent) = try KeyframeTangents.withinRange(lanes: lanes) { lanes in
                    (KeyframeTangents.kochanekBartels(
                        times: times, lanes: lanes, laneCount: laneCount,
                        tension: tension, continuity: continuity, bias: bias), [])
                }
            }
        case .discrete:
            if let keyTimes {
                if keyTimes.count != n && keyTimes.count != n + 1 {
                    throw .countMismatch(parameter: "keyTimes", expected: n + 1, actual: keyTimes.count)
                }
                try KeyframeValidation.checkTimes(keyTimes)
                times = Array(keyTimes.prefix(n))
            } else {
                times = (0 ..< n).map { Double($0) / Double(n) }
            }
            specs = [SegmentSpec](repeating: SegmentSpec(shape: .hold, easing: nil), count: n - 1)
        case .paced:
            // Lengths of the lanes scaled where the sums of squares would overflow (the
            // times depend only on their ratios).
            let (lengths, _, _) = try KeyframeTangents.withinRange(lanes: lanes) { lanes in
                ((0 ..< max(n - 1, 0)).map { i in
                    var sum = 0.0
                    for lane in 0 ..< laneCount {
                        let d = lanes[(i + 1) * laneCount + lane] - lanes[i * laneCount + lane]
                        sum += d * d
                    }
                    return sum.squareRoot()
                }, [])
            }
            times = KeyframeTrack<Double>.pacedTimes(lengths: lengths, fallback: evenly)
            specs = [SegmentSpec](repeating: SegmentSpec(shape: .linear, easing: nil), count: n - 1)
        case .cubicPaced:
            // Shape on evenly spaced parameters (one unit per segment), then retime by length.
            let unitTimes = (0 ..< n).map(Double.init)
            (tangents, arcTables, hermiteExponent) = try KeyframeTangents.withinRange(lanes: lanes) { lanes in
                let tangents = KeyframeTangents.kochanekBartels(
                    times: unitTimes, lanes: lanes, laneCount: laneCount,
                    tension: tension, continuity: continuity, bias: bias)
                return (tangents, KeyframeArcLength.table(
                    lanes: lanes, tangents: tangents, segmentCount: n - 1, laneCount: laneCount))
            }
            let lengths = (0 ..< max(n - 1, 0)).map {
                arcTables[$0 * KeyframeArcLength.stride + KeyframeArcLength.pieces]
            }
            times = KeyframeTrack<Double>.pacedTimes(lengths: lengths, fallback: evenly)
            specs = [SegmentSpec](repeating: SegmentSpec(shape: .pacedHermite, easing: nil), count: n - 1)
        }
        return (times, KeyframeSegments(
            laneCount: laneCount, times: times, lanes: lanes, specs: specs,
            tangents: tangents, arcTables: arcTables, hermiteExponent: hermiteExponent))
    }
}
