#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KineticSIMD

/// The decay rates of a spring, in the form the exact solution needs.
///
/// α = c / 2m (decay), ω0² = k / m; underdamped: ωd = √(ω0² − α²);
/// overdamped: β = √(α² − ω0²), with the slow root r1 = −ω0² / (α + β) (no cancellation)
/// and the fast root r2 = −(α + β).
struct SpringModes: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case underdamped, critical, overdamped }
    let kind: Kind
    let alpha: Double
    let omega0Squared: Double
    /// ωd (underdamped) or β (overdamped); 0 when critical.
    let rate: Double
    /// 1/ωd (underdamped) or 1/(2β) (overdamped); 0 when critical.
    let inverseRate: Double
    /// The slow root r1 (overdamped only).
    let slowRoot: Double

    init(mass: Double, stiffness: Double, damping: Double) {
        let alpha = damping / (2 * mass)
        let w0sq = stiffness / mass
        let w0 = w0sq.squareRoot()
        self.alpha = alpha
        self.omega0Squared = w0sq
        // (ω0 − α)(ω0 + α) keeps relative accuracy as ζ → 1.
        let gap = (w0 - alpha) * (w0 + alpha)
        if gap > 0 {
            kind = .underdamped
            rate = gap.squareRoot()
            inverseRate = 1 / rate
            slowRoot = 0
        } else if gap < 0 {
            kind = .overdamped
            let beta = (-gap).squareRoot()
            rate = beta
            inverseRate = 1 / (2 * beta)
            slowRoot = -w0sq / (alpha + beta)
        } else {
            kind = .critical
            rate = 0
            inverseRate = 0
            slowRoot = -alpha
        }
    }

    /// The position of a unit move from 0 to 1 at `time` seconds (see `Spring.value(at:initialVelocity:)`).
    @inline(__always)
    func position(at time: Double, initialVelocity: Double) -> Double {
        if !(time > 0) { return time.isNaN ? time : 0 }
        let phi = entries(time)
        return 1 - phi.eA + phi.f * initialVelocity
    }

    /// The velocity of a unit move at `time` seconds (see `Spring.velocity(at:initialVelocity:)`).
    @inline(__always)
    func velocity(at time: Double, initialVelocity: Double) -> Double {
        if !(time > 0) { return time.isNaN ? time : initialVelocity }
        let phi = entries(time)
        return omega0Squared * phi.f + phi.eB * initialVelocity
    }

    /// The entries of Φ(t): E + αF, F and E − αF, where E = e^(−αt)·{cos ωd·t | 1 | cosh β·t}
    /// and F = e^(−αt)·{sin(ωd·t)/ωd | t | sinh(β·t)/β}; t ≥ 0.
    /// The overdamped case is written with the slow root and (for small β·t) `expm1`, so it
    /// neither overflows nor cancels.
    @inline(__always)
    func entries(_ t: Double) -> (eA: Double, f: Double, eB: Double) {
        let a = alpha
        switch kind {
        case .underdamped:
            let decay = exp(-a * t)
            if decay == 0 { return (0, 0, 0) }  // settled beyond double range (t → ∞)
            let phase = rate * t
            // An undamped spring at a time where ωd·t overflows has no meaningful phase;
            // phase 0 keeps the result finite.
            let (s, c) = phase.isFinite ? sineCosine(phase) : (0, 1)
            let e = decay * c
            let f = decay * (s * inverseRate)
            return (e + a * f, f, e - a * f)
        case .critical:
            let decay = exp(-a * t)
            // Settled beyond double range; at t = +∞ decay·t would be 0·∞ = NaN.
            if decay == 0 { return (0, 0, 0) }
            let f = decay * t
            return (decay + a * f, f, decay - a * f)
        case .overdamped:
            let r1 = slowRoot
            let slow = exp(r1 * t)
            // F = e^{r1 t}·(1 − e^{−2βt}) / (2β): expm1 where 1 − e^{−2βt} would cancel.
            let z = 2 * rate * t
            let g = z < 0.5 ? -expm1(-z) : 1 - exp(-z)
            let f = z == 0 ? slow * t : slow * (g * inverseRate)
            // E + αF = e^{r1 t} − r1·F ;  E − αF = e^{r1 t} + r2·F with r2 = −(α + β).
            return (slow - r1 * f, f, slow - (a + rate) * f)
        }
    }
}

/// A spring's (displacement, velocity) state; displacement is measured from the target.
public struct SpringState: Sendable, Hashable {
    /// Position minus target, in the move's units.
    public var displacement: Double
    /// Velocity, in the move's units per second.
    public var velocity: Double

    public init(displacement: Double, velocity: Double) {
        self.displacement = displacement
        self.velocity = velocity
    }
}

/// The exact one-step transition matrix Φ(dt) = exp(A·dt) of a spring:
/// (displacement, velocity)(t + dt) = Φ · (displacement, velocity)(t).
///
/// With E = e^(−α·dt)·{cos ωd·dt | 1 | cosh β·dt} and F = e^(−α·dt)·{sin(ωd·dt)/ωd | dt |
/// sinh(β·dt)/β}, Φ = [[E + αF, F], [−ω0²·F, E − αF]]. The overdamped case is written in
/// terms of the slow root and `expm1`, so it neither overflows nor cancels.
/// Stepping with Φ is exact up to rounding: 10,000 steps stay within 1e-12 of the closed form.
public struct SpringTransition: Sendable, Hashable {
    /// Row 1: d(displacement)/d(displacement), d(displacement)/d(velocity).
    public let m11, m12: Double
    /// Row 2: d(velocity)/d(displacement), d(velocity)/d(velocity).
    public let m21, m22: Double
    /// The time step, seconds.
    public let dt: Double

    init(modes: SpringModes, dt: Double) {
        self.dt = dt
        let phi = modes.entries(dt)
        m11 = phi.eA
        m12 = phi.f
        m21 = -modes.omega0Squared * phi.f
        m22 = phi.eB
    }

    /// The state after one step of `dt`.
    @inlinable
    public func applied(to state: SpringState) -> SpringState {
        SpringState(displacement: m11 * state.displacement + m12 * state.velocity,
                    velocity: m21 * state.displacement + m22 * state.velocity)
    }

    /// Steps N springs that share this Φ, in place. The buffers hold the displacements
    /// (position − target) and velocities (units per second), structure of arrays.
    ///
    /// The loop is KineticSIMD's: 256-bit AVX2 vectors where the processor has them (checked
    /// at run time), 128-bit otherwise; every lane gets ``applied(to:)``'s result bit for bit.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` when the
    ///   buffers differ in length, ``ParameterError/outOfRange(parameter:value:expected:)``
    ///   (`velocities`, its offset from `displacements` in elements) when they overlap;
    ///   nothing is changed then.
    public func step(displacements: UnsafeMutableBufferPointer<Double>, velocities: UnsafeMutableBufferPointer<Double>) throws {
        let n = displacements.count
        guard n == velocities.count else {
            throw ParameterError.countMismatch(parameter: "velocities", expected: n, actual: velocities.count)
        }
        guard n > 0, let x = displacements.baseAddress, let v = velocities.baseAddress else { return }
        let offset = x.distance(to: v)
        guard offset.magnitude >= UInt(n) else {
            throw ParameterError.outOfRange(parameter: "velocities", value: Double(offset),
                                            expected: "an offset from displacements of at least \(n) elements either way (no overlap)")
        }
        step(x, v, n)
    }

    /// The step over `n` lanes of two buffers that do not overlap: KineticSIMD's widest loop.
    @inline(__always)
    func step(_ x: UnsafeMutablePointer<Double>, _ v: UnsafeMutablePointer<Double>, _ n: Int) {
        kinetic_simd_spring_step(Self.simdPath, x, v, n, m11, m12, m21, m22)
    }

    /// KineticSIMD's widest path on this processor, read once.
    static let simdPath = kinetic_simd_best_path()
}
