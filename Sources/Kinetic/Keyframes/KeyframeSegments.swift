/// The type-erased storage of a keyframe track: key times, keyframe lanes, per-segment
/// shapes and easings, Hermite tangents and arc-length tables, all contiguous `Double`s
/// (internal; ``KeyframeTrack`` wraps it with a value type).
struct KeyframeSegments: Sendable {
    /// Lanes per keyframe.
    let laneCount: Int
    /// Key times, non-decreasing, in [0, 1]; count ≥ 1.
    let times: [Double]
    /// Keyframe lanes, `times.count × laneCount`, aligned (see `Interpolatable.alignLanes`).
    let lanes: [Double]
    /// One spec per segment (`times.count − 1`).
    let specs: [SegmentSpec]
    /// Hermite tangents, `[segment][start, end][lane]`, or empty when no segment is cubic.
    let tangents: [Double]
    /// Arc-length tables (`KeyframeArcLength.stride` per segment), or empty.
    let arcTables: [Double]
    /// The tangents and arc-length tables are those of the lanes × 2^-`hermiteExponent`
    /// (0 unless a tangent of the lanes themselves is beyond the range of `Double`; see
    /// `KeyframeTangents.withinRange`): the cubic segments evaluate on lanes scaled the same
    /// way and scale the result back.
    var hermiteExponent = 0

    /// Writes the track's lanes at `progress` into `output[0 ..< laneCount]`.
    @inline(__always)
    func write<Value: Interpolatable>(
        _ type: Value.Type, at progress: Double, cursor: inout Int, useCursor: Bool,
        into output: UnsafeMutableBufferPointer<Double>
    ) {
        let count = laneCount
        times.withUnsafeBufferPointer { times in
            lanes.withUnsafeBufferPointer { lanes in
                let location = KeyframeLookup.locate(progress, in: times, cursor: &cursor, useCursor: useCursor)
                switch location {
                case .key(let k):
                    let source = lanes.baseAddress! + k * count
                    for i in 0 ..< count { output[i] = source[i] }
                case .segment(let s, let u):
                    let spec = specs[s]
                    let a = lanes.baseAddress! + s * count, b = a + count
                    switch spec.shape {
                    case .hold:
                        let source = u < 1 ? a : b
                        for i in 0 ..< count { output[i] = source[i] }
                    case .linear:
                        let f = spec.easing.map { $0.value(at: u) } ?? u
                        Value.interpolateLanes(
                            from: UnsafeBufferPointer(start: a, count: count),
                            to: UnsafeBufferPointer(start: b, count: count),
                            fraction: f, into: output)
                        Self.saturate(output, count: count)
                    case .hermite, .pacedHermite:
                        let f = spec.easing.map { $0.value(at: u) } ?? u
                        if hermiteExponent == 0 {
                            hermite(segment: s, spec.shape, f, a, b, into: output.baseAddress!)
                        } else {
                            hermiteScaled(segment: s, spec.shape, f, a, b, into: output.baseAddress!)
                        }
                        Self.saturate(output, count: count)
                    }
                }
            }
        }
    }
}

extension KeyframeSegments {
    /// Cubic segment `s` at eased fraction `f` from the end lanes `a` and `b` (scaled by
    /// 2^-`hermiteExponent`, like the tangents).
    @inline(__always)
    func hermite(segment s: Int, _ shape: SegmentShape, _ f: Double, _ a: UnsafePointer<Double>,
                 _ b: UnsafePointer<Double>, into output: UnsafeMutablePointer<Double>) {
        let count = laneCount
        tangents.withUnsafeBufferPointer { tangents in
            let m0 = tangents.baseAddress! + 2 * s * count, m1 = m0 + count
            var v = f
            if shape == .pacedHermite {
                v = arcTables.withUnsafeBufferPointer { tables in
                    KeyframeArcLength.parameter(
                        forFraction: f, table: tables.baseAddress! + s * KeyframeArcLength.stride,
                        a, b, m0, m1, count: count)
                }
            }
            KeyframeTangents.hermite(a, b, m0, m1, at: v, count: count, into: output)
        }
    }

    /// `hermite` for a track whose tangents are scaled: on the end lanes × 2^-k, then the
    /// result × 2^k (both exact).
    @inline(never)
    func hermiteScaled(segment s: Int, _ shape: SegmentShape, _ f: Double, _ a: UnsafePointer<Double>,
                       _ b: UnsafePointer<Double>, into output: UnsafeMutablePointer<Double>) {
        let count = laneCount
        let down = Double(sign: .plus, exponent: -hermiteExponent, significand: 1)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count) { ends in
            let sa = ends.baseAddress!, sb = sa + count
            for i in 0 ..< count {
                sa[i] = a[i] * down
                sb[i] = b[i] * down
            }
            hermite(segment: s, shape, f, sa, sb, into: output)
        }
        // Up by 2^k in two steps, so that a factor beyond the range (k > 1023) still scales.
        let (up1, up2) = Self.halves(of: hermiteExponent)
        for i in 0 ..< count { output[i] = output[i] * up1 * up2 }
    }

    /// The tangents in value units (`tangents` × 2^`hermiteExponent`); infinite where that is
    /// beyond the range of `Double`.
    var unscaledTangents: [Double] {
        if hermiteExponent == 0 { return tangents }
        let (up1, up2) = Self.halves(of: hermiteExponent)
        return tangents.map { $0 * up1 * up2 }
    }

    /// 2^k as two factors, each within the range of `Double` for k up to 2046.
    static func halves(of k: Int) -> (Double, Double) {
        (Double(sign: .plus, exponent: k / 2, significand: 1), Double(sign: .plus, exponent: k - k / 2, significand: 1))
    }

    /// Clamps lanes beyond the range of `Double` to ±`greatestFiniteMagnitude`: finite keys
    /// give finite values (an eased overshoot or an extrapolation can leave the range).
    @inline(__always)
    static func saturate(_ output: UnsafeMutableBufferPointer<Double>, count: Int) {
        for i in 0 ..< count {
            output[i] = max(-.greatestFiniteMagnitude, min(.greatestFiniteMagnitude, output[i]))
        }
    }
}

/// Input validation shared by the track initialisers (internal).
enum KeyframeValidation {
    /// Checks that `times` is non-empty, finite, in [0, 1] and non-decreasing.
    static func checkTimes(_ times: [Double], name: String = "keyTimes") throws(ParameterError) {
        for (i, t) in times.enumerated() {
            let parameter = "\(name)[\(i)]"
            try ParameterError.requireFinite(t, parameter)
            guard t >= 0 && t <= 1 else {
                throw .outOfRange(parameter: parameter, value: t, expected: "[0, 1]")
            }
            if i > 0 && t < times[i - 1] {
                throw .outOfRange(parameter: parameter, value: t, expected: "≥ \(name)[\(i - 1)] = \(times[i - 1])")
            }
        }
    }

    /// Decomposes `values` into contiguous aligned lanes, rejecting non-finite lanes.
    static func lanes<Value: Interpolatable>(
        of values: [Value], name: String = "values", align: Bool = true
    ) throws(ParameterError) -> [Double] {
        let count = Value.laneCount
        var lanes = [Double](repeating: 0, count: values.count * count)
        lanes.withUnsafeMutableBufferPointer { buffer in
            for (k, value) in values.enumerated() {
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[k * count ..< (k + 1) * count])
                value.writeLanes(into: slice)
                if align && k > 0 {
                    let previous = UnsafeBufferPointer(rebasing: buffer[(k - 1) * count ..< k * count])
                    Value.alignLanes(slice, after: previous)
                }
            }
        }
        for (index, lane) in lanes.enumerated() where !lane.isFinite {
            throw .notFinite(parameter: "\(name)[\(index / count)]", value: lane)
        }
        return lanes
    }

    /// Throws `countMismatch(values, 1, 0)` for an empty track.
    static func checkNotEmpty(_ count: Int) throws(ParameterError) {
        guard count > 0 else { throw .countMismatch(parameter: "values", expected: 1, actual: 0) }
    }

    /// Throws `countMismatch(name, expected, actual)` unless the counts agree.
    static func checkCount(_ actual: Int, _ expected: Int, _ name: String) throws(ParameterError) {
        guard actual == expected else {
            throw .countMismatch(parameter: name, expected: expected, actual: actual)
        }
    }
}
