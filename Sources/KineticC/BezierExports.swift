// kn_bezier_*: CubicBezier behind an opaque, immutable handle.

import Kinetic

@_cdecl("kn_bezier_create")
public func kn_bezier_create(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                             _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        let out = try required(out, "out")
        out.pointee = makeHandle(try CubicBezier(x1, y1, x2, y2))
    }
}

@_cdecl("kn_bezier_create_preset")
public func kn_bezier_create_preset(_ preset: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        let out = try required(out, "out")
        // KN_BEZIER_LINEAR … KN_BEZIER_EASE_IN_OUT are the indices of `CubicBezier.presets`.
        guard preset >= 0 && Int(preset) < CubicBezier.presets.count else {
            throw ParameterError.outOfRange(parameter: "preset", value: Double(preset),
                                            expected: "[0, \(CubicBezier.presets.count - 1)]")
        }
        out.pointee = makeHandle(CubicBezier.presets[Int(preset)].curve)
    }
}

@_cdecl("kn_bezier_control_points")
public func kn_bezier_control_points(_ curve: OpaquePointer?, _ x1: UnsafeMutablePointer<Double>?,
                                     _ y1: UnsafeMutablePointer<Double>?, _ x2: UnsafeMutablePointer<Double>?,
                                     _ y2: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let c = try value(curve, as: CubicBezier.self, "curve")
        x1?.pointee = c.x1
        y1?.pointee = c.y1
        x2?.pointee = c.x2
        y2?.pointee = c.y2
    }
}

@_cdecl("kn_bezier_value")
public func kn_bezier_value(_ curve: OpaquePointer?, _ x: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let c = try value(curve, as: CubicBezier.self, "curve")
        try required(out, "out").pointee = c.value(at: x)
    }
}

@_cdecl("kn_bezier_values")
public func kn_bezier_values(_ curve: OpaquePointer?, _ xs: UnsafePointer<Double>?,
                             _ out: UnsafeMutablePointer<Double>?, _ count: Int64) -> Int32 {
    guarded {
        let c = try value(curve, as: CubicBezier.self, "curve")
        let n = try checkedCount(count, "count")
        try c.values(at: try buffer(xs, n, "xs"), into: try mutableBuffer(out, n, "out"))
    }
}

@_cdecl("kn_bezier_slope")
public func kn_bezier_slope(_ curve: OpaquePointer?, _ x: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let c = try value(curve, as: CubicBezier.self, "curve")
        try required(out, "out").pointee = c.slope(at: x)
    }
}

@_cdecl("kn_bezier_destroy")
public func kn_bezier_destroy(_ curve: OpaquePointer?) {
    destroyHandle(curve, as: CubicBezier.self)
}
