/// A run's ``ProgressCurve`` as its timing record holds it: the same curve, referenced
/// without reference counting, so that a record is plain data.
///
/// Copying a record, walking the record array in a tick and evaluating a curve then take no
/// retain and no release: with the curves held strongly in the records, every copy and every
/// evaluation retained and released the curve's solver, and the shared presets' solvers were
/// retained from every run at once.
///
/// A `CurveRef` does not keep its curve alive. The engine keeps every curve that a record
/// refers to (the run curve in `LaneEngine.recordCurves`, beside `records`; a continuation
/// leg's curve in `LaneEngine.legCurves`) and replaces a reference and its curve together, so
/// a record's reference is valid for as long as the record in the engine's array holds it.
/// A record's curves are internal to the module, so a copy handed out by
/// `LaneEngine.timing(of:)` cannot evaluate a curve the engine has since let go.
package enum CurveRef {
    case linear
    case cubic(Unmanaged<BezierTable>)
    case spring(Unmanaged<SpringProgress>)

    /// A reference to `curve`, which the caller keeps alive while the reference is used.
    @inline(__always)
    package init(_ curve: ProgressCurve) {
        switch curve {
        case .linear: self = .linear
        case .cubic(let bezier): self = .cubic(.passUnretained(bezier.table))
        case .spring(let s): self = .spring(.passUnretained(s))
        }
    }

    /// The progress at fraction `g` for horizontal (and one-dimensional) lanes (what
    /// ``ProgressCurve/x(_:)`` evaluates through).
    @inline(__always)
    package func x(_ g: Double) -> Double {
        switch self {
        case .linear: return g
        case .cubic(let solver): return solver._withUnsafeGuaranteedRef { $0.value(at: g) }
        case .spring(let s): return s._withUnsafeGuaranteedRef { $0.spring.value(at: g * $0.period, initialVelocity: $0.vx) }
        }
    }

    /// The progress at fraction `g` for vertical lanes (``ProgressCurve/y(_:)``).
    @inline(__always)
    package func y(_ g: Double) -> Double {
        switch self {
        case .spring(let s): return s._withUnsafeGuaranteedRef { $0.spring.value(at: g * $0.period, initialVelocity: $0.vy) }
        default: return x(g)
        }
    }

    /// d x(g) / dg (``ProgressCurve/slopeX(_:)``).
    @inline(__always)
    package func slopeX(_ g: Double) -> Double {
        switch self {
        case .linear: return 1
        case .cubic(let solver): return solver._withUnsafeGuaranteedRef { $0.slope(at: g) }
        case .spring(let s):
            return s._withUnsafeGuaranteedRef { $0.period * $0.spring.velocity(at: g * $0.period, initialVelocity: $0.vx) }
        }
    }

    /// d y(g) / dg (``ProgressCurve/slopeY(_:)``).
    @inline(__always)
    package func slopeY(_ g: Double) -> Double {
        switch self {
        case .spring(let s):
            return s._withUnsafeGuaranteedRef { $0.period * $0.spring.velocity(at: g * $0.period, initialVelocity: $0.vy) }
        default: return slopeX(g)
        }
    }

    /// Whether x and y progress can differ (``ProgressCurve/isAxisDependent``).
    @inline(__always)
    package var isAxisDependent: Bool {
        if case .spring(let s) = self { return s._withUnsafeGuaranteedRef { $0.vx != $0.vy } }
        return false
    }

    /// Whether the curve is the identity (``ProgressCurve/isLinear``).
    package var isLinear: Bool {
        switch self {
        case .linear: return true
        case .cubic(let solver): return solver._withUnsafeGuaranteedRef { $0.isLinearCurve }
        case .spring: return false
        }
    }
}
