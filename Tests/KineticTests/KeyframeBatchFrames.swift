import Kinetic
import TestSupport

/// Drives `batch` through 120 frames of per-track progress, as an app with staggered tracks
/// would: each track starts at its own offset in [−0.3, 0.3] and walks forward by 1/90 per
/// frame, and after frame 100 every track also jumps at random. `check` gets each frame's
/// progress and the batch's output.
func walkStaggeredFrames(_ batch: KeyframeBatch, _ rng: inout SeededRandom,
                         check: (_ progress: [Double], _ output: [Double]) -> Void) throws {
    var out = [Double](repeating: .nan, count: batch.count)
    let offsets = (0 ..< batch.count).map { _ in rng.uniform(-0.3, 0.3) }
    for frame in 0 ..< 120 {
        let progress = offsets.map { $0 + Double(frame) / 90 + (frame > 100 ? rng.uniform(-1, 1) : 0) }
        try progress.withUnsafeBufferPointer { p in
            try out.withUnsafeMutableBufferPointer { try batch.evaluate(progress: p, into: $0) }
        }
        check(progress, out)
    }
}
