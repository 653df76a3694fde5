// kn_spring_*: Spring behind an opaque, immutable handle, and the Φ step over N springs.

import Kinetic

/// Stores a new spring handle in `out` (checked before the spring is built).
private func create(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ make: () throws -> Spring) -> Int32 {
    guarded {
        let out = try required(out, "out")
        out.pointee = makeHandle(try make())
    }
}

@_cdecl("kn_spring_create")
public func kn_spring_create(_ mass: Double, _ stiffness: Double, _ damping: Double,
                             _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    create(out) { try Spring(mass: mass, stiffness: stiffness, damping: damping) }
}

@_cdecl("kn_spring_create_damping_ratio")
public func kn_spring_create_damping_ratio(_ dampingRatio: Double, _ response: Double,
                                           _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    create(out) { try Spring(dampingRatio: dampingRatio, response: response) }
}

@_cdecl("kn_spring_create_duration")
public func kn_spring_create_duration(_ duration: Double, _ bounce: Double,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    create(out) { try Spring(duration: duration, bounce: bounce) }
}

@_cdecl("kn_spring_create_settling")
public func kn_spring_create_settling(_ settlingDuration: Double, _ dampingRatio: Double, _ epsilon: Double,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    create(out) { try Spring(settlingDuration: settlingDuration, dampingRatio: dampingRatio, epsilon: epsilon) }
}

@_cdecl("kn_spring_parameters")
public func kn_spring_parameters(_ spring: OpaquePointer?, _ mass: UnsafeMutablePointer<Double>?,
                                 _ stiffness: UnsafeMutablePointer<Double>?,
                                 _ damping: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let s = try value(spring, as: Spring.self, "spring")
        mass?.pointee = s.mass
        stiffness?.pointee = s.stiffness
        damping?.pointee = s.damping
    }
}

/// `kn_spring_properties` is seven doubles in declaration order (no padding): written here
/// through a pointer to its first field.
@_cdecl("kn_spring_get_properties")
public func kn_spring_get_properties(_ spring: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let s = try value(spring, as: Spring.self, "spring")
        let p = try required(out, "out")
        let derived = [("damping_ratio", s.dampingRatio), ("response", s.response), ("duration", s.duration),
                       ("bounce", s.bounce)]
        // Extreme parameters (damping 1e300 on mass and stiffness 1e-300) give a ratio or a
        // period beyond the range of Double: an error, not an infinity in the struct.
        for (name, value) in derived where !value.isFinite {
            throw ParameterError.outOfRange(parameter: name, value: value,
                                            expected: "a finite value: \(s) has a \(name) beyond the range of double")
        }
        (p[0], p[1], p[2]) = (s.mass, s.stiffness, s.damping)
        (p[3], p[4], p[5], p[6]) = (derived[0].1, derived[1].1, derived[2].1, derived[3].1)
    }
}

// The scalar calls evaluate the spring in place (no copy, the evaluation inlined) and keep the
// error paths (NULL, and a result beyond the range of Double) out of line, so a C call costs
// what the Swift call does.
@_cdecl("kn_spring_value")
@inline(__always)
public func kn_spring_value(_ spring: OpaquePointer?, _ time: Double, _ initialVelocity: Double,
                            _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    scalar(spring, time, initialVelocity, out, Spring.value(of:at:initialVelocity:), .position)
}

// Optimised for size, which also keeps LLVM from merging it with kn_spring_value into one
// function called through pointers.
@_cdecl("kn_spring_velocity")
@_optimize(size)
public func kn_spring_velocity(_ spring: OpaquePointer?, _ time: Double, _ initialVelocity: Double,
                               _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    scalar(spring, time, initialVelocity, out, Spring.velocity(of:at:initialVelocity:), .velocity)
}

/// What a scalar call evaluates.
private enum Quantity { case position, velocity }

/// The body of kn_spring_value and kn_spring_velocity: `evaluate` on the spring in place
/// (inlined from Kinetic); an infinite result goes out of line to ``infiniteResult``. No
/// closure captures the arguments, so the common path keeps them in registers.
@inline(__always)
private func scalar(_ spring: OpaquePointer?, _ time: Double, _ initialVelocity: Double,
                    _ out: UnsafeMutablePointer<Double>?,
                    _ evaluate: (UnsafePointer<Spring>, Double, Double) -> Double, _ quantity: Quantity) -> Int32 {
    guard let spring, let out else { return nullFailure(spring == nil ? "spring" : "out") }
    let s = UnsafePointer<Spring>(spring)
    let result = evaluate(s, time, initialVelocity)
    // Infinite or NaN (NaN is written as it is): x − x is 0 only for finite x, a test in
    // floating-point registers (an integer test keeps two 64-bit masks in callee-saved
    // registers across the whole call).
    if _slowPath(!(result - result == 0)) {
        return infiniteResult(time, initialVelocity, result, out, quantity)
    }
    out.pointee = result
    return Status.ok.rawValue
}

/// The status for a non-finite `result`: `KN_ERR_OUT_OF_RANGE` naming `initial_velocity` when
/// it is infinite for finite input (a result beyond the range of Double), with its message
/// recorded; otherwise (infinite or NaN input, which gives such a result) `result` is written
/// to `out`, as the Swift API returns it, and the status is `KN_OK`. It takes no spring: the fast path keeps only its
/// arguments alive across the call to `exp`.
@inline(never)
private func infiniteResult(_ time: Double, _ initialVelocity: Double, _ result: Double,
                            _ out: UnsafeMutablePointer<Double>, _ quantity: Quantity) -> Int32 {
    let status = guarded {
        _ = try checked(Spring.representable(result, quantity == .position ? "position" : "velocity", time,
                                             initialVelocity))
    }
    if status == Status.ok.rawValue { out.pointee = result }
    return status
}

@_cdecl("kn_spring_settling_duration")
public func kn_spring_settling_duration(_ spring: OpaquePointer?, _ initialVelocity: Double, _ epsilon: Double,
                                        _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let s = try value(spring, as: Spring.self, "spring")
        try required(out, "out").pointee = s.settlingDuration(initialVelocity: initialVelocity, epsilon: epsilon)
    }
}

@_cdecl("kn_spring_transition")
public func kn_spring_transition(_ spring: OpaquePointer?, _ dt: Double, _ matrix: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let s = try value(spring, as: Spring.self, "spring")
        let m = try required(matrix, "matrix")
        let phi = try s.transition(over: dt)
        (m[0], m[1], m[2], m[3]) = (phi.m11, phi.m12, phi.m21, phi.m22)
    }
}

@_cdecl("kn_spring_step")
public func kn_spring_step(_ spring: OpaquePointer?, _ dt: Double, _ displacements: UnsafeMutablePointer<Double>?,
                           _ velocities: UnsafeMutablePointer<Double>?, _ count: Int64) -> Int32 {
    guarded {
        let s = try value(spring, as: Spring.self, "spring")
        let n = try checkedCount(count, "count")
        let x = try mutableBuffer(displacements, n, "displacements")
        let v = try mutableBuffer(velocities, n, "velocities")
        try s.transition(over: dt).step(displacements: x, velocities: v)
    }
}

/// `body`'s result, its `initialVelocity` error renamed to the C parameter's name.
private func checked(_ body: @autoclosure () throws(ParameterError) -> Double) throws -> Double {
    do throws(ParameterError) {
        return try body()
    } catch {
        if case .outOfRange(let name, let value, let expected) = error, name == "initialVelocity" {
            throw ParameterError.outOfRange(parameter: "initial_velocity", value: value, expected: expected)
        }
        throw error
    }
}

@_cdecl("kn_spring_destroy")
public func kn_spring_destroy(_ spring: OpaquePointer?) {
    destroyHandle(spring, as: Spring.self)
}
