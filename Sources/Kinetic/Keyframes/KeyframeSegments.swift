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
                    case .hermite, .pacedHermite:
                        let f = spec.easing.map { $0.value(at: u) } ?? u
                        tangents.withUnsafeBufferPointer { tangents in
                            let m0 = tangents.baseAddress! + 2 * s * count, m1 = m0 + count
                            var v = f
                            if spec.shape == .pacedHermite {
                                v = arcTables.withUnsafeBufferPointer { tables in
                                    KeyframeArcLength.parameter(
                                        forFraction: f, table: tables.baseAddress! + s * KeyframeArcLength.stride,
                                        a, b, m0, m1, count: count)
                                }
                            }
                            KeyframeTangents.hermite(a, b, m0, m1, at: v, count: count, into: output.baseAddress!)
                        }
                    }
                }
            }
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
