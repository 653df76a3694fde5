import Kinetic
import KineticExport
import XCTest
import TestSupport

/// The JSON writer behind `KeyframeDescription.jsonText()` and the strict reader together:
/// exact text, numbers bit for bit, and randomly mutated documents that must never crash
/// the reader and, when accepted, must write and read back to the same tree.
final class StrictJSONRoundTripTests: XCTestCase {

    // MARK: - Writing

    func testJSONTextIsSortedIndentedAndReadsBack() throws {
        let description = KeyframeDescription(duration: 1.5, timingCurve: .easeInOut, properties: [
            KeyframeProperty(name: "o", type: .scalar, keyTimes: [0, 0.25, 1], values: [[0], [1], [0.5]],
                             motion: .interpolation([.linear, .hold])),
            KeyframeProperty(name: "p", type: .point, values: [[0, 0], [120, -40]],
                             motion: .calculationMode(.cubic, tensionValues: [0.5, -0.5]),
                             easings: [try CubicBezier(0.2, 0, 0.8, 1)]),
        ])
        let expected = """
            {
              "duration": 1.5,
              "properties": [
                {
                  "interpolation": ["linear", "hold"],
                  "keyTimes": [0, 0.25, 1],
                  "name": "o",
                  "type": "scalar",
                  "values": [0, 1, 0.5]
                },
                {
                  "calculationMode": "cubic",
                  "easings": [
                    [0.2, 0, 0.8, 1]
                  ],
                  "name": "p",
                  "tensionValues": [0.5, -0.5],
                  "type": "point",
                  "values": [
                    [0, 0],
                    [120, -40]
                  ]
                }
              ],
              "timingCurve": "ease-in-out"
            }
            """
        let text = try description.jsonText()
        XCTAssertEqual(text, expected)
        let again = try KeyframeDescription(json: text)
        XCTAssertEqual(again, description)
        XCTAssertEqual(try again.jsonText(), text)
    }

    /// text → description → text → description: the second text equals the first and the
    /// descriptions are equal (the committed example).
    func testExampleRoundTripIsStable() throws {
        let url = BakeTests.repositoryRoot.appendingPathComponent("notebooks-data/keyframes-example.json")
        let original = try KeyframeDescription(json: String(contentsOf: url, encoding: .utf8))
        let text = try original.jsonText()
        let again = try KeyframeDescription(json: text)
        XCTAssertEqual(again, original)
        XCTAssertEqual(try again.jsonText(), text)
    }

    func testNonFiniteNumbersCannotBeWritten() {
        let description = KeyframeDescription(duration: 1, properties: [
            KeyframeProperty(name: "x", type: .point, values: [[0, 0], [1, .infinity]]),
        ])
        XCTAssertThrowsError(try description.jsonText()) { error in
            XCTAssertEqual((error as? KeyframeDescriptionError)?.path, "properties[0].values[1][1]", "\(error)")
        }
        XCTAssertThrowsError(try KeyframeDescription(duration: .nan, properties: []).jsonText()) { error in
            XCTAssertEqual((error as? KeyframeDescriptionError)?.path, "duration", "\(error)")
        }
    }

    func testNumbersAreWrittenShortAndReadBackBitForBit() throws {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "-0"), (1, "1"), (-42, "-42"), (0.1, "0.1"), (1.5, "1.5"), (-2.25, "-2.25"),
            (9_007_199_254_740_992, "9007199254740992"), (-9_007_199_254_740_992, "-9007199254740992"),
            (9_007_199_254_740_994, "9.007199254740994e+15"), (1e20, "1e+20"), (1e-7, "1e-07"),
            (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(JSONValue.numberText(value), text)
            let read = try JSONParser.parse(text)
            StrictJSONTests.assertSameTree(read, .number(value), text)
        }
        XCTAssertNil(JSONValue.numberText(.nan))
        XCTAssertNil(JSONValue.numberText(-.infinity))
        // Random bit patterns: every finite Double reads back exactly.
        var random = SeededRandom(seed: 0x4A53_4F4E)
        var numbers: [JSONValue] = []
        while numbers.count < 20_000 {
            let value = Double(bitPattern: random.next())
            if value.isFinite { numbers.append(.number(value)) }
        }
        let tree = JSONValue.array(numbers)
        StrictJSONTests.assertSameTree(try JSONParser.parse(try tree.prettyText()), tree)
    }

    // MARK: - Mutated documents

    /// Valid documents to mutate: the example description, and one with every kind of
    /// value, escape and number form.
    private func seedDocuments() throws -> [String] {
        let url = BakeTests.repositoryRoot.appendingPathComponent("notebooks-data/keyframes-example.json")
        let example = try String(contentsOf: url, encoding: .utf8)
        let values = #"""
            {"s": "a\"b\\c\/d\u00e9\ud83d\ude00\n\t", "n": [-0, 0.1, 1e-7, 1.5E+300, 5e-324, 123456789, -2.5e-3],
             "t": [true, false, null], "o": {"": [], "k": {}, "ü": "😀"}, "d": [[[[{"x": [1]}]]]]}
            """#
        return [example, values, example.replacingOccurrences(of: "\n", with: "\r\n")]
    }

    /// Seeded random edits of the bytes of valid documents (insertions of `,]}"\` and other
    /// pieces, deletions, duplications, swaps): whatever the text, reading never crashes,
    /// every failure is a KeyframeDescriptionError (a syntax error naming a line and column
    /// inside the text), and every text the parser accepts writes and reads back to the same
    /// tree.
    func testMutatedDocumentsNeverCrashAndRoundTrip() throws {
        let seeds = try seedDocuments().map { Array($0.utf8) }
        let pieces: [[UInt8]] = [
            ",", "]", "}", "[", "{", "\"", "\\", ":", "0", "-", "+", "e", "E", ".", "/", "*", "'", " ", "\n", "\r", "\t",
            "u", "\\u", "\\ud800", "\\udc00", "d83d", "1e999", "1e-999", "\u{A0}", "\u{FEFF}", "\u{0}", "\u{1F}",
            "tru", "null", "é", "😀", "//", "[[[[", "]]]]", "00", ",]", ",}",
        ].map { Array($0.utf8) }
        var random = SeededRandom(seed: 20_251_125)
        var accepted = 0, syntaxErrors = 0, otherErrors = 0
        for iteration in 0..<20_000 {
            // Edits of UTF-8 bytes; a cut through a multi-byte character reads as U+FFFD.
            var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0...Int(random.next() % 3) {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                switch random.next() % 4 {
                case 0 where at < bytes.count:
                    bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 4)))
                case 1:
                    bytes.insert(contentsOf: pieces[Int(random.next() % UInt64(pieces.count))], at: at)
                case 2 where at < bytes.count:
                    let end = min(bytes.count, at + 1 + Int(random.next() % 12))
                    bytes.insert(contentsOf: bytes[at..<end], at: end)
                case 3 where at + 1 < bytes.count:
                    bytes.swapAt(at, at + 1)
                default:
                    bytes.insert(UInt8(ascii: ","), at: at)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)

            let parsed: JSONValue?
            do throws(JSONSyntaxError) {
                parsed = try JSONParser.parse(text)
            } catch {
                parsed = nil
                let lineEnds = bytes.filter { $0 == 0x0A || $0 == 0x0D }.count
                XCTAssertTrue((1...lineEnds + 1).contains(error.line), "\(iteration): \(error.detail)")
                XCTAssertTrue((1...text.unicodeScalars.count + 1).contains(error.column), "\(iteration): \(error.detail)")
            }
            if let parsed {
                accepted += 1
                let written = try parsed.prettyText()
                StrictJSONTests.assertSameTree(try JSONParser.parse(written), parsed, "\(iteration)")
            }
            do throws(KeyframeDescriptionError) {
                _ = try KeyframeDescription(json: text, source: "m.json")
                XCTAssertNotNil(parsed, "\(iteration): a description from text the parser rejects")
            } catch {
                XCTAssertEqual(error.source, "m.json")
                if case .malformedJSON(let detail) = error.reason {
                    syntaxErrors += 1
                    XCTAssertNil(parsed, "\(iteration): \(detail)")
                    XCTAssertTrue(detail.hasPrefix("line "), detail)
                } else {
                    otherErrors += 1
                    XCTAssertNotNil(parsed, "\(iteration): \(error)")
                }
            }
        }
        // The edits reach both sides of the grammar and the description's own checks.
        XCTAssertGreaterThan(accepted, 500)
        XCTAssertGreaterThan(syntaxErrors, 5_000)
        XCTAssertGreaterThan(otherErrors, 100)
    }
}
