import RealModule

/// Exponential deceleration: content released at velocity v₀ slows as v(t) = v₀·e^(−λt) and
/// coasts to rest at v₀ / λ from where it was released, in closed form at any time.
///
/// Two platforms define it:
/// - `UIScrollView`: the velocity is multiplied by the deceleration rate every millisecond,
///   `.normal` 0.998 and `.fast` 0.99 (``init(decelerationRate:velocityThreshold:)``, λ = −1000·ln rate);
/// - Jetpack Compose's `exponentialDecay(frictionMultiplier, absVelocityThreshold)`
///   (``init(frictionMultiplier:absVelocityThreshold:)``, λ = 4.2 × the multiplier), which
///   ends the animation once the speed falls to the threshold.
///
/// Times are seconds from the release, positions any units, velocities units per second.
/// Every function is exact to a few ulps (`expm1` and `log` of the closed forms); none
/// returns NaN for finite input.
public struct ExponentialDecay: Sendable, Hashable {
    /// `UIScrollView.DecelerationRate.normal`: the velocity keeps 0.998 of itself per millisecond.
    public static let normal = ExponentialDecay(checkedRate: 0.998)
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per millisecond.
    public static let fast = ExponentialDecay(checkedRate: 0.99)
    /// Compose's `ExponentialDecayFriction` magnitude, per second.
    public static let composeFriction = 4.2

    /// The decay constant λ, per second (> 0): v(t) = v₀·e^(−λt).
    public let decayConstant: Double
    /// The speed at which the motion counts as stopped, units per second (≥ 0; 0: never
    /// before it is at rest). Used by ``duration(initialVelocity:)``.
    public let velocityThreshold: Double

    private init(checkedRate rate: Double) {
        decayConstant = -1000 * Double.log(rate)
        velocityThreshold = 0
    }

    /// A decay of constant `decayConstant`: v(t) = v₀·e^(−λt).
    /// - Parameters:
    ///   - decayConstant: λ, per second, finite and > 0.
    ///   - velocityThreshold: units per second, finite and ≥ 0 (default 0).
    /// - Throws: ``ParameterError`` naming the bad value.
    public init(decayConstant: Double, velocityThreshold: Double = 0) throws(ParameterError) {
        try ParameterError.requireFinite(decayConstant, "decayConstant")
        guard decayConstant > 0 else { throw .outOfRange(parameter: "decayConstant", value: decayConstant, expected: "> 0") }
        try ParameterError.requireNonNegative(velocityThreshold, "velocityThreshold")
        self.decayConstant = decayConstant
        self.velocityThreshold = velocityThreshold
    }

    /// `UIScrollView`'s deceleration: the velocity keeps `decelerationRate` of itself every
    /// millisecond.
    /// - Parameters:
    ///   - decelerationRate: per millisecond, in (0, 1) (UIKit: 0.998 normal, 0.99 fast).
    ///   - velocityThreshold: units per second, finite and ≥ 0 (default 0).
    /// - Throws: ``ParameterError`` naming the bad value.
    public init(decelerationRate: Double, velocityThreshold: Double = 0) throws(ParameterError) {
        try ParameterError.requireFinite(decelerationRate, "decelerationRate")
        guard decelerationRate > 0 && decelerationRate < 1 else {
            throw .outOfRange(parameter: "decelerationRate", value: decelerationRate, expected: "(0, 1)")
        }
        try ParameterError.requireNonNegative(velocityThreshold, "velocityThreshold")
        let k = -1000 * Double.log(decelerationRate)
        // A rate so close to 1 that its logarithm underflows is no deceleration at all.
        guard k > 0 && k.isFinite else {
            throw .outOfRange(parameter: "decelerationRate", value: decelerationRate, expected: "(0, 1) with a finite, non-zero logarithm")
        }
        decayConstant = k
        self.velocityThreshold = velocityThreshold
    }

    /// Compose's `exponentialDecay(frictionMultiplier, absVelocityThreshold)`: λ = 4.2 ×
    /// max(0.0001, `frictionMultiplier`), stopping at |v| = max(1e-7, |`absVelocityThreshold`|).
    /// - Parameters:
    ///   - frictionMultiplier: unitless, finite (Compose's default 1).
    ///   - absVelocityThreshold: units per second, finite (Compose's default 0.1).
    /// - Throws: ``ParameterError`` naming the bad value (a multiplier whose friction is
    ///   beyond the range of `Double` is out of range).
    public init(frictionMultiplier: Double = 1, absVelocityThreshold: Double = 0.1) throws(ParameterError) {
        try ParameterError.requireFinite(frictionMultiplier, "frictionMultiplier")
        try ParameterError.requireFinite(absVelocityThreshold, "absVelocityThreshold")
        let k = Self.composeFriction * Swift.max(0.0001, frictionMultiplier)
        guard k.isFinite else {
            throw .outOfRange(parameter: "frictionMultiplier", value: frictionMultiplier,
                              expected: "a multiplier whose friction, 4.2 × it, is within the range of Double")
        }
        decayConstant = k
        velocityThreshold = Swift.max(1e-7, absVelocityThreshold.magnitude)
    }

    /// The per-millisecond rate this decay keeps the velocity by, e^(−λ/1000).
    public var decelerationRate: Double { Double.exp(-decayConstant / 1000) }

    /// The velocity at `time` after a release at `initialVelocity`, v₀·e^(−λt).
    /// - Parameters:
    ///   - time: seconds (negative times extrapolate backwards, up to overflow).
    ///   - initialVelocity: units per second.
    public func velocity(at time: Double, initialVelocity: Double) -> Double {
        guard initialVelocity != 0 else { return 0 }
        return Self.finite(initialVelocity * Double.exp(-decayConstant * time))
    }

    /// How far the content has moved `time` after a release at `initialVelocity`:
    /// v₀·(1 − e^(−λt)) / λ (add it to the release position).
    /// - Parameters:
    ///   - time: seconds.
    ///   - initialVelocity: units per second.
    public func offset(at time: Double, initialVelocity: Double) -> Double {
        guard initialVelocity != 0 else { return 0 }
        return Self.finite(-initialVelocity * Double.expMinusOne(-decayConstant * time) / decayConstant)
    }

    /// Where the content comes to rest, relative to the release: v₀ / λ (the exact limit of
    /// the continuous decay).
    /// - Parameter initialVelocity: units per second.
    public func restingOffset(initialVelocity: Double) -> Double {
        Self.finite(initialVelocity / decayConstant)
    }

    /// Where the motion ends, relative to the release, when it stops at
    /// ``velocityThreshold`` (Compose's `getTargetValue`): (v₀ − sign(v₀)·threshold) / λ,
    /// 0 when the release is already that slow; ``restingOffset(initialVelocity:)`` for a
    /// zero threshold.
    /// - Parameter initialVelocity: units per second.
    public func stoppingOffset(initialVelocity: Double) -> Double {
        let v = initialVelocity.magnitude
        guard v > velocityThreshold else { return 0 }
        let d = Self.finite((v - velocityThreshold) / decayConstant)
        return initialVelocity < 0 ? -d : d
    }

    /// The projection of Apple's "Designing Fluid Interfaces" (WWDC 2018):
    /// (v₀ / 1000) · r / (1 − r) with r the per-millisecond rate. It sums the per-millisecond
    /// steps of a discrete decay from the first millisecond on, so it falls short of
    /// ``restingOffset(initialVelocity:)`` by a relative 1 − r·(−ln r)/(1 − r), about
    /// (1 − r)/2: 0.1 % for `.normal`, 0.5 % for `.fast`.
    /// - Parameter initialVelocity: units per second.
    public func projectedOffsetFluidInterfaces(initialVelocity: Double) -> Double {
        let r = decelerationRate
        return Self.finite(initialVelocity / 1000 * r / -Double.expMinusOne(-decayConstant / 1000))
    }

    /// The time from the release until the speed falls to `speed`, seconds: ln(|v₀| / speed) / λ
    /// (0 when it is already that slow).
    /// - Parameters:
    ///   - speed: units per second, > 0.
    ///   - initialVelocity: units per second.
    /// - Throws: ``ParameterError`` naming `speed` unless it is finite and > 0.
    public func duration(untilSpeed speed: Double, initialVelocity: Double) throws(ParameterError) -> Double {
        try ParameterError.requireFinite(speed, "speed")
        guard speed > 0 else { throw .outOfRange(parameter: "speed", value: speed, expected: "> 0") }
        let v = initialVelocity.magnitude
        guard v > speed else { return 0 }
        return Self.finite((Double.log(v) - Double.log(speed)) / decayConstant)
    }

    /// The time from the release until the content is within `epsilon` of where it comes to
    /// rest, seconds: ln(|v₀| / (λ·ε)) / λ (0 when it already is).
    /// - Parameters:
    ///   - epsilon: units, > 0.
    ///   - initialVelocity: units per second.
    /// - Throws: ``ParameterError`` naming `epsilon` unless it is finite and > 0.
    public func duration(toWithin epsilon: Double, initialVelocity: Double) throws(ParameterError) -> Double {
        try ParameterError.requireFinite(epsilon, "epsilon")
        guard epsilon > 0 else { throw .outOfRange(parameter: "epsilon", value: epsilon, expected: "> 0") }
        let remaining = initialVelocity.magnitude / decayConstant
        guard remaining > epsilon else { return 0 }
        // |v₀|/λ beyond the range of Double (a tiny λ): the logarithm is taken of each factor.
        let logRemaining = remaining.isFinite ? Double.log(remaining)
            : Double.log(initialVelocity.magnitude) - Double.log(decayConstant)
        return Self.finite((logRemaining - Double.log(epsilon)) / decayConstant)
    }

    /// The time until the speed falls to ``velocityThreshold`` (Compose's animation
    /// duration), seconds; 0 for a zero threshold and a zero velocity,
    /// `Double.infinity` for a zero threshold otherwise (the decay never stops).
    /// - Parameter initialVelocity: units per second.
    public func duration(initialVelocity: Double) -> Double {
        guard initialVelocity.magnitude > velocityThreshold else { return 0 }
        guard velocityThreshold > 0 else { return .infinity }
        return Self.finite((Double.log(initialVelocity.magnitude) - Double.log(velocityThreshold)) / decayConstant)
    }

    /// Results beyond the range of `Double` (a velocity near 1e308 extrapolated backwards)
    /// saturate instead of becoming infinite.
    @inline(__always)
    static func finite(_ x: Double) -> Double {
        x.isFinite ? x : (x.isNaN ? 0 : (x > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude))
    }
}
