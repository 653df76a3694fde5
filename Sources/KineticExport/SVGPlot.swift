import Kinetic

/// A line chart of one or more series, rendered to a standalone SVG document with no
/// dependency: title, axes with "nice" ticks (steps of 1, 2 or 5 × 10ⁿ, see
/// ``PlotAxisTicks``), gridlines, tick labels, axis labels, a legend and one distinct colour
/// (and, past eight series, dash pattern) per series.
///
/// The output is deterministic: the same plot renders to the same bytes on every machine
/// (numbers are formatted from integers, never through the locale). Text (title, labels,
/// series names) is XML-escaped. Points with a NaN or infinite coordinate are skipped and
/// break the line, so a gap shows where the data has holes.
///
/// ```swift
/// var plot = SVGPlot(title: "ease", xLabel: "linear progress", yLabel: "eased progress")
/// plot.add("value", xs: xs, ys: CubicBezier.ease.values(at: xs))
/// try plot.write(toFile: "ease.svg")
/// ```
public struct SVGPlot: Sendable, Hashable {
    /// How a series is drawn.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// Straight segments between consecutive points.
        case line
        /// A staircase: each value holds until the next point's x (for held keyframes).
        case step
        /// A dot at each point, no line.
        case markers
        /// Straight segments and a dot at each point.
        case lineAndMarkers = "line+markers"
    }

    /// One named set of points.
    public struct Series: Sendable, Hashable {
        /// The legend entry (any text; escaped when written).
        public var name: String
        /// The x coordinates, in the x axis' units.
        public var xs: [Double]
        /// The y coordinates, in the y axis' units; as many as `xs`.
        public var ys: [Double]
        /// How the series is drawn.
        public var style: Style

        /// Creates a series; the counts are checked when the plot is rendered.
        public init(name: String, xs: [Double], ys: [Double], style: Style = .line) {
            self.name = name
            self.xs = xs
            self.ys = ys
            self.style = style
        }
    }

    /// The title above the chart (omitted when empty).
    public var title: String
    /// The x axis label; include the unit, e.g. `"time (s)"`.
    public var xLabel: String
    /// The y axis label; include the unit, e.g. `"value (fraction of the move)"`.
    public var yLabel: String
    /// The series, drawn in order (later ones on top) and listed in the legend in order.
    public var series: [Series]
    /// The picture width in pixels, in [200, 10 000] (default 720).
    public var width: Double = 720
    /// The picture height in pixels, in [150, 10 000] (default 440).
    public var height: Double = 440
    /// The x axis range in data units; `nil` (the default) extends the data range to nice ticks.
    public var xRange: ClosedRange<Double>?
    /// The y axis range in data units; `nil` (the default) extends the data range to nice ticks.
    public var yRange: ClosedRange<Double>?
    /// y values at which to draw a dashed horizontal reference line (e.g. a spring's target
    /// 1); they are included in the automatic y range.
    public var yReferenceLines: [Double] = []

    /// Creates a plot with the given texts and series.
    public init(title: String = "", xLabel: String, yLabel: String, series: [Series] = []) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.series = series
    }

    /// Appends a series.
    public mutating func add(_ name: String, xs: [Double], ys: [Double], style: Style = .line) {
        series.append(Series(name: name, xs: xs, ys: ys, style: style))
    }

    /// The SVG document (UTF-8 text, starting with an XML declaration).
    ///
    /// - Throws: ``PlotError`` when there is no series, a series is empty, has mismatched
    ///   counts or no finite point, a given range is not finite and increasing, or the size
    ///   is out of bounds.
    public func render() throws(PlotError) -> String {
        try SVGPlotRenderer(plot: self).document()
    }

    /// Renders the plot and writes it to `path` atomically (see ``AtomicFileWriter``).
    ///
    /// - Parameters:
    ///   - path: the destination file.
    ///   - createDirectory: create the file's directory and missing parents first.
    /// - Throws: ``PlotError`` as ``render()`` (nothing is written then), or ``ExportError``.
    public func write(toFile path: String, createDirectory: Bool = false) throws {
        let text = try render()
        try TextFile.write(text, toPath: path, createDirectory: createDirectory)
    }
}

extension SVGPlot {
    /// A plot of columns of a table: `x` against each of `ys`, one series per column, named
    /// after it.
    ///
    /// - Throws: ``PlotError/unknownColumn(_:available:)`` naming a column the table lacks.
    public init(table: CSVTable, x: String, ys: [String], title: String = "",
                xLabel: String? = nil, yLabel: String? = nil, style: Style = .line) throws(PlotError) {
        guard let xs = table.column(named: x) else { throw .unknownColumn(x, available: table.columns) }
        var series: [Series] = []
        for name in ys {
            guard let values = table.column(named: name) else { throw .unknownColumn(name, available: table.columns) }
            series.append(Series(name: name, xs: xs, ys: values, style: style))
        }
        self.init(title: title, xLabel: xLabel ?? x, yLabel: yLabel ?? (ys.count == 1 ? ys[0] : "value"), series: series)
    }
}

/// XML-escapes text for element content and double-quoted attributes; characters XML 1.0
/// does not allow (control characters other than tab, newline and carriage return) become
/// U+FFFD.
package func xmlEscaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        case "\t", "\n", "\r": result += " "
        default:
            if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                result.unicodeScalars.append("\u{FFFD}")
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}

/// A pixel coordinate with at most two decimals, trailing zeros dropped (`12.5`, `3`,
/// `-0.25`), clamped to ±10⁶ so far-off points (clipped anyway) stay short.
package func svgNumber(_ value: Double) -> String {
    let clamped = Swift.min(Swift.max(value, -1e6), 1e6)
    let hundredths = Int((clamped * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = hundredths.magnitude
    let whole = magnitude / 100, fraction = magnitude % 100
    if fraction == 0 { return sign + String(whole) }
    if fraction % 10 == 0 { return sign + String(whole) + "." + String(fraction / 10) }
    return sign + String(whole) + (fraction < 10 ? ".0" : ".") + String(fraction)
}
