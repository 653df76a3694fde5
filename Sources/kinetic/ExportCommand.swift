import ArgumentParser
import Kinetic

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `kinetic export DIR [--benchmarks FILE]`: writes the curated set of curves for plotting
/// (CSV with a header line, and an SVG next to each family or preset). The files are
/// described in notebooks-data/README.md.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the curated curves for plotting: presets, spring families, keyframes, benchmarks.",
        discussion: """
            Writes into <dir>: bezier-<name>.csv (x,value,slope; 101 points) and bezier-<name>.svg \
            for every preset, bezier-presets.svg and bezier-presets-slope.svg; \
            spring-damping-ratio.csv/.svg (time and one column per ζ = 0.1, 0.2, 0.5, 1, 2, 5 at \
            response 0.5 s) and spring-bounce.csv/.svg (bounce −0.5, −0.25, 0, 0.25, 0.5, 0.75 at \
            duration 0.5 s), both at 120 Hz up to the family's longest settling time; \
            keyframes-example.json/.csv/.svg and keyframes-example-geometry.svg; and a copy of the \
            benchmark results CSV when it exists. Files are written atomically.
            """
    )

    @Argument(help: ArgumentHelp("Directory to write into (created if missing).", valueName: "dir"))
    var directory: String

    @Option(help: ArgumentHelp("The benchmark results CSV to include, if it exists.", valueName: "file"))
    var benchmarks: String = "notebooks-data/benchmarks.csv"

    func run() throws {
        let directory = self.directory.hasSuffix("/") && self.directory.count > 1 ? String(self.directory.dropLast()) : self.directory
        var written: [WrittenFile] = []
        written += try CuratedData.writePresets(into: directory, plots: true)
        written += try CuratedData.writeSpringFamily(
            CuratedData.dampingRatioFamily(), file: "spring-damping-ratio",
            title: "Springs by damping ratio ζ (response 0.5 s)", into: directory, plot: true)
        written += try CuratedData.writeSpringFamily(
            CuratedData.bounceFamily(), file: "spring-bounce",
            title: "Springs by bounce (duration 0.5 s)", into: directory, plot: true)
        written += try CuratedData.writeKeyframesExample(into: directory, plots: true)
        let note = try copyBenchmarks(into: directory, written: &written)
        print(CuratedData.report(written), terminator: "")
        print(note)
    }

    /// Copies the benchmark results into the directory (unless they are already there) and
    /// returns a line saying what happened.
    private func copyBenchmarks(into directory: String, written: inout [WrittenFile]) throws -> String {
        let destination = "\(directory)/benchmarks.csv"
        guard access(benchmarks, R_OK) == 0 else {
            return "benchmarks: \(benchmarks) not found, so no benchmark results were exported "
                + "(the benchmark run writes that file; pass --benchmarks FILE to use another)"
        }
        let text = try TextFile.read(atPath: benchmarks)
        let rows = max(0, text.split(separator: "\n").count - 1)
        if sameFile(benchmarks, destination) {
            written.append(WrittenFile(path: destination, rows: rows))
            return "benchmarks: \(destination) is already in place"
        }
        try TextFile.write(text, toPath: destination, createDirectory: true)
        written.append(WrittenFile(path: destination, rows: rows))
        return "benchmarks: copied \(benchmarks) to \(destination)"
    }

    /// Whether two paths name the same existing file (same device and inode).
    private func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
