/// The error the sampling functions throw for a table that cannot be made: one too large,
/// a spring with no end, or a column name a table cannot carry.
public enum SamplingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Sampling would produce `rows` rows (possibly `.infinity`), more than `limit`
    /// (``maximumSampleCount``).
    case tooManyRows(rows: Double, limit: Int)
    /// A spring was to be sampled until it settles, but it never settles (an undamped
    /// spring), so it has no end time. `spring` is the spring's description.
    case neverSettles(spring: String)
    /// A table column name is empty, contains a comma, a double quote or a line break, or
    /// starts or ends with a space or tab.
    case invalidColumnName(String)

    public var description: String {
        switch self {
        case .tooManyRows(let rows, let limit):
            let count = rows.magnitude < 1e18 ? String(Int(rows)) : rows.isFinite ? String(rows) : rows.isNaN ? "an unknown number of" : "unboundedly many"
            return "the export would have \(count) rows, more than the limit of \(limit); lower the count or rate"
        case .neverSettles(let spring):
            return "\(spring) never settles (it has no damping), so it has no end time to sample to"
        case .invalidColumnName(let name):
            return "column name '\(name)' must be non-empty, contain no comma, quote or line break, and not start or end with a space or tab"
        }
    }
}
