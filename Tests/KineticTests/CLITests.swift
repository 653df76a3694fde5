import Foundation
import Kinetic
import KineticExport
import XCTest

/// End-to-end tests of the `kinetic` command-line tool: they run the built executable
/// (found next to the test bundle in the build folder, or at `$KINETIC_CLI`) and check its
/// output, its one-line errors and its exit codes. Skipped when the executable is not built.
final class CLITests: XCTestCase {

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kinetic-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The `kinetic` executable built alongside this test bundle.
    static let executable: URL? = {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["KINETIC_CLI"], fileManager.isExecutableFile(atPath: override) {
            return URL(fileURLWithPath: override)
        }
        var folders: [URL] = []
        // Linux: the test runner is <build>/<config>/KineticPackageTests.xctest, an executable.
        // macOS: the bundle is <build>/<config>/KineticPackageTests.xctest/, a directory.
        let bundle = Bundle(for: CLITests.self).bundleURL
        folders.append(bundle.deletingLastPathComponent())
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let link = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: link).deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent("kinetic")
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }()

    private func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        guard let executable = Self.executable else {
            throw XCTSkip("the kinetic executable is not built next to the test bundle; set KINETIC_CLI to its path")
        }
        let (status, stdout, stderr) = try Self.runExecutable(executable, arguments, in: directory)
        return Result(status: status, stdout: stdout, stderr: stderr)
    }

    /// Runs `executable` with `arguments` in `directory`, capturing its exit status, standard
    /// output and standard error (through files in `directory`, removed afterwards).
    static func runExecutable(_ executable: URL, _ arguments: [String], in directory: URL) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent("stdout-\(id)")
        let errURL = directory.appendingPathComponent("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        return (process.terminationStatus,
                try String(contentsOf: outURL, encoding: .utf8),
                try String(contentsOf: errURL, encoding: .utf8))
    }

    /// Runs a command that must fail with exactly one line on stderr that contains `expected`.
    private func assertOneLineError(_ arguments: [String], contains expected: String,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try run(arguments)
        XCTAssertNotEqual(result.status, 0, "\(arguments) should fail", file: file, line: line)
        XCTAssertEqual(result.stdout, "", "\(arguments) printed to stdout", file: file, line: line)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "expected one line, got: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(lines.last, "", "the line must end with a newline", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("kinetic: error: "), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(expected), "'\(result.stderr)' lacks '\(expected)'", file: file, line: line)
    }

    private func temporaryFiles() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
    }

    // MARK: - Bezier

    func testVersionOptionPrintsTheLibraryVersion() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, Kinetic.version + "\n")
        XCTAssertEqual(result.stderr, "")
    }

    func testSampleBezierWritesCSVToStandardOutput() throws {
        let result = try run(["sample", "bezier", "0.25,0.1,0.25,1", "--count", "101"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let table = try CSVTable(parsing: result.stdout)
        XCTAssertEqual(table.columns, ["x", "value", "slope"])
        XCTAssertEqual(table.rowCount, 101)
        XCTAssertEqual(Array(table.row(0).prefix(2)), [0, 0])
        XCTAssertEqual(Array(table.row(100).prefix(2)), [1, 1])
        // The CLI's numbers are the library's, bit for bit.
        let expected = try sample(CubicBezier.ease, count: 101)
        XCTAssertEqual(table.values.map(\.bitPattern), expected.values.map(\.bitPattern))
        XCTAssertTrue(result.stdout.hasPrefix("x,value,slope\n0.0,0.0,"))
    }

    func testSampleBezierAcceptsPresetNamesAndDefaultsTo101Rows() throws {
        let result = try run(["sample", "bezier", "ease-in-out"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let table = try CSVTable(parsing: result.stdout)
        XCTAssertEqual(table.rowCount, 101)
        XCTAssertEqual(table[50, 1], 0.5, accuracy: 1e-12)  // ease-in-out is symmetric
    }

    func testSampleBezierAtXValuesFromAFile() throws {
        try "0.5\n\n0.25, 0.75\n1.5\n".write(to: directory.appendingPathComponent("xs.txt"), atomically: true, encoding: .utf8)
        let result = try run(["sample", "bezier", "linear", "--x-values", "xs.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let table = try CSVTable(parsing: result.stdout)
        XCTAssertEqual(table.column(named: "x"), [0.5, 0.25, 0.75, 1.5])
        XCTAssertEqual(table.column(named: "value"), [0.5, 0.25, 0.75, 1.5])
    }

    func testOutputOptionWritesTheFileAtomically() throws {
        let result = try run(["sample", "bezier", "ease", "--count", "11", "--output", "curve.csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        let text = try String(contentsOf: directory.appendingPathComponent("curve.csv"), encoding: .utf8)
        XCTAssertEqual(try CSVTable(parsing: text).rowCount, 11)
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testBezierErrorsAreOneLine() throws {
        try assertOneLineError(["sample", "bezier", "1.5,0,1,1"], contains: "x1 = 1.5 is outside [0, 1]")
        try assertOneLineError(["sample", "bezier", "nan,0,1,1"], contains: "x1 = nan is not a finite number")
        try assertOneLineError(["sample", "bezier", "0.2,0.1,0.3"], contains: "is not a curve")
        try assertOneLineError(["sample", "bezier", "bouncy"], contains: "'bouncy' is not a curve")
        try assertOneLineError(["sample", "bezier", "ease", "--count", "0"], contains: "count = 0 is outside [2, 10000000]")
        try assertOneLineError(["sample", "bezier", "ease", "--count", "1"], contains: "count")
        try assertOneLineError(["sample", "bezier", "ease", "--count", "abc"], contains: "'abc'")
        try assertOneLineError(["sample", "bezier", "ease", "--x-values", "missing.txt"],
                               contains: "'missing.txt': No such file or directory")
        try assertOneLineError(["sample", "bezier", "ease", "--count", "5", "--x-values", "xs.txt"], contains: "not both")
        try assertOneLineError(["sample", "bezier"], contains: "curve")
        try assertOneLineError(["sample", "bezier", "ease", "--frobnicate"], contains: "--frobnicate")
        try "0.5\n0.6\nzero\n".write(to: directory.appendingPathComponent("bad.txt"), atomically: true, encoding: .utf8)
        try assertOneLineError(["sample", "bezier", "ease", "--x-values", "bad.txt"], contains: "bad.txt:3: 'zero' is not a number")
        try assertOneLineError(["sample", "bezier", "ease", "--output", "no/such/dir/out.csv"], contains: "no/such/dir/out.csv")
    }

    // MARK: - Spring

    func testSampleSpringAllParameterisations() throws {
        let cases: [([String], Spring)] = [
            (["--mass", "1", "--stiffness", "100", "--damping", "10", "--velocity", "0", "--rate", "120"],
             try Spring(mass: 1, stiffness: 100, damping: 10)),
            (["--damping-ratio", "0.5", "--response", "0.5"], try Spring(dampingRatio: 0.5, response: 0.5)),
            (["--duration", "0.5", "--bounce", "-0.3"], try Spring(duration: 0.5, bounce: -0.3)),
            (["--settling-duration", "1", "--damping-ratio", "0.7"], try Spring(settlingDuration: 1, dampingRatio: 0.7)),
        ]
        for (arguments, spring) in cases {
            let result = try run(["sample", "spring"] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            let table = try CSVTable(parsing: result.stdout)
            XCTAssertEqual(table.columns, ["time", "value", "velocity"])
            XCTAssertEqual(table.row(0), [0, 0, 0])
            XCTAssertEqual(table[table.rowCount - 1, 0], spring.settlingDuration(), "\(arguments)")
            XCTAssertEqual(table[1, 0], 1.0 / 120)
        }
    }

    func testSpringVelocityRateAndEpsilonOptions() throws {
        let result = try run(["sample", "spring", "--mass", "1", "--stiffness", "100", "--damping", "10",
                              "--velocity", "-5", "--rate", "60", "--epsilon", "0.01"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let table = try CSVTable(parsing: result.stdout)
        XCTAssertEqual(table.row(0), [0, 0, -5])
        XCTAssertEqual(table[1, 0], 1.0 / 60)
        let spring = try Spring(mass: 1, stiffness: 100, damping: 10)
        XCTAssertEqual(table[table.rowCount - 1, 0], spring.settlingDuration(initialVelocity: -5, epsilon: 0.01))
    }

    /// `sample decay`: UIScrollView's by default, until within --epsilon of rest; Compose's
    /// with --friction-multiplier, until the threshold speed; `sample fling`: Android's fling
    /// until its duration, ending at its distance.
    func testSampleDecayAndFling() throws {
        let uikit = try CSVTable(parsing: try run(["sample", "decay", "--velocity", "1000"]).stdout)
        XCTAssertEqual(uikit.columns, ["time", "offset", "velocity"])
        XCTAssertEqual(uikit.row(0), [0, 0, 1000])
        let rest = ExponentialDecay.normal.restingOffset(initialVelocity: 1000)
        let last = uikit.rowCount - 1
        XCTAssertEqual(uikit[last, 1], rest, accuracy: 0.5 + 1e-9, "within --epsilon of rest")
        XCTAssertEqual(uikit[last, 0], try ExponentialDecay.normal.duration(toWithin: 0.5, initialVelocity: 1000))
        XCTAssertEqual(uikit[1, 0], 1.0 / 60)
        let compose = try CSVTable(parsing: try run(["sample", "decay", "--velocity=-800", "--friction-multiplier", "1",
                                                     "--velocity-threshold", "2", "--sample-rate", "100"]).stdout)
        XCTAssertEqual(compose[compose.rowCount - 1, 1], -190, accuracy: 1e-9, "Compose stops at (v ± threshold) / 4.2")
        XCTAssertEqual(compose[compose.rowCount - 1, 2], -2, accuracy: 1e-9)
        let fling = try SplineFling(density: 2.625)
        let table = try CSVTable(parsing: try run(["sample", "fling", "--velocity", "4000", "--density", "2.625"]).stdout)
        XCTAssertEqual(table.row(0)[2], 4000, accuracy: 1e-6, "starts at the release velocity")
        XCTAssertEqual(table[table.rowCount - 1, 0], fling.duration(initialVelocity: 4000))
        XCTAssertEqual(table[table.rowCount - 1, 1], fling.distance(initialVelocity: 4000))
        try assertOneLineError(["sample", "decay", "--velocity", "1", "--deceleration-rate", "1"], contains: "--deceleration-rate = 1.0")
        try assertOneLineError(["sample", "decay", "--velocity", "1", "--deceleration-rate", "0.99", "--friction-multiplier", "1"],
                               contains: "not both")
        try assertOneLineError(["sample", "decay", "--velocity", "1e308", "--deceleration-rate", "0.999999"], contains: "rows")
        try assertOneLineError(["sample", "fling", "--velocity", "100", "--density", "0"], contains: "density = 0.0")
        try assertOneLineError(["sample", "fling", "--velocity", "nan"], contains: "velocity")
        try assertOneLineError(["sample", "fling", "--velocity", "100", "--sample-rate", "-1"], contains: "sample-rate")
    }

    func testSpringErrorsAreOneLine() throws {
        try assertOneLineError(["sample", "spring"], contains: "no spring given")
        try assertOneLineError(["sample", "spring", "--mass", "1", "--stiffness", "100", "--damping", "10",
                                "--duration", "0.5", "--bounce", "0"], contains: "exactly one")
        try assertOneLineError(["sample", "spring", "--damping-ratio", "0.5", "--response", "0.5",
                                "--settling-duration", "1"], contains: "exactly one")
        try assertOneLineError(["sample", "spring", "--mass", "1", "--stiffness", "100"], contains: "missing --damping")
        try assertOneLineError(["sample", "spring", "--damping-ratio", "0.5"], contains: "--damping-ratio/--response is missing --response")
        try assertOneLineError(["sample", "spring", "--mass", "-1", "--stiffness", "100", "--damping", "10"],
                               contains: "mass = -1.0 is outside")
        try assertOneLineError(["sample", "spring", "--duration", "0.5", "--bounce", "1"], contains: "bounce = 1.0")
        try assertOneLineError(["sample", "spring", "--duration", "0.5", "--bounce", "0", "--rate", "0"], contains: "rate = 0.0")
        try assertOneLineError(["sample", "spring", "--duration", "0.5", "--bounce", "0", "--rate", "nan"], contains: "rate = nan")
        try assertOneLineError(["sample", "spring", "--duration", "0.5", "--bounce", "0", "--rate", "1e9"], contains: "limit")
        try assertOneLineError(["sample", "spring", "--mass", "1", "--stiffness", "100", "--damping", "0"], contains: "never settles")
        try assertOneLineError(["sample", "spring", "--duration", "x", "--bounce", "0"], contains: "'x'")
    }

    // MARK: - Demo and help

    func testDemoWritesEveryFileAndPrintsATable() throws {
        let result = try run(["demo", "--output-dir", "out/data"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let data = directory.appendingPathComponent("out/data")
        let names = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
        let expected = (CubicBezier.presets.map { "bezier-\($0.name).csv" }
            + ["spring-zeta-0.2.csv", "spring-zeta-0.5.csv", "spring-zeta-1.csv", "spring-zeta-2.csv",
               "keyframes-example.json", "keyframes-example.csv"]).sorted()
        let scenes = ["scene-1-fade-in", "scene-2-page-curl", "scene-3-grow-from-button", "scene-4-scale-segue",
                      "scene-5-interactive-dismissal"]
        XCTAssertEqual(names, (expected + scenes.flatMap { ["\($0).csv", "\($0).svg"] }).sorted())
        for (name, curve) in CubicBezier.presets {
            let table = try CSVTable(parsing: String(contentsOf: data.appendingPathComponent("bezier-\(name).csv"), encoding: .utf8))
            XCTAssertEqual(table.rowCount, 101)
            XCTAssertEqual(table.column(named: "value"), curve.values(at: (0...100).map { Double($0) / 100 }))
            XCTAssertTrue(result.stdout.contains("bezier-\(name).csv"))
        }
        for (label, zeta) in [("0.2", 0.2), ("0.5", 0.5), ("1", 1.0), ("2", 2.0)] {
            let spring = try Spring(dampingRatio: zeta, response: 0.5)
            let text = try String(contentsOf: data.appendingPathComponent("spring-zeta-\(label).csv"), encoding: .utf8)
            let table = try CSVTable(parsing: text)
            let settling = spring.settlingDuration()
            XCTAssertEqual(table[table.rowCount - 1, 0], settling)
            XCTAssertEqual(table[1, 0], 1.0 / 120)
            // The printed table names the file with its row count.
            let line = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.contains("spring-zeta-\(label).csv") })
            XCTAssertTrue(line.contains(" \(table.rowCount) "), String(line))
        }
        // The keyframed example bakes the JSON it wrote, as `kinetic bake` would.
        let exampleJSON = try String(contentsOf: data.appendingPathComponent("keyframes-example.json"), encoding: .utf8)
        let exampleCSV = try CSVTable(parsing: String(contentsOf: data.appendingPathComponent("keyframes-example.csv"), encoding: .utf8))
        let rebaked = try bake(KeyframeDescription(json: exampleJSON), rate: 60)
        XCTAssertEqual(exampleCSV.values.map(\.bitPattern), rebaked.values.map(\.bitPattern))
        // Header plus one line per CSV file (the JSON is not listed), all the same width up
        // to the last column.
        let lines = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("scene-") }
        XCTAssertEqual(lines.count, 1 + expected.count - 1)
        XCTAssertEqual(Set(lines.map(\.count)).count, 1, "columns are aligned")
        // One line per transition scene, with its callbacks in order; a timeline and a filmstrip each.
        let sceneLines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("scene-") }
        XCTAssertEqual(sceneLines.count, scenes.count)
        let grow = try XCTUnwrap(sceneLines.first { $0.hasPrefix("scene-3-grow-from-button:") })
        XCTAssertTrue(grow.contains("VCMain.viewWillDisappear > VCYellow.viewWillAppear > VCYellow.viewDidLayoutSubviews > "
            + "VCYellow.viewDidAppear > VCMain.viewDidDisappear > VCYellow.viewWillDisappear > VCMain.viewWillAppear"), String(grow))
        XCTAssertTrue(grow.contains("800 ms, 48 frames"), String(grow))
        // Scene 5: the cancelled dismissal gives UIKit's cancel order, then the second try finishes.
        let interactive = try XCTUnwrap(sceneLines.first { $0.hasPrefix("scene-5-interactive-dismissal:") })
        XCTAssertTrue(interactive.contains("callbacks: VCCard.viewWillDisappear > VCMain.viewWillAppear > VCMain.viewWillDisappear > "
            + "VCMain.viewDidDisappear > VCCard.viewWillAppear > VCCard.viewDidLayoutSubviews > VCCard.viewDidAppear > "
            + "VCCard.viewWillDisappear > VCMain.viewWillAppear > VCMain.viewDidLayoutSubviews > VCMain.viewDidAppear > "
            + "VCCard.viewDidDisappear;"), String(interactive))
        for scene in scenes {
            let svg = try String(contentsOf: data.appendingPathComponent("\(scene).svg"), encoding: .utf8)
            XCTAssertNotNil(SVGSummary.parse(svg), "\(scene).svg is well-formed XML")
            let csv = try String(contentsOf: data.appendingPathComponent("\(scene).csv"), encoding: .utf8)
            XCTAssertTrue(csv.hasPrefix("time,view,property,value,velocity\n"))
            // The filmstrip's last panel is the timeline's last frame: its time, and a box for
            // each view visible then.
            let records = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
            let end = try XCTUnwrap(records.compactMap { Double($0[0]) }.max())
            let visible = records.filter { Double($0[0]) == end && $0[2] == "hidden" && Double($0[3]) == 0 }.map { $0[1] }
            let lastPanel = try XCTUnwrap(svg.components(separatedBy: "<g transform=").last)
            let titles = lastPanel.components(separatedBy: "<title>").dropFirst()
                .map { String($0.prefix { $0 != "<" }) }
            XCTAssertEqual(titles.sorted(), visible.sorted(), "\(scene): last panel")
            XCTAssertTrue(lastPanel.contains(">\(Int((end * 1000).rounded())) ms</text>"), "\(scene): last panel's time")
        }
        // Scene 5 is driven by a synthetic pan: the card's y while it is dragged (the
        // transition paused: velocity 0) are the finger's samples. Through a VelocityTracker
        // they give, at each release, the velocity the card has just after it (the spring
        // keeps the finger's speed): moving back up at the first (cancelled), down at the second.
        XCTAssertTrue(interactive.contains("releases: at 0.400 s, y 337.6 pt, "), String(interactive))
        XCTAssertTrue(interactive.contains("cancelled | at 1.000 s, y 295.4 pt, "), String(interactive))
        XCTAssertTrue(interactive.hasSuffix(".svg") && interactive.contains("finished;"), String(interactive))
        let timeline = try String(contentsOf: data.appendingPathComponent("scene-5-interactive-dismissal.csv"), encoding: .utf8)
        let fields: [[Substring]] = timeline.split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let card: [(t: Double, y: Double, v: Double)] = fields.filter { $0[1] == "VCCard.view" && $0[2] == "y" }
            .map { (t: Double($0[0])!, y: Double($0[3])!, v: Double($0[4])!) }
        var tracker = try VelocityTracker()
        var released: [Double] = []
        for (k, row) in card.enumerated() {
            if row.v == 0 {
                try tracker.add(time: row.t, position: row.y)
            } else if k > 0, card[k - 1].v == 0 {
                try tracker.add(time: row.t, position: row.y)
                let estimate = tracker.velocity()
                XCTAssertEqual(row.v, estimate, accuracy: 1e-9 * abs(estimate), "release at \(row.t) s")
                released.append(row.v)
                tracker.reset()
            }
        }
        XCTAssertEqual(released.count, 2)
        XCTAssertLessThan(released.first ?? 0, -100, "released moving back up")
        XCTAssertGreaterThan(released.last ?? 0, 1000, "flicked down")
        // The cancelled spring comes to rest exactly at the start; the finished one takes
        // the card to the bottom edge (within the spring's settling tolerance, 0.001 of the move).
        let firstRelease = try XCTUnwrap(card.firstIndex { $0.v != 0 })
        XCTAssertEqual(card[firstRelease...].first { $0.v == 0 }?.y, 0)
        XCTAssertEqual(card.last?.y ?? 0, 844, accuracy: 0.001 * 844)
        // Scene 3: the snapshot grows from the button's frame to the full window, then the real view shows.
        let rows = try String(contentsOf: data.appendingPathComponent("scene-3-grow-from-button.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        let snapshotWidths = rows.filter { $0[1] == "snapshot" && $0[2] == "width" }.map { Double($0[3])! }
        XCTAssertEqual(snapshotWidths.first, 100, "starts at the button's width")
        XCTAssertTrue(snapshotWidths.contains(390), "reaches the window's width")
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testDemoDefaultsToNotebooksData() throws {
        let result = try run(["demo"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("notebooks-data/bezier-ease.csv").path))
    }

    func testHelpStillWorks() throws {
        for arguments in [["--help"], ["sample", "--help"], ["sample", "spring", "--help"], ["help", "demo"], []] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("USAGE:"), "\(arguments): \(result.stdout)")
        }
    }

    func testUnknownSubcommandIsOneLine() throws {
        try assertOneLineError(["frobnicate"], contains: "frobnicate")
    }
}
