/// The most rows a sampling function produces: 10 million. Larger requests throw instead of
/// exhausting memory (a 3-column table of this size is 240 MB of doubles).
public let maximumSampleCount = 10_000_000

/// Samples a cubic-bezier curve at `count` evenly spaced points of linear progress.
///
/// Row `i` is at x = i / (count − 1), so the first row is x = 0 (value exactly 0) and the
/// last is x = 1 (value exactly 1).
///
/// - Parameters:
///   - curve: the curve.
///   - count: the number of rows, in [2, ``maximumSampleCount``].
/// - Returns: a table with columns `x`, `value` (eased progress) and `slope` (dy/dx; may be
///   ±infinity where the curve's tangent is vertical).
/// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` for a bad `count`.
public func sample(_ curve: CubicBezier, count: Int) throws -> SampleTable {
    try sample(curve, at: evenlySpaced(count: count))
}

/// Samples a cubic-bezier curve at the given points of linear progress.
///
/// - Parameters:
///   - curve: the curve.
///   - xs: linear progress values, any finite numbers (outside [0, 1] the curve is
///     extrapolated along its end tangents); at most ``maximumSampleCount`` of them.
/// - Returns: a table with columns `x`, `value` and `slope`, one row per element of `xs`, in
///   order.
/// - Throws: ``ParameterError/notFinite(parameter:value:)`` naming the element (`x[3]`) for a
///   NaN or infinite x, ``SamplingError/tooManyRows(rows:limit:)`` for too many.
public func sample(_ curve: CubicBezier, at xs: [Double]) throws -> SampleTable {
    try checkFinite(xs)
    let values = curve.values(at: xs)
    var table = try SampleTable(columns: ["x", "value", "slope"])
    table.reserveCapacity(rows: xs.count)
    for i in xs.indices {
        table.appendUnchecked(xs[i], values[i], curve.slope(at: xs[i]))
    }
    return table
}

/// Samples any timing curve at `count` evenly spaced points x = i / (count − 1).
///
/// - Parameters:
///   - curve: the curve.
///   - count: the number of rows, in [2, ``maximumSampleCount``].
/// - Returns: a table with columns `x` and `value`.
/// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` for a bad `count`.
public func sample(_ curve: some TimingCurve, count: Int) throws -> SampleTable {
    try sample(curve, at: evenlySpaced(count: count))
}

/// Samples any timing curve at the given points of linear progress.
///
/// - Returns: a table with columns `x` and `value`, one row per element of `xs`.
/// - Throws: ``ParameterError/notFinite(parameter:value:)`` naming the element for a NaN or
///   infinite x, ``SamplingError/tooManyRows(rows:limit:)`` for too many.
public func sample(_ curve: some TimingCurve, at xs: [Double]) throws -> SampleTable {
    try checkFinite(xs)
    var table = try SampleTable(columns: ["x", "value"])
    table.reserveCapacity(rows: xs.count)
    for x in xs { table.appendUnchecked(x, curve.value(at: x)) }
    return table
}

/// Samples the unit move (0 → 1) of a spring from time 0 until it settles.
///
/// Rows are at t = i / rate for every i with t strictly before the settling time T
/// (``Spring/settlingDuration(initialVelocity:epsilon:)``), then one last row at exactly T.
/// Values come from the closed form at each time (no accumulated stepping error).
///
/// - Parameters:
///   - spring: the spring.
///   - initialVelocity: UIKit's normalised initial velocity (move distances per second),
///     finite.
///   - rate: samples per second (Hz), finite and > 0.
///   - epsilon: the settling threshold as a fraction of the move, in (0, 1).
/// - Returns: a table with columns `time` (seconds), `value` (fraction of the move) and
///   `velocity` (move distances per second).
/// - Throws: ``ParameterError`` for a bad `initialVelocity` (including a finite one so large
///   that the motion leaves the range of `Double`), `rate` or `epsilon`;
///   ``SamplingError/neverSettles(spring:)`` for an undamped spring;
///   ``SamplingError/tooManyRows(rows:limit:)`` when T × rate exceeds ``maximumSampleCount``.
public func sample(_ spring: Spring, initialVelocity: Double = 0, rate: Double,
                   epsilon: Double = Spring.defaultEpsilon) throws -> SampleTable {
    try ParameterError.requireFinite(initialVelocity, "initialVelocity")
    try ParameterError.requirePositive(rate, "rate")
    try ParameterError.requirePositive(epsilon, "epsilon")
    guard epsilon < 1 else { throw ParameterError.outOfRange(parameter: "epsilon", value: epsilon, expected: "(0, 1)") }
    let end = spring.settlingDuration(initialVelocity: initialVelocity, epsilon: epsilon)
    guard end.isFinite else { throw SamplingError.neverSettles(spring: spring.description) }
    let estimate = end * rate
    // The regular rows number about ⌈T·rate⌉, plus the final row at T.
    guard estimate + 2 <= Double(maximumSampleCount) else {
        throw SamplingError.tooManyRows(rows: (estimate + 1).rounded(.up), limit: maximumSampleCount)
    }
    let n = framesBefore(end, rate: rate)

    var table = try SampleTable(columns: ["time", "value", "velocity"])
    table.reserveCapacity(rows: n + 1)
    func appendRow(_ t: Double) throws(ParameterError) {
        table.appendUnchecked(t, try spring.checkedValue(at: t, initialVelocity: initialVelocity),
                              try spring.checkedVelocity(at: t, initialVelocity: initialVelocity))
    }
    for i in 0..<n { try appendRow(Double(i) / rate) }
    try appendRow(end)  // every regular row is strictly before `end`
    return table
}

/// The number of frames i ≥ 0 with i / rate < end, for a finite `end` ≥ 0 and `rate` > 0
/// whose product is a small enough count (the callers check it first): the rows of a sample
/// or a bake before its final row at exactly `end`.
func framesBefore(_ end: Double, rate: Double) -> Int {
    var n = Int((end * rate).rounded(.up))
    while n > 0 && Double(n - 1) / rate >= end { n -= 1 }
    while Double(n) / rate < end { n += 1 }
    return n
}

/// x = i / (count − 1) for i in 0..<count; exactly 0 first and exactly 1 last.
private func evenlySpaced(count: Int) throws(ParameterError) -> [Double] {
    guard count >= 2 && count <= maximumSampleCount else {
        throw .outOfRange(parameter: "count", value: Double(count), expected: "[2, \(maximumSampleCount)]")
    }
    let last = Double(count - 1)
    return (0..<count).map { Double($0) / last }
}

private func checkFinite(_ xs: [Double]) throws {
    guard xs.count <= maximumSampleCount else {
        throw SamplingError.tooManyRows(rows: Double(xs.count), limit: maximumSampleCount)
    }
    try ParameterError.requireAllFinite(xs, "x")
}
