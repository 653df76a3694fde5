import KineticPlatform
import Dispatch

/// Explicit splitting of a large batch over the machine's cores (the `parallel:` option
/// of the batch kernels).
///
/// The lanes are cut into one contiguous range per core (at most), each at least
/// ``minimumLanesPerThread`` long and starting on a multiple of 8 lanes (64 bytes, one cache
/// line for aligned storage), and the ranges run through `DispatchQueue.concurrentPerform`.
/// Batches too small to be worth it run on the calling thread.
enum BatchParallel {
    /// The smallest range worth a thread of its own (below it the hand-off costs more than
    /// the work: ~10 µs of dispatch against ~0.3 ns per lane).
    static let minimumLanesPerThread = 1 << 17

    /// The number of online processors, read once.
    static let coreCount: Int = {
        let n = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return n > 0 ? Int(n) : 1
    }()

    /// Calls `body` with contiguous ranges that together cover `0..<count`, concurrently
    /// when `parallel` is true and the batch is large enough, otherwise once, on this thread.
    @inline(__always)
    static func run(count: Int, parallel: Bool, _ body: (Range<Int>) -> Void) {
        let parts = parallel ? min(coreCount, count / minimumLanesPerThread) : 1
        if parts <= 1 {
            body(0..<count)
            return
        }
        // The ranges are disjoint and `concurrentPerform` returns only after every part has
        // run, so handing the (non-Sendable) body to the workers is safe.
        withoutActuallyEscaping(body) { body in
            let shared = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                shared.value(range(part, of: parts, count: count))
            }
        }
    }

    /// Part `part` of `parts` of `0..<count`, boundaries rounded down to multiples of 8.
    @inline(__always)
    static func range(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        let lower = part == 0 ? 0 : (count / parts * part) & ~7
        let upper = part == parts - 1 ? count : (count / parts * (part + 1)) & ~7
        return lower..<upper
    }
}

/// Carries a value into a `@Sendable` closure where the caller guarantees that the
/// concurrent uses touch disjoint data (see ``BatchParallel/run(count:parallel:_:)``).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
