import ArgumentParser
import Kinetic
import KineticExport

import KineticPlatform

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

    func validate() throws {
        try checkDirectory(directory, option: "dir")
    }

    func run() throws {
        let directory = self.directory.hasSuffix("/") && self.directory.count > 1 ? String(self.directory.dropLast()) : self.directory
        var written: [WrittenFile] = []
        let progress = Progress("export", total: 5)
        defer { progress.finish() }
        progress.step(1, "bezier presets")
        written += try CuratedData.writePresets(into: directory, plots: true)
        progress.step(2, "spring-damping-ratio")
        written += try CuratedData.writeSpringFamily(
            CuratedData.dampingRatioFamily(), file: "spring-damping-ratio",
            title: "Springs by damping ratio ζ (response 0.5 s)", into: directory, plot: true)
        progress.step(3, "spring-bounce")
        written += try CuratedData.writeSpringFamily(
            CuratedData.bounceFamily(), file: "spring-bounce",
            title: "Springs by bounce (duration 0.5 s)", into: directory, plot: true)
        progress.step(4, "keyframes-example")
        written += try CuratedData.writeKeyframesExample(into: directory, plots: true)
        progress.step(5, "benchmarks")
        let note = try copyBenchmarks(into: directory, written: &written)
        progress.finish()
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
        try writeText(text, to: destination, createDirectory: true)
        written.append(WrittenFile(path: destination, rows: rows))
        // The CI gate's ratio table and its plot (.ci/check-benchmarks.py) sit next to the
        // results; copy them too, so that the exported ratios always match the exported results.
        let source = benchmarks.contains("/") ? String(benchmarks[..<benchmarks.lastIndex(of: "/")!]) : "."
        for name in ["benchmarks-ratios.csv", "benchmarks-ratios.svg"] where access("\(source)/\(name)", R_OK) == 0 {
            let sibling = try TextFile.read(atPath: "\(source)/\(name)")
            try writeText(sibling, to: "\(directory)/\(name)", createDirectory: true)
            written.append(WrittenFile(path: "\(directory)/\(name)",
                                       rows: name.hasSuffix(".csv") ? max(0, sibling.split(separator: "\n").count - 1) : nil))
        }
        return "benchmarks: copied \(benchmarks) (and the ratios beside it, if any) to \(directory)"
    }

    /// Whether two paths name the same existing file (same device and inode).
    private func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
