import ArgumentParser
import Kinetic
import KineticExport

/// Rows at t = i / rate before `end`, plus one at exactly `end` (columns time, offset,
/// velocity), checked against the sample-count limit and the output size.
private func motionTable(end: Double, rate: Double, force: Bool,
                         _ state: (Double) -> (offset: Double, velocity: Double)) throws -> CSVTable {
    let columns = ["time", "offset", "velocity"]
    let whole = (end * rate).rounded(.down)
    guard end.isFinite, whole + 2 <= Double(maximumSampleCount) else {
        throw CLIError("the motion lasts \(end) s: at \(rate) Hz that is more than \(maximumSampleCount) rows")
    }
    var rows = Int(whole) + 1
    if Double(rows - 1) / rate < end { rows += 1 }
    try checkOutputSize(csvBytes(rows: Double(rows), columns: columns), force: force,
                        what: csvReckoning(rows: Double(rows), columns: columns.count))
    var table = try CSVTable(columns: columns)
    table.reserveCapacity(rows: rows)
    for i in 0 ..< rows {
        let t = min(Double(i) / rate, end)
        let s = state(t)
        try table.append(row: [t, s.offset, s.velocity])
    }
    return table
}

/// The options every motion table takes: rows per second, the output file, --force.
struct MotionTableOptions: ParsableArguments {
    @Option(name: .customLong("sample-rate"), parsing: .unconditional, help: "Rows per second (default 60).")
    var sampleRate: Double = 60

    @Option(name: .shortAndLong, help: ArgumentHelp(outputHelp("CSV", ".csv"), valueName: "file.csv"))
    var output: String?

    @Flag(help: "Write the output even when it is estimated at over 1 GiB.")
    var force = false

    /// Checks the rate (finite, > 0) and the output for `command`.
    func check(_ command: String) throws {
        guard sampleRate.isFinite && sampleRate > 0 else {
            throw ValidationError("--sample-rate = \(sampleRate) is outside (0, ∞)")
        }
        try checkOutput(output, accepts: [.csv], command: command)
    }

    /// Samples `state` until `end` and writes the table.
    func write(end: Double, _ state: (Double) -> (offset: Double, velocity: Double)) throws {
        try emit(try motionTable(end: end, rate: sampleRate, force: force, state), to: output)
    }
}

/// `kinetic sample decay --velocity V [--deceleration-rate R | --friction-multiplier M] …`.
struct SampleDecayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decay",
        abstract: "Sample exponential deceleration from a release: CSV columns time,offset,velocity.",
        discussion: """
            UIScrollView's deceleration by default (--deceleration-rate, per millisecond: 0.998 \
            normal, 0.99 fast), rows until the content is within --epsilon of where it comes to \
            rest; or Jetpack Compose's exponentialDecay (--friction-multiplier, \
            --velocity-threshold), rows until the speed falls to the threshold. Offsets are from \
            the release position, in the velocity's units; times in seconds. --output must end \
            in .csv; an output estimated at over 1 GiB is refused unless --force.
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The release velocity, units per second.", valueName: "v"))
    var velocity: Double

    @Option(name: .customLong("deceleration-rate"), parsing: .unconditional, help: "UIScrollView's rate per millisecond, in (0, 1) (default 0.998).")
    var decelerationRate: Double?

    @Option(name: .customLong("friction-multiplier"), parsing: .unconditional, help: "Compose's friction multiplier (friction 4.2 × it).")
    var frictionMultiplier: Double?

    @Option(name: .customLong("velocity-threshold"), parsing: .unconditional, help: "Compose's stopping speed, units per second (default 0.1).")
    var velocityThreshold: Double?

    @Option(parsing: .unconditional, help: "For UIScrollView's decay: stop within this distance of rest, units, > 0 (default 0.5).")
    var epsilon: Double?

    @OptionGroup var table: MotionTableOptions

    func validate() throws {
        if decelerationRate != nil && (frictionMultiplier != nil || velocityThreshold != nil) {
            throw ValidationError("give --deceleration-rate (UIScrollView) or --friction-multiplier / --velocity-threshold (Compose), not both")
        }
        if epsilon != nil && (frictionMultiplier != nil || velocityThreshold != nil) {
            throw ValidationError("--epsilon applies to UIScrollView's decay (--deceleration-rate), not to Compose's "
                                  + "(--friction-multiplier / --velocity-threshold), which stops at its velocity threshold")
        }
        guard velocity.isFinite else { throw ValidationError("--velocity = \(velocity) is not a finite number") }
        // Compose clamps these (a multiplier to at least 0.0001, a threshold to its magnitude
        // and at least 1e-7); the tool refuses a value it would change, naming it.
        for (name, value) in [("friction-multiplier", frictionMultiplier), ("velocity-threshold", velocityThreshold),
                              ("epsilon", epsilon)] {
            if let value, !(value.isFinite && value > 0) {
                throw ValidationError("--\(name) = \(value) is outside (0, ∞)")
            }
        }
        if let frictionMultiplier, frictionMultiplier < 0.0001 {
            throw ValidationError("--friction-multiplier = \(frictionMultiplier) is outside [0.0001, ∞) (Compose's smallest)")
        }
        if let velocityThreshold, velocityThreshold < 1e-7 {
            throw ValidationError("--velocity-threshold = \(velocityThreshold) is outside [1e-07, ∞) (Compose's smallest)")
        }
        try table.check("sample decay")
    }

    func run() throws {
        let decay: ExponentialDecay
        let end: Double
        if frictionMultiplier != nil || velocityThreshold != nil {
            decay = try ExponentialDecay(frictionMultiplier: frictionMultiplier ?? 1, absVelocityThreshold: velocityThreshold ?? 0.1)
            end = decay.duration(initialVelocity: velocity)
        } else {
            decay = try ExponentialDecay(decelerationRate: decelerationRate ?? 0.998)
            end = try decay.duration(toWithin: epsilon ?? 0.5, initialVelocity: velocity)
        }
        try table.write(end: end) { t in
            (decay.offset(at: t, initialVelocity: velocity), decay.velocity(at: t, initialVelocity: velocity))
        }
    }
}

/// `kinetic sample fling --velocity V [--density D] [--friction F]`.
struct SampleFlingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fling",
        abstract: "Sample Android's fling (OverScroller's spline): CSV columns time,offset,velocity.",
        discussion: """
            A release at --velocity (pixels per second) on a screen of --density pixels per dp \
            with --friction (Android's ViewConfiguration.getScrollFriction(), 0.015): rows until \
            the fling's duration, the spline evaluated in double precision. --output must end in \
            .csv; an output estimated at over 1 GiB is refused unless --force.
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The release velocity, pixels per second.", valueName: "v"))
    var velocity: Double

    @Option(parsing: .unconditional, help: "Pixels per density-independent pixel (default 1: 160 dpi).")
    var density: Double = 1

    @Option(parsing: .unconditional, help: "The scroll friction (default 0.015, Android's).")
    var friction: Double = SplineFling.defaultFriction

    @OptionGroup var table: MotionTableOptions

    func validate() throws {
        guard velocity.isFinite else { throw ValidationError("--velocity = \(velocity) is not a finite number") }
        try table.check("sample fling")
    }

    func run() throws {
        let fling = try SplineFling(density: density, friction: friction)
        try table.write(end: fling.duration(initialVelocity: velocity)) { t in
            (fling.offset(at: t, initialVelocity: velocity), fling.velocity(at: t, initialVelocity: velocity))
        }
    }
}
