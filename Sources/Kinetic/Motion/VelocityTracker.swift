/// How a ``VelocityTracker`` turns its samples into a release velocity (the strategies of
/// Android's `VelocityTracker`).
public enum VelocityStrategy: Sendable, Hashable, CaseIterable {
    /// Least squares, degree 2 ("LSQ2", Android's long-time default and Flutter's): a
    /// quadratic fitted to the recent samples, unweighted; the velocity is its slope at the
    /// newest sample. Two samples give the straight line through them.
    case leastSquares
    /// Android's impulse strategy: the velocity whose kinetic energy equals the work the
    /// finger did on a unit mass over the recent samples, so that one fast stroke counts
    /// more than a slow drag before it.
    case impulse
}

/// Estimates a pointer's release velocity from (time, position) samples, one lane or
/// several at once (a point's x and y, any ``Interpolatable`` value lane by lane).
///
/// Only recent samples count, as Android and Flutter define it: those at most
/// ``horizon`` (100 ms) older than the newest, at most ``historySize`` (20) of them, and none
/// before a gap of more than ``stopGap`` (40 ms) between two samples (the pointer stopped
/// there). Asked for the velocity more than ``stopGap`` after the newest sample, the
/// tracker answers 0: the pointer has stopped.
///
/// The samples live in a ring buffer allocated when the tracker is made: adding a sample
/// and estimating never allocate. Times are seconds on any clock (non-decreasing),
/// positions any units; velocities are units per second.
public struct VelocityTracker: Sendable {
    /// Samples older than this before the newest do not count, seconds (100 ms).
    public static let horizon = 0.1
    /// The most samples that count.
    public static let historySize = 20
    /// A gap between two samples longer than this means the pointer stopped, seconds (40 ms).
    public static let stopGap = 0.04
    /// Slack on the time comparisons, seconds: one nanosecond, the resolution of Android's
    /// event times, so that a gap of exactly 40 ms written in seconds is not "longer".
    static let timeSlack = 1e-9

    /// The strategy the estimates use.
    public let strategy: VelocityStrategy
    /// Lanes per sample (≥ 1).
    public let laneCount: Int

    var times: [Double]
    /// `historySize × laneCount` positions, sample after sample.
    var positions: [Double]
    /// The slot of the newest sample.
    var newest = -1
    /// The number of samples held (≤ historySize).
    public private(set) var sampleCount = 0

    /// An empty tracker.
    /// - Parameters:
    ///   - strategy: how samples become a velocity (least squares by default).
    ///   - laneCount: lanes per sample, in [1, 64].
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` for a lane count
    ///   outside [1, 64].
    public init(strategy: VelocityStrategy = .leastSquares, laneCount: Int = 1) throws(ParameterError) {
        guard (1 ... 64).contains(laneCount) else {
            throw .outOfRange(parameter: "laneCount", value: Double(laneCount), expected: "[1, 64]")
        }
        self.strategy = strategy
        self.laneCount = laneCount
        times = [Double](repeating: 0, count: Self.historySize)
        positions = [Double](repeating: 0, count: Self.historySize * laneCount)
    }

    /// A tracker for values of `type`, one lane per lane of the value.
    /// - Parameters:
    ///   - type: the sampled values' type (a point: x and y).
    ///   - strategy: how samples become a velocity.
    public init<Value: Interpolatable>(for type: Value.Type, strategy: VelocityStrategy = .leastSquares) {
        // Interpolatable lane counts are small positive constants.
        self.strategy = strategy
        laneCount = Value.laneCount
        times = [Double](repeating: 0, count: Self.historySize)
        positions = [Double](repeating: 0, count: Self.historySize * Value.laneCount)
    }

    /// The time of the newest sample, seconds, or nil when empty.
    public var lastTime: Double? { sampleCount > 0 ? times[newest] : nil }

    /// Forgets every sample (a new gesture).
    public mutating func reset() {
        sampleCount = 0
        newest = -1
    }

    // MARK: Adding samples

    /// Adds a one-lane sample.
    /// - Parameters:
    ///   - time: seconds, finite, not before the newest sample (a sample at the same time
    ///     replaces it).
    ///   - position: any units, finite.
    /// - Throws: ``ParameterError``: `notFinite` naming `time` or `position`;
    ///   `outOfRange("time", …)` for a time before the newest sample; `countMismatch` when
    ///   the tracker has more than one lane. The tracker is unchanged then.
    public mutating func add(time: Double, position: Double) throws(ParameterError) {
        guard laneCount == 1 else { throw .countMismatch(parameter: "position", expected: laneCount, actual: 1) }
        try ParameterError.requireFinite(position, "position")
        let slot = try slot(for: time)
        positions[slot] = position
    }

    /// Adds a sample of `laneCount` lanes.
    /// - Parameters:
    ///   - time: seconds, as ``add(time:position:)``.
    ///   - lanes: the position's lanes, `laneCount` of them, finite.
    /// - Throws: as ``add(time:position:)``; `notFinite("lanes[i]", …)`.
    public mutating func add(time: Double, lanes: UnsafeBufferPointer<Double>) throws(ParameterError) {
        guard lanes.count == laneCount else {
            throw .countMismatch(parameter: "lanes", expected: laneCount, actual: lanes.count)
        }
        try ParameterError.requireAllFinite(lanes, "lanes")
        let slot = try slot(for: time)
        for i in 0 ..< laneCount { positions[slot * laneCount + i] = lanes[i] }
    }

    /// Adds a value's lanes as a sample (a tracker made for the value's type).
    /// - Throws: as ``add(time:lanes:)``.
    public mutating func add<Value: Interpolatable>(time: Double, value: Value) throws(ParameterError) {
        guard Value.laneCount == laneCount else {
            throw .countMismatch(parameter: "value", expected: laneCount, actual: Value.laneCount)
        }
        try withUnsafeTemporaryAllocation(of: Double.self, capacity: laneCount) { (lanes) throws(ParameterError) in
            value.writeLanes(into: lanes)
            try add(time: time, lanes: UnsafeBufferPointer(lanes))
        }
    }

    /// The slot a sample at `time` goes into (after the checks; the newest slot again for
    /// a sample at the newest time).
    private mutating func slot(for time: Double) throws(ParameterError) -> Int {
        try ParameterError.requireFinite(time, "time")
        if sampleCount > 0 {
            let last = times[newest]
            if time < last {
                throw .outOfRange(parameter: "time", value: time, expected: "[\(last), ∞) (time cannot go back)")
            }
            if time == last { return newest }
        }
        newest = (newest + 1) % Self.historySize
        sampleCount = Swift.min(sampleCount + 1, Self.historySize)
        times[newest] = time
        return newest
    }

    // MARK: Estimating

    /// The release velocity of lane `lane`, units per second, at the newest sample.
    /// - Parameter lane: in `0 ..< laneCount` (0 outside).
    public func velocity(lane: Int = 0) -> Double {
        guard sampleCount > 0, (0 ..< laneCount).contains(lane) else { return 0 }
        return estimate(lane: lane)
    }

    /// The release velocity of lane `lane` when asked at `time`: the estimate at the newest
    /// sample, or 0 when `time` is more than ``stopGap`` after it (the pointer stopped).
    /// - Parameters:
    ///   - time: seconds, finite; a time before the newest sample gives the estimate there.
    ///   - lane: in `0 ..< laneCount` (0 outside).
    /// - Throws: ``ParameterError/notFinite(parameter:value:)`` naming `time`.
    public func velocity(at time: Double, lane: Int = 0) throws(ParameterError) -> Double {
        try ParameterError.requireFinite(time, "time")
        return hasStopped(at: time) ? 0 : velocity(lane: lane)
    }

    /// Whether the pointer counts as stopped when asked at `time`: no samples, or more than
    /// ``stopGap`` since the newest.
    private func hasStopped(at time: Double) -> Bool {
        guard let last = lastTime else { return true }
        return time - last > Self.stopGap + Self.timeSlack
    }

    /// Every lane's velocity as a value of `type` (its lanes are the velocities), at the
    /// newest sample or, with `time`, as ``velocity(at:lane:)``.
    /// - Parameters:
    ///   - type: the tracker's value type (its lane count is the tracker's).
    ///   - time: seconds, finite; nil for the estimate at the newest sample.
    /// - Throws: ``ParameterError``: `notFinite("time", …)`; `countMismatch` when the type's
    ///   lane count is not the tracker's.
    public func velocity<Value: Interpolatable>(of type: Value.Type, at time: Double? = nil) throws(ParameterError) -> Value {
        guard Value.laneCount == laneCount else {
            throw .countMismatch(parameter: "type", expected: laneCount, actual: Value.laneCount)
        }
        if let time { try ParameterError.requireFinite(time, "time") }
        let stopped = time.map(hasStopped(at:)) ?? false
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: laneCount) { lanes in
            for i in 0 ..< laneCount { lanes[i] = stopped ? 0 : velocity(lane: i) }
            return Value(lanes: UnsafeBufferPointer(lanes))
        }
    }

    /// The samples that count, newest first: how many, walking back from the newest until
    /// the horizon, the history size or a stop gap.
    func countingSamples() -> Int {
        var n = 1
        var previous = times[newest]
        let newestTime = previous
        while n < sampleCount {
            let slot = (newest - n + Self.historySize) % Self.historySize
            let t = times[slot]
            if newestTime - t > Self.horizon + Self.timeSlack { break }
            if previous - t > Self.stopGap + Self.timeSlack { break }
            previous = t
            n += 1
        }
        return n
    }

    private func estimate(lane: Int) -> Double {
        let n = countingSamples()
        guard n >= 2 else { return 0 }
        let direct = estimate(lane: lane, samples: n, scale: 1)
        if direct.isFinite { return direct }
        // Positions near the ends of the range of Double: the same estimate on positions
        // scaled by 2^-1000 (exact), scaled back, saturating where the velocity itself is
        // beyond the range.
        let scaled = estimate(lane: lane, samples: n, scale: 0x1p-1000)
        guard !scaled.isNaN else { return 0 }
        let back = scaled * 0x1p500 * 0x1p500
        return back.isFinite ? back : (back > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
    }

    private func estimate(lane: Int, samples n: Int, scale: Double) -> Double {
        // Oldest first, times relative to the newest sample (≤ 0), positions relative to the
        // newest (both exact in the common case and free of cancellation).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * n) { buffer in
            let t = buffer.baseAddress!, x = t + n
            let newestTime = times[newest], newestX = positions[newest * laneCount + lane]
            for k in 0 ..< n {
                let slot = (newest - (n - 1 - k) + Self.historySize) % Self.historySize
                t[k] = times[slot] - newestTime
                x[k] = positions[slot * laneCount + lane] * scale - newestX * scale
            }
            switch strategy {
            case .leastSquares: return VelocityEstimation.leastSquaresSlope(times: t, positions: x, count: n)
            case .impulse: return VelocityEstimation.impulse(times: t, positions: x, count: n)
            }
        }
    }
}
