/// The error every Kinetic constructor and checked entry point throws for bad input.
///
/// Each case names the offending parameter and carries the value that was given, so the
/// message reads like `x1 = 1.5 is outside [0, 1]`.
public enum ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A parameter that must be finite was NaN or infinite.
    case notFinite(parameter: String, value: Double)
    /// A finite parameter lies outside the range it must be in; `expected` says the range
    /// in interval notation, e.g. `"[0, 1]"` or `"> 0"`.
    case outOfRange(parameter: String, value: Double, expected: String)
    /// Two buffers (or arrays) that must have the same length do not.
    case countMismatch(parameter: String, expected: Int, actual: Int)

    /// The parameter the error is about.
    public var parameter: String {
        switch self {
        case .notFinite(let name, _), .outOfRange(let name, _, _), .countMismatch(let name, _, _):
            return name
        }
    }

    public var description: String {
        switch self {
        case .notFinite(let name, let value):
            return "\(name) = \(value) is not a finite number"
        case .outOfRange(let name, let value, let expected):
            return "\(name) = \(value) is outside \(expected)"
        case .countMismatch(let name, let expected, let actual):
            return "\(name) has \(actual) elements, expected \(expected)"
        }
    }
}

extension ParameterError {
    /// Throws ``notFinite(parameter:value:)`` naming `name` unless `value` is finite.
    public static func requireFinite(_ value: Double, _ name: String) throws(ParameterError) {
        guard value.isFinite else { throw .notFinite(parameter: name, value: value) }
    }

    /// Throws ``notFinite(parameter:value:)`` naming the first non-finite element as
    /// `name[i]`. The name is only built then, so the check allocates nothing on valid input
    /// (it runs on per-frame paths).
    static func requireAllFinite<C: Collection>(_ values: C, _ name: String) throws(ParameterError)
    where C.Element == Double {
        for (i, v) in values.enumerated() where !v.isFinite { throw .notFinite(parameter: "\(name)[\(i)]", value: v) }
    }

    /// Throws unless `value` is finite and `value > 0`.
    public static func requirePositive(_ value: Double, _ name: String) throws(ParameterError) {
        try requireFinite(value, name)
        guard value > 0 else { throw .outOfRange(parameter: name, value: value, expected: "(0, ∞)") }
    }

    /// Throws unless `value` is finite and `value >= 0`.
    public static func requireNonNegative(_ value: Double, _ name: String) throws(ParameterError) {
        try requireFinite(value, name)
        guard value >= 0 else { throw .outOfRange(parameter: name, value: value, expected: "[0, ∞)") }
    }
}
