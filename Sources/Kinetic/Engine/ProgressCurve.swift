/// A run's timing as a function of the fraction of its run, g ∈ [0, 1] → eased progress
/// (0 at g = 0 exactly; 1, or within a spring's settling tolerance of 1, at g = 1).
package enum ProgressCurve: Sendable {
    case linear
    /// Boxed (`indirect`) so that the enum is one pointer wide in the record array.
    indirect case cubic(CubicBezier)
    /// A spring (boxed, so that the enum stays small in the engine's record array).
    case spring(SpringProgress)

    /// The progress at fraction `g` for horizontal (and one-dimensional) lanes.
    @inline(__always)
    package func x(_ g: Double) -> Double {
        switch self {
        case .linear: return g
        case .cubic(let curve): return curve.value(at: g)
        case .spring(let s): return s.spring.value(at: g * s.period, initialVelocity: s.vx)
        }
    }

    /// The progress at fraction `g` for vertical lanes.
    @inline(__always)
    package func y(_ g: Double) -> Double {
        switch self {
        case .spring(let s): return s.spring.value(at: g * s.period, initialVelocity: s.vy)
        default: return x(g)
        }
    }

    /// The rate of the progress of horizontal (and one-dimensional) lanes with respect to
    /// the fraction `g`: d x(g) / dg (a cubic curve's slope, which is ±infinity where its
    /// tangent is vertical; a spring's velocity times its period).
    @inline(__always)
    package func slopeX(_ g: Double) -> Double {
        switch self {
        case .linear: return 1
        case .cubic(let curve): return curve.slope(at: g)
        case .spring(let s): return s.period * s.spring.velocity(at: g * s.period, initialVelocity: s.vx)
        }
    }

    /// d y(g) / dg, the rate of the progress of vertical lanes.
    @inline(__always)
    package func slopeY(_ g: Double) -> Double {
        switch self {
        case .spring(let s): return s.period * s.spring.velocity(at: g * s.period, initialVelocity: s.vy)
        default: return slopeX(g)
        }
    }

    /// Whether x and y progress can differ (a spring with different velocity components).
    package var isAxisDependent: Bool {
        if case .spring(let s) = self { return s.vx != s.vy }
        return false
    }

    package var isLinear: Bool {
        switch self {
        case .linear: return true
        case .cubic(let curve): return curve == .linear
        case .spring: return false
        }
    }
}

/// A spring driven by the fraction of a run: `spring.value(at: g · period, initialVelocity: v)`,
/// v = vx for horizontal lanes and vy for vertical ones (normalised to the move, per unit of
/// `g · period`).
package final class SpringProgress: Sendable {
    package let spring: Spring
    package let period: Double
    package let vx: Double
    package let vy: Double

    package init(_ spring: Spring, period: Double, vx: Double, vy: Double) {
        self.spring = spring
        self.period = period
        self.vx = vx
        self.vy = vy
    }
}
