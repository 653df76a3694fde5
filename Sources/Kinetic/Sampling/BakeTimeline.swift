/// Baking: evaluating a ``KeyframeDescription`` on a regular frame grid into a CSV table.

/// Bakes a keyframe description to a table with one row per frame.
///
/// ## Rows
/// Rows are at t = i / rate seconds (computed as `Double(i) / rate`) for every i ≥ 0 with
/// t strictly before the duration, then one last row at **exactly** the duration. When the
/// duration lies on the frame grid (duration · rate is a whole number k, with k / rate
/// rounding to the duration) that gives k + 1 rows, i.e. ⌊duration · rate⌋ + 1; otherwise
/// the grid rows plus the extra row at the end, ⌊duration · rate⌋ + 2. The last row therefore
/// always shows the final value, as the spring sampler ends at its settling time.
///
/// ## Values
/// At time t the animation's progress is t / duration (exactly 1 in the last row), mapped
/// through the description's timing curve if it has one, and each property's track is
/// evaluated there with ``KeyframeTrack/value(at:)``.
///
/// - Parameters:
///   - description: the animation.
///   - rate: frames per second (Hz), finite and > 0.
/// - Returns: a table with columns `time` (seconds) and then every property's columns
///   (``KeyframeProperty/columnNames``), in property order — e.g.
///   `time,opacity,position.x,position.y`.
/// - Throws: ``KeyframeDescriptionError`` for an invalid description (see
///   ``KeyframeDescription/validate()``), ``ParameterError`` for a bad `rate`,
///   ``SamplingError/tooManyRows(rows:limit:)`` when duration · rate exceeds
///   ``maximumSampleCount``.
public func bake(_ description: KeyframeDescription, rate: Double) throws -> SampleTable {
    let tracks = try description.makeTracks()
    let times = try frameTimes(duration: description.duration, rate: rate)
    let progress = times.map { t -> Double in
        let linear = t / description.duration
        return description.timingCurve?.value(at: linear) ?? linear
    }
    let columns = ["time"] + description.properties.flatMap(\.columnNames)
    let width = columns.count
    var values = [Double](repeating: 0, count: times.count * width)
    for (row, t) in times.enumerated() { values[row * width] = t }
    var column = 1
    for track in tracks {
        track.fill(progress: progress, into: &values, width: width, column: column)
        column += track.componentCount
    }
    return try SampleTable(columns: columns, values: values)
}

/// The frame times of a bake: i / rate for every i ≥ 0 with i / rate < duration, then the
/// duration itself.
func frameTimes(duration: Double, rate: Double) throws -> [Double] {
    try ParameterError.requirePositive(duration, "duration")
    try ParameterError.requirePositive(rate, "rate")
    let estimate = duration * rate
    guard estimate + 2 <= Double(maximumSampleCount) else {
        throw SamplingError.tooManyRows(rows: (estimate + 2).rounded(.down), limit: maximumSampleCount)
    }
    var times = (0 ..< framesBefore(duration, rate: rate)).map { Double($0) / rate }
    times.append(duration)
    return times
}

// MARK: - Validation and tracks

extension KeyframeDescription {
    /// Checks everything a bake needs: a finite duration > 0, at least one property,
    /// distinct valid column names, and for every property a track that can be built
    /// (counts, key-time order and range, finite numbers, compatible easings).
    ///
    /// - Throws: ``KeyframeDescriptionError`` naming the JSON path of the first problem,
    ///   e.g. `properties[1].keyTimes[2]`.
    public func validate() throws(KeyframeDescriptionError) {
        _ = try makeTracks()
    }

    /// Builds every property's track (validating the description on the way).
    func makeTracks() throws(KeyframeDescriptionError) -> [AnyBakeTrack] {
        guard duration.isFinite && duration > 0 else {
            throw KeyframeDescriptionError(
                path: "duration", reason: .invalidValue(value: duration.description, expected: "a finite number > 0"))
        }
        guard !properties.isEmpty else {
            throw KeyframeDescriptionError(path: "properties", reason: .countMismatch(expected: 1, actual: 0))
        }
        var seen: Set<String> = ["time"]
        var tracks: [AnyBakeTrack] = []
        for (index, property) in properties.enumerated() {
            let path = "properties[\(index)]"
            for column in property.columnNames where !SampleTable.isValidColumnName(column) || !seen.insert(column).inserted {
                throw KeyframeDescriptionError(
                    path: path + ".name",
                    reason: .invalidValue(
                        value: jsonQuoted(property.name),
                        expected: "a name without comma, quote or line break, not starting or ending with a space or tab, whose columns (\(column)) are not already used"))
            }
            tracks.append(try property.makeAnyTrack(path: path))
        }
        return tracks
    }
}

extension KeyframeProperty {
    /// The property's track, type-erased for baking.
    func makeAnyTrack(path: String) throws(KeyframeDescriptionError) -> AnyBakeTrack {
        switch type {
        case .scalar: return AnyBakeTrack(try makeTrack(Double.self, path: path))
        case .point: return AnyBakeTrack(try makeTrack(Point.self, path: path))
        case .size: return AnyBakeTrack(try makeTrack(Size.self, path: path))
        case .rect: return AnyBakeTrack(try makeTrack(Rect.self, path: path))
        case .color: return AnyBakeTrack(try makeTrack(Color.self, path: path))
        case .transform2d: return AnyBakeTrack(try makeTrack(Transform2D.self, path: path))
        }
    }

    /// Builds the track from the description's numbers; errors name `path.field`.
    func makeTrack<Value: BakeComponents>(_: Value.Type, path: String) throws(KeyframeDescriptionError) -> KeyframeTrack<Value> {
        var converted: [Value] = []
        converted.reserveCapacity(values.count)
        for (i, components) in values.enumerated() {
            guard components.count == Value.componentCount else {
                throw KeyframeDescriptionError(
                    path: "\(path).values[\(i)]",
                    reason: .countMismatch(expected: Value.componentCount, actual: components.count))
            }
            converted.append(Value(components: components))
        }
        let segments = max(values.count - 1, 0)
        if let easings, easings.count != segments {
            throw KeyframeDescriptionError(
                path: "\(path).easings", reason: .countMismatch(expected: segments, actual: easings.count))
        }
        do {
            switch motion {
            case .interpolation(let entries):
                var perSegment: [KeyframeInterpolation]
                if entries.count == 1 {
                    perSegment = [KeyframeInterpolation](repeating: entries[0], count: segments)
                } else if entries.count == segments {
                    perSegment = entries
                } else {
                    throw KeyframeDescriptionError(
                        path: "\(path).interpolation", reason: .countMismatch(expected: segments, actual: entries.count))
                }
                for (i, easing) in (easings ?? []).enumerated() {
                    guard let easing else { continue }
                    switch perSegment[i] {
                    case .linear: perSegment[i] = .eased(easing)
                    case .hold: break
                    case .catmullRom, .eased:
                        throw KeyframeDescriptionError(
                            path: "\(path).easings[\(i)]",
                            reason: .invalidValue(
                                value: curveJSONText(easing),
                                expected: "null: segment \(i) is \(interpolationJSONText(perSegment[i])), which takes no extra easing (use calculationMode \"cubic\" to ease a spline)"))
                    }
                }
                let times = keyTimes ?? Self.evenlySpaced(values.count)
                return try KeyframeTrack(keyTimes: times, values: converted, interpolations: perSegment)
            case .calculationMode(let mode, let tension, let continuity, let bias):
                let timing = easings.map { $0.map { $0 ?? .linear } }
                return try KeyframeTrack(
                    values: converted, keyTimes: keyTimes, calculationMode: mode, timingFunctions: timing,
                    tensionValues: tension, continuityValues: continuity, biasValues: bias)
            }
        } catch let error as KeyframeDescriptionError {
            throw error
        } catch let error as ParameterError {
            throw Self.translate(error, path: path)
        } catch {
            throw KeyframeDescriptionError(path: path, reason: .invalidValue(value: "\(error)", expected: "a valid track"))
        }
    }

    /// `i / (n − 1)`, or `[0]` for one keyframe.
    static func evenlySpaced(_ n: Int) -> [Double] {
        n <= 1 ? [0] : (0 ..< n).map { Double($0) / Double(n - 1) }
    }

    /// A track-construction error, renamed to the JSON field names and prefixed by `path`.
    static func translate(_ error: ParameterError, path: String) -> KeyframeDescriptionError {
        var name = error.parameter
        for (from, to) in [("interpolations", "interpolation"), ("timingFunctions", "easings")] where name.hasPrefix(from) {
            name = to + name.dropFirst(from.count)
        }
        let fullPath = "\(path).\(name)"
        switch error {
        case .notFinite(_, let value):
            return KeyframeDescriptionError(
                path: fullPath, reason: .invalidValue(value: value.isNaN ? "nan" : value.description, expected: "a finite number"))
        case .outOfRange(_, let value, let expected):
            return KeyframeDescriptionError(path: fullPath, reason: .invalidValue(value: value.description, expected: expected))
        case .countMismatch(_, let expected, let actual):
            return KeyframeDescriptionError(path: fullPath, reason: .countMismatch(expected: expected, actual: actual))
        }
    }
}

// MARK: - Components

/// A keyframe value type that a bake writes as named numeric columns (internal).
protocol BakeComponents: Interpolatable {
    /// The number of columns.
    static var componentCount: Int { get }
    /// Creates the value from its components in column order.
    init(components: [Double])
    /// Writes the components into `buffer[offset ..< offset + componentCount]`.
    func writeComponents(into buffer: inout [Double], at offset: Int)
}

/// For every type whose lanes are its columns (all but ``Transform2D``, whose lanes are a
/// decomposition), the components are the ``Interpolatable`` lanes in lane order.
extension BakeComponents {
    static var componentCount: Int { laneCount }
    init(components: [Double]) {
        self = components.withUnsafeBufferPointer { Self(lanes: $0) }
    }
    func writeComponents(into buffer: inout [Double], at offset: Int) {
        buffer.withUnsafeMutableBufferPointer { all in
            writeLanes(into: UnsafeMutableBufferPointer(rebasing: all[offset ..< offset + Self.laneCount]))
        }
    }
}

extension Double: BakeComponents {}
extension Point: BakeComponents {}
extension Size: BakeComponents {}
extension Rect: BakeComponents {}
extension Color: BakeComponents {}

/// Columns are the matrix entries a, b, c, d, tx, ty, not the decomposed lanes.
extension Transform2D: BakeComponents {
    static var componentCount: Int { 6 }
    init(components c: [Double]) { self.init(a: c[0], b: c[1], c: c[2], d: c[3], tx: c[4], ty: c[5]) }
    func writeComponents(into buffer: inout [Double], at offset: Int) {
        buffer[offset] = a
        buffer[offset + 1] = b
        buffer[offset + 2] = c
        buffer[offset + 3] = d
        buffer[offset + 4] = tx
        buffer[offset + 5] = ty
    }
}

/// A track of any ``BakeComponents`` type that fills its columns of a row-major table.
struct AnyBakeTrack: Sendable {
    let componentCount: Int
    private let fillColumns: @Sendable ([Double], inout [Double], Int, Int) -> Void

    init<Value: BakeComponents>(_ track: KeyframeTrack<Value>) {
        componentCount = Value.componentCount
        fillColumns = { progress, values, width, column in
            var cursor = KeyframeCursor()
            for (row, p) in progress.enumerated() {
                track.value(at: p, cursor: &cursor).writeComponents(into: &values, at: row * width + column)
            }
        }
    }

    /// Writes the value at each progress into row r, columns `column ..< column + componentCount`.
    func fill(progress: [Double], into values: inout [Double], width: Int, column: Int) {
        fillColumns(progress, &values, width, column)
    }
}
