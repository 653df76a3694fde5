import Kinetic

// The strict JSON reader behind KeyframeDescription(json:source:): RFC 8259 text to a
// JSONValue tree, with errors that name a line and column. Structure (values, arrays,
// objects, nesting, the end of the text) is here; strings, numbers and literals are in
// JSONParserTokens.swift, positions and descriptions of what was found in
// JSONParserMessages.swift.

/// A syntax error in JSON text: where it is and what was expected and found.
package struct JSONSyntaxError: Error, Hashable, Sendable {
    /// The line, from 1; a line ends at LF, CR LF or a lone CR.
    package var line: Int
    /// The column within ``line``, from 1, counted in Unicode scalars.
    package var column: Int
    /// What was expected and what was found, e.g.
    /// `trailing comma before ']' (JSON allows none)`.
    package var message: String

    /// `line 4, column 3: ` followed by ``message``.
    package var detail: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser (package access, for KineticExport and its tests): one JSON value, optionally surrounded by JSON
/// whitespace (space, tab, LF, CR), and nothing else.
///
/// It rejects what RFC 8259 rejects — trailing commas, comments, single quotes, unquoted
/// keys, leading zeros, `+1`, `.5`, `1.`, hex, `NaN`, `Infinity`, control characters
/// U+0000–U+001F inside strings, unknown escapes, lone surrogates in `\u` escapes, more
/// than one top-level value — and also a leading byte order mark (RFC 8259 §8.1 lets a
/// parser ignore one; this one reports it), numbers whose magnitude overflows a `Double`,
/// duplicate keys in one object (keys equal as Swift strings, i.e. canonically
/// equivalent), and nesting deeper than ``maximumDepth`` arrays and objects.
///
/// Numbers are converted from their exact decimal text with `Double(_:)`, which rounds
/// correctly; underflow to a subnormal or to zero is allowed. The parser does not recurse
/// (open arrays and objects live on an explicit stack), so any input is read in time and
/// memory linear in its length.
package struct JSONParser {
    /// The most arrays and objects that may be open at once (the top-level one counts).
    package static let maximumDepth = 512

    /// The text as UTF-8.
    let bytes: [UInt8]
    /// The offset of the next byte to read.
    var index = 0

    init(text: String) {
        bytes = Array(text.utf8)
    }

    /// Parses `text`, which must hold exactly one JSON value.
    /// - Throws: ``JSONSyntaxError`` at the first problem.
    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(text: text)
        return try parser.parseDocument()
    }

    /// An array or object whose closing bracket has not been read yet.
    private struct OpenContainer {
        /// The offset of its `[` or `{`.
        let start: Int
        let isObject: Bool
        var items: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// Each key of an object and where it starts, in order (to report a duplicate).
        var keyStarts: [(key: String, start: Int)] = []
        /// The key of the member whose value is being read.
        var key = ""
    }

    var byte: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw error(at: 0, "byte order mark U+FEFF at the start of the text (JSON text has none: save it as UTF-8 without a BOM)")
        }
        skipWhitespace()
        if index == bytes.count {
            let what = bytes.isEmpty ? "the text is empty" : "the text is only whitespace"
            throw error(at: index, "expected a value (\(Self.valueKinds)), found the end of the text (\(what))")
        }
        var stack: [OpenContainer] = []
        while true {
            // At the start of a value, after any whitespace.
            var value: JSONValue
            // The end of the text (0 here) is reported by parseLiteral, like any non-value.
            switch byte ?? 0 {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let start = index
                let isObject = bytes[index] == UInt8(ascii: "{")
                guard stack.count < Self.maximumDepth else {
                    throw error(at: start, "more than \(Self.maximumDepth) nested arrays and objects (the most this reader allows)")
                }
                index += 1
                skipWhitespace()
                if byte == UInt8(ascii: isObject ? "}" : "]") {
                    index += 1
                    value = isObject ? .object([:]) : .array([])
                } else {
                    var container = OpenContainer(start: start, isObject: isObject)
                    if isObject { try readKey(into: &container, afterComma: false) }
                    stack.append(container)
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                value = try parseLiteral()
            }
            // A value is complete: add it to the open container, closing containers while
            // their closing bracket follows.
            while true {
                skipWhitespace()
                guard let top = stack.indices.last else {
                    guard index == bytes.count else {
                        throw error(at: index, "expected the end of the text after the top-level value, "
                                        + "found \(found(at: index)) (a JSON text holds one value)")
                    }
                    return value
                }
                let isObject = stack[top].isObject
                let close = UInt8(ascii: isObject ? "}" : "]")
                if isObject {
                    stack[top].members[stack[top].key] = value
                } else {
                    stack[top].items.append(value)
                }
                if byte == UInt8(ascii: ",") {
                    let comma = index
                    index += 1
                    skipWhitespace()
                    if byte == close {
                        throw error(at: comma, "trailing comma before '\(Character(Unicode.Scalar(close)))' (JSON allows none)")
                    }
                    if isObject { try readKey(into: &stack[top], afterComma: true) }
                    break
                }
                guard byte == close else {
                    let what = isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
                    var message = "expected \(what), found \(found(at: index))"
                    if index == bytes.count {
                        let (line, column) = position(of: stack[top].start)
                        message += " (the \(isObject ? "object" : "array") opened at line \(line), column \(column) is not closed)"
                    }
                    throw error(at: index, message)
                }
                index += 1
                let done = stack.removeLast()
                value = isObject ? .object(done.members) : .array(done.items)
            }
        }
    }

    /// Reads an object key, the `:` after it and the whitespace after that, and makes it
    /// the container's current key.
    /// - Throws: when there is no string key, the key is already in the object, or no `:`
    ///   follows.
    private mutating func readKey(into container: inout OpenContainer, afterComma: Bool) throws(JSONSyntaxError) {
        guard byte == UInt8(ascii: "\"") else {
            var message = "expected \(afterComma ? "a string key" : "a string key or '}'"), found \(found(at: index))"
            if let next = byte, next == UInt8(ascii: "_") || (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z")) {
                message += " (keys are double-quoted strings)"
            }
            throw error(at: index, message)
        }
        let keyStart = index
        let key = try parseString()
        // Every earlier member already has its value, so a repeated key is in `members`.
        if container.members[key] != nil {
            let first = container.keyStarts.first(where: { $0.key == key })?.start ?? keyStart
            let (line, column) = position(of: first)
            throw error(at: keyStart, "duplicate key \(jsonQuoted(key)) in one object (first at line \(line), column \(column))")
        }
        container.keyStarts.append((key, keyStart))
        skipWhitespace()
        guard byte == UInt8(ascii: ":") else {
            throw error(at: index, "expected ':' after the key \(jsonQuoted(key)), found \(found(at: index))")
        }
        index += 1
        skipWhitespace()
        container.key = key
    }

    /// The kinds of JSON value, for "expected a value (…)".
    static let valueKinds = "object, array, string, number, true, false or null"
}
