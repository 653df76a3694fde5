import Kinetic

// Writing a JSONValue tree as pretty-printed JSON text (the form of
// KeyframeDescription.jsonText()), without Foundation.

extension JSONValue {
    /// The value as pretty-printed JSON text that ``JSONParser`` reads back to an equal
    /// tree: object keys sorted, one member per line, 2-space indentation, `"key": value`;
    /// an array of numbers, strings, booleans and nulls on one line (`[0, 0.5, 1]`), any
    /// other array one element per line; `[]` and `{}` when empty. No trailing newline.
    ///
    /// Numbers: an integral value of magnitude at most 2^53 is written as an integer
    /// (`2`, `-0`), any other in Swift's shortest round-trip form (`0.1`, `1e-05`,
    /// `1.5e+300`), so every finite `Double` reads back bit for bit.
    ///
    /// - Parameter path: the JSON path of this value, for errors (empty for the document).
    /// - Throws: ``KeyframeDescriptionError`` (`.invalidValue`) naming the path of a NaN or
    ///   infinite number, which JSON cannot represent.
    package func prettyText(path: String = "") throws(KeyframeDescriptionError) -> String {
        var text = ""
        try write(to: &text, indent: 0, path: path)
        return text
    }

    private func write(to text: inout String, indent: Int, path: String) throws(KeyframeDescriptionError) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value):
            guard let number = JSONValue.numberText(value) else {
                throw KeyframeDescriptionError(
                    path: path, reason: .invalidValue(value: value.description, expected: "a finite number (JSON has no NaN or infinity)"))
            }
            text += number
        case .string(let value): text += jsonQuoted(value)
        case .array(let items):
            if items.isEmpty {
                text += "[]"
            } else if items.allSatisfy(\.isScalar) {
                text += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { text += ", " }
                    try item.write(to: &text, indent: indent, path: "\(path)[\(i)]")
                }
                text += "]"
            } else {
                let inner = String(repeating: " ", count: 2 * (indent + 1))
                text += "[\n"
                for (i, item) in items.enumerated() {
                    text += inner
                    try item.write(to: &text, indent: indent + 1, path: "\(path)[\(i)]")
                    text += i == items.count - 1 ? "\n" : ",\n"
                }
                text += String(repeating: " ", count: 2 * indent) + "]"
            }
        case .object(let members):
            if members.isEmpty {
                text += "{}"
                return
            }
            let inner = String(repeating: " ", count: 2 * (indent + 1))
            text += "{\n"
            let keys = members.keys.sorted()
            for (i, key) in keys.enumerated() {
                text += inner + jsonQuoted(key) + ": "
                try members[key, default: .null].write(to: &text, indent: indent + 1, path: path.isEmpty ? key : "\(path).\(key)")
                text += i == keys.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: " ", count: 2 * indent) + "}"
        }
    }

    /// Whether the value is a number, string, boolean or null (not an array or object).
    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// A finite number as JSON text: an integer when it is integral with magnitude ≤ 2^53
    /// (`-0` for negative zero), otherwise `Double.description`; `nil` for NaN and ±∞.
    package static func numberText(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(.towardZero) && value.magnitude <= 0x1p53 {
            if value == 0 { return value.sign == .minus ? "-0" : "0" }
            return String(Int64(value))
        }
        return value.description
    }
}
