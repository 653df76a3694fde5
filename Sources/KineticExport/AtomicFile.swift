import KineticPlatform
import Kinetic

/// Writes a file atomically: the bytes go to a temporary file in the destination's own
/// directory, which is flushed to disk (`fsync`) and then renamed over the destination
/// (POSIX `rename`, atomic within one file system).
///
/// A reader therefore sees either the old file or the complete new one, never a partial
/// file; if anything fails before the rename, the destination is untouched and the
/// temporary file is removed. After the rename the directory is synced too (best effort).
///
/// A new file gets mode `0644`; an existing destination keeps its permission bits.
/// The temporary file is named `.<name>.tmp-XXXXXX` in the same directory.
///
/// ## Destinations that are not regular files
/// The destination is looked at (without creating anything) when the writer is made, and
/// handled as `cp`, `sort -o` and shell redirection handle it:
/// - **A symbolic link** (or a chain of them) is followed: the file it points to is
///   replaced atomically (temporary file in *that* file's directory) and the link itself
///   is kept. A dangling link's target is created, as `echo > link` does; its directory
///   must exist (or be created with `createDirectory`).
/// - **A character or block device, a FIFO or a socket** (e.g. `/dev/null`, `/dev/full`,
///   `/dev/stdout`, a named pipe) is opened and written directly: no temporary file, no
///   rename, no `fsync`, and the node itself is never replaced. Opening a FIFO waits for a
///   reader. Writing is then not atomic, and ``discard()`` cannot take back bytes already
///   written; a write error such as `ENOSPC` from `/dev/full` is thrown by ``commit()``
///   as usual. ``temporaryPath`` is empty and ``writesDirectly`` is `true`.
/// - **A directory** is refused with `EISDIR` (as is a path ending in `/`).
/// - **A regular file this process may not write** (by its effective user and groups, for
///   example a read-only `out.csv`) is refused with `EACCES`, as `cp` and `>` refuse it,
///   although the rename would only need the directory's permission. (A process with the
///   privilege to override file permissions, such as root, replaces it, as `cp` does.)
///
/// ## Interruption
/// The library installs no signal handlers. A process killed between creating the
/// temporary file and the rename leaves the destination as it was, but the temporary file
/// stays behind (`.<name>.tmp-XXXXXX`; a later write never reuses it). A program that wants
/// it removed on `SIGINT`/`SIGTERM` can unlink ``temporaryPath`` from its own handler, as
/// the `kinetic` tool does; nothing can remove it after `SIGKILL`.
///
/// Use it as a `TextOutputStream` (or call ``write(bytes:)``), then ``commit()``. Write
/// errors are remembered and thrown by ``commit()``; after the first error further writes
/// are ignored. A writer that is neither committed nor discarded removes its temporary
/// file when it is deallocated.
///
/// ```swift
/// let writer = try AtomicFileWriter(path: "out/curve.csv", createDirectory: true)
/// var stream = writer
/// print("x,value", to: &stream)
/// try writer.commit()
/// ```
///
/// Not thread-safe: use one writer from one thread at a time.
public final class AtomicFileWriter: TextOutputStream {
    /// The destination path.
    public let path: String
    /// The temporary file's path (in the directory of the file that is replaced: the
    /// destination's, or a symbolic link's target's); empty when ``writesDirectly``.
    public let temporaryPath: String
    /// Whether the destination is a device, FIFO or socket written in place (no temporary
    /// file, not atomic).
    public let writesDirectly: Bool
    /// The regular file that ``commit()`` replaces: the destination, or the file a symbolic
    /// link at the destination points to.
    private let target: String

    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: ExportError?
    private var finished = false
    private static let bufferSize = 1 << 16

    /// Creates the temporary file next to `path` (or next to the file a symbolic link at
    /// `path` points to), or opens `path` directly when it is a device, FIFO or socket.
    ///
    /// - Parameters:
    ///   - path: the destination file.
    ///   - createDirectory: create the destination's directory and its missing parents
    ///     (mode `0755`) first.
    /// - Throws: ``ExportError`` when the destination is a directory (`EISDIR`) or a regular
    ///   file this process may not write (``ExportError/Operation/replace``), a chain of
    ///   symbolic links is too long (`ELOOP`), the directory cannot be created, or the
    ///   temporary file cannot be made (e.g. the directory does not exist or is not
    ///   writable); ``ExportError/Operation/open`` when a device or FIFO cannot be opened.
    public init(path: String, createDirectory: Bool = false) throws(ExportError) {
        self.path = path
        guard !splitPath(path).name.isEmpty else { throw .io(operation: .open, path: path, code: EISDIR) }
        let target = try resolveSymbolicLinks(path)
        self.target = target
        var info = stat()
        let exists = stat(target, &info) == 0
        let kind = info.st_mode & S_IFMT
        if exists && kind == S_IFDIR { throw .io(operation: .open, path: path, code: EISDIR) }
        // A regular file the caller may not write is not replaced either (the rename would
        // only need the directory's permission), as `cp` and shell redirection refuse it.
        if exists && kind == S_IFREG && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0 {
            throw .io(operation: .replace, path: path, code: errno)
        }
        if exists && Self.isWrittenInPlace(kind: kind) {
            // A device, FIFO or socket: write in place, never replace the node.
            var fd: Int32
            repeat { fd = open(target, O_WRONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
            guard fd >= 0 else { throw .io(operation: .open, path: path, code: errno) }
            descriptor = fd
            temporaryPath = ""
            writesDirectly = true
            buffer.reserveCapacity(Self.bufferSize)
            return
        }
        writesDirectly = false
        let (directory, name) = splitPath(target)
        if createDirectory { try makeDirectories(directory) }
        var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .io(operation: .createTemporaryFile, path: path, code: errno) }
        descriptor = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkstemp creates 0600; give the file the destination's bits, or 0644 for a new file.
        let mode: mode_t = exists ? info.st_mode & 0o7777 : 0o644
        _ = fchmod(fd, mode)
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// Whether `path` (followed through symbolic links) is an existing device, FIFO or socket,
    /// which the writer opens and writes in place (no temporary file).
    public static func writesInPlace(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && isWrittenInPlace(kind: info.st_mode & S_IFMT)
    }

    /// Whether a node of `kind` (its `st_mode & S_IFMT`) is written in place: neither a
    /// regular file nor a directory.
    private static func isWrittenInPlace(kind: mode_t) -> Bool { kind != S_IFREG && kind != S_IFDIR }

    deinit {
        if !finished { discard() }
    }

    /// Appends the UTF-8 bytes of `string` (buffered).
    public func write(_ string: String) {
        guard failure == nil, !finished else { return }
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= Self.bufferSize { flush() }
    }

    /// Appends raw bytes (buffered).
    public func write(bytes: some Sequence<UInt8>) {
        guard failure == nil, !finished else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { flush() }
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { buffer.removeAll(keepingCapacity: true); return }
        let fd = descriptor
        let code = buffer.withUnsafeBytes { writeAll($0, toDescriptor: fd) }
        if let code { failure = .io(operation: .write, path: path, code: code) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Runs `body` with this writer, then commits; if `body` throws, the write is discarded
    /// (the destination is untouched) and the error is rethrown.
    /// - Throws: the error of `body`, or ``ExportError`` from ``commit()``.
    public func commit(after body: (AtomicFileWriter) throws -> Void) throws {
        do {
            try body(self)
        } catch {
            discard()
            throw error
        }
        try commit()
    }

    /// Flushes, syncs and closes the temporary file and renames it over the destination.
    ///
    /// - Throws: the first ``ExportError`` met while writing, syncing or renaming; the
    ///   destination is then unchanged and the temporary file removed.
    public func commit() throws(ExportError) {
        guard !finished else { return }
        flush()
        if writesDirectly {
            finished = true
            let closeResult = close(descriptor)
            let closeErrno = errno
            if let failure { throw failure }
            if closeResult != 0 && closeErrno != EINTR { throw .io(operation: .write, path: path, code: closeErrno) }
            return
        }
        if failure == nil {
            while fsync(descriptor) != 0 {
                if errno == EINTR { continue }
                failure = .io(operation: .sync, path: path, code: errno)
                break
            }
        }
        if let failure {
            discard()
            throw failure
        }
        finished = true
        let closeResult = close(descriptor)
        let closeErrno = errno
        if closeResult != 0 && closeErrno != EINTR {
            _ = unlink(temporaryPath)
            throw .io(operation: .write, path: path, code: closeErrno)
        }
        if rename(temporaryPath, target) != 0 {
            let code = errno
            _ = unlink(temporaryPath)
            throw .io(operation: .replace, path: path, code: code)
        }
        syncDirectory(splitPath(target).directory)
    }

    /// Abandons the write: closes and removes the temporary file. The destination is
    /// untouched (when ``writesDirectly``, bytes already written to the device or FIFO
    /// stay written). Calling it after ``commit()`` does nothing.
    public func discard() {
        guard !finished else { return }
        finished = true
        _ = close(descriptor)
        if !writesDirectly { _ = unlink(temporaryPath) }
    }
}

/// Whole-file helpers built on ``AtomicFileWriter`` and POSIX reads.
public enum TextFile {
    /// Writes `text` (UTF-8) to `path` atomically; see ``AtomicFileWriter``.
    /// - Throws: ``ExportError`` naming the path and the operating system's error.
    public static func write(_ text: String, toPath path: String, createDirectory: Bool = false) throws(ExportError) {
        let writer = try AtomicFileWriter(path: path, createDirectory: createDirectory)
        writer.write(text)
        try writer.commit()
    }

    /// Writes a file atomically with the output of `body`; if `body` throws, the temporary
    /// file is removed, the destination is untouched and the error is rethrown.
    /// - Throws: the error of `body`, or ``ExportError``.
    public static func writeAtomically(toPath path: String, createDirectory: Bool = false,
                                       _ body: (AtomicFileWriter) throws -> Void) throws {
        try AtomicFileWriter(path: path, createDirectory: createDirectory).commit(after: body)
    }

    /// The most bytes ``read(atPath:maximumBytes:)`` reads by default: 256 MiB.
    public static let defaultReadLimit = 256 << 20

    /// Reads the whole file at `path` as UTF-8 (invalid sequences are replaced by U+FFFD).
    /// - Parameters:
    ///   - path: the file to read.
    ///   - maximumBytes: the largest file read (bytes, ≥ 0); a longer one (or an endless
    ///     one, such as `/dev/zero`) is refused once its reading passes the limit.
    /// - Throws: ``ExportError`` naming the path and the operating system's error (for
    ///   example `No such file or directory`, or `Is a directory`), or
    ///   ``ExportError/tooLarge(path:limit:)``.
    public static func read(atPath path: String, maximumBytes: Int = defaultReadLimit) throws(ExportError) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .io(operation: .open, path: path, code: errno) }
        defer { _ = close(fd) }
        let limit = Swift.max(maximumBytes, 0)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(operation: .read, path: path, code: errno)
            }
            if n == 0 { break }
            if n > limit - bytes.count { throw .tooLarge(path: path, limit: limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// MARK: - POSIX helpers

/// Splits a path into its directory (`.` when there is none, `/` for the root) and its
/// last component.
func splitPath(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    var directory = String(path[..<slash])
    if directory.isEmpty { directory = "/" }
    return (directory, name)
}

/// The path that writing to `path` should replace: `path` itself, or, when it is a
/// symbolic link, the path its chain of links ends at (which may not exist: a dangling
/// link's target). Relative link contents are taken relative to the link's directory.
/// - Throws: ``ExportError`` with `ELOOP` after 40 links, or the error of `readlink`.
func resolveSymbolicLinks(_ path: String) throws(ExportError) -> String {
    var current = path
    for _ in 0 ..< 40 {
        var info = stat()
        guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { readlink(current, $0.baseAddress!, $0.count - 1) }
        guard count >= 0 else { throw .io(operation: .open, path: path, code: errno) }
        let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("/") {
            current = link
        } else {
            let directory = splitPath(current).directory
            current = directory == "/" ? "/" + link : directory + "/" + link
        }
    }
    throw .io(operation: .open, path: path, code: ELOOP)
}

/// `mkdir -p`: creates `directory` and any missing parents with mode 0755.
func makeDirectories(_ directory: String) throws(ExportError) {
    var info = stat()
    if stat(directory, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .io(operation: .createDirectory, path: directory, code: ENOTDIR)
        }
        return
    }
    let parent = splitPath(directory).directory
    if parent != directory && parent != "." && parent != "/" {
        try makeDirectories(parent)
    }
    if mkdir(directory, 0o755) != 0 {
        let code = errno
        // Another process may have created it meanwhile.
        if code == EEXIST, stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        throw .io(operation: .createDirectory, path: directory, code: code)
    }
}

/// Syncs a directory so that a rename in it is durable; failures are ignored (some file
/// systems do not support syncing directories).
private func syncDirectory(_ directory: String) {
    let fd = open(directory, O_RDONLY)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    _ = close(fd)
}
