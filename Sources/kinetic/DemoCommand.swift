import ArgumentParser
import Kinetic

/// `kinetic demo [--output-dir DIR]`: writes the demo data set that `make demo` produces
/// and the plotting notebook reads.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Write every preset curve and a spring family to CSV files.",
        discussion: """
            Writes <dir>/bezier-<name>.csv for every preset curve (101 points, columns x,value,slope) \
            <dir>/spring-zeta-<z>.csv for damping ratios 0.2, 0.5, 1 and 2 at response 0.5 s, \
            sampled at 120 Hz until settled (columns time,value,velocity), and a keyframed example: \
            <dir>/keyframes-example.json baked at 60 Hz into <dir>/keyframes-example.csv \
            (the same as `kinetic bake`). Files are written atomically.
            """
    )

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("Directory for the CSV files (created if missing).", valueName: "dir"))
    var outputDirectory: String = "notebooks-data"

    /// The spring family: damping ratios at one response.
    static let dampingRatios: [Double] = [0.2, 0.5, 1, 2]
    static let springResponse = 0.5
    static let springRate = 120.0
    static let curveSamples = 101

    func run() throws {
        var written: [(file: String, rows: Int, settling: Double?)] = []
        let directory = outputDirectory.hasSuffix("/") ? String(outputDirectory.dropLast()) : outputDirectory
        for (name, curve) in CubicBezier.presets {
            let path = "\(directory)/bezier-\(name).csv"
            let table = try sample(curve, count: Self.curveSamples)
            try table.write(toFile: path, createDirectory: true)
            written.append((path, table.rowCount, nil))
        }
        for zeta in Self.dampingRatios {
            let spring = try Spring(dampingRatio: zeta, response: Self.springResponse)
            let path = "\(directory)/spring-zeta-\(Self.label(zeta)).csv"
            let table = try sample(spring, rate: Self.springRate)
            try table.write(toFile: path, createDirectory: true)
            written.append((path, table.rowCount, table[table.rowCount - 1, 0]))
        }
        let examplePath = "\(directory)/keyframes-example"
        try TextFile.write(Self.keyframesExample, toPath: examplePath + ".json", createDirectory: true)
        let baked = try bake(KeyframeDescription(json: Self.keyframesExample, source: examplePath + ".json"), rate: Self.keyframesRate)
        try baked.write(toFile: examplePath + ".csv", createDirectory: true)
        written.append((examplePath + ".csv", baked.rowCount, nil))
        print(Self.report(written), terminator: "")
    }

    static let keyframesRate = 60.0

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

    /// `0.2` → "0.2", `1.0` → "1".
    static func label(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// An aligned table: file, rows, settling time in seconds ("-" for curves).
    static func report(_ rows: [(file: String, rows: Int, settling: Double?)]) -> String {
        let header = ("file", "rows", "settling (s)")
        let cells = rows.map { row in
            (row.file, String(row.rows), row.settling.map { formatSeconds($0) } ?? "-")
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

    /// Seconds with 4 decimals (display only; the CSV holds the exact value).
    static func formatSeconds(_ seconds: Double) -> String {
        let scaled = (seconds * 10_000).rounded()
        let whole = Int(scaled) / 10_000
        let fraction = Int(scaled) % 10_000
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
