import RealModule

/// Where released content goes, and the spring that takes it there: the content is
/// projected as if it coasted to rest (``ExponentialDecay``), the target nearest that
/// resting point wins, and the gesture's velocity is handed to a spring in UIKit's
/// normalised form.
public struct SnapDecision: Sendable, Equatable {
    /// The index of the chosen target.
    public let index: Int
    /// The chosen target (any units).
    public let target: Double
    /// Where the content would coast to rest, release position + decay's resting offset.
    public let projectedPosition: Double
    /// UIKit's `initialVelocity` for the spring: velocity ÷ (target − position), per second
    /// (``Snapping/normalizedVelocity(_:from:to:)``).
    public let normalizedVelocity: Double
    /// The spring that takes the content to the target.
    public let spring: Spring
    /// The spring's settling time with that velocity, seconds.
    public let duration: Double
}

/// A 2-D release: the same decision with the nearest target by Euclidean distance, and the
/// normalised velocity per axis (UIKit's `CGVector` initial velocity, as a point: x and y per second).
public struct SnapDecision2D: Sendable, Equatable {
    /// The index of the chosen target.
    public let index: Int
    /// The chosen target, points.
    public let target: Point
    /// Where the content would coast to rest on each axis, points.
    public let projectedPosition: Point
    /// Velocity ÷ remaining distance per axis, per second (0 on an axis already there).
    public let normalizedVelocity: Point
    /// The spring that takes the content to the target.
    public let spring: Spring
    /// The spring's settling time, the slower axis, seconds.
    public let duration: Double
}

/// Projection of a release onto snap targets, and UIKit's velocity hand-off to a spring.
public enum Snapping {
    /// UIKit's normalised initial velocity for a spring that moves from `position` to
    /// `target`: `velocity / (target − position)`, per second (so a spring's unit move has the
    /// gesture's speed). At zero distance the spring has nothing to move and the velocity is
    /// defined as 0 (UIKit's division would be undefined).
    /// - Parameters:
    ///   - velocity: units per second, finite.
    ///   - position: units, finite.
    ///   - target: units, finite.
    /// - Returns: finite (saturating at the range of `Double` for a distance near 0).
    /// - Throws: ``ParameterError/notFinite(parameter:value:)`` naming the bad value.
    public static func normalizedVelocity(_ velocity: Double, from position: Double, to target: Double) throws(ParameterError) -> Double {
        try ParameterError.requireFinite(velocity, "velocity")
        try ParameterError.requireFinite(position, "position")
        try ParameterError.requireFinite(target, "target")
        let distance = target - position
        guard distance != 0, velocity != 0 else { return 0 }
        return ExponentialDecay.finite(velocity / distance)
    }

    /// The target nearest where the content would coast to rest (release position + the
    /// decay's resting offset).
    /// - Parameters:
    ///   - position: the release position, finite.
    ///   - velocity: the release velocity, units per second, finite (a ``VelocityTracker``'s).
    ///   - targets: the snap points, at least one, finite; ties go to the first.
    ///   - decay: the deceleration the projection assumes (`UIScrollView`'s normal rate by
    ///     default).
    /// - Returns: the chosen target's index and the projected resting position.
    /// - Throws: ``ParameterError`` naming a non-finite value, or `countMismatch("targets", 1, 0)`.
    public static func nearestTarget(position: Double, velocity: Double, targets: [Double],
                                     decay: ExponentialDecay = .normal) throws(ParameterError)
        -> (index: Int, projectedPosition: Double) {
        try ParameterError.requireFinite(position, "position")
        try ParameterError.requireFinite(velocity, "velocity")
        guard !targets.isEmpty else { throw .countMismatch(parameter: "targets", expected: 1, actual: 0) }
        try ParameterError.requireAllFinite(targets, "targets")
        let projected = ExponentialDecay.finite(position + decay.restingOffset(initialVelocity: velocity))
        // Halved first (exact), so that a difference across the range (1.7e308 − −1.7e308)
        // does not overflow into a tie.
        func distance(_ t: Double) -> Double { (t / 2 - projected / 2).magnitude }
        var best = 0
        for i in targets.indices.dropFirst() where distance(targets[i]) < distance(targets[best]) {
            best = i
        }
        return (best, projected)
    }

    /// Picks the target nearest where the content would coast to rest
    /// (``nearestTarget(position:velocity:targets:decay:)``), and the spring hand-off to it.
    /// - Parameters:
    ///   - position: the release position, finite.
    ///   - velocity: the release velocity, units per second, finite.
    ///   - targets: the snap points, at least one, finite; ties go to the first.
    ///   - decay: the deceleration the projection assumes.
    ///   - spring: the spring that moves the content to the target.
    /// - Throws: as ``nearestTarget(position:velocity:targets:decay:)``.
    public static func decide(position: Double, velocity: Double, targets: [Double], decay: ExponentialDecay = .normal,
                              spring: Spring) throws(ParameterError) -> SnapDecision {
        let (best, projected) = try nearestTarget(position: position, velocity: velocity, targets: targets, decay: decay)
        let v = try normalizedVelocity(velocity, from: position, to: targets[best])
        return SnapDecision(index: best, target: targets[best], projectedPosition: projected, normalizedVelocity: v,
                            spring: spring, duration: spring.settlingDuration(initialVelocity: v))
    }

    /// ``decide(position:velocity:targets:decay:spring:)`` in two dimensions: the target
    /// nearest the projected point (Euclidean), the normalised velocity per axis.
    /// - Throws: as the 1-D decision, naming `position.x`, `velocity.y`, `targets[i].y`, ….
    public static func decide(position: Point, velocity: Point, targets: [Point], decay: ExponentialDecay = .normal,
                              spring: Spring) throws(ParameterError) -> SnapDecision2D {
        for (value, name) in [(position.x, "position.x"), (position.y, "position.y"),
                              (velocity.x, "velocity.x"), (velocity.y, "velocity.y")] {
            try ParameterError.requireFinite(value, name)
        }
        guard !targets.isEmpty else { throw .countMismatch(parameter: "targets", expected: 1, actual: 0) }
        for (i, t) in targets.enumerated() {
            try ParameterError.requireFinite(t.x, "targets[\(i)].x")
            try ParameterError.requireFinite(t.y, "targets[\(i)].y")
        }
        let projected = Point(x: ExponentialDecay.finite(position.x + decay.restingOffset(initialVelocity: velocity.x)),
                              y: ExponentialDecay.finite(position.y + decay.restingOffset(initialVelocity: velocity.y)))
        func distance(_ p: Point) -> Double {
            // Quartered first (exact), so that neither the differences nor their hypotenuse
            // overflows into a tie.
            Double.hypot(p.x / 4 - projected.x / 4, p.y / 4 - projected.y / 4)
        }
        var best = 0
        for i in targets.indices.dropFirst() where distance(targets[i]) < distance(targets[best]) { best = i }
        let target = targets[best]
        let v = Point(x: try normalizedVelocity(velocity.x, from: position.x, to: target.x),
                      y: try normalizedVelocity(velocity.y, from: position.y, to: target.y))
        let duration = Swift.max(spring.settlingDuration(initialVelocity: v.x), spring.settlingDuration(initialVelocity: v.y))
        return SnapDecision2D(index: best, target: target, projectedPosition: projected, normalizedVelocity: v,
                              spring: spring, duration: duration)
    }
}
