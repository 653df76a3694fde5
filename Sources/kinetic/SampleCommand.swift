import ArgumentParser
import Kinetic

/// `kinetic sample …`: one subcommand per kind of motion.
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Sample a timing curve or a spring to CSV.",
        subcommands: [SampleBezierCommand.self, SampleSpringCommand.self]
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
            along its end tangents.
            """
    )

    @Argument(help: ArgumentHelp(
        "The curve: x1,y1,x2,y2 (e.g. 0.25,0.1,0.25,1), cubic-bezier(…), or a preset name (linear, ease, ease-in, ease-out, ease-in-out).",
        valueName: "curve"))
    var curve: String

    @Option(help: "Number of evenly spaced samples, at least 2 (default 101).")
    var count: Int?

    @Option(name: .customLong("x-values"), help: ArgumentHelp("Evaluate at the x values listed in this file.", valueName: "file"))
    var xValues: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the CSV to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if count != nil && xValues != nil {
            throw ValidationError("give either --count or --x-values, not both")
        }
    }

    func run() throws {
        let bezier = try CubicBezier(parsing: curve)
        let table: CSVTable
        if let xValues {
            let xs = try NumberList.parse(TextFile.read(atPath: xValues), source: xValues)
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
            --damping-ratio/--response, --duration/--bounce, or --settling-duration/--damping-ratio. \
            Rows are at t = i/rate before the settling time, plus a last row at exactly the settling \
            time (the first time after which the motion stays within epsilon of 1).
            """
    )

    @Option(parsing: .unconditional, help: "Mass (> 0); with --stiffness and --damping.")
    var mass: Double?
    @Option(parsing: .unconditional, help: "Stiffness (> 0); with --mass and --damping.")
    var stiffness: Double?
    @Option(parsing: .unconditional, help: "Damping coefficient (≥ 0); with --mass and --stiffness.")
    var damping: Double?
    @Option(name: .customLong("damping-ratio"), parsing: .unconditional,
            help: "Damping ratio ζ; with --response or --settling-duration.")
    var dampingRatio: Double?
    @Option(parsing: .unconditional, help: "Response (undamped period), seconds; with --damping-ratio.")
    var response: Double?
    @Option(parsing: .unconditional, help: "Perceptual duration, seconds; with --bounce.")
    var duration: Double?
    @Option(parsing: .unconditional, help: "Bounce in (-1, 1); with --duration.")
    var bounce: Double?
    @Option(name: .customLong("settling-duration"), parsing: .unconditional,
            help: "Settling duration, seconds; with --damping-ratio.")
    var settlingDuration: Double?

    @Option(parsing: .unconditional, help: "Initial velocity, move distances per second.")
    var velocity: Double = 0
    @Option(parsing: .unconditional, help: "Samples per second (Hz).")
    var rate: Double = 120
    @Option(parsing: .unconditional, help: "Settling threshold, fraction of the move, in (0, 1).")
    var epsilon: Double = Spring.defaultEpsilon

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the CSV to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    /// The parameterisations, each with the options it needs.
    private var parameterisations: [(name: String, triggered: Bool, required: [(flag: String, given: Bool)])] {
        [
            ("--mass/--stiffness/--damping", mass != nil || stiffness != nil || damping != nil,
             [("--mass", mass != nil), ("--stiffness", stiffness != nil), ("--damping", damping != nil)]),
            ("--damping-ratio/--response", response != nil,
             [("--damping-ratio", dampingRatio != nil), ("--response", response != nil)]),
            ("--duration/--bounce", duration != nil || bounce != nil,
             [("--duration", duration != nil), ("--bounce", bounce != nil)]),
            ("--settling-duration/--damping-ratio", settlingDuration != nil,
             [("--settling-duration", settlingDuration != nil), ("--damping-ratio", dampingRatio != nil)]),
        ]
    }

    func validate() throws {
        let chosen = parameterisations.filter(\.triggered)
        if chosen.isEmpty {
            if dampingRatio != nil {
                throw ValidationError("--damping-ratio needs --response or --settling-duration")
            }
            throw ValidationError("no spring given: use one of " + parameterisations.map(\.name).joined(separator: ", "))
        }
        if chosen.count > 1 {
            throw ValidationError("give exactly one spring parameterisation, not " + chosen.map(\.name).joined(separator: " and "))
        }
        let missing = chosen[0].required.filter { !$0.given }.map(\.flag)
        if !missing.isEmpty {
            throw ValidationError("missing \(missing.joined(separator: " and ")) (parameterisation \(chosen[0].name))")
        }
    }

    func makeSpring() throws -> Spring {
        if let mass, let stiffness, let damping {
            return try Spring(mass: mass, stiffness: stiffness, damping: damping)
        }
        if let dampingRatio, let response {
            return try Spring(dampingRatio: dampingRatio, response: response)
        }
        if let duration, let bounce {
            return try Spring(duration: duration, bounce: bounce)
        }
        if let settlingDuration, let dampingRatio {
            return try Spring(settlingDuration: settlingDuration, dampingRatio: dampingRatio, epsilon: epsilon)
        }
        throw ValidationError("no spring given")  // unreachable after validate()
    }

    func run() throws {
        let table = try sample(makeSpring(), initialVelocity: velocity, rate: rate, epsilon: epsilon)
        try emit(table, to: output)
    }
}
