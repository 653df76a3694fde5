import ArgumentParser
import Kinetic
import KineticExport

import KineticPlatform

/// A buffered `TextOutputStream` over a file descriptor (standard output by default).
/// Write errors (e.g. a closed pipe) end the program with a one-line message.
struct DescriptorOutput: TextOutputStream {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        let fd = descriptor
        let failure = buffer.withUnsafeBytes { writeAll($0, toDescriptor: fd) }
        buffer.removeAll(keepingCapacity: true)
        if let failure {
            writeStandardError("kinetic: error: cannot write to standard output: \(String(cString: strerror(failure)))\n")
            terminate(1)
        }
    }
}

/// Writes `text` to standard error, unbuffered.
func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { writeAll($0, toDescriptor: 2) }
}

/// Writes `table` as CSV to `path` (see ``writeFile(_:_:)``), or to standard output when
/// `path` is nil or `-`.
func emit(_ table: CSVTable, to path: String?) throws {
    if let path, path != "-" {
        try writeCSV(table, to: path)
    } else {
        var output = DescriptorOutput()
        table.write(to: &output)
        output.flush()
    }
}

/// Ends the process with `code`, named so that it cannot be shadowed by `exit(withError:)`.
func terminate(_ code: Int32) -> Never {
    systemExit(code)
}

/// A failure the command itself detects (not ArgumentParser's, not the library's): its
/// text is the whole one-line message.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Checks a `--count` against the library's range, naming the value as given (an integer,
/// negative numbers included: `--count = -5 is outside [2, 10000000]`).
func checkCount(_ count: Int) throws {
    guard (2...maximumSampleCount).contains(count) else {
        throw ValidationError("--count = \(count) is outside [2, \(maximumSampleCount)]")
    }
}

/// The largest input file the tool reads: 2 GiB, twice the largest output it writes without
/// `--force` (so `plot csv` reads anything `sample` wrote), and a bound for an endless input
/// such as `/dev/zero`.
let maximumInputBytes = 2 << 30

/// The text of the input file at `path` (at most ``maximumInputBytes``); an empty (or
/// all-whitespace) file is an error naming it and what it should hold.
func readNonEmpty(_ path: String, expecting what: String) throws -> String {
    let text = try TextFile.read(atPath: path, maximumBytes: maximumInputBytes)
    guard text.contains(where: { !$0.isWhitespace }) else {
        throw CLIError("\(path): the file is empty; expected \(what)")
    }
    return text
}

/// Writes the file at `path` with ``AtomicFileWriter`` (atomically; a device or FIFO
/// directly; a symbolic link's target), with its temporary file registered for removal on
/// `SIGINT`/`SIGTERM` (``InterruptCleanup``). If `body` throws, nothing is left behind.
func writeFile(_ path: String, createDirectory: Bool = false, _ body: (AtomicFileWriter) throws -> Void) throws {
    try InterruptCleanup.write(to: path, createDirectory: createDirectory, body)
}

/// Writes `text` to `path` as ``writeFile(_:createDirectory:_:)`` does.
func writeText(_ text: String, to path: String, createDirectory: Bool = false) throws {
    try writeFile(path, createDirectory: createDirectory) { $0.write(text) }
}

/// Writes `table` as CSV to `path` as ``writeFile(_:createDirectory:_:)`` does.
func writeCSV(_ table: CSVTable, to path: String, createDirectory: Bool = false) throws {
    try writeFile(path, createDirectory: createDirectory) { writer in
        var stream = writer
        table.write(to: &stream)
    }
}

// MARK: - Output checks, before any work starts

/// A format a command can write to `-o/--output`, chosen by the file's extension.
enum OutputFormat: String {
    case csv, svg, json
}

/// Checks `-o/--output` before any work: `nil` or `-` (standard output), and an existing
/// device, FIFO or socket (written directly, in the command's format), are accepted; an
/// existing directory is refused; any other path must end in one of `accepted`'s
/// extensions (case-insensitive), so `out.png` or `out` is refused with a message listing
/// them.
func checkOutput(_ path: String?, accepts accepted: [OutputFormat], command: String) throws {
    guard let path, path != "-" else { return }
    var info = stat()
    if stat(path, &info) == 0 {
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { throw CLIError("output '\(path)' is a directory; give a file path") }
        if kind != S_IFREG { return }  // a device, FIFO or socket: written as is
    }
    // A trailing slash names a directory, which this path is not (or would be refused above).
    if path.hasSuffix("/") { throw CLIError("output '\(path)' ends in '/': give a file path, not a directory") }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
    let fileExtension = dot.map { String(name[name.index(after: $0)...]).lowercased() }
    if let fileExtension, accepted.contains(where: { $0.rawValue == fileExtension }) { return }
    let list = accepted.map { "." + $0.rawValue }.joined(separator: ", ")
    let found = fileExtension.map { "has extension .\($0)" } ?? "has no extension"
    throw CLIError("output '\(path)' \(found); kinetic \(command) writes \(list) (or - for standard output)")
}

/// The largest output written without `--force`: 1 GiB.
let maximumOutputBytes = Double(1 << 30)

/// Refuses an output estimated at more than ``maximumOutputBytes`` unless `force`.
/// `estimate` is an upper bound in bytes; `what` says how it was reckoned.
func checkOutputSize(_ estimate: Double, force: Bool, what: String) throws {
    guard !force, estimate > maximumOutputBytes else { return }
    let gib = (estimate / maximumOutputBytes * 10).rounded(.up) / 10
    let size = estimate < 1e18 ? "\(Int(estimate)) bytes" : "\(estimate) bytes"
    throw CLIError("the output would be up to \(gib) GiB (\(size): \(what)), over the 1 GiB limit; "
                   + "give --force to write it anyway")
}

/// Refuses work whose tables would hold more than the memory the process may use (the
/// machine's physical memory, or its control group's lower limit): `values`
/// doubles, counted twice (a table and the copy that the output is made from). Unlike the
/// 1 GiB output limit, `--force` does not lift it: past it the process would be killed.
func checkWorkingMemory(values: Double, what: String) throws {
    guard let memory = memoryLimitBytes else { return }
    let bytes = values * 16
    guard bytes > Double(memory) else { return }
    throw CLIError("the work would hold about \(gibibytes(bytes)) in memory (\(what)), more than the "
                   + "\(gibibytes(Double(memory))) this process may use; --force does not lift this limit")
}

/// An upper bound on a CSV table's size: the header, then `rows` lines of `columns`
/// numbers of at most 24 characters (`-2.2250738585072014e-308`) plus a separator.
func csvBytes(rows: Double, columns: [String]) -> Double {
    Double(columns.joined(separator: ",").utf8.count + 1) + rows * Double(columns.count) * 25
}

/// The reckoning of ``csvBytes(rows:columns:)`` in words, for the message.
func csvReckoning(rows: Double, columns: Int) -> String {
    let count = rows < 1e18 ? String(Int(rows)) : String(rows)
    return "\(count) rows × \(columns) columns × 25 bytes"
}

/// An upper bound on an SVG plot's size: a fixed 64 KiB for the frame, axes and legend,
/// plus per series of n points: a line path of at most 26 bytes per point, at most
/// 4 points per pixel column once decimated (`width` pixels); a step path of 26 bytes per
/// point; markers of 50 bytes per point.
func svgBytes(points: [Double], style: SVGPlot.Style, width: Double) -> Double {
    var total = 65_536.0
    for n in points {
        total += 512
        switch style {
        case .line: total += min(n, 4 * (width + 2)) * 26
        case .step: total += n * 26
        case .markers: total += n * 50
        case .lineAndMarkers: total += min(n, 4 * (width + 2)) * 26 + n * 50
        }
    }
    return total
}

/// The `-o/--output` help text for a command writing `format` files.
func outputHelp(_ format: String, _ fileExtension: String) -> String {
    "Write the \(format) to this file (atomically) instead of standard output; the name must end in "
        + "\(fileExtension). - is standard output; a device or FIFO is written directly; a symbolic link's target is replaced."
}

/// Refuses an empty directory argument (`demo --output-dir ""`, `export ""`), which would
/// otherwise put the files in `/`.
func checkDirectory(_ directory: String, option: String) throws {
    if directory.isEmpty { throw CLIError("\(option) = '' is empty: give a directory (. for the current one)") }
}
