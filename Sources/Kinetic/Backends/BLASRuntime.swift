/// Kinetic's control over the OpenBLAS runtime used by the `.blas` batch backend.
///
/// OpenBLAS starts as many worker threads as the machine has cores and uses them inside
/// a single call. An animation library should not do that behind its host's back: the host
/// owns the threads, and for the small, memory-bound kernels Kinetic runs, the hand-off
/// costs more than it gains. So the first time any Kinetic kernel calls into BLAS, it sets
/// OpenBLAS to **one thread** (`openblas_set_num_threads(1)`), once per process.
/// Large batches can still use several cores, explicitly and predictably, through the
/// `parallel:` parameter of the batch kernels, which splits the lanes into contiguous
/// ranges and runs one single-threaded call per range.
///
/// Note that the OpenBLAS thread count is process-wide: it also applies to any other
/// code in the process that uses OpenBLAS. Call ``setThreadCount(_:)`` after Kinetic's first
/// BLAS use to override it.
///
/// In a build without a BLAS backend (see ``Backend``), ``isAvailable`` is `false`,
/// ``threadCount`` is 0 and ``setThreadCount(_:)`` throws.
public enum BLASRuntime {
    /// The OpenBLAS thread count Kinetic sets at its first BLAS use: 1.
    public static let defaultThreadCount = 1

    /// Whether this build of Kinetic has a BLAS backend (the same as
    /// `Backend.blas.isAvailable`).
    public static var isAvailable: Bool { BLAS.isBuiltIn }

    /// Runs the one-time set-up exactly once (Swift runs global/static `let` initialisers
    /// once, thread-safely).
    private static let configured: Bool = {
        BLAS.setThreadCount(defaultThreadCount)
        return true
    }()

    /// Makes sure the one-time set-up has run. Every BLAS entry point of Kinetic calls this
    /// first; after the first call it costs one already-initialised check.
    @inline(__always)
    static func prepare() {
        _ = configured
    }

    /// The number of threads OpenBLAS currently uses per call (after Kinetic's set-up); 0 in
    /// a build without a BLAS backend.
    public static var threadCount: Int {
        guard isAvailable else { return 0 }
        prepare()
        return BLAS.threadCount
    }

    /// Sets the number of threads OpenBLAS uses per call, process-wide.
    /// - Parameter count: threads, ≥ 1.
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` if `count < 1`;
    ///   ``BackendError/unavailable(_:)`` in a build without a BLAS backend.
    public static func setThreadCount(_ count: Int) throws {
        guard count >= 1 else {
            throw ParameterError.outOfRange(parameter: "count", value: Double(count), expected: "[1, ∞)")
        }
        guard isAvailable else { throw BackendError.unavailable(.blas) }
        prepare()
        BLAS.setThreadCount(count)
    }
}
