// The one place that knows which C library the platform has: Glibc (Linux), Musl (the
// static Linux SDK) or Darwin (Apple platforms). Every other file of the package imports this
// module instead of its own `#if canImport(Glibc)`, and what differs beyond the module's
// name is wrapped here. Internal to the package: no product exports it, and the modules that
// import it do not re-export it to their users.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("Kinetic needs Glibc, Musl or Darwin")
#endif

/// `write(2)`: up to `count` bytes from `buffer` to the descriptor `fd`; the bytes written,
/// or -1 with `errno` set. Qualified by module, so that a caller's own `write` method does
/// not shadow it.
@inline(__always)
package func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

/// `read(2)`: up to `count` bytes from the descriptor `fd` into `buffer`; the bytes read (0
/// at the end), or -1 with `errno` set.
@inline(__always)
package func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}

/// `exit(3)`: ends the process with `code`.
package func systemExit(_ code: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(code)
    #elseif canImport(Musl)
    Musl.exit(code)
    #else
    Darwin.exit(code)
    #endif
}
