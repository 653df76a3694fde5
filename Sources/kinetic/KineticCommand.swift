import ArgumentParser
import Kinetic

@main
struct KineticCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kinetic",
        abstract: "Sample Kinetic's timing curves and springs to CSV, and run the demo."
    )
}
