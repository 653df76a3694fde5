import Kinetic

/// Spring timing (`UISpringTimingParameters`).
///
/// Whose duration wins, as in UIKit:
/// - ``init(dampingRatio:initialVelocity:)``: the spring is scaled in time so that it
///   settles (within 0.001 of the move) at the **animator's** duration;
/// - ``init()``, ``init(mass:stiffness:damping:initialVelocity:)`` and
///   ``init(duration:bounce:initialVelocity:)``: the spring is physical, and **its own**
///   settling time (within 0.001 of the move, the slower of the two velocity components)
///   is how long the animation runs; the animator's `duration` is ignored for timing.
///
/// `initialVelocity` is normalised to the move, as UIKit's: `dx = 1` means the property
/// starts out covering its whole distance in one second. Vertical quantities (centre y,
/// bounds y and height, transform ty and y scale) use `dy`; everything else uses `dx`.
public struct SpringTimingParameters: TimingCurveProvider, Hashable {
    /// How the spring was specified.
    public enum Specification: Hashable, Sendable {
        /// A damping ratio, scaled to the animator's duration.
        case dampingRatio(Double)
        /// A physical spring whose own settling time is the duration.
        case physical(Spring)
    }

    /// How the spring was specified.
    public let specification: Specification
    /// Initial velocity, in units of the move's distance per second.
    public let initialVelocity: Vector

    /// UIKit's default spring: mass 3, stiffness 1000, damping 500 (damping ratio ≈ 4.56),
    /// no initial velocity.
    public init() {
        specification = .physical(try! Spring(mass: 3, stiffness: 1000, damping: 500))
        initialVelocity = .zero
    }

    /// A spring with this damping ratio whose settling time is the animator's duration.
    /// - Parameters:
    ///   - ratio: damping ratio, > 0 (1 = critically damped, < 1 oscillates).
    ///   - initialVelocity: normalised initial velocity, finite.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` naming the bad value.
    public init(dampingRatio ratio: Double, initialVelocity: Vector = .zero) throws {
        try Self.check { try ParameterError.requirePositive(ratio, "dampingRatio") }
        try Self.check(initialVelocity)
        specification = .dampingRatio(ratio)
        self.initialVelocity = initialVelocity
    }

    /// A physical spring (its settling time sets the animation's duration).
    /// - Parameters: mass (> 0), stiffness (> 0), damping (≥ 0; the spring must settle, so > 0),
    ///   normalised initial velocity.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` naming the bad value.
    public init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Vector = .zero) throws {
        try Self.check { try ParameterError.requirePositive(damping, "damping") }
        let spring = try Self.check { try Spring(mass: mass, stiffness: stiffness, damping: damping) }
        try Self.check(initialVelocity)
        specification = .physical(spring)
        self.initialVelocity = initialVelocity
    }

    /// A spring by perceptual duration and bounce (iOS 17); physical, so its settling time
    /// sets the animation's duration.
    /// - Parameters:
    ///   - duration: perceptual duration, seconds, > 0.
    ///   - bounce: in (−1, 1): 0 no bounce, towards 1 bouncier, negative overdamped.
    ///   - initialVelocity: normalised initial velocity.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` naming the bad value.
    public init(duration: Double, bounce: Double, initialVelocity: Vector = .zero) throws {
        let spring = try Self.check { try Spring(duration: duration, bounce: bounce) }
        try Self.check(initialVelocity)
        specification = .physical(spring)
        self.initialVelocity = initialVelocity
    }

    /// The damping ratio.
    public var dampingRatio: Double {
        switch specification {
        case .dampingRatio(let ratio): return ratio
        case .physical(let spring): return spring.dampingRatio
        }
    }

    /// Whether the spring's own settling time, not the animator's duration, sets how long
    /// the animation runs.
    public var determinesDuration: Bool {
        if case .physical = specification { return true }
        return false
    }

    /// The engine's timing for this spring (how it drives a run of a given duration).
    var runTiming: RunTiming {
        switch specification {
        case .physical(let spring): return .physicalSpring(spring, vx: initialVelocity.dx, vy: initialVelocity.dy)
        case .dampingRatio(let ratio): return .dampedSpring(dampingRatio: ratio, vx: initialVelocity.dx, vy: initialVelocity.dy)
        }
    }

    public var timingCurveType: TimingCurveType { .spring }
    public var cubicTimingParameters: CubicTimingParameters? { nil }
    public var springTimingParameters: SpringTimingParameters? { self }

    private static func check<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ParameterError { throw AnimatorError.invalidParameter(error) }
    }

    private static func check(_ v: Vector) throws {
        try check {
            try ParameterError.requireFinite(v.dx, "initialVelocity.dx")
            try ParameterError.requireFinite(v.dy, "initialVelocity.dy")
        }
    }
}
