import KineticPlatform
import Kinetic

/// The error Kinetic's export layer throws for file-system failures.
///
/// File-system cases name the operation, the path and the operating system's error code,
/// so the message reads like
/// `cannot create a temporary file next to 'out/ease.csv': Permission denied (errno 13)`.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the export layer was doing when the operating system refused.
    public enum Operation: String, Sendable, Hashable {
        /// Creating the destination directory (or one of its parents).
        case createDirectory = "create directory"
        /// Creating the temporary file, in the destination's directory, for an atomic write.
        case createTemporaryFile = "create a temporary file next to"
        /// Writing bytes to the temporary file of an atomic write.
        case write = "write"
        /// Flushing the temporary file to stable storage (`fsync`).
        case sync = "sync"
        /// Renaming the finished temporary file over the destination (or, before anything is
        /// written, finding that the destination is a file this process may not write).
        case replace = "replace"
        /// Opening a file for reading.
        case open = "open"
        /// Reading a file.
        case read = "read"
    }

    /// The operating system refused `operation` on `path`; `code` is the `errno` value.
    case io(operation: Operation, path: String, code: Int32)
    /// The file at `path` is longer than the `limit` (bytes) its reader accepts (see
    /// ``TextFile/read(atPath:maximumBytes:)``).
    case tooLarge(path: String, limit: Int)

    /// The path the error is about.
    public var path: String? {
        switch self {
        case .io(_, let path, _), .tooLarge(let path, _): return path
        }
    }

    public var description: String {
        switch self {
        case .io(let operation, let path, let code):
            return "cannot \(operation.rawValue) '\(path)': \(Self.systemMessage(code)) (errno \(code))"
        case .tooLarge(let path, let limit):
            return "cannot read '\(path)': it is larger than \(limit) bytes, the most this reader accepts"
        }
    }

    /// The operating system's text for an `errno` value.
    static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// The error Kinetic throws for text it cannot read as numbers (number lists, CSV tables,
/// curve specifications).
///
/// Cases carry the source (a file name, or `"<input>"`) and the 1-based line number, so the
/// message reads like `xs.txt:3: 'abc' is not a number`.
public enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A field is not a decimal number (or, where allowed, `nan`/`inf`).
    case malformedNumber(text: String, line: Int, source: String)
    /// A field is `nan` or infinite where only finite numbers are accepted.
    case notFinite(text: String, line: Int, source: String)
    /// A non-blank line has an empty field (e.g. `1,,2`).
    case emptyField(line: Int, source: String)
    /// A CSV row has `actual` fields where the header has `expected`.
    case fieldCount(line: Int, expected: Int, actual: Int, source: String)
    /// A CSV text has no header line.
    case missingHeader(source: String)
    /// A curve specification is neither a preset name nor four comma-separated numbers.
    case unknownCurve(String)

    public var description: String {
        switch self {
        case .malformedNumber(let text, let line, let source):
            return "\(source):\(line): '\(text)' is not a number"
        case .notFinite(let text, let line, let source):
            return "\(source):\(line): '\(text)' is not a finite number"
        case .emptyField(let line, let source):
            return "\(source):\(line): empty field"
        case .fieldCount(let line, let expected, let actual, let source):
            return "\(source):\(line): \(actual) fields, expected \(expected)"
        case .missingHeader(let source):
            return "\(source): no header line"
        case .unknownCurve(let text):
            let names = CubicBezier.presets.map(\.name).joined(separator: ", ")
            return "'\(text)' is not a curve: give x1,y1,x2,y2 or one of \(names)"
        }
    }
}
