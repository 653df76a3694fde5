/// A timing curve maps linear progress to eased progress.
///
/// Both are unitless fractions: `x` is the fraction of the animation's duration that has
/// elapsed, the result the fraction of the change to apply. Curves map 0 to 0 and 1 to 1;
/// between, the result may leave [0, 1] (overshoot). Outside [0, 1] of `x`, a curve
/// extrapolates (``CubicBezier`` continues along its end tangents).
public protocol TimingCurve: Sendable {
    /// The eased progress at linear progress `x` (unitless). Never NaN for finite `x`.
    func value(at x: Double) -> Double
}
