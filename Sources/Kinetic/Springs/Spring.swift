import KineticPlatform

/// A damped harmonic spring: m·x'' + c·x' + k·(x − target) = 0.
///
/// The spring is described by its physical parameters (``mass``, ``stiffness``,
/// ``damping``) and can be created from any of UIKit's, Core Animation's and SwiftUI's
/// parameterisations. ``value(at:initialVelocity:)`` and ``velocity(at:initialVelocity:)``
/// give the exact motion of a unit move from 0 to 1 starting at rest or with UIKit's
/// normalised initial velocity (units of the move's distance per second: 100 pt/s over a
/// 200 pt move is 0.5).
///
/// The closed form is evaluated without a branch that loses accuracy near critical damping
/// (ζ = 1 ± 1e-9 is exact to ~1e-15) and without overflow for heavily overdamped springs.
public struct Spring: Sendable, Hashable, CustomStringConvertible {
    /// Mass (kg-like units; any consistent unit system). Always > 0.
    public let mass: Double
    /// Stiffness k (force per unit displacement). Always > 0.
    public let stiffness: Double
    /// Damping coefficient c (force per unit velocity). Always ≥ 0.
    public let damping: Double
    /// Decay rates, derived once from the parameters (not part of equality or hashing).
    @usableFromInline let modes: SpringModes

    /// The default settling threshold: 0.001 of the move's distance (SwiftUI's).
    public static let defaultEpsilon = 0.001

    /// Core Animation's default spring: mass 1, stiffness 100, damping 10.
    public static let coreAnimationDefault = Spring(unchecked: 1, 100, 10)

    /// Creates a spring from its physical parameters.
    ///
    /// - Parameters:
    ///   - mass: > 0.
    ///   - stiffness: > 0.
    ///   - damping: ≥ 0 (0 never settles).
    /// - Throws: ``ParameterError`` naming the value when a parameter is non-finite or out
    ///   of range.
    public init(mass: Double, stiffness: Double, damping: Double) throws {
        try ParameterError.requirePositive(mass, "mass")
        try ParameterError.requirePositive(stiffness, "stiffness")
        try ParameterError.requireNonNegative(damping, "damping")
        try Self.requireRepresentableRates(mass: mass, stiffness: stiffness, damping: damping)
        self.init(unchecked: mass, stiffness, damping)
    }

    /// The decay and oscillation rates must be representable: ω0² = k/m in
    /// [1e-300, 1e300] and α = c/2m at most 1e150 (so that α² and ω0² − α² are finite).
    /// Beyond that the motion is not computable in double precision (a mass of 1e-310 or a
    /// stiffness/mass of 1e600), so such a spring is rejected rather than returning NaN.
    static func requireRepresentableRates(mass: Double, stiffness: Double, damping: Double) throws(ParameterError) {
        let omega0Squared = stiffness / mass
        guard omega0Squared >= 1e-300 && omega0Squared <= 1e300 else {
            throw .outOfRange(parameter: "stiffness / mass", value: omega0Squared, expected: "[1e-300, 1e300]")
        }
        let alpha = damping / mass / 2  // not / (2 · mass), which overflows above 9e307
        guard alpha <= 1e150 else {
            throw .outOfRange(parameter: "damping / (2·mass)", value: alpha, expected: "[0, 1e150]")
        }
    }

    /// Creates a unit-mass spring from SwiftUI's damping ratio and response.
    ///
    /// stiffness = (2π / response)², damping = 4π·ζ / response.
    /// - Parameters:
    ///   - dampingRatio: ζ ≥ 0; 1 is critical damping, below 1 bounces.
    ///   - response: the period of the undamped oscillation, seconds, > 0.
    public init(dampingRatio: Double, response: Double) throws {
        try ParameterError.requireNonNegative(dampingRatio, "dampingRatio")
        try ParameterError.requirePositive(response, "response")
        let omega = 2 * Double.pi / response
        let stiffness = omega * omega
        let damping = 4 * Double.pi * dampingRatio / response
        guard stiffness.isFinite, stiffness > 0 else {
            throw ParameterError.outOfRange(parameter: "response", value: response, expected: "a value giving a finite stiffness")
        }
        guard damping.isFinite else {
            throw ParameterError.outOfRange(parameter: "dampingRatio", value: dampingRatio, expected: "a value giving a finite damping")
        }
        try Self.requireRepresentableRates(mass: 1, stiffness: stiffness, damping: damping)
        self.init(unchecked: 1, stiffness, damping)
    }

    /// Creates a unit-mass spring from SwiftUI's perceptual duration and bounce.
    ///
    /// bounce ≥ 0 gives ζ = 1 − bounce; bounce < 0 gives ζ = 1 / (1 + bounce).
    /// `Spring(duration: 0.5, bounce: 0.3)` has stiffness 157.9 and damping 17.6.
    /// - Parameters:
    ///   - duration: seconds, > 0 (equal to ``response``).
    ///   - bounce: in (−1, 1); 0 is critically damped, positive bounces, negative is
    ///     overdamped.
    public init(duration: Double, bounce: Double) throws {
        try ParameterError.requirePositive(duration, "duration")
        try ParameterError.requireFinite(bounce, "bounce")
        guard bounce > -1 && bounce < 1 else {
            throw ParameterError.outOfRange(parameter: "bounce", value: bounce, expected: "(-1, 1)")
        }
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        try self.init(dampingRatio: ratio, response: duration)
    }

    /// Creates the unit-mass spring with damping ratio `dampingRatio` that settles, from
    /// rest, within `epsilon` of its target after exactly `settlingDuration` seconds (as
    /// ``settlingDuration(initialVelocity:epsilon:)`` defines settling).
    ///
    /// - Parameters:
    ///   - settlingDuration: seconds, > 0.
    ///   - dampingRatio: ζ > 0 (an undamped spring never settles).
    ///   - epsilon: the settling threshold as a fraction of the move, in (0, 1).
    public init(settlingDuration: Double, dampingRatio: Double, epsilon: Double = Spring.defaultEpsilon) throws {
        try ParameterError.requirePositive(settlingDuration, "settlingDuration")
        try ParameterError.requirePositive(dampingRatio, "dampingRatio")
        try ParameterError.requirePositive(epsilon, "epsilon")
        guard epsilon < 1 else {
            throw ParameterError.outOfRange(parameter: "epsilon", value: epsilon, expected: "(0, 1)")
        }
        // Settling time scales as 1/ω0 for a fixed ζ: solve once with ω0 = 1 (or, where ζ
        // would put that spring's damping rate ζ·ω0 past the rates' bound of 1e150, with
        // ω0 = 1/√ζ, whose rates ω0² ≥ 1e-300 and ζ·ω0 = √ζ are both in range) and scale to 1.
        let probe = dampingRatio > 1e150 ? 1 / dampingRatio.squareRoot() : 1
        let unit = Spring(unchecked: 1, probe * probe, 2 * dampingRatio * probe)
        let tau = unit.settlingDuration(initialVelocity: 0, epsilon: epsilon) * probe
        guard tau.isFinite, tau > 0 else {
            throw ParameterError.outOfRange(parameter: "dampingRatio", value: dampingRatio,
                                            expected: "the ratios whose settling time is finite")
        }
        let omega = tau / settlingDuration
        let stiffness = omega * omega
        let damping = 2 * dampingRatio * omega
        guard (try? Self.requireRepresentableRates(mass: 1, stiffness: stiffness, damping: damping)) != nil else {
            // The rates scale as 1/settlingDuration: name the durations that keep them within
            // requireRepresentableRates' bounds for this ratio (ω² in [1e-300, 1e300],
            // ζ·ω ≤ 1e150).
            let shortest = tau * (Swift.max(1, dampingRatio) * 1e-150)
            let longest = Swift.min(tau * 1e150, .greatestFiniteMagnitude)
            guard shortest <= longest else {
                throw ParameterError.outOfRange(parameter: "dampingRatio", value: dampingRatio,
                                                expected: "the ratios for which some settling duration gives rates within the range of Double")
            }
            throw ParameterError.outOfRange(parameter: "settlingDuration", value: settlingDuration,
                                            expected: "[\(shortest), \(longest)] (for dampingRatio = \(dampingRatio))")
        }
        self.init(unchecked: 1, stiffness, damping)
    }

    init(unchecked mass: Double, _ stiffness: Double, _ damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.modes = SpringModes(mass: mass, stiffness: stiffness, damping: damping)
    }

    /// ζ = c / (2·√(k·m)): 1 is critical, below 1 bounces, above 1 is overdamped.
    ///
    /// Where k·m underflows or overflows it is taken as √k·√m, so the ratio is finite
    /// whenever its true value is within the range of `Double` (+infinity beyond, as for
    /// damping 1e300 on mass and stiffness 1e-300; never NaN).
    public var dampingRatio: Double {
        let product = stiffness * mass
        if product.isNormal { return damping / (2 * product.squareRoot()) }
        // c / (2·√k·√m), dividing by the larger root first; if that quotient leaves the
        // normal range below (where the result itself may not), by the smaller one first.
        let (a, b) = (stiffness.squareRoot(), mass.squareRoot())
        let (large, small) = a >= b ? (a, b) : (b, a)
        let first = damping / (2 * large)
        return first.isNormal || first == 0 && damping == 0 || first.isInfinite
            ? first / small : damping / (2 * small) / large
    }

    /// The undamped period 2π·√(m/k), seconds (SwiftUI's `response`).
    ///
    /// Where m/k underflows or overflows it is taken as √m/√k, so the period is finite
    /// whenever its true value is within the range of `Double` (+infinity beyond, as for
    /// mass 1e300 on stiffness 1e-300).
    public var response: Double {
        let ratio = mass / stiffness
        return 2 * Double.pi * (ratio.isNormal ? ratio.squareRoot() : mass.squareRoot() / stiffness.squareRoot())
    }

    /// SwiftUI's perceptual duration, seconds: the same as ``response``.
    public var duration: Double { response }

    /// SwiftUI's bounce: 1 − ζ for ζ ≤ 1, 1/ζ − 1 for ζ > 1; in (−1, 1] (it rounds to −1
    /// for ζ above 2^53).
    public var bounce: Double {
        let zeta = dampingRatio
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    public var description: String { "Spring(mass: \(mass), stiffness: \(stiffness), damping: \(damping))" }

    public static func == (a: Spring, b: Spring) -> Bool {
        a.mass == b.mass && a.stiffness == b.stiffness && a.damping == b.damping
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mass)
        hasher.combine(stiffness)
        hasher.combine(damping)
    }
}

extension Spring {
    /// The position of a unit move from 0 to 1 at `time` seconds.
    ///
    /// - Parameters:
    ///   - time: seconds since the move started; times before 0 give 0, +infinity gives
    ///     the rest position 1 for every damped spring (an undamped one has no limit: NaN).
    ///   - initialVelocity: the velocity at time 0 in units of the move's distance per
    ///     second (UIKit's normalised initial velocity).
    /// - Returns: the position as a fraction of the move (overshoots above 1 for bouncy
    ///   springs). Never NaN for finite input; ±infinity for finite input only where the
    ///   true position is beyond the range of `Double` (a huge `initialVelocity`, such as
    ///   1e308 on a soft spring): ``checkedValue(at:initialVelocity:)`` throws there instead.
    public func value(at time: Double, initialVelocity: Double = 0) -> Double {
        modes.position(at: time, initialVelocity: initialVelocity)
    }

    /// The velocity of a unit move from 0 to 1 at `time` seconds, in units of the move's
    /// distance per second. Times before 0 give `initialVelocity`, +infinity gives 0 for every
    /// damped spring. Never NaN for finite input; ±infinity for finite input only where the
    /// true velocity is beyond the range of `Double`: ``checkedVelocity(at:initialVelocity:)``
    /// throws there instead.
    public func velocity(at time: Double, initialVelocity: Double = 0) -> Double {
        modes.velocity(at: time, initialVelocity: initialVelocity)
    }

    /// ``value(at:initialVelocity:)`` of the spring stored at `spring`, read in place (no
    /// copy of the spring): KineticC's `kn_spring_value`. Inlinable, so that the C call is
    /// one function, not a call into a second one.
    @inlinable @inline(__always)
    package static func value(of spring: UnsafePointer<Spring>, at time: Double, initialVelocity: Double) -> Double {
        spring.pointee.modes.position(at: time, initialVelocity: initialVelocity)
    }

    /// ``velocity(at:initialVelocity:)`` of the spring stored at `spring`, read in place:
    /// KineticC's `kn_spring_velocity`. Inlinable, as ``value(of:at:initialVelocity:)``.
    @inlinable @inline(__always)
    package static func velocity(of spring: UnsafePointer<Spring>, at time: Double, initialVelocity: Double) -> Double {
        spring.pointee.modes.velocity(at: time, initialVelocity: initialVelocity)
    }

    /// ``value(at:initialVelocity:)``, with a typed error instead of ±infinity where the
    /// true position of finite input is beyond the range of `Double`.
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` naming
    ///   `initialVelocity` and its value.
    public func checkedValue(at time: Double, initialVelocity: Double = 0) throws(ParameterError) -> Double {
        try Self.representable(value(at: time, initialVelocity: initialVelocity), "position", time, initialVelocity)
    }

    /// ``velocity(at:initialVelocity:)``, with a typed error instead of ±infinity where the
    /// true velocity of finite input is beyond the range of `Double`.
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` naming
    ///   `initialVelocity` and its value.
    public func checkedVelocity(at time: Double, initialVelocity: Double = 0) throws(ParameterError) -> Double {
        try Self.representable(velocity(at: time, initialVelocity: initialVelocity), "velocity", time, initialVelocity)
    }

    /// `result`, or the error naming `initialVelocity` when a finite input gave ±infinity
    /// (`quantity` is what overflowed: "position" or "velocity"). It needs no spring, so
    /// KineticC's scalar calls keep nothing but their arguments for their slow path.
    package static func representable(_ result: Double, _ quantity: String, _ time: Double,
                                      _ initialVelocity: Double) throws(ParameterError) -> Double {
        if result.isInfinite && initialVelocity.isFinite && !time.isInfinite {
            throw .outOfRange(parameter: "initialVelocity", value: initialVelocity,
                              expected: "a velocity whose \(quantity) at t = \(time) s is within the range of Double")
        }
        return result
    }

    /// The exact transition matrix Φ(dt) that steps a (displacement, velocity) state of
    /// this spring forward by `dt` seconds.
    /// - Throws: ``ParameterError`` if `dt` is negative or not finite.
    public func transition(over dt: Double) throws -> SpringTransition {
        try ParameterError.requireNonNegative(dt, "dt")
        return SpringTransition(modes: modes, dt: dt)
    }
}
