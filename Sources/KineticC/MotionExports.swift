// kn_velocity_tracker_*, kn_decay_*, kn_spline_fling*, kn_rubber_band*, kn_snap: the Motion
// numerics (gesture velocity, deceleration, overscroll, snapping) for C.

import Kinetic

// MARK: Velocity tracking

@_cdecl("kn_velocity_tracker_create")
public func kn_velocity_tracker_create(_ strategy: Int32, _ laneCount: Int64,
                                       _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        let out = try required(out, "out")
        let strategies: [VelocityStrategy] = [.leastSquares, .impulse]
        guard strategy >= 0, Int(strategy) < strategies.count else {
            throw InterfaceError(status: .outOfRange, message: "strategy = \(strategy) is not a KN_VELOCITY_ value (0 or 1)")
        }
        guard (1 ... 64).contains(laneCount) else {
            throw integerOutOfRange("lane_count", laneCount, expected: "[1, 64]")
        }
        out.pointee = makeHandle(try VelocityTracker(strategy: strategies[Int(strategy)], laneCount: Int(laneCount)))
    }
}

@_cdecl("kn_velocity_tracker_destroy")
public func kn_velocity_tracker_destroy(_ tracker: OpaquePointer?) {
    destroyHandle(tracker, as: VelocityTracker.self)
}

@_cdecl("kn_velocity_tracker_add")
public func kn_velocity_tracker_add(_ tracker: OpaquePointer?, _ time: Double, _ lanes: UnsafePointer<Double>?) -> Int32 {
    guarded {
        let t = UnsafeMutablePointer<VelocityTracker>(try required(tracker, "tracker"))
        let values = try buffer(lanes, t.pointee.laneCount, "lanes")
        try t.pointee.add(time: time, lanes: values)
    }
}

@_cdecl("kn_velocity_tracker_velocity")
public func kn_velocity_tracker_velocity(_ tracker: OpaquePointer?, _ time: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let t = try value(tracker, as: VelocityTracker.self, "tracker")
        let o = try required(out, "out")
        for lane in 0 ..< t.laneCount { o[lane] = try t.velocity(at: time, lane: lane) }
    }
}

@_cdecl("kn_velocity_tracker_reset")
public func kn_velocity_tracker_reset(_ tracker: OpaquePointer?) -> Int32 {
    guarded { UnsafeMutablePointer<VelocityTracker>(try required(tracker, "tracker")).pointee.reset() }
}

// MARK: Decay

/// `kn_decay` is two doubles (decay_constant, velocity_threshold), read and written in order.
func readDecay(_ decay: UnsafePointer<Double>?) throws -> ExponentialDecay {
    let d = try required(decay, "decay")
    try ParameterError.requireFinite(d[0], "decay->decay_constant")
    try ParameterError.requireFinite(d[1], "decay->velocity_threshold")
    guard d[0] > 0 else { throw ParameterError.outOfRange(parameter: "decay->decay_constant", value: d[0], expected: "> 0") }
    guard d[1] >= 0 else {
        throw ParameterError.outOfRange(parameter: "decay->velocity_threshold", value: d[1], expected: ">= 0")
    }
    return try ExponentialDecay(decayConstant: d[0], velocityThreshold: d[1])
}

private func writeDecay(_ decay: ExponentialDecay, _ out: UnsafeMutablePointer<Double>?) throws {
    let o = try required(out, "out")
    o[0] = decay.decayConstant
    o[1] = decay.velocityThreshold
}

@_cdecl("kn_decay_from_rate")
public func kn_decay_from_rate(_ decelerationRate: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded { try writeDecay(try ExponentialDecay(decelerationRate: decelerationRate), out) }
}

@_cdecl("kn_decay_from_friction")
public func kn_decay_from_friction(_ frictionMultiplier: Double, _ absVelocityThreshold: Double,
                                   _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        try writeDecay(try ExponentialDecay(frictionMultiplier: frictionMultiplier, absVelocityThreshold: absVelocityThreshold), out)
    }
}

@_cdecl("kn_decay_state")
public func kn_decay_state(_ decay: UnsafePointer<Double>?, _ time: Double, _ initialVelocity: Double,
                           _ offset: UnsafeMutablePointer<Double>?, _ velocity: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let d = try readDecay(decay)
        try ParameterError.requireFinite(time, "time")
        try ParameterError.requireFinite(initialVelocity, "initial_velocity")
        offset?.pointee = d.offset(at: time, initialVelocity: initialVelocity)
        velocity?.pointee = d.velocity(at: time, initialVelocity: initialVelocity)
    }
}

/// Writes what `body` computes from the decay and a finite `initialVelocity` to `out`.
private func decayResult(_ decay: UnsafePointer<Double>?, _ initialVelocity: Double, _ out: UnsafeMutablePointer<Double>?,
                         _ body: (ExponentialDecay) throws -> Double) -> Int32 {
    guarded {
        let d = try readDecay(decay)
        try ParameterError.requireFinite(initialVelocity, "initial_velocity")
        let result = try body(d)
        try required(out, "out").pointee = result
    }
}

@_cdecl("kn_decay_resting_offset")
public func kn_decay_resting_offset(_ decay: UnsafePointer<Double>?, _ initialVelocity: Double,
                                    _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    decayResult(decay, initialVelocity, out) { $0.stoppingOffset(initialVelocity: initialVelocity) }
}

@_cdecl("kn_decay_duration")
public func kn_decay_duration(_ decay: UnsafePointer<Double>?, _ initialVelocity: Double,
                              _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    decayResult(decay, initialVelocity, out) { d in
        let duration = d.duration(initialVelocity: initialVelocity)
        guard duration.isFinite else {
            throw InterfaceError(status: .outOfRange,
                                 message: "velocity_threshold = 0: a decay from initial_velocity = \(initialVelocity) never stops")
        }
        return duration
    }
}

// MARK: Android's spline fling

@_cdecl("kn_spline_fling")
public func kn_spline_fling(_ density: Double, _ friction: Double, _ initialVelocity: Double, _ time: Double,
                            _ offset: UnsafeMutablePointer<Double>?, _ velocity: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let fling = try SplineFling(density: density, friction: friction)
        try ParameterError.requireFinite(initialVelocity, "initial_velocity")
        try ParameterError.requireFinite(time, "time")
        offset?.pointee = fling.offset(at: time, initialVelocity: initialVelocity)
        velocity?.pointee = fling.velocity(at: time, initialVelocity: initialVelocity)
    }
}

@_cdecl("kn_spline_fling_extent")
public func kn_spline_fling_extent(_ density: Double, _ friction: Double, _ initialVelocity: Double,
                                   _ distance: UnsafeMutablePointer<Double>?, _ duration: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let fling = try SplineFling(density: density, friction: friction)
        try ParameterError.requireFinite(initialVelocity, "initial_velocity")
        distance?.pointee = fling.distance(initialVelocity: initialVelocity)
        duration?.pointee = fling.duration(initialVelocity: initialVelocity)
    }
}

// MARK: Rubber band and snapping

/// Writes what `body` computes with a rubber band of `coefficient` to `out`.
private func rubberBand(_ coefficient: Double, _ out: UnsafeMutablePointer<Double>?,
                        _ body: (RubberBand) throws -> Double) -> Int32 {
    guarded {
        let o = try required(out, "out")
        o.pointee = try body(try RubberBand(coefficient: coefficient))
    }
}

@_cdecl("kn_rubber_band")
public func kn_rubber_band(_ overscroll: Double, _ dimension: Double, _ coefficient: Double,
                           _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    rubberBand(coefficient, out) { try $0.offset(forOverscroll: overscroll, dimension: dimension) }
}

@_cdecl("kn_rubber_band_inverse")
public func kn_rubber_band_inverse(_ offset: Double, _ dimension: Double, _ coefficient: Double,
                                   _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    rubberBand(coefficient, out) { try $0.overscroll(forOffset: offset, dimension: dimension) }
}

@_cdecl("kn_snap")
public func kn_snap(_ position: Double, _ velocity: Double, _ targets: UnsafePointer<Double>?, _ count: Int64,
                    _ decay: UnsafePointer<Double>?, _ index: UnsafeMutablePointer<Int64>?,
                    _ normalizedVelocity: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let n = try checkedCount(count, "count")
        let t = try buffer(targets, n, "targets")
        let d = try decay.map { try readDecay($0) } ?? .normal
        let (best, _) = try Snapping.nearestTarget(position: position, velocity: velocity, targets: Array(t), decay: d)
        index?.pointee = Int64(best)
        normalizedVelocity?.pointee = try Snapping.normalizedVelocity(velocity, from: position, to: t[best])
    }
}
