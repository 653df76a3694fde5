import KineticSIMD

/// N springs that share one set of parameters, stepped exactly by their transition matrix.
///
/// The group owns its state as a 2 × N matrix (row 0: displacements, row 1: velocities;
/// displacement = position − target, in the move's units; velocity in units per second).
/// Each row starts on a 64-byte boundary (the second row after padding to a multiple of 8
/// doubles): the 256-bit step loses most of its speed on rows only 16-byte aligned.
/// ``step(over:backend:parallel:)`` advances every spring by `dt` seconds with
/// Φ(dt) = exp(A·dt) from ``Spring/transition(over:)``: state ← Φ · state, a 2×2 · 2×N
/// product. No transcendental function is evaluated per spring, and Φ itself is cached per
/// distinct `dt` (a small cache keyed by the bit pattern of `dt`; a fixed frame rate hits it
/// every frame).
///
/// Native: one fused in-place pass over both rows (KineticSIMD's loop: 256-bit AVX2 where
/// the processor has it, chosen at run time, else 128-bit; the same bits either way).
/// BLAS: one `dgemm` (M = 2, K = 2, N lanes) into a second 2 × N buffer, after which the two
/// buffers swap roles (so the storage that ``withState(_:)`` hands out can move between calls).
///
/// Finite in, finite out: the group keeps upper bounds on its largest displacement and
/// velocity, carried from step to step through |Φ| (a few scalar operations per step; they
/// are measured again by a read-only pass only when they have grown loose or the state was
/// set). While the bounds show that no product of the step can overflow (the entries
/// of Φ times the largest state below about 1.8e308) the vector loop runs unchanged; otherwise each spring is stepped
/// without intermediate overflow, and a spring whose true next state is beyond the range of
/// `Double` makes ``step(over:backend:parallel:)`` throw
/// ``BatchStoreError/overflow(lane:quantity:)`` before anything changes.
///
/// A `SpringGroup` is a mutable reference type and not thread-safe: use it from one thread
/// (or task) at a time. Memory is allocated in `init` (and, for the BLAS backend, once more at
/// the first BLAS step), never per step.
public final class SpringGroup {
    /// The parameters every spring of the group shares.
    public let spring: Spring
    /// The number of springs (lanes).
    public let count: Int

    /// Current state, 2 × count, row-major with row stride `stride`, 64-byte aligned.
    private var state: UnsafeMutablePointer<Double>
    /// The distance in doubles from the displacement row to the velocity row: `count`
    /// rounded up to a multiple of 8 (one cache line), at least 8.
    private let stride: Int
    /// The other buffer for BLAS steps (dgemm cannot write over its input); allocated lazily.
    private var spare: UnsafeMutablePointer<Double>?
    /// Upper bounds on the largest |displacement| and |velocity| (NaN lanes aside); nil when
    /// unknown (after the state was handed out or set), measured again before the next step.
    private var bounds: (x: Double, v: Double)? = (0, 0)

    /// The Φ cache: `cacheCapacity` entries, replaced round-robin.
    public static let cacheCapacity = 4
    private var cacheKeys: [UInt64]
    private var cacheValues: [SpringTransition?]
    private var cacheNext = 0
    /// How many times Φ was computed rather than taken from the cache: a diagnostic for
    /// checking that a frame loop hits the cache (one computation per distinct `dt`).
    public private(set) var transitionComputations = 0

    /// A group of `count` springs, all at rest at their targets (displacement 0, velocity 0).
    /// - Parameters:
    ///   - spring: the shared parameters.
    ///   - count: the number of springs, ≥ 0.
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` if `count` is
    ///   negative or above ``maximumCount``.
    public init(spring: Spring, count: Int) throws {
        guard count >= 0, count <= Self.maximumCount else {
            throw ParameterError.outOfRange(parameter: "count", value: Double(count), expected: "[0, \(Self.maximumCount)]")
        }
        self.spring = spring
        self.count = count
        stride = max(8, (count + 7) & ~7)
        state = Self.allocateState(stride: stride)
        cacheKeys = Array(repeating: 0, count: Self.cacheCapacity)
        cacheValues = Array(repeating: nil, count: Self.cacheCapacity)
    }

    /// A group with the given initial displacements and velocities (one lane per element).
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` if the arrays
    ///   differ in length.
    public convenience init(spring: Spring, displacements: [Double], velocities: [Double]) throws {
        try requireCount(velocities.count, displacements.count, "velocities")
        try self.init(spring: spring, count: displacements.count)
        let n = count
        for i in 0..<n {
            state[i] = displacements[i]
            state[stride + i] = velocities[i]
        }
        bounds = nil
    }

    deinit {
        UnsafeMutableRawPointer(state).deallocate()
        spare.map { UnsafeMutableRawPointer($0).deallocate() }
    }

    /// The most springs one group holds (2^40: 16 TiB of state, so the sizes cannot overflow;
    /// an allocation that large fails as any would).
    public static let maximumCount = 1 << 40

    /// A zeroed 2 × `stride` state buffer on a 64-byte boundary.
    private static func allocateState(stride: Int) -> UnsafeMutablePointer<Double> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 2 * stride * MemoryLayout<Double>.stride,
                                                   alignment: 64)
        return raw.initializeMemory(as: Double.self, repeating: 0, count: 2 * stride)
    }

    /// Gives `body` mutable access to the displacements (row 0) and velocities (row 1).
    /// The buffers are valid only inside `body`.
    public func withState<R>(_ body: (_ displacements: UnsafeMutableBufferPointer<Double>,
                                      _ velocities: UnsafeMutableBufferPointer<Double>) throws -> R) rethrows -> R {
        defer { bounds = nil }  // the body may have written any state
        return try body(UnsafeMutableBufferPointer(start: state, count: count),
                        UnsafeMutableBufferPointer(start: state + stride, count: count))
    }

    /// Read-only access to the displacements (for the store's output pass: keeps the bounds).
    func withDisplacements<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: state, count: count))
    }

    /// The displacement of spring `lane` (position − target). `lane` must be in `0..<count`.
    public func displacement(at lane: Int) -> Double {
        precondition(lane >= 0 && lane < count, "lane out of range")
        return state[lane]
    }

    /// The velocity of spring `lane`, units per second. `lane` must be in `0..<count`.
    public func velocity(at lane: Int) -> Double {
        precondition(lane >= 0 && lane < count, "lane out of range")
        return state[stride + lane]
    }

    /// Sets the state of spring `lane`. `lane` must be in `0..<count`.
    public func setState(_ newState: SpringState, at lane: Int) {
        precondition(lane >= 0 && lane < count, "lane out of range")
        state[lane] = newState.displacement
        state[stride + lane] = newState.velocity
        bounds = bounds.map { (max($0.x, newState.displacement.magnitude), max($0.v, newState.velocity.magnitude)) }
    }

    /// The largest |displacement| and |velocity| now, by a read-only pass (NaN lanes aside).
    private func measuredBounds() -> (x: Double, v: Double) {
        var bx = 0.0, bv = 0.0
        kinetic_simd_max_magnitudes(SpringTransition.simdPath, state, state + stride, count, &bx, &bv)
        return (bx, bv)
    }

    /// Upper bounds on the largest |displacement| and |velocity| after a step with `phi`, or
    /// nil when even the measured state's bounds leave the range of `Double` (the slow path
    /// must run). Measures the state when its bounds are unknown or have grown too loose.
    private func bounds(afterStepWith phi: SpringTransition) -> (x: Double, v: Double)? {
        if let b = bounds, let next = phi.bounds(afterStepFrom: b.x, b.v) { return next }
        let measured = measuredBounds()
        bounds = measured
        return phi.bounds(afterStepFrom: measured.x, measured.v)
    }

    /// Checks that a step of `dt` is representable and returns an upper bound on the largest
    /// |displacement| after it (for a store's check of target + displacement). Changes no
    /// state.
    /// - Throws: ``ParameterError`` for a bad `dt`; ``BatchStoreError/overflow(lane:quantity:)``
    ///   (lane within the group) when a spring's true next state is beyond Double's range.
    func checkStep(over dt: Double) throws -> Double {
        let phi = try transition(over: dt)
        if let next = bounds(afterStepWith: phi) { return next.x }
        if let error = phi.firstOverflow(state, state + stride, count) { throw error }
        return .infinity  // representable, but no cheap bound: the store checks lane by lane
    }

    /// The displacement of `lane` after a step with Φ(`dt`), as the step computes it.
    func displacementAfterStep(over dt: Double, lane: Int) throws -> Double {
        try transition(over: dt).applied(to: SpringState(displacement: state[lane], velocity: state[stride + lane])).displacement
    }

    /// Moves the springs' targets from `old` to `new` (both `count` long): each displacement
    /// shifts by `old[i] − new[i]`, so position and velocity stay, and `new` is copied into
    /// `old`. The displacement bound, when known, grows by `shiftBound` (an upper bound on
    /// |old[i] − new[i]|), so it stays a bound without a measuring pass. The caller has checked
    /// that no shifted displacement is beyond the range of `Double`.
    func retarget(from old: UnsafeMutablePointer<Double>, to new: UnsafePointer<Double>, shiftBound: Double) {
        kinetic_simd_spring_retarget(SpringTransition.simdPath, state, old, new, count)
        if let b = bounds { bounds = (b.x + shiftBound, b.v) }
    }

    /// Whether some displacement shifted by `old[i] − new[i]` would be beyond the range of
    /// `Double`, and the first such lane.
    func firstOverflowingShift(from old: UnsafePointer<Double>, to new: UnsafePointer<Double>) -> Int? {
        (0 ..< count).first { !(state[$0] + (old[$0] - new[$0])).isFinite }
    }

    /// An upper bound on the largest |displacement| now (measured when unknown).
    func displacementBound() -> Double {
        if let b = bounds { return b.x }
        let measured = measuredBounds()
        bounds = measured
        return measured.x
    }

    /// Φ(dt) for this group's spring, from the cache when `dt` (bit for bit) was seen recently.
    /// - Parameter dt: the step, seconds, finite and ≥ 0.
    /// - Throws: ``ParameterError`` if `dt` is negative or not finite.
    public func transition(over dt: Double) throws -> SpringTransition {
        let key = dt.bitPattern
        for k in 0..<Self.cacheCapacity where cacheKeys[k] == key {
            if let phi = cacheValues[k] { return phi }
        }
        let phi = try spring.transition(over: dt)
        transitionComputations += 1
        cacheKeys[cacheNext] = key
        cacheValues[cacheNext] = phi
        cacheNext = (cacheNext + 1) % Self.cacheCapacity
        return phi
    }

    /// Advances every spring by `dt` seconds, exactly (state ← Φ(dt) · state).
    /// - Parameters:
    ///   - dt: the step, seconds, finite and ≥ 0.
    ///   - backend: implementation; `.automatic` picks by measured speed.
    ///   - parallel: split large groups over the machine's cores. Off by default.
    /// - Throws: ``ParameterError`` if `dt` is negative or not finite; nothing changes then.
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    ///   ``BatchStoreError/overflow(lane:quantity:)`` naming the first spring (and
    ///   "displacement" or "velocity") whose true state after the step is beyond the range
    ///   of `Double` (finite states near ±1e308); nothing changes then.
    public func step(over dt: Double, backend: Backend = .automatic, parallel: Bool = false) throws {
        let phi = try transition(over: dt)
        let n = count
        let resolved = try backend.resolved(.springStep, lanes: n)
        guard n > 0 else { return }
        guard let next = bounds(afterStepWith: phi) else {
            // States so large that a product of the step could overflow: lane by lane.
            try phi.stepRepresentable(state, state + stride, n)
            bounds = nil
            return
        }
        bounds = next
        if resolved == .blas {
            let target: UnsafeMutablePointer<Double>
            if let spare { target = spare } else {
                target = Self.allocateState(stride: stride)
                spare = target
            }
            let source = state
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 4) { m in
                let matrix = m.baseAddress!
                matrix[0] = phi.m11; matrix[1] = phi.m12
                matrix[2] = phi.m21; matrix[3] = phi.m22
                BatchParallel.run(count: n, parallel: parallel) { r in
                    let s = r.lowerBound
                    // C (2 × m, ldc = stride) = Φ (2 × 2) · B (2 × m, ldb = stride).
                    BLAS.matrixProduct(m: 2, n: r.count, k: 2, matrix, lda: 2, source + s, ldb: stride,
                                       target + s, ldc: stride)
                }
            }
            spare = state
            state = target
        } else {
            let x = state, v = state + stride
            BatchParallel.run(count: n, parallel: parallel) { r in
                phi.step(x + r.lowerBound, v + r.lowerBound, r.count)
            }
        }
    }
}
