import RealModule

/// Android's fling (`OverScroller`, Compose's `splineBasedDecay`): a release velocity sets a
/// distance and a duration from the physics of a surface with friction, and the content
/// follows one fixed curve over them. (Flutter's `ClampingScrollSimulation` takes the same
/// total distance but moves along a curve of its own, over a shorter time.)
///
/// With ppi = 160 × density, c = 9.80665 × 39.37 × ppi × 0.84 (gravity in pixels per second²,
/// times Android's tuning factor), D = ln 0.78 / ln 0.9 and l = ln(0.35·|v| / (friction·c)):
/// - duration = e^(l / (D − 1)) seconds;
/// - distance = friction · c · e^(D·l / (D − 1)) pixels, in the direction of v.
///
/// The curve is Android's spline: in the time fraction τ and distance fraction s, the cubic
/// Bézier with control points (0.175, 0.5) and (0.35, 1) (`P1` = 0.5 × 0.35, `P2` = 1 − 0.65,
/// start tension 0.5, end tension 1). Android samples it into a 101-entry `float` table by
/// bisection to 1e-5 and interpolates linearly (its velocity is constant between entries);
/// Kinetic evaluates the curve itself in double precision, so its position is the table's
/// limit and its velocity is continuous (Android's table stays within 1e-4 of the distance
/// from the curve, its stepwise velocity within 9 % of the curve's). Android also rounds the
/// duration down to whole milliseconds and the distance to whole pixels, and takes ln 0.78 /
/// ln 0.9 as a `float`; Kinetic keeps them exact. Velocities are pixels per second (any unit
/// for which `density` gives the pixels per density-independent pixel).
public struct SplineFling: Sendable, Hashable {
    /// Android's `ViewConfiguration.getScrollFriction()`.
    public static let defaultFriction = 0.015
    /// ln 0.78 / ln 0.9.
    public static let decelerationExponent = Double.log(0.78) / Double.log(0.9)
    /// Android's `INFLEXION`.
    public static let inflexion = 0.35
    /// The spline in (time fraction, distance fraction).
    public static let curve = try! CubicBezier(0.175, 0.5, 0.35, 1)

    /// Pixels per density-independent pixel (Android's `density`; 160 dpi is 1).
    public let density: Double
    /// The scroll friction (Android's default 0.015).
    public let friction: Double
    /// 9.80665 × 39.37 × 160 × density × 0.84: gravity in pixels per second², tuned.
    public let physicalCoefficient: Double

    /// A fling on a screen of `density`.
    /// - Parameters:
    ///   - density: pixels per density-independent pixel, finite and > 0.
    ///   - friction: finite and > 0 (Android's default 0.015).
    /// - Throws: ``ParameterError`` naming the bad value (also when friction × the physical
    ///   coefficient is beyond the range of `Double` or below its normal range: the one of the
    ///   two further from its usual size).
    public init(density: Double, friction: Double = SplineFling.defaultFriction) throws(ParameterError) {
        for (value, name) in [(density, "density"), (friction, "friction")] {
            try ParameterError.requireFinite(value, name)
            guard value > 0 else { throw .outOfRange(parameter: name, value: value, expected: "> 0") }
        }
        let c = 9.80665 * 39.37 * (160 * density) * 0.84
        // friction · c sets the scale of every result: it must be a normal, finite number.
        guard (friction * c).isNormal else {
            // Name the value that is far from its usual size (density about 1, friction about
            // 0.015): the one whose magnitude is further from 1 in the exponent.
            let blamesFriction = abs(friction.exponent + 6) > abs(density.exponent)
            throw .outOfRange(parameter: blamesFriction ? "friction" : "density", value: blamesFriction ? friction : density,
                              expected: "values whose friction × physical coefficient (\(c) for this density) is a finite, normal number")
        }
        self.density = density
        self.friction = friction
        physicalCoefficient = c
    }

    /// l = ln(0.35·|v| / (friction·c)); −∞ for v = 0.
    private func deceleration(_ velocity: Double) -> Double {
        Double.log(Self.inflexion * velocity.magnitude) - Double.log(friction * physicalCoefficient)
    }

    /// How long a fling at `velocity` lasts, seconds (0 for a zero velocity).
    /// - Parameter velocity: pixels per second.
    public func duration(initialVelocity velocity: Double) -> Double {
        guard velocity != 0 else { return 0 }
        return ExponentialDecay.finite(Double.exp(deceleration(velocity) / (Self.decelerationExponent - 1)))
    }

    /// How far a fling at `velocity` travels, pixels, signed as the velocity.
    /// - Parameter velocity: pixels per second.
    public func distance(initialVelocity velocity: Double) -> Double {
        guard velocity != 0 else { return 0 }
        let d = Self.decelerationExponent
        let magnitude = friction * physicalCoefficient * Double.exp(d / (d - 1) * deceleration(velocity))
        return ExponentialDecay.finite(velocity < 0 ? -magnitude : magnitude)
    }

    /// How far the fling has gone `time` after the release, pixels (the full distance from
    /// the end of the duration on; 0 before the release).
    /// - Parameters:
    ///   - time: seconds since the release.
    ///   - velocity: pixels per second.
    public func offset(at time: Double, initialVelocity velocity: Double) -> Double {
        let total = duration(initialVelocity: velocity)
        guard total > 0, time > 0 else { return 0 }
        let distance = distance(initialVelocity: velocity)
        guard time < total else { return distance }
        return distance * Self.curve.value(at: time / total)
    }

    /// The fling's velocity `time` after the release, pixels per second (0 outside the
    /// duration).
    /// - Parameters:
    ///   - time: seconds since the release.
    ///   - velocity: pixels per second.
    public func velocity(at time: Double, initialVelocity velocity: Double) -> Double {
        let total = duration(initialVelocity: velocity)
        guard total > 0, time >= 0, time < total else { return 0 }
        return ExponentialDecay.finite(distance(initialVelocity: velocity) / total * Self.curve.slope(at: time / total))
    }
}
