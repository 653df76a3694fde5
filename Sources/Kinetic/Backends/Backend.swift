/// Which implementation a batch kernel runs.
///
/// Every batch kernel has a native implementation: Kinetic's own fused loops over SIMD
/// vectors. Where Kinetic is built with a BLAS backend (the `OpenBLAS` package trait, on by
/// default on Linux), each kernel also has a path through CBLAS (OpenBLAS, single-threaded;
/// see ``BLASRuntime``). Both compute the same thing, to within rounding (about 1e-15
/// relative).
///
/// On Apple platforms, and on Linux with default traits disabled, there is no BLAS backend:
/// ``blas`` is then refused with ``BackendError/unavailable(_:)``, and ``automatic`` runs
/// the native kernels, which are all those platforms need.
public enum Backend: Sendable, Hashable, CaseIterable {
    /// Kinetic's own fused loops (`SIMD4<Double>` and C vector loops, one pass over the data).
    /// Always available.
    case native
    /// OpenBLAS through CBLAS (`dcopy`/`daxpy`, `dsbmv`, `dgemv`, `dgemm`). Available only
    /// where ``isAvailable`` says so.
    case blas
    /// Per kernel and batch size, whichever available backend measured faster on the
    /// reference machine. Always available.
    case automatic

    /// Whether this build of Kinetic can run this backend: `false` for ``blas`` in a build
    /// without a BLAS backend, `true` otherwise.
    public var isAvailable: Bool {
        self != .blas || BLAS.isBuiltIn
    }

    /// The backends this build can run, in declaration order.
    public static var available: [Backend] {
        allCases.filter(\.isAvailable)
    }
}

/// The error a batch kernel throws when asked for a backend this build of Kinetic does not
/// carry.
public enum BackendError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `backend` is not built in (``Backend/blas`` without the `OpenBLAS` trait, or on an
    /// Apple platform).
    case unavailable(Backend)

    public var description: String {
        switch self {
        case .unavailable(let backend):
            return "backend = .\(backend) is not available: this build of Kinetic has no BLAS backend "
                + "(it needs the OpenBLAS package trait, on Linux); use .native or .automatic"
        }
    }
}

/// The batch kernels, for calibration look-ups.
enum BatchKernel: Sendable, CaseIterable {
    case sharedProgress
    case perLaneProgress
    case springStep
    case composition
    case bake
    case keyframes
}

extension Backend {
    /// The concrete backend (`.native` or `.blas`) this choice runs for `kernel` over
    /// `lanes` lanes (for ``Batch/bake(basis:keys:lanes:into:backend:)`` `lanes` is the output
    /// size, frames × lanes).
    ///
    /// - Throws: ``BackendError/unavailable(_:)`` for `.blas` in a build without BLAS.
    @inline(__always)
    func resolved(_ kernel: BatchKernel, lanes: Int) throws(BackendError) -> Backend {
        switch self {
        case .native: return .native
        case .blas:
            guard BLAS.isBuiltIn else { throw .unavailable(.blas) }
            return .blas
        case .automatic:
            return BLAS.isBuiltIn && BatchCalibration.prefersBLAS(kernel, lanes: lanes) ? .blas : .native
        }
    }
}
