/// The `.automatic` backend's choice per kernel and size, from measurement.
///
/// The measurement is `notebooks-data/batch-calibration.csv`: for each kernel and batch size
/// (16 to 1,000,000 lanes; output values for bake), the native and the BLAS path's p0 and p50
/// times per lane from the benchmark suite's "Batch calibrate …" and "Batch 100k / 1M …"
/// benchmarks (`make bench BENCH_ARGS='--filter "Batch.*"'`), release build, OpenBLAS set
/// to one thread. That file also says which path was faster.
///
/// The table below is a threshold per kernel: BLAS is chosen for `lanes >= blasFrom`, and
/// `Int.max` means never. On the reference machine the single-pass native loops beat OpenBLAS
/// for every kernel and size (BLAS makes two passes for shared and per-lane progress, `dsbmv`
/// with K = 0 runs a generic banded loop, and `dgemm` with M = 2 or K = 2 spends its time
/// packing), so every threshold is `Int.max`. A re-measurement on other hardware changes
/// numbers here, not code. In a build without BLAS the table is not consulted.
enum BatchCalibration {
    /// Smallest batch (lanes; output values for bake) from which `.automatic` runs BLAS.
    static func blasFrom(_ kernel: BatchKernel) -> Int {
        switch kernel {
        case .sharedProgress: return .max
        case .perLaneProgress: return .max
        case .springStep: return .max
        case .composition: return .max
        case .bake: return .max
        case .keyframes: return .max
        }
    }

    /// Whether `.automatic` runs BLAS for `kernel` over `lanes` lanes.
    @inline(__always)
    static func prefersBLAS(_ kernel: BatchKernel, lanes: Int) -> Bool {
        lanes >= blasFrom(kernel)
    }
}
