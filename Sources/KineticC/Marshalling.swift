// Checks shared by every export: NULL handles and pointers, int64_t counts, and C arrays
// turned into buffers. Failures throw `InterfaceError` (NULL) or Kinetic's own
// `ParameterError` (counts), so the messages read like the Swift API's.

import Kinetic

/// The largest count accepted for any array passed in, and for the lanes of one store
/// (`KN_MAX_COUNT` of kinetic.h: 2^28 elements, 2 GiB of doubles). Every count is checked
/// against it before anything is allocated, so no count (or product of counts) can ask for
/// an allocation that ends the process.
let maximumCount: Int64 = 1 << 28

/// Throws `KN_ERR_NULL_ARGUMENT` naming `name` when `pointer` is NULL.
@inline(__always)
func required<P>(_ pointer: P?, _ name: @autoclosure () -> String) throws -> P {
    guard let pointer else { throw InterfaceError(status: .nullArgument, message: "\(name()) is NULL") }
    return pointer
}

/// A C count as an Int: throws `KN_ERR_OUT_OF_RANGE` naming the count when it is negative
/// or above ``maximumCount`` (`KN_MAX_COUNT`).
@inline(__always)
func checkedCount(_ count: Int64, _ name: @autoclosure () -> String) throws -> Int {
    guard count >= 0 && count <= maximumCount else { throw countError(name(), count) }
    return Int(count)
}

/// A capacity of an output buffer (nothing is allocated for it): any value >= 0.
@inline(__always)
func checkedCapacity(_ capacity: Int64, _ name: @autoclosure () -> String) throws -> Int {
    guard capacity >= 0, let c = Int(exactly: capacity) else {
        throw InterfaceError(status: .outOfRange, message: "\(name()) = \(capacity) is negative")
    }
    return c
}

/// The `KN_ERR_OUT_OF_RANGE` error for an integer parameter (a lane, an enum value) outside
/// `expected`, with the value printed as the integer it is ("lane = 7", not "7.0").
func integerOutOfRange(_ name: String, _ value: some BinaryInteger, expected: String) -> InterfaceError {
    InterfaceError(status: .outOfRange, message: "\(name) = \(value) is outside \(expected)")
}

/// The `KN_ERR_OUT_OF_RANGE` error for a count outside [0, KN_MAX_COUNT], with the count
/// printed exactly (as an integer, not a rounded double).
func countError(_ name: String, _ count: some BinaryInteger) -> InterfaceError {
    InterfaceError(status: .outOfRange,
                   message: "\(name) = \(count) is outside [0, \(maximumCount)] (KN_MAX_COUNT)")
}

/// Throws when adding `added` lanes to a store of `lanes` would exceed ``maximumCount``.
func checkStoreCapacity(_ lanes: Int, adding added: Int, _ name: String) throws {
    guard Int64(lanes) + Int64(added) <= maximumCount else {
        throw InterfaceError(status: .outOfRange,
                             message: "\(name) = \(added) would make the store's lane count \(Int64(lanes) + Int64(added)), above KN_MAX_COUNT = \(maximumCount)")
    }
}

/// `count` elements at `pointer`; NULL is allowed only for an empty array.
@inline(__always)
func buffer<T>(_ pointer: UnsafePointer<T>?, _ count: Int, _ name: @autoclosure () -> String) throws -> UnsafeBufferPointer<T> {
    if count > 0 { _ = try required(pointer, name()) }
    return UnsafeBufferPointer(start: count > 0 ? pointer : nil, count: count)
}

/// `count` writable elements at `pointer`; NULL is allowed only for an empty array.
@inline(__always)
func mutableBuffer<T>(_ pointer: UnsafeMutablePointer<T>?, _ count: Int, _ name: @autoclosure () -> String) throws -> UnsafeMutableBufferPointer<T> {
    if count > 0 { _ = try required(pointer, name()) }
    return UnsafeMutableBufferPointer(start: count > 0 ? pointer : nil, count: count)
}

/// A copy of `count` doubles at `pointer` as an array (NULL allowed when empty).
func array(_ pointer: UnsafePointer<Double>?, _ count: Int, _ name: @autoclosure () -> String) throws -> [Double] {
    Array(try buffer(pointer, count, name()))
}

// MARK: - Value handles (kn_bezier, kn_spring)

/// An immutable value moved to the heap and handed to C as an opaque pointer.
func makeHandle<T>(_ value: T) -> OpaquePointer {
    let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
    p.initialize(to: value)
    return OpaquePointer(p)
}

/// The value behind a handle made by ``makeHandle(_:)``; throws for NULL.
@inline(__always)
func value<T>(_ handle: OpaquePointer?, as type: T.Type, _ name: String) throws -> T {
    UnsafePointer<T>(try required(handle, name)).pointee
}

/// The `KN_ERR_NULL_ARGUMENT` status for a NULL `name`, with its message recorded as the
/// thread's last error: the scalar calls' error path, kept out of their line.
@inline(never)
func nullFailure(_ name: StaticString) -> Int32 {
    guarded { throw InterfaceError(status: .nullArgument, message: "\(name) is NULL") }
}

/// Frees a handle made by ``makeHandle(_:)``; NULL is a no-op.
func destroyHandle<T>(_ handle: OpaquePointer?, as type: T.Type) {
    guard let handle else { return }
    let p = UnsafeMutablePointer<T>(handle)
    p.deinitialize(count: 1)
    p.deallocate()
}
