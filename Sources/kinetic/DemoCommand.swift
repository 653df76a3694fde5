import ArgumentParser
import Kinetic

/// `kinetic demo [--output-dir DIR]`: writes the demo data set that `make demo` produces
/// and the plotting notebook reads.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Write the preset curves and a spring family to CSV, and run the seed transition scenes.",
        discussion: """
            Writes <dir>/bezier-<name>.csv for every preset curve (101 points, columns x,value,slope) \
            <dir>/spring-zeta-<z>.csv for damping ratios 0.2, 0.5, 1 and 2 at response 0.5 s, \
            sampled at 120 Hz until settled (columns time,value,velocity), and a keyframed example: \
            <dir>/keyframes-example.json baked at 60 Hz into <dir>/keyframes-example.csv \
            (the same as `kinetic bake`). Then runs the seed documents' transition scenes headlessly \
            on a manual clock at 60 frames per second (fade-in presentation, snapshot page curl, \
            VCYellow growing out of a button and back, ScaleSegue, an interactive dismissal \
            driven by a synthetic pan through a velocity tracker) and writes, per scene, \
            <dir>/scene-<n>-<name>.csv (columns time,view,property,value,velocity) and an SVG \
            filmstrip <dir>/scene-<n>-<name>.svg, printing one line per scene: duration, frames, \
            appearance callbacks in order, the gesture's releases, files. Files are written \
            atomically.
            """
    )

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("Directory for the CSV files (created if missing).", valueName: "dir"))
    var outputDirectory: String = "notebooks-data"

    /// The spring family: damping ratios at one response.
    static let dampingRatios: [Double] = [0.2, 0.5, 1, 2]
    static let springResponse = 0.5

    /// Each group of demo files in order; add a group by appending a line (the files it
    /// returns are listed in the printed table). The writing itself is in ``CuratedData``,
    /// shared with `kinetic export`.
    func validate() throws {
        try checkDirectory(outputDirectory, option: "output-dir")
    }

    func run() throws {
        let directory = outputDirectory.hasSuffix("/") ? String(outputDirectory.dropLast()) : outputDirectory
        var written: [WrittenFile] = []
        written += try CuratedData.writePresets(into: directory, plots: false)
        written += try CuratedData.writeSprings(dampingRatios: Self.dampingRatios, response: Self.springResponse, into: directory)
        written += try CuratedData.writeKeyframesExample(into: directory, plots: false)
        print(CuratedData.report(written), terminator: "")
        // The seed documents' transition scenes, on a manual clock at 60 frames per second.
        let scenes = try MainActor.assumeIsolated { try DemoScenes.runAll(into: directory) }
        for scene in scenes {
            let ms = Int((scene.duration * 1000).rounded())
            // A release: where and how fast the finger let go (the tracker's estimate), where
            // that projects to, and what it decided.
            let releases = scene.releases.map {
                "at \(CuratedData.fixed($0.time, decimals: 3)) s, y \(CuratedData.fixed($0.position, decimals: 1)) pt, "
                    + "\(CuratedData.fixed($0.velocity, decimals: 1)) pt/s, projected "
                    + "\(CuratedData.fixed($0.projected, decimals: 1)) pt: \($0.finished ? "finished" : "cancelled")"
            }
            print("\(scene.name): \(ms) ms, \(scene.frames) frames; callbacks: \(scene.callbacks.joined(separator: " > ")); "
                  + (releases.isEmpty ? "" : "releases: \(releases.joined(separator: " | ")); ") + "\(scene.csv), \(scene.svg)")
        }
    }
}
