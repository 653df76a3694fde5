/// A run's timing as a function of the fraction of its run, g ∈ [0, 1] → eased progress
/// (0 at g = 0 exactly; 1, or within a spring's settling tolerance of 1, at g = 1).
package enum ProgressCurve: Sendable {
    case linear
    /// Boxed (`indirect`) so that the enum is one pointer wide in the record array.
    indirect case cubic(CubicBezier)
    /// A spring (boxed, so that the enum stays small in the engine's record array).
    case spring(SpringProgress)

    // Evaluation is CurveRef's, the form the engine's records hold: one implementation, the
    // same bits. `self` is borrowed for the call, so it keeps the curve alive meanwhile.

    /// The progress at fraction `g` for horizontal (and one-dimensional) lanes.
    @inline(__always)
    package func x(_ g: Double) -> Double { CurveRef(self).x(g) }

    /// The progress at fraction `g` for vertical lanes.
    @inline(__always)
    package func y(_ g: Double) -> Double { CurveRef(self).y(g) }

    /// The rate of the progress of horizontal (and one-dimensional) lanes with respect to
    /// the fraction `g`: d x(g) / dg (a cubic curve's slope, which is ±infinity where its
    /// tangent is vertical; a spring's velocity times its period).
    @inline(__always)
    package func slopeX(_ g: Double) -> Double { CurveRef(self).slopeX(g) }

    /// d y(g) / dg, the rate of the progress of vertical lanes.
    @inline(__always)
    package func slopeY(_ g: Double) -> Double { CurveRef(self).slopeY(g) }

    /// Whether x and y progress can differ (a spring with different velocity components).
    package var isAxisDependent: Bool { CurveRef(self).isAxisDependent }

    /// Whether the curve is the identity: linear, or a cubic with the control points of
    /// ``CubicBezier/linear``.
    package var isLinear: Bool { CurveRef(self).isLinear }
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
