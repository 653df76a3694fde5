// Status codes, the per-thread last error message and the version: the parts of kinetic.h
// that are about the interface itself rather than a Kinetic type.

import KineticPlatform
import Kinetic

/// The `kn_status` codes of kinetic.h (`KN_OK`, `KN_ERR_…`). The raw values are the ABI.
enum Status: Int32, CaseIterable {
    case ok = 0
    case nullArgument = 1
    case notFinite = 2
    case outOfRange = 3
    case countMismatch = 4
    case staleHandle = 5
    case wrongKind = 6
    case structureMismatch = 7
    case unsupported = 8
    case bufferTooSmall = 9
    case `internal` = 10
    case illegalState = 11

    /// The static message of `kn_status_message`.
    var message: String {
        switch self {
        case .ok: return "success"
        case .nullArgument: return "a required handle or pointer was NULL"
        case .notFinite: return "a parameter was NaN or infinite"
        case .outOfRange: return "a parameter, count or index was out of range"
        case .countMismatch: return "array lengths do not match"
        case .staleHandle: return "the store entry was removed or belongs to another store"
        case .wrongKind: return "the operation does not apply to this kind of store entry"
        case .structureMismatch: return "keyframe tracks differ in key times or interpolations"
        case .unsupported: return "the interpolation cannot be batched"
        case .bufferTooSmall: return "the output buffer is too small"
        case .internal: return "internal error"
        case .illegalState: return "the call is not allowed in the run's current state"
        }
    }
}

/// A failure detected by the C layer itself (NULL pointers, bad counts, unknown enum values);
/// Kinetic's own typed errors are mapped by ``status(for:)``.
struct InterfaceError: Error {
    let status: Status
    let message: String
}

/// The status for an error thrown by Kinetic or by the marshalling code.
func status(for error: any Error) -> Status {
    switch error {
    case let e as InterfaceError: return e.status
    case let e as ParameterError:
        switch e {
        case .notFinite: return .notFinite
        case .outOfRange: return .outOfRange
        case .countMismatch: return .countMismatch
        }
    case let e as BatchStoreError:
        switch e {
        case .staleHandle: return .staleHandle
        case .wrongKind: return .wrongKind
        case .structureMismatch: return .structureMismatch
        case .unsupportedInterpolation: return .unsupported
        case .overflow: return .outOfRange
        }
    case let e as RunError:
        if case .invalidParameter(let p) = e { return status(for: p) }
        return .illegalState
    default: return .internal
    }
}

/// Runs `body`, turning a thrown error into its status and recording its message as the
/// calling thread's last error.
@inline(__always)
func guarded(_ body: () throws -> Void) -> Int32 {
    do {
        try body()
        return Status.ok.rawValue
    } catch {
        let code = status(for: error)
        LastError.set(message(for: error))
        return code.rawValue
    }
}

/// The last-error message for `error`. Kinetic's parameter errors name the Swift API's
/// parameters (`dampingRatio`); the message names the C parameter instead (`damping_ratio`:
/// the header's names are the Swift names in snake case, except the fraction that
/// `kn_engine_run_set_fraction` takes).
func message(for error: any Error) -> String {
    switch error {
    case let e as InterfaceError: return e.message
    case let e as ParameterError: return cNames(e.description)
    case RunError.invalidParameter(let e): return cNames(e.description)
    default: return String(describing: error)
    }
}

/// `text` with every camel-case word (a lower-case letter, then letters, digits and at least
/// one capital: `dampingRatio`, `keyTimes`) in snake case, and `fractionComplete` as the C
/// interface's `fraction`. Words that start with a digit or a capital (`1e300`, `NaN`,
/// `KN_MAX_COUNT`) are left as they are.
func cNames(_ text: String) -> String {
    var out = "", word = ""
    func flush() {
        if word == "fractionComplete" {
            out += "fraction"
        } else if let first = word.first, first.isLowercase, word.contains(where: \.isUppercase) {
            for c in word {
                if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
            }
        } else {
            out += word
        }
        word = ""
    }
    for c in text {
        if c.isASCII && (c.isLetter || c.isNumber || c == "_") {
            word.append(c)
        } else {
            flush()
            out.append(c)
        }
    }
    flush()
    return out
}

// MARK: - Last error (per thread)

/// The calling thread's last error message, kept as a malloc'd C string under a pthread key
/// (freed when the thread exits or the next error replaces it).
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { free($0) }
        precondition(result == 0, "pthread_key_create failed (\(result))")
        return key
    }()

    static func set(_ message: String) {
        let old = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(old)
    }

    /// The message, or nil when none was set on this thread.
    static var current: UnsafePointer<CChar>? {
        pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
    }
}

// MARK: - Static strings

/// NUL-terminated copies of the static strings, made once and never freed.
private struct StaticCStrings: @unchecked Sendable {
    let messages: [UnsafeMutablePointer<CChar>]
    let unknown: UnsafeMutablePointer<CChar>
    let version: UnsafeMutablePointer<CChar>
}

private let staticStrings = StaticCStrings(
    messages: Status.allCases.map { strdup($0.message)! },
    unknown: strdup("unknown status")!,
    version: strdup(Kinetic.version)!)

// MARK: - Exports

@_cdecl("kn_status_message")
public func kn_status_message(_ status: Int32) -> UnsafePointer<CChar> {
    guard let s = Status(rawValue: status) else { return UnsafePointer(staticStrings.unknown) }
    return UnsafePointer(staticStrings.messages[Int(s.rawValue)])
}

@_cdecl("kn_last_error_message")
public func kn_last_error_message(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: UInt,
                                  _ length: UnsafeMutablePointer<UInt>?) -> Int32 {
    // Not through `guarded`: this function never replaces the last error.
    if buffer == nil && capacity != 0 { return Status.nullArgument.rawValue }
    let message = LastError.current
    let full = UInt(message.map { strlen($0) } ?? 0)
    length?.pointee = full
    guard let buffer, capacity > 0 else { return Status.ok.rawValue }
    var copied = Int(min(full, capacity - 1))
    if let message, UInt(copied) < full {
        // Cut at a character boundary: never leave the first bytes of a UTF-8 sequence
        // (a prefix that strict decoders, Python's and Rust's, refuse). Continuation
        // bytes are 10xxxxxx; the byte at `copied` is the first one left out.
        let bytes = UnsafeRawPointer(message).assumingMemoryBound(to: UInt8.self)
        while copied > 0 && bytes[copied] & 0xC0 == 0x80 { copied -= 1 }
    }
    if let message, copied > 0 { memcpy(buffer, message, copied) }
    buffer[copied] = 0
    return UInt(copied) < full ? Status.bufferTooSmall.rawValue : Status.ok.rawValue
}

@_cdecl("kn_version")
public func kn_version(_ major: UnsafeMutablePointer<Int32>?, _ minor: UnsafeMutablePointer<Int32>?,
                       _ patch: UnsafeMutablePointer<Int32>?) -> Int32 {
    guarded {
        if major == nil && minor == nil && patch == nil {
            throw InterfaceError(status: .nullArgument, message: "major, minor and patch are all NULL")
        }
        major?.pointee = Int32(ReleaseVersion.current.major)
        minor?.pointee = Int32(ReleaseVersion.current.minor)
        patch?.pointee = Int32(ReleaseVersion.current.patch)
    }
}

@_cdecl("kn_version_string")
public func kn_version_string() -> UnsafePointer<CChar> {
    UnsafePointer(staticStrings.version)
}
