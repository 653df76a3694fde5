/// A table of `Double` values with named columns: what the sampling functions return.
///
/// The table is plain numbers; it has no file format. `KineticExport` writes and reads it
/// as CSV (there it is also spelled `CSVTable`), so a column name must be non-empty,
/// contain no comma, double quote or line break, and not start or end with a space or tab.
///
/// Storage is one contiguous row-major array, so a table of millions of rows is one
/// allocation, not one per row.
public struct SampleTable: Sendable, Hashable {
    /// The column names, in order.
    public let columns: [String]
    /// All values, row-major: row `r`, column `c` is `values[r * columns.count + c]`.
    public private(set) var values: [Double]

    /// Creates an empty table with the given column names.
    ///
    /// - Throws: ``SamplingError/invalidColumnName(_:)`` when a name is empty, contains a
    ///   comma, a double quote, `\r` or `\n` (the header is written unquoted), or starts or
    ///   ends with a space or tab (a reader trims those, so the name would not read back); and
    ///   ``ParameterError/outOfRange(parameter:value:expected:)`` for zero columns.
    public init(columns: [String]) throws {
        guard !columns.isEmpty else {
            throw ParameterError.outOfRange(parameter: "columns.count", value: 0, expected: "[1, ∞)")
        }
        for name in columns where !Self.isValidColumnName(name) {
            throw SamplingError.invalidColumnName(name)
        }
        self.columns = columns
        self.values = []
    }

    /// Creates a table from column names and rows.
    ///
    /// - Throws: as ``init(columns:)``, and ``ParameterError/countMismatch(parameter:expected:actual:)``
    ///   when a row's length differs from the number of columns.
    public init(columns: [String], rows: [[Double]]) throws {
        try self.init(columns: columns)
        values.reserveCapacity(rows.count * columns.count)
        for row in rows { try append(row: row) }
    }

    /// Creates a table from column names and row-major values.
    ///
    /// - Throws: as ``init(columns:)``, and ``ParameterError/countMismatch(parameter:expected:actual:)``
    ///   when `values.count` is not a multiple of the number of columns.
    public init(columns: [String], values: [Double]) throws {
        try self.init(columns: columns)
        guard values.count % columns.count == 0 else {
            let expected = (values.count / columns.count + 1) * columns.count
            throw ParameterError.countMismatch(parameter: "values", expected: expected, actual: values.count)
        }
        self.values = values
    }

    /// The number of rows (not counting the header).
    public var rowCount: Int { values.count / columns.count }

    /// The value in row `row`, column `column` (both 0-based).
    public subscript(row: Int, column: Int) -> Double {
        precondition(column >= 0 && column < columns.count, "column index out of range")
        return values[row * columns.count + column]
    }

    /// Row `index` (0-based).
    public func row(_ index: Int) -> ArraySlice<Double> {
        let start = index * columns.count
        return values[start..<(start + columns.count)]
    }

    /// Every row, as arrays.
    public var rows: [[Double]] {
        (0..<rowCount).map { Array(row($0)) }
    }

    /// The values of the column called `name`, top to bottom, or `nil` if there is none.
    public func column(named name: String) -> [Double]? {
        guard let c = columns.firstIndex(of: name) else { return nil }
        return stride(from: c, to: values.count, by: columns.count).map { values[$0] }
    }

    /// Appends a row.
    /// - Throws: ``ParameterError/countMismatch(parameter:expected:actual:)`` when
    ///   `row.count` differs from the number of columns; the table is unchanged then.
    public mutating func append(row: [Double]) throws(ParameterError) {
        guard row.count == columns.count else {
            throw .countMismatch(parameter: "row", expected: columns.count, actual: row.count)
        }
        values.append(contentsOf: row)
    }

    /// Appends a two-column row without checking the width (internal fast path).
    mutating func appendUnchecked(_ a: Double, _ b: Double) {
        assert(columns.count == 2)
        values.append(a)
        values.append(b)
    }

    /// Appends a three-column row without checking the width (internal fast path).
    mutating func appendUnchecked(_ a: Double, _ b: Double, _ c: Double) {
        assert(columns.count == 3)
        values.append(a)
        values.append(b)
        values.append(c)
    }

    /// Reserves storage for `rowCount` rows in total.
    public mutating func reserveCapacity(rows rowCount: Int) {
        values.reserveCapacity(rowCount * columns.count)
    }

    static func isValidColumnName(_ name: String) -> Bool {
        // Checked on Unicode scalars: ",\u{0306}" is one Character but still a comma to a reader.
        let scalars = name.unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
              !isBlank(first), !isBlank(last) else { return false }
        return !scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
}
