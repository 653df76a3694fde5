import ArgumentParser
import Kinetic
import KineticExport

/// `kinetic sample …`: one subcommand per kind of motion.
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Sample a timing curve, a spring, a decay or a fling to CSV.",
        subcommands: [SampleBezierCommand.self, SampleSpringCommand.self, SampleDecayCommand.self, SampleFlingCommand.self]
    )
}

/// `kinetic sample bezier <curve> [--count N | --x-values FILE] [--output FILE]`.
struct SampleBezierCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bezier",
        abstract: "Sample a cubic-bezier curve: CSV columns x,value,slope.",
        discussion: """
            Without --x-values, samples x = i/(count-1) for i = 0 … count-1 (0 and 1 included). \
            With --x-values, evaluates the x values listed in FILE (one per line and/or \
            comma-separated; blank lines ignored); outside [0, 1] the curve is extrapolated \
            along its end tangents. --output must end in .csv; an output estimated at over 1 GiB \
            is refused unless --force.
            """
    )

    @Argument(help: ArgumentHelp(
        "The curve: x1,y1,x2,y2 (e.g. 0.25,0.1,0.25,1), cubic-bezier(…), or a preset name (linear, ease, ease-in, ease-out, ease-in-out).",
        valueName: "curve"))
    var curve: String

    @Option(parsing: .unconditional, help: "Number of evenly spaced samples, 2 … 10000000 (default 101).")
    var count: Int?

    @Option(name: .customLong("x-values"), help: ArgumentHelp("Evaluate at the x values listed in this file.", valueName: "file"))
    var xValues: String?

    @Option(name: .shortAndLong, help: ArgumentHelp(outputHelp("CSV", ".csv"), valueName: "file.csv"))
    var output: String?

    @Flag(help: "Write the output even when it is estimated at over 1 GiB.")
    var force = false

    static let columns = ["x", "value", "slope"]

    func validate() throws {
        if count != nil && xValues != nil {
            throw ValidationError("give either --count or --x-values, not both")
        }
        if let count { try checkCount(count) }
        try checkOutput(output, accepts: [.csv], command: "sample bezier")
        let rows = Double(count ?? 101)
        try checkOutputSize(csvBytes(rows: rows, columns: Self.columns), force: force,
                            what: csvReckoning(rows: rows, columns: Self.columns.count))
    }

    func run() throws {
        let bezier = try CubicBezier(parsing: curve)
        let table: CSVTable
        if let xValues {
            let xs = try NumberList.parse(readNonEmpty(xValues, expecting: "x values"), source: xValues)
            guard !xs.isEmpty else { throw CLIError("\(xValues): no x values (only blank lines)") }
            let rows = Double(xs.count)
            try checkOutputSize(csvBytes(rows: rows, columns: Self.columns), force: force,
                                what: csvReckoning(rows: rows, columns: Self.columns.count))
            table = try sample(bezier, at: xs)
        } else {
            table = try sample(bezier, count: count ?? 101)
        }
        try emit(table, to: output)
    }
}

/// `kinetic sample spring <one parameterisation> [--velocity V] [--rate HZ] [--epsilon E]`.
struct SampleSpringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spring",
        abstract: "Sample a spring's unit move (0 → 1) until it settles: CSV columns time,value,velocity.",
        discussion: """
            Give exactly one parameterisation: --mass/--stiffness/--damping, \
            --damping-ratio/--response, --duration/--bounce, or --settling-duration/--damping-ratio \
            (--epsilon also sets the settling threshold); any other combination is an error naming \
            the options given and what is missing or extra. \
            Rows are at t = i/rate before the settling time, plus a last row at exactly the settling \
            time (the first time after which the motion stays within epsilon of 1). \
            --output must end in .csv; an output estimated at over 1 GiB is refused unless --force.
            """
    )

    @OptionGroup var spring: SpringOptions

    @Option(name: .shortAndLong, help: ArgumentHelp(outputHelp("CSV", ".csv"), valueName: "file.csv"))
    var output: String?

    @Flag(help: "Write the output even when it is estimated at over 1 GiB.")
    var force = false

    func validate() throws {
        try checkOutput(output, accepts: [.csv], command: "sample spring")
    }

    func run() throws {
        if let rows = try spring.estimatedRows() {
            let columns = ["time", "value", "velocity"]
            try checkOutputSize(csvBytes(rows: rows, columns: columns), force: force,
                                what: csvReckoning(rows: rows, columns: columns.count))
        }
        try emit(spring.sampled().table, to: output)
    }
}
