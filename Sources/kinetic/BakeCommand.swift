import ArgumentParser
import Kinetic
import KineticExport

/// `kinetic bake FILE.json --rate HZ [--output FILE.csv]`: bakes a keyframe description to
/// a CSV timeline. Reading, validating and baking live in the library
/// (``KeyframeDescription``, ``bake(_:rate:)``); this command only moves text.
struct BakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bake",
        abstract: "Bake a keyframe description (JSON) to CSV: columns time,<property>[.<component>]….",
        discussion: """
            The JSON gives "duration" (seconds), an optional "timingCurve" (preset name or \
            [x1, y1, x2, y2]) and "properties": each with "name", "type" (scalar, point, size, \
            rect, color, transform2d), "values", optional "keyTimes", and "interpolation" \
            (hold, linear, catmull-rom or a curve; one or per segment) or "calculationMode" \
            (linear, discrete, paced, cubic, cubicPaced), plus optional per-segment "easings". \
            Rows are at t = i/rate before the duration, plus a last row at exactly the duration. \
            --output must end in .csv; an output estimated at over 1 GiB (rows × columns × 25 \
            bytes) is refused before baking unless --force; a table that would not fit in the \
            machine's memory is refused even with it.
            """
    )

    @Argument(help: ArgumentHelp("The keyframe description (JSON).", valueName: "file.json"))
    var file: String

    @Option(parsing: .unconditional, help: "Frames per second (Hz), > 0.")
    var rate: Double = 60

    @Option(name: .shortAndLong, help: ArgumentHelp(outputHelp("CSV", ".csv"), valueName: "file.csv"))
    var output: String?

    @Flag(help: "Write the output even when it is estimated at over 1 GiB.")
    var force = false

    func validate() throws {
        try checkOutput(output, accepts: [.csv], command: "bake")
    }

    func run() throws {
        let progress = Progress("bake", total: 3)
        defer { progress.finish() }
        progress.step(1, "reading \(file)")
        let description = try KeyframeDescription(json: readNonEmpty(file, expecting: "a keyframe description (JSON)"), source: file)
        let columns = ["time"] + description.properties.flatMap(\.columnNames)
        let rows = description.duration * rate + 2
        if rows.isFinite && rate > 0 {
            try checkOutputSize(csvBytes(rows: rows, columns: columns), force: force,
                                what: csvReckoning(rows: rows, columns: columns.count))
            try checkWorkingMemory(values: min(rows, Double(maximumSampleCount)) * Double(columns.count),
                                   what: "\(Int(min(rows, Double(maximumSampleCount)))) rows × \(columns.count) columns")
        }
        progress.step(2, "baking at \(rate) Hz")
        let table = try bake(description, rate: rate)
        progress.step(3, "writing \(output ?? "standard output")")
        if output == nil { progress.finish() }  // keep the CSV on a terminal clean
        try emit(table, to: output)
    }
}
