// How much memory the process may use: what a call that builds a large structure checks its
// needs against before it allocates, so that it returns an error instead of being killed.

/// The machine's physical memory in bytes (`sysconf`'s page count times the page size), or
/// nil where the platform does not say: what a call that builds a large structure can check
/// its needs against before it allocates.
package var physicalMemoryBytes: Int? {
    let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
    guard pages > 0, size > 0 else { return nil }
    let (bytes, overflow) = pages.multipliedReportingOverflow(by: size)
    return overflow ? Int.max : bytes
}

/// `bytes` in GiB, rounded up to a tenth ("89.5 GiB"), for messages that compare a need with
/// ``physicalMemoryBytes``.
package func gibibytes(_ bytes: Double) -> String {
    "\((bytes / Double(1 << 30) * 10).rounded(.up) / 10) GiB"
}

/// The memory this process may use, in bytes: the machine's physical memory, or less where
/// the process's control group (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`, on its
/// own group and every group above it) sets a lower limit, as a container does; nil where
/// the platform says neither.
package var memoryLimitBytes: Int? {
    let limits = [physicalMemoryBytes, controlGroupMemoryLimit].compactMap { $0 }
    return limits.min()
}

/// The lowest memory limit of the control groups the process is in (Linux), or nil.
private var controlGroupMemoryLimit: Int? {
    #if os(Linux)
    guard let membership = smallFile("/proc/self/cgroup") else { return nil }
    var lowest: Int?
    for line in membership.split(separator: "\n") {
        // "0::/path" (v2) or "4:memory:/path" (v1, possibly with other controllers).
        let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { continue }
        let file: String, root: String
        if fields[0] == "0" && fields[1].isEmpty {
            (root, file) = ("/sys/fs/cgroup", "memory.max")
        } else if fields[1].split(separator: ",").contains("memory") {
            (root, file) = ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
        } else {
            continue
        }
        // The group and each one above it: a limit anywhere up the tree holds.
        var path = String(fields[2])
        while true {
            let directory = path == "/" ? root : root + path
            if let text = smallFile(directory + "/" + file),
               let limit = Int(text.filter { !$0.isWhitespace }), limit > 0 {
                lowest = Swift.min(lowest ?? limit, limit)
            }
            guard path != "/", let cut = path.lastIndex(of: "/") else { break }
            path = cut == path.startIndex ? "/" : String(path[..<cut])
        }
    }
    return lowest
    #else
    return nil
    #endif
}

/// The text of a small file (at most 4 KiB read), or nil when it cannot be opened.
private func smallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
    guard count >= 0 else { return nil }
    return String(decoding: bytes[..<count], as: UTF8.self)
}
