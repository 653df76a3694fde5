import Kinetic

/// The error ``SVGPlot`` and ``PlotAxisTicks`` throw for data or settings they cannot draw.
///
/// Each case names the series or setting and the bad value, so the message reads like
/// `series 'ease' has no points`.
public enum PlotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The plot has no series at all.
    case noSeries
    /// The named series has no points (empty `xs` and `ys`).
    case emptySeries(name: String)
    /// The named series has `xs.count` and `ys.count` that differ.
    case countMismatch(series: String, xs: Int, ys: Int)
    /// Every point of the named series has a NaN or infinite coordinate, so there is
    /// nothing to draw.
    case noFinitePoints(series: String)
    /// An axis range (given, or computed from the data) is not finite, not increasing, or
    /// too narrow to label.
    case invalidRange(axis: String, lower: Double, upper: Double)
    /// A tick count outside [3, 50] was asked for.
    case invalidTickCount(Int)
    /// A table column asked for does not exist; `available` lists the table's columns.
    case unknownColumn(String, available: [String])
    /// The picture size is outside [200, 10 000] × [150, 10 000] pixels.
    case invalidSize(width: Double, height: Double)

    public var description: String {
        switch self {
        case .noSeries:
            return "the plot has no series to draw"
        case .emptySeries(let name):
            return "series '\(name)' has no points"
        case .countMismatch(let series, let xs, let ys):
            return "series '\(series)' has \(xs) x values but \(ys) y values"
        case .noFinitePoints(let series):
            return "series '\(series)' has no finite points (every x or y is NaN or infinite)"
        case .invalidRange(let axis, let lower, let upper):
            return "\(axis) range \(lower) … \(upper) is not a finite, increasing range"
        case .invalidTickCount(let count):
            return "tick count \(count) is outside [3, 50]"
        case .unknownColumn(let name, let available):
            return "no column '\(name)'; the columns are " + available.joined(separator: ", ")
        case .invalidSize(let width, let height):
            return "plot size \(width) × \(height) is outside [200, 10000] × [150, 10000] pixels"
        }
    }
}
