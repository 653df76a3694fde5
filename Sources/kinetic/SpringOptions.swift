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
}
