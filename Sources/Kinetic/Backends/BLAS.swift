#if KINETIC_BLAS
import CBLAS
#endif

/// The BLAS routines behind the `.blas` paths of the batch kernels, in the shapes the kernels
/// use (internal).
///
/// This file is the only place that names CBLAS. Kinetic builds it with the `OpenBLAS`
/// package trait on Linux (compilation condition `KINETIC_BLAS`); everywhere else
/// ``isBuiltIn`` is `false`, ``Backend/blas`` is refused by ``Backend/resolved(_:lanes:)``
/// before any kernel gets here, and these functions are never called.
enum BLAS {
    /// Whether this build of Kinetic carries a BLAS backend.
    static var isBuiltIn: Bool {
        #if KINETIC_BLAS
        return true
        #else
        return false
        #endif
    }

    /// y[0 ..< n] = x[0 ..< n] (`dcopy`).
    static func copy(_ n: Int, _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        cblas_dcopy(Int32(n), x, 1, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y += alpha · x over n elements (`daxpy`).
    static func axpy(_ n: Int, _ alpha: Double, _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        cblas_daxpy(Int32(n), alpha, x, 1, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y += a ∘ x, element by element over n elements: `dsbmv` with bandwidth 0 (a diagonal
    /// matrix given by its diagonal `a`).
    static func diagonalMultiplyAdd(_ n: Int, _ a: UnsafePointer<Double>, _ x: UnsafePointer<Double>,
                                    _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        cblas_dsbmv(CblasRowMajor, CblasUpper, Int32(n), 0, 1, a, 1, x, 1, 1, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y (n) = Aᵀ · x (m) for a row-major m × n matrix A with row stride `lda` (`dgemv`).
    static func transposedMatrixVector(rows m: Int, columns n: Int, _ a: UnsafePointer<Double>, lda: Int,
                                       _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        cblas_dgemv(CblasRowMajor, CblasTrans, Int32(m), Int32(n), 1, a, Int32(lda), x, 1, 0, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y (m) = A · x (n) for a column-major m × n matrix A with column stride `lda` (`dgemv`).
    static func columnMajorMatrixVector(rows m: Int, columns n: Int, _ a: UnsafePointer<Double>, lda: Int,
                                        _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        cblas_dgemv(CblasColMajor, CblasNoTrans, Int32(m), Int32(n), 1, a, Int32(lda), x, 1, 0, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// C (m × n) = A (m × k) · B (k × n), all row-major with row strides `lda`, `ldb`, `ldc`
    /// (`dgemm`).
    static func matrixProduct(m: Int, n: Int, k: Int, _ a: UnsafePointer<Double>, lda: Int,
                              _ b: UnsafePointer<Double>, ldb: Int, _ c: UnsafeMutablePointer<Double>, ldc: Int) {
        #if KINETIC_BLAS
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k),
                    1, a, Int32(lda), b, Int32(ldb), 0, c, Int32(ldc))
        #else
        notBuiltIn()
        #endif
    }

    /// OpenBLAS's per-call thread count (0 without a BLAS backend).
    static var threadCount: Int {
        #if KINETIC_BLAS
        return Int(openblas_get_num_threads())
        #else
        return 0
        #endif
    }

    /// Sets OpenBLAS's per-call thread count (nothing without a BLAS backend).
    static func setThreadCount(_ count: Int) {
        #if KINETIC_BLAS
        openblas_set_num_threads(Int32(clamping: count))
        #endif
    }

    #if !KINETIC_BLAS
    /// Unreachable: ``Backend/resolved(_:lanes:)`` refuses `.blas` in a build without BLAS.
    private static func notBuiltIn() -> Never {
        preconditionFailure("Kinetic was built without a BLAS backend; Backend.resolved refuses .blas")
    }
    #endif
}
