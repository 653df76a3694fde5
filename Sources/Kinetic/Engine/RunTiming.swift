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
    /// - Throws: ``ParameterError`` when the spring cannot be scaled to settle in time.
    package func curve(forDuration duration: Double) throws -> (curve: ProgressCurve, duration: Double) {
        switch self {
        case .linear:
            return (.linear, duration)
        case .cubic(let bezier):
            return (bezier == .linear ? .linear : .cubic(bezier), duration)
        case .physicalSpring(let spring, let vx, let vy):
            let settle = Swift.max(spring.settlingDuration(initialVelocity: vx), spring.settlingDuration(initialVelocity: vy))
            return (.spring(SpringProgress(spring, period: settle, vx: vx, vy: vy)), settle)
        case .dampedSpring(let ratio, let vx, let vy):
            // Built once with a settling time of 1 and driven by the fraction directly (its
            // velocity rescaled by the duration), so that a zero duration works.
            let unit = try Spring(settlingDuration: 1, dampingRatio: ratio)
            return (.spring(SpringProgress(unit, period: 1, vx: vx * duration, vy: vy * duration)), duration)
        }
    }
}
