#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KineticExport

/// Removal of the atomic write's temporary file when the tool is interrupted.
///
/// `SIGINT` and `SIGTERM` run a handler that unlinks the temporary file of the write in
/// progress (if any), restores the default action and raises the signal again, so the
/// process still ends "killed by signal" and the destination is left as it was. The handler
/// uses only async-signal-safe calls (`unlink`, `signal`, `raise`) and reads a buffer
/// allocated before the handlers are installed. The library installs no handlers (see
/// ``AtomicFileWriter``). After `SIGKILL` the temporary file (`.<name>.tmp-XXXXXX` next to
/// the destination) stays behind: nothing can run then; the destination is unchanged.
enum InterruptCleanup {
    /// The NUL-terminated path of the pending temporary file, valid while `flag[0] == 1`.
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var flag: UnsafeMutablePointer<sig_atomic_t>?
    private static let capacity = 4096

    /// Allocates the buffer and installs the handlers; call once, first thing.
    static func install() {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        let state = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        state.initialize(to: 0)
        path = buffer
        flag = state
        _ = signal(SIGINT, handle)
        _ = signal(SIGTERM, handle)
    }

    /// Runs `body` with `temporaryPath` registered for removal on `SIGINT`/`SIGTERM`.
    static func whilePending<T>(_ temporaryPath: String, _ body: () throws -> T) rethrows -> T {
        guard let path, let flag, !temporaryPath.isEmpty else { return try body() }
        let bytes = Array(temporaryPath.utf8)
        guard bytes.count < capacity else { return try body() }
        setFlag(flag, 0)
        for (i, byte) in bytes.enumerated() { path[i] = CChar(bitPattern: byte) }
        path[bytes.count] = 0
        setFlag(flag, 1)
        defer { setFlag(flag, 0) }
        return try body()
    }

    /// A store the optimiser cannot move across the buffer writes (an opaque call).
    @inline(never)
    private static func setFlag(_ flag: UnsafeMutablePointer<sig_atomic_t>, _ value: sig_atomic_t) {
        flag.pointee = value
    }

    /// The signal handler: async-signal-safe calls only.
    private static let handle: @convention(c) (Int32) -> Void = { signalNumber in
        if let flag = InterruptCleanup.flag, flag.pointee == 1, let path = InterruptCleanup.path {
            _ = unlink(path)
        }
        _ = signal(signalNumber, SIG_DFL)
        _ = raise(signalNumber)
    }
}
