import ArgumentParser
import Kinetic

/// The `kinetic` command-line tool: samples Kinetic's curves and springs to CSV and writes
/// the demo data set. All numerics live in the Kinetic library; this target only parses
/// arguments and moves text.
@main
struct KineticCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kinetic",
        abstract: "Sample Kinetic's timing curves and springs to CSV, plot them to SVG, and run the demo.",
        discussion: """
            Numbers are written in Swift's shortest round-trip form and read back bit for bit; \
            non-finite values are written nan, inf and -inf.
            """,
        version: Kinetic.version,
        subcommands: [SampleCommand.self, DemoCommand.self, BakeCommand.self, PlotCommand.self, ExportCommand.self]
    )

    /// Runs the tool. Replaces ArgumentParser's default `main()` so that a failure prints a
    /// single line, `kinetic: error: <message>`, on stderr (no usage block, no stack trace)
    /// and exits non-zero. Help (`--help`, `help`) prints normally and exits 0. `SIGINT` and
    /// `SIGTERM` remove the temporary file of an atomic write in progress (``InterruptCleanup``).
    static func main() {
        InterruptCleanup.install()
        guard let failure = runCommand() else { return }
        if !failure.line.isEmpty {
            writeStandardError("kinetic: error: \(failure.line)\n")
        }
        terminate(failure.status)
    }

    /// Parses and runs the command; for a failure, its exit status and one-line message.
    /// A function of its own so that the error, and the parser state it holds, is released
    /// before the process ends: LeakSanitizer, which checks at exit, reported that state as
    /// leaked while `main` still held the error.
    private static func runCommand() -> (status: Int32, line: String)? {
        do {
            var command = try parseAsRoot()
            try command.run()
            return nil
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help, `kinetic help …`, and other clean exits: ArgumentParser's own output.
                exit(withError: error)
            }
            let text = (error as? ParameterError).map(OptionNames.describe) ?? message(for: error)
            return (code.rawValue == 0 ? 1 : code.rawValue, firstLine(of: text))
        }
    }

    /// The first non-empty line of `text`, without ArgumentParser's `Error: ` prefix.
    static func firstLine(of text: String) -> String {
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .first(where: { !$0.allSatisfy(\.isWhitespace) }) ?? ""
        var result = String(line)
        if result.hasPrefix("Error: ") { result.removeFirst("Error: ".count) }
        return result
    }
}

/// The tool's names for the library's parameters: an error the library throws for a value
/// the user typed names the option (`--velocity = nan is not a finite number`), not the
/// Swift parameter (`initialVelocity`).
enum OptionNames {
    static let byParameter: [String: String] = [
        "initialVelocity": "--velocity", "velocity": "--velocity", "decelerationRate": "--deceleration-rate",
        "frictionMultiplier": "--friction-multiplier", "absVelocityThreshold": "--velocity-threshold",
        "velocityThreshold": "--velocity-threshold", "dampingRatio": "--damping-ratio",
        "settlingDuration": "--settling-duration", "density": "--density", "friction": "--friction",
        "mass": "--mass", "stiffness": "--stiffness", "damping": "--damping", "response": "--response",
        "duration": "--duration", "bounce": "--bounce", "rate": "--rate", "epsilon": "--epsilon",
    ]

    /// The error's message with the parameter replaced by the option it came from, where the
    /// tool has one (a curve's `x1` and the like keep their names).
    static func describe(_ error: ParameterError) -> String {
        let text = error.description
        guard let option = byParameter[error.parameter], text.hasPrefix(error.parameter) else { return text }
        return option + text.dropFirst(error.parameter.count)
    }
}
