import Kinetic

/// A table of `Double` values with named columns, written and read as CSV: Kinetic's
/// `SampleTable` under the name the export layer has always used.
///
/// The CSV form is a header line of column names followed by one line per row, fields
/// separated by `,`, every line ended by `\n` (including the last). Numbers are written in
/// Swift's shortest round-trip form (`Double.description`), which is independent of the
/// process locale and reads back **bit for bit**, including `-0.0`, subnormals such as
/// `5e-324` and `1.7976931348623157e308`.
///
/// Non-finite values are written as `inf`, `-inf` and `nan`, the spellings Python's
/// `float()`, NumPy and pandas read. Every NaN is written as `nan`: its sign and payload are
/// not preserved (it reads back as the default quiet NaN).
public typealias CSVTable = SampleTable

// MARK: - Writing

extension SampleTable {
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

extension SampleTable {
    /// Parses CSV text written by ``write(to:)`` (or any CSV with a header line and numeric
    /// fields).
    ///
    /// Lines may end in `\n` or `\r\n`; blank lines are ignored; spaces and tabs around a
    /// field are ignored. Fields are read with Swift's `Double(_:)` (correctly rounded, so
    /// text written by ``format(_:)`` reads back bit for bit); `nan`, `inf` and `-inf` are
    /// accepted.
    ///
    /// - Parameters:
    ///   - text: the CSV text.
    ///   - source: the name used in error messages, e.g. the file name.
    /// - Throws: ``InputError`` naming the line, or `SamplingError.invalidColumnName(_:)`.
    public init(parsing text: String, source: String = "<input>") throws {
        var header: [String]?
        var values: [Double] = []
        var lineNumber = 0
        for rawLine in lines(of: text) {
            lineNumber += 1
            let line = trimmed(rawLine)
            if line.isEmpty { continue }
            let fields = csvFields(of: line).map(trimmed)
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

// The readers below split and trim on Unicode scalars, not on `Character`s: a separator
// followed by a combining mark (`,\u{0306}`, `\t\u{0301}`) is one `Character` in Swift, so
// splitting on `Character` would miss the separator that every other CSV reader sees.

/// The lines of `text`, split at `\n`; a `\r` before it (a `\r\n` ending) is left for
/// ``trimmed(_:)``.
func lines(of text: String) -> [Substring] {
    text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Substring.init)
}

/// The comma-separated fields of `line`, untrimmed (empty fields kept).
func csvFields(of line: Substring) -> [Substring] {
    line.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false).map(Substring.init)
}

/// `text` without leading and trailing spaces, tabs and carriage returns.
func trimmed(_ text: Substring) -> Substring {
    var scalars = text.unicodeScalars
    while let first = scalars.first, isBlank(first) { scalars.removeFirst() }
    while let last = scalars.last, isBlank(last) { scalars.removeLast() }
    return Substring(scalars)
}

private func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" }

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
            for rawField in csvFields(of: line) {
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
