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
            return (code.rawValue == 0 ? 1 : code.rawValue, firstLine(of: message(for: error)))
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
