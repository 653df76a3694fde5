import Benchmark
import Kinetic

let benchmarks: @Sendable () -> Void = {
}
