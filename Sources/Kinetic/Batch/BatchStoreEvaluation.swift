extension BatchStore {
    /// Advances every spring entry by `dt` seconds (exactly, through its cached Φ(dt)), then
    /// evaluates every lane (``evaluate(backend:)``). Progress of groups, lanes and keyframe
    /// entries is whatever was last set: the host's timing drives those.
    /// - Parameters:
    ///   - dt: the frame step, seconds, finite and ≥ 0.
    ///   - backend: implementation for every kernel; `.automatic` picks by measured speed.
    /// - Throws: ``ParameterError`` if `dt` is negative or not finite; nothing changes then.
    ///   ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    public func tick(over dt: Double, backend: Backend = .automatic) throws {
        try ParameterError.requireNonNegative(dt, "dt")
        // An unavailable backend is refused by the first spring step, before it moves
        // anything, or by `evaluate`.
        for entry in springs.entries {
            try entry.payload.step(over: dt, backend: backend)
        }
        try evaluate(backend: backend)
    }

    /// Writes every lane's current value into the output array (see ``withValues(_:)``).
    /// Allocates nothing.
    /// - Parameter backend: implementation for every kernel; `.automatic` picks by measured speed.
    /// - Throws: ``BackendError/unavailable(_:)`` when `backend` is `.blas` in a build without BLAS.
    public func evaluate(backend: Backend = .automatic) throws {
        guard backend.isAvailable else { throw BackendError.unavailable(backend) }
        let g = groups.laneCount, l = lanes.laneCount, k = keyframes.laneCount
        try output.withUnsafeMutableBufferPointer { out in
            guard let o = out.baseAddress else { return }
            // Groups: one fused pass per group at its own progress.
            try groupFrom.withUnsafeBufferPointer { from in
                try groupDelta.withUnsafeBufferPointer { delta in
                    for e in groups.entries where e.count > 0 {
                        try Batch.interpolate(
                            from: UnsafeBufferPointer(rebasing: from[e.offset ..< e.offset + e.count]),
                            delta: UnsafeBufferPointer(rebasing: delta[e.offset ..< e.offset + e.count]),
                            progress: e.payload,
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
            for e in keyframes.entries {
                try e.payload.batch.evaluate(at: e.payload.progress,
                                             into: UnsafeMutableBufferPointer(start: o + g + l + e.offset, count: e.count),
                                             backend: backend)
            }
            // Springs: value = target + 1 · displacement.
            try springTargets.withUnsafeBufferPointer { targets in
                for e in springs.entries where e.count > 0 {
                    try e.payload.withState { x, _ in
                        try Batch.interpolate(
                            from: UnsafeBufferPointer(rebasing: targets[e.offset ..< e.offset + e.count]),
                            delta: UnsafeBufferPointer(x), progress: 1,
                            into: UnsafeMutableBufferPointer(start: o + g + l + k + e.offset, count: e.count),
                            backend: backend)
                    }
                }
            }
        }
    }
}
