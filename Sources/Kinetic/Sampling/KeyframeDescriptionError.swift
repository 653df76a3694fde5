/// The error thrown for a keyframe description (JSON) that cannot be read or is invalid.
///
/// It names the place in the document as a JSON path — `properties[1].keyTimes[3]`, with
/// the empty path for the document itself — and, where there is one, the offending value,
/// so the message reads like
/// `keys.json: properties[0].keyTimes[2]: 0.25 is invalid (expected ≥ keyTimes[1] = 0.5)`.
public struct KeyframeDescriptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong at ``path``.
    public enum Reason: Hashable, Sendable {
        /// The text is not JSON (strict RFC 8259); `detail` is the parser's explanation.
        /// The JSON reader of KineticExport starts it with the 1-based line and column and
        /// says what was expected and found, e.g.
        /// `line 4, column 3: trailing comma before ']' (JSON allows none)`; the path is
        /// then empty.
        case malformedJSON(detail: String)
        /// A required field is absent (or `null`).
        case missingField
        /// A field this format does not define (often a misspelling).
        case unknownField
        /// The JSON value has the wrong type: `expected` says what the format wants (e.g.
        /// "a finite number"), `found` what was there (e.g. `the string "NaN"`).
        case wrongType(expected: String, found: String)
        /// The value has the right type but is not allowed: `value` is its JSON text,
        /// `expected` the rule it breaks (e.g. "(0, ∞)" or "≥ keyTimes[1] = 0.5").
        case invalidValue(value: String, expected: String)
        /// An array has `actual` elements where `expected` are needed.
        case countMismatch(expected: Int, actual: Int)
    }

    /// The JSON path of the offending value, e.g. `properties[1].keyTimes[3]`; empty for
    /// the whole document.
    public var path: String
    /// What is wrong.
    public var reason: Reason
    /// The file name (or `"<input>"`) used at the start of the message.
    public var source: String

    /// Creates an error at `path`.
    public init(path: String, reason: Reason, source: String = "<input>") {
        self.path = path
        self.reason = reason
        self.source = source
    }

    public var description: String {
        let place = path.isEmpty ? "\(source)" : "\(source): \(path)"
        switch reason {
        case .malformedJSON(let detail):
            return "\(place): not valid JSON: \(detail)"
        case .missingField:
            return "\(place): required field is missing"
        case .unknownField:
            return "\(place): unknown field"
        case .wrongType(let expected, let found):
            return "\(place): expected \(expected), found \(found)"
        case .invalidValue(let value, let expected):
            return "\(place): \(value) is invalid (expected \(expected))"
        case .countMismatch(let expected, let actual):
            return "\(place): has \(actual) elements, expected \(expected)"
        }
    }
}
