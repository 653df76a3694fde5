/// How a run's progress follows its time: the engine's own timing description, onto which
/// the UIKit layer's timing providers map (`CubicTimingParameters`,
/// `SpringTimingParameters`).
package enum RunTiming: Sendable, Hashable {
    /// Progress equals the time fraction.
    case linear
    /// A cubic-bezier curve of the time fraction.
    case cubic(CubicBezier)
    /// A spring scaled in time so that it settles (within 0.001 of the move) at the run's
    /// duration (UIKit's `init(dampingRatio:initialVelocity:)`); `dampingRatio` > 0.
    /// Velocities are normalised to the move, per second (horizontal and vertical lanes).
    case dampedSpring(dampingRatio: Double, vx: Double, vy: Double)
    /// A physical spring: its own settling time (within 0.001 of the move, the slower of
    /// the two velocity components) is how long the run lasts.
    case physicalSpring(Spring, vx: Double, vy: Double)

    /// The progress curve of a run of `duration` seconds, and how long the run lasts
    /// (seconds): `duration` itself, or a physical spring's own settling time.
    /// - Throws: ``ParameterError`` when the spring cannot be scaled to settle in time, when a
    ///   physical spring's settling time is beyond the range of `Double`, or when a velocity
    ///   times the duration is.
    package func curve(forDuration duration: Double) throws -> (curve: ProgressCurve, duration: Double) {
        switch self {
        case .linear:
            return (.linear, duration)
        case .cubic(let bezier):
            return (bezier == .linear ? .linear : .cubic(bezier), duration)
        case .physicalSpring(let spring, let vx, let vy):
            let settle = Swift.max(spring.settlingDuration(initialVelocity: vx), spring.settlingDuration(initialVelocity: vy))
            // Damping so small (a ratio near 1e-308) that the settling time is beyond the range
            // of Double: the run would never end, and its progress would be 0 × ∞.
            guard settle.isFinite else {
                throw ParameterError.outOfRange(parameter: "dampingRatio", value: spring.dampingRatio,
                                                expected: "the ratios with which the spring settles within the range of Double")
            }
            return (.spring(SpringProgress(spring, period: settle, vx: vx, vy: vy)), settle)
        case .dampedSpring(let ratio, let vx, let vy):
            // Built once with a settling time of 1 and driven by the fraction directly (its
            // velocity rescaled by the duration), so that a zero duration works.
            let unit = try Spring(settlingDuration: 1, dampingRatio: ratio)
            let (ux, uy) = (vx * duration, vy * duration)
            if !ux.isFinite || !uy.isFinite {
                let (name, velocity) = ux.isFinite ? ("initial velocity dy", vy) : ("initial velocity dx", vx)
                throw ParameterError.outOfRange(
                    parameter: name, value: velocity,
                    expected: "the velocities whose product with the duration (\(duration) s) is within the range of Double")
            }
            return (.spring(SpringProgress(unit, period: 1, vx: ux, vy: uy)), duration)
        }
    }
}
