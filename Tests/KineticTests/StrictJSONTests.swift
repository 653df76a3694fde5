import Kinetic
import KineticExport
import XCTest

/// The strict RFC 8259 reader behind `KeyframeDescription(json:source:)`: texts it must
/// reject (with the line and column of the problem), texts it must accept (values checked
/// bit for bit), positions in multi-line documents, and descriptions with a syntax error.
final class StrictJSONTests: XCTestCase {

    /// Reads `text` as a description and asserts a `.malformedJSON` error at `line`,
    /// `column` whose message contains `fragment`.
    private func assertRejected(_ text: String, line: Int, column: Int, _ fragment: String,
                                file: StaticString = #filePath, sourceLine: UInt = #line) {
        do throws(KeyframeDescriptionError) {
            _ = try KeyframeDescription(json: text, source: "t.json")
            XCTFail("accepted \(jsonQuoted(text))", file: file, line: sourceLine)
        } catch {
            guard case .malformedJSON(let detail) = error.reason else {
                return XCTFail("\(jsonQuoted(text)): \(error)", file: file, line: sourceLine)
            }
            let prefix = "line \(line), column \(column): "
            XCTAssertEqual(error.source, "t.json", file: file, line: sourceLine)
            XCTAssertEqual(error.path, "", file: file, line: sourceLine)
            XCTAssertTrue(detail.hasPrefix(prefix), "\(jsonQuoted(text)): \(detail)", file: file, line: sourceLine)
            XCTAssertTrue(detail.contains(fragment), "\(jsonQuoted(text)): \(detail)", file: file, line: sourceLine)
            XCTAssertEqual(error.description, "t.json: not valid JSON: \(detail)", file: file, line: sourceLine)
        }
    }

    // MARK: - Rejected

    /// (text, line, column, part of the message).
    static let rejected: [(String, Int, Int, String)] = [
        // Trailing and stray commas, at several depths.
        ("[1,]", 1, 3, "trailing comma before ']' (JSON allows none)"),
        (#"{"a":1,}"#, 1, 7, "trailing comma before '}' (JSON allows none)"),
        ("[[1,]]", 1, 4, "trailing comma before ']'"),
        (#"{"a":{"b":[{"c":1,}]}}"#, 1, 18, "trailing comma before '}'"),
        ("[1, 2, 3 , ]", 1, 10, "trailing comma before ']'"),
        ("[,1]", 1, 2, "expected a value (object, array, string, number, true, false or null), found ','"),
        ("[1,,2]", 1, 4, "found ','"),
        ("{,}", 1, 2, "expected a string key or '}', found ','"),
        // Comments.
        ("[1 // note\n]", 1, 4, "expected ',' or ']' after an array element, found '/' (JSON has no comments)"),
        ("/* c */ 1", 1, 1, "found '/' (JSON has no comments)"),
        ("1 // c", 1, 3, "expected the end of the text after the top-level value, found '/'"),
        ("# c\n1", 1, 1, "(JSON has no comments)"),
        // Quotes and keys.
        ("['single']", 1, 2, "found ''' (JSON strings are in double quotes)"),
        ("{a:1}", 1, 2, "found 'a' (keys are double-quoted strings)"),
        ("{'a':1}", 1, 2, "expected a string key or '}', found '''"),
        ("{1:2}", 1, 2, "expected a string key or '}', found '1'"),
        (#"{"a" 1}"#, 1, 6, #"expected ':' after the key "a", found '1'"#),
        (#"{"a":}"#, 1, 6, "expected a value (object, array, string, number, true, false or null), found '}'"),
        (#"{"a":1 "b":2}"#, 1, 8, #"expected ',' or '}' after an object member, found '"'"#),
        (#"{"a":1,"a":2}"#, 1, 8, #"duplicate key "a" in one object (first at line 1, column 2)"#),
        // Keys are compared as Swift strings: "é" precomposed and decomposed are one key.
        ("{\"\u{E9}\":1,\"e\u{301}\":2}", 1, 8, "duplicate key"),
        // Numbers.
        ("01", 1, 1, "leading zero in the number '01' (JSON allows none)"),
        ("-01", 1, 1, "leading zero in the number '-01'"),
        ("[00]", 1, 2, "leading zero"),
        ("1.", 1, 3, "expected a digit after the decimal point of '1.', found the end of the text"),
        (".1", 1, 1, "found '.' (JSON numbers have a digit before the decimal point)"),
        ("+1", 1, 1, "found '+' (JSON numbers have no '+' sign)"),
        ("1e", 1, 3, "expected a digit in the exponent of '1e', found the end of the text"),
        ("1e+", 1, 4, "expected a digit in the exponent of '1e+'"),
        ("[1E-]", 1, 5, "found ']'"),
        ("0x10", 1, 2, "the number '0' is followed by 'x10'"),
        ("1.5.3", 1, 4, "the number '1.5' is followed by '.'"),
        ("-", 1, 2, "expected a digit after '-', found the end of the text"),
        ("- 1", 1, 2, "expected a digit after '-', found U+0020 (space)"),
        ("NaN", 1, 1, "found 'NaN' (JSON has no NaN or Infinity)"),
        ("Infinity", 1, 1, "found 'Infinity' (JSON has no NaN or Infinity)"),
        ("-Infinity", 1, 2, "expected a digit after '-', found 'Infinity'"),
        ("1e999", 1, 1, "the number '1e999' is too large for a Double"),
        ("[0, -1e999]", 1, 5, "the number '-1e999' is too large"),
        ("1" + String(repeating: "0", count: 400), 1, 1, "too large for a Double"),
        // Literals.
        ("tru", 1, 1, "found 'tru'"),
        ("nul", 1, 1, "found 'nul'"),
        ("truex", 1, 1, "found 'truex'"),
        ("True", 1, 1, "found 'True' (JSON literals are true, false and null)"),
        ("[true false]", 1, 7, "expected ',' or ']' after an array element, found 'false'"),
        // Strings.
        (#""abc"#, 1, 5, #"expected '"' to close the string opened at line 1, column 1, found the end of the text"#),
        ("\"a\tb\"", 1, 3, #"U+0009 (tab) inside a string (JSON needs control characters escaped, here as \t)"#),
        ("\"a\nb\"", 1, 3, #"U+000A (line feed) inside a string (JSON needs control characters escaped, here as \n)"#),
        ("\"a\u{0}b\"", 1, 3, #"U+0000 (NUL) inside a string (JSON needs control characters escaped, here as \u0000)"#),
        ("\"\u{1F}\"", 1, 2, "U+001F inside a string"),
        (#""\x""#, 1, 2, #"invalid escape: '\' followed by 'x'"#),
        (#""\'""#, 1, 2, "invalid escape"),
        (#""\u12""#, 1, 6, #"expected 4 hex digits after '\u', found '"'"#),
        (#""\uZZZZ""#, 1, 4, "expected 4 hex digits"),
        (#""\"#, 1, 3, #"expected an escape after '\', found the end of the text"#),
        (#""\ud800""#, 1, 2, #"lone surrogate \uD800"#),
        (#""\udc00\ud800""#, 1, 2, #"lone surrogate \uDC00"#),
        (#""\ud800\u0041""#, 1, 2, #"followed by \u0041, not by a low surrogate"#),
        (#""\ud800x""#, 1, 2, "lone surrogate"),
        // Structure.
        ("[1, 2", 1, 6, "found the end of the text (the array opened at line 1, column 1 is not closed)"),
        (#"{"a": 1"#, 1, 8, "(the object opened at line 1, column 1 is not closed)"),
        ("[", 1, 2, "expected a value"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
        ("[1]]", 1, 4, "expected the end of the text after the top-level value, found ']'"),
        ("]", 1, 1, "expected a value"),
        ("1 2", 1, 3, "found '2' (a JSON text holds one value)"),
        ("{} {}", 1, 4, "expected the end of the text"),
        ("", 1, 1, "found the end of the text (the text is empty)"),
        ("  \n\t ", 2, 3, "(the text is only whitespace)"),
        // A byte order mark, and whitespace that JSON does not have.
        ("\u{FEFF}{}", 1, 1, "byte order mark U+FEFF at the start of the text"),
        ("\u{FEFF}", 1, 1, "byte order mark"),
        ("[1,\u{FEFF}2]", 1, 4, "found U+FEFF (byte order mark) (JSON whitespace is only space, tab, LF and CR)"),
        ("\u{A0}1", 1, 1, "found U+00A0 (no-break space) (JSON whitespace is only space, tab, LF and CR)"),
        ("[1,\u{0C}2]", 1, 4, "found U+000C (form feed) (JSON whitespace is only"),
        ("[1\u{0B}]", 1, 3, "found U+000B (vertical tab)"),
        ("\u{2028}1", 1, 1, "U+2028 (line separator)"),
        ("[1,\u{3000}2]", 1, 4, "U+3000 (JSON whitespace is only"),
        // Nesting beyond the limit.
        (String(repeating: "[", count: 10_000), 1, 513, "more than 512 nested arrays and objects"),
        (String(repeating: "[", count: 513) + String(repeating: "]", count: 513), 1, 513, "more than 512 nested"),
        (String(repeating: #"{"a":"#, count: 600), 1, 2561, "more than 512 nested"),
    ]

    func testRejectsWhatRFC8259Rejects() {
        XCTAssertGreaterThanOrEqual(Self.rejected.count, 40)
        for (text, line, column, fragment) in Self.rejected {
            assertRejected(text, line: line, column: column, fragment)
        }
    }

    // MARK: - Accepted

    /// Whether two trees are equal with numbers compared bit for bit (so -0 differs from 0).
    static func sameTree(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x.bitPattern == y.bitPattern
        case (.array(let xs), .array(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { sameTree($0, $1) }
        case (.object(let xs), .object(let ys)):
            return xs.count == ys.count && xs.allSatisfy { key, x in ys[key].map { sameTree(x, $0) } ?? false }
        default:
            return a == b
        }
    }

    static func assertSameTree(_ a: JSONValue, _ b: JSONValue, _ message: @autoclosure () -> String = "",
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(sameTree(a, b), "\(String(describing: a).prefix(300)) vs \(String(describing: b).prefix(300)) \(message())",
                      file: file, line: line)
    }

    /// 2^-1075 exactly: half the least subnormal, a tie that rounds to even (zero).
    static let halfOfLeastSubnormal =
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081" +
        "799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449" +
        "105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279" +
        "558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454" +
        "020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766" +
        "678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373" +
        "280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667" +
        "994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324"

    /// (text, the value it reads as).
    static let accepted: [(String, JSONValue)] = [
        (" \t\n\r[ \t\n\r1 \t\n\r, \t\n\r{ \t\n\r\"a\" \t\n\r: \t\n\rnull \t\n\r} \t\n\r] \t\n\r",
         .array([.number(1), .object(["a": .null])])),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        (#""\u0041\u00e9\u4E2D""#, .string("Aé中")),
        (#""\ud83d\ude00""#, .string("😀")),
        (#""\uD834\uDD1E x""#, .string("𝄞 x")),
        (#""\u0000""#, .string("\u{0}")),
        (#""a/b\u00E9""#, .string("a/bé")),
        ("\"\u{7F}\u{80}\u{2028}\"", .string("\u{7F}\u{80}\u{2028}")),
        (#"{"ключ": "値", "😀": "é", "": {}}"#, .object(["ключ": .string("値"), "😀": .string("é"), "": .object([:])])),
        ("-0", .number(-0.0)),
        ("0", .number(0)),
        ("0e0", .number(0)),
        ("-0.0e-0", .number(-0.0)),
        ("1E+2", .number(100)),
        ("1E-2", .number(Double("1E-2")!)),
        ("1.5e-3", .number(Double("1.5e-3")!)),
        ("-123.456e+7", .number(-1_234_560_000)),
        ("0.1", .number(0.1)),
        ("1e308", .number(1e308)),
        ("1.7976931348623157e308", .number(.greatestFiniteMagnitude)),
        ("-1.7976931348623157e308", .number(-.greatestFiniteMagnitude)),
        ("5e-324", .number(.leastNonzeroMagnitude)),
        ("2.2250738585072014e-308", .number(.leastNormalMagnitude)),
        ("1e-400", .number(0)),
        ("-1e-400", .number(-0.0)),
        ("123456789012345678901234567890", .number(1.2345678901234568e29)),
        ("9007199254740993", .number(9_007_199_254_740_992)),
        (halfOfLeastSubnormal, .number(0)),
        (halfOfLeastSubnormal.replacingOccurrences(of: "e-324", with: "1e-324"), .number(.leastNonzeroMagnitude)),
        ("[]", .array([])),
        ("{}", .object([:])),
        ("[[], {}]", .array([.array([]), .object([:])])),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        (#"[1,"a",true,false,null,{"k":[2]}]"#,
         .array([.number(1), .string("a"), .bool(true), .bool(false), .null, .object(["k": .array([.number(2)])])])),
    ]

    func testAcceptsValidJSON() {
        XCTAssertGreaterThanOrEqual(Self.accepted.count, 25)
        for (text, expected) in Self.accepted {
            do throws(JSONSyntaxError) {
                Self.assertSameTree(try JSONParser.parse(text), expected, jsonQuoted(text))
            } catch {
                XCTFail("\(jsonQuoted(text)): \(error.detail)")
            }
        }
    }

    func testNestingUpToTheLimitIsAccepted() throws {
        for depth in [500, JSONParser.maximumDepth] {
            var value = try JSONParser.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            var levels = 0
            while case .array(let items) = value {
                levels += 1
                guard let first = items.first else { break }
                value = first
            }
            XCTAssertEqual(levels, depth)
        }
        let depth = JSONParser.maximumDepth - 1
        let objects = String(repeating: #"{"k":"#, count: depth) + "[0]" + String(repeating: "}", count: depth)
        XCTAssertNoThrow(try JSONParser.parse(objects))
    }

    // MARK: - Positions in multi-line documents

    func testPositionsWithLFAndCRLF() {
        let lines = ["{", #"  "a": [1, 2,],"#, #"  "b": 3"#, "}"]
        assertRejected(lines.joined(separator: "\n"), line: 2, column: 13, "trailing comma before ']'")
        assertRejected(lines.joined(separator: "\r\n"), line: 2, column: 13, "trailing comma before ']'")
        // Columns count Unicode scalars, not bytes.
        let unicode = ["{", #"  "é": "ü","#, #"  "x": 1,"#, #"  "ü": tru"#, "}"]
        assertRejected(unicode.joined(separator: "\r\n"), line: 4, column: 8, "found 'tru'")
        assertRejected(unicode.joined(separator: "\n"), line: 4, column: 8, "found 'tru'")
        // A lone CR ends a line too.
        assertRejected("[1,\r2,\r]", line: 2, column: 2, "trailing comma before ']'")
        // A duplicate key names both places.
        assertRejected("{\n  \"duration\": 1,\r\n  \"duration\": 2\n}", line: 3, column: 3,
                       #"duplicate key "duration" in one object (first at line 2, column 3)"#)
        // An unclosed container names where it opened.
        assertRejected("{\n  \"p\": [\n    1,\n    2\n", line: 5, column: 1,
                       "(the array opened at line 2, column 8 is not closed)")
        // A string left open runs to the end of the text (a raw line break stops it first).
        assertRejected("[\n  \"abc", line: 2, column: 7, "close the string opened at line 2, column 3")
        assertRejected("[\n  \"abc\n\"]", line: 2, column: 7, "U+000A (line feed) inside a string")
    }

    // MARK: - Keyframe descriptions

    func testDescriptionWithTrailingCommaNamesItsLine() throws {
        let good = """
            {
              "duration": 1.5,
              "properties": [
                {"name": "x", "type": "scalar", "values": [0, 1]}
              ]
            }
            """
        let bad = good.replacingOccurrences(of: "[0, 1]", with: "[0, 1,]")
        assertRejected(bad, line: 4, column: 52, "trailing comma before ']' (JSON allows none)")
        XCTAssertEqual(try KeyframeDescription(json: good).properties[0].values, [[0], [1]])
        do throws(KeyframeDescriptionError) {
            _ = try KeyframeDescription(json: bad, source: "keys.json")
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error.description,
                           "keys.json: not valid JSON: line 4, column 52: trailing comma before ']' (JSON allows none)")
        }
        // A semantic error in valid JSON still names its JSON path, not a line.
        do throws(KeyframeDescriptionError) {
            _ = try KeyframeDescription(json: good.replacingOccurrences(of: "1.5", with: "-1"), source: "keys.json")
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error.path, "duration")
            XCTAssertEqual(error.source, "keys.json")
        }
    }

    /// The committed example with one trailing comma added: the message names that line and
    /// the comma's column.
    func testExampleFileWithTrailingComma() throws {
        let url = BakeTests.repositoryRoot.appendingPathComponent("notebooks-data/keyframes-example.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertNoThrow(try KeyframeDescription(json: text))
        var lines = text.components(separatedBy: "\n")
        guard let n = lines.firstIndex(where: { $0.contains(#""values": [0, 1, 0.5]"#) }) else {
            return XCTFail("the example changed")
        }
        lines[n] = lines[n].replacingOccurrences(of: "[0, 1, 0.5]", with: "[0, 1, 0.5,]")
        let comma = lines[n].range(of: ",]")!.lowerBound
        let column = lines[n].unicodeScalars[..<comma].count + 1
        assertRejected(lines.joined(separator: "\n"), line: n + 1, column: column, "trailing comma before ']' (JSON allows none)")
        assertRejected(lines.joined(separator: "\r\n"), line: n + 1, column: column, "trailing comma before ']' (JSON allows none)")
    }
}
