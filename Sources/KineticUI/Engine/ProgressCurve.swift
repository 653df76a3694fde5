import Kinetic

/// An animator's timing as a function of the fraction of its run, g ∈ [0, 1] → eased
/// progress (0 at g = 0 exactly; 1, or within a spring's settling tolerance of 1, at g = 1).
enum ProgressCurve: Sendable {
    case linear
    case cubic(CubicBezier)
    /// `spring.value(at: g · period, initialVelocity: v)`, v = vx for horizontal lanes and vy
    /// for vertical ones (normalised to the move, per unit of `g · period`).
    case spring(Spring, period: Double, vx: Double, vy: Double)

    /// The progress at fraction `g` for horizontal (and one-dimensional) lanes.
    @inline(__always)
    func x(_ g: Double) -> Double {
        switch self {
        case .linear: return g
        case .cubic(let curve): return curve.value(at: g)
        case .spring(let spring, let period, let vx, _): return spring.value(at: g * period, initialVelocity: vx)
        }
    }

    /// The progress at fraction `g` for vertical lanes.
    @inline(__always)
    func y(_ g: Double) -> Double {
        switch self {
        case .spring(let spring, let period, _, let vy): return spring.value(at: g * period, initialVelocity: vy)
        default: return x(g)
        }
    }

    /// Whether x and y progress can differ (a spring with different velocity components).
    var isAxisDependent: Bool {
        if case .spring(_, _, let vx, let vy) = self { return vx != vy }
        return false
    }

    var isLinear: Bool {
        switch self {
        case .linear: return true
        case .cubic(let curve): return curve == .linear
        case .spring: return false
        }
    }

    /// The curve for a provider and an animator duration (seconds), with the duration the
    /// run actually lasts (a physical spring's own settling time).
    static func make(_ provider: any TimingCurveProvider, duration: Double) throws -> (curve: ProgressCurve, duration: Double) {
        if let spring = provider.springTimingParameters, provider.timingCurveType != .builtin,
           provider.timingCurveType != .cubic {
            return try spring.progressCurve(forDuration: duration)
        }
        if let cubic = provider.cubicTimingParameters {
            return (cubic.curve == .linear ? .linear : .cubic(cubic.curve), duration)
        }
        return (.cubic(.ease), duration)
    }
}
