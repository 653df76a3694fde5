import ArgumentParser
import Kinetic
import KineticExport

/// `kinetic plot …`: draws a curve, a spring, a keyframe track or columns of a CSV file to
/// SVG with ``SVGPlot`` (no external dependency).
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a timing curve, a spring, a keyframe track or CSV columns to SVG.",
        discussion: """
            The SVG has a title, axes with ticks at steps of 1, 2 or 5 × 10^n, gridlines, axis \
            labels with units and a legend. It is written to standard output, or atomically to \
            --output FILE.svg (a device or FIFO is written directly, a symbolic link's target is \
            replaced). A picture estimated at over 1 GiB (e.g. millions of markers) is refused \
            unless --force; samples that would not fit in the machine's memory are refused \
            even with it.
            """,
        subcommands: [PlotBezierCommand.self, PlotSpringCommand.self, PlotTrackCommand.self, PlotCSVCommand.self]
    )
}

extension SVGPlot.Style: ExpressibleByArgument {}

/// Options every `kinetic plot` subcommand takes: where to write and the texts and size.
struct PlotOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp(outputHelp("SVG", ".svg"), valueName: "file.svg"))
    var output: String?
    @Flag(help: "Write the output even when it is estimated at over 1 GiB.")
    var force = false

    @Option(parsing: .unconditional, help: "The title above the chart.")
    var title: String?
    @Option(name: .customLong("x-label"), parsing: .unconditional, help: ArgumentHelp("The x axis label (include the unit).", valueName: "text"))
    var xLabel: String?
    @Option(name: .customLong("y-label"), parsing: .unconditional, help: ArgumentHelp("The y axis label (include the unit).", valueName: "text"))
    var yLabel: String?
    @Option(parsing: .unconditional, help: "Picture width in pixels, 200 … 10000.")
    var width: Double = 720
    @Option(parsing: .unconditional, help: "Picture height in pixels, 150 … 10000.")
    var height: Double = 440

    func validate() throws {
        try checkOutput(output, accepts: [.svg], command: "plot")
    }

    /// Refuses a picture estimated at over 1 GiB (``svgBytes(points:style:width:)``)
    /// unless `--force`: `points` is each series' number of points.
    func checkSize(points: [Double], style: SVGPlot.Style) throws {
        let total = points.reduce(0, +)
        let count = total < 1e18 ? String(Int(total)) : String(total)
        try checkOutputSize(svgBytes(points: points, style: style, width: width), force: force,
                            what: "\(points.count) series, \(count) points, style \(style.rawValue)")
    }

    /// Applies the options to `plot` and writes it.
    func emit(_ plot: SVGPlot) throws {
        var plot = plot
        if let title { plot.title = title }
        if let xLabel { plot.xLabel = xLabel }
        if let yLabel { plot.yLabel = yLabel }
        plot.width = width
        plot.height = height
        if let output, output != "-" {
            let text = try plot.render()
            try writeFile(output) { $0.write(text) }
        } else {
            let text = try plot.render()
            var stream = DescriptorOutput()
            stream.write(text)
            stream.flush()
        }
    }
}

/// `kinetic plot bezier <curve>… [--count N] [--slope]`.
struct PlotBezierCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bezier",
        abstract: "Plot cubic-bezier curves: eased progress (and, with --slope, the slope) against linear progress."
    )

    @Argument(help: ArgumentHelp(
        "One or more curves: x1,y1,x2,y2, cubic-bezier(…), or a preset name (linear, ease, ease-in, ease-out, ease-in-out).",
        valueName: "curve"))
    var curves: [String]

    @Option(parsing: .unconditional, help: "Evenly spaced samples per curve, 2 … 10000000.")
    var count: Int = 201

    @Flag(help: "Also plot each curve's slope d value / d x.")
    var slope = false

    @OptionGroup var plot: PlotOptions

    func validate() throws {
        if curves.isEmpty { throw ValidationError("give at least one curve") }
        try checkCount(count)
    }

    func run() throws {
        try plot.checkSize(points: Array(repeating: Double(count), count: curves.count * (slope ? 2 : 1)), style: .line)
        // Every curve's samples are held until the plot is drawn: x, value and slope each.
        try checkWorkingMemory(values: Double(count) * Double(curves.count) * 3,
                               what: "\(curves.count) curves × \(count) samples × 3 columns")
        var svg = SVGPlot(title: curves.count == 1 ? curves[0] : "Cubic-bezier curves",
                          xLabel: "linear progress x (fraction of the duration)",
                          yLabel: slope ? "value (fraction of the change) and slope" : "eased progress (fraction of the change)")
        for text in curves {
            let curve = try CubicBezier(parsing: text)
            if svg.title == text && !text.contains("(") { svg.title = "\(text): \(curve)" }
            let table = try sample(curve, count: count)
            let xs = table.column(named: "x")!
            svg.add(curves.count == 1 && slope ? "value" : text, xs: xs, ys: table.column(named: "value")!)
            if slope {
                svg.add(curves.count == 1 ? "slope" : "\(text) slope", xs: xs, ys: table.column(named: "slope")!)
            }
        }
        svg.yReferenceLines = [1]
        try plot.emit(svg)
    }
}

/// `kinetic plot spring <one parameterisation> [--show-velocity]`: the same spring options as
/// `kinetic sample spring`.
struct PlotSpringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "Plot a spring's unit move (0 → 1) until it settles.",
        discussion: """
            Give exactly one parameterisation, as for `kinetic sample spring`: \
            --mass/--stiffness/--damping, --damping-ratio/--response, --duration/--bounce, or \
            --settling-duration/--damping-ratio.
            """
    )

    @OptionGroup var spring: SpringOptions

    @Flag(name: .customLong("show-velocity"), help: "Also plot the velocity (move distances per second).")
    var showVelocity = false

    @OptionGroup var plot: PlotOptions

    func run() throws {
        if let rows = try spring.estimatedRows() {
            try plot.checkSize(points: Array(repeating: rows, count: showVelocity ? 2 : 1), style: .line)
        }
        let (model, table) = try spring.sampled()
        let title = "Spring: ζ = \(CuratedData.compact(model.dampingRatio)), response = \(CuratedData.compact(model.response)) s, "
            + "settles at \(CuratedData.compact(table[table.rowCount - 1, 0])) s"
        var svg = try SVGPlot(table: table, x: "time", ys: showVelocity ? ["value", "velocity"] : ["value"], title: title,
                              xLabel: "time (s)",
                              yLabel: showVelocity ? "position (fraction of the move), velocity (moves/s)" : "position (fraction of the move)")
        svg.yReferenceLines = [1]
        try plot.emit(svg)
    }
}

/// `kinetic plot track FILE.json [--rate HZ] [--columns A,B…]`: bakes a keyframe description as
/// `kinetic bake` does and plots its columns against time.
struct PlotTrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Plot a keyframe description (JSON, as `kinetic bake` reads) against time."
    )

    @Argument(help: ArgumentHelp("The keyframe description (JSON).", valueName: "file.json"))
    var file: String

    @Option(parsing: .unconditional, help: "Frames per second (Hz), > 0.")
    var rate: Double = 60

    @Option(help: ArgumentHelp("Comma-separated columns to plot (default: all), e.g. position.x,position.y.", valueName: "names"))
    var columns: String?

    @Option(help: ArgumentHelp("How to draw: line, step, markers or line+markers.", valueName: "style"))
    var style: SVGPlot.Style = .line

    @OptionGroup var plot: PlotOptions

    func run() throws {
        let description = try KeyframeDescription(json: readNonEmpty(file, expecting: "a keyframe description (JSON)"), source: file)
        let allColumns = description.properties.flatMap(\.columnNames)
        let rows = description.duration * rate + 2
        if rows.isFinite && rate > 0 {
            try plot.checkSize(points: Array(repeating: rows, count: columns.map(splitNames)?.count ?? allColumns.count), style: style)
            // The bake holds every column, whichever are plotted.
            let held = min(rows, Double(maximumSampleCount))
            try checkWorkingMemory(values: held * Double(allColumns.count + 1),
                                   what: "\(Int(held)) rows × \(allColumns.count + 1) columns baked")
        }
        let table = try bake(description, rate: rate)
        let names = columns.map(splitNames) ?? Array(table.columns.dropFirst())
        let svg = try SVGPlot(table: table, x: "time", ys: names, title: file, xLabel: "time (s)",
                              yLabel: names.count == 1 ? names[0] : "value (each property's units)", style: style)
        try plot.emit(svg)
    }
}

/// `kinetic plot csv FILE --x COL --y COL[,COL…]`.
struct PlotCSVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv",
        abstract: "Plot columns of a CSV file (header line, numeric fields) against another column."
    )

    @Argument(help: ArgumentHelp("The CSV file.", valueName: "file.csv"))
    var file: String

    @Option(help: ArgumentHelp("The column for the x axis.", valueName: "column"))
    var x: String

    @Option(help: ArgumentHelp("Comma-separated columns to plot against x, one series each.", valueName: "columns"))
    var y: String

    @Option(help: ArgumentHelp("How to draw: line, step, markers or line+markers.", valueName: "style"))
    var style: SVGPlot.Style = .line

    @OptionGroup var plot: PlotOptions

    func run() throws {
        let table = try CSVTable(parsing: readNonEmpty(file, expecting: "a CSV table"), source: file)
        guard table.rowCount > 0 else { throw CLIError("\(file): no data rows (only the header line)") }
        try plot.checkSize(points: Array(repeating: Double(table.rowCount), count: splitNames(y).count), style: style)
        let svg = try SVGPlot(table: table, x: x, ys: splitNames(y), title: file, style: style)
        try plot.emit(svg)
    }
}

/// `"a, b,c"` → `["a", "b", "c"]` (blank names dropped). Split and trimmed on Unicode
/// scalars, as the CSV reader splits the header it is matched against.
private func splitNames(_ text: String) -> [String] {
    text.unicodeScalars.split(separator: ",").map { name in
        String(String.UnicodeScalarView(name.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed()))
    }.filter { !$0.isEmpty }
}
