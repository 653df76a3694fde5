// kn_bezier_*: CubicBezier behind an opaque, immutable handle.

import Kinetic

/// What a `kn_bezier` handle points to: the curve, and beside it its solver unretained (the
/// curve keeps it alive), which the scalar calls use with no reference counting.
struct BezierHandle {
    let curve: CubicBezier
    let table: Unmanaged<BezierTable>
    /// The solver's solve-table slot (the curve keeps the solver alive), which `kn_bezier_value`
    /// reads with no reference to the solver.
    let solveSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Whether the curve is the identity (y = x), which has no solve table.
    let isIdentity: Bool

    init(_ curve: CubicBezier) {
        self.curve = curve
        table = .passUnretained(curve.table)
        solveSlot = curve.table.solveSlotAddress
        isIdentity = curve.table.isIdentity
    }

    /// `body` applied to the solver of the handle at `handle`, with no retain or release.
   
    static func withTable<R>(_ handle: OpaquePointer, _ body: (BezierTable) -> R) -> R {
        UnsafePointer<BezierHandle>(handle).pointee.table._withUnsafeGuaranteedRef(body)
    }

    /// The curve of the handle at `handle`; throws `KN_ERR_NULL_ARGUMENT` naming `name` for NULL.
    static func curve(_ handle: OpaquePointer?, _ name: @autoclosure () -> String) throws -> CubicBezier {
        try value(handle, as: BezierHandle.self, name()).curve
    }
}

@_cdecl("kn_bezier_create")
public func kn_bezier_create(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                             _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        let out = try required(out, "out")
        out.pointee = makeHandle(BezierHandle(try CubicBezier(x1, y1, x2, y2)))
    }
}

@_cdecl("kn_bezier_create_preset")
public func kn_bezier_create_preset(_ preset: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        let out = try required(out, "out")
        // KN_BEZIER_LINEAR … KN_BEZIER_EASE_IN_OUT are the indices of `CubicBezier.presets`.
        guard preset >= 0 && Int(preset) < CubicBezier.presets.count else {
            throw integerOutOfRange("preset", preset, expected: "[0, \(CubicBezier.presets.count - 1)]")
        }
        out.pointee = makeHandle(BezierHandle(CubicBezier.presets[Int(preset)].curve))
    }
}

@_cdecl("kn_bezier_control_points")
public func kn_bezier_control_points(_ curve: OpaquePointer?, _ x1: UnsafeMutablePointer<Double>?,
                                     _ y1: UnsafeMutablePointer<Double>?, _ x2: UnsafeMutablePointer<Double>?,
                                     _ y2: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let c = try BezierHandle.curve(curve, "curve")
        x1?.pointee = c.x1
        y1?.pointee = c.y1
        x2?.pointee = c.x2
        y2?.pointee = c.y2
    }
}

// The scalar calls evaluate through the handle (no copy, no reference counting) and keep the
// error path out of line, so a C call costs what the Swift call does. Once the curve's solve
// table exists, `kn_bezier_value` runs the solve inlined from Kinetic through the handle's
// slot. It is kept out of its C entry point (`@inline(never)`): calls inside a `@_cdecl` thunk
// are compiled not to be inlined, so the solve's small C helpers (the atomic read of the slot,
// the prefetches, the square-root select) would stay calls there; this way the entry point is
// one jump to a function in which they are inlined.
@_cdecl("kn_bezier_value")
@inline(never)
public func kn_bezier_value(_ curve: OpaquePointer?, _ x: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guard let curve, let out else { return nullFailure(curve == nil ? "curve" : "out") }
    let handle = UnsafePointer<BezierHandle>(curve)
    if let y = BezierTable.value(at: x, solveSlot: handle.pointee.solveSlot) {
        out.pointee = y
    } else if handle.pointee.isIdentity && x >= 0 && x <= 1 {
        out.pointee = x
    } else {
        // Outside [0, 1], NaN, or before the table is built (which this call may build).
        out.pointee = BezierHandle.withTable(curve) { $0.valueOutOfLine(x) }
    }
    return Status.ok.rawValue
}

@_cdecl("kn_bezier_values")
public func kn_bezier_values(_ curve: OpaquePointer?, _ xs: UnsafePointer<Double>?,
                             _ out: UnsafeMutablePointer<Double>?, _ count: Int64) -> Int32 {
    guarded {
        let c = try BezierHandle.curve(curve, "curve")
        let n = try checkedCount(count, "count")
        try c.values(at: try buffer(xs, n, "xs"), into: try mutableBuffer(out, n, "out"))
    }
}

@_cdecl("kn_bezier_slope")
@_optimize(size)
public func kn_bezier_slope(_ curve: OpaquePointer?, _ x: Double, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guard let curve, let out else { return nullFailure(curve == nil ? "curve" : "out") }
    out.pointee = BezierHandle.withTable(curve) { $0.slope(at: x) }
    return Status.ok.rawValue
}

@_cdecl("kn_bezier_destroy")
public func kn_bezier_destroy(_ curve: OpaquePointer?) {
    destroyHandle(curve, as: BezierHandle.self)
}
