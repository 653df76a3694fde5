import Foundation
import Kinetic
import KineticExport
import XCTest

/// Keyframe descriptions (JSON) and baking them to a CSV timeline, plus `kinetic bake`.
final class BakeTests: XCTestCase {

    private func describe(_ json: String) throws(KeyframeDescriptionError) -> KeyframeDescription {
        try KeyframeDescription(json: json, source: "test.json")
    }

    /// One property wrapped in a document with duration 1.
    private func property(_ body: String) -> String {
        #"{"duration": 1, "properties": [{"name": "p", \#(body)}]}"#
    }

    /// Asserts that reading `json` fails with `reason` at `path`, and that the message names
    /// the source and the path.
    private func assertError(_ json: String, path: String, _ reason: KeyframeDescriptionError.Reason,
                             file: StaticString = #filePath, line: UInt = #line) {
        do throws(KeyframeDescriptionError) {
            _ = try describe(json)
            XCTFail("no error for \(json)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.path, path, "\(error)", file: file, line: line)
            XCTAssertEqual(error.reason, reason, "\(error)", file: file, line: line)
            XCTAssertTrue(error.description.hasPrefix("test.json: \(path)"), error.description, file: file, line: line)
            XCTAssertFalse(error.description.contains("\n"), file: file, line: line)
        }
    }

    // MARK: - Decoding

    func testDecodesEveryPropertyType() throws {
        let d = try describe("""
            {"duration": 2.5, "properties": [
              {"name": "s", "type": "scalar", "values": [1, -2.5]},
              {"name": "p", "type": "point", "values": [[1, 2], [3, 4]]},
              {"name": "z", "type": "size", "values": [[5, 6]]},
              {"name": "r", "type": "rect", "values": [[1, 2, 3, 4], [5, 6, 7, 8]]},
              {"name": "c", "type": "color", "values": [[0.1, 0.2, 0.3, 0.4]]},
              {"name": "t", "type": "transform2d", "values": [[1, 0, 0, 1, 10, 20]]}
            ]}
            """)
        XCTAssertEqual(d.duration, 2.5)
        XCTAssertNil(d.timingCurve)
        XCTAssertEqual(d.properties.map(\.type), [.scalar, .point, .size, .rect, .color, .transform2d])
        XCTAssertEqual(d.properties[0].values, [[1], [-2.5]])
        XCTAssertEqual(d.properties[3].values, [[1, 2, 3, 4], [5, 6, 7, 8]])
        XCTAssertEqual(d.properties[4].values, [[0.1, 0.2, 0.3, 0.4]])
        XCTAssertNil(d.properties[0].keyTimes)
        XCTAssertEqual(d.properties[0].motion, .interpolation([.linear]))
        XCTAssertEqual(d.properties.flatMap(\.columnNames), [
            "s", "p.x", "p.y", "z.width", "z.height", "r.x", "r.y", "r.width", "r.height",
            "c.red", "c.green", "c.blue", "c.alpha", "t.a", "t.b", "t.c", "t.d", "t.tx", "t.ty",
        ])
        let table = try bake(d, rate: 2)
        XCTAssertEqual(table.columns, ["time"] + d.properties.flatMap(\.columnNames))
        // Constant tracks (one keyframe) bake to their value in every row.
        XCTAssertEqual(table.column(named: "t.tx"), [10, 10, 10, 10, 10, 10])
        XCTAssertEqual(table.column(named: "z.height"), [6, 6, 6, 6, 6, 6])
    }

    func testDecodesEveryInterpolationAndCalculationMode() throws {
        let v = #""type": "scalar", "keyTimes": [0, 0.25, 0.5, 1], "values": [0, 1, 3, 2]"#
        func motion(_ extra: String) throws -> KeyframeProperty.Motion {
            try describe(property("\(v), \(extra)")).properties[0].motion
        }
        XCTAssertEqual(try motion(#""interpolation": "hold""#), .interpolation([.hold]))
        XCTAssertEqual(try motion(#""interpolation": "linear""#), .interpolation([.linear]))
        XCTAssertEqual(try motion(#""interpolation": "catmull-rom""#), .interpolation([.catmullRom]))
        XCTAssertEqual(try motion(#""interpolation": "ease-in""#), .interpolation([.eased(.easeIn)]))
        XCTAssertEqual(try motion(#""interpolation": [0.1, 0.2, 0.3, 1.4]"#),
                       .interpolation([.eased(try CubicBezier(0.1, 0.2, 0.3, 1.4))]))
        XCTAssertEqual(try motion(#""interpolation": ["hold", "cubic-bezier(0.5, 0, 0.5, 1)", "catmullRom"]"#),
                       .interpolation([.hold, .eased(try CubicBezier(0.5, 0, 0.5, 1)), .catmullRom]))
        let modes: [(String, KeyframeCalculationMode)] = [
            ("linear", .linear), ("discrete", .discrete), ("paced", .paced), ("cubic", .cubic),
            ("cubicPaced", .cubicPaced), ("cubic-paced", .cubicPaced),
        ]
        for (name, mode) in modes {
            XCTAssertEqual(try motion(#""calculationMode": "\#(name)""#), .calculationMode(mode), name)
        }
        XCTAssertEqual(
            try motion(#""calculationMode": "cubic", "tensionValues": [0.5, 0, 0, -0.5], "biasValues": [1]"#),
            .calculationMode(.cubic, tensionValues: [0.5, 0, 0, -0.5], continuityValues: nil, biasValues: [1]))
        let eased = try describe(property(#"\#(v), "easings": [null, "ease", [0.2, 0, 0.8, 1]]"#)).properties[0]
        XCTAssertEqual(eased.easings, [nil, .ease, try CubicBezier(0.2, 0, 0.8, 1)])
        let timed = try describe(#"{"duration": 3, "timingCurve": [0.42, 0, 0.58, 1], "properties": [{"name": "x", "type": "scalar", "values": [0]}]}"#)
        XCTAssertEqual(timed.timingCurve, try CubicBezier(0.42, 0, 0.58, 1))
    }

    func testEncodingRoundTrips() throws {
        let url = Self.repositoryRoot.appendingPathComponent("notebooks-data/keyframes-example.json")
        let original = try describe(String(contentsOf: url, encoding: .utf8))
        let again = try describe(original.jsonText())
        XCTAssertEqual(again, original)
        let viaCodable = try JSONDecoder().decode(KeyframeDescription.self, from: JSONEncoder().encode(original))
        XCTAssertEqual(viaCodable, original)
    }

    // MARK: - Baking

    /// Every baked cell equals the value of a track built here from the same numbers with
    /// the KeyframeTrack initialisers, at progress curve(t / duration), bit for bit.
    func testBakedValuesEqualTrackValues() throws {
        let duration = 0.75, rate = 48.0
        let d = try describe("""
            {"duration": 0.75, "timingCurve": "ease-out", "properties": [
              {"name": "o", "type": "scalar", "keyTimes": [0, 0.3, 0.3, 1], "values": [0, 1, 0.2, 0.9],
               "interpolation": ["linear", "hold", "ease-in-out"]},
              {"name": "pos", "type": "point", "keyTimes": [0, 0.4, 1], "values": [[0, 0], [50, -20], [80, 10]],
               "interpolation": "catmull-rom"},
              {"name": "box", "type": "rect", "values": [[0, 0, 10, 10], [5, 5, 20, 30], [1, 2, 3, 4]],
               "easings": [[0.3, -0.6, 0.7, 1.6], null]},
              {"name": "c", "type": "color", "keyTimes": [0, 0.5, 1], "values": [[1, 0, 0, 1], [0, 1, 0, 0.5], [0, 0, 1, 1]],
               "calculationMode": "cubic", "tensionValues": [0, 0.5, 0], "easings": ["ease", null]},
              {"name": "sz", "type": "size", "values": [[1, 1], [4, 2], [4, 9]], "calculationMode": "cubicPaced"},
              {"name": "tf", "type": "transform2d", "values": [[1, 0, 0, 1, 0, 0], [0, 2, -2, 0, 5, 5], [-1, 0, 0, -1, 9, 0]],
               "calculationMode": "discrete"}
            ]}
            """)
        let table = try bake(d, rate: rate)
        let o = try KeyframeTrack(keyTimes: [0, 0.3, 0.3, 1], values: [0.0, 1, 0.2, 0.9],
                                  interpolations: [.linear, .hold, .eased(.easeInOut)])
        let pos = try KeyframeTrack(keyTimes: [0, 0.4, 1], values: [Point(x: 0, y: 0), Point(x: 50, y: -20), Point(x: 80, y: 10)],
                                    interpolation: .catmullRom)
        let box = try KeyframeTrack(keyTimes: [0, 0.5, 1],
                                    values: [Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 5, y: 5, width: 20, height: 30),
                                             Rect(x: 1, y: 2, width: 3, height: 4)],
                                    interpolations: [.eased(try CubicBezier(0.3, -0.6, 0.7, 1.6)), .linear])
        let c = try KeyframeTrack(values: [Color(red: 1, green: 0, blue: 0, alpha: 1), Color(red: 0, green: 1, blue: 0, alpha: 0.5),
                                           Color(red: 0, green: 0, blue: 1, alpha: 1)],
                                  keyTimes: [0, 0.5, 1], calculationMode: .cubic, timingFunctions: [.ease, .linear],
                                  tensionValues: [0, 0.5, 0])
        let sz = try KeyframeTrack(values: [Size(width: 1, height: 1), Size(width: 4, height: 2), Size(width: 4, height: 9)],
                                   calculationMode: .cubicPaced)
        let tf = try KeyframeTrack(values: [Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0),
                                            Transform2D(a: 0, b: 2, c: -2, d: 0, tx: 5, ty: 5),
                                            Transform2D(a: -1, b: 0, c: 0, d: -1, tx: 9, ty: 0)],
                                   calculationMode: .discrete)
        XCTAssertEqual(table.rowCount, 37)  // 0.75 · 48 = 36 exactly: rows 0 … 36
        XCTAssertEqual(table.columns.count, 1 + 1 + 2 + 4 + 4 + 2 + 6)
        for row in 0 ..< table.rowCount {
            let t = Double(row) / rate
            let p = CubicBezier.easeOut.value(at: t / duration)
            let a = o.value(at: p), b = pos.value(at: p), r = box.value(at: p), k = c.value(at: p)
            let s = sz.value(at: p), m = tf.value(at: p)
            let expected = [t, a, b.x, b.y, r.origin.x, r.origin.y, r.size.width, r.size.height,
                            k.red, k.green, k.blue, k.alpha, s.width, s.height, m.a, m.b, m.c, m.d, m.tx, m.ty]
            XCTAssertEqual(Array(table.row(row)).map(\.bitPattern), expected.map(\.bitPattern), "row \(row)")
        }
        // The end shows the last keyframes, the jump at 0.3 happened, and the CSV text
        // reads back bit for bit.
        let last = [0.75, 0.9, 80, 10, 1, 2, 3, 4, 0, 0, 1, 1, 4, 9, -1, 0, 0, -1, 9, 0]
        for (column, value) in last.enumerated() {
            XCTAssertEqual(table[36, column], value, accuracy: 1e-12, table.columns[column])
        }
        var text = ""
        table.write(to: &text)
        XCTAssertEqual(try CSVTable(parsing: text).values.map(\.bitPattern), table.values.map(\.bitPattern))
    }

    /// Rows: t = i / rate while t < duration, then exactly the duration — ⌊d·r⌋ + 1 rows on
    /// the grid, ⌊d·r⌋ + 2 off it.
    func testRowCountAndFrameTimes() throws {
        func times(_ duration: Double, _ rate: Double) throws -> [Double] {
            let json = #"{"duration": \#(duration), "properties": [{"name": "x", "type": "scalar", "values": [0, 1]}]}"#
            return try XCTUnwrap(bake(describe(json), rate: rate).column(named: "time"))
        }
        let onGrid = try times(0.5, 60)
        XCTAssertEqual(onGrid.count, 31)
        XCTAssertEqual(onGrid, (0 ... 30).map { Double($0) / 60 })
        XCTAssertEqual(onGrid.last, 0.5)
        XCTAssertEqual(try times(0.1, 30).count, 4)   // 0.1 · 30 is 3 up to rounding: on the grid
        XCTAssertEqual(try times(0.7, 10).count, 8)
        let offGrid = try times(0.51, 60)
        XCTAssertEqual(offGrid.count, 32)               // ⌊30.6⌋ + 2
        XCTAssertEqual(Array(offGrid.prefix(31)), (0 ... 30).map { Double($0) / 60 })
        XCTAssertEqual(offGrid.last, 0.51)
        XCTAssertEqual(try times(0.01, 60), [0, 0.01])  // shorter than one frame
        XCTAssertEqual(try times(2, 1), [0, 1, 2])
        // The value in the last row is the last keyframe exactly.
        let json = #"{"duration": 0.51, "timingCurve": "ease", "properties": [{"name": "x", "type": "scalar", "values": [0, 1]}]}"#
        XCTAssertEqual(try bake(describe(json), rate: 60).column(named: "x")?.last, 1)
    }

    func testBadRateThrows() throws {
        let d = try describe(property(#""type": "scalar", "values": [0, 1]"#))
        for rate in [0, -1, Double.nan, .infinity] {
            XCTAssertThrowsError(try bake(d, rate: rate)) { XCTAssertEqual(($0 as? ParameterError)?.parameter, "rate") }
        }
        XCTAssertThrowsError(try bake(d, rate: 1e8)) { error in
            guard case .tooManyRows? = error as? SamplingError else { return XCTFail("\(error)") }
        }
    }

    // MARK: - Errors

    func testMissingFields() {
        assertError(#"{"properties": []}"#, path: "duration", .missingField)
        assertError(#"{"duration": 1}"#, path: "properties", .missingField)
        assertError(#"{"duration": 1, "properties": [{"type": "scalar", "values": [1]}]}"#, path: "properties[0].name", .missingField)
        assertError(property(#""type": "scalar""#), path: "properties[0].values", .missingField)
        assertError(property(#""values": [1]"#), path: "properties[0].type", .missingField)
    }

    func testWrongTypes() {
        assertError(#"{"duration": "1", "properties": []}"#, path: "duration",
                    .wrongType(expected: "a finite number", found: #"the string "1""#))
        assertError(#"{"duration": 1, "properties": {}}"#, path: "properties", .wrongType(expected: "an array", found: "an object"))
        assertError(property(#""type": "point", "values": [[1, 2], 3]"#), path: "properties[0].values[1]",
                    .wrongType(expected: "an array of 2 numbers (x, y)", found: "the number 3.0"))
        assertError(property(#""type": "scalar", "values": [1, true]"#), path: "properties[0].values[1]",
                    .wrongType(expected: "a finite number", found: "the boolean true"))
        assertError(property(#""type": 3, "values": [1]"#), path: "properties[0].type",
                    .wrongType(expected: "a string", found: "the number 3.0"))
        assertError("[1, 2]", path: "", .wrongType(expected: "an object", found: "an array of 2 elements"))
    }

    func testNaNAndInfinityAsStringsAreRejected() {
        assertError(property(#""type": "scalar", "keyTimes": [0, 1], "values": [0, "NaN"]"#), path: "properties[0].values[1]",
                    .wrongType(expected: "a finite number", found: #"the string "NaN""#))
        assertError(property(#""type": "scalar", "keyTimes": [0, "inf"], "values": [0, 1]"#), path: "properties[0].keyTimes[1]",
                    .wrongType(expected: "a finite number", found: #"the string "inf""#))
        assertError(#"{"duration": "nan", "properties": []}"#, path: "duration",
                    .wrongType(expected: "a finite number", found: #"the string "nan""#))
    }

    func testKeyTimesMustBeNonDecreasingAndInRange() {
        assertError(property(#""type": "scalar", "keyTimes": [0, 0.6, 0.5], "values": [0, 1, 2]"#),
                    path: "properties[0].keyTimes[2]", .invalidValue(value: "0.5", expected: "≥ keyTimes[1] = 0.6"))
        assertError(property(#""type": "scalar", "keyTimes": [0, 1.5], "values": [0, 1]"#),
                    path: "properties[0].keyTimes[1]", .invalidValue(value: "1.5", expected: "[0, 1]"))
    }

    func testCountMismatches() {
        assertError(property(#""type": "scalar", "keyTimes": [0, 1], "values": [0, 1, 2]"#),
                    path: "properties[0].keyTimes", .countMismatch(expected: 3, actual: 2))
        assertError(property(#""type": "rect", "values": [[0, 0, 1, 1], [0, 0, 1]]"#),
                    path: "properties[0].values[1]", .countMismatch(expected: 4, actual: 3))
        assertError(property(#""type": "scalar", "values": [0, 1, 2], "interpolation": ["hold", "linear", "linear"]"#),
                    path: "properties[0].interpolation", .countMismatch(expected: 2, actual: 3))
        assertError(property(#""type": "scalar", "values": [0, 1, 2], "easings": ["ease"]"#),
                    path: "properties[0].easings", .countMismatch(expected: 2, actual: 1))
        assertError(property(#""type": "scalar", "values": []"#), path: "properties[0].values", .countMismatch(expected: 1, actual: 0))
        assertError(#"{"duration": 1, "properties": []}"#, path: "properties", .countMismatch(expected: 1, actual: 0))
    }

    func testOtherInvalidInput() {
        assertError(#"{"duration": 0, "properties": []}"#, path: "duration",
                    .invalidValue(value: "0.0", expected: "a finite number > 0"))
        assertError(property(#""type": "scalar", "values": [0, 1], "keytimes": [0, 1]"#), path: "properties[0].keytimes", .unknownField)
        assertError(property(#""type": "vector", "values": [0]"#), path: "properties[0].type",
                    .invalidValue(value: #""vector""#, expected: "one of scalar, point, size, rect, color, transform2d"))
        assertError(property(#""type": "scalar", "values": [0, 1], "interpolation": [1.5, 0, 1, 1]"#),
                    path: "properties[0].interpolation[0]", .invalidValue(value: "1.5", expected: "[0, 1]"))
        assertError(property(#""type": "scalar", "values": [0, 1], "calculationMode": "bouncy""#),
                    path: "properties[0].calculationMode",
                    .invalidValue(value: #""bouncy""#, expected: "one of linear, discrete, paced, cubic, cubicPaced"))
        assertError(#"{"duration": 1, "timingCurve": "wobble", "properties": []}"#, path: "timingCurve",
                    .invalidValue(value: #""wobble""#,
                                  expected: #"a curve (a preset name such as "ease-in-out", "cubic-bezier(…)" or [x1, y1, x2, y2])"#))
        // The same column twice.
        assertError(#"{"duration": 1, "properties": [{"name": "a", "type": "scalar", "values": [0]}, {"name": "a", "type": "point", "values": [[0, 0]]}, {"name": "a", "type": "scalar", "values": [0]}]}"#,
                    path: "properties[2].name",
                    .invalidValue(value: #""a""#, expected: "a name without comma, quote or line break, not starting or ending with a space or tab, whose columns (a) are not already used"))
        // A spline segment cannot take an extra easing.
        do throws(KeyframeDescriptionError) {
            _ = try describe(property(#""type": "scalar", "values": [0, 1, 2], "interpolation": "catmull-rom", "easings": [null, "ease"]"#))
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error.path, "properties[0].easings[1]")
        }
        // Not JSON.
        do throws(KeyframeDescriptionError) {
            _ = try describe(#"{"duration": 1, "properties": ["#)
            XCTFail("no error")
        } catch {
            guard case .malformedJSON = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(error.source, "test.json")
        }
    }

    // MARK: - Files and the CLI

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed example CSV is the bake of the committed example JSON at 60 Hz.
    func testExampleCSVIsUpToDate() throws {
        let data = Self.repositoryRoot.appendingPathComponent("notebooks-data")
        let d = try describe(String(contentsOf: data.appendingPathComponent("keyframes-example.json"), encoding: .utf8))
        let csv = try String(contentsOf: data.appendingPathComponent("keyframes-example.csv"), encoding: .utf8)
        var expected = ""
        try bake(d, rate: 60).write(to: &expected)
        XCTAssertEqual(csv, expected)
        XCTAssertTrue(csv.hasPrefix("time,opacity,position.x,position.y,frame.x,"))
    }

    func testBakedTableIsWrittenAtomically() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-bake-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out/bake.csv").path
        let table = try bake(describe(property(#""type": "point", "values": [[0, 0], [1, 2]]"#)), rate: 10)
        try table.write(toFile: path, createDirectory: true)
        XCTAssertEqual(try CSVTable(parsing: TextFile.read(atPath: path)), table)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
        XCTAssertEqual(leftovers, ["bake.csv"])
    }

    /// `kinetic bake` end to end (skipped when the executable is not built).
    func testCommandLine() throws {
        guard let executable = CLITests.executable else {  // found as CLITests finds it
            throw XCTSkip("the kinetic executable is not built next to the test bundle; set KINETIC_CLI to its path")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-bake-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try CLITests.runExecutable(executable, arguments, in: directory)
        }
        let json = #"{"duration": 0.25, "properties": [{"name": "opacity", "type": "scalar", "values": [0, 1]}, {"name": "position", "type": "point", "values": [[0, 0], [10, 20]], "interpolation": "ease-in"}]}"#
        try json.write(to: directory.appendingPathComponent("keys.json"), atomically: true, encoding: .utf8)
        let printed = try run(["bake", "keys.json", "--rate", "60"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        var expected = ""
        try bake(describe(json), rate: 60).write(to: &expected)
        XCTAssertEqual(printed.stdout, expected)
        XCTAssertTrue(printed.stdout.hasPrefix("time,opacity,position.x,position.y\n0.0,0.0,0.0,0.0\n"))
        XCTAssertEqual(printed.stdout.split(separator: "\n").count, 1 + 16)

        let written = try run(["bake", "keys.json", "--rate", "60", "--output", "baked.csv"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout, "")
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("baked.csv"), encoding: .utf8), expected)

        // A bad file: one line naming the path and the value; the existing output is untouched.
        try #"{"duration": 1, "properties": [{"name": "x", "type": "scalar", "keyTimes": [0, "NaN"], "values": [0, 1]}]}"#
            .write(to: directory.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let failed = try run(["bake", "bad.json", "--rate", "60", "--output", "baked.csv"])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertEqual(failed.stdout, "")
        XCTAssertEqual(failed.stderr, "kinetic: error: bad.json: properties[0].keyTimes[1]: expected a finite number, found the string \"NaN\"\n")
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("baked.csv"), encoding: .utf8), expected)
        let missing = try run(["bake", "nope.json"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.hasPrefix("kinetic: error: cannot open 'nope.json'"), missing.stderr)
        let badRate = try run(["bake", "keys.json", "--rate", "0"])
        XCTAssertNotEqual(badRate.status, 0)
        XCTAssertEqual(badRate.stderr.split(separator: "\n").count, 1, badRate.stderr)
        let temporary = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(temporary, [])
    }
}
