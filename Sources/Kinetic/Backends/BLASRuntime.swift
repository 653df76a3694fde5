/// Kinetic's control over the OpenBLAS runtime used by the `.blas` batch backend.
///
/// OpenBLAS starts as many worker threads as the machine has cores and uses them inside
/// a single call. An animation library should not do that behind its host's back: the host
/// owns the threads, and for the small, memory-bound kernels Kinetic runs, the hand-off
/// costs more than it gains. So Kinetic does not link OpenBLAS: it loads it (`dlopen` of
/// `libopenblas.so.0`) the first time a kernel runs a BLAS routine, or ``isAvailable`` or
/// ``threadCount`` is asked, and sets it to **one thread** at once
/// (`openblas_set_num_threads(1)`). A process that never runs a BLAS routine never loads
/// OpenBLAS and never starts its thread pool (Debian's default OpenBLAS starts it when it is
/// loaded). Large batches can still use several cores, explicitly and predictably, through the
/// `parallel:` parameter of the batch kernels, which splits the lanes into contiguous
/// ranges and runs one single-threaded call per range.
///
/// Note that the OpenBLAS thread count is process-wide: where the process also links OpenBLAS
/// itself, Kinetic's load finds that copy, and the count applies to all its users. Call
/// ``setThreadCount(_:)`` to override it.
///
/// In a build without a BLAS backend (see ``Backend``), or where OpenBLAS cannot be loaded,
/// ``isAvailable`` is `false`, ``threadCount`` is 0 and ``setThreadCount(_:)`` throws.
public enum BLASRuntime {
    /// The OpenBLAS thread count Kinetic sets when it loads OpenBLAS: 1.
    public static let defaultThreadCount = 1

    /// Whether the `.blas` backend can run: this build has one and OpenBLAS can be loaded
    /// (the same as `Backend.blas.isAvailable`). Asking loads OpenBLAS.
    public static var isAvailable: Bool { BLAS.isAvailable }

    /// The number of threads OpenBLAS uses per call (loading it first); 0 where
    /// ``isAvailable`` is `false`.
    public static var threadCount: Int {
        guard isAvailable else { return 0 }
        return BLAS.threadCount
    }

    /// Sets the number of threads OpenBLAS uses per call, process-wide (loading it first).
    /// - Parameter count: threads, ≥ 1.
    /// - Throws: ``ParameterError/outOfRange(parameter:value:expected:)`` if `count < 1`;
    ///   ``BackendError/unavailable(_:)`` where ``isAvailable`` is `false`.
    public static func setThreadCount(_ count: Int) throws {
        guard count >= 1 else {
            throw ParameterError.outOfRange(parameter: "count", value: Double(count), expected: "[1, ∞)")
        }
        guard isAvailable else { throw BackendError.unavailable(.blas) }
        BLAS.setThreadCount(count)
    }
}
