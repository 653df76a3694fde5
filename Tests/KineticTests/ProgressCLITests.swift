import Foundation
import XCTest

/// Progress of the long CLI commands (`kinetic export`, `kinetic bake`): shown on standard
/// error only when it is a terminal. Through pipes the commands print no progress at all; under
/// a pseudo-terminal (util-linux `script`) they do, and erase it before they end.
final class ProgressCLITests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kinetic-progress-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A large timeline: 3 properties over 200 s at 1 kHz = 200,001 rows.
        try """
            {"duration": 200, "properties": [
              {"name": "x", "type": "scalar", "values": [0, 1, 0.25, 3], "interpolation": "catmull-rom"},
              {"name": "p", "type": "point", "values": [[0, 0], [5, 9]], "interpolation": "linear"},
              {"name": "c", "type": "color", "values": [[1, 0, 0, 1], [0, 0, 1, 0.5]], "calculationMode": "paced"}]}
            """.write(to: directory.appendingPathComponent("large.json"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func executable() throws -> URL {
        guard let executable = CLITests.executable else {
            throw XCTSkip("the kinetic executable is not built next to the test bundle; set KINETIC_CLI to its path")
        }
        return executable
    }

    /// Runs `executable` with both standard output and standard error connected to pipes.
    private func runThroughPipes(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on another thread so that neither pipe can fill up and block the child.
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.isSet { usleep(1000) }
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData.value, as: UTF8.self))
    }

    func testNoProgressThroughPipes() throws {
        let kinetic = try executable()
        let export = try runThroughPipes(kinetic, ["export", "out", "--benchmarks", "none.csv"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stderr, "", "export printed to a piped stderr")
        XCTAssertFalse(export.stdout.contains("\r") || export.stdout.contains("\u{1B}"), export.stdout)
        XCTAssertTrue(export.stdout.contains("out/spring-bounce.csv"), export.stdout)

        let toFile = try runThroughPipes(kinetic, ["bake", "large.json", "--rate", "1000", "-o", "large.csv"])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertEqual(toFile.stderr, "", "bake printed to a piped stderr")
        XCTAssertEqual(toFile.stdout, "")
        let csv = try String(contentsOf: directory.appendingPathComponent("large.csv"), encoding: .utf8)
        XCTAssertEqual(csv.split(separator: "\n").count, 1 + 200_001)

        let toStdout = try runThroughPipes(kinetic, ["bake", "large.json", "--rate", "1000"])
        XCTAssertEqual(toStdout.status, 0, toStdout.stderr)
        XCTAssertEqual(toStdout.stderr, "")
        XCTAssertEqual(toStdout.stdout, csv, "the CSV on a pipe is exactly the file's")
    }

    func testProgressOnATerminalIsShownThenErased() throws {
        let kinetic = try executable()
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw XCTSkip("no /usr/bin/script (util-linux) to run the CLI on a pseudo-terminal")
        }
        // script runs the command on a pseudo-terminal; its own output is what the terminal showed.
        let command = "'\(kinetic.path)' bake large.json --rate 1000 -o large.csv"
        let result = try runThroughPipes(script, ["-qec", command, "/dev/null"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("bake [2/3] baking at 1000.0 Hz"), result.stdout.debugDescription)
        XCTAssertTrue(result.stdout.hasSuffix("\r\u{1B}[K"), "the progress line is erased at the end: \(result.stdout.debugDescription)")
    }
}

/// Data handed from the stderr reader thread to the test.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var done = false
    func set(_ d: Data) { lock.lock(); data = d; done = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return done }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}
