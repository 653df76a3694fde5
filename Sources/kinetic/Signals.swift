import KineticPlatform
import KineticExport

/// Removal of the atomic write's temporary file when the tool is interrupted. Every file
/// the tool writes (`-o` of `sample`, `plot` and `bake`; the files of `demo` and `export`)
/// goes through ``write(to:createDirectory:_:)``.
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

    /// Makes an ``AtomicFileWriter`` for `destination`, runs `body` with its temporary file
    /// registered for removal on `SIGINT`/`SIGTERM`, and commits (or, if `body` throws,
    /// discards). On Linux both signals are blocked from before the temporary file is
    /// created until it is registered, so no interruption can slip in between; one that
    /// arrives meanwhile is delivered right after, and removes the file.
    ///
    /// A destination written in place (a device, FIFO or socket: no temporary file) is opened
    /// with the signals not blocked: opening a FIFO waits for a reader, and Ctrl-C must still
    /// end that wait.
    static func write(to destination: String, createDirectory: Bool = false,
                      _ body: (AtomicFileWriter) throws -> Void) throws {
        #if os(Linux)
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        if !AtomicFileWriter.writesInPlace(destination) {
            sigaddset(&blocked, SIGINT)
            sigaddset(&blocked, SIGTERM)
        }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        #endif
        let writer: AtomicFileWriter
        do {
            writer = try AtomicFileWriter(path: destination, createDirectory: createDirectory)
            register(writer.temporaryPath)
        } catch {
            #if os(Linux)
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            #endif
            throw error
        }
        #if os(Linux)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        #endif
        defer { if let flag { setFlag(flag, 0) } }
        try writer.commit(after: body)
    }

    /// Records `temporaryPath` (empty: nothing to remove) for the handler.
    private static func register(_ temporaryPath: String) {
        guard let path, let flag else { return }
        setFlag(flag, 0)
        let bytes = Array(temporaryPath.utf8)
        guard !bytes.isEmpty, bytes.count < capacity else { return }
        for (i, byte) in bytes.enumerated() { path[i] = CChar(bitPattern: byte) }
        path[bytes.count] = 0
        setFlag(flag, 1)
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
