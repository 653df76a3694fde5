/// `UIScrollView`'s overscroll resistance: dragged `x` past an edge, the content moves
/// f(x) = (1 − 1 / (x·c / d + 1))·d, with c = 0.55 and d the scroll view's dimension along
/// the drag. f(0) = 0, f′(0) = c, and f approaches d but never reaches it. The inverse turns
/// a displayed overscroll back into the drag that produces it, so that a new drag can resume
/// an overscrolled view.
///
/// Written as c·x·d / (c·x + d), which neither cancels nor overflows where the result is
/// representable. Negative drags pull the other way: f(−x) = −f(x).
public struct RubberBand: Sendable, Hashable {
    /// UIKit's resistance constant.
    public static let uiScrollView = RubberBand(checkedCoefficient: 0.55)

    /// The coefficient c (the slope at the edge), in (0, ∞).
    public let coefficient: Double

    private init(checkedCoefficient: Double) { coefficient = checkedCoefficient }

    /// A rubber band of slope `coefficient` at the edge.
    /// - Parameter coefficient: finite and > 0 (UIKit's 0.55).
    /// - Throws: ``ParameterError`` naming `coefficient`.
    public init(coefficient: Double) throws(ParameterError) {
        try ParameterError.requireFinite(coefficient, "coefficient")
        guard coefficient > 0 else { throw .outOfRange(parameter: "coefficient", value: coefficient, expected: "> 0") }
        self.coefficient = coefficient
    }

    /// How far the content moves when dragged `overscroll` past the edge.
    /// - Parameters:
    ///   - overscroll: the drag past the edge, points (any sign).
    ///   - dimension: the scroll view's size along the drag, points, finite and > 0.
    /// - Returns: in (−dimension, dimension), signed as `overscroll`.
    /// - Throws: ``ParameterError`` naming a non-finite value or a dimension ≤ 0.
    public func offset(forOverscroll overscroll: Double, dimension: Double) throws(ParameterError) -> Double {
        try ParameterError.requireFinite(overscroll, "overscroll")
        try Self.check(dimension)
        return saturatingOffset(overscroll, dimension: dimension)
    }

    /// The offset for an overscroll that may be infinite (a difference of finite positions
    /// that overflowed): it saturates just below the dimension, as a huge finite one does.
    private func saturatingOffset(_ overscroll: Double, dimension: Double) -> Double {
        let x = overscroll.magnitude
        // c·x·d / (c·x + d) = d / (1 + d / (c·x)), which stays finite for any finite x. Past
        // about 2^53·d/c the sum rounds to 1 and the quotient to d itself: the largest double
        // below d keeps the promise (and the inverse's domain).
        let y = x == 0 ? 0 : Swift.min(dimension / (1 + dimension / (coefficient * x)), dimension.nextDown)
        return overscroll < 0 ? -y : y
    }

    /// The drag past the edge that shows `offset` (the inverse of
    /// ``offset(forOverscroll:dimension:)``): d·y / (c·(d − |y|)).
    /// - Parameters:
    ///   - offset: the displayed overscroll, points, |offset| < dimension.
    ///   - dimension: as ``offset(forOverscroll:dimension:)``.
    /// - Throws: ``ParameterError``: `outOfRange("offset", …)` when |offset| ≥ dimension (no
    ///   drag shows it), or a drag beyond the range of `Double`; non-finite values; a
    ///   dimension ≤ 0.
    public func overscroll(forOffset offset: Double, dimension: Double) throws(ParameterError) -> Double {
        try ParameterError.requireFinite(offset, "offset")
        try Self.check(dimension)
        let y = offset.magnitude
        guard y < dimension else {
            throw .outOfRange(parameter: "offset", value: offset, expected: "(−\(dimension), \(dimension)) (the dimension)")
        }
        let x = dimension * (y / (dimension - y)) / coefficient
        guard x.isFinite else {
            throw .outOfRange(parameter: "offset", value: offset,
                              expected: "an offset whose drag is within the range of Double")
        }
        return offset < 0 ? -x : x
    }

    /// Where content dragged to `position` shows, with resistance past `bounds`: the position
    /// itself inside, the edge plus the rubber band's offset outside.
    /// - Parameters:
    ///   - position: where the drag would put the content, points.
    ///   - bounds: the positions the content rests in, finite.
    ///   - dimension: as ``offset(forOverscroll:dimension:)``.
    ///   A position farther past an edge than `Double` can express (−1e308 below bounds at
    ///   1e308) shows as far as any: just short of the edge plus the dimension.
    /// - Returns: a finite position, between the edge and `position`.
    /// - Throws: ``ParameterError`` naming `position`, `bounds.lowerBound` or
    ///   `bounds.upperBound` when not finite; for a position outside the bounds, `dimension`
    ///   when not finite or ≤ 0 (inside, the position comes back whatever the dimension).
    public func clamp(_ position: Double, to bounds: ClosedRange<Double>, dimension: Double) throws(ParameterError) -> Double {
        try ParameterError.requireFinite(position, "position")
        try ParameterError.requireFinite(bounds.lowerBound, "bounds.lowerBound")
        try ParameterError.requireFinite(bounds.upperBound, "bounds.upperBound")
        let edge: Double
        if position < bounds.lowerBound {
            edge = bounds.lowerBound
        } else if position > bounds.upperBound {
            edge = bounds.upperBound
        } else {
            return position
        }
        try Self.check(dimension)
        // Between the edge and the position (the offset is smaller than the overscroll, and
        // at most the dimension when the difference overflowed to the other side): finite.
        return edge + saturatingOffset(position - edge, dimension: dimension)
    }

    private static func check(_ dimension: Double) throws(ParameterError) {
        try ParameterError.requireFinite(dimension, "dimension")
        guard dimension > 0 else { throw .outOfRange(parameter: "dimension", value: dimension, expected: "> 0") }
    }
}
