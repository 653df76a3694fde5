import Foundation
import Kinetic
import KineticExport
import XCTest

import KineticPlatform

/// End-to-end tests of the `kinetic` tool's handling of bad input and of output paths:
/// spring option combinations, negative and empty input, output extensions, devices, FIFOs,
/// links and directories, interruption by signals, and the 1 GiB output limit. The CLI is
/// found and run through ``CLITests/executable`` and ``CLITests/runExecutable(_:_:in:)``.
final class CLIInputTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kinetic-cli-input-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory {
            _ = chmod(directory.path, 0o755)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func executable() throws -> URL {
        guard let executable = CLITests.executable else {
            throw XCTSkip("the kinetic executable is not built next to the test bundle; set KINETIC_CLI to its path")
        }
        return executable
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try CLITests.runExecutable(executable(), arguments, in: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs a command that must fail with exactly one line on stderr containing each of
    /// `expected`; returns that line.
    @discardableResult
    private func assertOneLineError(_ arguments: [String], contains expected: [String],
                                    file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments)
        XCTAssertNotEqual(result.status, 0, "\(arguments) should fail", file: file, line: line)
        XCTAssertEqual(result.stdout, "", "\(arguments) printed to stdout", file: file, line: line)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("kinetic: error: ") && result.stderr.hasSuffix("\n"), result.stderr,
                      file: file, line: line)
        for text in expected {
            XCTAssertTrue(result.stderr.contains(text), "'\(result.stderr)' lacks '\(text)'", file: file, line: line)
        }
        return result.stderr
    }

    /// Files in the test directory whose name marks an atomic write's temporary file.
    private func temporaryFiles() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
    }

    private func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    // MARK: - 1. Spring parameterisations: every subset of the eight options

    func testEverySpringOptionSubsetIsExactlyOneParameterisationOrAOneLineError() throws {
        let options: [(name: String, value: String)] = [
            ("--mass", "1"), ("--stiffness", "100"), ("--damping", "10"), ("--damping-ratio", "0.5"),
            ("--response", "0.5"), ("--duration", "0.5"), ("--bounce", "0.2"), ("--settling-duration", "1"),
        ]
        let parameterisations: [[String]] = [
            ["--mass", "--stiffness", "--damping"], ["--damping-ratio", "--response"],
            ["--duration", "--bounce"], ["--settling-duration", "--damping-ratio"],
        ]
        var valid = 0
        for mask in 0 ..< (1 << options.count) {
            let given = options.indices.filter { mask & (1 << $0) != 0 }.map { options[$0] }
            let names = given.map(\.name)
            let arguments = ["sample", "spring", "--rate", "20"] + given.flatMap { [$0.name, $0.value] }
            let givenSet = Set(names)
            if parameterisations.contains(where: { Set($0) == givenSet }) {
                let result = try run(arguments)
                XCTAssertEqual(result.status, 0, "\(names): \(result.stderr)")
                valid += 1
                continue
            }
            let message = try assertOneLineError(arguments, contains: [])
            // The options named in the message: every one given is there.
            let named = Set(message.split(whereSeparator: { !($0.isLetter || $0 == "-") })
                .map(String.init).filter { $0.hasPrefix("--") })
            XCTAssertTrue(givenSet.isSubset(of: named), "\(names): \(message)")
            if names.isEmpty {
                XCTAssertTrue(message.contains("no spring given"), message)
                continue
            }
            let complete = parameterisations.filter { Set($0).isSubset(of: givenSet) }
            if complete.count > 1 {
                XCTAssertTrue(message.contains("exactly one"), "\(names): \(message)")
                for p in complete { XCTAssertTrue(message.contains(p.joined(separator: "/")), "\(names): \(message)") }
            } else if let p = complete.first {
                // One complete parameterisation plus extra options: the extras are named.
                let extra = names.filter { !p.contains($0) }
                XCTAssertTrue(message.contains("\(p.joined(separator: "/")) does not take \(extra.joined(separator: ", "))"),
                              "\(names): \(message)")
            } else if let nearest = parameterisations.filter({ givenSet.isStrictSubset(of: Set($0)) })
                        .min(by: { $0.count < $1.count }) {
                // Part of a parameterisation: what is missing is named.
                let missing = nearest.filter { !givenSet.contains($0) }
                XCTAssertTrue(message.contains("incomplete spring options"), "\(names): \(message)")
                XCTAssertTrue(message.contains("\(nearest.joined(separator: "/")) is missing \(missing.joined(separator: " and "))"),
                              "\(names): \(message)")
            } else {
                // Options of different parameterisations, none complete.
                XCTAssertTrue(message.contains("conflicting spring options"), "\(names): \(message)")
                XCTAssertTrue(message.contains("does not take"), "\(names): \(message)")
            }
        }
        XCTAssertEqual(valid, 4)
        // --epsilon goes with any of them (it is also the sampling threshold).
        XCTAssertEqual(try run(["sample", "spring", "--settling-duration", "1", "--damping-ratio", "0.7", "--epsilon", "0.01"]).status, 0)
        // The case from the report, and the same options in `plot spring`.
        try assertOneLineError(["sample", "spring", "--duration", "0.5", "--bounce", "0.3", "--damping-ratio", "0.5"],
                               contains: ["conflicting spring options --damping-ratio, --duration, --bounce",
                                          "--duration/--bounce does not take --damping-ratio"])
        try assertOneLineError(["plot", "spring", "--duration", "0.5", "--bounce", "0.3", "--damping-ratio", "0.5"],
                               contains: ["--duration/--bounce does not take --damping-ratio"])
    }

    // MARK: - 5. Values as given: negative numbers, empty input, huge values

    func testNegativeNumbersAreValuesAndFailTheRangeCheck() throws {
        try assertOneLineError(["sample", "bezier", "ease", "--count", "-5"], contains: ["count = -5 is outside [2, 10000000]"])
        try assertOneLineError(["sample", "bezier", "ease", "--count", "10000001"], contains: ["count = 10000001 is outside [2, 10000000]"])
        try assertOneLineError(["plot", "bezier", "ease", "--count", "-5"], contains: ["count = -5 is outside [2, 10000000]"])
        try assertOneLineError(["sample", "spring", "--duration", "0.5", "--bounce", "0", "--rate", "-60"], contains: ["rate = -60.0"])
        try #"{"duration": 1, "properties": [{"name": "a", "type": "scalar", "values": [0, 1]}]}"#
            .write(toFile: path("k.json"), atomically: true, encoding: .utf8)
        try assertOneLineError(["bake", "k.json", "--rate", "-1"], contains: ["rate = -1.0"])
        try assertOneLineError(["plot", "track", "k.json", "--rate", "-1"], contains: ["rate = -1.0"])
        try assertOneLineError(["plot", "bezier", "ease", "--width", "-5"], contains: ["-5.0"])
    }

    func testEmptyInputFilesAreErrorsNamingTheFile() throws {
        _ = FileManager.default.createFile(atPath: path("empty.txt"), contents: Data())
        _ = FileManager.default.createFile(atPath: path("blank.txt"), contents: Data("\n \n\n".utf8))
        _ = FileManager.default.createFile(atPath: path("empty.json"), contents: Data())
        _ = FileManager.default.createFile(atPath: path("header.csv"), contents: Data("x,y\n".utf8))
        try assertOneLineError(["sample", "bezier", "ease", "--x-values", "empty.txt"], contains: ["empty.txt", "empty"])
        try assertOneLineError(["sample", "bezier", "ease", "--x-values", "blank.txt"], contains: ["blank.txt"])
        try assertOneLineError(["bake", "empty.json"], contains: ["empty.json", "empty"])
        try assertOneLineError(["plot", "track", "empty.json"], contains: ["empty.json", "empty"])
        try assertOneLineError(["plot", "csv", "header.csv", "--x", "x", "--y", "y"], contains: ["header.csv", "no data rows"])
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testAHugeVelocitySettlesAndAnUnrepresentableOneSaysSo() throws {
        for velocity in ["1e308", "-1e308", "1e300"] {
            for spring in [["--mass", "1", "--stiffness", "100", "--damping", "10"], ["--damping-ratio", "2", "--response", "0.5"],
                           ["--damping-ratio", "1", "--response", "0.5"]] {
                let result = try run(["sample", "spring"] + spring + ["--velocity", velocity])
                XCTAssertEqual(result.status, 0, "\(spring) \(velocity): \(result.stderr)")
                let table = try CSVTable(parsing: result.stdout)
                let last = table[table.rowCount - 1, 1]
                XCTAssertEqual(last, 1, accuracy: 0.001 + 1e-12, "\(spring) \(velocity): settled within epsilon")
                XCTAssertTrue(table.values.allSatisfy(\.isFinite), "\(spring) \(velocity)")
            }
        }
        // The library agrees, and no longer calls a damped spring with a huge velocity unsettling.
        let spring = try Spring(mass: 1, stiffness: 100, damping: 10)
        XCTAssertTrue(spring.settlingDuration(initialVelocity: 1e308).isFinite)
        XCTAssertTrue(try Spring(dampingRatio: 3, response: 1).settlingDuration(initialVelocity: -1e308).isFinite)
        // A motion a Double cannot carry (positions near 2e311): said so, with the value; not
        // "never settles". At the default rate the output-size check speaks first.
        let message = try assertOneLineError(
            ["sample", "spring", "--mass", "1", "--stiffness", "1e-6", "--damping", "1e-3", "--velocity", "1.7976931348623157e308",
             "--rate", "1"],
            contains: ["--velocity = 1.7976931348623157e+308", "range of Double"])
        _ = try assertOneLineError(
            ["sample", "spring", "--mass", "1", "--stiffness", "1e-6", "--damping", "1e-3", "--velocity", "1.7976931348623157e308"],
            contains: ["over the 1 GiB limit", "--force"])
        XCTAssertFalse(message.contains("never settles"), message)
        try assertOneLineError(["sample", "spring", "--mass", "1", "--stiffness", "100", "--damping", "0"], contains: ["never settles"])
    }

    func testPlotAxesCoverHugeFiniteValues() throws {
        // ±1e308: the range is 2e308 wide, which overflows a Double when subtracted.
        let json = #"{"duration": 1, "properties": [{"name": "a", "type": "scalar", "values": [1e308, -1e308], "interpolation": "hold"}]}"#
        try json.write(toFile: path("huge.json"), atomically: true, encoding: .utf8)
        let track = try run(["plot", "track", "huge.json", "-o", "huge.svg"])
        XCTAssertEqual(track.status, 0, track.stderr)
        let svg = try String(contentsOfFile: path("huge.svg"), encoding: .utf8)
        let summary = try XCTUnwrap(SVGSummary.parse(svg))
        XCTAssertTrue(summary.texts.contains("\u{2212}1e308"), "\(summary.texts)")
        XCTAssertTrue(summary.texts.contains("1e308"), "\(summary.texts)")
        // The extremes of the double range, in a CSV.
        try "x,y\n0,1.7976931348623157e308\n1,-1.7976931348623157e308\n2,5\n".write(toFile: path("huge.csv"), atomically: true, encoding: .utf8)
        let csv = try run(["plot", "csv", "huge.csv", "--x", "x", "--y", "y"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let texts = try XCTUnwrap(SVGSummary.parse(csv.stdout)).texts
        XCTAssertTrue(texts.contains("\u{2212}1.5e308") && texts.contains("1.5e308") && texts.contains("0"), "\(texts)")
        // The ticks themselves: finite, increasing, covering what can be covered.
        for (lo, hi) in [(-1e308, 1e308), (-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude),
                         (1e308, 1e308), (Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude), (-1e300, 3)] {
            let ticks = try PlotAxisTicks(covering: lo, hi)
            XCTAssertTrue(ticks.values.allSatisfy(\.isFinite), "\(lo) … \(hi): \(ticks.values)")
            XCTAssertEqual(ticks.values, ticks.values.sorted(), "\(lo) … \(hi)")
            XCTAssertGreaterThanOrEqual(ticks.count, 2)
            if abs(lo) <= 1e308 && abs(hi) <= 1e308 {
                XCTAssertLessThanOrEqual(ticks.lowerBound, lo, "\(lo) … \(hi)")
                XCTAssertGreaterThanOrEqual(ticks.upperBound, hi, "\(lo) … \(hi)")
            }
        }
        XCTAssertEqual(try PlotAxisTicks(covering: -1e308, 1e308).labels.first, "\u{2212}1e308")
    }

    // MARK: - 2. The output format follows the extension

    func testOutputExtensionMustMatchWhatTheCommandWrites() throws {
        for (arguments, accepted) in [(["sample", "bezier", "ease"], ".csv"),
                                      (["sample", "spring", "--duration", "0.5", "--bounce", "0"], ".csv"),
                                      (["plot", "bezier", "ease"], ".svg"), (["bake", "missing.json"], ".csv")] {
            for name in ["out.png", "out", "out.json", accepted == ".csv" ? "out.svg" : "out.csv", "dir.csv/out"] {
                try assertOneLineError(arguments + ["-o", name], contains: ["'\(name)'", accepted])
                XCTAssertFalse(FileManager.default.fileExists(atPath: path(name)), name)
            }
        }
        let message = try assertOneLineError(["sample", "bezier", "ease", "-o", "out.png"], contains: ["has extension .png"])
        XCTAssertTrue(message.contains("writes .csv"), message)
        // Case-insensitive; `-` is standard output.
        XCTAssertEqual(try run(["sample", "bezier", "ease", "--count", "3", "-o", "OUT.CSV"]).status, 0)
        XCTAssertEqual(try CSVTable(parsing: String(contentsOfFile: path("OUT.CSV"), encoding: .utf8)).rowCount, 3)
        let stdout = try run(["sample", "bezier", "ease", "--count", "3", "-o", "-"])
        XCTAssertEqual(stdout.status, 0, stdout.stderr)
        XCTAssertEqual(try CSVTable(parsing: stdout.stdout).rowCount, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("-")))
        let svg = try run(["plot", "bezier", "ease", "-o", "-"])
        XCTAssertNotNil(SVGSummary.parse(svg.stdout), svg.stderr)
    }

    // MARK: - 3. Output paths that are not plain new files

    func testOutputPathsThatCannotBeWrittenFailCleanly() throws {
        // A directory, a file used as a directory, a missing parent (reliable even as root).
        try FileManager.default.createDirectory(atPath: path("folder"), withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: path("plain"), contents: Data("keep\n".utf8))
        try assertOneLineError(["sample", "bezier", "ease", "-o", "folder"], contains: ["'folder'", "directory"])
        try assertOneLineError(["plot", "bezier", "ease", "-o", "folder"], contains: ["'folder'", "directory"])
        try assertOneLineError(["sample", "bezier", "ease", "-o", "plain/out.csv"], contains: ["'plain/out.csv'", "Not a directory"])
        try assertOneLineError(["sample", "bezier", "ease", "-o", "no/such/dir/out.csv"],
                               contains: ["'no/such/dir/out.csv'", "No such file or directory"])
        // A read-only directory (not refused for root, who bypasses permission bits).
        try FileManager.default.createDirectory(atPath: path("readonly"), withIntermediateDirectories: false)
        _ = chmod(path("readonly"), 0o555)
        let readOnly = try run(["sample", "bezier", "ease", "-o", "readonly/out.csv"])
        if getuid() != 0 {
            XCTAssertNotEqual(readOnly.status, 0)
            XCTAssertTrue(readOnly.stderr.contains("'readonly/out.csv'") && readOnly.stderr.contains("Permission denied"), readOnly.stderr)
        }
        _ = chmod(path("readonly"), 0o755)
        XCTAssertEqual(try String(contentsOfFile: path("plain"), encoding: .utf8), "keep\n")
        XCTAssertEqual(fileType(path("folder")), S_IFDIR)
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testDevicesAreWrittenInPlaceAndAFullDiskFails() throws {
        // /dev/null: written directly, still the device.
        for arguments in [["sample", "bezier", "ease"], ["plot", "bezier", "ease"]] {
            let result = try run(arguments + ["-o", "/dev/null"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertEqual(fileType("/dev/null"), S_IFCHR)
        // /dev/full: ENOSPC, one line naming it, and the device node untouched.
        guard fileType("/dev/full") == S_IFCHR else { throw XCTSkip("no /dev/full here") }
        for arguments in [["sample", "bezier", "ease", "--count", "10000"], ["plot", "bezier", "ease"],
                          ["sample", "spring", "--duration", "0.5", "--bounce", "0"]] {
            try assertOneLineError(arguments + ["-o", "/dev/full"], contains: ["'/dev/full'", "No space left on device"])
        }
        XCTAssertEqual(fileType("/dev/full"), S_IFCHR)
        // A link to /dev/full is followed to the device, and kept.
        XCTAssertEqual(symlink("/dev/full", path("full.csv")), 0)
        try assertOneLineError(["sample", "bezier", "ease", "-o", "full.csv"], contains: ["'full.csv'", "No space left on device"])
        XCTAssertEqual(fileType(path("full.csv")), S_IFLNK)
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testAFIFOIsWrittenDirectly() throws {
        let fifo = path("pipe.csv")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        // Read the FIFO concurrently: the writer's open waits for this reader.
        let received = ReceivedText()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) {
                received.set(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
                try? handle.close()
            }
            received.done.signal()
        }
        reader.start()
        let result = try run(["sample", "bezier", "ease", "--count", "5", "-o", "pipe.csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(received.done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(try CSVTable(parsing: received.get()).rowCount, 5)
        XCTAssertEqual(fileType(fifo), S_IFIFO, "the FIFO is not replaced")
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testSymbolicLinksAreFollowedAndKept() throws {
        // A link to a file: the file is replaced (atomically, next to it), the link kept.
        try FileManager.default.createDirectory(atPath: path("data"), withIntermediateDirectories: false)
        try "old\n".write(toFile: path("data/real.csv"), atomically: true, encoding: .utf8)
        _ = chmod(path("data/real.csv"), 0o600)
        XCTAssertEqual(symlink("data/real.csv", path("link.csv")), 0)
        let result = try run(["sample", "bezier", "ease", "--count", "4", "-o", "link.csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(fileType(path("link.csv")), S_IFLNK)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.csv")), "data/real.csv")
        XCTAssertEqual(try CSVTable(parsing: String(contentsOfFile: path("data/real.csv"), encoding: .utf8)).rowCount, 4)
        var info = stat()
        XCTAssertEqual(stat(path("data/real.csv"), &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the target keeps its permissions")
        // A chain of links, relative to each link's own directory.
        XCTAssertEqual(symlink("../link.csv", path("data/chain.csv")), 0)
        XCTAssertEqual(try run(["sample", "bezier", "ease", "--count", "6", "-o", "data/chain.csv"]).status, 0)
        XCTAssertEqual(try CSVTable(parsing: String(contentsOfFile: path("data/real.csv"), encoding: .utf8)).rowCount, 6)
        // A dangling link: its target is created (as `echo > link` does), the link kept.
        XCTAssertEqual(symlink("data/new.svg", path("dangling.svg")), 0)
        let plot = try run(["plot", "bezier", "ease", "-o", "dangling.svg"])
        XCTAssertEqual(plot.status, 0, plot.stderr)
        XCTAssertEqual(fileType(path("dangling.svg")), S_IFLNK)
        XCTAssertNotNil(SVGSummary.parse(try String(contentsOfFile: path("data/new.svg"), encoding: .utf8)))
        // A loop of links is an error naming the path.
        XCTAssertEqual(symlink("loop-b.csv", path("loop-a.csv")), 0)
        XCTAssertEqual(symlink("loop-a.csv", path("loop-b.csv")), 0)
        try assertOneLineError(["sample", "bezier", "ease", "-o", "loop-a.csv"], contains: ["'loop-a.csv'"])
        XCTAssertEqual(try temporaryFiles(), [])
    }

    func testTheLibraryWriterHandlesTheSameDestinations() throws {
        let writer = try AtomicFileWriter(path: "/dev/null")
        XCTAssertTrue(writer.writesDirectly)
        XCTAssertEqual(writer.temporaryPath, "")
        writer.write("x")
        try writer.commit()
        XCTAssertEqual(fileType("/dev/null"), S_IFCHR)
        XCTAssertThrowsError(try AtomicFileWriter(path: directory.path)) { error in
            XCTAssertEqual(error as? ExportError, .io(operation: .open, path: directory.path, code: EISDIR))
        }
        XCTAssertEqual(symlink("target.txt", path("link.txt")), 0)
        try TextFile.write("new\n", toPath: path("link.txt"))
        XCTAssertEqual(fileType(path("link.txt")), S_IFLNK)
        XCTAssertEqual(try String(contentsOfFile: path("target.txt"), encoding: .utf8), "new\n")
        if fileType("/dev/full") == S_IFCHR {
            XCTAssertThrowsError(try TextFile.write(String(repeating: "x", count: 1 << 17), toPath: "/dev/full")) { error in
                XCTAssertEqual(error as? ExportError, .io(operation: .write, path: "/dev/full", code: ENOSPC))
            }
            XCTAssertEqual(fileType("/dev/full"), S_IFCHR)
        }
    }

    // MARK: - 4. Interrupted writes

    /// Starts a 10 million row export over an existing file, sends `signal` once the
    /// temporary file exists, and checks how the process ended and what it left.
    private func interruptLargeWrite(with signalNumber: Int32) throws -> [String] {
        try "old contents\n".write(toFile: path("big.csv"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["sample", "bezier", "ease", "--count", "10000000", "-o", "big.csv"]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        // Wait until the temporary file holds data: the write is then under way (and the
        // tool has registered the file for removal).
        func started() throws -> Bool {
            try temporaryFiles().contains { name in
                ((try? FileManager.default.attributesOfItem(atPath: path(name))[.size] as? Int) ?? 0) > 0
            }
        }
        while try !started() && process.isRunning && Date() < deadline { usleep(2_000) }
        XCTAssertTrue(process.isRunning, "the write finished before it could be interrupted")
        XCTAssertFalse(try temporaryFiles().isEmpty)
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "signal \(signalNumber)")
        XCTAssertEqual(process.terminationStatus, signalNumber)
        XCTAssertEqual(try String(contentsOfFile: path("big.csv"), encoding: .utf8), "old contents\n")
        return try temporaryFiles()
    }

    func testSIGTERMAndSIGINTLeaveTheOldFileAndNoTemporaryFile() throws {
        XCTAssertEqual(try interruptLargeWrite(with: SIGTERM), [])
        XCTAssertEqual(try interruptLargeWrite(with: SIGINT), [])
    }

    func testSIGKILLLeavesTheOldFile() throws {
        // Nothing runs after SIGKILL, so its temporary file stays (documented); the
        // destination is still the old file.
        let left = try interruptLargeWrite(with: SIGKILL)
        XCTAssertEqual(left.count, 1)
        XCTAssertTrue(left.allSatisfy { $0.hasPrefix(".big.csv.tmp-") }, "\(left)")
    }

    /// Opening a FIFO waits for a reader: Ctrl-C and SIGTERM must still end that wait (the
    /// tool blocked both around the open, so only SIGKILL stopped it).
    func testInterruptingAWaitForAFIFOsReaderEndsTheProcess() throws {
        for signalNumber in [SIGINT, SIGTERM] {
            let fifo = path("pipe-\(signalNumber).csv")
            XCTAssertEqual(mkfifo(fifo, 0o644), 0)
            let process = Process()
            process.executableURL = try executable()
            process.arguments = ["sample", "bezier", "ease", "-o", fifo]
            process.currentDirectoryURL = directory
            try process.run()
            usleep(300_000)  // the tool is now in open(2), waiting for a reader
            XCTAssertTrue(process.isRunning)
            kill(process.processIdentifier, signalNumber)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            XCTAssertFalse(process.isRunning, "signal \(signalNumber) did not end the wait")
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(process.terminationStatus, signalNumber)
        }
    }

    /// Options that take negative numbers accept them without `=`, and values the library
    /// would silently change are refused, each naming the value as given.
    func testMotionOptionsTakeNegativeValuesAndRefuseWhatTheLibraryWouldChange() throws {
        let decay = try run(["sample", "decay", "--velocity", "-500"])
        XCTAssertEqual(decay.status, 0, decay.stderr)
        XCTAssertTrue(decay.stdout.hasPrefix("time,offset,velocity\n0.0,-0.0,-500.0\n"), String(decay.stdout.prefix(80)))
        let fling = try run(["sample", "fling", "--velocity", "-2000"])
        XCTAssertEqual(fling.status, 0, fling.stderr)
        try assertOneLineError(["sample", "decay", "--velocity", "100", "--friction-multiplier", "-3"],
                               contains: ["friction-multiplier = -3.0"])
        try assertOneLineError(["sample", "decay", "--velocity", "100", "--velocity-threshold", "-5"],
                               contains: ["velocity-threshold = -5.0"])
        try assertOneLineError(["sample", "decay", "--velocity", "100", "--friction-multiplier", "0.00001"],
                               contains: ["friction-multiplier = 1e-05"])
        try assertOneLineError(["sample", "decay", "--velocity", "100", "--epsilon", "nan"], contains: ["epsilon = nan"])
        try assertOneLineError(["sample", "decay", "--velocity", "100", "--friction-multiplier", "1", "--epsilon", "0.01"],
                               contains: ["--epsilon", "--friction-multiplier"])
        try assertOneLineError(["sample", "decay", "--velocity", "100", "--sample-rate", "-60"],
                               contains: ["sample-rate = -60.0"])
        try assertOneLineError(["sample", "fling", "--velocity", "100", "--friction", "1e-320"], contains: ["friction = "])
        try assertOneLineError(["sample", "fling", "--velocity", "100", "--friction", "1e305"], contains: ["friction = 1e+305"])
        try assertOneLineError(["sample", "fling", "--velocity", "100", "--density", "1e-320"], contains: ["density = "])
    }

    /// An empty directory argument would put the files in `/`; a trailing slash on an output
    /// that is not a directory is refused before any work.
    func testEmptyDirectoriesAndTrailingSlashesAreRefused() throws {
        try assertOneLineError(["demo", "--output-dir", ""], contains: ["output-dir = ''"])
        try assertOneLineError(["export", ""], contains: ["dir = ''"])
        try assertOneLineError(["sample", "bezier", "ease", "-o", "new.csv/"], contains: ["'new.csv/'", "ends in '/'"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new.csv")))
    }

    /// A plot whose drawing is small can still hold more samples in memory than the machine
    /// has (200 curves of 10 million samples: about 90 GB): refused before any work, and
    /// `--force` (which lifts the output limit) does not lift it.
    func testWorkBeyondTheMachinesMemoryIsRefusedEvenWithForce() throws {
        try XCTSkipIf((memoryLimitBytes ?? 0) > 60 << 30, "this process could hold the samples")
        let curves = [String](repeating: "ease", count: 200)
        try assertOneLineError(["plot", "bezier"] + curves + ["--count", "10000000", "--force", "-o", "big.svg"],
                               contains: ["in memory", "200 curves × 10000000 samples", "--force does not lift"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("big.svg")))
        XCTAssertEqual(try temporaryFiles(), [])
    }

    // MARK: - 6. The 1 GiB output limit

    func testOutputsOver1GiBAreRefusedUnlessForced() throws {
        // 6 columns × 9,990,002 rows × 25 bytes ≈ 1.4 GiB.
        let properties = (1 ... 5).map { #"{"name": "p\#($0)", "type": "scalar", "values": [0, 1]}"# }.joined(separator: ", ")
        try #"{"duration": 999, "properties": [\#(properties)]}"#.write(toFile: path("long.json"), atomically: true, encoding: .utf8)
        let start = Date()
        try assertOneLineError(["bake", "long.json", "--rate", "10000", "-o", "long.csv"],
                               contains: ["1.4 GiB", "9990002 rows × 6 columns", "--force"])
        try assertOneLineError(["bake", "long.json", "--rate", "10000"], contains: ["GiB", "--force"])
        try assertOneLineError(["plot", "track", "long.json", "--rate", "10000", "--style", "markers"], contains: ["GiB", "--force"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "refused before any work")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("long.csv")))
        // --force skips the check: the next limit met is the library's row limit.
        try assertOneLineError(["bake", "long.json", "--rate", "20000", "--force"], contains: ["rows, more than the limit"])
        try assertOneLineError(["plot", "track", "long.json", "--rate", "20000", "--force"], contains: ["rows, more than the limit"])
        // Every writing command accepts --force.
        for arguments in [["sample", "bezier", "ease", "--count", "3"], ["sample", "spring", "--duration", "0.5", "--bounce", "0"],
                          ["plot", "bezier", "ease"]] {
            let result = try run(arguments + ["--force"])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try temporaryFiles(), [])
    }

    /// Errors name the option the user typed, also when the library finds the bad value
    /// (its parameter may be spelt otherwise: `initialVelocity`, `decelerationRate`).
    func testErrorsNameTheOptionNotTheLibrarysParameter() throws {
        let spring = ["sample", "spring", "--duration", "0.5", "--bounce", "0.3"]
        let cases: [([String], String)] = [
            (spring + ["--velocity", "nan"], "--velocity = nan is not a finite number"),
            (spring + ["--velocity", "-inf"], "--velocity = -inf is not a finite number"),
            (spring + ["--rate", "0"], "--rate = 0.0 is outside"),
            (spring + ["--epsilon", "2"], "--epsilon = 2.0 is outside (0, 1)"),
            (["sample", "spring", "--damping-ratio", "nan", "--response", "1"], "--damping-ratio = nan"),
            (["sample", "spring", "--settling-duration", "-1", "--damping-ratio", "1"], "--settling-duration = -1.0"),
            (["sample", "spring", "--mass", "1", "--stiffness", "-4", "--damping", "1"], "--stiffness = -4.0"),
            (["sample", "decay", "--velocity", "100", "--deceleration-rate", "2"], "--deceleration-rate = 2.0 is outside (0, 1)"),
            (["sample", "decay", "--velocity", "nan"], "--velocity = nan"),
            (["sample", "decay", "--velocity", "100", "--sample-rate", "0"], "--sample-rate = 0.0"),
            (["sample", "fling", "--velocity", "100", "--density", "0"], "--density = 0.0"),
            (["plot", "spring", "--duration", "0.5", "--bounce", "0.3", "--velocity", "inf", "-o", "/dev/null"],
             "--velocity = inf"),
        ]
        for (arguments, expected) in cases {
            try assertOneLineError(arguments, contains: [expected])
        }
        // The curve's control points are one argument: they keep the curve's names.
        try assertOneLineError(["sample", "bezier", "1.5,0,1,1"], contains: ["x1 = 1.5 is outside [0, 1]"])
    }
}

/// Text handed from the FIFO reader thread to the test.
private final class ReceivedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    let done = DispatchSemaphore(value: 0)
    func set(_ value: String) { lock.lock(); text = value; lock.unlock() }
    func get() -> String { lock.lock(); defer { lock.unlock() }; return text }
}
