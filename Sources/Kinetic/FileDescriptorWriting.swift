import KineticPlatform

/// Writes every byte of `bytes` to the open file descriptor `descriptor`, retrying short
/// writes and `EINTR`.
///
/// - Returns: `nil` when everything was written, otherwise the `errno` of the failing
///   `write` (nothing after the failure is written).
package func writeAll(_ bytes: UnsafeRawBufferPointer, toDescriptor descriptor: Int32) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
        let n = systemWrite(descriptor, base + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        if n == 0 { return EIO }
        offset += n
    }
    return nil
}
