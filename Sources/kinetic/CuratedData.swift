import Kinetic
import KineticExport

/// One file a command wrote, for the table it prints: rows are CSV data rows (nil for
/// SVG and JSON files), settling is a spring's settling time in seconds.
struct WrittenFile {
    var path: String
    var rows: Int?
    var settling: Double?
}

/// The curated data files shared by `kinetic demo` and `kinetic export`: each function
/// writes one group of files into a directory (atomically, creating it) and returns what it
/// wrote. Numerics come from the library; this only picks parameters, names files and
/// arranges plots.
enum CuratedData {
    /// Points per preset curve: x = i/100.
    static let curveSamples = 101
    /// Spring sample rate, Hz.
    static let springRate = 120.0
    /// Frame rate the keyframed example is baked at, Hz.
    static let keyframesRate = 60.0

    // MARK: - Bezier presets

    /// `bezier-<name>.csv` (x,value,slope) for every preset; with `plots`, also
    /// `bezier-<name>.svg` (value and slope) and `bezier-presets.svg` /
    /// `bezier-presets-slope.svg` (all presets together).
    static func writePresets(into directory: String, plots: Bool) throws -> [WrittenFile] {
        var written: [WrittenFile] = []
        var values = SVGPlot(title: "Cubic-bezier presets", xLabel: "linear progress x (fraction of the duration)",
                             yLabel: "eased progress (fraction of the change)")
        var slopes = SVGPlot(title: "Cubic-bezier presets: slope", xLabel: "linear progress x (fraction of the duration)",
                             yLabel: "slope d value / d x")
        for (name, curve) in CubicBezier.presets {
            let path = "\(directory)/bezier-\(name).csv"
            let table = try sample(curve, count: curveSamples)
            try writeCSV(table, to: path, createDirectory: true)
            written.append(WrittenFile(path: path, rows: table.rowCount))
            guard plots else { continue }
            var plot = try SVGPlot(table: table, x: "x", ys: ["value", "slope"], title: "\(name): \(curve)",
                                   xLabel: values.xLabel, yLabel: "value (fraction of the change) and slope")
            plot.yReferenceLines = [1]
            written.append(try writePlot(plot, to: "\(directory)/bezier-\(name).svg"))
            let xs = table.column(named: "x")!
            values.add(name, xs: xs, ys: table.column(named: "value")!)
            slopes.add(name, xs: xs, ys: table.column(named: "slope")!)
        }
        if plots {
            written.append(try writePlot(values, to: "\(directory)/bezier-presets.svg"))
            written.append(try writePlot(slopes, to: "\(directory)/bezier-presets-slope.svg"))
        }
        return written
    }

    // MARK: - Springs

    /// `spring-zeta-<ζ>.csv` (time,value,velocity) for each damping ratio at `response`
    /// seconds, sampled at ``springRate`` until settled.
    static func writeSprings(dampingRatios: [Double], response: Double, into directory: String) throws -> [WrittenFile] {
        var written: [WrittenFile] = []
        for zeta in dampingRatios {
            let spring = try Spring(dampingRatio: zeta, response: response)
            let path = "\(directory)/spring-zeta-\(label(zeta)).csv"
            let table = try sample(spring, rate: springRate)
            try writeCSV(table, to: path, createDirectory: true)
            written.append(WrittenFile(path: path, rows: table.rowCount, settling: table[table.rowCount - 1, 0]))
        }
        return written
    }

    /// A spring family in wide form: `<file>.csv` with columns `time` (seconds, i/rate for
    /// i = 0 … ⌈T·rate⌉, where T is the longest settling time in the family) and one
    /// column per member, named by its label, holding the unit move's value (fraction of
    /// the move; 1 is the target). With `plot`, also `<file>.svg`, whose legend shows each
    /// member's `legend` text.
    static func writeSpringFamily(_ members: [(label: String, legend: String, spring: Spring)], file: String, title: String,
                                  into directory: String, plot: Bool) throws -> [WrittenFile] {
        let end = members.map { $0.spring.settlingDuration() }.max() ?? 0
        guard end.isFinite else { throw SamplingError.neverSettles(spring: members.map(\.spring.description).joined(separator: ", ")) }
        let rowCount = Int((end * springRate).rounded(.up)) + 1
        var table = try CSVTable(columns: ["time"] + members.map(\.label))
        table.reserveCapacity(rows: rowCount)
        for i in 0..<rowCount {
            let t = Double(i) / springRate
            try table.append(row: [t] + members.map { $0.spring.value(at: t) })
        }
        let path = "\(directory)/\(file).csv"
        try writeCSV(table, to: path, createDirectory: true)
        var written = [WrittenFile(path: path, rows: table.rowCount, settling: end)]
        if plot {
            var svg = try SVGPlot(table: table, x: "time", ys: members.map(\.label), title: title,
                                  xLabel: "time (s)", yLabel: "position (fraction of the move)")
            for index in svg.series.indices { svg.series[index].name = members[index].legend }
            svg.yReferenceLines = [1]
            written.append(try writePlot(svg, to: "\(directory)/\(file).svg"))
        }
        return written
    }

    /// The damping-ratio family of `kinetic export`: ζ = 0.1 … 5 at response 0.5 s.
    static func dampingRatioFamily() throws -> [(label: String, legend: String, spring: Spring)] {
        try [0.1, 0.2, 0.5, 1, 2, 5].map {
            ("zeta=\(label($0))", "ζ = \(label($0))", try Spring(dampingRatio: $0, response: 0.5))
        }
    }

    /// The bounce family of `kinetic export`: bounce −0.5 … 0.75 at duration 0.5 s.
    static func bounceFamily() throws -> [(label: String, legend: String, spring: Spring)] {
        try [-0.5, -0.25, 0, 0.25, 0.5, 0.75].map {
            ("bounce=\(label($0))", "bounce = \(label($0).replacingMinus)", try Spring(duration: 0.5, bounce: $0))
        }
    }

    // MARK: - Keyframes

    /// `keyframes-example.json` (a description `kinetic bake` reads) and its bake at
    /// ``keyframesRate``, `keyframes-example.csv`; with `plots`, also
    /// `keyframes-example.svg` (opacity and tint, unitless in [0, 1]) and
    /// `keyframes-example-geometry.svg` (position and frame, points).
    static func writeKeyframesExample(into directory: String, plots: Bool) throws -> [WrittenFile] {
        let base = "\(directory)/keyframes-example"
        try writeText(keyframesExample, to: base + ".json", createDirectory: true)
        let baked = try bake(KeyframeDescription(json: keyframesExample, source: base + ".json"), rate: keyframesRate)
        try writeCSV(baked, to: base + ".csv", createDirectory: true)
        var written = [WrittenFile(path: base + ".csv", rows: baked.rowCount)]
        guard plots else { return written }
        let unit = baked.columns.filter { $0 == "opacity" || $0.hasPrefix("tint.") }
        let geometry = baked.columns.filter { $0.hasPrefix("position.") || $0.hasPrefix("frame.") }
        let plot = try SVGPlot(table: baked, x: "time", ys: unit, title: "Keyframed example: opacity and tint",
                               xLabel: "time (s)", yLabel: "value (unitless, 0 … 1)")
        written.append(try writePlot(plot, to: base + ".svg"))
        let geometryPlot = try SVGPlot(table: baked, x: "time", ys: geometry, title: "Keyframed example: position and frame",
                                       xLabel: "time (s)", yLabel: "coordinate (points)")
        written.append(try writePlot(geometryPlot, to: base + "-geometry.svg"))
        return written
    }

    /// The keyframed example (a description `kinetic bake` reads; see KeyframeDescription).
    static let keyframesExample = """
        {
          "duration": 0.5,
          "timingCurve": "ease-in-out",
          "properties": [
            {
              "name": "opacity",
              "type": "scalar",
              "keyTimes": [0, 0.25, 1],
              "values": [0, 1, 0.5],
              "interpolation": ["linear", "hold"]
            },
            {
              "name": "position",
              "type": "point",
              "keyTimes": [0, 0.4, 1],
              "values": [[0, 0], [120, -40], [200, 0]],
              "interpolation": "catmull-rom"
            },
            {
              "name": "frame",
              "type": "rect",
              "values": [[0, 0, 100, 100], [10, 10, 80, 80], [0, 0, 120, 60]],
              "interpolation": "linear",
              "easings": ["ease-out", [0.5, -0.5, 0.5, 1.5]]
            },
            {
              "name": "tint",
              "type": "color",
              "values": [[1, 0, 0, 1], [0, 0, 1, 1], [0, 1, 0, 0.5]],
              "calculationMode": "paced"
            },
            {
              "name": "transform",
              "type": "transform2d",
              "keyTimes": [0, 1],
              "values": [[1, 0, 0, 1, 0, 0], [0, 1, -1, 0, 30, 10]],
              "interpolation": "ease"
            }
          ]
        }

        """

    // MARK: - Helpers

    /// Writes `plot` as SVG to `path` (atomically, creating the directory).
    static func writePlot(_ plot: SVGPlot, to path: String) throws -> WrittenFile {
        try writeText(plot.render(), to: path, createDirectory: true)
        return WrittenFile(path: path)
    }

    /// `0.2` → "0.2", `1.0` → "1", `-0.5` → "-0.5".
    static func label(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// An aligned table: file, rows ("-" for SVG/JSON), settling time in seconds ("-" when
    /// not a spring).
    static func report(_ files: [WrittenFile]) -> String {
        let header = ("file", "rows", "settling (s)")
        let cells = files.map { file in
            (file.path, file.rows.map(String.init) ?? "-", file.settling.map { formatSeconds($0) } ?? "-")
        }
        let w0 = max(header.0.count, cells.map(\.0.count).max() ?? 0)
        let w1 = max(header.1.count, cells.map(\.1.count).max() ?? 0)
        let w2 = max(header.2.count, cells.map(\.2.count).max() ?? 0)
        func pad(_ s: String, _ w: Int, left: Bool) -> String {
            let fill = String(repeating: " ", count: max(0, w - s.count))
            return left ? s + fill : fill + s
        }
        var text = ""
        for (a, b, c) in [header] + cells {
            text += pad(a, w0, left: true) + "  " + pad(b, w1, left: false) + "  " + pad(c, w2, left: false) + "\n"
        }
        return text
    }

    /// A non-negative number with 4 decimals (display only; the CSV holds the exact value).
    static func formatSeconds(_ seconds: Double) -> String {
        fixed(seconds, decimals: 4)
    }

    /// `value` rounded to `decimals` (1 to 9) decimals, all of them printed (`-182.7`,
    /// `0.400`); display only.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var unit = 1
        for _ in 0 ..< decimals { unit *= 10 }
        let scaled = Int((abs(value) * Double(unit)).rounded())
        let digits = String(scaled % unit)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return sign + "\(scaled / unit)." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// A number for titles: at most 4 decimals, trailing zeros dropped (`0.5`, `12.5664`).
    static func compact(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return value.description }
        let scaled = Int((abs(value) * 10_000).rounded())
        var fraction = String(scaled % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return sign + String(scaled / 10_000) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

extension String {
    /// The text with ASCII hyphen-minus replaced by the minus sign − (U+2212), for display.
    var replacingMinus: String { String(map { $0 == "-" ? "\u{2212}" : $0 }) }
}
