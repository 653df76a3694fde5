#if KINETIC_BLAS
import CBLAS
import KineticSIMD
import KineticPlatform
#endif

/// The BLAS routines behind the `.blas` paths of the batch kernels, in the shapes the kernels
/// use (internal).
///
/// This file is the only place that names CBLAS. Kinetic builds it with the `OpenBLAS`
/// package trait on Linux (compilation condition `KINETIC_BLAS`); everywhere else
/// ``isBuiltIn`` is `false`, ``Backend/blas`` is refused by ``Backend/resolved(_:lanes:)``
/// before any kernel gets here, and these functions are never called.
///
/// OpenBLAS is not linked: it is loaded with `dlopen` the first time a `.blas` path runs (or
/// ``isAvailable`` is asked), and set to one thread at once. Debian's default OpenBLAS starts
/// its thread pool when it is loaded, so a process (or an engine that links Kinetic's C
/// library) that never runs a BLAS routine never starts it. `CBLAS` supplies only the
/// declarations of `cblas.h`, which the function types below are checked against.
enum BLAS {
    /// Whether this build of Kinetic carries a BLAS backend.
    static var isBuiltIn: Bool {
        #if KINETIC_BLAS
        return true
        #else
        return false
        #endif
    }

    /// Whether the BLAS backend can run: built in, and OpenBLAS loaded (loading it on the
    /// first call).
    static var isAvailable: Bool {
        #if KINETIC_BLAS
        return loaded.routines != nil
        #else
        return false
        #endif
    }

    /// Why OpenBLAS could not be loaded (`dlerror`'s message), or nil, also while no load was
    /// tried yet: asking this never loads OpenBLAS (an error's description reads it).
    static var loadError: String? {
        #if KINETIC_BLAS
        return kinetic_atomic_load_flag(loadAttempted) ? loaded.error : nil
        #else
        return nil
        #endif
    }

    /// y[0 ..< n] = x[0 ..< n] (`dcopy`).
    static func copy(_ n: Int, _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        routines.dcopy(Int32(n), x, 1, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y += alpha · x over n elements (`daxpy`).
    static func axpy(_ n: Int, _ alpha: Double, _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        routines.daxpy(Int32(n), alpha, x, 1, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y += a ∘ x, element by element over n elements: `dsbmv` with bandwidth 0 (a diagonal
    /// matrix given by its diagonal `a`).
    static func diagonalMultiplyAdd(_ n: Int, _ a: UnsafePointer<Double>, _ x: UnsafePointer<Double>,
                                    _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        routines.dsbmv(CblasRowMajor, CblasUpper, Int32(n), 0, 1, a, 1, x, 1, 1, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y (n) = Aᵀ · x (m) for a row-major m × n matrix A with row stride `lda` (`dgemv`).
    static func transposedMatrixVector(rows m: Int, columns n: Int, _ a: UnsafePointer<Double>, lda: Int,
                                       _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        routines.dgemv(CblasRowMajor, CblasTrans, Int32(m), Int32(n), 1, a, Int32(lda), x, 1, 0, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// y (m) = A · x (n) for a column-major m × n matrix A with column stride `lda` (`dgemv`).
    static func columnMajorMatrixVector(rows m: Int, columns n: Int, _ a: UnsafePointer<Double>, lda: Int,
                                        _ x: UnsafePointer<Double>, _ y: UnsafeMutablePointer<Double>) {
        #if KINETIC_BLAS
        routines.dgemv(CblasColMajor, CblasNoTrans, Int32(m), Int32(n), 1, a, Int32(lda), x, 1, 0, y, 1)
        #else
        notBuiltIn()
        #endif
    }

    /// C (m × n) = A (m × k) · B (k × n), all row-major with row strides `lda`, `ldb`, `ldc`
    /// (`dgemm`).
    static func matrixProduct(m: Int, n: Int, k: Int, _ a: UnsafePointer<Double>, lda: Int,
                              _ b: UnsafePointer<Double>, ldb: Int, _ c: UnsafeMutablePointer<Double>, ldc: Int) {
        #if KINETIC_BLAS
        routines.dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k),
                       1, a, Int32(lda), b, Int32(ldb), 0, c, Int32(ldc))
        #else
        notBuiltIn()
        #endif
    }

    /// OpenBLAS's per-call thread count (0 without a BLAS backend, or when it cannot be loaded).
    static var threadCount: Int {
        #if KINETIC_BLAS
        guard let r = loaded.routines else { return 0 }
        return Int(r.getThreads())
        #else
        return 0
        #endif
    }

    /// Sets OpenBLAS's per-call thread count (nothing without a BLAS backend).
    static func setThreadCount(_ count: Int) {
        #if KINETIC_BLAS
        loaded.routines?.setThreads(Int32(clamping: count))
        #endif
    }

    #if KINETIC_BLAS
    /// The loaded routines: only reached after ``Backend/resolved(_:lanes:)`` checked
    /// ``isAvailable``.
    private static var routines: Routines {
        guard let r = loaded.routines else {
            preconditionFailure("OpenBLAS is not loaded; Backend.resolved refuses .blas then")
        }
        return r
    }

    /// OpenBLAS, loaded once (Swift runs a static `let` initialiser once, thread-safely).
    private static let loaded: (routines: Routines?, error: String?) = {
        let result = Routines.load()
        kinetic_atomic_set_flag(loadAttempted)
        return result
    }()

    /// Whether ``loaded`` has been initialised (so that ``loadError`` can read it without
    /// loading).
    /// (`nonisolated(unsafe)`: the pointer never changes and the flag it points to is only
    /// read and written through `kinetic_atomic_*`.)
    nonisolated(unsafe) private static let loadAttempted: UnsafeMutablePointer<Bool> = {
        let flag = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        flag.initialize(to: false)
        return flag
    }()
    #else
    /// Unreachable: ``Backend/resolved(_:lanes:)`` refuses `.blas` in a build without BLAS.
    private static func notBuiltIn() -> Never {
        preconditionFailure("Kinetic was built without a BLAS backend; Backend.resolved refuses .blas")
    }
    #endif
}

#if KINETIC_BLAS
/// The OpenBLAS entry points Kinetic uses, resolved with `dlsym`. The function types repeat
/// `cblas.h`'s declarations, with its enum types.
private struct Routines: @unchecked Sendable {
    typealias Dcopy = @convention(c) (Int32, UnsafePointer<Double>?, Int32, UnsafeMutablePointer<Double>?, Int32) -> Void
    typealias Daxpy = @convention(c) (Int32, Double, UnsafePointer<Double>?, Int32, UnsafeMutablePointer<Double>?,
                                      Int32) -> Void
    typealias Dsbmv = @convention(c) (CBLAS_ORDER, CBLAS_UPLO, Int32, Int32, Double, UnsafePointer<Double>?, Int32,
                                      UnsafePointer<Double>?, Int32, Double, UnsafeMutablePointer<Double>?, Int32)
        -> Void
    typealias Dgemv = @convention(c) (CBLAS_ORDER, CBLAS_TRANSPOSE, Int32, Int32, Double, UnsafePointer<Double>?,
                                      Int32, UnsafePointer<Double>?, Int32, Double, UnsafeMutablePointer<Double>?,
                                      Int32) -> Void
    typealias Dgemm = @convention(c) (CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, Int32, Int32, Int32, Double,
                                      UnsafePointer<Double>?, Int32, UnsafePointer<Double>?, Int32, Double,
                                      UnsafeMutablePointer<Double>?, Int32) -> Void
    typealias GetThreads = @convention(c) () -> Int32
    typealias SetThreads = @convention(c) (Int32) -> Void

    let dcopy: Dcopy
    let daxpy: Daxpy
    let dsbmv: Dsbmv
    let dgemv: Dgemv
    let dgemm: Dgemm
    let getThreads: GetThreads
    let setThreads: SetThreads

    /// The shared objects tried, in order: Debian's runtime package (`libopenblas0`, through
    /// its alternatives), then the development link.
    static let libraryNames = ["libopenblas.so.0", "libopenblas.so"]

    /// Loads OpenBLAS and resolves every routine, then sets it to
    /// ``BLASRuntime/defaultThreadCount`` threads; or the reason it could not.
    static func load() -> (routines: Routines?, error: String?) {
        var reasons: [String] = []
        for name in libraryNames {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): cannot be loaded")
                continue
            }
            func symbol<F>(_ symbolName: String, _ type: F.Type) -> F? {
                dlsym(handle, symbolName).map { unsafeBitCast($0, to: F.self) }
            }
            guard let dcopy = symbol("cblas_dcopy", Dcopy.self), let daxpy = symbol("cblas_daxpy", Daxpy.self),
                  let dsbmv = symbol("cblas_dsbmv", Dsbmv.self), let dgemv = symbol("cblas_dgemv", Dgemv.self),
                  let dgemm = symbol("cblas_dgemm", Dgemm.self),
                  let getThreads = symbol("openblas_get_num_threads", GetThreads.self),
                  let setThreads = symbol("openblas_set_num_threads", SetThreads.self) else {
                reasons.append("\(name): a CBLAS or OpenBLAS routine is missing")
                dlclose(handle)
                continue
            }
            setThreads(Int32(BLASRuntime.defaultThreadCount))
            return (Routines(dcopy: dcopy, daxpy: daxpy, dsbmv: dsbmv, dgemv: dgemv, dgemm: dgemm,
                             getThreads: getThreads, setThreads: setThreads), nil)
        }
        return (nil, reasons.joined(separator: "; "))
    }
}
#endif
