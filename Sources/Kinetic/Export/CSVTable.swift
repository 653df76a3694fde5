/// A table of `Double` values with named columns, written and read as CSV.
///
/// The CSV form is a header line of column names followed by one line per row, fields
/// separated by `,`, every line ended by `\n` (including the last). Numbers are written in
/// Swift's shortest round-trip form (`Double.description`), which is independent of the
/// process locale and reads back **bit for bit**, including `-0.0`, subnormals such as
/// `5e-324` and `1.7976931348623157e308`.
///
/// Non-finite values are written as `inf`, `-inf` and `nan` — the spellings Python's
/// `float()`, NumPy and pandas read. Every NaN is written as `nan`: its sign and payload are
/// not preserved (it reads back as the default quiet NaN).
///
/// Storage is one contiguous row-major array, so a table of millions of rows is one
/// allocation, not one per row.
public struct CSVTable: Sendable, Hashable {
    /// The column names, in order.
    public let columns: [String]
    /// All values, row-major: row `r`, column `c` is `values[r * columns.count + c]`.
    public private(set) var values: [Double]

    /// Creates an empty table with the given column names.
    ///
    /// - Throws: ``ExportError/invalidColumnName(_:)`` when a name is empty or contains a
    ///   comma, a double quote, `\r` or `\n` (the header is written unquoted), and
    ///   ``ParameterError/outOfRange(parameter:value:expected:)`` for zero columns.
    public init(columns: [String]) throws {
        guard !columns.isEmpty else {
            throw ParameterError.outOfRange(parameter: "columns.count", value: 0, expected: "[1, ∞)")
        }
        for name in columns where !Self.isValidColumnName(name) {
            throw ExportError.invalidColumnName(name)
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
        !name.isEmpty && !name.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }
}

// MARK: - Writing

extension CSVTable {
    /// The CSV spelling of one number: `Double.description` (shortest round-trip form,
    /// locale-independent), except that every NaN is written `nan`.
    ///
    /// Examples: `0.1` → `"0.1"`, `-0.0` → `"-0.0"`, `1e16` → `"1e+16"`, `5e-324` →
    /// `"5e-324"`, `.infinity` → `"inf"`, `-.infinity` → `"-inf"`.
    public static func format(_ value: Double) -> String {
        value.isNaN ? "nan" : value.description
    }

    /// Writes the table as CSV (header, then rows; `\n` after every line) to `target`.
    public func write<Target: TextOutputStream>(to target: inout Target) {
        target.write(columns.joined(separator: ","))
        target.write("\n")
        let width = columns.count
        var line = ""
        line.reserveCapacity(32 * width)
        var index = 0
        while index < values.count {
            line.removeAll(keepingCapacity: true)
            for c in 0..<width {
                if c > 0 { line.append(",") }
                line.append(Self.format(values[index + c]))
            }
            line.append("\n")
            target.write(line)
            index += width
        }
    }

    /// The whole table as CSV text.
    public var csvText: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// Writes the table as CSV to the file at `path`, atomically (see ``AtomicFileWriter``):
    /// a reader sees either the old file or the complete new one, and an existing file is
    /// kept unchanged if the write fails.
    ///
    /// - Parameters:
    ///   - path: the destination file; relative paths are relative to the working directory.
    ///   - createDirectory: create the destination's directory (and its parents) if missing.
    /// - Throws: ``ExportError`` naming the path and the operating system's error.
    public func write(toFile path: String, createDirectory: Bool = false) throws(ExportError) {
        let writer = try AtomicFileWriter(path: path, createDirectory: createDirectory)
        var stream = writer
        write(to: &stream)
        try writer.commit()
    }
}

// MARK: - Reading

extension CSVTable {
    /// Parses CSV text written by ``write(to:)`` (or any CSV with a header line and numeric
    /// fields).
    ///
    /// Lines may end in `\n` or `\r\n`; blank lines are ignored; spaces and tabs around a
    /// field are ignored. Fields are read with Swift's `Double(_:)` (correctly rounded, so
    /// text written by ``format(_:)`` reads back bit for bit); `nan`, `inf` and `-inf` are
    /// accepted.
    ///
    /// - Parameter source: the name used in error messages, e.g. the file name.
    /// - Throws: ``InputError`` naming the line, or ``ExportError/invalidColumnName(_:)``.
    public init(parsing text: String, source: String = "<input>") throws {
        var header: [String]?
        var values: [Double] = []
        var lineNumber = 0
        for rawLine in lines(of: text) {
            lineNumber += 1
            let line = trimmed(rawLine)
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
            guard let columns = header else {
                header = fields.map(String.init)
                continue
            }
            guard fields.count == columns.count else {
                throw InputError.fieldCount(line: lineNumber, expected: columns.count, actual: fields.count, source: source)
            }
            for field in fields {
                if field.isEmpty { throw InputError.emptyField(line: lineNumber, source: source) }
                guard let value = Double(field) else {
                    throw InputError.malformedNumber(text: String(field), line: lineNumber, source: source)
                }
                values.append(value)
            }
        }
        guard let columns = header else { throw InputError.missingHeader(source: source) }
        try self.init(columns: columns, values: values)
    }
}

/// The lines of `text`, split at `\n` and `\r\n` (a single `Character` in Swift).
func lines(of text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
}

/// `text` without leading and trailing spaces, tabs and carriage returns.
func trimmed(_ text: Substring) -> Substring {
    var text = text
    while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
    return text
}

/// Parsing of plain lists of numbers, such as a file of x values to sample at.
public enum NumberList {
    /// Parses numbers given one per line and/or separated by commas.
    ///
    /// Blank lines are ignored; spaces, tabs and `\r` around a number are ignored. A
    /// non-blank line with an empty field (`1,,2` or a trailing comma) is an error, as is
    /// anything `Double(_:)` does not read.
    ///
    /// - Parameters:
    ///   - text: the input.
    ///   - source: the name used in error messages, e.g. the file name.
    ///   - allowNonFinite: accept `nan`, `inf` and `-inf`; when `false` (the default) they
    ///     are rejected with ``InputError/notFinite(text:line:source:)``.
    /// - Returns: the numbers in order.
    /// - Throws: ``InputError`` naming the 1-based line number.
    public static func parse(_ text: String, source: String = "<input>", allowNonFinite: Bool = false) throws(InputError) -> [Double] {
        var result: [Double] = []
        var lineNumber = 0
        for rawLine in lines(of: text) {
            lineNumber += 1
            let line = trimmed(rawLine)
            if line.isEmpty { continue }
            for rawField in line.split(separator: ",", omittingEmptySubsequences: false) {
                let field = trimmed(rawField)
                if field.isEmpty { throw .emptyField(line: lineNumber, source: source) }
                guard let value = Double(field) else {
                    throw .malformedNumber(text: String(field), line: lineNumber, source: source)
                }
                if !allowNonFinite && !value.isFinite {
                    throw .notFinite(text: String(field), line: lineNumber, source: source)
                }
                result.append(value)
            }
        }
        return result
    }
}
