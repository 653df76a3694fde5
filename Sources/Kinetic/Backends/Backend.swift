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
    /// where ``isAvailable`` says so. OpenBLAS is loaded the first time a kernel runs it (or
    /// ``isAvailable`` is asked about it), not before.
    case blas
    /// Per kernel and batch size, whichever available backend measured faster on the
    /// reference machine. Always available.
    case automatic

    /// Whether this build of Kinetic can run this backend: for ``blas``, whether the build
    /// has a BLAS backend and OpenBLAS (`libopenblas.so.0`) can be loaded; asking loads it (and
    /// so starts its thread pool, see ``BLASRuntime``). `true` for the others.
    public var isAvailable: Bool {
        self != .blas || BLAS.isAvailable
    }

    /// The backends this build can run, in declaration order.
    public static var available: [Backend] {
        allCases.filter(\.isAvailable)
    }
}

/// The error a batch kernel throws when asked for a backend this build of Kinetic does not
/// carry.
public enum BackendError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `backend` cannot run: ``Backend/blas`` without the `OpenBLAS` trait, on an Apple
    /// platform, or where OpenBLAS cannot be loaded (the description says which).
    case unavailable(Backend)

    public var description: String {
        switch self {
        case .unavailable(let backend):
            if BLAS.isBuiltIn, let reason = BLAS.loadError {
                return "backend = .\(backend) is not available: OpenBLAS could not be loaded (\(reason)); "
                    + "install Debian's libopenblas0, or use .native or .automatic"
            }
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
    /// - Throws: ``BackendError/unavailable(_:)`` for `.blas` in a build without BLAS, or
    ///   where OpenBLAS cannot be loaded. `.automatic` loads OpenBLAS only where it would run it.
    @inline(__always)
    func resolved(_ kernel: BatchKernel, lanes: Int) throws(BackendError) -> Backend {
        switch self {
        case .native: return .native
        case .blas:
            guard BLAS.isAvailable else { throw .unavailable(.blas) }
            return .blas
        case .automatic:
            return BLAS.isBuiltIn && BatchCalibration.prefersBLAS(kernel, lanes: lanes) && BLAS.isAvailable
                ? .blas : .native
        }
    }
}
