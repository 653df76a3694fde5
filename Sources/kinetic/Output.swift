import Kinetic
import KineticExport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// Writes `table` as CSV to `path` atomically, or to standard output when `path` is nil.
func emit(_ table: CSVTable, to path: String?) throws {
    if let path {
        try table.write(toFile: path)
    } else {
        var output = DescriptorOutput()
        table.write(to: &output)
        output.flush()
    }
}

/// Ends the process with `code`, named so that it cannot be shadowed by `exit(withError:)`.
func terminate(_ code: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(code)
    #else
    Darwin.exit(code)
    #endif
}
