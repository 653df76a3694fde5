#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Kinetic

// Reading and writing ``KeyframeDescription`` as JSON. The JSON text is parsed by
// Foundation's `JSONDecoder` into a plain JSON tree, which is then read field by field so
// that every error can name its JSON path.

extension KeyframeDescription: Codable {
    /// Reads and validates a description from JSON text (UTF-8); see the type's discussion
    /// for the format.
    ///
    /// - Parameters:
    ///   - json: the JSON text.
    ///   - source: the name used in error messages, e.g. the file name.
    /// - Throws: `KeyframeDescriptionError` naming the JSON path of the first problem
    ///   (`.malformedJSON` for text that is not JSON).
    public init(json: String, source: String = "<input>") throws(KeyframeDescriptionError) {
        let tree: JSONValue
        do {
            tree = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            var error = KeyframeDescriptionError(decoding: error)
            error.source = source
            throw error
        } catch {
            throw KeyframeDescriptionError(path: "", reason: .malformedJSON(detail: "\(error)"), source: source)
        }
        do throws(KeyframeDescriptionError) {
            try self.init(tree: JSONReader(value: tree, path: ""))
            try validate()
        } catch {
            var error = error
            error.source = source
            throw error
        }
    }

    /// Decodes and validates a description (the JSON form of the type's discussion).
    /// Errors are `KeyframeDescriptionError` values whose path starts with the decoder's
    /// coding path.
    public init(from decoder: any Decoder) throws {
        let prefix = JSONReader.pathText(decoder.codingPath)
        let tree = try decoder.singleValueContainer().decode(JSONValue.self)
        try self.init(tree: JSONReader(value: tree, path: prefix))
        do throws(KeyframeDescriptionError) {
            try validate()
        } catch {
            var error = error
            if !prefix.isEmpty { error.path = error.path.isEmpty ? prefix : "\(prefix).\(error.path)" }
            throw error
        }
    }

    /// Encodes the description in the JSON form that ``init(json:source:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(jsonTree)
    }

    /// The description as JSON text (keys sorted, pretty-printed), readable by
    /// ``init(json:source:)``.
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    private init(tree: JSONReader) throws(KeyframeDescriptionError) {
        try tree.allowOnly(["duration", "timingCurve", "properties"])
        let duration = try tree.field("duration").number()
        let curve = try tree.optionalField("timingCurve")?.curve()
        let properties = try tree.field("properties").array().map { (reader) throws(KeyframeDescriptionError) in
            try KeyframeProperty(tree: reader)
        }
        self.init(duration: duration, timingCurve: curve, properties: properties)
    }

    private var jsonTree: JSONValue {
        var object: [String: JSONValue] = [
            "duration": .number(duration),
            "properties": .array(properties.map(\.jsonTree)),
        ]
        if let timingCurve { object["timingCurve"] = curveJSON(timingCurve) }
        return .object(object)
    }
}

extension KeyframeProperty {
    fileprivate init(tree: JSONReader) throws(KeyframeDescriptionError) {
        try tree.allowOnly([
            "name", "type", "keyTimes", "values", "interpolation", "calculationMode", "easings",
            "tensionValues", "continuityValues", "biasValues",
        ])
        let name = try tree.field("name").string()
        let typeReader = try tree.field("type")
        let typeName = try typeReader.string()
        guard let type = ValueType(rawValue: typeName) ?? ValueType.allCases.first(where: { $0.rawValue == typeName.lowercased() }) else {
            throw typeReader.invalid(expected: "one of " + ValueType.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let keyTimes = try tree.optionalField("keyTimes")?.numbers()
        let values = try tree.field("values").array().map { (reader) throws(KeyframeDescriptionError) -> [Double] in
            if type == .scalar {
                return [try reader.number()]
            }
            let components = try reader.numbers(what: "an array of \(type.componentCount) numbers (\(type.componentNames.joined(separator: ", ")))")
            guard components.count == type.componentCount else {
                throw KeyframeDescriptionError(
                    path: reader.path, reason: .countMismatch(expected: type.componentCount, actual: components.count))
            }
            return components
        }
        let interpolation = tree.optionalField("interpolation")
        let mode = tree.optionalField("calculationMode")
        let kb = ["tensionValues", "continuityValues", "biasValues"]
        let motion: Motion
        if let mode {
            if let interpolation {
                throw interpolation.invalid(expected: "no interpolation when calculationMode is given (use one or the other)")
            }
            let text = try mode.string()
            let key = text.lowercased().filter { $0 != "-" && $0 != "_" }
            let modes: [(String, KeyframeCalculationMode)] = [
                ("linear", .linear), ("discrete", .discrete), ("paced", .paced), ("cubic", .cubic), ("cubicpaced", .cubicPaced),
            ]
            guard let found = modes.first(where: { $0.0 == key })?.1 else {
                throw mode.invalid(expected: "one of linear, discrete, paced, cubic, cubicPaced")
            }
            motion = .calculationMode(
                found, tensionValues: try tree.optionalField(kb[0])?.numbers(),
                continuityValues: try tree.optionalField(kb[1])?.numbers(),
                biasValues: try tree.optionalField(kb[2])?.numbers())
        } else {
            for key in kb {
                if let field = tree.optionalField(key) {
                    throw field.invalid(expected: "no \(key) without calculationMode \"cubic\" or \"cubicPaced\"")
                }
            }
            if let interpolation {
                if case .array(let items) = interpolation.value,
                   !(items.count == 4 && items.allSatisfy({ if case .number = $0 { return true } else { return false } })) {
                    motion = .interpolation(try interpolation.array().map { (reader) throws(KeyframeDescriptionError) in
                        try reader.interpolation()
                    })
                } else {
                    motion = .interpolation([try interpolation.interpolation()])
                }
            } else {
                motion = .interpolation([.linear])
            }
        }
        let easings = try tree.optionalField("easings")?.array().map { (reader) throws(KeyframeDescriptionError) -> CubicBezier? in
            if case .null = reader.value { return nil }
            return try reader.curve()
        }
        self.init(name: name, type: type, keyTimes: keyTimes, values: values, motion: motion, easings: easings)
    }

    fileprivate var jsonTree: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name),
            "type": .string(type.rawValue),
            "values": .array(values.map { type == .scalar && $0.count == 1 ? .number($0[0]) : .array($0.map(JSONValue.number)) }),
        ]
        if let keyTimes { object["keyTimes"] = .array(keyTimes.map(JSONValue.number)) }
        switch motion {
        case .interpolation(let entries):
            object["interpolation"] = entries.count == 1 ? interpolationJSON(entries[0]) : .array(entries.map(interpolationJSON))
        case .calculationMode(let mode, let tension, let continuity, let bias):
            let names: [KeyframeCalculationMode: String] = [
                .linear: "linear", .discrete: "discrete", .paced: "paced", .cubic: "cubic", .cubicPaced: "cubicPaced",
            ]
            object["calculationMode"] = .string(names[mode] ?? "linear")
            if let tension { object["tensionValues"] = .array(tension.map(JSONValue.number)) }
            if let continuity { object["continuityValues"] = .array(continuity.map(JSONValue.number)) }
            if let bias { object["biasValues"] = .array(bias.map(JSONValue.number)) }
        }
        if let easings { object["easings"] = .array(easings.map { $0.map(curveJSON) ?? .null }) }
        return .object(object)
    }
}

// MARK: - Curves and interpolations as JSON

/// A curve as JSON: its preset name, or `[x1, y1, x2, y2]`.
func curveJSON(_ curve: CubicBezier) -> JSONValue {
    if let preset = CubicBezier.presets.first(where: { $0.curve == curve }) { return .string(preset.name) }
    return .array([curve.x1, curve.y1, curve.x2, curve.y2].map(JSONValue.number))
}

func interpolationJSON(_ interpolation: KeyframeInterpolation) -> JSONValue {
    switch interpolation {
    case .hold: return .string("hold")
    case .linear: return .string("linear")
    case .catmullRom: return .string("catmull-rom")
    case .eased(let curve): return curveJSON(curve)
    }
}
