import Kinetic
import KineticPlatform

/// The main actor's thread, for deinitialisers that must run main-actor code: a comparison of
/// thread identifiers instead of the runtime's executor check, which cost a measurable share
/// of an animator's life. The main actor runs on the process's main thread (Kinetic's engines
/// are main-actor isolated and made there); the first engine records it.
enum MainThread {
    nonisolated(unsafe) private static var thread: pthread_t?

    /// Records the calling thread (on the main actor, so the main thread).
    @MainActor static func record() {
        if thread == nil { thread = pthread_self() }
    }

    /// Whether the calling thread is the main actor's.
    static var isCurrent: Bool {
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Calls the main-actor function `body` with `run` and `front`; only on the main thread
    /// (``isCurrent``). A function, not a closure: a closure's captures would be boxed on the
    /// heap here.
    static func call(_ body: @MainActor (RunHandle, EngineFront) -> Void, _ run: RunHandle, _ front: EngineFront) {
        withoutActuallyEscaping(body) { unsafeBitCast($0, to: ((RunHandle, EngineFront) -> Void).self)(run, front) }
    }
}
