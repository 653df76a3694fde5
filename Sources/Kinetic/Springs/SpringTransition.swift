import KineticPlatform
import KineticSIMD

/// The decay rates of a spring, in the form the exact solution needs.
///
/// α = c / 2m (decay), ω0² = k / m; underdamped: ωd = √(ω0² − α²);
/// overdamped: β = √(α² − ω0²), with the slow root r1 = −ω0² / (α + β) (no cancellation)
/// and the fast root r2 = −(α + β).
@usableFromInline
struct SpringModes: Sendable, Hashable {
    @usableFromInline enum Kind: Sendable, Hashable { case underdamped, critical, overdamped }
    @usableFromInline let kind: Kind
    @usableFromInline let alpha: Double
    @usableFromInline let omega0Squared: Double
    /// ωd (underdamped) or β (overdamped); 0 when critical.
    @usableFromInline let rate: Double
    /// 1/ωd (underdamped) or 1/(2β) (overdamped); 0 when critical.
    @usableFromInline let inverseRate: Double
    /// The slow root r1 (overdamped only).
    @usableFromInline let slowRoot: Double

    init(mass: Double, stiffness: Double, damping: Double) {
        let alpha = damping / mass / 2  // not / (2 · mass), which overflows above 9e307
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
    @inlinable @inline(__always)
    func position(at time: Double, initialVelocity: Double) -> Double {
        if !(time > 0) { return time.isNaN ? time : 0 }
        let phi = entries(time)
        return 1 - phi.eA + phi.f * initialVelocity
    }

    /// The velocity of a unit move at `time` seconds (see `Spring.velocity(at:initialVelocity:)`).
    @inlinable @inline(__always)
    func velocity(at time: Double, initialVelocity: Double) -> Double {
        if !(time > 0) { return time.isNaN ? time : initialVelocity }
        let phi = entries(time)
        return omega0Squared * phi.f + phi.eB * initialVelocity
    }

    /// The entries of Φ(t): E + αF, F and E − αF, where E = e^(−αt)·{cos ωd·t | 1 | cosh β·t}
    /// and F = e^(−αt)·{sin(ωd·t)/ωd | t | sinh(β·t)/β}; t ≥ 0.
    /// The overdamped case is written with the slow root and (for small β·t) `expm1`, so it
    /// neither overflows nor cancels.
    @inlinable @inline(__always)
    func entries(_ t: Double) -> (eA: Double, f: Double, eB: Double) {
        let a = alpha
        // A damped spring is at rest at t = +infinity (its rates may be so small that they
        // round to 0, or meet t as 0 · infinity = NaN, below).
        if t == .infinity && a > 0 { return (0, 0, 0) }
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
    ///
    /// Finite in, finite out wherever the true next state is within the range of `Double`:
    /// a product that overflows on its own (a displacement or velocity near ±1e308) is
    /// recomputed in a scaled form, so only a displacement or velocity whose true value is
    /// beyond ±1.8e308 comes out as ±infinity. ``checkedApplied(to:)`` throws there instead.
    @inlinable
    public func applied(to state: SpringState) -> SpringState {
        let x = m11 * state.displacement + m12 * state.velocity
        let v = m21 * state.displacement + m22 * state.velocity
        if (x - x) == 0 && (v - v) == 0 { return SpringState(displacement: x, velocity: v) }  // both finite
        return SpringState(displacement: Self.representableSum(m11, state.displacement, m12, state.velocity),
                           velocity: Self.representableSum(m21, state.displacement, m22, state.velocity))
    }

    /// ``applied(to:)``, with a typed error instead of ±infinity.
    /// - Throws: ``BatchStoreError/overflow(lane:quantity:)`` (lane 0) naming the
    ///   displacement or velocity whose true value after the step is beyond the range of
    ///   `Double`.
    public func checkedApplied(to state: SpringState) throws(BatchStoreError) -> SpringState {
        let next = applied(to: state)
        if !next.displacement.isFinite { throw .overflow(lane: 0, quantity: "displacement") }
        if !next.velocity.isFinite { throw .overflow(lane: 0, quantity: "velocity") }
        return next
    }

    /// a·x + b·y for finite operands, without intermediate overflow: computed directly, and,
    /// when that is not finite, again with x and y scaled by a power of two (exact) so that
    /// neither product overflows, then scaled back. ±infinity only when the true sum is beyond
    /// the range of `Double`. Bit for bit the direct result whenever that is finite.
    @usableFromInline
    static func representableSum(_ a: Double, _ x: Double, _ b: Double, _ y: Double) -> Double {
        let direct = a * x + b * y
        if direct.isFinite || !(a.isFinite && x.isFinite && b.isFinite && y.isFinite) { return direct }
        // The binary exponents of the two products (a zero factor contributes nothing).
        func exponent(_ p: Double, _ q: Double) -> Int { p == 0 || q == 0 ? Int.min / 2 : p.exponent + q.exponent }
        let e = max(exponent(a, x), exponent(b, y))
        // Each scaled product is below 2^(e - k + 2) = 2^1020: their sum cannot overflow.
        let k = max(0, e - 1018)
        let down = Double(sign: .plus, exponent: -k, significand: 1)
        // The factor with the larger exponent takes the scale, so that neither underflows.
        func scaled(_ p: Double, _ q: Double) -> Double { p.exponent >= q.exponent ? (p * down) * q : p * (q * down) }
        return (scaled(a, x) + scaled(b, y)) * Double(sign: .plus, exponent: k, significand: 1)
    }

    /// Steps N springs that share this Φ, in place. The buffers hold the displacements
    /// (position − target) and velocities (units per second), structure of arrays.
    ///
    /// The loop is KineticSIMD's: 256-bit AVX2 vectors where the processor has them (checked
    /// at run time), 128-bit otherwise; every lane gets ``applied(to:)``'s result bit for bit.
    ///
    /// Finite in, finite out: a read-only pass first takes the largest displacement and
    /// velocity, which bound every product of the step; when the bound is within the range of
    /// `Double` (|Φ| times the largest state below about 1.8e308) the vector loop runs. Otherwise
    /// each lane is stepped as ``applied(to:)`` does, without intermediate overflow, and a
    /// lane whose true next state is beyond ±1.8e308 is an error.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` when the
    ///   buffers differ in length, ``ParameterError/outOfRange(parameter:value:expected:)``
    ///   (`velocities`, its offset from `displacements` in elements) when they overlap;
    ///   ``BatchStoreError/overflow(lane:quantity:)`` naming the first lane (and
    ///   "displacement" or "velocity") whose next state is beyond the range of `Double`;
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
        var bx = 0.0, bv = 0.0
        kinetic_simd_max_magnitudes(Self.simdPath, x, v, n, &bx, &bv)
        if bounds(afterStepFrom: bx, bv) != nil {
            step(x, v, n)
        } else {
            try stepRepresentable(x, v, n)
        }
    }

    /// Upper bounds on |displacement| and |velocity| after one step from any state with
    /// |displacement| ≤ `bx` and |velocity| ≤ `bv` (with a margin for the rounding of the two
    /// products and the sum), or nil when one of them is not within the range of `Double`:
    /// then the vector loop could overflow and ``stepRepresentable(_:_:_:)`` must run.
    @inline(__always)
    func bounds(afterStepFrom bx: Double, _ bv: Double) -> (x: Double, v: Double)? {
        let margin = 1 + 0x1p-48
        let x = (m11.magnitude * bx + m12.magnitude * bv) * margin
        let v = (m21.magnitude * bx + m22.magnitude * bv) * margin
        guard x <= .greatestFiniteMagnitude && v <= .greatestFiniteMagnitude else { return nil }
        return (x, v)
    }

    /// The first lane whose next state (as ``applied(to:)`` computes it: no intermediate
    /// overflow) is beyond the range of `Double` although its state is finite, or nil.
    func firstOverflow(_ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>, _ n: Int) -> BatchStoreError? {
        for i in 0 ..< n where x[i].isFinite && v[i].isFinite {
            let next = applied(to: SpringState(displacement: x[i], velocity: v[i]))
            if !next.displacement.isFinite { return .overflow(lane: i, quantity: "displacement") }
            if !next.velocity.isFinite { return .overflow(lane: i, quantity: "velocity") }
        }
        return nil
    }

    /// The step lane by lane through ``applied(to:)`` (the slow path, for states so large that
    /// the vector loop's products could overflow). Checks every lane first.
    /// - Throws: ``BatchStoreError/overflow(lane:quantity:)`` for the first lane whose true
    ///   next state is beyond the range of `Double`; nothing is changed then.
    func stepRepresentable(_ x: UnsafeMutablePointer<Double>, _ v: UnsafeMutablePointer<Double>, _ n: Int) throws(BatchStoreError) {
        if let error = firstOverflow(x, v, n) { throw error }
        for i in 0 ..< n {
            let next = applied(to: SpringState(displacement: x[i], velocity: v[i]))
            x[i] = next.displacement
            v[i] = next.velocity
        }
    }

    /// The step over `n` lanes of two buffers that do not overlap: KineticSIMD's widest loop.
    /// No overflow check: the caller has bounded the state (``bounds(afterStepFrom:_:)``).
    @inline(__always)
    func step(_ x: UnsafeMutablePointer<Double>, _ v: UnsafeMutablePointer<Double>, _ n: Int) {
        kinetic_simd_spring_step(Self.simdPath, x, v, n, m11, m12, m21, m22)
    }

    /// KineticSIMD's widest path on this processor, read once.
    static let simdPath = kinetic_simd_best_path()
}
