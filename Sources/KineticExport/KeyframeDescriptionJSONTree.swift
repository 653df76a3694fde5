import Kinetic

// The JSON tree behind KeyframeDescription's reading and writing: a plain JSON value
// (parsed by JSONParser, or decoded by any Decoder through Codable), and a reader whose
// errors name JSON paths.

// MARK: - JSON tree

/// A parsed JSON value (package access, for KineticExport and its tests); numbers are
/// `Double`s.
package enum JSONValue: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() { self = .null; return }
            if let value = try? container.decode(Bool.self) { self = .bool(value); return }
            if let value = try? container.decode(Double.self) { self = .number(value); return }
            if let value = try? container.decode(String.self) { self = .string(value); return }
        }
        if var container = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !container.isAtEnd { items.append(try container.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: JSONValue] = [:]
            for key in container.allKeys { object[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(object)
            return
        }
        throw DecodingError.dataCorrupted(.init(
            codingPath: decoder.codingPath, debugDescription: "a number that does not fit a Double, or an unreadable value"))
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in object { try container.encode(value, forKey: AnyKey(stringValue: key)) }
        }
    }

    /// Compact JSON text, for messages (numbers in `Double.description`).
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value.description
        case .string(let value): return jsonQuoted(value)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let object):
            return "{" + object.keys.sorted().map { "\(JSONValue.string($0).text): \(object[$0]!.text)" }.joined(separator: ", ") + "}"
        }
    }

    /// What the value is, for "found …" in messages: `the string "NaN"`, `an array`, ….
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "the boolean \(value)"
        case .number(let value): return "the number \(value)"
        case .string: return "the string \(shortText)"
        case .array(let items): return "an array of \(items.count) elements"
        case .object: return "an object"
        }
    }

    /// `text`, cut to about 60 characters.
    var shortText: String {
        let full = text
        return full.count <= 60 ? full : String(full.prefix(57)) + "…"
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// A JSON value and its path, with typed accessors that throw path-naming errors.
struct JSONReader {
    let value: JSONValue
    let path: String

    static func pathText(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return text
    }

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func invalid(expected: String) -> KeyframeDescriptionError {
        KeyframeDescriptionError(path: path, reason: .invalidValue(value: value.shortText, expected: expected))
    }

    func wrongType(_ expected: String) -> KeyframeDescriptionError {
        KeyframeDescriptionError(path: path, reason: .wrongType(expected: expected, found: value.kindDescription))
    }

    func object() throws(KeyframeDescriptionError) -> [String: JSONValue] {
        guard case .object(let object) = value else { throw wrongType("an object") }
        return object
    }

    /// Throws ``KeyframeDescriptionError/Reason/unknownField`` for a key outside `keys`
    /// (the first in sorted order), and a type error if this is not an object.
    func allowOnly(_ keys: Set<String>) throws(KeyframeDescriptionError) {
        if let unknown = try object().keys.filter({ !keys.contains($0) }).sorted().first {
            throw KeyframeDescriptionError(path: child(unknown), reason: .unknownField)
        }
    }

    func field(_ key: String) throws(KeyframeDescriptionError) -> JSONReader {
        guard let reader = optionalField(key) else {
            throw KeyframeDescriptionError(path: child(key), reason: .missingField)
        }
        return reader
    }

    /// The field, or `nil` when it is absent or `null`.
    func optionalField(_ key: String) -> JSONReader? {
        guard case .object(let object) = value, let item = object[key], item != .null else { return nil }
        return JSONReader(value: item, path: child(key))
    }

    func array(what: String = "an array") throws(KeyframeDescriptionError) -> [JSONReader] {
        guard case .array(let items) = value else { throw wrongType(what) }
        return items.enumerated().map { JSONReader(value: $1, path: "\(path)[\($0)]") }
    }

    func number() throws(KeyframeDescriptionError) -> Double {
        guard case .number(let number) = value, number.isFinite else { throw wrongType("a finite number") }
        return number
    }

    func numbers(what: String = "an array of numbers") throws(KeyframeDescriptionError) -> [Double] {
        try array(what: what).map { (reader) throws(KeyframeDescriptionError) in try reader.number() }
    }

    func string() throws(KeyframeDescriptionError) -> String {
        guard case .string(let text) = value else { throw wrongType("a string") }
        return text
    }

    /// A curve: preset name or CSS text, or `[x1, y1, x2, y2]`.
    func curve() throws(KeyframeDescriptionError) -> CubicBezier {
        let what = "a curve (a preset name such as \"ease-in-out\", \"cubic-bezier(…)\" or [x1, y1, x2, y2])"
        switch value {
        case .string(let text):
            do {
                return try CubicBezier(parsing: text)
            } catch {
                throw invalid(expected: what)
            }
        case .array(let items):
            guard items.count == 4 else {
                throw KeyframeDescriptionError(path: path, reason: .countMismatch(expected: 4, actual: items.count))
            }
            let n = try numbers(what: what)
            do {
                return try CubicBezier(n[0], n[1], n[2], n[3])
            } catch let error as ParameterError {
                let index = error.parameter == "x1" ? 0 : error.parameter == "x2" ? 2 : error.parameter == "y1" ? 1 : 3
                throw KeyframeDescriptionError(
                    path: "\(path)[\(index)]",
                    reason: .invalidValue(value: n[index].description, expected: index % 2 == 0 ? "[0, 1]" : "a finite number"))
            } catch {
                throw invalid(expected: what)
            }
        default:
            throw wrongType(what)
        }
    }

    /// `"hold"`, `"linear"`, `"catmull-rom"` or a curve (eased).
    func interpolation() throws(KeyframeDescriptionError) -> KeyframeInterpolation {
        if case .string(let text) = value {
            switch text.lowercased().filter({ $0 != "-" && $0 != "_" }) {
            case "hold": return .hold
            case "linear": return .linear
            case "catmullrom": return .catmullRom
            default: break
            }
        }
        switch value {
        case .string, .array:
            do throws(KeyframeDescriptionError) {
                return .eased(try curve())
            } catch {
                if case .invalidValue = error.reason, error.path == path {
                    throw invalid(expected: "\"hold\", \"linear\", \"catmull-rom\" or a curve (preset name, \"cubic-bezier(…)\" or [x1, y1, x2, y2])")
                }
                throw error
            }
        default:
            throw wrongType("an interpolation (\"hold\", \"linear\", \"catmull-rom\" or a curve)")
        }
    }
}
