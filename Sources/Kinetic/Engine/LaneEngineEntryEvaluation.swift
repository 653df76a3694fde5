extension LaneEngine {
    /// Advances every spring entry by `dt` seconds (exactly, through its cached Φ(dt)), then
    /// evaluates every lane (`evaluateEntries(backend:)`). Progress of groups, lanes and keyframe
    /// entries is whatever was last set: the host's timing drives those.
    ///
    /// Finite in, finite out: before anything moves, every spring entry's step and every value
    /// the tick would write are checked (a few scalar operations per entry while the states
    /// are bounded; see `SpringGroup`), so a state near ±1e308 whose next displacement,
    /// velocity or value (target + displacement) is beyond the range of `Double` leaves the
    /// whole store as it was and throws.
    /// - Parameters:
    ///   - dt: the frame step, seconds, finite and ≥ 0.
    ///   - backend: implementation for every kernel; `.automatic` picks by measured speed.
    /// - Throws: `ParameterError` if `dt` is negative or not finite; nothing changes then.
    ///   `BackendError/unavailable(_:)` when `backend` is `.blas` in a build without BLAS.
    ///   `BatchStoreError/overflow(lane:quantity:)` naming the output lane (as
    ///   `entryRange(of:)` counts) and the quantity ("displacement", "velocity" or "value")
    ///   that would be beyond the range of `Double`; nothing changes then.
    package func tickEntries(over dt: Double, backend: Backend = .automatic) throws {
        try ParameterError.requireNonNegative(dt, "dt")
        let base = entrySpringBase
        for e in springEntries.entries {
            let group = e.payload.group
            let bound = try Self.inStore(base + e.offset) { try group.checkStep(over: dt) }
            try checkSpringValues(e, base: base, displacementBound: bound) { lane in
                try group.displacementAfterStep(over: dt, lane: lane)
            }
        }
        try checkEntryInterpolations()
        try checkEntryKeyframes()
        try checkDecaySteps(over: dt)
        guard backend.isAvailable else { throw BackendError.unavailable(backend) }
        for entry in springEntries.entries {
            try entry.payload.group.step(over: dt, backend: backend)
        }
        // Every value was checked above (the springs' and decays' after their step): step the
        // decays (their positions are their output values), then write the rest.
        stepDecays(over: dt)
        try writeEntryValues(backend: backend)
    }

    /// Checks that every decay lane's next position, x + v·(1 − e^(−λ·dt))/λ, is within the
    /// range of `Double` (at once per entry from its bounds; lane by lane past them).
    func checkDecaySteps(over dt: Double) throws {
        let base = sectionBase(.decays)
        for e in decayEntries.entries {
            let c1 = Self.decayOffsetFactor(e.payload.decay, dt)
            if Self.fits(e.payload.positionBound, c1, e.payload.velocityBound) { continue }
            for i in e.offset ..< e.offset + e.count where !(entryOutput[base + i] + decayVelocities[i] * c1).isFinite {
                throw BatchStoreError.overflow(lane: base + i, quantity: "value")
            }
        }
    }

    /// (1 − e^(−λ·dt)) / λ: the offset a unit velocity makes over `dt`.
    @inline(__always)
    static func decayOffsetFactor(_ decay: ExponentialDecay, _ dt: Double) -> Double {
        decay.offset(at: dt, initialVelocity: 1)
    }

    /// Steps every decay lane exactly over `dt` (x += v·c₁, v ×= c₂, the closed form's
    /// coefficients). A decay lane's position is its output value, stepped in place.
    func stepDecays(over dt: Double) {
        guard !decayEntries.entries.isEmpty else { return }
        let base = sectionBase(.decays)
        decayVelocities.withUnsafeMutableBufferPointer { v in
            entryOutput.withUnsafeMutableBufferPointer { out in
                for k in decayEntries.entries.indices where decayEntries.entries[k].count > 0 {
                    let e = decayEntries.entries[k]
                    let c1 = Self.decayOffsetFactor(e.payload.decay, dt)
                    let c2 = e.payload.decay.velocity(at: dt, initialVelocity: 1)
                    Self.stepDecayLanes(out.baseAddress! + base + e.offset, v.baseAddress! + e.offset, e.count, c1, c2)
                    // Bounds stay bounds: |x| grows by at most max|v|·c₁, |v| shrinks by c₂.
                    decayEntries.entries[k].payload.positionBound += e.payload.velocityBound * c1
                    decayEntries.entries[k].payload.velocityBound *= c2
                }
            }
        }
    }

    /// x += v·c₁, v ×= c₂ over `n` lanes (buffers that do not overlap): two reads and two
    /// writes per lane, the whole of a decay lane's step.
    @inline(__always)
    static func stepDecayLanes(_ x: UnsafeMutablePointer<Double>, _ v: UnsafeMutablePointer<Double>, _ n: Int,
                               _ c1: Double, _ c2: Double) {
        for i in 0 ..< n {
            let vi = v[i]
            x[i] += vi * c1
            v[i] = vi * c2
        }
    }

    /// Writes every lane's current value into the output array (see `withEntryValues(_:)`).
    /// Allocates nothing.
    ///
    /// Every value is checked to be within the range of `Double` before anything is written
    /// (a few scalar operations per entry from bounds kept per entry; lane by lane only past
    /// them, see `KeyframeBatch` and `SpringGroup`).
    /// - Parameter backend: implementation for every kernel; `.automatic` picks by measured speed.
    /// - Throws: `BackendError/unavailable(_:)` when `backend` is `.blas` in a build without BLAS.
    ///   `BatchStoreError/overflow(lane:quantity:)` naming the output lane whose value would
    ///   be beyond the range of `Double`; nothing is written then.
    package func evaluateEntries(backend: Backend = .automatic) throws {
        guard backend.isAvailable else { throw BackendError.unavailable(backend) }
        try checkEntryInterpolations()
        try checkEntryKeyframes()
        let base = entrySpringBase
        for e in springEntries.entries {
            let group = e.payload.group
            try checkSpringValues(e, base: base, displacementBound: group.displacementBound()) { lane in
                group.displacement(at: lane)
            }
        }
        try writeEntryValues(backend: backend)
    }

    /// Writes every lane's value, once `tickEntries(over:backend:)` or `evaluateEntries(backend:)` has
    /// checked that each is within the range of `Double`.
    private func writeEntryValues(backend: Backend) throws {
        guard backend.isAvailable else { throw BackendError.unavailable(backend) }
        let g = groupEntries.laneCount, l = laneEntries.laneCount, k = keyframeEntries.laneCount
        try entryOutput.withUnsafeMutableBufferPointer { out in
            guard let o = out.baseAddress else { return }
            // Groups: one fused pass per group at its own progress.
            try groupFrom.withUnsafeBufferPointer { from in
                try groupDelta.withUnsafeBufferPointer { delta in
                    for e in groupEntries.entries where e.count > 0 {
                        try Batch.interpolate(
                            from: UnsafeBufferPointer(rebasing: from[e.offset ..< e.offset + e.count]),
                            delta: UnsafeBufferPointer(rebasing: delta[e.offset ..< e.offset + e.count]),
                            progress: e.payload.progress,
                            into: UnsafeMutableBufferPointer(start: o + e.offset, count: e.count),
                            backend: backend)
                    }
                }
            }
            // Per-lane entries: one pass over the whole section.
            if l > 0 {
                try laneFrom.withUnsafeBufferPointer { from in
                    try laneDelta.withUnsafeBufferPointer { delta in
                        try laneProgress.withUnsafeBufferPointer { progress in
                            try Batch.interpolate(from: from, delta: delta, progress: progress,
                                                  into: UnsafeMutableBufferPointer(start: o + g, count: l),
                                                  backend: backend)
                        }
                    }
                }
            }
            // Keyframe entries: one shared basis per entry.
            for e in keyframeEntries.entries {
                try e.payload.batch.evaluate(at: e.payload.progress,
                                             into: UnsafeMutableBufferPointer(start: o + g + l + e.offset, count: e.count),
                                             backend: backend)
            }
            // Decays: their output values are their positions (stepped in place by a tick).
            // Springs: value = target + 1 · displacement.
            try springTargets.withUnsafeBufferPointer { targets in
                for e in springEntries.entries where e.count > 0 {
                    try e.payload.group.withDisplacements { x in
                        try Batch.interpolate(
                            from: UnsafeBufferPointer(rebasing: targets[e.offset ..< e.offset + e.count]),
                            delta: x, progress: 1,
                            into: UnsafeMutableBufferPointer(start: o + g + l + k + e.offset, count: e.count),
                            backend: backend)
                    }
                }
            }
        }
    }

    // MARK: Range checks

    /// The output index of the springs section's first lane.
    var entrySpringBase: Int { groupEntries.laneCount + laneEntries.laneCount + keyframeEntries.laneCount }

    /// Runs `body`, reporting an overflow's lane (counted within an entry) as the output lane.
    static func inStore<R>(_ offset: Int, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch BatchStoreError.overflow(let lane, let quantity) {
            throw BatchStoreError.overflow(lane: offset + lane, quantity: quantity)
        }
    }

    /// Checks every group's and lanes entry's values `from + progress · delta`: at once per
    /// entry when max|from| + max|progress| · max|delta| is within the range of `Double`
    /// (always, below about 1e300), else lane by lane.
    func checkEntryInterpolations() throws {
        for e in groupEntries.entries {
            let p = e.payload
            if Self.fits(p.fromBound, p.progress.magnitude, p.deltaBound) { continue }
            for i in e.offset ..< e.offset + e.count where !(groupFrom[i] + p.progress * groupDelta[i]).isFinite {
                throw BatchStoreError.overflow(lane: i, quantity: "value")
            }
        }
        let base = groupEntries.laneCount
        for e in laneEntries.entries {
            let p = e.payload
            if Self.fits(p.fromBound, p.progressBound, p.deltaBound) { continue }
            for i in e.offset ..< e.offset + e.count where !(laneFrom[i] + laneProgress[i] * laneDelta[i]).isFinite {
                throw BatchStoreError.overflow(lane: base + i, quantity: "value")
            }
        }
    }

    /// Whether a + p·d (every term a bound on magnitudes) is surely within the range of
    /// `Double`, with a margin for rounding.
    @inline(__always)
    static func fits(_ a: Double, _ p: Double, _ d: Double) -> Bool {
        (a + p * d) * (1 + 0x1p-48) <= .greatestFiniteMagnitude
    }

    /// Checks every keyframe entry's values at its progress (scalar unless a bound fails).
    func checkEntryKeyframes() throws {
        let base = groupEntries.laneCount + laneEntries.laneCount
        for e in keyframeEntries.entries {
            try Self.inStore(base + e.offset) { try e.payload.batch.checkRepresentable(at: e.payload.progress) }
        }
    }

    /// Checks that target + displacement stays within the range of `Double` for every lane of
    /// a spring entry: at once when the largest |target| plus `displacementBound` does, else
    /// lane by lane with `displacement(lane)`.
    func checkSpringValues(_ e: StoreEntry<(group: SpringGroup, targetBound: Double)>, base: Int,
                           displacementBound: Double, displacement: (Int) throws -> Double) throws {
        if (e.payload.targetBound + displacementBound) * (1 + 0x1p-48) <= .greatestFiniteMagnitude { return }
        for lane in 0 ..< e.count {
            let value = springTargets[e.offset + lane] + (try displacement(lane))
            if !value.isFinite {
                throw BatchStoreError.overflow(lane: base + e.offset + lane, quantity: "value")
            }
        }
    }
}
