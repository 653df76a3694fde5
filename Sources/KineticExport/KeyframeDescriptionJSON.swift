import Kinetic

// Reading and writing ``KeyframeDescription`` as JSON. The text is parsed by the strict
// RFC 8259 reader (JSONParser) into a plain JSON tree, which is then read field by field so
// that every error can name its JSON path; writing goes the other way through the same tree.

extension KeyframeDescription: Codable {
    /// Reads and validates a description from JSON text; see the type's discussion for the
    /// format.
    ///
    /// The text must be strict RFC 8259 JSON: exactly one value, with only space, tab, LF
    /// and CR as whitespace. Rejected as `.malformedJSON`, among others: trailing commas,
    /// comments, single-quoted strings, unquoted keys, leading zeros (`01`), `+1`, `.5`,
    /// `1.`, hex numbers, `NaN` and `Infinity`, control characters U+0000–U+001F inside
    /// strings, unknown escapes (`\x`) and short ones (`\u12`), lone surrogates in `\u`
    /// escapes, a second top-level value, empty text, and a leading byte order mark
    /// (RFC 8259 §8.1 allows a parser to ignore one; this reader reports it instead). Also
    /// rejected, although RFC 8259 only recommends against them: a number whose magnitude
    /// is too large for a `Double` (above about 1.8e308; a tiny one rounds to a subnormal
    /// or zero), the same key twice in one object (keys compared as Swift strings), and
    /// more than 512 nested arrays and objects. Numbers are read from their exact decimal
    /// text, correctly rounded to the nearest `Double`.
    ///
    /// - Parameters:
    ///   - json: the JSON text.
    ///   - source: the name used in error messages, e.g. the file name.
    /// - Throws: `KeyframeDescriptionError` naming the first problem. For text that is not
    ///   JSON its reason is `KeyframeDescriptionError/Reason/malformedJSON(detail:)`, its
    ///   path empty, and the detail starts with the 1-based line and column (Unicode
    ///   scalars; a line ends at LF, CR LF or CR) and says what was expected and found:
    ///   `keys.json: not valid JSON: line 4, column 3: trailing comma before ']' (JSON allows none)`.
    ///   For a valid JSON text that is not a valid description the error names the JSON
    ///   path of the offending value.
    public init(json: String, source: String = "<input>") throws(KeyframeDescriptionError) {
        let tree: JSONValue
        do throws(JSONSyntaxError) {
            tree = try JSONParser.parse(json)
        } catch {
            throw KeyframeDescriptionError(path: "", reason: .malformedJSON(detail: error.detail), source: source)
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

    /// Decodes and validates a description (the JSON form of the type's discussion) with
    /// any `Decoder`; how strictly the text is read is then up to that decoder. Errors are
    /// `KeyframeDescriptionError` values whose path starts with the decoder's coding
    /// path, or the decoder's own errors.
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

    /// The description as JSON text that ``init(json:source:)`` reads back to an equal
    /// description: keys sorted, 2-space indentation, arrays of numbers or strings on one
    /// line, numbers in their shortest round-trip form (integral ones up to 2^53 without a
    /// fraction, e.g. `1`), no trailing newline.
    ///
    /// - Throws: `KeyframeDescriptionError` (`.invalidValue`, naming the JSON path) for a
    ///   NaN or infinite number, which JSON cannot hold. A description that passed
    ///   validation has none.
    public func jsonText() throws -> String {
        try jsonTree.prettyText()
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
