/// Which implementation a batch kernel runs.
///
/// Every batch kernel has two implementations that compute the same thing (they agree to
/// within rounding, about 1e-15 relative): a native Swift loop over SIMD vectors, and a
/// call into CBLAS (OpenBLAS, single-threaded; see ``BLASRuntime``).
public enum Backend: Sendable, Hashable, CaseIterable {
    /// Kinetic's own fused loops (`SIMD4<Double>`, one pass over the data).
    case native
    /// OpenBLAS through CBLAS (`dcopy`/`daxpy`, `dsbmv`, `dgemv`, `dgemm`).
    case blas
    /// Per kernel and batch size, whichever of the two measured faster on the reference
    /// machine (see `BatchCalibration`).
    case automatic
}

/// The batch kernels, for calibration look-ups.
enum BatchKernel: Sendable, CaseIterable {
    case sharedProgress
    case perLaneProgress
    case springStep
    case composition
    case bake
}

extension Backend {
    /// The concrete backend (`.native` or `.blas`) this choice runs for `kernel` over
    /// `lanes` lanes (for ``Batch/bake(basis:keys:lanes:into:backend:)`` `lanes` is the output
    /// size, frames × lanes).
    @inline(__always)
    func resolved(_ kernel: BatchKernel, lanes: Int) -> Backend {
        switch self {
        case .native, .blas: return self
        case .automatic: return BatchCalibration.prefersBLAS(kernel, lanes: lanes) ? .blas : .native
        }
    }
}
