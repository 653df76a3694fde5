import Foundation
import Kinetic
import KineticExport
import XCTest

/// `kinetic plot`, `kinetic export`, notebooks-data/plot.py and curves.ipynb. The CLI is found
/// and run through ``CLITests/executable`` and ``CLITests/runExecutable(_:_:in:)``.
final class PlotCLITests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kinetic-plot-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// notebooks-data/ in the source tree (this file is Tests/KineticTests/PlotCLITests.swift).
    static let notebooksData = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("notebooks-data")

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let executable = CLITests.executable else {
            throw XCTSkip("the kinetic executable is not built next to the test bundle; set KINETIC_CLI to its path")
        }
        return try CLITests.runExecutable(executable, arguments, in: directory)
    }

    private func read(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    private func assertOneLineError(_ arguments: [String], contains expected: String,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try run(arguments)
        XCTAssertNotEqual(result.status, 0, "\(arguments) should fail", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("kinetic: error: ") && result.stderr.contains(expected),
                      "'\(result.stderr)' lacks '\(expected)'", file: file, line: line)
    }

    // MARK: - kinetic plot

    func testPlotBezierToStandardOutputAndFile() throws {
        let result = try run(["plot", "bezier", "ease", "0.2,0,0,1", "--slope", "--title", "Two & more"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(SVGSummary.parse(result.stdout))
        XCTAssertEqual(summary.seriesNames, ["ease", "ease slope", "0.2,0,0,1", "0.2,0,0,1 slope"])
        XCTAssertEqual(summary.seriesPaths.count, 4)
        XCTAssertTrue(summary.texts.contains("Two & more"))
        XCTAssertTrue(summary.texts.contains("linear progress x (fraction of the duration)"))

        let file = try run(["plot", "bezier", "ease-in-out", "--output", "out.svg"])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(file.stdout, "")
        let single = try XCTUnwrap(SVGSummary.parse(try read("out.svg")))
        XCTAssertEqual(single.seriesNames, ["ease-in-out"])
        XCTAssertTrue(single.texts.contains { $0.hasPrefix("ease-in-out: cubic-bezier(0.42, 0.0, 0.58, 1.0)") }, "\(single.texts)")
    }

    func testPlotSpringReusesTheSampleOptions() throws {
        let result = try run(["plot", "spring", "--duration", "0.5", "--bounce", "0.3", "--show-velocity", "-o", "s.svg"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(SVGSummary.parse(try read("s.svg")))
        XCTAssertEqual(summary.seriesNames, ["value", "velocity"])
        XCTAssertTrue(summary.texts.contains("time (s)"))
        XCTAssertTrue(summary.texts.contains { $0.contains("ζ = 0.7") }, "\(summary.texts)")
        try assertOneLineError(["plot", "spring", "--damping-ratio", "0.5"], contains: "--damping-ratio/--response is missing --response")
        try assertOneLineError(["plot", "spring", "--duration", "0.5", "--bounce", "1.5"], contains: "bounce = 1.5")
    }

    func testPlotTrackAndCSV() throws {
        let json = directory.appendingPathComponent("k.json")
        try """
            {"duration": 1, "properties": [
              {"name": "a", "type": "scalar", "values": [0, 1, 0], "interpolation": "hold"},
              {"name": "p", "type": "point", "values": [[0, 0], [10, 20]]}]}
            """.write(to: json, atomically: true, encoding: .utf8)
        let track = try run(["plot", "track", "k.json", "--rate", "30", "--style", "step"])
        XCTAssertEqual(track.status, 0, track.stderr)
        let trackSummary = try XCTUnwrap(SVGSummary.parse(track.stdout))
        XCTAssertEqual(trackSummary.seriesNames, ["a", "p.x", "p.y"])
        XCTAssertTrue(trackSummary.seriesPaths.allSatisfy { !$0.contains("L") }, "step style")

        try "t,u,v\n0,1,2\n1,3,nan\n2,5,6\n".write(to: directory.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
        let csv = try run(["plot", "csv", "d.csv", "--x", "t", "--y", "u, v", "--x-label", "t (s)", "--y-label", "u/v (m)"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let csvSummary = try XCTUnwrap(SVGSummary.parse(csv.stdout))
        XCTAssertEqual(csvSummary.seriesNames, ["u", "v"])
        XCTAssertTrue(csvSummary.texts.contains("t (s)") && csvSummary.texts.contains("u/v (m)"))

        try assertOneLineError(["plot", "csv", "d.csv", "--x", "t", "--y", "w"], contains: "no column 'w'")
        try assertOneLineError(["plot", "csv", "missing.csv", "--x", "t", "--y", "u"], contains: "missing.csv")
        try assertOneLineError(["plot", "track", "k.json", "--columns", "zz"], contains: "'zz'")
        try assertOneLineError(["plot", "bezier", "2,0,0,1"], contains: "x1 = 2.0")
        try assertOneLineError(["plot", "bezier", "ease", "--width", "20"], contains: "plot size")
    }

    // MARK: - kinetic export

    func testExportWritesTheCuratedSet() throws {
        let result = try run(["export", "out", "--benchmarks", "none.csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("none.csv not found"), result.stdout)
        let out = directory.appendingPathComponent("out")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        var expected: Set<String> = ["bezier-presets.svg", "bezier-presets-slope.svg", "spring-damping-ratio.csv",
                                     "spring-damping-ratio.svg", "spring-bounce.csv", "spring-bounce.svg",
                                     "keyframes-example.json", "keyframes-example.csv", "keyframes-example.svg",
                                     "keyframes-example-geometry.svg"]
        for (name, _) in CubicBezier.presets { expected.formUnion(["bezier-\(name).csv", "bezier-\(name).svg"]) }
        XCTAssertEqual(names, expected)
        for name in names where name.hasSuffix(".svg") {
            let summary = try XCTUnwrap(SVGSummary.parse(try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)))
            XCTAssertFalse(summary.seriesNames.isEmpty, name)
            XCTAssertTrue(summary.texts.contains { $0.contains("progress") || $0.contains("time (s)") }, name)
        }
        let presets = try XCTUnwrap(SVGSummary.parse(try String(contentsOf: out.appendingPathComponent("bezier-presets.svg"), encoding: .utf8)))
        XCTAssertEqual(presets.seriesNames, CubicBezier.presets.map(\.name))

        // The damping-ratio family: the physics, not the implementation, sets the numbers.
        let family = try CSVTable(parsing: String(contentsOf: out.appendingPathComponent("spring-damping-ratio.csv"), encoding: .utf8))
        XCTAssertEqual(family.columns, ["time", "zeta=0.1", "zeta=0.2", "zeta=0.5", "zeta=1", "zeta=2", "zeta=5"])
        XCTAssertEqual(family[1, 0], 1.0 / 120)
        for (column, zeta) in zip(family.columns.dropFirst(), [0.1, 0.2, 0.5, 1, 2, 5]) {
            let values = try XCTUnwrap(family.column(named: column))
            XCTAssertEqual(values[0], 0)
            XCTAssertEqual(values.last!, 1, accuracy: 1e-3, column)
            let peak = values.max()!
            if zeta < 1 {
                // Peak overshoot of an underdamped unit step: exp(−πζ/√(1−ζ²)).
                XCTAssertEqual(peak - 1, exp(-Double.pi * zeta / (1 - zeta * zeta).squareRoot()), accuracy: 5e-3, column)
            } else {
                XCTAssertLessThanOrEqual(peak, 1 + 1e-12, column)
            }
        }
        let bounce = try CSVTable(parsing: String(contentsOf: out.appendingPathComponent("spring-bounce.csv"), encoding: .utf8))
        XCTAssertEqual(bounce.columns, ["time", "bounce=-0.5", "bounce=-0.25", "bounce=0", "bounce=0.25", "bounce=0.5", "bounce=0.75"])
        let ratioSVG = try XCTUnwrap(SVGSummary.parse(try String(contentsOf: out.appendingPathComponent("spring-damping-ratio.svg"), encoding: .utf8)))
        XCTAssertEqual(ratioSVG.seriesNames, ["ζ = 0.1", "ζ = 0.2", "ζ = 0.5", "ζ = 1", "ζ = 2", "ζ = 5"])
        XCTAssertEqual(ratioSVG.seriesPaths.count, 6)
    }

    func testExportCopiesBenchmarkResultsWhenPresent() throws {
        try "benchmark,backend,size,ns_per_op\nbezier,native,1000,1.5\n"
            .write(to: directory.appendingPathComponent("bench.csv"), atomically: true, encoding: .utf8)
        let result = try run(["export", "out", "--benchmarks", "bench.csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try read("out/benchmarks.csv"), try read("bench.csv"))
        XCTAssertTrue(result.stdout.contains("copied bench.csv"), result.stdout)
    }

    // MARK: - Python side

    /// Runs `python3` with `arguments` through `/usr/bin/env`.
    private func python(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try CLITests.runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: directory)
    }

    func testPlotPyRendersPNGsWhenMatplotlibIsInstalled() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/env"),
              let probe = try? python(["-c", "import matplotlib"]), probe.status == 0 else {
            throw XCTSkip("python3 with matplotlib is not installed (`make plot-deps` installs it)")
        }
        // Data: the demo and export output when the CLI is built, else the checked-in CSVs.
        let data: String
        if CLITests.executable != nil {
            XCTAssertEqual(try run(["demo", "--output-dir", "data"]).status, 0)
            XCTAssertEqual(try run(["export", "data"]).status, 0)
            data = directory.appendingPathComponent("data").path
        } else {
            data = Self.notebooksData.path
        }
        let script = Self.notebooksData.appendingPathComponent("plot.py").path
        let result = try python([script, "--data", data, "--output", "png"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let pngs = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("png").path)
        XCTAssertTrue(pngs.contains("bezier-presets.png"), "\(pngs)")
        for name in pngs {
            XCTAssertTrue(name.hasSuffix(".png") && !name.hasPrefix("."), name)
            let bytes = try Data(contentsOf: directory.appendingPathComponent("png/\(name)"))
            XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], name)
            XCTAssertGreaterThan(bytes.count, 10_000, name)
        }
        if CLITests.executable != nil {
            XCTAssertEqual(pngs.count, 12, "\(pngs)")
        }
        // No CSV at all: a clear failure, not a crash.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let none = try python([script, "--data", "empty", "--output", "png2"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no CSV files"), none.stderr)
    }

    func testNotebookIsValidNbformat4() throws {
        let data = try Data(contentsOf: Self.notebooksData.appendingPathComponent("curves.ipynb"))
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(root["nbformat"] as? Int, 4)
        XCTAssertNotNil(root["nbformat_minor"] as? Int)
        XCTAssertNotNil(root["metadata"] as? [String: Any])
        let cells = try XCTUnwrap(root["cells"] as? [[String: Any]])
        XCTAssertGreaterThan(cells.count, 3)
        var sources = ""
        for cell in cells {
            let type = try XCTUnwrap(cell["cell_type"] as? String)
            XCTAssertTrue(["markdown", "code", "raw"].contains(type), type)
            XCTAssertNotNil(cell["metadata"] as? [String: Any])
            let source = try XCTUnwrap((cell["source"] as? [String]) ?? (cell["source"] as? String).map { [$0] })
            sources += source.joined()
            if type == "code" {
                XCTAssertEqual((cell["outputs"] as? [Any])?.count, 0, "no stored outputs")
                XCTAssertTrue(cell["execution_count"] is NSNull, "execution_count must be null")
            }
        }
        // It plots the exported families and the presets.
        for file in ["spring-damping-ratio.csv", "spring-bounce.csv", "bezier-"] {
            XCTAssertTrue(sources.contains(file), file)
        }
    }
}
