import ArgumentParser
import Kinetic
import KineticExport

/// The spring options shared by `kinetic sample spring` and `kinetic plot spring`: exactly one
/// parameterisation (mass/stiffness/damping, damping ratio/response, duration/bounce, or
/// settling duration/damping ratio), the initial velocity, the sample rate and the settling
/// threshold.
struct SpringOptions: ParsableArguments {
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

    /// The four parameterisations, each with the options it takes (all required;
    /// `--epsilon` is always allowed: it is also the sampling threshold).
    static let parameterisations: [[String]] = [
        ["--mass", "--stiffness", "--damping"],
        ["--damping-ratio", "--response"],
        ["--duration", "--bounce"],
        ["--settling-duration", "--damping-ratio"],
    ]

    /// The spring options given, in a fixed order (mass, stiffness, damping, damping ratio, response, duration,
    /// bounce, settling duration).
    var givenOptions: [String] {
        let given: [(String, Bool)] = [
            ("--mass", mass != nil), ("--stiffness", stiffness != nil), ("--damping", damping != nil),
            ("--damping-ratio", dampingRatio != nil), ("--response", response != nil),
            ("--duration", duration != nil), ("--bounce", bounce != nil),
            ("--settling-duration", settlingDuration != nil),
        ]
        return given.filter(\.1).map(\.0)
    }

    /// Why `given` (spring option names) is not exactly one complete parameterisation, or
    /// nil when it is. One line naming the options given and, for the nearest
    /// parameterisations (fewest options missing plus extra; all ties), what is missing
    /// and what is extra — e.g. `conflicting spring options --duration, --bounce,
    /// --damping-ratio: --duration/--bounce does not take --damping-ratio`.
    static func problem(with given: [String]) -> String? {
        let names = parameterisations.map { $0.joined(separator: "/") }
        if given.isEmpty { return "no spring given: use one of " + names.joined(separator: ", ") }
        let givenSet = Set(given)
        if parameterisations.contains(where: { Set($0) == givenSet }) { return nil }
        let list = given.joined(separator: ", ")
        let complete = parameterisations.indices.filter { Set(parameterisations[$0]).isSubset(of: givenSet) }
        if complete.count > 1 {
            let extra = given.filter { option in !complete.contains { parameterisations[$0].contains(option) } }
            return "conflicting spring options \(list): give exactly one spring parameterisation, not "
                + complete.map { names[$0] }.joined(separator: " and ")
                + (extra.isEmpty ? "" : "; \(extra.joined(separator: ", ")) belong\(extra.count == 1 ? "s" : "") to none of them")
        }
        let candidates = parameterisations.indices.map { index -> (index: Int, missing: [String], extra: [String]) in
            let options = parameterisations[index]
            return (index, options.filter { !givenSet.contains($0) }, given.filter { !options.contains($0) })
        }.filter { $0.missing.count < parameterisations[$0.index].count }  // shares an option with `given`
        let best = candidates.map { $0.missing.count + $0.extra.count }.min() ?? 0
        let nearest = candidates.filter { $0.missing.count + $0.extra.count == best }
        let kind = nearest.contains { !$0.extra.isEmpty } ? "conflicting" : "incomplete"
        let reasons = nearest.map { candidate -> String in
            var parts: [String] = []
            if !candidate.missing.isEmpty { parts.append("is missing " + candidate.missing.joined(separator: " and ")) }
            if !candidate.extra.isEmpty { parts.append("does not take " + candidate.extra.joined(separator: ", ")) }
            return names[candidate.index] + " " + parts.joined(separator: " and ")
        }
        return "\(kind) spring options \(list): " + reasons.joined(separator: "; or ")
    }

    func validate() throws {
        if let problem = Self.problem(with: givenOptions) { throw ValidationError(problem) }
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

    /// An upper bound on the number of rows ``sampled()`` gives (settling time × rate + 2),
    /// or nil when that is not finite (``sampled()`` then throws).
    func estimatedRows() throws -> Double? {
        let end = try makeSpring().settlingDuration(initialVelocity: velocity, epsilon: epsilon)
        let rows = end * rate + 2
        return rows.isFinite && rate > 0 ? rows : nil
    }

    /// The spring and its unit move sampled until it settles. A damped spring whose settling
    /// time cannot be computed in `Double` (a huge `--velocity`, e.g. 1e308) is reported as
    /// such, naming the velocity; only an undamped spring "never settles".
    func sampled() throws -> (spring: Spring, table: SampleTable) {
        let spring = try makeSpring()
        do {
            return (spring, try sample(spring, initialVelocity: velocity, rate: rate, epsilon: epsilon))
        } catch SamplingError.neverSettles(_) where spring.damping > 0 {
            throw CLIError("--velocity = \(velocity) is too large: the settling time of \(spring) is not representable "
                           + "as a Double (the motion overflows)")
        }
    }
}
