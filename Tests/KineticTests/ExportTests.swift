import Foundation
import Kinetic
import KineticExport
import XCTest

import KineticPlatform
import TestSupport

/// Tests for Sources/Kinetic/Export: CSV formatting and parsing, atomic file writing,
/// number-list and curve parsing, and sampling of curves and springs.
final class ExportTests: XCTestCase {

    // MARK: - Helpers

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kinetic-export-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory {
            // Restore permissions in case a test removed them, then clean up.
            _ = chmod(directory.path, 0o755)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Names in the test directory (recursively one level) that look like temporary files.
    private func leftoverTemporaryFiles(in dir: String? = nil) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir ?? directory.path)
        return names.filter { $0.hasPrefix(".") && $0.contains(".tmp-") }
    }

    private func assertBitwiseEqual(_ a: Double, _ b: Double, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.bitPattern, b.bitPattern, "\(a) vs \(b) \(message)", file: file, line: line)
    }

    /// The tricky doubles the brief names, plus a few more edge cases.
    private let trickyValues: [Double] = [
        0.1, 1.0 / 3.0, Double.leastNonzeroMagnitude /* 5e-324 */, 1.7976931348623157e308, -0.0, 1e-16, (1.0).nextUp,
        0, 1, -1, 2.0 / 3.0, 0.30000000000000004, Double.leastNormalMagnitude,
        Double.leastNormalMagnitude.nextDown, -Double.greatestFiniteMagnitude, 1e16, 1e-5,
        123456789012345680, (9007199254740992.0).nextUp, Double.pi, -Double.ulpOfOne, (0.5).nextDown,
    ]

    // MARK: - Number formatting

    func testFormatUsesShortestRoundTripSpellings() {
        XCTAssertEqual(CSVTable.format(0.1), "0.1")
        XCTAssertEqual(CSVTable.format(1.0 / 3.0), "0.3333333333333333")
        XCTAssertEqual(CSVTable.format(.leastNonzeroMagnitude), "5e-324")
        XCTAssertEqual(CSVTable.format(1.7976931348623157e308), "1.7976931348623157e+308")
        XCTAssertEqual(CSVTable.format(-0.0), "-0.0")
        XCTAssertEqual(CSVTable.format(1e-16), "1e-16")
        XCTAssertEqual(CSVTable.format((1.0).nextUp), "1.0000000000000002")
        XCTAssertEqual(CSVTable.format(1), "1.0")
        XCTAssertEqual(CSVTable.format(.infinity), "inf")
        XCTAssertEqual(CSVTable.format(-.infinity), "-inf")
        XCTAssertEqual(CSVTable.format(.nan), "nan")
        XCTAssertEqual(CSVTable.format(-Double.nan), "nan")
        XCTAssertEqual(CSVTable.format(.signalingNaN), "nan")
    }

    func testTrickyDoublesRoundTripBitExactThroughText() throws {
        for value in trickyValues {
            let text = CSVTable.format(value)
            let back = try XCTUnwrap(Double(text), "cannot read back '\(text)'")
            assertBitwiseEqual(value, back, "via '\(text)'")
        }
    }

    func testRandomBitPatternsRoundTripBitExact() throws {
        var generator = SeededRandom(seed: 0x5EED)
        var checked = 0
        while checked < 20_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            let back = try XCTUnwrap(Double(CSVTable.format(value)))
            if back.bitPattern != value.bitPattern {
                XCTFail("\(value.bitPattern) did not round-trip")
                return
            }
            checked += 1
        }
    }

    func testTableRoundTripBitExactThroughCSVAndFile() throws {
        let rows = trickyValues.map { [$0, -$0, $0 / 7] }
        let table = try CSVTable(columns: ["a", "b", "c"], rows: rows)
        let parsed = try CSVTable(parsing: table.csvText)
        XCTAssertEqual(parsed.columns, ["a", "b", "c"])
        XCTAssertEqual(parsed.rowCount, rows.count)
        for (i, row) in rows.enumerated() {
            for (j, value) in row.enumerated() { assertBitwiseEqual(parsed[i, j], value, "row \(i) col \(j)") }
        }
        let file = path("tricky.csv")
        try table.write(toFile: file)
        let fromFile = try CSVTable(parsing: contents(file), source: file)
        XCTAssertEqual(fromFile.values.map(\.bitPattern), table.values.map(\.bitPattern))
    }

    func testNonFiniteValuesAreWrittenAndReadBack() throws {
        let table = try CSVTable(columns: ["v"], rows: [[.infinity], [-.infinity], [.nan]])
        XCTAssertEqual(table.csvText, "v\ninf\n-inf\nnan\n")
        let parsed = try CSVTable(parsing: table.csvText)
        XCTAssertEqual(parsed[0, 0], .infinity)
        XCTAssertEqual(parsed[1, 0], -.infinity)
        XCTAssertTrue(parsed[2, 0].isNaN)
    }

    func testCSVLayoutIsHeaderThenRowsWithNewlines() throws {
        let table = try CSVTable(columns: ["x", "value"], rows: [[0, 0.1], [1, -0.0]])
        XCTAssertEqual(table.csvText, "x,value\n0.0,0.1\n1.0,-0.0\n")
        let empty = try CSVTable(columns: ["time"])
        XCTAssertEqual(empty.csvText, "time\n")
        XCTAssertEqual(empty.rowCount, 0)
    }

    func testTableRejectsBadShapesAndNames() {
        XCTAssertThrowsError(try CSVTable(columns: ["a", "b"], rows: [[1, 2], [3]])) { error in
            XCTAssertEqual(error as? ParameterError, .countMismatch(parameter: "row", expected: 2, actual: 1))
        }
        XCTAssertThrowsError(try CSVTable(columns: ["a", "b"], values: [1, 2, 3]))
        XCTAssertThrowsError(try CSVTable(columns: []))
        // ",\u{0306}" and "\t\u{0301}" are single Characters; a CSV reader still sees the comma
        // and the tab, so the names are checked on Unicode scalars.
        for bad in ["", "a,b", "say \"hi\"", "line\nbreak", "cr\r\nlf", "a,\u{0306}b", " lead", "trail\t",
                    "\t\u{0301}", "x\u{0301},"] {
            XCTAssertThrowsError(try CSVTable(columns: ["ok", bad])) { error in
                XCTAssertEqual(error as? SamplingError, .invalidColumnName(bad))
            }
        }
    }

    func testParsingCSVAcceptsCRLFAndBlankLinesAndReportsLineNumbers() throws {
        let table = try CSVTable(parsing: "x, y\r\n1, 2\r\n\r\n 3 ,4\n")
        XCTAssertEqual(table.columns, ["x", "y"])
        XCTAssertEqual(table.rows, [[1, 2], [3, 4]])
        XCTAssertThrowsError(try CSVTable(parsing: "x,y\n1,2\n\n3\n", source: "t.csv")) { error in
            XCTAssertEqual(error as? InputError, .fieldCount(line: 4, expected: 2, actual: 1, source: "t.csv"))
        }
        XCTAssertThrowsError(try CSVTable(parsing: "x\n1\nzz\n", source: "t.csv")) { error in
            XCTAssertEqual(error as? InputError, .malformedNumber(text: "zz", line: 3, source: "t.csv"))
            XCTAssertEqual("\(error)", "t.csv:3: 'zz' is not a number")
        }
        XCTAssertThrowsError(try CSVTable(parsing: "\n\n")) { error in
            XCTAssertEqual(error as? InputError, .missingHeader(source: "<input>"))
        }
    }

    /// A comma or tab followed by a combining mark is one `Character` in Swift; the readers
    /// split and trim on Unicode scalars, as every other CSV reader does, so such text reads
    /// the same as it writes (a fuzzer finding: the header `\u{FFFD},\t\u{0306},\t\u{FFFD}`
    /// read as three columns, was written back and read as two).
    func testReadersSplitAtCommasBeforeCombiningMarks() throws {
        let table = try CSVTable(parsing: "\u{FFFD},\t\u{0306},\t\u{FFFD}\n1,2,3\n")
        XCTAssertEqual(table.columns, ["\u{FFFD}", "\u{0306}", "\u{FFFD}"])
        XCTAssertEqual(table.columns.map { $0.unicodeScalars.count }, [1, 1, 1])
        XCTAssertThrowsError(try CSVTable(parsing: "a,b\n1,\u{0301}2\n", source: "m.csv")) { error in
            XCTAssertEqual(error as? InputError, .malformedNumber(text: "\u{0301}2", line: 2, source: "m.csv"))
        }
        let again = try CSVTable(parsing: table.csvText)
        XCTAssertEqual(again.columns, table.columns)
        XCTAssertThrowsError(try CSVTable(parsing: "a\n1\n2,\u{0306}\n", source: "c.csv")) { error in
            XCTAssertEqual(error as? InputError, .fieldCount(line: 3, expected: 1, actual: 2, source: "c.csv"))
        }
        XCTAssertEqual(try NumberList.parse("1,\t2\r\n3 ,4\r\n"), [1, 2, 3, 4])
        XCTAssertThrowsError(try NumberList.parse("1,\u{0301}2", source: "n.txt")) { error in
            XCTAssertEqual(error as? InputError, .malformedNumber(text: "\u{0301}2", line: 1, source: "n.txt"))
        }
        XCTAssertThrowsError(try CubicBezier(parsing: "0.25,\u{0301}0.1,0.25,1"))
        XCTAssertEqual(try CubicBezier(parsing: "0.25,\t0.1, 0.25 ,1\r"), try CubicBezier(0.25, 0.1, 0.25, 1))
    }

    // MARK: - Number lists and curve specifications

    func testNumberListAcceptsLinesCommasAndBlankLines() throws {
        let xs = try NumberList.parse("0\n0.5, 0.25\n\n  1.5\r\n-0.5,2e-3\n\n")
        XCTAssertEqual(xs, [0, 0.5, 0.25, 1.5, -0.5, 0.002])
        XCTAssertEqual(try NumberList.parse(""), [])
        XCTAssertEqual(try NumberList.parse("0.1,0.2,0.3"), [0.1, 0.2, 0.3])
    }

    func testNumberListErrorsNameTheLine() {
        XCTAssertThrowsError(try NumberList.parse("1\n\n2\nabc\n", source: "xs.txt")) { error in
            XCTAssertEqual(error as? InputError, .malformedNumber(text: "abc", line: 4, source: "xs.txt"))
            XCTAssertEqual("\(error)", "xs.txt:4: 'abc' is not a number")
        }
        XCTAssertThrowsError(try NumberList.parse("1\n2,,3")) { error in
            XCTAssertEqual(error as? InputError, .emptyField(line: 2, source: "<input>"))
        }
        XCTAssertThrowsError(try NumberList.parse("0.5\nnan")) { error in
            XCTAssertEqual(error as? InputError, .notFinite(text: "nan", line: 2, source: "<input>"))
        }
        XCTAssertThrowsError(try NumberList.parse("-inf")) { error in
            XCTAssertEqual(error as? InputError, .notFinite(text: "-inf", line: 1, source: "<input>"))
        }
        XCTAssertEqual(try NumberList.parse("inf", allowNonFinite: true), [.infinity])
        XCTAssertThrowsError(try NumberList.parse("1 2"))
    }

    func testCurveParsingAcceptsNumbersCSSAndPresetNames() throws {
        XCTAssertEqual(try CubicBezier(parsing: "0.25,0.1,0.25,1"), try CubicBezier(0.25, 0.1, 0.25, 1))
        XCTAssertEqual(try CubicBezier(parsing: " 0.42, 0 ,0.58, 1 "), try CubicBezier(0.42, 0, 0.58, 1))
        XCTAssertEqual(try CubicBezier(parsing: "cubic-bezier(0.25, 0.1, 0.25, 1)"), try CubicBezier(0.25, 0.1, 0.25, 1))
        XCTAssertEqual(try CubicBezier(parsing: "ease-in-out"), try CubicBezier(0.42, 0, 0.58, 1))
        XCTAssertEqual(try CubicBezier(parsing: "easeInOut"), try CubicBezier(0.42, 0, 0.58, 1))
        XCTAssertEqual(try CubicBezier(parsing: "EASE"), try CubicBezier(0.25, 0.1, 0.25, 1))
        XCTAssertEqual(try CubicBezier(parsing: "ease-in"), try CubicBezier(0.42, 0, 1, 1))
        XCTAssertEqual(try CubicBezier(parsing: "ease_out"), try CubicBezier(0, 0, 0.58, 1))
        XCTAssertEqual(try CubicBezier(parsing: "linear"), try CubicBezier(0, 0, 1, 1))
        XCTAssertEqual(try CubicBezier(parsing: "0.5,-0.5,0.5,1.5").y1, -0.5)
    }

    func testCurveParsingRejectsBadText() {
        XCTAssertThrowsError(try CubicBezier(parsing: "1.5,0,1,1")) { error in
            XCTAssertEqual(error as? ParameterError, .outOfRange(parameter: "x1", value: 1.5, expected: "[0, 1]"))
            XCTAssertEqual("\(error)", "x1 = 1.5 is outside [0, 1]")
        }
        XCTAssertThrowsError(try CubicBezier(parsing: "0,nan,1,1")) { error in
            guard case .notFinite(parameter: "y1", _)? = error as? ParameterError else {
                return XCTFail("unexpected \(error)")
            }
        }
        for bad in ["bounce", "0.1,0.2,0.3", "0.1,0.2,0.3,0.4,0.5", "a,b,c,d", "", "0.1,,0.3,0.4"] {
            XCTAssertThrowsError(try CubicBezier(parsing: bad)) { error in
                XCTAssertEqual(error as? InputError, .unknownCurve(bad), "for '\(bad)'")
            }
        }
    }

    // MARK: - Atomic writing

    func testAtomicWriteCreatesFileWithContentsAndNoTemporaryFiles() throws {
        let file = path("new.csv")
        try TextFile.write("hello\n", toPath: file)
        XCTAssertEqual(try contents(file), "hello\n")
        XCTAssertEqual(try leftoverTemporaryFiles(), [])
        var info = stat()
        XCTAssertEqual(stat(file, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o644)
    }

    func testAtomicWriteReplacesExistingFileAndKeepsItsPermissions() throws {
        let file = path("existing.csv")
        try "old contents\n".write(toFile: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(file, 0o600), 0)
        try TextFile.write("new\n", toPath: file)
        XCTAssertEqual(try contents(file), "new\n")
        var info = stat()
        XCTAssertEqual(stat(file, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(try leftoverTemporaryFiles(), [])
    }

    func testLargeWriteSpanningManyBuffersIsComplete() throws {
        let file = path("large.txt")
        let line = String(repeating: "0123456789", count: 10) + "\n"
        try TextFile.writeAtomically(toPath: file) { writer in
            for _ in 0..<20_000 { writer.write(line) }  // ~2 MB, many 64 KiB buffers
        }
        let text = try contents(file)
        XCTAssertEqual(text.utf8.count, 20_000 * line.utf8.count)
        XCTAssertTrue(text.hasSuffix(line))
        XCTAssertEqual(try leftoverTemporaryFiles(), [])
    }

    struct SimulatedFailure: Error, Equatable {}

    func testFailureMidWriteKeepsOldFileAndRemovesTemporaryFile() throws {
        let file = path("keep.csv")
        try TextFile.write("precious\n", toPath: file)
        var temporaryPath = ""
        XCTAssertThrowsError(try TextFile.writeAtomically(toPath: file) { writer in
            temporaryPath = writer.temporaryPath
            // More than one buffer, so part of the new content has really reached the disk.
            for _ in 0..<10_000 { writer.write("partial,partial,partial\n") }
            XCTAssertTrue(FileManager.default.fileExists(atPath: writer.temporaryPath))
            throw SimulatedFailure()
        }) { error in
            XCTAssertEqual(error as? SimulatedFailure, SimulatedFailure())
        }
        XCTAssertEqual(try contents(file), "precious\n")
        XCTAssertFalse(temporaryPath.isEmpty)
        XCTAssertTrue(temporaryPath.hasPrefix(directory.path + "/"), "temporary file must be in the same directory")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporaryPath))
        XCTAssertEqual(try leftoverTemporaryFiles(), [])
    }

    func testAbandonedWriterRemovesItsTemporaryFile() throws {
        let file = path("abandoned.csv")
        try TextFile.write("old\n", toPath: file)
        var temporaryPath = ""
        do {
            let writer = try AtomicFileWriter(path: file)
            temporaryPath = writer.temporaryPath
            writer.write("never committed\n")
            XCTAssertTrue(FileManager.default.fileExists(atPath: temporaryPath))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporaryPath))
        XCTAssertEqual(try contents(file), "old\n")
        let discarded = try AtomicFileWriter(path: file)
        discarded.write("discarded\n")
        discarded.discard()
        XCTAssertEqual(try contents(file), "old\n")
        XCTAssertEqual(try leftoverTemporaryFiles(), [])
    }

    func testDirectoryDestinationIsRefusedAndLeftAlone() throws {
        // A directory (here a non-empty one) is refused before any temporary file is made,
        // instead of failing at the final rename(2).
        let target = path("occupied")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        try "inside\n".write(toFile: target + "/file", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try TextFile.write("data\n", toPath: target)) { error in
            XCTAssertEqual(error as? ExportError, .io(operation: .open, path: target, code: EISDIR))
            XCTAssertTrue("\(error)".contains("'\(target)'"))
        }
        XCTAssertEqual(try contents(target + "/file"), "inside\n")
        XCTAssertEqual(try leftoverTemporaryFiles(), [])
    }

    func testMissingDirectoryIsAnErrorUnlessCreationIsAsked() throws {
        let file = path("a/b/c/out.csv")
        XCTAssertThrowsError(try TextFile.write("x\n", toPath: file)) { error in
            XCTAssertEqual(error as? ExportError, .io(operation: .createTemporaryFile, path: file, code: ENOENT))
            XCTAssertEqual("\(error)", "cannot create a temporary file next to '\(file)': No such file or directory (errno \(ENOENT))")
        }
        try TextFile.write("x\n", toPath: file, createDirectory: true)
        XCTAssertEqual(try contents(file), "x\n")
        // Creating again over existing directories is fine.
        try TextFile.write("y\n", toPath: file, createDirectory: true)
        XCTAssertEqual(try contents(file), "y\n")
    }

    func testDirectoryCreationFailsWhenAParentIsAFile() throws {
        try TextFile.write("plain\n", toPath: path("plain"))
        let file = path("plain/sub/out.csv")
        XCTAssertThrowsError(try TextFile.write("x\n", toPath: file, createDirectory: true)) { error in
            guard case .io(operation: .createDirectory, _, code: ENOTDIR)? = error as? ExportError else {
                return XCTFail("unexpected \(error)")
            }
        }
        XCTAssertEqual(try contents(path("plain")), "plain\n")
    }

    func testUnwritableDirectoryKeepsOldFile() throws {
        try XCTSkipIf(geteuid() == 0, "root ignores directory permissions")
        let sub = path("locked")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
        let file = sub + "/data.csv"
        try TextFile.write("old\n", toPath: file)
        XCTAssertEqual(chmod(sub, 0o555), 0)
        defer { _ = chmod(sub, 0o755) }
        XCTAssertThrowsError(try TextFile.write("new\n", toPath: file)) { error in
            XCTAssertEqual(error as? ExportError, .io(operation: .createTemporaryFile, path: file, code: EACCES))
        }
        XCTAssertEqual(try contents(file), "old\n")
        XCTAssertEqual(try leftoverTemporaryFiles(in: sub), [])
    }

    func testWritingToADirectoryPathWithTrailingSlashFails() {
        XCTAssertThrowsError(try TextFile.write("x", toPath: directory.path + "/")) { error in
            XCTAssertNotNil(error as? ExportError)
        }
    }

    func testReadingErrorsNameThePathAndTheSystemError() throws {
        let missing = path("missing.txt")
        XCTAssertThrowsError(try TextFile.read(atPath: missing)) { error in
            XCTAssertEqual(error as? ExportError, .io(operation: .open, path: missing, code: ENOENT))
            XCTAssertEqual((error as? ExportError)?.path, missing)
            XCTAssertTrue("\(error)".contains("No such file or directory"))
        }
        XCTAssertThrowsError(try TextFile.read(atPath: directory.path)) { error in
            guard case .io(_, _, code: EISDIR)? = error as? ExportError else { return XCTFail("unexpected \(error)") }
        }
        try TextFile.write("0.5\n1\n", toPath: path("xs.txt"))
        XCTAssertEqual(try TextFile.read(atPath: path("xs.txt")), "0.5\n1\n")
    }

    func testReadingStopsAtItsLimit() throws {
        try TextFile.write(String(repeating: "0.5\n", count: 1000), toPath: path("big.txt"))
        XCTAssertEqual(try TextFile.read(atPath: path("big.txt"), maximumBytes: 4000).count, 4000, "exactly the limit")
        XCTAssertThrowsError(try TextFile.read(atPath: path("big.txt"), maximumBytes: 3999)) { error in
            XCTAssertEqual(error as? ExportError, .tooLarge(path: path("big.txt"), limit: 3999))
            XCTAssertEqual((error as? ExportError)?.path, path("big.txt"))
            XCTAssertTrue("\(error)".contains("larger than 3999 bytes"), "\(error)")
        }
        // An endless file is refused, not read until memory runs out.
        XCTAssertThrowsError(try TextFile.read(atPath: "/dev/zero", maximumBytes: 1 << 20)) { error in
            XCTAssertEqual(error as? ExportError, .tooLarge(path: "/dev/zero", limit: 1 << 20))
        }
        XCTAssertThrowsError(try TextFile.read(atPath: path("big.txt"), maximumBytes: -1)) { error in
            XCTAssertEqual(error as? ExportError, .tooLarge(path: path("big.txt"), limit: 0), "a negative limit is 0")
        }
        try TextFile.write("", toPath: path("empty.txt"))
        XCTAssertEqual(try TextFile.read(atPath: path("empty.txt"), maximumBytes: 0), "")
    }

    func testAReadOnlyDestinationIsNotReplaced() throws {
        let file = path("read-only.csv")
        try TextFile.write("old\n", toPath: file)
        XCTAssertEqual(chmod(file, 0o444), 0)
        defer { _ = chmod(file, 0o644) }
        // Root may write any file (as `cp` does); the refusal is checked as another user.
        let root = geteuid() == 0
        if root { XCTAssertEqual(seteuid(65534), 0) }
        let refused = Result { try TextFile.write("new\n", toPath: file) }
        if root { XCTAssertEqual(seteuid(0), 0) }
        XCTAssertThrowsError(try refused.get()) { error in
            XCTAssertEqual(error as? ExportError, .io(operation: .replace, path: file, code: EACCES))
            XCTAssertTrue("\(error)".contains("Permission denied"), "\(error)")
        }
        XCTAssertEqual(try TextFile.read(atPath: file), "old\n", "untouched")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], "no temporary file made")
    }

    // MARK: - Sampling curves

    func testCurveSamplingRowCountAndEndpoints() throws {
        let table = try sample(CubicBezier.ease, count: 101)
        XCTAssertEqual(table.columns, ["x", "value", "slope"])
        XCTAssertEqual(table.rowCount, 101)
        XCTAssertEqual(table[0, 0], 0)
        XCTAssertEqual(table[0, 1], 0)
        XCTAssertEqual(table[100, 0], 1)
        XCTAssertEqual(table[100, 1], 1)
        XCTAssertEqual(table[50, 0], 0.5)
        XCTAssertEqual(table[10, 0], 0.1)
        // CSS ease starts with slope y1/x1 = 0.1/0.25 = 0.4 and ends flat (y2 = 1).
        XCTAssertEqual(table[0, 2], 0.4, accuracy: 1e-12)
        XCTAssertEqual(table[100, 2], 0, accuracy: 1e-12)
        let xs = try XCTUnwrap(table.column(named: "x"))
        XCTAssertEqual(xs, (0...100).map { Double($0) / 100 })
        let values = try XCTUnwrap(table.column(named: "value"))
        XCTAssertEqual(zip(values, values.dropFirst()).filter { $0 > $1 }.count, 0, "ease is monotone")

        let two = try sample(CubicBezier.easeInOut, count: 2)
        XCTAssertEqual(two.rows, [[0, 0, 0], [1, 1, 0]])
    }

    func testCurveSamplesMatchAnIndependentBisectionReference() throws {
        let (x1, y1, x2, y2) = (0.42, 0.0, 0.58, 1.0)
        let table = try sample(CubicBezier(x1, y1, x2, y2), count: 33)
        func bx(_ t: Double) -> Double { 3 * x1 * t * (1 - t) * (1 - t) + 3 * x2 * t * t * (1 - t) + t * t * t }
        func by(_ t: Double) -> Double { 3 * y1 * t * (1 - t) * (1 - t) + 3 * y2 * t * t * (1 - t) + t * t * t }
        func dx(_ t: Double) -> Double { 3 * x1 * (1 - t) * (1 - t) + 6 * (x2 - x1) * t * (1 - t) + 3 * (1 - x2) * t * t }
        func dy(_ t: Double) -> Double { 3 * y1 * (1 - t) * (1 - t) + 6 * (y2 - y1) * t * (1 - t) + 3 * (1 - y2) * t * t }
        for r in 0..<table.rowCount {
            let x = table[r, 0]
            var lo = 0.0, hi = 1.0
            for _ in 0..<200 { let mid = (lo + hi) / 2; if bx(mid) < x { lo = mid } else { hi = mid } }
            let t = (lo + hi) / 2
            XCTAssertEqual(table[r, 1], by(t), accuracy: 1e-12, "value at x = \(x)")
            if dx(t) > 1e-9 {
                XCTAssertEqual(table[r, 2], dy(t) / dx(t), accuracy: 1e-9 * max(1, abs(dy(t) / dx(t))), "slope at x = \(x)")
            }
        }
    }

    func testSamplingAtGivenXKeepsOrderAndExtrapolates() throws {
        let table = try sample(CubicBezier.linear, at: [0.75, -0.5, 0.25, 1.5])
        XCTAssertEqual(table.column(named: "x"), [0.75, -0.5, 0.25, 1.5])
        XCTAssertEqual(table.column(named: "value"), [0.75, -0.5, 0.25, 1.5])
        XCTAssertEqual(try sample(CubicBezier.ease, at: []).rowCount, 0)
        XCTAssertThrowsError(try sample(CubicBezier.ease, at: [0.5, .nan])) { error in
            guard case .notFinite(parameter: "x[1]", _)? = error as? ParameterError else { return XCTFail("unexpected \(error)") }
        }
        XCTAssertThrowsError(try sample(CubicBezier.ease, at: [.infinity])) { error in
            XCTAssertEqual(error as? ParameterError, .notFinite(parameter: "x[0]", value: .infinity))
        }
    }

    struct Square: TimingCurve {
        func value(at x: Double) -> Double { x * x }
    }

    func testAnyTimingCurveCanBeSampled() throws {
        let table = try sample(Square(), count: 5)
        XCTAssertEqual(table.columns, ["x", "value"])
        XCTAssertEqual(table.rows, [[0, 0], [0.25, 0.0625], [0.5, 0.25], [0.75, 0.5625], [1, 1]])
        XCTAssertEqual(try sample(Square(), at: [3]).rows, [[3, 9]])
    }

    func testBadCountsAreRejectedWithTypedErrors() {
        for count in [Int.min, -1, 0, 1, maximumSampleCount + 1, Int.max] {
            XCTAssertThrowsError(try sample(CubicBezier.ease, count: count), "count \(count)") { error in
                guard case .outOfRange(parameter: "count", _, _)? = error as? ParameterError else {
                    return XCTFail("unexpected \(error)")
                }
            }
            XCTAssertThrowsError(try sample(Square(), count: count))
        }
        XCTAssertEqual("\(ParameterError.outOfRange(parameter: "count", value: 0, expected: "[2, 10000000]"))",
                       "count = 0.0 is outside [2, 10000000]")
    }

    // MARK: - Sampling springs

    func testSpringSamplingRunsFromZeroToTheSettlingTime() throws {
        let spring = try Spring(mass: 1, stiffness: 100, damping: 10)
        let rate = 120.0
        let table = try sample(spring, rate: rate)
        XCTAssertEqual(table.columns, ["time", "value", "velocity"])
        let settling = spring.settlingDuration()
        XCTAssertTrue(settling > 1 && settling < 2, "settling \(settling)")
        // Rows at i/120 strictly before the settling time, then one at exactly that time.
        let regular = Int((settling * rate).rounded(.up))
        XCTAssertEqual(table.rowCount, regular + 1)
        XCTAssertEqual(table.row(0), [0, 0, 0])
        for i in 0..<regular { XCTAssertEqual(table[i, 0], Double(i) / rate) }
        XCTAssertEqual(table[table.rowCount - 1, 0], settling)
        XCTAssertLessThan(table[table.rowCount - 2, 0], settling)
        // At the settling time the value is on the edge of the ±0.001 band.
        XCTAssertEqual(abs(table[table.rowCount - 1, 1] - 1), 0.001, accuracy: 1e-9)
    }

    func testSpringSamplesMatchTheTextbookClosedForm() throws {
        // m = 1, k = 100, c = 10: α = 5, ωd = √75. x(t) = 1 − e^{−αt}(cos ωd t + (α − v0)/ωd · sin ωd t).
        let v0 = 2.0
        let table = try sample(Spring(mass: 1, stiffness: 100, damping: 10), initialVelocity: v0, rate: 60)
        let alpha = 5.0, wd = 75.0.squareRoot()
        XCTAssertEqual(table[0, 2], v0)
        for r in stride(from: 0, to: table.rowCount, by: 7) {
            let t = table[r, 0]
            let expected = 1 - exp(-alpha * t) * (cos(wd * t) + (alpha - v0) / wd * sin(wd * t))
            XCTAssertEqual(table[r, 1], expected, accuracy: 1e-12, "t = \(t)")
        }
    }

    func testSpringSamplingHonoursEpsilon() throws {
        let spring = try Spring(dampingRatio: 1, response: 0.5)
        let loose = try sample(spring, rate: 120, epsilon: 0.01)
        let tight = try sample(spring, rate: 120, epsilon: 0.0001)
        XCTAssertLessThan(loose.rowCount, tight.rowCount)
        XCTAssertEqual(1 - loose[loose.rowCount - 1, 1], 0.01, accuracy: 1e-9)
        XCTAssertEqual(1 - tight[tight.rowCount - 1, 1], 0.0001, accuracy: 1e-11)
    }

    func testBadRatesVelocitiesAndEpsilonsAreRejectedWithTypedErrors() throws {
        let spring = Spring.coreAnimationDefault
        for rate in [0, -1, -.infinity, .infinity, .nan] as [Double] {
            XCTAssertThrowsError(try sample(spring, rate: rate), "rate \(rate)") { error in
                XCTAssertEqual((error as? ParameterError)?.parameter, "rate")
            }
        }
        XCTAssertThrowsError(try sample(spring, initialVelocity: .nan, rate: 60)) { error in
            XCTAssertEqual((error as? ParameterError)?.parameter, "initialVelocity")
        }
        for epsilon in [0, -0.1, 1, 2, .nan] as [Double] {
            XCTAssertThrowsError(try sample(spring, rate: 60, epsilon: epsilon), "epsilon \(epsilon)") { error in
                XCTAssertEqual((error as? ParameterError)?.parameter, "epsilon")
            }
        }
    }

    func testAbsurdRowCountsAndUnsettledSpringsAreTypedErrors() throws {
        XCTAssertThrowsError(try sample(Spring.coreAnimationDefault, rate: 1e9)) { error in
            guard case .tooManyRows(let rows, limit: maximumSampleCount)? = error as? SamplingError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertGreaterThan(rows, 1e9)
        }
        XCTAssertThrowsError(try sample(Spring.coreAnimationDefault, rate: .greatestFiniteMagnitude)) { error in
            XCTAssertNotNil(error as? SamplingError)
        }
        let undamped = try Spring(mass: 1, stiffness: 100, damping: 0)
        XCTAssertThrowsError(try sample(undamped, rate: 60)) { error in
            guard case .neverSettles? = error as? SamplingError else { return XCTFail("unexpected \(error)") }
        }
        // A very low rate still gives the start and the settling time.
        let sparse = try sample(Spring.coreAnimationDefault, rate: 1e-3)
        XCTAssertEqual(sparse.column(named: "time"), [0, Spring.coreAnimationDefault.settlingDuration()])
    }

    func testSampledSpringWritesAndReadsBackBitExact() throws {
        let table = try sample(Spring(duration: 0.5, bounce: 0.3), rate: 120)
        let file = path("spring.csv")
        try table.write(toFile: file)
        let parsed = try CSVTable(parsing: contents(file))
        XCTAssertEqual(parsed.columns, table.columns)
        XCTAssertEqual(parsed.values.map(\.bitPattern), table.values.map(\.bitPattern))
    }
}

